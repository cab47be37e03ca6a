/*
 * The SELU forward (docs/contract.md, "Forward per-dtype computation"): the element model
 * (kernels/ref/selu_ref.h) against the independent golden (tests/model/selu_golden.c) bit for bit
 * with the same exponential; every kernel of selu.inc against the model on one battery (lengths 0
 * .. 129 at two alignments, in place, random and special inputs, every 16-bit input, every int8
 * input), variants the CPU lacks reported SKIPPED by name; the native API (threads 1, 2, 3, 7;
 * strides; its errors); int8 for all 256 inputs against the closed form the contract implies;
 * special values one by one; ties of the 16-bit roundings (away from zero); the exponential on a
 * sample of x <= 0.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "battery/harness.h"
#include "isa/cpu.h"
#include "kernels/kernel.h"
#include "kernels/nt_bytes.h"
#include "kernels/ref/selu_ref.h"
#include "model/selu_golden.h"

static uint32_t exp_under_test(uint32_t x) {
    return sg_f32_bits(sg_selu_expf(sg_bits_f32(x)));
}

static const selugrad_dtype fwd_dtypes[5] = {SELUGRAD_FLOAT, SELUGRAD_FLOAT16, SELUGRAD_BF16,
                                             SELUGRAD_INT8, SELUGRAD_INT32};

static uint64_t rng = 0x243F6A8885A308D3ull;

static const uint32_t special32[] = {
    0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7F800001u,
    0x00000001u, 0x80000001u, 0x807FFFFFu, 0x007FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u,
    0xBF800000u, 0xC2D00000u, 0xC2CFFFFFu, 0xC2CE0000u, 0xC2AEAC50u, 0xB3800000u, 0x33800000u,
    0x4F000000u, 0xCF000000u, 0x7FFFFFFFu, 0xC1200000u,
    /* about the SIMD kernels' clamp at -20 (kernels/ref/selu_exp.h): -20 and its neighbours,
       -17.3287 = ln 2^-25 and its neighbours (above it e - 1 is no longer -1), -17.33, -29 */
    0xC1A00000u, 0xC1A00001u, 0xC19FFFFFu, 0xC18AA122u, 0xC18AA123u, 0xC18AA124u, 0xC18AAAABu,
    0xC1E80000u};
static const uint16_t special16[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C01,
                                     0x0001, 0x8001, 0x83FF, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00,
                                     0x7F80, 0xFF80, 0x7FC0, 0x7F7F, 0xFF7F, 0xC2D0, 0xC2CF};

/* Random bit patterns with special values mixed in (one in four). */
static void fill(void *buf, size_t n, selugrad_dtype dt) {
    size_t es = selugrad_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = bt_rand(&rng);
        int special = (r & 3u) == 0;
        uint32_t pick = (uint32_t)(r >> 8);
        if (es == 4) {
            uint32_t v = special ? special32[pick % (sizeof special32 / 4)] : (uint32_t)(r >> 32);
            if (dt == SELUGRAD_FLOAT && (r & 12u) == 4u) /* ordinary values near 0 */
                v = (v & 0x80000000u) | (0x3C000000u + (pick & 0x03FFFFFFu));
            memcpy((char *)buf + 4 * i, &v, 4);
        } else if (es == 2) {
            uint16_t v = special ? special16[pick % (sizeof special16 / 2)] : (uint16_t)(r >> 32);
            memcpy((char *)buf + 2 * i, &v, 2);
        } else {
            ((uint8_t *)buf)[i] = (uint8_t)(r >> 32);
        }
    }
}

/* expect = the element model over n elements. */
static void model(selugrad_dtype dt, size_t n, const void *x, void *expect) {
    size_t es = selugrad_dtype_size(dt);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(sg_selu_ref_element(dt, (const char *)x + i * es, (char *)expect + i * es),
                         1);
}

