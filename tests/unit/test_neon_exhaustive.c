/*
 * Exhaustive checks of the aarch64 NEON kernels against the scalar reference kernel, bit for
 * bit: fp16 and bf16 over all 65536 o values for each of 64 g values (16 specials, 48 random)
 * and all 65536 g values for each of 64 o values; int8 and uint8 over all 65536 (g, o) pairs;
 * fp32 and int32 over 2^20 elements each. Elsewhere than aarch64 there is nothing to check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "neon_check.h"

#if defined(__aarch64__) && defined(SG_BUILD_NEON)

enum { ALL = 65536, FIXED = 64 };

/* The fixed operand: 16 specials of the dtype, then random patterns. */
static void fixed_values(const uint16_t *sp, size_t ns, uint16_t *out) {
    uint64_t rng = 0xC0FFEEull;
    for (size_t i = 0; i < FIXED; i++)
        out[i] = i < ns ? sp[i] : (uint16_t)(sg_neon_rand(&rng) >> 48);
}

/* One side sweeps all 65536 patterns, the other is each fixed value in turn. */
static void sweep16(selugrad_dtype dt, const uint16_t *sp, size_t ns) {
    const sg_kernel *k = sg_neon_find(dt, SG_ISA_NEON);
    const sg_kernel *ref = sg_neon_find(dt, SG_ISA_SCALAR);
    assert_non_null(k);
    assert_non_null(ref);
    uint16_t fixed[FIXED];
    fixed_values(sp, ns, fixed);
    uint16_t *buf = malloc(4 * ALL * sizeof *buf);
    assert_non_null(buf);
    uint16_t *all = buf, *c = all + ALL, *y = c + ALL, *want = y + ALL;
    for (size_t i = 0; i < ALL; i++) all[i] = (uint16_t)i;
    for (int side = 0; side < 2; side++) {
        for (size_t f = 0; f < FIXED; f++) {
            for (size_t i = 0; i < ALL; i++) c[i] = fixed[f];
            const uint16_t *g = side == 0 ? c : all, *o = side == 0 ? all : c;
            k->fn(ALL, g, o, y);
            ref->fn(ALL, g, o, want);
            if (!sg_neon_same(k, side == 0 ? "all o" : "all g", ALL, g, o, y, want)) {
                free(buf);
                fail();
            }
        }
    }
    free(buf);
}

static void test_f16_exhaustive(void **state) {
    (void)state;
    static const uint16_t sp[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFD01, 0x0001, 0x83FF,
                                  0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3C34, 0xBB33, 0x1400};
    sweep16(SELUGRAD_FLOAT16, sp, sizeof sp / sizeof sp[0]);
}

static void test_bf16_exhaustive(void **state) {
    (void)state;
    static const uint16_t sp[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFF81, 0x0001, 0x807F,
                                  0x0080, 0x7F7F, 0xFF7F, 0x3F80, 0xBF80, 0x3F86, 0x3E9A, 0x0100};
    sweep16(SELUGRAD_BF16, sp, sizeof sp / sizeof sp[0]);
}

/* All (g, o) byte pairs in one call: g is the high byte of the index, o the low byte. */
static void pairs8(selugrad_dtype dt) {
    const sg_kernel *k = sg_neon_find(dt, SG_ISA_NEON);
    const sg_kernel *ref = sg_neon_find(dt, SG_ISA_SCALAR);
    assert_non_null(k);
    assert_non_null(ref);
    uint8_t *buf = malloc(4 * ALL);
    assert_non_null(buf);
    uint8_t *g = buf, *o = g + ALL, *y = o + ALL, *want = y + ALL;
    for (size_t i = 0; i < ALL; i++) {
        g[i] = (uint8_t)(i >> 8);
        o[i] = (uint8_t)i;
    }
    k->fn(ALL, g, o, y);
    ref->fn(ALL, g, o, want);
    int same = sg_neon_same(k, "all pairs", ALL, g, o, y, want);
    free(buf);
    if (!same) fail();
}

static void test_s8_all_pairs(void **state) {
    (void)state;
    pairs8(SELUGRAD_INT8);
}

static void test_u8_all_pairs(void **state) {
    (void)state;
    pairs8(SELUGRAD_UINT8);
}

/* fp32 and int32 cannot be swept whole: 2^20 elements each. fp32: o runs through the 2^19 bit
   patterns around -SA (where o + SA cancels) against random g, then random pairs.
   int32: random patterns and values of every magnitude. */
static void test_f32_s32_million(void **state) {
    (void)state;
    enum { M = 1 << 20 };
    uint64_t rng = 0x5EED;
    uint32_t *buf = malloc(4 * (size_t)M * sizeof *buf);
    assert_non_null(buf);
    uint32_t *g = buf, *o = g + M, *y = o + M, *want = y + M;
    for (int d = 0; d < 2; d++) {
        selugrad_dtype dt = d == 0 ? SELUGRAD_FLOAT : SELUGRAD_INT32;
        const sg_kernel *k = sg_neon_find(dt, SG_ISA_NEON);
        const sg_kernel *ref = sg_neon_find(dt, SG_ISA_SCALAR);
        assert_non_null(k);
        assert_non_null(ref);
        for (size_t i = 0; i < M; i++) {
            uint64_t r = sg_neon_rand(&rng);
            unsigned shift = (unsigned)(r & 31);
            g[i] = (uint32_t)(r >> 32) >> (d == 0 ? 0 : shift);
            o[i] = (uint32_t)(r >> 8) >> (d == 0 ? 0 : shift);
            if (d == 0 && i < M / 2) {
                g[i] = (uint32_t)(r & 1) << 31 | (uint32_t)(120 + (r >> 1) % 16) << 23 |
                       (uint32_t)(r >> 41);
                o[i] = 0xBFE10966u - M / 4 + (uint32_t)i; /* -SA (docs/contract.md, "Math") */
            }
        }
        k->fn(M, g, o, y);
        ref->fn(M, g, o, want);
        if (!sg_neon_same(k, "2^20 elements", M, g, o, y, want)) {
            free(buf);
            fail();
        }
    }
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_s32_million), cmocka_unit_test(test_f16_exhaustive),
        cmocka_unit_test(test_bf16_exhaustive), cmocka_unit_test(test_s8_all_pairs),
        cmocka_unit_test(test_u8_all_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

static void test_nothing_to_check(void **state) {
    (void)state;
#if defined(__aarch64__)
    fail_msg("aarch64 build without SG_BUILD_NEON: the NEON kernels were not compiled");
#endif
    printf("SKIPPED: no NEON kernels on this architecture\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_nothing_to_check)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
