/*
 * float16 SELU forward, AVX-512F: 16 lanes widened exactly by VCVTPH2PS, sg512_selu16_f32_fix
 * (the short exponential of selu16_exp.h; infinities made +-FLT_MAX), then rounded to fp16 with
 * ties away from zero (sg512_f16_away_finite: FLT_MAX gives inf again); two vectors per step.
 * Tail: masked steps.
 */
#include "selu_avx512.h"

static inline __m256i sg_f16_vec(__m256i h) {
    return sg512_f16_away_finite(sg512_selu16_f32_fix(_mm512_cvtph_ps(h), SG512_FIX_F16));
}

static inline void sg_f16_masked(size_t m, const void *xv, void *yv) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    for (size_t j = 0; j < m; j += 16) {
        __mmask16 k = m - j >= 16 ? (__mmask16)0xFFFF : sg512_selu_mask16(m - j);
        __m256i h = _mm256_maskz_loadu_epi16(k, x + j);
        _mm256_mask_storeu_epi16(y + j, k, sg_f16_vec(h));
    }
}

static inline void sg_f16_step(const void *xv, void *yv, int stream) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    __m256i r0 = sg_f16_vec(_mm256_loadu_si256((const __m256i *)x));
    __m256i r1 = sg_f16_vec(_mm256_loadu_si256((const __m256i *)(x + 16)));
    __m512i r = _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
    if (stream)
        _mm512_stream_si512((void *)y, r);
    else
        _mm512_storeu_si512(y, r);
}

void sg_f16_selu__avx512(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(uint16_t), 32, sg_f16_step, sg_f16_masked, 0);
}
