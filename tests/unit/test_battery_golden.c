/*
 * Tests of the golden model itself (tests/model), so that a golden that is silently wrong (like
 * CANN's, whose conversions were no-ops) cannot pass the battery: the contract's reference values,
 * hand-worked roundings, and its rounding to fp32 against the compiler's double -> float cast.
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

static const double spec_o[7] = {-2, -1, -0.5, 0, 0.5, 1, 3};

static void test_decode_and_constants(void **state) {
    (void)state;
    assert_true(gm_value(0x3F867D5Fu, gm_f32) == 1.05070102214813232421875);
    assert_true(gm_value(0x3FE10966u, gm_f32) == 1.75809931755065917968750);
    assert_true(gm_value(0x3C34u, gm_f16) == 1.05078125);
    assert_true(gm_value(0x3F08u, gm_f16) == 1.7578125);
    assert_true(gm_value(0x3F86u, gm_bf16) == 1.046875);
    assert_true(gm_value(0x3FE1u, gm_bf16) == 1.7578125);
    /* The contract's constants are the RNE roundings of the decimal ones. */
    assert_int_equal(gm_bits(gm_round(1.0507009873554804934, gm_f32), gm_f32), 0x3F867D5Fu);
    assert_int_equal(gm_bits(gm_round(1.7580993408473768599, gm_f32), gm_f32), 0x3FE10966u);
    assert_int_equal(gm_bits(gm_round(1.0507009873554804934, gm_f16), gm_f16), 0x3C34u);
    assert_int_equal(gm_bits(gm_round(1.7580993408473768599, gm_f16), gm_f16), 0x3F08u);
    assert_int_equal(gm_bits(gm_round(1.0507009873554804934, gm_bf16), gm_bf16), 0x3F86u);
    assert_int_equal(gm_bits(gm_round(1.7580993408473768599, gm_bf16), gm_bf16), 0x3FE1u);
    /* Field decoding: subnormals, largest finite, inf, NaN, signs. */
    assert_true(gm_value(0x0001u, gm_f16) == ldexp(1, -24));
    assert_true(gm_value(0x03FFu, gm_f16) == ldexp(1023, -24));
    assert_true(gm_value(0x7BFFu, gm_f16) == 65504.0);
    assert_true(gm_value(0xFC00u, gm_f16) == -INFINITY);
    assert_true(isnan(gm_value(0x7C01u, gm_f16)));
    assert_true(gm_value(0x0001u, gm_bf16) == ldexp(1, -133));
    assert_true(gm_value(0x7F7Fu, gm_bf16) == ldexp(255, 120));
    assert_true(gm_value(0x00000001u, gm_f32) == ldexp(1, -149));
    assert_true(gm_value(0xFF7FFFFFu, gm_f32) == -ldexp(16777215, 104));
    assert_true(signbit(gm_value(0x8000u, gm_f16)) && gm_value(0x8000u, gm_f16) == 0.0);
    /* Encoding inverts decoding for every 16-bit pattern, and NaN becomes canonical. */
    for (uint32_t b = 0; b < 65536; b++) {
        uint32_t e16 = (b & 0x7C00u) == 0x7C00u && (b & 0x3FFu) ? 0x7E00u : b;
        uint32_t eb = (b & 0x7F80u) == 0x7F80u && (b & 0x7Fu) ? 0x7FC0u : b;
        assert_int_equal(gm_bits(gm_value(b, gm_f16), gm_f16), e16);
        assert_int_equal(gm_bits(gm_value(b, gm_bf16), gm_bf16), eb);
    }
    assert_int_equal(gm_bits(NAN, gm_f32), 0x7FC00000u);
}

