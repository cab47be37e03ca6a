/*
 * float16 SeluGrad, aarch64 Advanced SIMD (baseline ARMv8-A: no FEAT_FP16 arithmetic).
 * Steps: 16 elements (2 x 8 halves) per iteration, then 8, then the scalar model (sg_ref_f16)
 * for the last 0..7 elements.
 * Roundings: FCVTL widens g and o to fp32 (exact). Each of g*scale, o+SA, g*t is one fp32
 * FMUL / FADD rounded straight to fp16 by FCVTN (nearest even, subnormals kept, overflow to
 * inf) and widened back; one fp32 operation on fp16 values then one rounding is the correctly
 * rounded fp16 result. NaN lanes become 0x7FC00000, which FCVTN narrows to 0x7E00; the final
 * FCVTN of the other lanes is exact.
 * In place: each block loads g and o before it stores y.
 */
#include "neon_math.h"
#include "../kernel.h"

static inline float16x4_t sg_f16_half(float32x4_t g, float32x4_t o) {
    return vcvt_f16_f32(sg_neon_canon_nan(sg_neon_f16_math(g, o)));
}

static inline uint16x8_t sg_f16_block(const uint16_t *g, const uint16_t *o) {
    float16x8_t gh = vreinterpretq_f16_u16(vld1q_u16(g));
    float16x8_t oh = vreinterpretq_f16_u16(vld1q_u16(o));
    float16x4_t lo = sg_f16_half(vcvt_f32_f16(vget_low_f16(gh)), vcvt_f32_f16(vget_low_f16(oh)));
    float16x4_t hi = sg_f16_half(vcvt_high_f32_f16(gh), vcvt_high_f32_f16(oh));
    return vreinterpretq_u16_f16(vcombine_f16(lo, hi));
}

void sg_f16_selugrad__neon(size_t n, const void *g, const void *o, void *y) {
    const uint16_t *gp = (const uint16_t *)g;
    const uint16_t *op = (const uint16_t *)o;
    uint16_t *yp = (uint16_t *)y;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint16x8_t r0 = sg_f16_block(gp + i, op + i);
        uint16x8_t r1 = sg_f16_block(gp + i + 8, op + i + 8);
        vst1q_u16(yp + i, r0);
        vst1q_u16(yp + i + 8, r1);
    }
    for (; i + 8 <= n; i += 8) vst1q_u16(yp + i, sg_f16_block(gp + i, op + i));
    for (; i < n; i++) yp[i] = sg_ref_f16(gp[i], op[i]);
}
