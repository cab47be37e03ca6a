/*
 * int32 SELU forward, AVX-512F (selu_scalar.c's form): x < 0 gives -1; else fp32(x) * S (one
 * rounding), truncated, and INT32_MAX where the product is 2^31 or more (VCVTTPS2DQ would give
 * 0x80000000). No exponential is needed: every x < 0 gives -1 whatever it returns. 16 lanes x 2
 * per step; tail: masked steps.
 */
#include "selu_avx512.h"

static inline __m512i sg_s32_vec(__m512i x) {
    __m512 r = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_max_epi32(x, _mm512_setzero_si512())),
                             _mm512_castsi512_ps(_mm512_set1_epi32((int)SG_F32_SCALE_BITS)));
    __m512i v = _mm512_cvttps_epi32(r);
    v = _mm512_mask_mov_epi32(v, _mm512_cmp_ps_mask(r, _mm512_set1_ps(2147483648.0f), _CMP_GE_OQ),
                              _mm512_set1_epi32(INT32_MAX));
    return _mm512_or_si512(v, _mm512_srai_epi32(x, 31)); /* x < 0: all ones, -1 */
}

static inline void sg_s32_masked(size_t m, const void *xv, void *yv) {
    const int32_t *x = (const int32_t *)xv;
    int32_t *y = (int32_t *)yv;
    for (size_t j = 0; j < m; j += 16) {
        __mmask16 k = m - j >= 16 ? (__mmask16)0xFFFF : sg512_selu_mask16(m - j);
        _mm512_mask_storeu_epi32(y + j, k, sg_s32_vec(_mm512_maskz_loadu_epi32(k, x + j)));
    }
}

static inline void sg_s32_step(const void *xv, void *yv, int stream) {
    const int32_t *x = (const int32_t *)xv;
    int32_t *y = (int32_t *)yv;
    __m512i r0 = sg_s32_vec(_mm512_loadu_si512(x));
    __m512i r1 = sg_s32_vec(_mm512_loadu_si512(x + 16));
    if (stream) {
        _mm512_stream_si512((void *)y, r0);
        _mm512_stream_si512((void *)(y + 16), r1);
    } else {
        _mm512_storeu_si512(y, r0);
        _mm512_storeu_si512(y + 16, r1);
    }
}

void sg_s32_selu__avx512(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(int32_t), 32, sg_s32_step, sg_s32_masked, 1);
}