static void assert_same(selugrad_dtype dt, size_t n, const void *x, const void *want,
                        const void *got, const char *who) {
    size_t es = selugrad_dtype_size(dt);
    if (memcmp(want, got, n * es) == 0) return;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *a = (const unsigned char *)want + i * es;
        const unsigned char *b = (const unsigned char *)got + i * es;
        if (memcmp(a, b, es) != 0) {
            uint32_t xv = 0, wv = 0, gv = 0;
            memcpy(&xv, (const char *)x + i * es, es);
            memcpy(&wv, a, es);
            memcpy(&gv, b, es);
            fail_msg("%s: %s element %zu of %zu: x 0x%X gives 0x%X, want 0x%X", who,
                     selugrad_dtype_name(dt), i, n, xv, gv, wv);
        }
    }
}

/* ---- the model against the independent golden ---- */

static void test_model_vs_golden(void **state) {
    (void)state;
    for (uint32_t v = 0; v < 65536; v++) {
        uint16_t h = (uint16_t)v;
        assert_int_equal(sg_selu_ref_f16(h), gs_selu_f16(h, exp_under_test));
        assert_int_equal(sg_selu_ref_bf16(h), gs_selu_bf16(h, exp_under_test));
    }
    for (int v = -128; v < 128; v++)
        assert_int_equal(sg_selu_ref_s8((int8_t)v), gs_selu_s8((int8_t)v, exp_under_test));
    enum { N = 1 << 18 };
    uint32_t *x = bt_alloc(N * 4);
    fill(x, N, SELUGRAD_FLOAT);
    for (size_t i = 0; i < N; i++) {
        uint32_t want = gs_selu_f32(x[i], exp_under_test);
        uint32_t got = sg_f32_bits(sg_selu_ref_f32(sg_bits_f32(x[i])));
        if (got != want) fail_msg("f32 x 0x%08X: model 0x%08X, golden 0x%08X", x[i], got, want);
    }
    fill(x, N, SELUGRAD_INT32);
    for (size_t i = 0; i < N; i++) {
        int32_t xi;
        memcpy(&xi, &x[i], 4);
        assert_int_equal(sg_selu_ref_s32(xi), gs_selu_s32(xi, exp_under_test));
    }
    const int32_t edges[] = {0,          1,          -1,          INT32_MAX,  INT32_MIN,
                             2043807212, 2043807213, 2043807360,  2043807359, 16777217,
                             -16777217,  1000000000, -1000000000, 2,          3};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        assert_int_equal(sg_selu_ref_s32(edges[i]), gs_selu_s32(edges[i], exp_under_test));
    free(x);
}

/* With the correctly rounded exponential instead, results differ only where the two exps do. */
static void test_model_vs_correctly_rounded(void **state) {
    (void)state;
    size_t differ = 0, exp_differ = 0;
    for (uint32_t v = 0; v < 65536; v++) {
        uint16_t h = (uint16_t)v;
        uint32_t m = sg_f32_bits(sg_half_to_float(h));
        m = (m & 0x80000000u) ? m : 0u;
        int same_exp = (m & 0x7FFFFFFFu) > 0x7F800000u || gs_exp_cr(m) == exp_under_test(m);
        exp_differ += !same_exp;
        if (sg_selu_ref_f16(h) != gs_selu_f16(h, gs_exp_cr)) {
            differ++;
            assert_false(same_exp);
        }
    }
    printf("f16: %zu of 65536 inputs differ from the correctly rounded exp's results (%zu exps "
           "differ)\n",
           differ, exp_differ);
}

/* ---- the exponential ---- */

static double ulp_err(uint32_t got, uint32_t x) {
    double v = exp((double)sg_bits_f32(x));
    int e;
    frexp(v, &e);
    int q = e - 24 < -149 ? -149 : e - 24;
    return fabs((double)sg_bits_f32(got) - v) / ldexp(1.0, q);
}

static void test_exp(void **state) {
    (void)state;
    assert_int_equal(exp_under_test(0x80000000u), 0x3F800000u); /* exp(-0) = 1 */
    assert_int_equal(exp_under_test(0x00000000u), 0x3F800000u);
    assert_int_equal(exp_under_test(0xFF800000u), 0u);                     /* exp(-inf) = +0 */
    assert_int_equal(exp_under_test(0xC2D00000u), 0u);                     /* exp(-104) < 2^-150 */
    assert_int_equal(exp_under_test(0xBF800000u), gs_exp_cr(0xBF800000u)); /* exp(-1) */
    double worst = 0.0;
    for (uint64_t b = 0x80000000u; b <= 0xFF800000u; b += 65521) {
        double e = ulp_err(exp_under_test((uint32_t)b), (uint32_t)b);
        worst = e > worst ? e : worst;
    }
    printf("exp: largest error on every 65521st x <= 0: %.4f ulp\n", worst);
    assert_true(worst <= 1.0);
}

