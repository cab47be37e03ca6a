/*
 * The AVX512-FP16 SeluGrad kernels (src/kernels/avx512fp16: float16, int8, uint8) on a CPU
 * without AVX512-FP16: their source, unchanged, compiled with the AVX-512 flags and
 * fp16_emu.h, which emulates the FP16 intrinsics they call (tests/cmake/fp16_emu.cmake).
 * First the emulation itself, against a model of its own (fp16_model.h: the golden's double
 * arithmetic and rounding, TwoSum and round-to-odd for the FMA, nearbyint for VCVTPH2W, the SDM's
 * NaN rules), and hand-worked values that check emulation and model alike.
 * Then the three kernels against the golden, bit for bit: every 8-bit (g, o) pair at several
 * lengths, every fp16 o against chosen g and every g against chosen o, every length 0..200 at
 * several placements, calls around the streaming threshold (SG_NT_MIN_BYTES) with y at every
 * element offset within 64 bytes, in place (y == g, y == o), y a few elements before an input,
 * no byte written outside y, and (under ASan) none read past an input.
 * Exits 77 (CTest: Skipped) where the CPU lacks AVX-512F/BW/VL/DQ/VBMI.
 */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu/fp16_emu_ops.h"
#include "emu/fp16_model.h"
#include "kernels/nt_bytes.h"
#include "model/golden.h"
#include "selugrad/selugrad.h"
#include "test_rng.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t rnd(void) {
    return sgt_xorshift64s(&rng_state);
}

static void *xalloc(size_t bytes) {
    void *p = aligned_alloc(64, (bytes + 64) / 64 * 64);
    assert_non_null(p);
    return p;
}

/* ---- the emulation against the model ---- */

/* The special patterns: zeros, infinities, quiet and signalling NaNs of both signs, subnormals,
   the smallest normal, the largest finite, +-1, +-0.5, -2, the contract's constants and -SA's
   neighbours. */
static const uint16_t sp16[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0xFE01,
                                0x7C01, 0xFDFF, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400,
                                0x8400, 0x7BFF, 0xFBFF, 0xBF08, 0xBF07, 0xBF09, 0x3F08,
                                0x3C00, 0xBC00, 0x3800, 0xB800, 0x3C34, 0xC000, 0x0100};

/* 2^k as binary16, -24 <= k <= 15. */
static uint16_t pow2_bits(int k) {
    return k >= -14 ? (uint16_t)((k + 15) << 10) : (uint16_t)(1u << (k + 24));
}

/* The b of pair j for a: specials, random patterns, patterns next to -a (cancellation), -a's
   binade and the one below with random significands, half an ulp of a and its neighbours
   (ties), and every power of two (exact scaling, products into the subnormals). */
enum { B_SPECIAL = NELEMS(sp16), B_RANDOM = 12, B_CANCEL = 7, B_NEAR = 4, B_TIE = 5, B_POW = 40 };
enum { B_COUNT = B_SPECIAL + B_RANDOM + B_CANCEL + B_NEAR + B_TIE + B_POW };

static uint16_t pick_b(int j, uint16_t a) {
    uint16_t neg = (uint16_t)(a ^ 0x8000u);
    if (j < B_SPECIAL) return sp16[j];
    j -= B_SPECIAL;
    if (j < B_RANDOM) return (uint16_t)rnd();
    j -= B_RANDOM;
    if (j < B_CANCEL) return (uint16_t)(neg + j - 3);
    j -= B_CANCEL;
    if (j < B_NEAR) {
        uint16_t top = (uint16_t)(neg & 0xFC00u);
        if (j >= 2 && (top & 0x7C00u) != 0) top = (uint16_t)(top - 0x0400u);
        return (uint16_t)(top | (rnd() & 0x3FFu));
    }
    j -= B_NEAR;
    if (j < B_TIE) {
        int ea = (a >> 10) & 0x1F;
        if (ea < 2 || ea == 31) return (uint16_t)rnd();
        uint16_t h = pow2_bits(ea - 26); /* half the ulp of a */
        static const int d[B_TIE] = {0, 0x8000, 1, -1, 0};
        if (j == 4) return (uint16_t)(pow2_bits(ea - 25) | (ea - 25 >= -14 ? 0x200u : 0x8000u));
        return j == 1 ? (uint16_t)(h ^ 0x8000u) : (uint16_t)(h + d[j]);
    }
    j -= B_TIE;
    return (uint16_t)(pow2_bits(j - 24) | (j & 1 ? 0x8000u : 0));
}

static uint16_t *a16, *b16, *c16, *r16;
static int16_t *w16;
static uint8_t *k8;
enum { N16 = 65536 };