static void test_round_by_hand(void **state) {
    (void)state;
    /* fp16: ties to even, subnormal ties, overflow at 65520. */
    assert_true(gm_round(1.0 + ldexp(1, -11), gm_f16) == 1.0);
    assert_true(gm_round(1.0 + 3 * ldexp(1, -11), gm_f16) == 1.0 + ldexp(1, -9));
    assert_true(gm_round(1.0 + ldexp(1, -11) + ldexp(1, -40), gm_f16) == 1.0 + ldexp(1, -10));
    assert_true(gm_round(ldexp(1, -25), gm_f16) == 0.0);
    assert_true(gm_round(ldexp(3, -25), gm_f16) == ldexp(1, -23));
    assert_true(gm_round(ldexp(1, -25) * 1.0000001, gm_f16) == ldexp(1, -24));
    assert_true(gm_round(ldexp(1, -14) - ldexp(1, -25), gm_f16) == ldexp(1, -14));
    assert_true(gm_round(65519.99, gm_f16) == 65504.0);
    assert_true(gm_round(65520.0, gm_f16) == INFINITY);
    assert_true(gm_round(-1e300, gm_f16) == -INFINITY);
    assert_true(gm_round(-ldexp(1, -26), gm_f16) == 0.0 &&
                signbit(gm_round(-ldexp(1, -26), gm_f16)));
    /* bf16 */
    assert_true(gm_round(1.0 + ldexp(1, -8), gm_bf16) == 1.0);
    assert_true(gm_round(1.0 + ldexp(3, -8), gm_bf16) == 1.0 + ldexp(1, -6));
    assert_true(gm_round(ldexp(1, -134), gm_bf16) == 0.0);
    assert_true(gm_round(ldexp(3, -134), gm_bf16) == ldexp(1, -132));
    assert_true(gm_round(ldexp(511, 119), gm_bf16) == INFINITY); /* (2 - 2^-8) * 2^127: tie, up */
    assert_true(gm_round(ldexp(511, 119) - ldexp(1, 90), gm_bf16) == ldexp(255, 120));
    /* integer rounding, half to even */
    assert_int_equal(gm_round_half_even_int(2.5), 2);
    assert_int_equal(gm_round_half_even_int(3.5), 4);
    assert_int_equal(gm_round_half_even_int(-2.5), -2);
    assert_int_equal(gm_round_half_even_int(-3.5), -4);
    assert_int_equal(gm_round_half_even_int(-0.2421875), 0);
    assert_int_equal(gm_round_half_even_int(133.5), 134);
    assert_int_equal(gm_round_half_even_int(-0.75), -1);
    assert_int_equal(gm_round_half_even_int(ldexp(1, -24)), 0);
}

/* A random double around the fp32 range: random 53-bit significand, exponent, sign; every fifth
   one is made a tie or a near-tie of fp32 (including subnormal ties). */
static double random_double(uint64_t *s) {
    uint64_t r = bt_rand(s);
    int e = (int)(r % 280) - 152; /* 2^-152 .. 2^127 */
    double m = ldexp((double)(bt_rand(s) >> 11), -53) + 1.0;
    double x = ldexp(m, e);
    if ((r >> 20) % 5 == 0) {
        int q = (e < -126 ? -126 : e) - 23; /* fp32 quantum at x */
        double tie = ldexp(floor(ldexp(x, -q)) + 0.5, q);
        int nudge = (int)((r >> 30) % 3) - 1;
        x = tie + nudge * ldexp(tie, -52);
    }
    return (r >> 40) & 1 ? -x : x;
}

static void test_round_f32_vs_cast(void **state) {
    (void)state;
    uint64_t s = 12345;
    const double fmax = ldexp(16777215, 104);
    size_t bad = 0;
    for (int i = 0; i < 1000000; i++) {
        double x = random_double(&s);
        if (fabs(x) > fmax) continue; /* the cast would be undefined behaviour */
        double want = (double)(float)x;
        double got = gm_round(x, gm_f32);
        if (memcmp(&want, &got, sizeof want) != 0 && bad++ < 5)
            printf("gm_round(%a) = %a, (float) cast gives %a\n", x, got, want);
    }
    assert_int_equal(bad, 0);
    assert_true(gm_round(fmax + ldexp(1, 103), gm_f32) == INFINITY); /* tie above FLT_MAX */
    assert_true(gm_round(fmax + ldexp(1, 102), gm_f32) == fmax);
}

