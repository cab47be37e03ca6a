/*
 * bfloat16 SELU forward, AVX2 + FMA: 8 lanes widened exactly (the bits shifted up),
 * sg256_selu_f32, then rounded to bf16 with ties away from zero (sg256_bf16_away) and packed;
 * two vectors per step. Tail: the scalar kernel.
 */
#include "selu_avx2.h"

static inline __m256i sg_bf16_vec(__m128i b) {
    __m256 x = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(b), 16));
    return sg256_bf16_away(sg256_selu_f32(x));
}

static inline void sg_bf16_step(const void *xv, void *yv, int stream) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    __m256i r0 = sg_bf16_vec(_mm_loadu_si128((const __m128i *)x));
    __m256i r1 = sg_bf16_vec(_mm_loadu_si128((const __m128i *)(x + 8)));
    /* values below 2^16: the unsigned pack keeps them; it works per 128-bit lane */
    __m256i r = _mm256_permute4x64_epi64(_mm256_packus_epi32(r0, r1), 0xD8);
    if (stream)
        _mm256_stream_si256((__m256i *)y, r);
    else
        _mm256_storeu_si256((__m256i *)y, r);
}

void sg_bf16_selu__avx2(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(uint16_t), 16, sg_bf16_step, sg_bf16_selu__scalar);
}
