/*
 * int8 SELU forward, AVX2 (selu_scalar.c's form, exact): x > 0 gives (x * 269) >> 8 wrapped to
 * int8, computed per byte as x + ((x * 13) >> 8) (269 = 256 + 13), the correction from VPMULHUW
 * by 13 * 256 on the even bytes and on the odd bytes in place; x < 0 gives -1 (0xFF); 0 gives 0.
 * 32 lanes per step; tail: the scalar kernel.
 */
#include "selu_avx2.h"

static inline __m256i sg_s8_vec(__m256i x) {
    const __m256i zero = _mm256_setzero_si256(), lo = _mm256_set1_epi16(0x00FF);
    const __m256i hi = _mm256_set1_epi16((short)0xFF00), k = _mm256_set1_epi16(13 * 256);
    __m256i pos = _mm256_max_epi8(x, zero);
    __m256i ce = _mm256_mulhi_epu16(_mm256_and_si256(pos, lo), k); /* (e * 13) >> 8, low byte */
    __m256i co = _mm256_mulhi_epu16(_mm256_and_si256(pos, hi), k); /* o * 13 */
    __m256i v = _mm256_add_epi8(pos, _mm256_or_si256(ce, _mm256_and_si256(co, hi)));
    return _mm256_or_si256(v, _mm256_cmpgt_epi8(zero, x)); /* x < 0: all ones */
}

static inline void sg_s8_step(const void *xv, void *yv, int stream) {
    __m256i r = sg_s8_vec(_mm256_loadu_si256((const __m256i *)xv));
    if (stream)
        _mm256_stream_si256((__m256i *)yv, r);
    else
        _mm256_storeu_si256((__m256i *)yv, r);
}

void sg_s8_selu__avx2(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(int8_t), 32, sg_s8_step, sg_s8_selu__scalar, 1);
}
