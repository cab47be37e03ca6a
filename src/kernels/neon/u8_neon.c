/*
 * uint8 SeluGrad, aarch64 Advanced SIMD (baseline ARMv8-A).
 * Steps: 16 elements (one uint8x16_t, four float32x4_t) per iteration, then the scalar model
 * (sg_ref_u8) for the last 0..15 elements.
 * A uint8 o is never < 0, so the float16 row always takes branch a: y = g * scale. o is still
 * part of the interface (and of the in-place contract) but its value cannot change y.
 * Roundings: g widens to fp32 exactly; g*scale is one fp32 FMUL rounded to fp16 by FCVTN; that
 * fp16 value (0 .. 268) is rounded half-to-even by FCVTNS (vcvtnq_s32_f32) and saturated to
 * [0, 255] by SQXTN then SQXTUN.
 * In place: each block loads g before it stores y.
 */
#include "neon_math.h"
#include "../kernel.h"

static inline int32x4_t sg_u8_quarter(uint16x4_t g) {
    float32x4_t gf = vcvtq_f32_u32(vmovl_u16(g));
    float32x4_t scale = vdupq_n_f32(sg_half_to_float(SG_F16_SCALE_BITS));
    return vcvtnq_s32_f32(sg_neon_f16r(vmulq_f32(gf, scale)));
}

static inline int16x8_t sg_u8_half(uint8x8_t g) {
    uint16x8_t gw = vmovl_u8(g);
    int32x4_t lo = sg_u8_quarter(vget_low_u16(gw));
    int32x4_t hi = sg_u8_quarter(vget_high_u16(gw));
    return vcombine_s16(vqmovn_s32(lo), vqmovn_s32(hi));
}

void sg_u8_selugrad__neon(size_t n, const void *g, const void *o, void *y) {
    const uint8_t *gp = (const uint8_t *)g;
    const uint8_t *op = (const uint8_t *)o;
    uint8_t *yp = (uint8_t *)y;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint8x16_t gv = vld1q_u8(gp + i);
        int16x8_t lo = sg_u8_half(vget_low_u8(gv));
        int16x8_t hi = sg_u8_half(vget_high_u8(gv));
        vst1q_u8(yp + i, vcombine_u8(vqmovun_s16(lo), vqmovun_s16(hi)));
    }
    for (; i < n; i++) yp[i] = sg_ref_u8(gp[i], op[i]);
}
