/*
 * int8 SELU forward, AVX2 (selu_scalar.c's form, exact): x > 0 gives (x * 269) >> 8 in 16-bit
 * lanes (at most 34163, so unsigned), wrapped by keeping its low byte; x < 0 gives -1; 0 gives 0.
 * 32 lanes per step; tail: the scalar kernel.
 */
#include "selu_avx2.h"

static inline __m128i sg_s8_half(__m128i x8) {
    __m256i x = _mm256_cvtepi8_epi16(x8);
    __m256i pos = _mm256_max_epi16(x, _mm256_setzero_si256());
    __m256i v = _mm256_srli_epi16(_mm256_mullo_epi16(pos, _mm256_set1_epi16(269)), 8);
    v = _mm256_or_si256(v, _mm256_srai_epi16(x, 15)); /* x < 0: all ones */
    v = _mm256_and_si256(v, _mm256_set1_epi16(0xFF)); /* the low byte: the wrap */
    return _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

static inline void sg_s8_step(const void *xv, void *yv, int stream) {
    const int8_t *x = (const int8_t *)xv;
    int8_t *y = (int8_t *)yv;
    __m128i lo = sg_s8_half(_mm_loadu_si128((const __m128i *)x));
    __m128i hi = sg_s8_half(_mm_loadu_si128((const __m128i *)(x + 16)));
    __m256i r = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    if (stream)
        _mm256_stream_si256((__m256i *)y, r);
    else
        _mm256_storeu_si256((__m256i *)y, r);
}

void sg_s8_selu__avx2(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(int8_t), 32, sg_s8_step, sg_s8_selu__scalar);
}
