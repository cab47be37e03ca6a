/*
 * float32 SELU forward, AVX2 + FMA, 8 lanes x 4 per step: sg256_selu_f32_n two vectors at a time
 * (every rounding as the model, the exponential's FMAs as fmaf). Four vectors per step give the
 * core more independent chains to overlap (selugrad_isa_rates, 4K elements in L1 on the Zen 5
 * VM: with 2 vectors per step about 2% more cycles per element). Rest: 8 lanes at a time, then the
 * scalar kernel for fewer than 8.
 */
#include "selu_avx2.h"

static inline void sg_f32_rest(size_t m, const void *xv, void *yv) {
    const float *x = (const float *)xv;
    float *y = (float *)yv;
    size_t i = 0;
    for (; m - i >= 8; i += 8) _mm256_storeu_ps(y + i, sg256_selu_f32(_mm256_loadu_ps(x + i)));
    if (i < m) sg_f32_selu__scalar(m - i, x + i, y + i);
}

SG_ALWAYS_INLINE void sg_f32_step(const void *xv, void *yv, int stream) {
    const float *x = (const float *)xv;
    float *y = (float *)yv;
    __m256 r[4];
    for (int j = 0; j < 4; j++) r[j] = _mm256_loadu_ps(x + 8 * j);
    sg256_selu_f32_n(r, 2);
    sg256_selu_f32_n(r + 2, 2);
    for (int j = 0; j < 4; j++) {
        if (stream)
            _mm256_stream_ps(y + 8 * j, r[j]);
        else
            _mm256_storeu_ps(y + 8 * j, r[j]);
    }
}

void sg_f32_selu__avx2(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(float), 32, sg_f32_step, sg_f32_rest, 0);
}
