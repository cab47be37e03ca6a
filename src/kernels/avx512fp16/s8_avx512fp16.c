/* int8 SeluGrad, native AVX512-FP16: see small_int_avx512fp16.h (VPMOVSWB saturation). */
#include "small_int_avx512fp16.h"

SG_SMALL_INT_KERNEL(sg_s8_selugrad__avx512fp16, int8_t, _mm512_cvtepi8_epi16, _mm512_cvtsepi16_epi8)
