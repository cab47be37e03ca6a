/*
 * bfloat16 SELU forward, aarch64 Advanced SIMD: widened exactly (the bits shifted up),
 * sg_neon_selu_f32, then rounded to bf16 with ties away from zero (sg_neon_bf16_away); 8 lanes
 * per step, the scalar kernel for the last 0..7.
 */
#include "selu_neon.h"

void sg_bf16_selu__neon(size_t n, const void *xv, void *yv) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint16x8_t b = vld1q_u16(x + i);
        float32x4_t lo = vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(b), 16));
        float32x4_t hi = vreinterpretq_f32_u32(vshll_n_u16(vget_high_u16(b), 16));
        vst1q_u16(y + i, vcombine_u16(sg_neon_bf16_away(sg_neon_selu_f32(lo)),
                                      sg_neon_bf16_away(sg_neon_selu_f32(hi))));
    }
    if (i < n) sg_bf16_selu__scalar(n - i, x + i, y + i);
}
