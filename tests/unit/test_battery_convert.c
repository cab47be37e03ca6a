/*
 * The public conversions selugrad_f16_to_f32 / bf16_to_f32 over all 65,536 patterns, and
 * selugrad_f32_to_f16 / f32_to_bf16 on every rounding midpoint of the 16-bit formats (and its
 * float neighbours), on a sweep of fp32 patterns and on hand-worked edge cases. Expected values
 * come from the golden (tests/model) or are written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "battery/harness.h"
#include "model/golden.h"

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static int is_nan16(uint32_t h, uint32_t expmask, uint32_t manmask) {
    return (h & expmask) == expmask && (h & manmask) != 0;
}

/* Expected 16-bit result of converting the fp32 pattern x: NaN stays NaN (checked apart), else
   the golden's rounding of the exact value. */
static uint32_t want16(uint32_t x, gm_fmt f) {
    return gm_bits(gm_round(gm_value(x, gm_f32), f), f);
}

/* Checks one float -> 16-bit conversion; NaN must stay NaN with its sign, the quiet bit set and
   the top payload bits kept (docs/numerics.md). Returns 1 on mismatch. */
static int check_to16(uint32_t x, gm_fmt f) {
    int f16 = f.prec == 11;
    uint32_t got = f16 ? selugrad_f32_to_f16(bitsf(x)) : selugrad_f32_to_bf16(bitsf(x));
    uint32_t want;
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) {
        int shift = f16 ? 13 : 16;
        uint32_t manmask = f16 ? 0x3FFu : 0x7Fu, quiet = f16 ? 0x200u : 0x40u;
        uint32_t sign = (x >> 31) << 15;
        want = sign | (f16 ? 0x7C00u : 0x7F80u) | quiet | ((x >> shift) & manmask);
    } else {
        want = want16(x, f);
    }
    if (got == want) return 0;
    printf("MISMATCH selugrad_f32_to_%s(0x%08X = %.9g): expected 0x%04X got 0x%04X\n",
           f16 ? "f16" : "bf16", (unsigned)x, (double)bitsf(x), (unsigned)want, (unsigned)got);
    return 1;
}

static void test_f16_to_f32_all(void **state) {
    (void)state;
    size_t bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float got = selugrad_f16_to_f32((uint16_t)h);
        uint32_t gb = fbits(got);
        if (is_nan16(h, 0x7C00u, 0x3FFu)) {
            /* NaN: sign and payload kept, and quiet (a signalling NaN is quietened) */
            int ok = isnan(got) && (gb >> 31) == (h >> 15) && (gb & 0x1FFFu) == 0 &&
                     ((gb >> 13) & 0x1FFu) == (h & 0x1FFu) && (gb & 0x400000u) != 0;
            if (!ok && bad++ < 5) printf("f16 0x%04X -> 0x%08X: NaN not kept\n", h, gb);
            continue;
        }
        double want = gm_value(h, gm_f16);
        if ((!((double)got == want) || !signbit(got) != !signbit(want)) && bad++ < 5)
            printf("f16 0x%04X -> %a, expected %a\n", h, (double)got, want);
        /* and back: exact patterns round-trip */
        if (selugrad_f32_to_f16(got) != h && bad++ < 5)
            printf("f16 0x%04X does not round-trip\n", h);
    }
    assert_int_equal(bad, 0);
}

static void test_bf16_to_f32_all(void **state) {
    (void)state;
    size_t bad = 0;
    for (uint32_t b = 0; b < 65536; b++) {
        float got = selugrad_bf16_to_f32((uint16_t)b);
        uint32_t gb = fbits(got);
        if (is_nan16(b, 0x7F80u, 0x7Fu)) {
            int ok = isnan(got) && (gb >> 31) == (b >> 15) && ((gb >> 16) & 0x3Fu) == (b & 0x3Fu);
            if (!ok && bad++ < 5) printf("bf16 0x%04X -> 0x%08X: NaN not kept\n", b, gb);
            continue;
        }
        double want = gm_value(b, gm_bf16);
        if ((!((double)got == want) || !signbit(got) != !signbit(want)) && bad++ < 5)
            printf("bf16 0x%04X -> %a, expected %a\n", b, (double)got, want);
        if (selugrad_f32_to_bf16(got) != b && bad++ < 5)
            printf("bf16 0x%04X does not round-trip\n", b);
    }
    assert_int_equal(bad, 0);
}

/* Every midpoint between neighbouring finite 16-bit values (and between the largest finite and
   the next power of two, the overflow threshold), both signs, plus the float just below and just
   above each midpoint and each value itself. */
static size_t sweep_midpoints(gm_fmt f, uint32_t max_finite) {
    size_t bad = 0;
    for (uint32_t h = 0; h <= max_finite; h++) {
        double a = gm_value(h, f);
        /* the next value up; above the largest finite, 2^(emax+1), where overflow begins */
        double b = h < max_finite ? gm_value(h + 1, f) : a + (a - gm_value(h - 1, f));
        float mid = (float)((a + b) / 2); /* exact in fp32 */
        float cases[5] = {(float)a, mid, nextafterf(mid, 0.0f), nextafterf(mid, INFINITY),
                          nextafterf((float)a, INFINITY)};
        for (int i = 0; i < 5; i++) {
            bad += (size_t)check_to16(fbits(cases[i]), f);
            bad += (size_t)check_to16(fbits(-cases[i]), f);
        }
    }
    return bad;
}

