/*
 * int8 / uint8 SeluGrad on native AVX512-FP16, 32 lanes per step, shared by s8_ and u8_.
 * Inputs widen to int16 and convert exactly to fp16 (VCVTW2PH, |x| <= 255); the float16 row in
 * native fp16; then VCVTPH2W with an explicit RNE rounding (half to even) and a saturating
 * narrow (VPMOVSWB / VPMOVUSWB). Integer inputs give no NaN or overflow. Tail: one masked step.
 * Untested on the development machine (no AVX512-FP16 there); the tests skip it by name.
 */
#ifndef SELUGRAD_KERNELS_AVX512FP16_SMALL_INT_AVX512FP16_H
#define SELUGRAD_KERNELS_AVX512FP16_SMALL_INT_AVX512FP16_H

#include "sg_avx512fp16.h"

/* WIDEN: __m256i of 32 bytes -> __m512i of int16; NARROW: int16 -> bytes with saturation. */
#define SG_SMALL_INT_KERNEL(name, T, WIDEN, NARROW)                                                \
    static inline __m256i sg_##name##_step(__m256i gb, __m256i ob) {                               \
        __m512h g = _mm512_cvtepi16_ph(WIDEN(gb)), o = _mm512_cvtepi16_ph(WIDEN(ob));              \
        return NARROW(_mm512_cvt_roundph_epi16(sgh_selugrad(g, o), SGH_RNE));                      \
    }                                                                                              \
    void name(size_t n, const void *gv, const void *ov, void *yv) {                                \
        const T *g = (const T *)gv, *o = (const T *)ov;                                            \
        T *y = (T *)yv;                                                                            \
        size_t i = 0;                                                                              \
        for (; i + 32 <= n; i += 32) {                                                             \
            __m256i r = sg_##name##_step(_mm256_loadu_si256((const __m256i *)(g + i)),             \
                                         _mm256_loadu_si256((const __m256i *)(o + i)));            \
            _mm256_storeu_si256((__m256i *)(y + i), r);                                            \
        }                                                                                          \
        if (i < n) {                                                                               \
            __mmask32 k = sgh_mask32(n - i);                                                       \
            __m256i r = sg_##name##_step(_mm256_maskz_loadu_epi8(k, g + i),                        \
                                         _mm256_maskz_loadu_epi8(k, o + i));                       \
            _mm256_mask_storeu_epi8(y + i, k, r);                                                  \
        }                                                                                          \
    }

#endif /* SELUGRAD_KERNELS_AVX512FP16_SMALL_INT_AVX512FP16_H */
