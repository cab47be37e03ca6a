/*
 * The table of every 16-bit input's SELU result, through which the x86 16-bit forward kernels
 * send a share of each step: AVX2 f16 and bf16 (16 of 48 elements) in every call, AVX-512 bf16
 * (16 of 112) in calls below SG_NT_MIN_BYTES (sg_selu16_large). Each kernel keeps its own table,
 * filled once (pthread_once) by its own vector step, so the table holds the vector path's bits,
 * which are the model's (test_selu_forward checks every input at every position of each step, in
 * calls on both sides of SG_NT_MIN_BYTES). The fill runs the ISA's vectors and so lives in the
 * kernel's file; the type, the size test and the lookups are plain scalar code, shared here and
 * compiled under each includer's ISA flags (nothing in them depends on those).
 *
 * A lookup uses the integer and load units, which the vector step leaves idle, so the two
 * overlap, as long as the table's lines that the data use stay in L1. On the Zen 5 VM
 * (selugrad_isa_rates, 4K elements in L1, cycles per 16): AVX2 f16 32 by vectors + 16 by the
 * table 11.8-12.2 against 17.1-17.5 by vectors alone; AVX-512 bf16 96 + 16 5.8-6.0 against
 * 6.6-7.0. Where the table stays out:
 *   - AVX-512 f16: the benchmark's float16 values use 557 of the table's 64-byte lines (34 KiB of
 *     a 48 KiB L1), which the data keep evicting; 64 + 16 ran 15 % faster or 40 % slower than
 *     vectors alone from one process to the next, in L1 and L2 alike (bfloat16 values use 72).
 *   - AVX-512 bf16 in calls of SG_NT_MIN_BYTES or more (the size of the kernel calls of a call
 *     the executor streams, nt_bytes.h): from DRAM the table gave no consistent gain
 *     (docs/dispatch.md, "Stores and prefetch (x86)").
 * The AVX2 kernels keep the table in large calls too: vectors alone there were not consistently
 * faster from DRAM and slower from the L3 (docs/dispatch.md).
 */
#ifndef SELUGRAD_KERNELS_SELU16_TABLE_H
#define SELUGRAD_KERNELS_SELU16_TABLE_H

#include <immintrin.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel.h"
#include "nt_bytes.h"

typedef struct {
    uint16_t y[65536];
    pthread_once_t once;
} sg_selu16_table;

/* Whether a 16-bit forward call of n elements moves SG_NT_MIN_BYTES or more (x and y): the size
   of the kernel calls of a call the executor streams (nt_bytes.h), whose data come from and go to
   DRAM; smaller calls are those of a call that stays in cache. */
static inline int sg_selu16_large(size_t n) {
    return n * 2 * sizeof(uint16_t) >= SG_NT_MIN_BYTES;
}

/* 16 elements through the table: 4 lookups per 64-bit load and store. */
SG_ALWAYS_INLINE void sg_selu16_lut16(const uint16_t *tab, const uint16_t *x, uint16_t *y,
                                      int stream) {
    for (int j = 0; j < 16; j += 4) {
        uint64_t v, r;
        memcpy(&v, x + j, 8);
        r = (uint64_t)tab[v & 0xFFFF] | (uint64_t)tab[(v >> 16) & 0xFFFF] << 16 |
            (uint64_t)tab[(v >> 32) & 0xFFFF] << 32 | (uint64_t)tab[v >> 48] << 48;
        if (stream)
            _mm_stream_si64((long long *)(void *)(y + j), (long long)r);
        else
            memcpy(y + j, &r, 8);
    }
}

/* m elements through the table one by one: the peel and the tail. */
static inline void sg_selu16_lut_rest(const uint16_t *tab, size_t m, const void *xv, void *yv) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    for (size_t i = 0; i < m; i++) y[i] = tab[x[i]];
}

#endif /* SELUGRAD_KERNELS_SELU16_TABLE_H */
