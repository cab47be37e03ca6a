/*
 * int8 / uint8 SeluGrad on AVX-512F/BW, shared by s8_avx512.c and u8_avx512.c: the 16-bit
 * fixed-point form of the float16 row (small_int_fixed.h), 64 elements per step in two halves of
 * 32 16-bit lanes. g is unpacked as g * 256 (the byte in the high half), the factor K as its two
 * bytes; per half VPMULHW/VPMULLW give n and r * 256, one VPERMI2W looks the threshold up from
 * n's bits and one unsigned compare adds up: 8 instructions per 32 elements, none of them
 * multi-uop on Zen 4 or Zen 5, where the fp32 form took about 16 per 16 elements with a
 * VCVTPS2PH/VCVTPH2PS round trip. VPACKSSWB / VPACKUSWB saturate and undo the unpack order.
 * Large calls stream their stores (sg512_stream_loop, x86_nt.h); tail and peel: the same step
 * with masked loads and stores.
 */
#ifndef SELUGRAD_KERNELS_AVX512_SMALL_INT_AVX512_H
#define SELUGRAD_KERNELS_AVX512_SMALL_INT_AVX512_H

#include "../small_int_fixed.h"
#include "sg_avx512.h"

/* The 64 entries M(0) .. M(63) of a VPERMI2W threshold table (two 32-word registers). */
#define SG_THR8(M, b) M(b), M(b + 1), M(b + 2), M(b + 3), M(b + 4), M(b + 5), M(b + 6), M(b + 7)
#define SG_THR64(M)                                                                                \
    SG_THR8(M, 0), SG_THR8(M, 8), SG_THR8(M, 16), SG_THR8(M, 24), SG_THR8(M, 32), SG_THR8(M, 40),  \
        SG_THR8(M, 48), SG_THR8(M, 56)

/* The 32 results of one half (int16, not saturated): g8 = g * 256, k = K (sgn: int8, signed
   product and arithmetic shift; else uint8), t0 and t1 the 64-word threshold table. */
SG_ALWAYS_INLINE __m512i sg512_fixed_half(__m512i g8, __m512i k, int sgn, __m512i t0, __m512i t1) {
    __m512i n = sgn ? _mm512_mulhi_epi16(g8, k) : _mm512_mulhi_epu16(g8, k);
    __m512i rr = _mm512_mullo_epi16(g8, k); /* r * 256 */
    __m512i idx = _mm512_xor_si512(sgn ? _mm512_srai_epi16(n, 3) : _mm512_srli_epi16(n, 3),
                                   _mm512_slli_epi16(n, 5));
    __m512i thr = _mm512_permutex2var_epi16(t0, idx, t1);
    return _mm512_mask_add_epi16(n, _mm512_cmpge_epu16_mask(rr, thr), n, _mm512_set1_epi16(1));
}

/* Results for m < 64 elements by a masked step (step: the kernel's 64-byte step). */
SG_ALWAYS_INLINE void sg512_fixed_masked(const void *g, const void *o, void *y, size_t m,
                                         const void *ctx, sg512_step_fn step) {
    __mmask64 k = (__mmask64)((1ull << m) - 1u);
    __m512i r = step(_mm512_maskz_loadu_epi8(k, g), _mm512_maskz_loadu_epi8(k, o), ctx);
    _mm512_mask_storeu_epi8(y, k, r);
}

#endif /* SELUGRAD_KERNELS_AVX512_SMALL_INT_AVX512_H */
