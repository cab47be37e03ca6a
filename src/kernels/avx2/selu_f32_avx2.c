/*
 * float32 SELU forward, AVX2 + FMA, 8 lanes x 2 per step: sg256_selu_f32 (every rounding as the
 * model, the exponential's FMAs as fmaf). Tail: the scalar kernel.
 */
#include "selu_avx2.h"

static inline void sg_f32_step(const void *xv, void *yv, int stream) {
    const float *x = (const float *)xv;
    float *y = (float *)yv;
    __m256 r0 = sg256_selu_f32(_mm256_loadu_ps(x));
    __m256 r1 = sg256_selu_f32(_mm256_loadu_ps(x + 8));
    if (stream) {
        _mm256_stream_ps(y, r0);
        _mm256_stream_ps(y + 8, r1);
    } else {
        _mm256_storeu_ps(y, r0);
        _mm256_storeu_ps(y + 8, r1);
    }
}

void sg_f32_selu__avx2(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(float), 16, sg_f32_step, sg_f32_selu__scalar, 0);
}