/* ---- special values one by one ---- */

static uint32_t f32_of(selugrad_dtype dt, uint32_t x) {
    uint32_t y = 0;
    assert_int_equal(selugrad_forward(dt, 1, &x, &y), SELUGRAD_OK);
    return y;
}

static void test_specials(void **state) {
    (void)state;
    const double a = 1.6732632423543772848170429916717, s = 1.0507009873554804934193349852946;
    float af = (float)a, sf = (float)s;
    uint32_t neg_sat = sg_f32_bits((float)(-(double)af * (double)sf)); /* -inf: -A * S rounded */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x00000000u), 0x00000000u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x80000000u), 0x00000000u); /* -0 gives +0 */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x7F800000u), 0x7F800000u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xFF800000u), neg_sat);
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xC2D00000u), neg_sat); /* exp(-104) is 0 */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xFF7FFFFFu), neg_sat); /* -FLT_MAX */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xC1A00000u), neg_sat); /* -20: e < 2^-25, e - 1 = -1 */
    /* -17: e > 2^-25, e - 1 = -1 + 2^-24 */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xC1880000u), gs_selu_f32(0xC1880000u, gs_exp_cr));
    assert_true(f32_of(SELUGRAD_FLOAT, 0xC1880000u) != neg_sat);
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x7FC00000u), 0x7FC00000u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xFFC00001u), 0x7FC00000u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x7F800001u), 0x7FC00000u); /* signalling */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x7F7FFFFFu), 0x7F800000u); /* FLT_MAX * S: inf */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x3F800000u), 0x3F867D5Fu); /* 1 gives S */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x00000001u), 0x00000001u); /* 2^-149 * S */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x00000002u), 0x00000002u); /* 2^-148 * S */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0x80000001u), 0x00000000u); /* exp rounds to 1 */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xB3000000u), 0x00000000u); /* -2^-25: e = 1 */
    /* -2^-24: e = 1 - 2^-24, t = -2^-24 * A, y = t * S */
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xB3800000u), gs_selu_f32(0xB3800000u, gs_exp_cr));
    assert_int_equal(f32_of(SELUGRAD_FLOAT, 0xBF800000u), gs_selu_f32(0xBF800000u, gs_exp_cr));
    /* float16: -inf and the large negatives give fp16(-1.7580993) = -1.7578125 (0xBF08) */
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0xFC00u), 0xBF08u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0xFBFFu), 0xBF08u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0x7C00u), 0x7C00u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0x7BFFu), 0x7C00u); /* 65504 * S overflows */
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0x7E00u), 0x7E00u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0xFE01u), 0x7E00u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0x7C01u), 0x7E00u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0x8000u), 0x0000u);
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0x0001u), 0x0001u); /* 2^-24 * S */
    assert_int_equal(f32_of(SELUGRAD_FLOAT16, 0x3C00u), 0x3C34u); /* 1 gives fp16(S) */
    /* bfloat16: -inf gives bf16(-1.7580993) = -1.7578125 (0xBFE1) */
    assert_int_equal(f32_of(SELUGRAD_BF16, 0xFF80u), 0xBFE1u);
    assert_int_equal(f32_of(SELUGRAD_BF16, 0x7F80u), 0x7F80u);
    assert_int_equal(f32_of(SELUGRAD_BF16, 0x7F7Fu), 0x7F80u);
    assert_int_equal(f32_of(SELUGRAD_BF16, 0x7FC0u), 0x7FC0u);
    assert_int_equal(f32_of(SELUGRAD_BF16, 0xFF81u), 0x7FC0u);
    assert_int_equal(f32_of(SELUGRAD_BF16, 0x8000u), 0x0000u);
    assert_int_equal(f32_of(SELUGRAD_BF16, 0x3F80u), 0x3F86u); /* 1 gives bf16(S) */
    /* int32: every x < 0 gives -1; truncation; saturation */
    /* 2043857792 * S rounds to 2147483520, the largest float below 2^31; 2043857856 to 2^31 */
    const int32_t xs[] = {-1,  INT32_MIN, -123456789, 0,          1,          2,         3, 10,
                          100, INT32_MAX, 2043807360, 2043858176, 2043857792, 2043857856};
    const int32_t ys[] = {-1, -1,  -1,        0,          1,         2,          3,
                          10, 105, INT32_MAX, 2147430528, INT32_MAX, 2147483520, INT32_MAX};
    enum { NX = sizeof xs / sizeof xs[0], REP = 8 * NX };
    for (size_t i = 0; i < NX; i++) {
        int32_t y = 7;
        assert_int_equal(selugrad_forward(SELUGRAD_INT32, 1, &xs[i], &y), SELUGRAD_OK);
        assert_int_equal(y, ys[i]);
    }
    /* every int32 kernel on them in whole vector steps (a one-element call reaches only a
       kernel's tail) */
    int32_t bx[REP], by[REP];
    for (size_t i = 0; i < REP; i++) bx[i] = xs[i % NX];
    for (size_t k = 0; k < sg_selu_kernel_count; k++) {
        const sg_kernel *kr = &sg_selu_kernels[k];
        if (kr->dtype != SELUGRAD_INT32 || !bt_kernel_runs(kr)) continue;
        memset(by, 0x55, sizeof by);
        kr->fn1(REP, bx, by);
        for (size_t i = 0; i < REP; i++) assert_int_equal(by[i], ys[i % NX]);
    }
}

