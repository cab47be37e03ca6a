/*
 * sg_all_pairs16: every SIMD kernel of float16 and bfloat16 that this CPU can run, against the
 * scalar kernel of its dtype (which test_kernel_variants' scalar_model checks against the element
 * model), on every (g, o) pair: for each 16-bit value v, one call with g = v everywhere and o =
 * 0 .. 65535, and one with o = v and g = 0 .. 65535. So every block of the fast paths holds one
 * g (or one o) with 64 consecutive partners, and each special value fills whole calls.
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

#include "isa/cpu.h"
#include "kernels/kernel.h"

enum { N = 65536 };

static const sg_kernel *scalar_of(selugrad_dtype dtype) {
    for (size_t i = 0; i < sg_kernel_count; i++)
        if (sg_kernels[i].dtype == dtype && sg_kernels[i].isa == SG_ISA_SCALAR)
            return &sg_kernels[i];
    return NULL;
}

/* Mismatches of kernel k against ref over the rows chosen; prints the first few. */
static long check_kernel(const sg_kernel *k, const sg_kernel *ref, unsigned rows, uint16_t *a,
                         uint16_t *b, uint16_t *want, uint16_t *got) {
    long bad = 0;
    for (int orient = 0; orient < 2; orient++) {
        for (unsigned r = 0; r < rows; r++) {
            uint16_t v = (uint16_t)((uint64_t)r * N / rows);
            for (uint32_t i = 0; i < N; i++) {
                a[i] = v;
                b[i] = (uint16_t)i;
            }
            const uint16_t *g = orient ? b : a, *o = orient ? a : b;
            ref->fn(N, g, o, want);
            k->fn(N, g, o, got);
            if (memcmp(want, got, sizeof(uint16_t) * N) == 0) continue;
            for (uint32_t i = 0; i < N; i++) {
                if (want[i] == got[i]) continue;
                if (bad < 8)
                    printf("  %s: g=%04x o=%04x want %04x got %04x\n", k->name, g[i], o[i],
                           want[i], got[i]);
                bad++;
            }
        }
    }
    return bad;
}

int main(int argc, char **argv) {
    unsigned long rows = N;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strncmp(argv[i], "--rows=", 7) == 0) {
            rows = strtoul(argv[i] + 7, &end, 10);
            if (*end == '\0' && rows >= 1 && rows <= N) continue;
        }
        fprintf(stderr, "usage: %s [--rows=N]   (1 <= N <= 65536)\n", argv[0]);
        return 2;
    }
    uint16_t *buf = malloc(sizeof(uint16_t) * N * 4);
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
        long bad = check_kernel(k, scalar_of(k->dtype), (unsigned)rows, buf, buf + N,
                                buf + 2 * N, buf + 3 * N);
        printf("%s: %llu pairs, %ld mismatches\n", k->name,
               (unsigned long long)rows * 2u * N, bad);
        total += bad;
        checked++;
    }
    free(buf);
    printf("%d kernel(s) checked, %ld mismatches\n", checked, total);
    return total != 0;
}