static void sweep_alloc(void) {
    a16 = xalloc(N16 * 2);
    b16 = xalloc(N16 * 2);
    c16 = xalloc(N16 * 2);
    r16 = xalloc(N16 * 2);
    w16 = xalloc(N16 * 2);
    k8 = xalloc(N16);
}

static void sweep_free(void) {
    free(a16);
    free(b16);
    free(c16);
    free(r16);
    free(w16);
    free(k8);
}

/* Every a against B_COUNT b each, for add, mul and both compares. */
static void test_binary_ops(void **state) {
    (void)state;
    size_t checked = 0;
    for (int j = 0; j < B_COUNT; j++) {
        for (size_t i = 0; i < N16; i++) {
            a16[i] = (uint16_t)i;
            b16[i] = pick_b(j, (uint16_t)i);
        }
        sge_ops_add(N16, a16, b16, r16);
        for (size_t i = 0; i < N16; i++)
            if (r16[i] != m_add(a16[i], b16[i]))
                fail_msg("add 0x%04X + 0x%04X: emulated 0x%04X, the model 0x%04X", a16[i], b16[i],
                         r16[i], m_add(a16[i], b16[i]));
        sge_ops_mul(N16, a16, b16, r16);
        for (size_t i = 0; i < N16; i++)
            if (r16[i] != m_mul(a16[i], b16[i]))
                fail_msg("mul 0x%04X * 0x%04X: emulated 0x%04X, the model 0x%04X", a16[i], b16[i],
                         r16[i], m_mul(a16[i], b16[i]));
        sge_ops_cmp_lt_oq(N16, a16, b16, k8);
        for (size_t i = 0; i < N16; i++)
            if (k8[i] != (val(a16[i]) < val(b16[i])))
                fail_msg("cmp_lt_oq 0x%04X, 0x%04X: emulated %u", a16[i], b16[i], k8[i]);
        sge_ops_cmp_unord_q(N16, a16, b16, k8);
        for (size_t i = 0; i < N16; i++)
            if (k8[i] != (m_isnan(a16[i]) || m_isnan(b16[i])))
                fail_msg("cmp_unord_q 0x%04X, 0x%04X: emulated %u", a16[i], b16[i], k8[i]);
        checked += N16;
    }
    print_message("add, mul, cmp: %zu pairs each\n", checked);
}

/* An fp16 operand for the FMA sample: a special, any pattern, a short significand (products then
   exact in binary16, sums exact ties), or a moderate full one. */
static uint16_t fma_operand(void) {
    uint64_t r = rnd();
    uint16_t bits = (uint16_t)(r >> 32);
    switch (r & 7) {
    case 0:
        return sp16[(r >> 8) % NELEMS(sp16)];
    case 1:
    case 2:
        return bits;
    case 3:
    case 4:
        return (uint16_t)((bits & 0xFC00u) | (bits & 0x0380u));
    default:
        return (uint16_t)((bits & 0x8000u) | ((9u + (r >> 8) % 13u) << 10) | (bits & 0x3FFu));
    }
}

/* c for a * b: any, next to -round(a * b) (cancellation), half an ulp of round(a * b) or a
   neighbour of it (ties), or far below it (only a sticky bit). */
static uint16_t fma_addend(uint16_t a, uint16_t b) {
    uint64_t r = rnd();
    uint16_t p = m_mul(a, b);
    int ep = (p >> 10) & 0x1F;
    switch (r & 3) {
    case 0:
        return fma_operand();
    case 1:
        return (uint16_t)((p ^ 0x8000u) + (int)((r >> 8) % 5) - 2);
    case 2:
        if (ep < 2 || ep == 31) return fma_operand();
        return (uint16_t)((pow2_bits(ep - 26) + (int)((r >> 8) % 3) - 1) | (r & 0x8000u));
    default:
        return (uint16_t)((r >> 16) & 0x83FFu);
    }
}

static void check_fma(size_t n) {
    sge_ops_fmadd(n, a16, b16, c16, r16);
    for (size_t i = 0; i < n; i++)
        if (r16[i] != m_fma(a16[i], b16[i], c16[i]))
            fail_msg("fmadd 0x%04X * 0x%04X + 0x%04X: emulated 0x%04X, the model 0x%04X", a16[i],
                     b16[i], c16[i], r16[i], m_fma(a16[i], b16[i], c16[i]));
}

