/*
 * float32 SELU forward, aarch64 Advanced SIMD: sg_neon_selu_f32, 4 lanes x 4 per step, then 4,
 * then the scalar kernel for the last 0..3 elements. In place: each block loads x before it
 * stores y.
 */
#include "selu_neon.h"

void sg_f32_selu__neon(size_t n, const void *xv, void *yv) {
    const float *x = (const float *)xv;
    float *y = (float *)yv;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        float32x4_t r[4];
        for (int j = 0; j < 4; j++) r[j] = sg_neon_selu_f32(vld1q_f32(x + i + 4 * j));
        for (int j = 0; j < 4; j++) vst1q_f32(y + i + 4 * j, r[j]);
    }
    for (; i + 4 <= n; i += 4) vst1q_f32(y + i, sg_neon_selu_f32(vld1q_f32(x + i)));
    if (i < n) sg_f32_selu__scalar(n - i, x + i, y + i);
}
