/*
 * uint8 SeluGrad, native AVX512-FP16: see small_int_avx512fp16.h. Negative int16 values (none
 * occur for unsigned inputs) are clamped to 0 before the unsigned saturating narrow.
 */
#include "small_int_avx512fp16.h"

static inline __m256i sg_u8_narrow(__m512i q) {
    return _mm512_cvtusepi16_epi8(_mm512_max_epi16(q, _mm512_setzero_si512()));
}

SG_SMALL_INT_KERNEL(sg_u8_selugrad__avx512fp16, uint8_t, _mm512_cvtepu8_epi16, sg_u8_narrow)