/* Random triples, and every a against the s8 kernel's b and c (2^-16 and SA / 256) and others. */
static void test_fma(void **state) {
    (void)state;
    enum { ROUNDS = 24 };
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t i = 0; i < N16; i++) {
            a16[i] = fma_operand();
            b16[i] = fma_operand();
            c16[i] = fma_addend(a16[i], b16[i]);
        }
        check_fma(N16);
    }
    static const uint16_t bs[] = {0x0100, 0x3C00, 0x0001, 0xBC00, 0x7C00};
    static const uint16_t cs[] = {0x1F08, 0x8000, 0x0000, 0x0001, 0xFC00, 0x7E00};
    for (size_t x = 0; x < NELEMS(bs); x++)
        for (size_t y = 0; y < NELEMS(cs); y++) {
            for (size_t i = 0; i < N16; i++) {
                a16[i] = (uint16_t)i;
                b16[i] = bs[x];
                c16[i] = cs[y];
            }
            check_fma(N16);
        }
    print_message("fmadd: %d random triples, %zu with every a\n", ROUNDS * N16,
                  NELEMS(bs) * NELEMS(cs) * (size_t)N16);
}

/* VCVTW2PH on every int16, VCVTPH2W on every pattern, the blend and the casts. */
static void test_conversions_blend(void **state) {
    (void)state;
    for (size_t i = 0; i < N16; i++) w16[i] = (int16_t)(uint16_t)i;
    sge_ops_cvtepi16_ph(N16, w16, r16);
    for (size_t i = 0; i < N16; i++)
        if (r16[i] != m_cvtw2ph(w16[i]))
            fail_msg("cvtepi16_ph %d: emulated 0x%04X, the model 0x%04X", w16[i], r16[i],
                     m_cvtw2ph(w16[i]));
    for (size_t i = 0; i < N16; i++) a16[i] = (uint16_t)i;
    sge_ops_cvt_rne_ph_epi16(N16, a16, w16);
    for (size_t i = 0; i < N16; i++)
        if (w16[i] != m_cvtph2w(a16[i]))
            fail_msg("cvt_roundph_epi16 0x%04X: emulated %d, the model %d", a16[i], w16[i],
                     m_cvtph2w(a16[i]));
    uint32_t k[N16 / 32];
    for (size_t i = 0; i < N16 / 32; i++) k[i] = (uint32_t)rnd();
    for (size_t i = 0; i < N16; i++) b16[i] = (uint16_t)rnd();
    sge_ops_mask_blend(N16, k, a16, b16, r16);
    for (size_t i = 0; i < N16; i++)
        assert_int_equal(r16[i], (k[i / 32] >> (i % 32)) & 1u ? b16[i] : a16[i]);
    sge_ops_setzero_cast(N16, b16, c16, r16);
    for (size_t i = 0; i < N16; i++) {
        assert_int_equal(c16[i], 0);
        assert_int_equal(r16[i], b16[i]);
    }
}

