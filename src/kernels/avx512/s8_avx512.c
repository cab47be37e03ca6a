/* int8 SeluGrad, AVX-512F/BW/VL: see small_int_avx512.h (fp16 row, RNE, VPMOVSDB saturation). */
#include "small_int_avx512.h"

SG_SMALL_INT_KERNEL(, sg_s8_selugrad__avx512, int8_t, _mm512_cvtepi8_epi32, sg_small_int_step,
                    _mm512_cvtsepi32_epi8)
