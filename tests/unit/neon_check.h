/*
 * Helpers shared by the NEON variant tests: finding a dtype's NEON and scalar kernels in the
 * list, a small deterministic generator, and a bit-for-bit comparison that names the first
 * differing element. The scalar kernel is the project's reference model (docs/contract.md,
 * "Per-dtype computation").
 */
#ifndef SELUGRAD_TESTS_UNIT_NEON_CHECK_H
#define SELUGRAD_TESTS_UNIT_NEON_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernels/kernel.h"
#include "selugrad/selugrad.h"

#define SG_NEON_DTYPE_COUNT 6
static const selugrad_dtype sg_neon_dtypes[SG_NEON_DTYPE_COUNT] = {
    SELUGRAD_FLOAT, SELUGRAD_FLOAT16, SELUGRAD_BF16, SELUGRAD_INT8, SELUGRAD_UINT8, SELUGRAD_INT32};

/* The first kernel of dtype at exactly this ISA level, or NULL. */
static inline const sg_kernel *sg_neon_find(selugrad_dtype dtype, sg_isa isa) {
    for (size_t i = 0; i < sg_kernel_count; i++)
        if (sg_kernels[i].dtype == dtype && sg_kernels[i].isa == isa) return &sg_kernels[i];
    return NULL;
}

/* xorshift64*: deterministic, so a failure repeats. */
static inline uint64_t sg_neon_rand(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* Little-endian element i of a buffer as an unsigned number, for messages. */
static inline uint32_t sg_neon_elem(const void *p, size_t i, size_t size) {
    uint32_t v = 0;
    memcpy(&v, (const unsigned char *)p + i * size, size);
    return v;
}

/* Compares n elements of got and want; on a difference prints the first one with its inputs
   and returns 0. what says which case ran. */
static inline int sg_neon_same(const sg_kernel *k, const char *what, size_t n, const void *g,
                               const void *o, const void *got, const void *want) {
    size_t size = selugrad_dtype_size(k->dtype);
    if (memcmp(got, want, n * size) == 0) return 1;
    for (size_t i = 0; i < n; i++) {
        if (sg_neon_elem(got, i, size) != sg_neon_elem(want, i, size)) {
            fprintf(stderr,
                    "%s %s n=%zu: element %zu g=0x%X o=0x%X got 0x%X, scalar reference 0x%X\n",
                    k->name, what, n, i, (unsigned)sg_neon_elem(g, i, size),
                    (unsigned)sg_neon_elem(o, i, size), (unsigned)sg_neon_elem(got, i, size),
                    (unsigned)sg_neon_elem(want, i, size));
            break;
        }
    }
    return 0;
}

#endif /* SELUGRAD_TESTS_UNIT_NEON_CHECK_H */
