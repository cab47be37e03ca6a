/*
 * Helpers of the aarch64 Advanced SIMD SELU forward kernels: the exponential of
 * kernels/ref/selu_exp.h lane for lane in the kernels' form (the same IEEE operations in the same
 * order; the clamp at -20, 2^k by an integer add; FMLA, which baseline ARMv8-A has, for its
 * fmaf: unlike the SeluGrad kernels, which use no FMA), the
 * float32 step and the 16-bit roundings with ties away from zero, in integer arithmetic as the
 * scalar sg_f32_to_f16_away / sg_f32_to_bf16_away. Runs under FPCR round to nearest, FZ clear
 * (core/fpenv.h).
 */
#ifndef SELUGRAD_KERNELS_NEON_SELU_NEON_H
#define SELUGRAD_KERNELS_NEON_SELU_NEON_H

#include <arm_neon.h>

#include "../kernel.h"
#include "../ref/selu_ref.h"

static inline float32x4_t sg_neon_selu_bits(uint32_t u) {
    return vreinterpretq_f32_u32(vdupq_n_u32(u));
}

/* sg_selu_expf on 4 lanes in the kernels' form (selu_exp.h): the model's bits for x in [-20, 0],
 * under 2^-25 below -20 as the model's; for x > 0 or a NaN, exp(-20) (the caller discards it).
 * The clamp is an integer minimum (SG_EXP_KERNEL_MIN_BITS) and 2^k an integer add.
 * vfmaq_f32(c, a, b) is fmaf(a, b, c). */
static inline float32x4_t sg_neon_selu_exp(float32x4_t x) {
    const float32x4_t magic = vdupq_n_f32(SG_EXP_MAGIC);
    x = vreinterpretq_f32_s32(
        vminq_s32(vreinterpretq_s32_f32(x), vdupq_n_s32((int32_t)SG_EXP_KERNEL_MIN_BITS)));
    float32x4_t z = vfmaq_f32(magic, x, vdupq_n_f32(SG_EXP_LOG2E));
    float32x4_t kf = vsubq_f32(z, magic);
    float32x4_t r = vfmaq_f32(x, kf, vdupq_n_f32(-SG_EXP_L2U));
    r = vfmaq_f32(r, kf, vdupq_n_f32(-SG_EXP_L2L));
    float32x4_t u = vdupq_n_f32(SG_EXP_C6);
    u = vfmaq_f32(vdupq_n_f32(SG_EXP_C5), u, r);
    u = vfmaq_f32(vdupq_n_f32(SG_EXP_C4), u, r);
    u = vfmaq_f32(vdupq_n_f32(SG_EXP_C3), u, r);
    u = vfmaq_f32(vdupq_n_f32(SG_EXP_C2), u, r);
    u = vfmaq_f32(vdupq_n_f32(0.5f), u, r);
    u = vaddq_f32(vdupq_n_f32(1.0f), vfmaq_f32(r, vmulq_f32(r, r), u));
    /* u * 2^k, exact: k << 23 (z's bits shifted) added to u's bits */
    return vreinterpretq_f32_u32(
        vaddq_u32(vreinterpretq_u32_f32(u), vshlq_n_u32(vreinterpretq_u32_f32(z), 23)));
}

/* The float32 forward (selu_scalar.c's form), NaN made canonical. The select is on x's sign bit:
 * +0 keeps x, equal to its t (+0); -0 takes t (+0) as the model does. */
static inline float32x4_t sg_neon_selu_f32(float32x4_t x) {
    float32x4_t e = sg_neon_selu_exp(x);
    float32x4_t t =
        vmulq_f32(vsubq_f32(e, vdupq_n_f32(1.0f)), sg_neon_selu_bits(SG_F32_ALPHA_BITS));
    float32x4_t v = vbslq_f32(vcltzq_s32(vreinterpretq_s32_f32(x)), t, x);
    float32x4_t r = vmulq_f32(v, sg_neon_selu_bits(SG_F32_SCALE_BITS));
    return vbslq_f32(vceqq_f32(x, x), r, sg_neon_selu_bits(SG_F32_QNAN_BITS));
}

/* sg_f32_to_f16_away on 4 lanes (y's NaNs canonical): normal results add half an fp16 ulp to
   the magnitude and truncate; subnormal ones add half a unit of 2^-24 to the significand shifted
   into place (a count of 32 or more gives 0); 65520 and up give inf. */
static inline uint16x4_t sg_neon_f16_away(float32x4_t y) {
    uint32x4_t x = vreinterpretq_u32_f32(y);
    uint32x4_t ax = vandq_u32(x, vdupq_n_u32(0x7FFFFFFFu));
    uint32x4_t nrm =
        vshrq_n_u32(vsubq_u32(vaddq_u32(ax, vdupq_n_u32(0x1000u)), vdupq_n_u32(0x38000000u)), 13);
    int32x4_t shift = vsubq_s32(vdupq_n_s32(126), vreinterpretq_s32_u32(vshrq_n_u32(ax, 23)));
    shift = vminq_s32(shift, vdupq_n_s32(40));
    uint32x4_t m = vorrq_u32(vandq_u32(ax, vdupq_n_u32(0x7FFFFFu)), vdupq_n_u32(0x800000u));
    uint32x4_t half = vshlq_u32(vdupq_n_u32(1), vsubq_s32(shift, vdupq_n_s32(1)));
    uint32x4_t sub = vshlq_u32(vaddq_u32(m, half), vnegq_s32(shift));
    uint32x4_t r = vbslq_u32(vcgeq_u32(ax, vdupq_n_u32(0x38800000u)), nrm, sub);
    r = vbslq_u32(vcgeq_u32(ax, vdupq_n_u32(0x477FF000u)), vdupq_n_u32(0x7C00u), r);
    r = vbslq_u32(vcgtq_u32(ax, vdupq_n_u32(0x7F800000u)), vdupq_n_u32(SG_F16_QNAN_BITS), r);
    r = vorrq_u32(r, vandq_u32(vshrq_n_u32(x, 16), vdupq_n_u32(0x8000u)));
    return vmovn_u32(r);
}

/* sg_f32_to_bf16_away on 4 lanes (y's NaNs canonical: 0x7FC00000 gives 0x7FC0). */
static inline uint16x4_t sg_neon_bf16_away(float32x4_t y) {
    return vshrn_n_u32(vaddq_u32(vreinterpretq_u32_f32(y), vdupq_n_u32(0x8000u)), 16);
}

#endif /* SELUGRAD_KERNELS_NEON_SELU_NEON_H */