static void test_spec_reference_values(void **state) {
    (void)state;
    const double f32_y[7] = {-0.24190068, 0.75809932, 1.2580993, 1.050701,
                             1.050701,    1.050701,   1.050701};
    const double f16_y[7] = {-0.2421875, 0.7578125,  1.2578125, 1.05078125,
                             1.05078125, 1.05078125, 1.05078125};
    const double bf16_y[7] = {-0.2421875, 0.7578125, 1.2578125, 1.046875,
                              1.046875,   1.046875,  1.046875};
    const uint32_t f32_bits[7] = {0xBE77B4D0u, 0x3F4212CCu, 0x3FA10966u, 0x3F867D5Fu,
                                  0x3F867D5Fu, 0x3F867D5Fu, 0x3F867D5Fu};
    for (int i = 0; i < 7; i++) {
        uint32_t y = gm_selugrad_f32(gm_bits(1.0, gm_f32), gm_bits(spec_o[i], gm_f32));
        assert_true(fabs(gm_value(y, gm_f32) - f32_y[i]) <= 5e-8 * fabs(f32_y[i]) + 1e-9);
        assert_int_equal(y, f32_bits[i]);
        uint16_t h =
            gm_selugrad_f16((uint16_t)gm_bits(1.0, gm_f16), (uint16_t)gm_bits(spec_o[i], gm_f16));
        assert_true(gm_value(h, gm_f16) == f16_y[i]);
        uint16_t b = gm_selugrad_bf16((uint16_t)gm_bits(1.0, gm_bf16),
                                      (uint16_t)gm_bits(spec_o[i], gm_bf16));
        assert_true(gm_value(b, gm_bf16) == bf16_y[i]);
    }
    /* fp16 -0.89990234 * scale -> -0.94580078, where fp32 math rounded once gives -0.9453125 */
    uint16_t g = (uint16_t)gm_bits(gm_round(-0.89990234, gm_f16), gm_f16);
    assert_int_equal(g, 0xBB33);
    assert_true(gm_value(gm_selugrad_f16(g, 0x3400), gm_f16) == -0.945800781250);
    /* bf16 0.30078125, o = -0.69921875 -> 0.3203125 */
    assert_true(gm_value(gm_selugrad_bf16(gm_bits(0.30078125, gm_bf16) & 0xFFFFu,
                                          gm_bits(-0.69921875, gm_bf16) & 0xFFFFu),
                         gm_bf16) == 0.3203125);
    const int s8[8][3] = {{1, -2, 0},  {1, -1, 1},   {1, 0, 1},     {10, 5, 11},
                          {10, -1, 8}, {-3, -1, -2}, {127, 3, 127}, {100, -5, -128}};
    for (int i = 0; i < 8; i++)
        assert_int_equal(gm_selugrad_s8((int8_t)s8[i][0], (int8_t)s8[i][1]), s8[i][2]);
    const int s32[7][3] = {{1, -1, 0},    {1, 0, 1},  {10, 5, 10},    {10, -1, 7},
                           {127, 3, 133}, {2, -1, 1}, {100, -5, -324}};
    for (int i = 0; i < 7; i++) assert_int_equal(gm_selugrad_s32(s32[i][0], s32[i][1]), s32[i][2]);
}

static void test_contract_corners(void **state) {
    (void)state;
    /* -0.0 and NaN in o take the scale branch; NaN in g propagates as the canonical NaN. */
    assert_int_equal(gm_selugrad_f32(0x3F800000u, 0x80000000u), 0x3F867D5Fu);
    assert_int_equal(gm_selugrad_f32(0x3F800000u, 0xFFC00001u), 0x3F867D5Fu);
    assert_int_equal(gm_selugrad_f32(0xFF800001u, 0xBF800000u), 0x7FC00000u);
    assert_int_equal(gm_selugrad_f16(0x0000u, 0xFC00u), 0x7E00u); /* 0 * -inf */
    assert_int_equal(gm_selugrad_f16(0x3C00u, 0xFC00u), 0xFC00u);
    assert_int_equal(gm_selugrad_bf16(0xFFC1u, 0x3F80u), 0x7FC0u);
    assert_int_equal(gm_selugrad_bf16(0x7F7Fu, 0x3F80u), 0x7F80u); /* overflow to inf */
    assert_int_equal(gm_selugrad_f16(0x7BFFu, 0x0000u), 0x7C00u);
    assert_int_equal(gm_selugrad_f16(0x0001u, 0x0000u), 0x0001u); /* subnormal kept */
    /* int: saturation, truncation, int32 inputs rounded to fp32 */
    assert_int_equal(gm_selugrad_u8(255, 0), 255);
    assert_int_equal(gm_selugrad_u8(7, 0), 7); /* 7.35546875 */
    assert_int_equal(gm_selugrad_s8(-128, 0), -128);
    assert_int_equal(gm_selugrad_s32(INT32_MAX, 0), INT32_MAX);
    assert_int_equal(gm_selugrad_s32(INT32_MIN, 1), INT32_MIN);
    assert_int_equal(gm_selugrad_s32(-10, 1), -10);           /* -10.507 truncates to -10 */
    assert_int_equal(gm_selugrad_s32(16777217, 0), 17627838); /* g -> 2^24 first */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_and_constants), cmocka_unit_test(test_round_by_hand),
        cmocka_unit_test(test_round_f32_vs_cast),    cmocka_unit_test(test_spec_reference_values),
        cmocka_unit_test(test_contract_corners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
