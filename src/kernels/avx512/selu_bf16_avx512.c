/*
 * bfloat16 SELU forward, AVX-512F/BW: 16 lanes widened exactly (the bits shifted up),
 * sg512_selu_f32, then rounded to bf16 with ties away from zero (sg512_bf16_away); two vectors
 * per step. Tail: masked steps.
 */
#include "selu_avx512.h"

static inline __m256i sg_bf16_vec(__m256i b) {
    __m512 x = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(b), 16));
    return sg512_bf16_away(sg512_selu_f32(x));
}

static inline void sg_bf16_masked(size_t m, const void *xv, void *yv) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    for (size_t j = 0; j < m; j += 16) {
        __mmask16 k = m - j >= 16 ? (__mmask16)0xFFFF : sg512_selu_mask16(m - j);
        __m256i b = _mm256_maskz_loadu_epi16(k, x + j);
        _mm256_mask_storeu_epi16(y + j, k, sg_bf16_vec(b));
    }
}

static inline void sg_bf16_step(const void *xv, void *yv, int stream) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    __m256i r0 = sg_bf16_vec(_mm256_loadu_si256((const __m256i *)x));
    __m256i r1 = sg_bf16_vec(_mm256_loadu_si256((const __m256i *)(x + 16)));
    __m512i r = _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
    if (stream)
        _mm512_stream_si512((void *)y, r);
    else
        _mm512_storeu_si512(y, r);
}

void sg_bf16_selu__avx512(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(uint16_t), 32, sg_bf16_step, sg_bf16_masked);
}
