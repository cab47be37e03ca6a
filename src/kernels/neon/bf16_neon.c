/*
 * bfloat16 SeluGrad, aarch64 Advanced SIMD (baseline ARMv8-A: FEAT_BF16 is not assumed; all
 * bf16 rounding is integer arithmetic, independent of FPCR.FZ and of that extension).
 * Steps: 16 elements (2 x 8) per iteration, then 8, then the scalar model (sg_ref_bf16) for the
 * last 0..7 elements.
 * Roundings: widening is a 16-bit shift (exact). t = o+SA is an fp32 FADD rounded to bf16 by
 * integer arithmetic (x + 0x7FFF + lsb) >> 16; a = g*scale and b = g*t are fp32 FMULs; the
 * selected one is rounded to bf16 the same integer way on narrowing (SHRN). NaN lanes become
 * 0x7FC00000 first, which narrows to 0x7FC0. Subnormals are kept (no flushing anywhere).
 * In place: each block loads g and o before it stores y.
 */
#include "neon_math.h"
#include "../kernel.h"

static inline uint16x4_t sg_bf16_half(uint16x4_t g, uint16x4_t o) {
    float32x4_t gf = vreinterpretq_f32_u32(vshll_n_u16(g, 16));
    float32x4_t of = vreinterpretq_f32_u32(vshll_n_u16(o, 16));
    float32x4_t r = sg_neon_canon_nan(sg_neon_bf16_math(gf, of));
    return vshrn_n_u32(sg_neon_bf16_round_bits(r), 16);
}

static inline uint16x8_t sg_bf16_block(const uint16_t *g, const uint16_t *o) {
    uint16x8_t gv = vld1q_u16(g);
    uint16x8_t ov = vld1q_u16(o);
    uint16x4_t lo = sg_bf16_half(vget_low_u16(gv), vget_low_u16(ov));
    uint16x4_t hi = sg_bf16_half(vget_high_u16(gv), vget_high_u16(ov));
    return vcombine_u16(lo, hi);
}

void sg_bf16_selugrad__neon(size_t n, const void *g, const void *o, void *y) {
    const uint16_t *gp = (const uint16_t *)g;
    const uint16_t *op = (const uint16_t *)o;
    uint16_t *yp = (uint16_t *)y;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint16x8_t r0 = sg_bf16_block(gp + i, op + i);
        uint16x8_t r1 = sg_bf16_block(gp + i + 8, op + i + 8);
        vst1q_u16(yp + i, r0);
        vst1q_u16(yp + i + 8, r1);
    }
    for (; i + 8 <= n; i += 8) vst1q_u16(yp + i, sg_bf16_block(gp + i, op + i));
    for (; i < n; i++) yp[i] = sg_ref_bf16(gp[i], op[i]);
}