/* Values worked by hand from the SDM's definitions, for the emulation and the model alike. */
static void test_hand_worked(void **state) {
    (void)state;
    static const struct {
        char op; /* + * f (a * b + c) */
        uint16_t a, b, c, want;
    } v[] = {
        {'+', 0x3C00, 0x3C00, 0, 0x4000}, /* 1 + 1 */
        {'+', 0x3C00, 0x1400, 0, 0x3C01}, /* 1 + 2^-10: one ulp */
        {'+', 0x3C00, 0x1000, 0, 0x3C00}, /* 1 + 2^-11: a tie, to even (down) */
        {'+', 0x3C01, 0x1000, 0, 0x3C02}, /* a tie, to even (up) */
        {'+', 0x3C00, 0x1001, 0, 0x3C01}, /* just above the tie */
        {'+', 0x7BFF, 0x4C00, 0, 0x7C00}, /* 65504 + 16: the tie with 2^16, to even: inf */
        {'+', 0x7BFF, 0x4BFF, 0, 0x7BFF}, /* just below it */
        {'+', 0x7BFF, 0x5000, 0, 0x7C00}, /* 65504 + 32 = 2^16 overflows */
        {'+', 0x0001, 0x8002, 0, 0x8001}, /* subnormals are exact */
        {'+', 0x8000, 0x8000, 0, 0x8000}, /* -0 + -0 */
        {'+', 0x0000, 0x8000, 0, 0x0000}, /* +0 + -0 */
        {'+', 0x3C00, 0xBC00, 0, 0x0000}, /* x - x is +0 */
        {'+', 0x7C00, 0xFC00, 0, 0xFE00}, /* inf - inf: the default QNaN */
        {'+', 0x7C00, 0x7BFF, 0, 0x7C00},
        {'+', 0x7C01, 0x3C00, 0, 0x7E01}, /* an SNaN comes back quieted */
        {'+', 0x3C00, 0xFC01, 0, 0xFE01},
        {'+', 0x7C01, 0xFE02, 0, 0x7E01}, /* two NaNs: the first source's */
        {'+', 0xFE02, 0x7C01, 0, 0xFE02},
        {'*', 0x0001, 0x3800, 0, 0x0000}, /* 2^-25: a tie, to even (0) */
        {'*', 0x0003, 0x3800, 0, 0x0002}, /* 1.5 * 2^-24: a tie, to even (2) */
        {'*', 0x8001, 0x3800, 0, 0x8000}, /* underflow keeps the sign */
        {'*', 0x0001, 0x0001, 0, 0x0000},
        {'*', 0x0400, 0x3BFF, 0, 0x0400}, /* 2^-14 - 2^-25: a subnormal tie, to even (up) */
        {'*', 0x5BFF, 0x5BFF, 0, 0x7BFE}, /* 255.875^2 = 65472.015625 */
        {'*', 0x5C00, 0x5C00, 0, 0x7C00}, /* 256^2 overflows */
        {'*', 0x7C00, 0x0000, 0, 0xFE00}, /* inf * 0 */
        {'*', 0xFC00, 0x0001, 0, 0xFC00},
        {'*', 0x8000, 0x3C00, 0, 0x8000},
        {'*', 0x3C01, 0x3C01, 0, 0x3C02},      /* (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 */
        {'f', 0x3C01, 0x3C01, 0x1000, 0x3C03}, /* one rounding: rounding the product first
                                                  would give the tie 1 + 2^-9 + 2^-11 -> 0x3C02 */
        {'f', 0x3C00, 0x3C00, 0xBC00, 0x0000}, /* exact cancellation: +0 */
        {'f', 0x8000, 0x3C00, 0x8000, 0x8000}, /* -0 * 1 + -0 */
        {'f', 0x8000, 0x3C00, 0x0000, 0x0000},
        {'f', 0x0000, 0x7C00, 0x3C00, 0xFE00}, /* 0 * inf */
        {'f', 0x0000, 0x7C00, 0x7E00, 0x7E00}, /* 0 * inf + QNaN: the NaN operand */
        {'f', 0x7C00, 0x3C00, 0xFC00, 0xFE00}, /* inf - inf */
        {'f', 0x7C00, 0xBC00, 0xFC00, 0xFC00},
        {'f', 0x3C00, 0x7C01, 0xFE02, 0x7E01}, /* the first NaN in a, b, c order */
        {'f', 0x0001, 0x0001, 0x0000, 0x0000}, /* 2^-48 rounds to +0 */
        {'f', 0x0001, 0x0001, 0x0001, 0x0001}, /* 2^-24 + 2^-48 */
        {'f', 0x0003, 0x3800, 0x8000, 0x0002}, /* 1.5 * 2^-24 + -0: a tie, to even */
        {'f', 0x5BFF, 0x5BFF, 0x5200, 0x7C00}, /* 65472.015625 + 48: above the tie 65520 */
        {'f', 0x5BFF, 0x5BFF, 0x51FF, 0x7BFF}, /* + 47.96875: below it */
        {'f', 0xF800, 0x0100, 0x1F08, 0xB7E4}, /* the s8 kernel's -32768 * 2^-16 + SA / 256:
                                                  -0.493133544921875 -> -2020 * 2^-12 */
    };
    for (size_t i = 0; i < NELEMS(v); i++) {
        a16[0] = v[i].a;
        b16[0] = v[i].b;
        c16[0] = v[i].c;
        for (int l = 1; l < 32; l++) a16[l] = b16[l] = c16[l] = 0x3C00;
        uint16_t model;
        if (v[i].op == '+') {
            sge_ops_add(32, a16, b16, r16);
            model = m_add(v[i].a, v[i].b);
        } else if (v[i].op == '*') {
            sge_ops_mul(32, a16, b16, r16);
            model = m_mul(v[i].a, v[i].b);
        } else {
            sge_ops_fmadd(32, a16, b16, c16, r16);
            model = m_fma(v[i].a, v[i].b, v[i].c);
        }
        if (r16[0] != v[i].want || model != v[i].want)
            fail_msg("%c 0x%04X 0x%04X 0x%04X: want 0x%04X, emulated 0x%04X, the model 0x%04X",
                     v[i].op, v[i].a, v[i].b, v[i].c, v[i].want, r16[0], model);
    }
    static const struct {
        uint16_t a;
        int16_t want;
    } cv[] = {{0x3800, 0},         {0x3E00, 2},         {0x4100, 2},         {0xB800, 0},
              {0xBE00, -2},        {0x3801, 1},         {0x7800, INT16_MIN}, {0xF800, INT16_MIN},
              {0x77FF, 32752},     {0xF7FF, -32752},    {0x7C00, INT16_MIN}, {0xFC00, INT16_MIN},
              {0x7E00, INT16_MIN}, {0x7C01, INT16_MIN}, {0x0001, 0},         {0x8000, 0}};
    for (size_t i = 0; i < NELEMS(cv); i++) {
        a16[0] = cv[i].a;
        sge_ops_cvt_rne_ph_epi16(32, a16, w16);
        assert_int_equal(w16[0], cv[i].want);
        assert_int_equal(m_cvtph2w(cv[i].a), cv[i].want);
    }
    static const struct {
        int16_t v;
        uint16_t want;
    } wv[] = {{2049, 0x6800},  {2051, 0x6802},   {4098, 0x6C00},  {4102, 0x6C02},
              {32767, 0x7800}, {-32768, 0xF800}, {-2049, 0xE800}, {0, 0x0000},
              {-1, 0xBC00},    {1, 0x3C00},      {2047, 0x67FF}};
    for (size_t i = 0; i < NELEMS(wv); i++) {
        w16[0] = wv[i].v;
        sge_ops_cvtepi16_ph(32, w16, r16);
        assert_int_equal(r16[0], wv[i].want);
        assert_int_equal(m_cvtw2ph(wv[i].v), wv[i].want);
    }
    static const struct {
        uint16_t a, b;
        uint8_t lt, unord;
    } cm[] = {{0x8000, 0x0000, 0, 0}, {0x0000, 0x8000, 0, 0}, {0xFC00, 0x7C00, 1, 0},
              {0x7BFF, 0x7C00, 1, 0}, {0x7E00, 0x3C00, 0, 1}, {0x3C00, 0x7C01, 0, 1},
              {0xBC00, 0x8001, 1, 0}, {0x8001, 0x0000, 1, 0}, {0x7C00, 0x7C00, 0, 0}};
    for (size_t i = 0; i < NELEMS(cm); i++) {
        a16[0] = cm[i].a;
        b16[0] = cm[i].b;
        sge_ops_cmp_lt_oq(32, a16, b16, k8);
        assert_int_equal(k8[0], cm[i].lt);
        sge_ops_cmp_unord_q(32, a16, b16, k8);
        assert_int_equal(k8[0], cm[i].unord);
    }
}

