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

/* STORAGE: empty or static; WIDEN: __m128i of 16 bytes -> __m512i of int32; STEP: (g, o) as
   fp32 -> int32 result; NARROW: __m512i -> __m128i with saturation. */
#define SG_SMALL_INT_KERNEL(STORAGE, name, T, WIDEN, STEP, NARROW)                                 \
    static inline __m128i sg_##name##_step(__m128i gb, __m128i ob) {                               \
        __m512 g = _mm512_cvtepi32_ps(WIDEN(gb)), o = _mm512_cvtepi32_ps(WIDEN(ob));               \
        return NARROW(STEP(g, o));                                                                 \
    }                                                                                              \
    STORAGE void name(size_t n, const void *gv, const void *ov, void *yv) {                        \
        const T *g = (const T *)gv, *o = (const T *)ov;                                            \
        T *y = (T *)yv;                                                                            \
        size_t i = 0;                                                                              \
        for (; i + 64 <= n; i += 64) {                                                             \
            for (size_t j = 0; j < 64; j += 16) {                                                  \
                __m128i r = sg_##name##_step(_mm_loadu_si128((const __m128i *)(g + i + j)),        \
                                             _mm_loadu_si128((const __m128i *)(o + i + j)));       \
                _mm_storeu_si128((__m128i *)(y + i + j), r);                                       \
            }                                                                                      \
        }                                                                                          \
        for (; i < n; i += 16) {                                                                   \
            size_t m = n - i < 16 ? n - i : 16;                                                    \
            __mmask16 k = sg512_mask16(m);                                                         \
            __m128i r =                                                                            \
                sg_##name##_step(_mm_maskz_loadu_epi8(k, g + i), _mm_maskz_loadu_epi8(k, o + i));  \
            _mm_mask_storeu_epi8(y + i, k, r);                                                     \
        }                                                                                          \
    }

#endif /* SELUGRAD_KERNELS_AVX512_SMALL_INT_AVX512_H */
