/*
 * int32 SELU forward, AVX2 (selu_scalar.c's form): x < 0 gives -1; else fp32(x) * S (one
 * rounding), truncated, and INT32_MAX where the product is 2^31 or more (VCVTTPS2DQ gives
 * 0x80000000 there, the only result above INT32_MAX as unsigned: one unsigned minimum); -1 by a
 * blend on x's sign bit. 8 lanes x 2 per step; tail: the scalar kernel.
 */
#include "selu_avx2.h"

static inline __m256i sg_s32_vec(__m256i x) {
    __m256 r = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_max_epi32(x, _mm256_setzero_si256())),
                             sg256_selu_bits(SG_F32_SCALE_BITS));
    __m256i v = _mm256_min_epu32(_mm256_cvttps_epi32(r), _mm256_set1_epi32(INT32_MAX));
    /* x < 0 (its sign bit): -1 */
    return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(v),
                                                _mm256_castsi256_ps(_mm256_set1_epi32(-1)),
                                                _mm256_castsi256_ps(x)));
}

static inline void sg_s32_step(const void *xv, void *yv, int stream) {
    const int32_t *x = (const int32_t *)xv;
    int32_t *y = (int32_t *)yv;
    __m256i r0 = sg_s32_vec(_mm256_loadu_si256((const __m256i *)x));
    __m256i r1 = sg_s32_vec(_mm256_loadu_si256((const __m256i *)(x + 8)));
    if (stream) {
        _mm256_stream_si256((__m256i *)y, r0);
        _mm256_stream_si256((__m256i *)(y + 8), r1);
    } else {
        _mm256_storeu_si256((__m256i *)y, r0);
        _mm256_storeu_si256((__m256i *)(y + 8), r1);
    }
}

void sg_s32_selu__avx2(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(int32_t), 16, sg_s32_step, sg_s32_selu__scalar, 1);
}