static int group_setup(void **state) {
    (void)state;
    sweep_alloc();
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    sweep_free();
    return 0;
}

/* ---- the emulated kernels against the golden ---- */

typedef void (*kernel_fn)(size_t n, const void *g, const void *o, void *y);

typedef struct kern {
    const char *name;
    kernel_fn fn;
    int dtype; /* a selugrad_dtype */
    size_t es;
} kern;

/* The AVX512-FP16 variants of the list (src/kernels/selugrad.inc), each compiled with the
   emulation under its name with the suffix _emu (tests/cmake/fp16_emu.cmake): whether or not the
   compiler builds the library's own AVX512-FP16 kernels (SG_BUILD_AVX512FP16). */
#define SGE_EMU_scalar(tag, dtype)
#define SGE_EMU_avx2(tag, dtype)
#define SGE_EMU_avx512(tag, dtype)
#define SGE_EMU_neon(tag, dtype)
#ifndef SG_BUILD_AVX512FP16
#define SG_BUILD_AVX512FP16 1
#endif
#define SG_KERNEL(tag, dtype, variant, isa, part_kib) SGE_EMU_##variant(tag, dtype)
#define SGE_EMU_avx512fp16(tag, dtype)                                                             \
    void sg_##tag##_selugrad__avx512fp16_emu(size_t n, const void *g, const void *o, void *y);