static void test_f32_to_f16_midpoints(void **state) {
    (void)state;
    assert_int_equal(sweep_midpoints(gm_f16, 0x7BFFu), 0);
}

static void test_f32_to_bf16_midpoints(void **state) {
    (void)state;
    assert_int_equal(sweep_midpoints(gm_bf16, 0x7F7Fu), 0);
}

/* fp32 patterns in steps of a prime, covering every exponent, NaNs and infs included. */
static void test_f32_sweep(void **state) {
    (void)state;
    size_t bad = 0;
    for (uint64_t x = 0; x <= 0xFFFFFFFFu; x += 4093) {
        bad += (size_t)check_to16((uint32_t)x, gm_f16);
        bad += (size_t)check_to16((uint32_t)x, gm_bf16);
        if (bad > 20) break;
    }
    assert_int_equal(bad, 0);
}

static void test_hand_edge_cases(void **state) {
    (void)state;
    /* {fp32 bits, fp16 bits}: ties, subnormals, overflow, signed zero, NaN */
    static const uint32_t f16_cases[][2] = {
        {0x477FE000u, 0x7BFFu}, /* 65504 */
        {0x477FEFFFu, 0x7BFFu}, /* just below 65520 */
        {0x477FF000u, 0x7C00u}, /* 65520: tie, rounds to even = inf */
        {0x7F7FFFFFu, 0x7C00u}, /* FLT_MAX */
        {0x7F800000u, 0x7C00u}, {0xFF800000u, 0xFC00u}, {0x80000000u, 0x8000u},
        {0x33800000u, 0x0001u}, /* 2^-24 */
        {0x33000000u, 0x0000u}, /* 2^-25: tie to even 0 */
        {0x33000001u, 0x0001u}, /* just above */
        {0xB3000000u, 0x8000u}, /* -2^-25 -> -0 */
        {0x33C00000u, 0x0002u}, /* 3 * 2^-25: tie to even 2 */
        {0x387FE000u, 0x0400u}, /* 2^-14 - 2^-25: tie between 0x03FF and 0x0400 */
        {0x3F801000u, 0x3C00u}, /* 1 + 2^-11: tie to even */
        {0x3F803000u, 0x3C02u}, /* 1 + 3 * 2^-11 */
        {0x3F801001u, 0x3C01u}, {0x00000001u, 0x0000u}, {0x2EDBE6FFu, 0x0000u}, /* 1e-10 */
        {0x7FC00000u, 0x7E00u}, {0xFFC00000u, 0xFE00u}, {0x7F800001u, 0x7E00u}, /* sNaN quieted */
        {0x7FBFE000u, 0x7FFFu}, /* sNaN with full top payload */
    };
    for (size_t i = 0; i < sizeof f16_cases / sizeof f16_cases[0]; i++) {
        assert_int_equal(selugrad_f32_to_f16(bitsf(f16_cases[i][0])), f16_cases[i][1]);
        if ((f16_cases[i][1] & 0x7FFFu) <= 0x7C00u) /* the golden agrees (non-NaN) */
            assert_int_equal(want16(f16_cases[i][0], gm_f16), f16_cases[i][1]);
    }
    static const uint32_t bf16_cases[][2] = {
        {0x3F808000u, 0x3F80u}, /* 1 + 2^-8: tie to even */
        {0x3F818000u, 0x3F82u}, /* tie to even, upward */
        {0x3F808001u, 0x3F81u}, {0x7F7F7FFFu, 0x7F7Fu}, {0x7F7F8000u, 0x7F80u}, /* tie -> inf */
        {0x7F7FFFFFu, 0x7F80u}, {0xFF7FFFFFu, 0xFF80u}, {0x00008000u, 0x0000u}, /* subnormal tie */
        {0x00018000u, 0x0002u}, {0x00010000u, 0x0001u}, {0x00000001u, 0x0000u},
        {0x80008001u, 0x8001u}, {0x80000000u, 0x8000u}, {0x7F800000u, 0x7F80u},
        {0x7F800001u, 0x7FC0u}, /* sNaN quieted */
        {0xFF800001u, 0xFFC0u}, {0x7FC00000u, 0x7FC0u},
    };
    for (size_t i = 0; i < sizeof bf16_cases / sizeof bf16_cases[0]; i++) {
        assert_int_equal(selugrad_f32_to_bf16(bitsf(bf16_cases[i][0])), bf16_cases[i][1]);
        if ((bf16_cases[i][1] & 0x7FFFu) <= 0x7F80u)
            assert_int_equal(want16(bf16_cases[i][0], gm_bf16), bf16_cases[i][1]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_to_f32_all),
        cmocka_unit_test(test_bf16_to_f32_all),
        cmocka_unit_test(test_f32_to_f16_midpoints),
        cmocka_unit_test(test_f32_to_bf16_midpoints),
        cmocka_unit_test(test_f32_sweep),
        cmocka_unit_test(test_hand_edge_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
