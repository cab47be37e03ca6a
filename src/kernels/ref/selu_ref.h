/*
 * The model of the SELU forward (docs/contract.md, "Forward per-dtype computation"), one element at
 * a time, written as the contract's steps in its order: every SIMD and scalar kernel of selu.inc
 * equals these functions bit for bit. The exponential is sg_selu_expf (selu_exp.h), the one
 * algorithm of every path.
 *
 *   float32 (float16 / bfloat16 widened exactly):
 *     m = min(x, 0); e = exp(m); t = e - 1; t = t * A; t = min(t, 0); p = max(x, 0); y = (p + t) *
 * S float16 / bfloat16: y rounded to the 16-bit type, nearest with ties away from zero int32: x ->
 * fp32 (nearest even), the float32 steps, then truncated toward zero and saturated int8: in fp16 as
 * the NPU does it, P = rtz16(max(x, 0) * fp16(S)), N = ceil(fp16(fp16(fp16(exp(min(x, 0))) - 1) *
 * fp16(S * A))), v = trunc(fp16(P + N)), wrapped to int8 (v >= 128 gives v - 256) NaN gives the
 * canonical quiet NaN of the type; -0.0 gives +0.0 (p + t = -0 + +0 is +0 in round-to-nearest;
 * docs/numerics.md). Needs the default floating-point environment.
 */
#ifndef SELUGRAD_KERNELS_REF_SELU_REF_H
#define SELUGRAD_KERNELS_REF_SELU_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "selu_exp.h"
#include "selugrad_ref.h"

/* alpha and scale in fp32 (docs/contract.md, "Forward per-dtype computation") */
#define SG_F32_ALPHA_BITS 0x3FD62D7Du
/* fp16(scale) = 1.05078125 (SG_F16_SCALE_BITS) and fp16(scale * alpha) = 1.7578125
   (SG_F16_SA_BITS) are the int8 path's constants. */

/* fp32 -> fp16 bits, nearest with ties away from zero (AscendC's CAST_ROUND); NaN gives the
   canonical quiet NaN. */
static inline uint16_t sg_f32_to_f16_away(float f) {
    uint32_t x = sg_f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7FFFFFFFu;
    if (ax > 0x7F800000u) return (uint16_t)SG_F16_QNAN_BITS;
    if (ax >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u); /* >= 65520: away gives inf */
    if (ax >= 0x38800000u) /* normal: add half an fp16 ulp to the magnitude, truncate */
        return (uint16_t)(sign | ((ax + 0x1000u - 0x38000000u) >> 13));
    uint32_t e = ax >> 23;
    if (e < 102) return sign; /* below 2^-25, under half the smallest subnormal */
    uint32_t m = (ax & 0x7FFFFFu) | 0x800000u;
    uint32_t shift = 126u - e; /* 14 .. 24 */
    return (uint16_t)(sign | ((m + (1u << (shift - 1u))) >> shift));
}

/* fp32 -> bf16 bits, nearest with ties away from zero; NaN gives the canonical quiet NaN. */
static inline uint16_t sg_f32_to_bf16_away(float f) {
    uint32_t x = sg_f32_bits(f);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)SG_BF16_QNAN_BITS;
    return (uint16_t)((x + 0x8000u) >> 16);
}

/* A finite fp32 value >= 0 rounded toward zero to fp16 precision, held in fp32. */
static inline float sg_f16_rtz_nonneg(float f) {
    uint32_t ax = sg_f32_bits(f);
    if (ax >= 0x38800000u) return sg_bits_f32(ax & ~0x1FFFu); /* normal: drop 13 bits */
    return floorf(f * 0x1p24f) * 0x1p-24f;                    /* subnormal: units of 2^-24 */
}

/* fp32 rounded to fp16 (nearest even) and back. */
static inline float sg_f16r(float f) {
    return sg_half_to_float(sg_float_to_half(f));
}

static inline float sg_selu_ref_f32(float x) {
    const float alpha = sg_bits_f32(SG_F32_ALPHA_BITS), scale = sg_bits_f32(SG_F32_SCALE_BITS);
    if (x != x) return sg_bits_f32(SG_F32_QNAN_BITS);
    float m = x < 0.0f ? x : 0.0f;
    float e = sg_selu_expf(m);
    float t = e - 1.0f;
    t = t * alpha;
    t = t < 0.0f ? t : 0.0f;
    float p = x > 0.0f ? x : 0.0f;
    return (p + t) * scale;
}

static inline uint16_t sg_selu_ref_f16(uint16_t x) {
    return sg_f32_to_f16_away(sg_selu_ref_f32(sg_half_to_float(x)));
}

static inline uint16_t sg_selu_ref_bf16(uint16_t x) {
    return sg_f32_to_bf16_away(sg_selu_ref_f32(sg_bf16_to_float(x)));
}

static inline int32_t sg_selu_ref_s32(int32_t x) {
    float r = sg_selu_ref_f32((float)x); /* finite: |r| < 2^32 */
    if (r >= 2147483648.0f) return INT32_MAX;
    if (r <= -2147483648.0f) return INT32_MIN;
    return (int32_t)r;
}

static inline int8_t sg_selu_ref_s8(int8_t x) {
    const float scale16 = sg_half_to_float(SG_F16_SCALE_BITS); /* 1.05078125 */
    const float sa16 = sg_half_to_float(SG_F16_SA_BITS);       /* 1.7578125 */
    float xf = (float)x;
    float pos = sg_f16_rtz_nonneg((xf > 0.0f ? xf : 0.0f) * scale16); /* the product is exact */
    float e = sg_f16r(sg_selu_expf(xf < 0.0f ? xf : 0.0f));
    float neg = ceilf(sg_f16r(sg_f16r(e - 1.0f) * sa16));
    float v = truncf(sg_f16r(pos + neg)); /* -1 .. 133 */
    int iv = (int)v;
    return (int8_t)(iv >= 128 ? iv - 256 : iv);
}

/* One element of dtype dt from x to y as raw bytes (any alignment); 0 for a dtype the forward
   does not have (UINT8 and unknown ones), 1 otherwise. */
static inline int sg_selu_ref_element(selugrad_dtype dt, const void *x, void *y) {
    switch (dt) {
    case SELUGRAD_FLOAT: {
        float a, r;
        memcpy(&a, x, 4);
        r = sg_selu_ref_f32(a);
        memcpy(y, &r, 4);
        return 1;
    }
    case SELUGRAD_INT32: {
        int32_t a, r;
        memcpy(&a, x, 4);
        r = sg_selu_ref_s32(a);
        memcpy(y, &r, 4);
        return 1;
    }
    case SELUGRAD_FLOAT16:
    case SELUGRAD_BF16: {
        uint16_t a, r;
        memcpy(&a, x, 2);
        r = dt == SELUGRAD_FLOAT16 ? sg_selu_ref_f16(a) : sg_selu_ref_bf16(a);
        memcpy(y, &r, 2);
        return 1;
    }
    case SELUGRAD_INT8: {
        int8_t a, r;
        memcpy(&a, x, 1);
        r = sg_selu_ref_s8(a);
        memcpy(y, &r, 1);
        return 1;
    }
    case SELUGRAD_UINT8:
        break;
    }
    return 0;
}

#endif /* SELUGRAD_KERNELS_REF_SELU_REF_H */
