/* int8 SeluGrad, AVX2 + F16C: see small_int_avx2.h (fp16 row, RNE, signed saturating packs). */
#include "small_int_avx2.h"

SG_SMALL_INT_KERNEL(sg_s8_selugrad__avx2, int8_t, _mm256_cvtepi8_epi32, sg_small_int_step,
                    _mm_packs_epi16, sg_ref_s8)
