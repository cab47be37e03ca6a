/*
 * "What a user writes by hand": a plain for loop of the same formula per dtype, built with -O3
 * and no ISA flags (the compiler's default target), single-threaded. fp16/bf16 go through plain C
 * conversions and fp32 arithmetic with one rounding, integers through float with saturation; so
 * these loops are a speed baseline only and not bit-exact with the contract.
 */
#include <math.h>
#include <stdint.h>

#include "bench_internal.h"
#include "kernels/ref/half.h"

#define SGB_SCALE 1.0507009873554804934193349852946f
#define SGB_SA    1.7580993408473768599402175208123f

static inline float sgb_formula(float g, float o) {
    return o < 0.0f ? g * (o + SGB_SA) : g * SGB_SCALE;
}

static void sgb_loop_f32(size_t n, const void *gv, const void *ov, void *yv) {
    const float *g = gv, *o = ov;
    float *y = yv;
    for (size_t i = 0; i < n; i++) y[i] = sgb_formula(g[i], o[i]);
}

static void sgb_loop_f16(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = gv, *o = ov;
    uint16_t *y = yv;
    for (size_t i = 0; i < n; i++)
        y[i] = sg_float_to_half(sgb_formula(sg_half_to_float(g[i]), sg_half_to_float(o[i])));
}

static inline uint16_t sgb_to_bf16(float f) { /* round to nearest even; inputs are finite */
    uint32_t u = sg_f32_bits(f);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

static void sgb_loop_bf16(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = gv, *o = ov;
    uint16_t *y = yv;
    for (size_t i = 0; i < n; i++)
        y[i] = sgb_to_bf16(
            sgb_formula(sg_bits_f32((uint32_t)g[i] << 16), sg_bits_f32((uint32_t)o[i] << 16)));
}

static inline float sgb_clamp(float r, float lo, float hi) {
    return r < lo ? lo : r > hi ? hi : r;
}

static void sgb_loop_s8(size_t n, const void *gv, const void *ov, void *yv) {
    const int8_t *g = gv, *o = ov;
    int8_t *y = yv;
    for (size_t i = 0; i < n; i++)
        y[i] = (int8_t)rintf(sgb_clamp(sgb_formula(g[i], o[i]), -128.0f, 127.0f));
}

static void sgb_loop_u8(size_t n, const void *gv, const void *ov, void *yv) {
    const uint8_t *g = gv, *o = ov;
    uint8_t *y = yv;
    for (size_t i = 0; i < n; i++)
        y[i] = (uint8_t)rintf(sgb_clamp(sgb_formula(g[i], o[i]), 0.0f, 255.0f));
}

static void sgb_loop_s32(size_t n, const void *gv, const void *ov, void *yv) {
    const int32_t *g = gv, *o = ov;
    int32_t *y = yv;
    for (size_t i = 0; i < n; i++) {
        float r = sgb_formula((float)g[i], (float)o[i]);
        /* 2^31 is exact in float; anything at or beyond saturates. */
        y[i] = r >= 2147483648.0f ? INT32_MAX : r < -2147483648.0f ? INT32_MIN : (int32_t)r;
    }
}

sgb_loop_fn sgb_hand_loop(selugrad_dtype dtype) {
    switch (dtype) {
    case SELUGRAD_FLOAT:
        return sgb_loop_f32;
    case SELUGRAD_FLOAT16:
        return sgb_loop_f16;
    case SELUGRAD_BF16:
        return sgb_loop_bf16;
    case SELUGRAD_INT8:
        return sgb_loop_s8;
    case SELUGRAD_UINT8:
        return sgb_loop_u8;
    case SELUGRAD_INT32:
        return sgb_loop_s32;
    }
    return NULL;
}
