/*
 * The bit-exact model of docs/contract.md, "Per-dtype computation", one element at a time.
 * Every kernel variant equals these functions bit for bit; SIMD kernels use them for their tails.
 *
 * Order of roundings: a = round(g * scale); t = round(o + SA); b = round(g * t); y = o < 0 ? b : a.
 * fp16 and bf16 compute each operation in fp32 and round straight back: one fp32 operation on two
 * 16-bit values, then one rounding, is the correctly rounded 16-bit result (fp32 has more than
 * 2p+2 bits). NaN results are the canonical quiet NaN (docs/numerics.md).
 * Requires the default floating-point environment (round to nearest, no FTZ/DAZ); the library's
 * entry points enforce it (core/fpenv.h).
 */
#ifndef SELUGRAD_KERNELS_REF_SELUGRAD_REF_H
#define SELUGRAD_KERNELS_REF_SELUGRAD_REF_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "half.h"
#include "selugrad/selugrad.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "selugrad needs float arithmetic evaluated in float (FLT_EVAL_METHOD == 0)"
#endif

/* Constants of docs/contract.md, "Math", as bit patterns. */
#define SG_F32_SCALE_BITS  0x3F867D5Fu
#define SG_F32_SA_BITS     0x3FE10966u
#define SG_F16_SCALE_BITS  0x3C34u
#define SG_F16_SA_BITS     0x3F08u
#define SG_BF16_SCALE_BITS 0x3F86u
#define SG_BF16_SA_BITS    0x3FE1u

/* Canonical quiet NaNs of the results. */
#define SG_F32_QNAN_BITS  0x7FC00000u
#define SG_F16_QNAN_BITS  0x7E00u
#define SG_BF16_QNAN_BITS 0x7FC0u

static inline float sg_ref_f32(float g, float o) {
    const float scale = sg_bits_f32(SG_F32_SCALE_BITS);
    const float sa = sg_bits_f32(SG_F32_SA_BITS);
    float a = g * scale;
    float t = o + sa;
    float b = g * t;
    float r = o < 0.0f ? b : a;
    return r != r ? sg_bits_f32(SG_F32_QNAN_BITS) : r;
}

/* fp16 math on fp32-held values; returns the fp16-rounded result as a float (exact). */
static inline float sg_ref_f16_math(float g, float o) {
    const float scale = sg_half_to_float(SG_F16_SCALE_BITS);
    const float sa = sg_half_to_float(SG_F16_SA_BITS);
    if (o < 0.0f) {
        float t = sg_half_to_float(sg_float_to_half(o + sa));
        return sg_half_to_float(sg_float_to_half(g * t));
    }
    return sg_half_to_float(sg_float_to_half(g * scale));
}

static inline uint16_t sg_ref_f16(uint16_t g, uint16_t o) {
    float r = sg_ref_f16_math(sg_half_to_float(g), sg_half_to_float(o));
    return r != r ? (uint16_t)SG_F16_QNAN_BITS : sg_float_to_half(r);
}

static inline uint16_t sg_ref_bf16(uint16_t g, uint16_t o) {
    const float scale = sg_bf16_to_float(SG_BF16_SCALE_BITS);
    const float sa = sg_bf16_to_float(SG_BF16_SA_BITS);
    float gf = sg_bf16_to_float(g), of = sg_bf16_to_float(o);
    float r;
    if (of < 0.0f) {
        float t = sg_bf16_to_float(sg_float_to_bf16(of + sa));
        r = gf * t;
    } else {
        r = gf * scale;
    }
    return r != r ? (uint16_t)SG_BF16_QNAN_BITS : sg_float_to_bf16(r);
}

/* Round a finite float to the nearest integer, ties to even, independent of the rounding mode. */
static inline float sg_round_half_even(float r) {
    float fl = floorf(r);
    float d = r - fl; /* exact for |r| < 2^23, and r is then an integer anyway */
    if (d > 0.5f || (d == 0.5f && fmodf(fl, 2.0f) != 0.0f)) fl += 1.0f;
    return fl;
}

/* int8 and uint8 compute in fp16; the fp16 result is rounded half-to-even and saturated. */
static inline float sg_ref_small_int(float g, float o, float lo, float hi) {
    float r = sg_round_half_even(sg_ref_f16_math(g, o));
    return r < lo ? lo : (r > hi ? hi : r);
}

static inline int8_t sg_ref_s8(int8_t g, int8_t o) {
    return (int8_t)sg_ref_small_int((float)g, (float)o, -128.0f, 127.0f);
}

static inline uint8_t sg_ref_u8(uint8_t g, uint8_t o) {
    return (uint8_t)sg_ref_small_int((float)g, (float)o, 0.0f, 255.0f);
}

/* int32 converts to fp32 (nearest even above 2^24), computes in fp32, truncates and saturates. */
static inline int32_t sg_ref_s32(int32_t g, int32_t o) {
    float r = sg_ref_f32((float)g, (float)o); /* finite: |r| < 2^63 */
    if (r >= 2147483648.0f) return INT32_MAX;
    if (r <= -2147483648.0f) return INT32_MIN;
    return (int32_t)r;
}

#endif /* SELUGRAD_KERNELS_REF_SELUGRAD_REF_H */
