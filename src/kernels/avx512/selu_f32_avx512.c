/*
 * float32 SELU forward, AVX-512F, 16 lanes x 4 per step: sg512_selu_f32_n two vectors at a
 * time (every rounding as the model, the exponential's FMAs as fmaf). Four vectors per step give
 * the core more independent chains to overlap (selugrad_isa_rates, 4K elements in L1 on the Zen
 * 5 VM: with 2 vectors per step about 3% more cycles per element). Rest: one masked step per 16
 * lanes.
 */
#include "selu_avx512.h"

static inline void sg_f32_masked(size_t m, const void *xv, void *yv) {
    const float *x = (const float *)xv;
    float *y = (float *)yv;
    for (size_t j = 0; j < m; j += 16) {
        __mmask16 k = m - j >= 16 ? (__mmask16)0xFFFF : sg512_selu_mask16(m - j);
        _mm512_mask_storeu_ps(y + j, k, sg512_selu_f32(_mm512_maskz_loadu_ps(k, x + j)));
    }
}

SG_ALWAYS_INLINE void sg_f32_step(const void *xv, void *yv, int stream) {
    const float *x = (const float *)xv;
    float *y = (float *)yv;
    __m512 r[4];
    for (int j = 0; j < 4; j++) r[j] = _mm512_loadu_ps(x + 16 * j);
    sg512_selu_f32_n(r, 2);
    sg512_selu_f32_n(r + 2, 2);
    for (int j = 0; j < 4; j++) {
        if (stream)
            _mm512_stream_ps(y + 16 * j, r[j]);
        else
            _mm512_storeu_ps(y + 16 * j, r[j]);
    }
}

void sg_f32_selu__avx512(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(float), 64, sg_f32_step, sg_f32_masked, 0);
}
