/*
 * int8 SELU forward, aarch64 Advanced SIMD (selu_scalar.c's form, exact): x > 0 gives
 * (x * 269) >> 8 in 16-bit lanes (at most 34163, so unsigned), wrapped by keeping its low byte;
 * x < 0 gives -1; 0 gives 0. 16 lanes per step, the scalar kernel for the last 0..15.
 */
#include "selu_neon.h"

static inline uint8x8_t sg_s8_half(int8x8_t x8) {
    int16x8_t x = vmovl_s8(x8);
    uint16x8_t pos = vreinterpretq_u16_s16(vmaxq_s16(x, vdupq_n_s16(0)));
    uint16x8_t v = vshrq_n_u16(vmulq_u16(pos, vdupq_n_u16(269)), 8);
    v = vorrq_u16(v, vreinterpretq_u16_s16(vshrq_n_s16(x, 15))); /* x < 0: all ones */
    return vmovn_u16(v);                                         /* the low byte: the wrap */
}

void sg_s8_selu__neon(size_t n, const void *xv, void *yv) {
    const int8_t *x = (const int8_t *)xv;
    int8_t *y = (int8_t *)yv;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        int8x16_t v = vld1q_s8(x + i);
        uint8x16_t r = vcombine_u8(sg_s8_half(vget_low_s8(v)), sg_s8_half(vget_high_s8(v)));
        vst1q_s8(y + i, vreinterpretq_s8_u8(r));
    }
    if (i < n) sg_s8_selu__scalar(n - i, x + i, y + i);
}
