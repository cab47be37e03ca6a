/*
 * bfloat16 SELU forward, AVX2 + FMA: 16 elements per step, widened exactly by interleaving them
 * with zero words (VPUNPCKLWD / VPUNPCKHWD: each bf16 becomes the high half of an fp32 lane),
 * sg256_selu16_f32 (the short exponential of selu16_exp.h) on the two halves, rounded to bf16 with
 * ties away from zero (sg256_bf16_away) and packed back by VPACKUSDW, which undoes the interleave's
 * order within each 128-bit lane. Tail: the scalar kernel.
 */
#include "selu_avx2.h"

static inline void sg_bf16_step(const void *xv, void *yv, int stream) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i b = _mm256_loadu_si256((const __m256i *)xv);
    __m256 lo = _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, b));
    __m256 hi = _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, b));
    /* values below 2^16: the unsigned pack keeps them */
    __m256i r = _mm256_packus_epi32(sg256_bf16_away(sg256_selu16_f32(lo, 0)),
                                    sg256_bf16_away(sg256_selu16_f32(hi, 0)));
    if (stream)
        _mm256_stream_si256((__m256i *)yv, r);
    else
        _mm256_storeu_si256((__m256i *)yv, r);
}

void sg_bf16_selu__avx2(size_t n, const void *x, void *y) {
    sg_selu_loop(x, y, n, sizeof(uint16_t), 16, sg_bf16_step, sg_bf16_selu__scalar);
}
