/*
 * Scalar kernels: docs/contract.md, "Per-dtype computation", over contiguous arrays in portable
 * C, equal bit for bit to the model functions of selugrad_ref.h but written
 * without branches.
 * Tail: none (one element per step).
 *
 * Each kernel computes both branches and chooses with bit masks, with the operations of the
 * model (each sum and product rounded once, RNE; fp16 and bf16 rounding after each operation),
 * so the same bits, but no branch on the sign of o: GCC 12 compiles the model's ?: to branches,
 * which random signs mispredict half the time (10-50 ns per element with its software fp16
 * conversions). These loops have no branch and compilers vectorize them with the target's
 * baseline SIMD (their speed: docs/PERFORMANCE.md, "Known limits and their measured reasons").
 * Checked against the model by the tests and on all 2^32 fp16 and bf16 pairs.
 * Like the SIMD kernels (and unlike the model's integer rounding), they need the default
 * floating-point environment (round to nearest, subnormals kept), which every caller in
 * core/exec.c enters first. Computing both branches may raise floating-point flags the model
 * would not (not part of the contract, docs/numerics.md).
 */
#include "selugrad_ref.h"
#include "../kernel.h"

/* x where m is all-ones, y where it is zero. */
static inline uint32_t sg_pick(uint32_t m, uint32_t x, uint32_t y) {
    return (x & m) | (y & ~m);
}

/* All-ones when c is true. */
static inline uint32_t sg_mask(int c) {
    return 0u - (uint32_t)(c != 0);
}

/* The bits of o < 0 ? b : a (a NaN or -0 o takes a). */
static inline uint32_t sg_flat_choose(float o, float b, float a) {
    return sg_pick(sg_mask(o < 0.0f), sg_f32_bits(b), sg_f32_bits(a));
}

/* All-ones when the fp32 bits r are a NaN. */
static inline uint32_t sg_flat_nan(uint32_t r) {
    return sg_mask((r & 0x7FFFFFFFu) > 0x7F800000u);
}

/* The reference's fp32 result bits (sg_ref_f32: NaN made canonical). */
static inline uint32_t sg_flat_f32(float g, float o) {
    const float scale = sg_bits_f32(SG_F32_SCALE_BITS);
    const float sa = sg_bits_f32(SG_F32_SA_BITS);
    uint32_t r = sg_flat_choose(o, g * (o + sa), g * scale);
    return sg_pick(sg_flat_nan(r), SG_F32_QNAN_BITS, r);
}

void sg_f32_selugrad__scalar(size_t n, const void *g, const void *o, void *y) {
    const float *gp = (const float *)g, *op = (const float *)o;
    float *yp = (float *)y;
    for (size_t i = 0; i < n; i++) yp[i] = sg_bits_f32(sg_flat_f32(gp[i], op[i]));
}

/* sg_ref_s32: the fp32 result (finite, |r| < 2^63) truncated toward zero and saturated; the
   value converted is clamped first, so the conversion is always defined. */
void sg_s32_selugrad__scalar(size_t n, const void *g, const void *o, void *y) {
    const int32_t *gp = (const int32_t *)g, *op = (const int32_t *)o;
    int32_t *yp = (int32_t *)y;
    for (size_t i = 0; i < n; i++) {
        float r = sg_bits_f32(sg_flat_f32((float)gp[i], (float)op[i]));
        float c = r < -2147483648.0f ? -2147483648.0f : r;
        c = c > 2147483520.0f ? 2147483520.0f : c;    /* the largest float below 2^31 */
        int32_t big = -(int32_t)(r >= 2147483648.0f); /* all ones (-1) or 0 */
        /* chosen on int32 values: a uint32 of 2^31 or more made int32 is implementation-defined */
        yp[i] = (INT32_MAX & big) | ((int32_t)c & ~big);
    }
}

/* sg_ref_bf16 without branches: t = bf16(o + SA) (a NaN only where o is, and then discarded),
   a and b in fp32, the choice, then NaN -> 0x7FC0 or RNE. */
void sg_bf16_selugrad__scalar(size_t n, const void *g, const void *o, void *y) {
    const uint16_t *gp = (const uint16_t *)g, *op = (const uint16_t *)o;
    uint16_t *yp = (uint16_t *)y;
    const float scale = sg_bf16_to_float(SG_BF16_SCALE_BITS);
    const float sa = sg_bf16_to_float(SG_BF16_SA_BITS);
    for (size_t i = 0; i < n; i++) {
        float gf = sg_bf16_to_float(gp[i]), of = sg_bf16_to_float(op[i]);
        float t = sg_bits_f32(sg_bf16_rne_hi(sg_f32_bits(of + sa)) & 0xFFFF0000u);
        uint32_t r = sg_flat_choose(of, gf * t, gf * scale);
        yp[i] = (uint16_t)sg_pick(sg_flat_nan(r), SG_BF16_QNAN_BITS, sg_bf16_rne_hi(r) >> 16);
    }
}

/* float16, int8 and uint8 (which compute in fp16) the same way, with conversions that have no
   branches either. */

