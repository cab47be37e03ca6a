/*
 * Helpers shared by the AVX2 (+F16C) kernels. Every operation is one IEEE fp32 operation with
 * round-to-nearest-even (the library runs kernels under the default MXCSR); fp16 rounding uses
 * VCVTPS2PH with an explicit RNE immediate or, where the range allows, fp32 arithmetic
 * (sg256_round_f16_arith, sg256_round_f16_sum); bf16 rounding uses integer operations. Tails
 * run the reference functions element by element.
 */
#ifndef SELUGRAD_KERNELS_AVX2_SG_AVX2_H
#define SELUGRAD_KERNELS_AVX2_SG_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel.h"
#include "../ref/selugrad_ref.h"
#include "../x86_nt.h"

#define SG256_RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

static inline __m256 sg256_bits(uint32_t u) {
    return _mm256_castsi256_ps(_mm256_set1_epi32((int)u));
}

/* All-ones in the lanes where o < 0 (false for -0 and NaN); zero is +0.0 in every lane (from
   sg_opaque_zero where o comes from VCVTPH2PS, see kernel.h). */
static inline __m256 sg256_neg(__m256 o, __m256 zero) {
    return _mm256_cmp_ps(o, zero, _CMP_LT_OQ);
}

/* y = o < 0 ? g * t : g * scale, each product rounded once to fp32: selecting the factor first
   is the same as selecting the product, and saves a multiply. The factor is chosen with three
   single-uop bitwise operations, 1-2 % faster than VBLENDVPS in the f16 kernel on the Intel
   development machine (docs/PERFORMANCE.md session 12). */
static inline __m256 sg256_select(__m256 g, __m256 o, __m256 t, __m256 scale, __m256 zero) {
    __m256 m = sg256_neg(o, zero);
    return _mm256_mul_ps(g, _mm256_or_ps(_mm256_and_ps(m, t), _mm256_andnot_ps(m, scale)));
}

/* Any NaN becomes the canonical fp32 quiet NaN (which converts to the fp16/bf16 ones). */
static inline __m256 sg256_canon_nan(__m256 r) {
    return _mm256_blendv_ps(r, sg256_bits(SG_F32_QNAN_BITS), _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
}

/* Packed fp16 words with every NaN made the canonical 0x7E00 (SG_F16_QNAN_BITS), 16 lanes at a
   time after VCVTPS2PH, where a compare and a blend on each 8-lane fp32 half took twice the
   operations. A NaN word from VCVTPS2PH is quiet, s 11111 1xxxxxxxxx, so clearing its sign and
   its low nine bits leaves 0x7E00: one AND-NOT with the mask's 0x81FF. */
static inline __m256i sg256_canon_nan_f16(__m256i h) {
    __m256i nan = _mm256_cmpgt_epi16(_mm256_and_si256(h, _mm256_set1_epi16(0x7FFF)),
                                     _mm256_set1_epi16(0x7C00));
    return _mm256_andnot_si256(_mm256_and_si256(nan, _mm256_set1_epi16((short)0x81FF)), h);
}

/* The same rounding in fp32 arithmetic (see sg512_round_f16_arith in avx512/sg_avx512.h for why
   it is exact): x + c - c, c = +-max(2^(e+13), 2^-1). For |x| < 2^115 whose fp16 rounding does
   not overflow, and +-inf; -0 and tiny negatives come out +0. */
static inline __m256 sg256_round_f16_arith(__m256 x) {
    __m256i xb = _mm256_castps_si256(x);
    __m256i e = _mm256_and_si256(xb, _mm256_set1_epi32(0x7F800000));
    __m256i cb = _mm256_max_epi32(_mm256_add_epi32(e, _mm256_set1_epi32(13 << 23)),
                                  _mm256_set1_epi32(0x3F000000)); /* inf: wraps negative, 2^-1 */
    cb = _mm256_or_si256(cb, _mm256_and_si256(xb, _mm256_set1_epi32((int)0x80000000u)));
    __m256 c = _mm256_castsi256_ps(cb);
    return _mm256_sub_ps(_mm256_add_ps(x, c), c);
}

/* x = o + SA (o < 0 an fp16 value, or an integer of int8 made fp16) rounded to fp16, nearest
   even: x + c - c with c = +-2^(e+13) of x's own sign and exponent, whose binade has fp16's
   spacing at x. Exact for such x because it is 0, +-inf or at least 2^-10 in magnitude (o and SA
   are multiples of 2^-10 wherever they can cancel), so never an fp16 subnormal, and at most
   65504 + SA, so the rounding never overflows (for -inf, e + 13 wraps to a tiny c). Lanes with
   o >= 0 or NaN get garbage, which the select drops. Four single-uop operations where
   a VCVTPS2PH/VCVTPH2PS round trip takes two conversions of two uops each. Checked for every
   o. */
static inline __m256 sg256_round_f16_sum(__m256 x) {
    __m256i se = _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32((int)0xFF800000u));
    __m256 c = _mm256_castsi256_ps(_mm256_add_epi32(se, _mm256_set1_epi32(13 << 23)));
    return _mm256_sub_ps(_mm256_add_ps(x, c), c);
}

/* bf16 rounding of non-NaN fp32 bits, ties to even; result bits in the high half. */
static inline __m256i sg256_bf16_round_hi(__m256i x) {
    __m256i odd = _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1));
    return _mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7FFF)), odd);
}

/* x where m is all-ones, y elsewhere (16-bit masks), without VPBLENDVB. */
static inline __m256i sg256_select16(__m256i m, __m256i x, __m256i y) {
    return _mm256_xor_si256(y, _mm256_and_si256(_mm256_xor_si256(x, y), m));
}

/* The bf16 results of fp32 values re (even elements) and ro (odd elements), ties to even, packed
   in element order: the high halves p and low halves l are packed as 16-bit words, p rounds up
   where (l | (p & 1)) >= 0x8001 (unsigned: max(l', 0x8001) == l'), and NaN words (the low half of
   an fp32 NaN product is 0, so p is the NaN's high half, quiet: s 11111111 1xxxxxx) become the
   canonical 0x7FC0 by clearing their sign and low six bits. */
static inline __m256i sg256_bf16_pack_rne(__m256i re, __m256i ro) {
    __m256i p = _mm256_blend_epi16(_mm256_srli_epi32(re, 16), ro, 0xAA);
    __m256i l = _mm256_blend_epi16(re, _mm256_slli_epi32(ro, 16), 0xAA);
    l = _mm256_or_si256(l, _mm256_and_si256(p, _mm256_set1_epi16(1)));
    __m256i up = _mm256_cmpeq_epi16(_mm256_max_epu16(l, _mm256_set1_epi16((short)0x8001)), l);
    p = _mm256_sub_epi16(p, up); /* up is -1 where p rounds up */
    __m256i nan = _mm256_cmpgt_epi16(_mm256_and_si256(p, _mm256_set1_epi16(0x7FFF)),
                                     _mm256_set1_epi16(0x7F80));
    return _mm256_andnot_si256(_mm256_and_si256(nan, _mm256_set1_epi16((short)0x803F)), p);
}

#endif /* SELUGRAD_KERNELS_AVX2_SG_AVX2_H */
