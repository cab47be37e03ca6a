/*
 * int8 SELU forward, AVX-512BW (selu_scalar.c's form, exact): x > 0 gives (x * 269) >> 8 wrapped
 * to int8, computed per byte as x + ((x * 13) >> 8) (269 = 256 + 13), the correction from
 * VPMULHUW by 13 * 256 on the even bytes and on the odd bytes in place; x < 0 gives -1 (0xFF);
 * 0 gives 0. 64 lanes per step; tail: one masked step.
 */
#include "selu_avx512.h"

static inline __m512i sg_s8_vec(__m512i x) {
    const __m512i lo = _mm512_set1_epi16(0x00FF), hi = _mm512_set1_epi16((short)0xFF00);
    const __m512i k = _mm512_set1_epi16(13 * 256);
    __m512i pos = _mm512_max_epi8(x, _mm512_setzero_si512());
    __m512i ce = _mm512_mulhi_epu16(_mm512_and_si512(pos, lo), k); /* (e * 13) >> 8, low byte */
    __m512i co = _mm512_mulhi_epu16(_mm512_and_si512(pos, hi), k); /* o * 13 */
    __m512i corr = _mm512_ternarylogic_epi32(ce, co, hi, 0xF8);    /* ce | (co & 0xFF00) */
    __m512i v = _mm512_add_epi8(pos, corr);
    return _mm512_mask_mov_epi8(v, _mm512_movepi8_mask(x), _mm512_set1_epi8(-1));
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
    sg_selu_loop(x, y, n, sizeof(int8_t), 64, sg_s8_step, sg_s8_masked, 1);
}
