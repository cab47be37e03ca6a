/*
 * float16 SELU forward, aarch64 Advanced SIMD: widened exactly (FCVTL), sg_neon_selu_f32, then
 * rounded to fp16 with ties away from zero in integer arithmetic (sg_neon_f16_away); 8 lanes per
 * step, the scalar kernel for the last 0..7.
 */
#include "selu_neon.h"

void sg_f16_selu__neon(size_t n, const void *xv, void *yv) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(x + i));
        uint16x4_t lo = sg_neon_f16_away(sg_neon_selu_f32(vcvt_f32_f16(vget_low_f16(h))));
        uint16x4_t hi = sg_neon_f16_away(sg_neon_selu_f32(vcvt_f32_f16(vget_high_f16(h))));
        vst1q_u16(y + i, vcombine_u16(lo, hi));
    }
    if (i < n) sg_f16_selu__scalar(n - i, x + i, y + i);
}