/* int8: every input against the closed form of the contract's fp16 path: x > 0 gives
   floor(x * 1.05078125) wrapped to int8, x < 0 gives -1, 0 gives 0 (127 gives 133, so -123). */
static void test_int8_all(void **state) {
    (void)state;
    int8_t x[256], want[256], got[256];
    for (int i = 0; i < 256; i++) {
        x[i] = (int8_t)(i - 128);
        int v = x[i] > 0 ? (int)floor(x[i] * 1.05078125) : (x[i] < 0 ? -1 : 0);
        want[i] = (int8_t)(v >= 128 ? v - 256 : v);
    }
    assert_int_equal(want[255], -123);
    for (int i = 0; i < 256; i++) {
        assert_int_equal(gs_selu_s8(x[i], gs_exp_cr), want[i]);
        assert_int_equal(gs_selu_s8(x[i], exp_under_test), want[i]);
    }
    assert_int_equal(selugrad_forward(SELUGRAD_INT8, 256, x, got), SELUGRAD_OK);
    assert_memory_equal(got, want, 256);
    for (size_t k = 0; k < sg_selu_kernel_count; k++) {
        const sg_kernel *kr = &sg_selu_kernels[k];
        if (kr->dtype != SELUGRAD_INT8 || !bt_kernel_runs(kr)) continue;
        memset(got, 0x55, sizeof got);
        kr->fn1(256, x, got);
        assert_memory_equal(got, want, 256);
    }
}

/* Ties of the 16-bit roundings: fp32 results exactly halfway between two 16-bit values round away
   from zero. The inputs that give them are found with the golden: float16 has some (at least
   one must exist), bfloat16 none (8-bit significands times S never land on a bf16 midpoint),
   so the bf16 rounding is checked on constructed ties as well. */
