/*
 * int32 SELU forward, aarch64 Advanced SIMD (selu_scalar.c's form): x < 0 gives -1; else
 * fp32(x) * S (one rounding) converted by FCVTZS, which truncates and saturates at INT32_MAX.
 * 4 lanes per step, the scalar kernel for the last 0..3.
 */
#include "selu_neon.h"

void sg_s32_selu__neon(size_t n, const void *xv, void *yv) {
    const int32_t *x = (const int32_t *)xv;
    int32_t *y = (int32_t *)yv;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        int32x4_t v = vld1q_s32(x + i);
        float32x4_t r = vmulq_f32(vcvtq_f32_s32(vmaxq_s32(v, vdupq_n_s32(0))),
                                  sg_neon_selu_bits(SG_F32_SCALE_BITS));
        vst1q_s32(y + i, vorrq_s32(vcvtq_s32_f32(r), vshrq_n_s32(v, 31)));
    }
    if (i < n) sg_s32_selu__scalar(n - i, x + i, y + i);
}
