/*
 * int8 / uint8 SeluGrad on AVX2 + F16C, 8 lanes per step, shared by s8_avx2.c and u8_avx2.c.
 * Inputs widen exactly to fp32. The float16 row: t = o + SA rounded to fp16, a = g * scale and
 * b = g * t exact in fp32, select, one fp16 rounding; then VCVTPS2DQ (RNE under the default
 * MXCSR: half to even) and saturating packs. Both fp16 roundings are sg256_round_f16_sum: t as in
 * the float16 kernel, and the product too, since g is an integer and t a multiple of 2^-10, so
 * the product is 0 or at least 2^-10 in magnitude (never an fp16 subnormal) and below 2^14
 * (never an overflow). uint8 (o >= 0) skips t and the select and never
 * loads o (u8_avx2.c). Tail: the reference, element by element.
 */
#ifndef SELUGRAD_KERNELS_AVX2_SMALL_INT_AVX2_H
#define SELUGRAD_KERNELS_AVX2_SMALL_INT_AVX2_H

#include "sg_avx2.h"

static inline __m256i sg_small_int_step(__m256 g, __m256 o) {
    const __m256 scale = _mm256_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m256 sa = _mm256_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m256 t = sg256_round_f16_sum(_mm256_add_ps(o, sa));
    __m256 r = sg256_round_f16_sum(sg256_select(g, o, t, scale, _mm256_setzero_ps()));
    return _mm256_cvtps_epi32(r);
}

/* WIDEN: 8 bytes in the low half of an __m128i -> 8 int32; STEP: (g, o) as fp32 -> int32;
   PACK16: two int16x8 -> bytes. */
#define SG_SMALL_INT_KERNEL(name, T, WIDEN, STEP, PACK16, REF)                                     \
    static inline __m128i sg_##name##_step(const T *g, const T *o) {                               \
        __m256 gf = _mm256_cvtepi32_ps(WIDEN(_mm_loadl_epi64((const __m128i *)g)));                \
        __m256 of = _mm256_cvtepi32_ps(WIDEN(_mm_loadl_epi64((const __m128i *)o)));                \
        __m256i q = STEP(gf, of);                                                                  \
        __m256i q1 = STEP(_mm256_cvtepi32_ps(WIDEN(_mm_loadl_epi64((const __m128i *)(g + 8)))),    \
                          _mm256_cvtepi32_ps(WIDEN(_mm_loadl_epi64((const __m128i *)(o + 8)))));   \
        __m128i w0 = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));   \
        __m128i w1 = _mm_packs_epi32(_mm256_castsi256_si128(q1), _mm256_extracti128_si256(q1, 1)); \
        return PACK16(w0, w1);                                                                     \
    }                                                                                              \
    void name(size_t n, const void *gv, const void *ov, void *yv) {                                \
        const T *g = (const T *)gv, *o = (const T *)ov;                                            \
        T *y = (T *)yv;                                                                            \
        size_t i = 0;                                                                              \
        for (; i + 16 <= n; i += 16)                                                               \
            _mm_storeu_si128((__m128i *)(y + i), sg_##name##_step(g + i, o + i));                  \
        for (; i < n; i++) y[i] = REF(g[i], o[i]);                                                 \
    }

#endif /* SELUGRAD_KERNELS_AVX2_SMALL_INT_AVX2_H */