static void test_ties_away(void **state) {
    (void)state;
    size_t ties[2] = {0, 0};
    for (int bf = 0; bf < 2; bf++) {
        gm_fmt f16 = bf ? gm_bf16 : gm_f16;
        for (uint32_t v = 0; v < 65536; v++) {
            double xv = gm_value(v, f16);
            if (isnan(xv)) continue;
            double y = gm_value(bf ? (uint32_t)gs_selu_bf16((uint16_t)v, exp_under_test)
                                   : (uint32_t)gs_selu_f16((uint16_t)v, exp_under_test),
                                f16);
            /* the fp32 result, rounded the other way at a tie, differs */
            uint32_t y32 = 0;
            uint16_t xh = (uint16_t)v;
            float xf = bf ? sg_bf16_to_float(xh) : sg_half_to_float(xh);
            y32 = sg_f32_bits(sg_selu_ref_f32(xf));
            double y32v = gm_value(y32, gm_f32);
            if (gm_round(y32v, f16) == gm_round_away(y32v, f16)) continue;
            ties[bf]++;
            assert_true(fabs(y) > fabs(gm_round(y32v, f16)));
            uint16_t got = 0;
            assert_int_equal(selugrad_forward(bf ? SELUGRAD_BF16 : SELUGRAD_FLOAT16, 1, &xh, &got),
                             SELUGRAD_OK);
            assert_int_equal(got, (uint16_t)gm_bits(y, f16));
        }
    }
    printf("ties rounded away: %zu float16 inputs, %zu bfloat16 inputs\n", ties[0], ties[1]);
    assert_true(ties[0] > 0);
    const uint32_t bf_ties[] = {0x3F808000u, 0x3F818000u, 0xBF808000u,
                                0x7F7F8000u, 0x00008000u, 0x80018000u};
    for (size_t i = 0; i < sizeof bf_ties / sizeof bf_ties[0]; i++) {
        double v = gm_value(bf_ties[i], gm_f32);
        assert_int_equal(sg_f32_to_bf16_away(sg_bits_f32(bf_ties[i])),
                         gm_bits(gm_round_away(v, gm_bf16), gm_bf16));
    }
    const uint32_t f16_ties[] = {0x3F801000u, 0x3F803000u, 0xC7001000u, 0x477FF000u,
                                 0x33000000u, 0x33C00000u, 0x387FC000u, 0xB3400000u};
    for (size_t i = 0; i < sizeof f16_ties / sizeof f16_ties[0]; i++) {
        double v = gm_value(f16_ties[i], gm_f32);
        assert_int_equal(sg_f32_to_f16_away(sg_bits_f32(f16_ties[i])),
                         gm_bits(gm_round_away(v, gm_f16), gm_f16));
    }
}

/* ---- every kernel variant against the model ---- */

enum { MAX_LEN = 2 * 64 + 1, PAD = 64 };

static void check_kernel(const sg_kernel *k, size_t n, size_t off, int in_place) {
    size_t es = selugrad_dtype_size(k->dtype), bytes = (n + 2 * PAD) * es;
    unsigned char *x = bt_alloc(bytes), *y = bt_alloc(bytes), *want = bt_alloc(bytes);
    fill(x, n + 2 * PAD, k->dtype);
    memset(y, 0xA5, bytes);
    size_t at = (PAD + off) * es;
    if (in_place) memcpy(y, x, bytes);
    memcpy(want, y, bytes);
    model(k->dtype, n, x + at, want + at);
    k->fn1(n, in_place ? y + at : x + at, y + at);
    char who[96];
    snprintf(who, sizeof who, "%s n=%zu off=%zu in_place=%d", k->name, n, off, in_place);
    assert_same(k->dtype, n + 2 * PAD, x, want, y, who);
    free(x);
    free(y);
    free(want);
}

/* A 16-bit kernel on every input, at each position of its step: the inputs rotated by 0 ..
   ALL16_ROTATIONS - 1, at least the widest step (AVX-512 bf16: 112, 96 elements by vectors and 16
   through a table; AVX2: 48, 32 and 16; the vector-only steps: 32), against the model. In calls
   on both sides of SG_NT_MIN_BYTES (nt_bytes.h), where an x86 kernel may change its step: calls
   below it over the 65,536 inputs, and one call of all of them repeated to at least that size. */
enum { ALL16_ROTATIONS = 112 };

static void check_all16_run(const sg_kernel *k, size_t n, size_t piece, const uint16_t *x,
                            uint16_t *y, const uint16_t *w, uint32_t rot) {
    memset(y, 0xA5, n * 2);
    for (size_t s = 0; s < n; s += piece) k->fn1(n - s < piece ? n - s : piece, x + s, y + s);
    for (size_t i = 0; i < n; i++)
        if (y[i] != w[x[i]])
            fail_msg("%s: every input, rotated by %u, in calls of %zu elements: x 0x%04X gives "
                     "0x%04X, want 0x%04X",
                     k->name, rot, piece, x[i], y[i], w[x[i]]);
}