#include "kernels/selugrad.inc"
#undef SGE_EMU_avx512fp16
#define SGE_EMU_avx512fp16(tag, dtype)                                                             \
    {#tag "_selugrad__avx512fp16", sg_##tag##_selugrad__avx512fp16_emu, dtype, 0},
static kern kerns[] = {
/* es: set by main */
#include "kernels/selugrad.inc"
};
#undef SG_KERNEL

enum { GUARD = 192 };
enum { OUT_OF_PLACE, Y_IS_G, Y_IS_O };

static size_t elements_checked;

static uint32_t elem(const uint8_t *p, size_t i, size_t es) {
    uint32_t v = 0;
    memcpy(&v, p + i * es, es);
    return v;
}

/* One call of the kernel on g0, o0 (n elements; want: the golden's results) with g, o and y at
   byte offsets goff, ooff, yoff past a 64-byte boundary (y at g's or o's place in place): y must
   hold want, and no other byte of the three buffers may change. An input that is not y ends
   where its allocation ends, so that ASan reports a read past it; y's buffer has guard bytes
   after it too. */
static void run_case(const kern *k, const char *what, size_t n, const uint8_t *g0,
                     const uint8_t *o0, const uint8_t *want, size_t goff, size_t ooff, size_t yoff,
                     int mode) {
    size_t bytes = n * k->es, off[3] = {goff, ooff, yoff}, total[3];
    int holds_y = mode == Y_IS_G ? 0 : mode == Y_IS_O ? 1 : 2;
    uint8_t *buf[3], *saved[3];
    for (int b = 0; b < 3; b++) {
        void *p = NULL;
        total[b] = GUARD + off[b] + bytes + (b == holds_y ? GUARD : 0);
        assert_int_equal(posix_memalign(&p, 64, total[b]), 0);
        buf[b] = p;
        saved[b] = xalloc(total[b]);
        memset(buf[b], 0xA5 + 0x11 * b, total[b]);
    }
    uint8_t *gp = buf[0] + GUARD + goff, *op = buf[1] + GUARD + ooff;
    uint8_t *yp = buf[holds_y] + GUARD + off[holds_y];
    memcpy(gp, g0, bytes);
    memcpy(op, o0, bytes);
    for (int b = 0; b < 3; b++) memcpy(saved[b], buf[b], total[b]);
    k->fn(n, gp, op, yp);
    static const char *const modes[] = {"out of place", "y == g", "y == o"};
    if (memcmp(yp, want, bytes) != 0) {
        for (size_t i = 0; i < n; i++)
            if (elem(yp, i, k->es) != elem(want, i, k->es))
                fail_msg("%s (emulated), %s, n=%zu, offsets g%zu o%zu y%zu, %s: element %zu "
                         "(g=0x%X o=0x%X) gives 0x%X, the golden 0x%X",
                         k->name, what, n, goff, ooff, yoff, modes[mode], i, elem(g0, i, k->es),
                         elem(o0, i, k->es), elem(yp, i, k->es), elem(want, i, k->es));
    }
    for (int b = 0; b < 3; b++) {
        size_t y0 = total[b], y1 = total[b]; /* the part of this buffer that is y */
        if (b == holds_y) {
            y0 = GUARD + off[b];
            y1 = y0 + bytes;
        }
        for (size_t i = 0; i < total[b]; i++)
            if ((i < y0 || i >= y1) && buf[b][i] != saved[b][i])
                fail_msg("%s (emulated), %s, n=%zu, offsets g%zu o%zu y%zu, %s: byte %zd of %s "
                         "outside y changed",
                         k->name, what, n, goff, ooff, yoff, modes[mode],
                         (ptrdiff_t)i - (ptrdiff_t)(GUARD + off[b]),
                         b == 0   ? "g"
                         : b == 1 ? "o"
                                  : "y");
        free(buf[b]);
        free(saved[b]);
    }
    elements_checked += n;
}

/* The golden's results for n elements of the kernel's dtype (the caller frees them). */
static uint8_t *golden(const kern *k, size_t n, const uint8_t *g, const uint8_t *o) {
    uint8_t *want = xalloc(n * k->es + 1);
    gm_selugrad_array(k->dtype, n, g, o, want);
    return want;
}

/* A random input of the dtype: for fp16 a special (1 in 4), any pattern (1 in 4) or a moderate
   value of either sign (|x| about 2^-3 .. 2^3); any byte for 8-bit. */
static void fill(const kern *k, uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        if (k->es == 1) {
            p[i] = (uint8_t)(r >> 24);
            continue;
        }
        uint16_t v = (uint16_t)(r >> 32);
        if ((r & 3) == 0) v = sp16[(r >> 8) % NELEMS(sp16)];
        if ((r & 3) >= 2) v = (uint16_t)((v & 0x83FFu) | ((12u + (r >> 8) % 7u) << 10));
        memcpy(p + 2 * i, &v, 2);
    }
}

/* Every length 0..200, each at out-of-place placements (aligned, element offsets, a byte offset
   off the element size) and in place. */
static void test_lengths(void **state) {
    const kern *k = (const kern *)*state;
    enum { MAX_N = 200 };
    size_t e = k->es;
    const size_t place[][3] = {{0, 0, 0}, {e, 3 * e, 5 * e}, {0, 0, 31 * e}, {62, 2, 1}};
    uint8_t *g = xalloc(MAX_N * e), *o = xalloc(MAX_N * e);
    for (size_t n = 0; n <= MAX_N; n++) {
        fill(k, g, n);
        fill(k, o, n);
        uint8_t *want = golden(k, n, g, o);
        for (size_t p = 0; p < NELEMS(place); p++)
            run_case(k, "lengths 0..200", n, g, o, want, place[p][0], place[p][1], place[p][2],
                     OUT_OF_PLACE);
        run_case(k, "lengths 0..200", n, g, o, want, e, 0, 0, Y_IS_G);
        run_case(k, "lengths 0..200", n, g, o, want, 0, 7 * e, 0, Y_IS_O);
        free(want);
    }
    free(g);
    free(o);
}