/* fp16 bits -> fp32: exact for every finite value (the bits moved to fp32's place and scaled by
   2^112, subnormals included); inf and NaN get the exponent of ones (a NaN keeps its top payload
   bits but not always its quiet bit: the kernels below make every NaN result canonical). */
static inline float sg_flat_h2f(uint16_t h) {
    uint32_t em = (uint32_t)(h & 0x7FFFu) << 13;
    uint32_t v = sg_f32_bits(sg_bits_f32(em) * 0x1p112f);
    uint32_t r = sg_pick(sg_mask((h & 0x7C00u) == 0x7C00u), 0x7F800000u | em, v);
    return sg_bits_f32(r | ((uint32_t)(h & 0x8000u) << 16));
}

/* fp32 (not a NaN) -> fp16 bits, nearest even: at least 65520 in magnitude is inf; from 2^-14
   the exponent is moved and the 13 dropped bits rounded (a carry may reach inf); below, adding
   0.5 (whose fp32 ulp is fp16's subnormal unit, 2^-24) rounds |x| to those units, which are then
   the low bits of the sum. */
static inline uint16_t sg_flat_f2h(float x) {
    uint32_t f = sg_f32_bits(x), a = f & 0x7FFFFFFFu;
    uint32_t nrm = (a - 0x38000000u + 0xFFFu + ((a >> 13) & 1u)) >> 13;
    uint32_t sub = sg_f32_bits(sg_bits_f32(a) + 0.5f) - 0x3F000000u;
    uint32_t r = sg_pick(sg_mask(a < 0x38800000u), sub, nrm);
    r = sg_pick(sg_mask(a >= 0x477FF000u), 0x7C00u, r);
    return (uint16_t)(r | ((f >> 16) & 0x8000u));
}

/* x rounded to fp16 precision, nearest even, in fp32 arithmetic: x + c - c with c = +-2^(e+13)
   from x's sign and exponent. Exact for the sums and products it is used on here, which are 0,
   +-inf, or at least 2^-10 in magnitude (never an fp16 subnormal) and never round past 65504
   (the AVX2 kernels' sg256_round_f16_sum, whose comment has the argument). */
static inline float sg_flat_round_f16(float x) {
    float c = sg_bits_f32((sg_f32_bits(x) & 0xFF800000u) + (13u << 23));
    return (x + c) - c;
}

/* sg_ref_f16 without branches. t = o + SA is rounded by sg_flat_round_f16 (garbage where o >= 0
   or NaN, discarded); g * t and g * scale are exact in fp32 and rounded once, by the conversion. */
void sg_f16_selugrad__scalar(size_t n, const void *g, const void *o, void *y) {
    const uint16_t *gp = (const uint16_t *)g, *op = (const uint16_t *)o;
    uint16_t *yp = (uint16_t *)y;
    const float scale = sg_half_to_float(SG_F16_SCALE_BITS);
    const float sa = sg_half_to_float(SG_F16_SA_BITS);
    for (size_t i = 0; i < n; i++) {
        float gf = sg_flat_h2f(gp[i]), of = sg_flat_h2f(op[i]);
        float t = sg_flat_round_f16(of + sa);
        uint32_t r = sg_flat_choose(of, gf * t, gf * scale);
        yp[i] = (uint16_t)sg_pick(sg_flat_nan(r), SG_F16_QNAN_BITS, sg_flat_f2h(sg_bits_f32(r)));
    }
}

/* sg_ref_small_int without branches: g and o are integers (exact in fp16), so t and the chosen
   product (exact in fp32; rounding commutes with the choice, so only the chosen one is rounded)
   are rounded by sg_flat_round_f16 (the products are 0 or at least 2^-10 and below 2^14); then
   nearest even to an integer by adding and subtracting 1.5 * 2^23 (the default rounding mode, which
   the library's entry points enforce) and the clamp to [lo, hi]. */
static inline float sg_flat_small_int(float g, float o, float lo, float hi) {
    const float scale = sg_half_to_float(SG_F16_SCALE_BITS);
    const float sa = sg_half_to_float(SG_F16_SA_BITS);
    float t = sg_flat_round_f16(o + sa);
    float r = sg_flat_round_f16(sg_bits_f32(sg_flat_choose(o, g * t, g * scale)));
    r = (r + 12582912.0f) - 12582912.0f;
    r = r < lo ? lo : r;
    return r > hi ? hi : r;
}

void sg_s8_selugrad__scalar(size_t n, const void *g, const void *o, void *y) {
    const int8_t *gp = (const int8_t *)g, *op = (const int8_t *)o;
    int8_t *yp = (int8_t *)y;
    for (size_t i = 0; i < n; i++)
        yp[i] = (int8_t)sg_flat_small_int((float)gp[i], (float)op[i], -128.0f, 127.0f);
}

void sg_u8_selugrad__scalar(size_t n, const void *g, const void *o, void *y) {
    const uint8_t *gp = (const uint8_t *)g, *op = (const uint8_t *)o;
    uint8_t *yp = (uint8_t *)y;
    for (size_t i = 0; i < n; i++)
        yp[i] = (uint8_t)sg_flat_small_int((float)gp[i], (float)op[i], 0.0f, 255.0f);
}
