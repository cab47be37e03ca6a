/*
 * Scalar SELU forward kernels: docs/contract.md, "Forward per-dtype computation", over contiguous
 * arrays in portable C, the same bits as the model (selu_ref.h) in a shorter form that the SIMD
 * kernels share:
 *   floats: y = (x <= 0 ? (exp(min(x, 0)) - 1) * A : x) * S. The model's min(t, 0) changes
 *     nothing (t <= 0: exp of x <= 0 is at most 1) and p + t is x or t (the other is +0, and
 *     -0 + +0 is +0), so the select picks the sum's value; a NaN x fails x <= 0, stays a NaN
 *     through the product and is made canonical after.
 *   int32: x < 0 gives -1 (t * S lies in (-1.76, -1.11]); else trunc(fp32(x) * S), saturated.
 *   int8: x > 0 gives (x * 269) >> 8 wrapped (fp16(S) = 269 / 256, the product exact, the fp16
 *     grid finer than 1 below 256, so rtz then trunc is the floor); x < 0 gives -1; 0 gives 0.
 * Tail: none (one element per step). Needs the default floating-point environment (core/fpenv.h).
 */
#include "../kernel.h"
#include "selu_ref.h"

static inline float sg_selu_flat_f32(float x) {
    const float alpha = sg_bits_f32(SG_F32_ALPHA_BITS), scale = sg_bits_f32(SG_F32_SCALE_BITS);
    float t = (sg_selu_expf(x < 0.0f ? x : 0.0f) - 1.0f) * alpha;
    float r = (x <= 0.0f ? t : x) * scale;
    return r != r ? sg_bits_f32(SG_F32_QNAN_BITS) : r;
}

void sg_f32_selu__scalar(size_t n, const void *x, void *y) {
    const float *xp = (const float *)x;
    float *yp = (float *)y;
    for (size_t i = 0; i < n; i++) yp[i] = sg_selu_flat_f32(xp[i]);
}

void sg_f16_selu__scalar(size_t n, const void *x, void *y) {
    const uint16_t *xp = (const uint16_t *)x;
    uint16_t *yp = (uint16_t *)y;
    for (size_t i = 0; i < n; i++)
        yp[i] = sg_f32_to_f16_away(sg_selu_flat_f32(sg_half_to_float(xp[i])));
}

void sg_bf16_selu__scalar(size_t n, const void *x, void *y) {
    const uint16_t *xp = (const uint16_t *)x;
    uint16_t *yp = (uint16_t *)y;
    for (size_t i = 0; i < n; i++)
        yp[i] = sg_f32_to_bf16_away(sg_selu_flat_f32(sg_bf16_to_float(xp[i])));
}

void sg_s32_selu__scalar(size_t n, const void *x, void *y) {
    const int32_t *xp = (const int32_t *)x;
    int32_t *yp = (int32_t *)y;
    const float scale = sg_bits_f32(SG_F32_SCALE_BITS);
    for (size_t i = 0; i < n; i++) {
        float r = (float)(xp[i] < 0 ? 0 : xp[i]) * scale; /* in [0, 2^31 * 1.06) */
        int32_t v = r >= 2147483648.0f ? INT32_MAX : (int32_t)r;
        yp[i] = xp[i] < 0 ? -1 : v;
    }
}

void sg_s8_selu__scalar(size_t n, const void *x, void *y) {
    const int8_t *xp = (const int8_t *)x;
    int8_t *yp = (int8_t *)y;
    for (size_t i = 0; i < n; i++) {
        int v = xp[i] > 0 ? (xp[i] * 269) >> 8 : -(xp[i] < 0);
        yp[i] = (int8_t)(v >= 128 ? v - 256 : v);
    }
}