/* y d elements before g (which 0) or o (which 1), overlapping the rest of it: a partial overlap,
   which the API refuses but a direct call may make. The streaming loop then keeps to element
   order (sg512_stream_loop: no sub-streams), so every element is read before y's store reaches
   it and y holds the results of the inputs as they were; the input's last d elements, beyond
   y, stay as they were. */
static void run_behind(const kern *k, size_t n, const uint8_t *g0, const uint8_t *o0,
                       const uint8_t *want, size_t d, int which) {
    size_t bytes = n * k->es, shared = (n + d) * k->es, other = bytes;
    uint8_t *sbuf = xalloc(shared), *obuf = xalloc(other);
    memcpy(sbuf + d * k->es, which ? o0 : g0, bytes);
    memcpy(obuf, which ? g0 : o0, bytes);
    const uint8_t *in = sbuf + d * k->es;
    k->fn(n, which ? obuf : in, which ? in : obuf, sbuf);
    for (size_t i = 0; i < n; i++)
        if (elem(sbuf, i, k->es) != elem(want, i, k->es))
            fail_msg("%s (emulated), y %zu elements before %s, n=%zu: element %zu (g=0x%X o=0x%X) "
                     "gives 0x%X, the golden 0x%X",
                     k->name, d, which ? "o" : "g", n, i, elem(g0, i, k->es), elem(o0, i, k->es),
                     elem(sbuf, i, k->es), elem(want, i, k->es));
    assert_memory_equal(sbuf + bytes, (which ? o0 : g0) + bytes - d * k->es, d * k->es);
    assert_memory_equal(obuf, which ? g0 : o0, bytes);
    elements_checked += n;
    free(sbuf);
    free(obuf);
}

/* Calls just below and at the streaming threshold (the inputs and the output together reach
   SG_NT_MIN_BYTES: peel to a 64-byte aligned y, stream, SFENCE) and past it: y at every element
   offset within 64 bytes, at a byte offset off the element size, in place at several offsets,
   and y partly overlapping an input (run_behind). */
static void test_streaming(void **state) {
    const kern *k = (const kern *)*state;
    size_t e = k->es, at = (SG_NT_MIN_BYTES + 3 * e - 1) / (3 * e);
    const size_t sizes[] = {at - 1, at, at + 1, at + 63, 3 * at + 17};
    uint8_t *g = xalloc(sizes[4] * e), *o = xalloc(sizes[4] * e);
    for (size_t s = 0; s < NELEMS(sizes); s++) {
        size_t n = sizes[s];
        fill(k, g, n);
        fill(k, o, n);
        uint8_t *want = golden(k, n, g, o);
        char what[64];
        snprintf(what, sizeof what, "around the streaming threshold (%zu elements)", at);
        if (s == 1) {
            for (size_t yoff = 0; yoff < 64; yoff += e)
                run_case(k, what, n, g, o, want, (yoff * 7) % 64 / e * e, (yoff * 13) % 64 / e * e,
                         yoff, OUT_OF_PLACE);
            run_case(k, what, n, g, o, want, 0, 0, 1, OUT_OF_PLACE);
        } else {
            run_case(k, what, n, g, o, want, 0, 0, 0, OUT_OF_PLACE);
            run_case(k, what, n, g, o, want, e, 2 * e, 5 * e, OUT_OF_PLACE);
        }
        for (size_t off = 0; off < 64; off += 21 * e) {
            run_case(k, what, n, g, o, want, off, 0, 0, Y_IS_G);
            run_case(k, what, n, g, o, want, 0, off, 0, Y_IS_O);
        }
        if (s == 1 || s == 4)
            for (size_t d = 1; d < 64; d += 32)
                for (int which = 0; which < 2; which++) run_behind(k, n, g, o, want, d, which);
        free(want);
    }
    free(g);
    free(o);
}

/* Every (g, o) pair of an 8-bit dtype: in one call (plain stores), in calls of every length
   1..200 in turn (every pair through the masked tail and the steps at shifting alignments), in
   place, and twice over in one call past the streaming threshold. */
