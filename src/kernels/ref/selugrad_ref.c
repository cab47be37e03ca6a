/*
 * Scalar kernels: the reference model of spec section 2 applied over contiguous arrays.
 * ISA: portable C. Tail: none (one element per step). Roundings: see selugrad_ref.h.
 */
#include "selugrad_ref.h"
#include "../kernel.h"

#define SG_SCALAR_KERNEL(tag, T, fn)                                                               \
    void sg_##tag##_selugrad__scalar(size_t n, const void *g, const void *o, void *y) {            \
        const T *gp = (const T *)g;                                                                \
        const T *op = (const T *)o;                                                                \
        T *yp = (T *)y;                                                                            \
        for (size_t i = 0; i < n; i++) yp[i] = fn(gp[i], op[i]);                                   \
    }

/* float32, int32 and bfloat16 compute both branches and choose with bit masks: the operations of
   the reference functions (each sum and product rounded once to fp32, RNE), so the same bits,
   without a branch on the sign of o. GCC 12 compiles the reference's ?: to branches, which
   random signs mispredict half the time (about 10 ns per element); these loops have no branch
   and compilers vectorize them with the target's baseline SIMD (docs/PERFORMANCE.md session
   13). Checked against the reference functions by the tests (every variant, tests/unit/
   test_kernel_variants.c) and on all 2^32 bfloat16 pairs. */

/* x where m is all-ones, y where it is zero. */
static inline uint32_t sg_pick(uint32_t m, uint32_t x, uint32_t y) {
    return (x & m) | (y & ~m);
}

/* All-ones when c is true. */
static inline uint32_t sg_mask(int c) {
    return 0u - (uint32_t)(c != 0);
}

/* The reference's fp32 result bits (sg_ref_f32: NaN made canonical). */
static inline uint32_t sg_flat_f32(float g, float o) {
    const float scale = sg_bits_f32(SG_F32_SCALE_BITS);
    const float sa = sg_bits_f32(SG_F32_SA_BITS);
    float a = g * scale;
    float b = g * (o + sa);
    uint32_t r = sg_pick(sg_mask(o < 0.0f), sg_f32_bits(b), sg_f32_bits(a));
    return sg_pick(sg_mask((r & 0x7FFFFFFFu) > 0x7F800000u), SG_F32_QNAN_BITS, r);
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
        c = c > 2147483520.0f ? 2147483520.0f : c; /* the largest float below 2^31 */
        uint32_t v =
            sg_pick(sg_mask(r >= 2147483648.0f), (uint32_t)INT32_MAX, (uint32_t)(int32_t)c);
        yp[i] = (int32_t)v;
    }
}

/* bf16 rounding of fp32 bits x that are not a NaN, ties to even, in the high half. */
static inline uint32_t sg_bf16_rne_hi(uint32_t x) {
    return x + 0x7FFFu + ((x >> 16) & 1u);
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
        uint32_t r = sg_pick(sg_mask(of < 0.0f), sg_f32_bits(gf * t), sg_f32_bits(gf * scale));
        uint32_t nan = sg_mask((r & 0x7FFFFFFFu) > 0x7F800000u);
        yp[i] = (uint16_t)(sg_pick(nan, SG_BF16_QNAN_BITS, sg_bf16_rne_hi(r) >> 16));
    }
}

SG_SCALAR_KERNEL(f16, uint16_t, sg_ref_f16)
SG_SCALAR_KERNEL(s8, int8_t, sg_ref_s8)
SG_SCALAR_KERNEL(u8, uint8_t, sg_ref_u8)