static void check_all16(const sg_kernel *k) {
    size_t small = 65536, big = 65536;
    while (small * 2 * 2 >= SG_NT_MIN_BYTES) small /= 2;
    while (big * 2 * 2 < SG_NT_MIN_BYTES) big += 65536;
    uint16_t *x = bt_alloc(big * 2), *y = bt_alloc(big * 2), *w = bt_alloc(65536 * 2);
    for (uint32_t v = 0; v < 65536; v++) x[v] = (uint16_t)v;
    model(k->dtype, 65536, x, w);
    for (uint32_t rot = 0; rot < ALL16_ROTATIONS; rot++) {
        for (size_t i = 0; i < big; i++) x[i] = (uint16_t)(i + rot);
        check_all16_run(k, 65536, small, x, y, w, rot);
        check_all16_run(k, big, big, x, y, w, rot);
    }
    free(x);
    free(y);
    free(w);
}

static void test_variants(void **state) {
    (void)state;
    size_t ran = 0;
    for (size_t i = 0; i < sg_selu_kernel_count; i++) {
        const sg_kernel *k = &sg_selu_kernels[i];
        assert_int_equal(k->op, SG_OP_SELU);
        if (!bt_kernel_runs(k)) continue;
        ran++;
        for (size_t n = 0; n <= MAX_LEN; n++)
            for (size_t off = 0; off < 2; off++) check_kernel(k, n, off, 0);
        for (size_t n = 0; n <= MAX_LEN; n += 7) check_kernel(k, n, 1, 1);
        check_kernel(k, 300000, 3, 0); /* large: any streaming path */
        check_kernel(k, 300000, 0, 1);
        if (selugrad_dtype_size(k->dtype) == 2) check_all16(k);
    }
    printf("%zu of %zu forward kernels ran\n", ran, sg_selu_kernel_count);
    assert_true(ran >= 5); /* the scalar ones at least */
}

/* ---- the native API ---- */

static void test_api_threads(void **state) {
    (void)state;
    enum { N = 1 << 20 };
    unsigned char *x = bt_alloc(N * 4), *y = bt_alloc(N * 4), *w = bt_alloc(N * 4);
    for (size_t d = 0; d < 5; d++) {
        selugrad_dtype dt = fwd_dtypes[d];
        size_t es = selugrad_dtype_size(dt);
        fill(x, N, dt);
        model(dt, N, x, w);
        for (bt_setting set = bt_settings(1); bt_setting_next(&set);) { /* every cap, threads */
            memset(y, 0, N * es);
            assert_int_equal(selugrad_forward(dt, N, x, y), SELUGRAD_OK);
            assert_same(dt, N, x, w, y, set.label);
            /* strided: every other element, backwards, and in place */
            size_t h = N / 2;
            memset(y, 0, N * es);
            assert_int_equal(selugrad_forward_strided(dt, h, x + (N - 1) * es, -1, y, 2),
                             SELUGRAD_OK);
            for (size_t i = 0; i < h; i++) /* memcmp per element; one cmocka call on failure */
                if (memcmp(y + 2 * i * es, w + (N - 1 - i) * es, es) != 0)
                    fail_msg("%s: strided backwards, element %zu", set.label, i);
            memcpy(y, x, N * es);
            assert_int_equal(selugrad_forward_strided(dt, h, y, 2, y, 2), SELUGRAD_OK);
            for (size_t i = 0; i < h; i++)
                if (memcmp(y + 2 * i * es, w + 2 * i * es, es) != 0 ||
                    memcmp(y + (2 * i + 1) * es, x + (2 * i + 1) * es, es) != 0)
                    fail_msg("%s: strided in place, element %zu", set.label, i);
        }
        memcpy(y, x, N * es);
        assert_int_equal(selugrad_forward(dt, N, y, y), SELUGRAD_OK); /* in place */
        assert_same(dt, N, x, w, y, "selugrad_forward in place");
    }
    free(x);
    free(y);
    free(w);
}

