/*
 * uint8 SeluGrad, AVX-512F/BW/VL: see small_int_avx512.h. o is never negative, so the result is
 * round16(g * scale) (exact product, fp16 rounding in fp32 arithmetic: the value is below 2^9),
 * then RNE and unsigned saturation (VPMOVUSDB); g >= 0 makes every value non-negative (+0 for
 * g = 0). o is unused, so the compiler drops its load: 2 streams instead of 3.
 */
#include "small_int_avx512.h"

static inline __m512i sg_u8_math(__m512 g, __m512 o) {
    const __m512 scale = _mm512_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    (void)o; /* o >= 0: always the scale branch */
    return _mm512_cvt_roundps_epi32(sg512_round_f16_arith(_mm512_mul_ps(g, scale)), SG512_RNE);
}

SG_SMALL_INT_KERNEL(sg_u8_selugrad__avx512, uint8_t, _mm512_cvtepu8_epi32, sg_u8_math,
                    _mm512_cvtusepi32_epi8)
