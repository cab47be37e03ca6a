/*
 * uint8 SeluGrad, AVX2 + F16C: see small_int_avx2.h. The int16 -> uint8 pack saturates negative
 * values (none occur for unsigned inputs) to 0.
 */
#include "small_int_avx2.h"

SG_SMALL_INT_KERNEL(sg_u8_selugrad__avx2, uint8_t, _mm256_cvtepu8_epi32, _mm_packus_epi16,
                    sg_ref_u8)