static void test_api_errors(void **state) {
    (void)state;
    float x[8] = {0}, y[8];
    assert_int_equal(selugrad_forward(SELUGRAD_UINT8, 4, x, y), SELUGRAD_ERR_BAD_DTYPE);
    /* named, as the caller may know it only by its enum (a torch.uint8 tensor, a numpy uint8
       array); the list of what is expected does not offer it */
    const char *m = selugrad_last_error();
    assert_non_null(strstr(m, "selugrad_forward: dtype SELUGRAD_UINT8 (4) has no SELU forward"));
    assert_non_null(strstr(m, "(expected one of "));
    assert_null(strstr(strstr(m, "(expected one of "), "UINT8"));
    assert_int_equal(selugrad_forward((selugrad_dtype)99, 0, x, y), SELUGRAD_ERR_BAD_DTYPE);
    assert_int_equal(selugrad_forward(SELUGRAD_FLOAT, 0, NULL, NULL), SELUGRAD_OK);
    assert_int_equal(selugrad_forward(SELUGRAD_FLOAT, 1, NULL, y), SELUGRAD_ERR_NULL_POINTER);
    assert_non_null(strstr(selugrad_last_error(), "x is NULL"));
    assert_int_equal(selugrad_forward(SELUGRAD_FLOAT, 1, x, NULL), SELUGRAD_ERR_NULL_POINTER);
    assert_non_null(strstr(selugrad_last_error(), "y is NULL"));
    assert_int_equal(selugrad_forward(SELUGRAD_FLOAT, 4, x, x + 1), SELUGRAD_ERR_OVERLAP);
    assert_non_null(strstr(selugrad_last_error(), "y overlaps x"));
    assert_int_equal(selugrad_forward_strided(SELUGRAD_FLOAT, 2, x, 1, y, 0),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    /* interleaved spans count as overlapping, as in selugrad_backward_strided */
    assert_int_equal(selugrad_forward_strided(SELUGRAD_FLOAT, 4, x, 2, x + 1, 2),
                     SELUGRAD_ERR_OVERLAP);
    assert_int_equal(selugrad_forward_strided(SELUGRAD_FLOAT, SIZE_MAX / 2, x, 1, y, 1),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_null(selugrad_forward_kernel_name(SELUGRAD_UINT8));
    for (size_t d = 0; d < 5; d++) {
        const char *name = selugrad_forward_kernel_name(fwd_dtypes[d]);
        assert_non_null(name);
        assert_non_null(strstr(name, "_selu__"));
    }
}

/* Dispatch under every cap (selugrad_set_max_isa): the kernel named is the first of the dtype in
   selu.inc that the CPU and the cap allow. */
static void test_dispatch_cap(void **state) {
    (void)state;
    static const sg_isa caps[] = {SG_ISA_SCALAR,     SG_ISA_AVX2, SG_ISA_AVX512,
                                  SG_ISA_AVX512FP16, SG_ISA_NEON, SG_ISA_ALL};
    const selugrad_isa before = selugrad_get_max_isa();
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        sg_isa cap = caps[c];
        assert_int_equal(selugrad_set_max_isa(cap), SELUGRAD_OK);
        for (size_t d = 0; d < 5; d++) {
            const sg_kernel *want = NULL;
            for (size_t i = 0; i < sg_selu_kernel_count && want == NULL; i++) {
                const sg_kernel *k = &sg_selu_kernels[i];
                int allowed = k->isa == SG_ISA_SCALAR || cap == SG_ISA_ALL ||
                              (k->isa == SG_ISA_NEON ? cap == SG_ISA_NEON
                                                     : cap != SG_ISA_NEON && k->isa <= cap);
                if (k->dtype == fwd_dtypes[d] && sg_isa_supported(k->isa) && allowed) want = k;
            }
            assert_non_null(want);
            assert_string_equal(selugrad_forward_kernel_name(fwd_dtypes[d]), want->name);
            if (cap == SG_ISA_SCALAR) assert_non_null(strstr(want->name, "__scalar"));
        }
        printf("cap %s: f32 runs %s\n", sg_isa_name(cap),
               selugrad_forward_kernel_name(SELUGRAD_FLOAT));
    }
    assert_int_equal(selugrad_set_max_isa(before), SELUGRAD_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_vs_golden),
        cmocka_unit_test(test_model_vs_correctly_rounded),
        cmocka_unit_test(test_exp),
        cmocka_unit_test(test_specials),
        cmocka_unit_test(test_int8_all),
        cmocka_unit_test(test_ties_away),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_api_threads),
        cmocka_unit_test(test_api_errors),
        cmocka_unit_test(test_dispatch_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
