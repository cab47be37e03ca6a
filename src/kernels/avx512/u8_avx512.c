/*
 * uint8 SeluGrad, AVX-512F/BW/VL: see small_int_avx512.h. Negative results (none occur for
 * unsigned inputs, but -0 rounds to 0) are clamped to 0 before the unsigned saturating narrow.
 */
#include "small_int_avx512.h"

static inline __m128i sg_u8_narrow(__m512i q) {
    return _mm512_cvtusepi32_epi8(_mm512_max_epi32(q, _mm512_setzero_si512()));
}

SG_SMALL_INT_KERNEL(sg_u8_selugrad__avx512, uint8_t, _mm512_cvtepu8_epi32, sg_u8_narrow)
