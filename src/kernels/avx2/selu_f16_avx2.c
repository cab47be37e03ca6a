/*
 * float16 SELU forward, AVX2 + FMA + F16C: 8 lanes widened exactly by VCVTPH2PS, sg256_selu16_f32
 * (the short exponential of selu16_exp.h), then rounded to fp16 with ties away from zero
 * (sg256_f16_away_pos); two vectors per step. Tail: the scalar kernel.
 */
#include "selu_avx2.h"

static inline __m128i sg_f16_vec(__m128i h) {
    return sg256_f16_away_pos(sg256_selu16_f32(_mm256_cvtph_ps(h), 1));
}

static inline void sg_f16_step(const void *xv, void *yv, int stream) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    __m128i r0 = sg_f16_vec(_mm_loadu_si128((const __m128i *)x));
    __m128i r1 = sg_f16_vec(_mm_loadu_si128((const __m128i *)(x + 8)));
    __m256i r = _mm256_inserti128_si256(_mm256_castsi128_si256(r0), r1, 1);
    if (stream)
        _mm256_stream_si256((__m256i *)y, r);
    else
        _mm256_storeu_si256((__m256i *)y, r);
}

void sg_f16_selu__avx2(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(uint16_t), 16, sg_f16_step, sg_f16_selu__scalar);
}
