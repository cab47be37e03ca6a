/*
 * sg_fp16_emu_all: on every pair of binary16 values, the emulated VADDPH and VMULPH
 * (tests/emu/fp16_emu.h, called as _mm512_add_ph / _mm512_mul_ph) against the model of
 * tests/emu/fp16_model.h, and the float16 AVX512-FP16 kernel compiled with that emulation
 * (sg_f16_selugrad__avx512fp16_emu) against the scalar kernel of float16 (which
 * test_kernel_variants and the battery check against the golden model) on every (g, o) pair:
 * for each value v, one row of 65536 with a = v (g = v) and b (o) = 0 .. 65535.
 * Not part of the CTest suite at full size (a few minutes); the suite runs a sample of rows.
 *
 *     sg_fp16_emu_all [--rows=N]     N values v, evenly spaced (default 65536)
 *
 * Exit status: 0 no mismatch, 1 a mismatch, 2 bad arguments, 77 a CPU without
 * AVX-512F/BW/VL/DQ/VBMI (what the emulation is compiled for).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "count_arg.h"
#include "emu/fp16_emu_ops.h"
#include "emu/fp16_model.h"
#include "kernels/kernel.h"

enum { N = 65536 };

/* src/kernels/avx512fp16/f16_avx512fp16.c compiled with the emulation (tests/cmake/fp16_emu.cmake)
 */
void sg_f16_selugrad__avx512fp16_emu(size_t n, const void *g, const void *o, void *y);

static long report(long bad, const char *what, uint16_t a, uint16_t b, uint16_t got,
                   uint16_t want) {
    if (bad < 10)
        fprintf(stderr, "MISMATCH %s a=0x%04X b=0x%04X: emulated 0x%04X, expected 0x%04X\n", what,
                a, b, got, want);
    return bad + 1;
}

int main(int argc, char **argv) {
    uint64_t rows = N;
    if (sg_count_arg(argc, argv, "rows", N, &rows) != 0) return 2;
    if (!sge_cpu_runs_emulation()) {
        printf("SKIPPED: this CPU (or OS) lacks AVX-512F/BW/VL/DQ/VBMI\n");
        return 77;
    }
    const sg_kernel *ref = NULL;
    for (size_t i = 0; i < sg_kernel_count; i++)
        if (sg_kernels[i].dtype == SELUGRAD_FLOAT16 && sg_kernels[i].isa == SG_ISA_SCALAR)
            ref = &sg_kernels[i];
    uint16_t *buf = malloc(5 * N * sizeof(uint16_t));
    if (buf == NULL || ref == NULL) return 1;
    uint16_t *a = buf, *b = buf + N, *got = buf + 2 * N, *want = buf + 3 * N, *r = buf + 4 * N;
    for (uint32_t i = 0; i < N; i++) b[i] = (uint16_t)i;
    long bad = 0;
    for (uint64_t row = 0; row < rows; row++) {
        uint16_t v = (uint16_t)(row * N / rows);
        for (uint32_t i = 0; i < N; i++) a[i] = v;
        sge_ops_add(N, a, b, r);
        for (uint32_t i = 0; i < N; i++)
            if (r[i] != m_add(v, b[i])) bad = report(bad, "add", v, b[i], r[i], m_add(v, b[i]));
        sge_ops_mul(N, a, b, r);
        for (uint32_t i = 0; i < N; i++)
            if (r[i] != m_mul(v, b[i])) bad = report(bad, "mul", v, b[i], r[i], m_mul(v, b[i]));
        sg_f16_selugrad__avx512fp16_emu(N, a, b, got);
        ref->fn(N, a, b, want);
        for (uint32_t i = 0; i < N; i++)
            if (got[i] != want[i]) bad = report(bad, "f16 kernel (g, o)", v, b[i], got[i], want[i]);
    }
    printf("sg_fp16_emu_all: %llu rows of 65536: add, mul and the float16 kernel, %ld mismatches\n",
           (unsigned long long)rows, bad);
    free(buf);
    return bad != 0;
}
