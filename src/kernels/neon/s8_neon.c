/*
 * int8 SeluGrad, aarch64 Advanced SIMD (baseline ARMv8-A).
 * Steps: 16 elements (one int8x16_t, four float32x4_t) per iteration, then the scalar model
 * (sg_ref_s8) for the last 0..15 elements.
 * Roundings: g and o widen to fp32 exactly (every int8 is an fp16 value). The float16 row then
 * runs as in f16_neon.c: g*scale, o+SA, g*t each an fp32 FMUL / FADD rounded to fp16 by FCVTN.
 * The fp16 result (finite: |g*t| < 2^15) is rounded half-to-even to an integer by FCVTNS
 * (vcvtnq_s32_f32, independent of FPCR's mode) and saturated to [-128, 127] by SQXTN twice.
 * In place: each block loads g and o before it stores y.
 */
#include "neon_math.h"
#include "../kernel.h"

static inline int32x4_t sg_s8_quarter(int16x4_t g, int16x4_t o) {
    float32x4_t gf = vcvtq_f32_s32(vmovl_s16(g));
    float32x4_t of = vcvtq_f32_s32(vmovl_s16(o));
    return vcvtnq_s32_f32(sg_neon_f16_math(gf, of));
}

static inline int16x8_t sg_s8_half(int8x8_t g, int8x8_t o) {
    int16x8_t gw = vmovl_s8(g);
    int16x8_t ow = vmovl_s8(o);
    int32x4_t lo = sg_s8_quarter(vget_low_s16(gw), vget_low_s16(ow));
    int32x4_t hi = sg_s8_quarter(vget_high_s16(gw), vget_high_s16(ow));
    return vcombine_s16(vqmovn_s32(lo), vqmovn_s32(hi));
}

void sg_s8_selugrad__neon(size_t n, const void *g, const void *o, void *y) {
    const int8_t *gp = (const int8_t *)g;
    const int8_t *op = (const int8_t *)o;
    int8_t *yp = (int8_t *)y;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        int8x16_t gv = vld1q_s8(gp + i);
        int8x16_t ov = vld1q_s8(op + i);
        int16x8_t lo = sg_s8_half(vget_low_s8(gv), vget_low_s8(ov));
        int16x8_t hi = sg_s8_half(vget_high_s8(gv), vget_high_s8(ov));
        vst1q_s8(yp + i, vcombine_s8(vqmovn_s16(lo), vqmovn_s16(hi)));
    }
    for (; i < n; i++) yp[i] = sg_ref_s8(gp[i], op[i]);
}
