/*
 * int8 / uint8 SeluGrad on AVX-512F/BW/VL, 16 lanes per step, shared by s8_avx512.c and
 * u8_avx512.c. Inputs widen exactly to fp32 (they are exact in fp16 too). The float16 row:
 * t = o + SA rounded to fp16, a = g * scale and b = g * t exact in fp32, select, one fp16
 * rounding; then VCVTPS2DQ with an explicit RNE rounding (half to even) and a saturating narrow
 * (VPMOVSDB / VPMOVUSDB). Integer inputs give no NaN, inf or fp16 overflow.
 * uint8 (o >= 0) skips t and the select and never loads o (u8_avx512.c).
 * Tail: one masked byte load/store step.
 */
#ifndef SELUGRAD_KERNELS_AVX512_SMALL_INT_AVX512_H
#define SELUGRAD_KERNELS_AVX512_SMALL_INT_AVX512_H

#include "sg_avx512.h"

static inline __m512i sg_small_int_step(__m512 g, __m512 o) {
    const __m512 scale = _mm512_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m512 sa = _mm512_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m512 t = sg512_round_f16_sum(_mm512_add_ps(o, sa));
    __m512 r = sg512_round_f16(sg512_select(g, o, t, scale, _mm512_setzero_ps()));
    return _mm512_cvt_roundps_epi32(r, SG512_RNE);
}

/* math(g, o): 16 lanes of g and o as fp32 -> int32 results. */
typedef __m512i (*sg512_small_math_fn)(__m512 g, __m512 o);

/* The 16 results for the bytes gb and ob, int8 (sgn) or uint8: widened exactly to fp32, math,
   then a saturating narrow (VPMOVSDB / VPMOVUSDB). */
SG_ALWAYS_INLINE __m128i sg512_small_int_step(__m128i gb, __m128i ob, int sgn,
                                              sg512_small_math_fn math) {
    __m512i gi = sgn ? _mm512_cvtepi8_epi32(gb) : _mm512_cvtepu8_epi32(gb);
    __m512i oi = sgn ? _mm512_cvtepi8_epi32(ob) : _mm512_cvtepu8_epi32(ob);
    __m512i q = math(_mm512_cvtepi32_ps(gi), _mm512_cvtepi32_ps(oi));
    return sgn ? _mm512_cvtsepi32_epi8(q) : _mm512_cvtusepi32_epi8(q);
}

/* The computing loop of s8_avx512.c and u8_avx512.c: 64 elements per iteration in steps of 16,
   then masked steps of 16 for the last 0..63. */
SG_ALWAYS_INLINE void sg512_small_int_loop(const void *g, const void *o, void *y, size_t n, int sgn,
                                           sg512_small_math_fn math) {
    const char *gb = (const char *)g, *ob = (const char *)o;
    char *yb = (char *)y;
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        for (size_t j = 0; j < 64; j += 16) {
            __m128i r =
                sg512_small_int_step(_mm_loadu_si128((const __m128i *)(gb + i + j)),
                                     _mm_loadu_si128((const __m128i *)(ob + i + j)), sgn, math);
            _mm_storeu_si128((__m128i *)(yb + i + j), r);
        }
    }
    for (; i < n; i += 16) {
        __mmask16 k = sg512_mask16(n - i < 16 ? n - i : 16);
        __m128i r = sg512_small_int_step(_mm_maskz_loadu_epi8(k, gb + i),
                                         _mm_maskz_loadu_epi8(k, ob + i), sgn, math);
        _mm_mask_storeu_epi8(yb + i, k, r);
    }
}

#endif /* SELUGRAD_KERNELS_AVX512_SMALL_INT_AVX512_H */
