/*
 * sg_all_pairs16: every SIMD kernel of float16 and bfloat16 that this CPU can run, against the
 * scalar kernel of its dtype (which test_kernel_variants and the battery check against the golden
 * model), on every (g, o) pair: for each 16-bit value v, one call with g = v everywhere and o =
 * 0 .. 65535, and one with o = v and g = 0 .. 65535, so each special value fills whole calls;
 * then the same pairs again laid out so that every pair whose result is finite goes through a
 * fast path's fast step (check_kernel). Both layouts of every pair, every kernel.
 * Not part of the CTest suite at full size (a few minutes); the suite runs a sample of rows.
 *
 *     sg_all_pairs16 [--rows=N]     N values v per orientation, evenly spaced (default 65536)
 *
 * Exit status: 0 no mismatch, 1 a mismatch, 2 bad arguments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_arg.h"
#include "isa/cpu.h"
#include "kernels/kernel.h"

enum { N = 65536 };

static const sg_kernel *scalar_of(selugrad_dtype dtype) {
    for (size_t i = 0; i < sg_kernel_count; i++)
        if (sg_kernels[i].dtype == dtype && sg_kernels[i].isa == SG_ISA_SCALAR)
            return &sg_kernels[i];
    return NULL;
}

/* Position of the j-th tested pair in a call laid out for the fast paths (f16 and bf16 AVX2 and
   AVX-512), which fold p * q of two product vectors into their detector: tested pairs fill the
   lanes of the first product vector (fp16: elements 0-7 of each 16 for AVX2, 0-15 of each 32 for
   AVX-512; bf16: the even elements), and their partner lanes get (g, o) = (0, 0), whose product 0
   leaves the detector as it was unless the tested product is not finite (0 * inf and NaN are
   NaN). */
static size_t fast_slot(const sg_kernel *k, size_t j) {
    if (k->dtype == SELUGRAD_BF16) return 2 * j;
    size_t lanes = k->isa == SG_ISA_AVX2 ? 8 : 16;
    return j / lanes * 2 * lanes + j % lanes;
}

/* Mismatches of kernel k against ref over the rows chosen; prints the first few. Each row is
   checked twice: in natural order (g = v, o = 0 .. 65535, or the other way round), and in the
   fast layout with the pairs whose reference result is finite first, so that no block before
   them is flagged and every such pair goes through the fast step. */
static long check_kernel(const sg_kernel *k, const sg_kernel *ref, unsigned rows, uint16_t *a,
                         uint16_t *b, uint16_t *want, uint16_t *got) {
    long bad = 0;
    uint16_t *fg = a + N, *fo = b + N, *fy = got + N; /* the fast layout, 2N elements each */
    uint32_t *order = (uint32_t *)(void *)(want + N); /* N entries: 2N uint16_t of room */
    for (int orient = 0; orient < 4; orient++) {
        for (unsigned r = 0; r < rows; r++) {
            uint16_t v = (uint16_t)((uint64_t)r * N / rows);
            for (uint32_t i = 0; i < N; i++) {
                a[i] = v;
                b[i] = (uint16_t)i;
            }
            const uint16_t *g = orient & 1 ? b : a, *o = orient & 1 ? a : b;
            ref->fn(N, g, o, want);
            if (orient < 2) {
                k->fn(N, g, o, got);
            } else {
                uint16_t mag = k->dtype == SELUGRAD_BF16 ? 0x7F80 : 0x7C00;
                size_t m = 0;
                for (int pass = 0; pass < 2; pass++)
                    for (uint32_t i = 0; i < N; i++)
                        if (((want[i] & 0x7FFF) < mag) == (pass == 0)) order[m++] = i;
                memset(fg, 0, sizeof(uint16_t) * 2 * N);
                memset(fo, 0, sizeof(uint16_t) * 2 * N);
                for (size_t j = 0; j < N; j++) {
                    fg[fast_slot(k, j)] = g[order[j]];
                    fo[fast_slot(k, j)] = o[order[j]];
                }
                k->fn(2 * N, fg, fo, fy);
                for (size_t j = 0; j < N; j++) got[order[j]] = fy[fast_slot(k, j)];
            }
            if (memcmp(want, got, sizeof(uint16_t) * N) == 0) continue;
            for (uint32_t i = 0; i < N; i++) {
                if (want[i] == got[i]) continue;
                if (bad < 8)
                    printf("  %s: g=%04x o=%04x want %04x got %04x (%s layout)\n", k->name, g[i],
                           o[i], want[i], got[i], orient < 2 ? "natural" : "fast");
                bad++;
            }
        }
    }
    return bad;
}

int main(int argc, char **argv) {
    uint64_t rows = N;
    if (sg_count_arg(argc, argv, "rows", N, &rows) != 0) return 2;
    uint16_t *buf = malloc(sizeof(uint16_t) * N * 12);
    if (buf == NULL) return 1;
    long total = 0;
    int checked = 0;
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *k = &sg_kernels[i];
        if (k->isa == SG_ISA_SCALAR || selugrad_dtype_size(k->dtype) != 2) continue;
        if (!sg_isa_supported(k->isa)) {
            printf("SKIPPED %s: this CPU (or OS) lacks %s\n", k->name, sg_isa_name(k->isa));
            continue;
        }
        long bad = check_kernel(k, scalar_of(k->dtype), (unsigned)rows, buf, buf + 3 * N,
                                buf + 6 * N, buf + 9 * N);
        printf("%s: %llu pairs, each in both layouts, %ld mismatches\n", k->name,
               (unsigned long long)rows * 2u * N, bad);
        total += bad;
        checked++;
    }
    free(buf);
    printf("%d kernel(s) checked, %ld mismatches\n", checked, total);
    return total != 0;
}
