/*
 * int8 SELU forward, AVX-512BW (selu_scalar.c's form, exact): x > 0 gives (x * 269) >> 8 (16-bit
 * lanes: at most 34163, so unsigned), wrapped by keeping its low byte; x < 0 gives -1 (0xFF);
 * 0 gives 0. 64 lanes per step; tail: one masked step.
 */
#include "selu_avx512.h"

static inline __m256i sg_s8_half(__m256i x8) {
    __m512i x = _mm512_cvtepi8_epi16(x8);
    __m512i pos = _mm512_max_epi16(x, _mm512_setzero_si512());
    __m512i v = _mm512_srli_epi16(_mm512_mullo_epi16(pos, _mm512_set1_epi16(269)), 8);
    v = _mm512_or_si512(v, _mm512_srai_epi16(x, 15)); /* x < 0: all ones */
    return _mm512_cvtepi16_epi8(v);                   /* the low byte: the wrap to int8 */
}

static inline __m512i sg_s8_vec(__m512i x) {
    __m256i lo = sg_s8_half(_mm512_castsi512_si256(x));
    __m256i hi = sg_s8_half(_mm512_extracti64x4_epi64(x, 1));
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

static inline void sg_s8_masked(size_t m, const void *xv, void *yv) {
    const int8_t *x = (const int8_t *)xv;
    int8_t *y = (int8_t *)yv;
    __mmask64 k = m >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << m) - 1);
    _mm512_mask_storeu_epi8(y, k, sg_s8_vec(_mm512_maskz_loadu_epi8(k, x)));
}

static inline void sg_s8_step(const void *xv, void *yv, int stream) {
    const int8_t *x = (const int8_t *)xv;
    int8_t *y = (int8_t *)yv;
    __m512i r = sg_s8_vec(_mm512_loadu_si512(x));
    if (stream)
        _mm512_stream_si512((void *)y, r);
    else
        _mm512_storeu_si512(y, r);
}

void sg_s8_selu__avx512(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(int8_t), 64, sg_s8_step, sg_s8_masked);
}
