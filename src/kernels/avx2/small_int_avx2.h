/*
 * int8 / uint8 SeluGrad on AVX2, shared by s8_avx2.c and u8_avx2.c: the VPSHUFB tables' layout,
 * and for int8 the 16-bit fixed-point form of the float16 row (small_int_fixed.h), 32 elements
 * per step in two halves of 16 16-bit lanes. g is unpacked as g * 256, the factor K as its two
 * bytes; per half VPMULHW/VPMULLW give n and r * 256, VPSHUFB looks h up from |n| / 8 (VPABSW,
 * a shift) in the high byte of each lane, and up = (r - 128 > (n odd ? ~h : h)) is one signed
 * 16-bit compare (SG_S8_H256, small_int_fixed.h): 11 single-uop instructions per 16 elements,
 * where the fp32 form took about 34, and of them 5 on the multiply, shift and shuffle pipes that
 * Zen 3/4/5 have only two of (an unsigned saturating add of r and a parity-flipped table of
 * 127 - h takes 12, 8 of them there; docs/dispatch.md, "Per-microarchitecture choices"). VPACKSSWB
 * saturates and undoes the unpack order. Large calls run in sub-streams (sg256_stream_loop,
 * sg_avx2.h: int8 with plain stores, uint8 streaming them); the rest runs the reference element
 * by element.
 */
#ifndef SELUGRAD_KERNELS_AVX2_SMALL_INT_AVX2_H
#define SELUGRAD_KERNELS_AVX2_SMALL_INT_AVX2_H

#include "../small_int_fixed.h"
#include "sg_avx2.h"

/* The 32 bytes of a VPSHUFB table: M(0) .. M(15) in each 128-bit lane. */
#define SG_ADJ16(M)                                                                                \
    M(0), M(1), M(2), M(3), M(4), M(5), M(6), M(7), M(8), M(9), M(10), M(11), M(12), M(13), M(14), \
        M(15)
#define SG_ADJ32(M) SG_ADJ16(M), SG_ADJ16(M)

/* The 16 int8 results of one half (int16, not saturated): g8 = g * 256, k = K; tab: the 16 h
   bytes (SG_S8_H256) in both 128-bit lanes. VPSHUFB reads the index, floor(|n|) / 8, from the
   lane's high byte (a byte with bit 7 set gives 0: only for |x| >= 128, which saturates); up is
   the signed compare of (r - 128) * 256 with t * 256 + (any low byte), which is r - 128 > t. */
SG_ALWAYS_INLINE __m256i sg256_fixed_half(__m256i g8, __m256i k, __m256i tab) {
    const __m256i one = _mm256_set1_epi16(1);
    __m256i n = _mm256_mulhi_epi16(g8, k);
    __m256i rr = _mm256_mullo_epi16(g8, k); /* r * 256 */
    __m256i h = _mm256_shuffle_epi8(tab, _mm256_slli_epi16(_mm256_abs_epi16(n), 5));
    __m256i odd = _mm256_cmpeq_epi16(_mm256_and_si256(n, one), one); /* -1 where n is odd */
    __m256i up = _mm256_cmpgt_epi16(_mm256_xor_si256(rr, _mm256_set1_epi16((short)0x8000)),
                                    _mm256_xor_si256(h, odd));
    return _mm256_sub_epi16(n, up); /* up is -1 where y = n + 1 */
}

#endif /* SELUGRAD_KERNELS_AVX2_SMALL_INT_AVX2_H */
