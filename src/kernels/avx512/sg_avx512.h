/*
 * Helpers shared by the AVX-512 (F/BW/VL/DQ) kernels. Every operation is one IEEE operation in
 * fp32 with round-to-nearest-even (the library runs kernels under the default MXCSR); fp16
 * rounding uses VCVTPS2PH with an explicit RNE immediate or, where the range allows, fp32
 * arithmetic (sg512_round_f16_arith); bf16 rounding uses integer operations (VCVTNEPS2BF16 would
 * flush subnormals).
 */
#ifndef SELUGRAD_KERNELS_AVX512_SG_AVX512_H
#define SELUGRAD_KERNELS_AVX512_SG_AVX512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel.h"
#include "../ref/selugrad_ref.h"
#include "../x86_nt.h"

#define SG512_RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

static inline __m512 sg512_bits(uint32_t u) {
    return _mm512_castsi512_ps(_mm512_set1_epi32((int)u));
}

/* Lanes where o < 0 (false for -0 and NaN). */
static inline __mmask16 sg512_neg(__m512 o) {
    return _mm512_cmp_ps_mask(o, _mm512_setzero_ps(), _CMP_LT_OQ);
}

/* y = o < 0 ? g * t : g * scale, each product rounded once to fp32: selecting the factor first
   is the same as selecting the product, and saves a multiply. */
static inline __m512 sg512_select(__m512 g, __m512 o, __m512 t, __m512 scale) {
    return _mm512_mul_ps(g, _mm512_mask_mov_ps(scale, sg512_neg(o), t));
}

/* Any NaN becomes the canonical fp32 quiet NaN (which also converts to the canonical fp16 and
   bf16 ones). */
static inline __m512 sg512_canon_nan(__m512 r) {
    /* One VFIXUPIMMPS instead of a compare and a masked move: the table (one nibble per input
       class: QNaN, SNaN, 0, +1, -inf, +inf, <0, >0) answers 0 (keep the first operand, the
       canonical NaN) for NaNs and 1 (r itself, unchanged) for everything else. */
    return _mm512_fixupimm_ps(sg512_bits(SG_F32_QNAN_BITS), r, _mm512_set1_epi32(0x11111100), 0);
}

/* Rounds fp32 to the nearest fp16 value (ties to even, subnormals kept), held in fp32. */
static inline __m512 sg512_round_f16(__m512 x) {
    return _mm512_cvtph_ps(_mm512_cvtps_ph(x, SG512_RNE));
}

/* The same rounding without the conversion round trip (VCVTPS2PH/VCVTPH2PS are multi-uop):
   x + c - c with c = +-2^(e+13) (x's sign, e its exponent, at least 2^-1 so that fp16 subnormals
   round to multiples of 2^-24) rounds x to 11 significant bits, RNE, in the default rounding
   mode: x + c lies in c's binade, whose fp32 ulp is x's fp16 ulp. Valid for |x| < 2^115 whose
   fp16 rounding does not overflow, and for +-inf; -0 and tiny negatives come out +0 (callers
   either cannot produce them or do not care about the sign of zero). */
static inline __m512 sg512_round_f16_arith(__m512 x) {
    __m512i xb = _mm512_castps_si512(x);
    __m512i e = _mm512_and_si512(xb, _mm512_set1_epi32(0x7F800000));
    __m512i cb = _mm512_max_epi32(_mm512_add_epi32(e, _mm512_set1_epi32(13 << 23)),
                                  _mm512_set1_epi32(0x3F000000)); /* inf: wraps negative, 2^-1 */
    /* cb | (xb & sign) */
    cb = _mm512_ternarylogic_epi32(cb, xb, _mm512_set1_epi32((int)0x80000000u), 0xF8);
    __m512 c = _mm512_castsi512_ps(cb);
    return _mm512_sub_ps(_mm512_add_ps(x, c), c);
}

/* bf16 rounding of non-NaN fp32 bits, ties to even: the result's bits are in the high half
   (the low half is garbage; callers mask or shift it away). */
static inline __m512i sg512_bf16_round_hi(__m512i x) {
    __m512i odd = _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1));
    return _mm512_add_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(0x7FFF)), odd);
}

/* Mask of the first m (< 64) lanes. */
static inline __mmask16 sg512_mask16(size_t m) {
    return (__mmask16)((1u << m) - 1u);
}
static inline __mmask32 sg512_mask32(size_t m) {
    return (__mmask32)((1ull << m) - 1u);
}

#endif /* SELUGRAD_KERNELS_AVX512_SG_AVX512_H */
