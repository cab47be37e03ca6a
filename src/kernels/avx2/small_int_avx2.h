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

/* The 8 bytes at p, int8 (sgn) or uint8, widened exactly to fp32. */
static inline __m256 sg256_widen8(const void *p, int sgn) {
    __m128i b = _mm_loadl_epi64((const __m128i *)p);
    return _mm256_cvtepi32_ps(sgn ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b));
}

/* math(g, o): 8 lanes of g and o as fp32 -> int32 results. */
typedef __m256i (*sg256_small_math_fn)(__m256 g, __m256 o);

/* The 16 results at g and o: math on each 8, then saturating packs to int8 (sgn) or uint8. */
SG_ALWAYS_INLINE __m128i sg256_small_int_step(const void *g, const void *o, int sgn,
                                              sg256_small_math_fn math) {
    const char *gb = (const char *)g, *ob = (const char *)o;
    __m256 g0 = sg256_widen8(gb, sgn), o0 = sg256_widen8(ob, sgn);
    __m256 g1 = sg256_widen8(gb + 8, sgn), o1 = sg256_widen8(ob + 8, sgn);
    __m256i q0 = math(g0, o0), q1 = math(g1, o1);
    __m128i w0 = _mm_packs_epi32(_mm256_castsi256_si128(q0), _mm256_extracti128_si256(q0, 1));
    __m128i w1 = _mm_packs_epi32(_mm256_castsi256_si128(q1), _mm256_extracti128_si256(q1, 1));
    return sgn ? _mm_packs_epi16(w0, w1) : _mm_packus_epi16(w0, w1);
}

/* The loop of s8_avx2.c and u8_avx2.c: 16 elements per step, rest (the reference) for the
   last 0..15. */
SG_ALWAYS_INLINE void sg256_small_int_loop(const void *g, const void *o, void *y, size_t n, int sgn,
                                           sg256_small_math_fn math, sg256_rest_fn rest) {
    const char *gb = (const char *)g, *ob = (const char *)o;
    char *yb = (char *)y;
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(yb + i), sg256_small_int_step(gb + i, ob + i, sgn, math));
    rest(gb + i, ob + i, yb + i, n - i);
}

#endif /* SELUGRAD_KERNELS_AVX2_SMALL_INT_AVX2_H */