static void test_every_pair8(void **state) {
    const kern *k = (const kern *)*state;
    enum { PAIRS = 65536, TWICE = 2 * PAIRS + 13 };
    uint8_t *g = xalloc(TWICE), *o = xalloc(TWICE);
    for (size_t i = 0; i < TWICE; i++) {
        g[i] = (uint8_t)(i >> 8);
        o[i] = (uint8_t)(i * 7 + 3); /* every o with each g within 256 elements */
    }
    uint8_t *want = golden(k, TWICE, g, o);
    run_case(k, "every pair", PAIRS, g, o, want, 0, 0, 0, OUT_OF_PLACE);
    run_case(k, "every pair", PAIRS, g, o, want, 0, 0, 0, Y_IS_G);
    run_case(k, "every pair", PAIRS, g, o, want, 0, 0, 0, Y_IS_O);
    run_case(k, "every pair twice, streaming", TWICE, g, o, want, 1, 2, 3, OUT_OF_PLACE);
    uint8_t *y = xalloc(PAIRS);
    size_t len = 1;
    for (size_t i = 0; i < PAIRS; i += len, len = len % 200 + 1) {
        size_t m = PAIRS - i < len ? PAIRS - i : len;
        k->fn(m, g + i, o + i, y + i);
    }
    for (size_t i = 0; i < PAIRS; i++)
        if (y[i] != want[i])
            fail_msg("%s (emulated), every pair in calls of 1..200 elements: g=0x%X o=0x%X gives "
                     "0x%X, the golden 0x%X",
                     k->name, g[i], o[i], y[i], want[i]);
    elements_checked += PAIRS;
    free(y);
    free(want);
    free(g);
    free(o);
}

/* float16: every o against 32 g (the specials and random values), every g against 32 o; each
   in one streaming call and in plain calls of 8191 elements. */
static void test_every_o_and_g16(void **state) {
    const kern *k = (const kern *)*state;
    enum { SET = 32, N = SET * 65536, PLAIN = 8191 };
    uint16_t *g = xalloc(N * 2), *o = xalloc(N * 2), *y = xalloc(N * 2);
    for (int orient = 0; orient < 2; orient++) {
        uint16_t *all = orient ? g : o, *set = orient ? o : g;
        for (size_t i = 0; i < N; i++) {
            size_t j = i >> 16;
            all[i] = (uint16_t)i;
            set[i] = j < NELEMS(sp16) ? sp16[j] : (uint16_t)rnd();
        }
        const char *what = orient ? "every g against 32 o" : "every o against 32 g";
        uint8_t *want = golden(k, N, (const uint8_t *)g, (const uint8_t *)o);
        run_case(k, what, N, (const uint8_t *)g, (const uint8_t *)o, want, 0, 0, 0, OUT_OF_PLACE);
        for (size_t i = 0; i < N; i += PLAIN)
            k->fn(N - i < PLAIN ? N - i : PLAIN, g + i, o + i, y + i);
        if (memcmp(y, want, N * 2) != 0)
            for (size_t i = 0; i < N; i++)
                if (y[i] != elem(want, i, 2))
                    fail_msg("%s (emulated), %s in calls of %d: g=0x%04X o=0x%04X gives 0x%04X, "
                             "the golden 0x%04X",
                             k->name, what, PLAIN, g[i], o[i], y[i], elem(want, i, 2));
        elements_checked += N;
        free(want);
    }
    free(g);
    free(o);
    free(y);
}

int main(void) {
    if (!sge_cpu_runs_emulation()) {
        printf("SKIPPED: this CPU (or OS) lacks AVX-512F/BW/VL/DQ/VBMI, which the emulated "
               "AVX512-FP16 kernels are compiled for\n");
        return 77;
    }
    const struct CMUnitTest emu[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_binary_ops),
        cmocka_unit_test(test_fma),
        cmocka_unit_test(test_conversions_blend),
    };
    static const struct {
        const char *name;
        CMUnitTestFunction fn;
        size_t es; /* only for this element size; 0: every kernel */
    } cases[] = {{"lengths", test_lengths, 0},
                 {"streaming", test_streaming, 0},
                 {"every_pair", test_every_pair8, 1},
                 {"every_o_every_g", test_every_o_and_g16, 2}};
    static char names[NELEMS(kerns) * NELEMS(cases)][64];
    struct CMUnitTest kernels[NELEMS(kerns) * NELEMS(cases)];
    size_t nk = 0;
    for (size_t i = 0; i < NELEMS(kerns); i++)
        kerns[i].es = selugrad_dtype_size((selugrad_dtype)kerns[i].dtype);
    for (size_t c = 0; c < NELEMS(cases); c++)
        for (size_t i = 0; i < NELEMS(kerns); i++) {
            if (cases[c].es && cases[c].es != kerns[i].es) continue;
            snprintf(names[nk], sizeof names[nk], "%s_%s",
                     selugrad_dtype_name((selugrad_dtype)kerns[i].dtype), cases[c].name);
            kernels[nk] =
                (struct CMUnitTest){names[nk], cases[c].fn, NULL, NULL, (void *)&kerns[i]};
            nk++;
        }
    fflush(stdout);
    int failed =
        cmocka_run_group_tests_name("fp16_emu_instructions", emu, group_setup, group_teardown);
    failed += _cmocka_run_group_tests("fp16_emu_kernels", kernels, nk, NULL, NULL);
    fflush(stderr);
    printf("test_fp16_emu: %zu kernel results compared bit for bit\n", elements_checked);
    return failed ? 1 : 0;
}
