/*
 * Shared pieces of the aarch64 Advanced SIMD (NEON) kernels: the per-dtype arithmetic of
 * docs/contract.md, "Per-dtype computation", on float32x4_t lanes. Baseline ARMv8-A only: no
 * FEAT_FP16 arithmetic, no BF16 instructions, no fused multiply-add (every product and sum is its
 * own FMUL / FADD; the build passes -ffp-contract=off and nothing here calls vfmaq / vmlaq).
 *
 * All rounding relies on FPCR = round to nearest even with FZ clear, which core/fpenv.h enforces
 * around every kernel call. FCVTN / FCVTL (vcvt_f16_f32 / vcvt_f32_f16) ignore FPCR.FZ16 (the
 * ARM ARM's FPUnpackCV / FPRoundCV), so fp16 subnormals survive the conversions.
 */
#ifndef SELUGRAD_KERNELS_NEON_NEON_MATH_H
#define SELUGRAD_KERNELS_NEON_NEON_MATH_H

#include <arm_neon.h>

#include "../ref/selugrad_ref.h"

static inline float32x4_t sg_neon_f32_const(uint32_t bits) {
    return vreinterpretq_f32_u32(vdupq_n_u32(bits));
}

/* NaN lanes become the canonical quiet NaN 0x7FC00000 (it narrows to fp16 0x7E00 and to bf16
   0x7FC0 exactly, so the 16-bit kernels canonicalize in fp32 before narrowing). */
static inline float32x4_t sg_neon_canon_nan(float32x4_t r) {
    return vbslq_f32(vceqq_f32(r, r), r, sg_neon_f32_const(SG_F32_QNAN_BITS));
}

/* float32 row: a = g*scale, t = o+SA, b = g*t, one rounding each; o < 0 picks b (false for -0
   and NaN). */
static inline float32x4_t sg_neon_f32_math(float32x4_t g, float32x4_t o) {
    float32x4_t a = vmulq_f32(g, sg_neon_f32_const(SG_F32_SCALE_BITS));
    float32x4_t t = vaddq_f32(o, sg_neon_f32_const(SG_F32_SA_BITS));
    float32x4_t b = vmulq_f32(g, t);
    return vbslq_f32(vcltzq_f32(o), b, a);
}

/* Round an fp32 value to fp16 (RNE, subnormals kept, overflow to inf) and back: exact. */
static inline float32x4_t sg_neon_f16r(float32x4_t x) {
    return vcvt_f32_f16(vcvt_f16_f32(x));
}

/* float16 row on fp16 values held in fp32: each operation in fp32, rounded straight to fp16. */
static inline float32x4_t sg_neon_f16_math(float32x4_t g, float32x4_t o) {
    float32x4_t a = sg_neon_f16r(vmulq_f32(g, vdupq_n_f32(sg_half_to_float(SG_F16_SCALE_BITS))));
    float32x4_t t = sg_neon_f16r(vaddq_f32(o, vdupq_n_f32(sg_half_to_float(SG_F16_SA_BITS))));
    float32x4_t b = sg_neon_f16r(vmulq_f32(g, t));
    return vbslq_f32(vcltzq_f32(o), b, a);
}

/* fp32 bits rounded to bf16, nearest even, in the top half: (x + 0x7FFF + ((x >> 16) & 1)).
   Integer rounding, so no BF16 extension and no subnormal flushing. Callers handle NaN lanes
   first (the add could carry a NaN into the sign bit). */
static inline uint32x4_t sg_neon_bf16_round_bits(float32x4_t x) {
    uint32x4_t u = vreinterpretq_u32_f32(x);
    uint32x4_t odd = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(1));
    return vaddq_u32(vaddq_u32(u, vdupq_n_u32(0x7FFFu)), odd);
}

/* Round to bf16 and widen back: exact. Only used on non-NaN lanes that matter. */
static inline float32x4_t sg_neon_bf16r(float32x4_t x) {
    return vreinterpretq_f32_u32(vandq_u32(sg_neon_bf16_round_bits(x), vdupq_n_u32(0xFFFF0000u)));
}

/* bfloat16 row on bf16 values held in fp32, with the model's exact steps (selugrad_ref.h):
   o + SA is rounded to bf16 here; g*scale and g*t are fp32 products (exact unless they fall
   below fp32's normal range, where the model rounds in fp32 too) that the caller narrows to
   bf16. A NaN o makes t garbage, but then o < 0 is false and a wins. */
static inline float32x4_t sg_neon_bf16_math(float32x4_t g, float32x4_t o) {
    float32x4_t a = vmulq_f32(g, vdupq_n_f32(sg_bf16_to_float(SG_BF16_SCALE_BITS)));
    float32x4_t t = sg_neon_bf16r(vaddq_f32(o, vdupq_n_f32(sg_bf16_to_float(SG_BF16_SA_BITS))));
    float32x4_t b = vmulq_f32(g, t);
    return vbslq_f32(vcltzq_f32(o), b, a);
}

#endif /* SELUGRAD_KERNELS_NEON_NEON_MATH_H */
