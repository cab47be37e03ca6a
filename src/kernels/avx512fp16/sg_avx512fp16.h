/*
 * Helpers shared by the AVX512-FP16 kernels: native fp16 arithmetic, 32 lanes. Each VADDPH /
 * VMULPH is one correctly rounded fp16 operation under MXCSR.RC (round to nearest even in the
 * library's default MXCSR); FP16 instructions never flush subnormals (they ignore FTZ/DAZ).
 */
#ifndef SELUGRAD_KERNELS_AVX512FP16_SG_AVX512FP16_H
#define SELUGRAD_KERNELS_AVX512FP16_SG_AVX512FP16_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel.h"
#include "../ref/selugrad_ref.h"

#define SGH_RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

static inline __m512h sgh_bits(uint16_t u) {
    return _mm512_castsi512_ph(_mm512_set1_epi16((short)u));
}

/* y = o < 0 ? round(g * round(o + SA)) : round(g * scale), all in fp16. The factor is chosen
   before the one multiply: each branch is a single rounded product of g, so selecting the
   factor gives the same bits as selecting the product (NaN payloads included). */
static inline __m512h sgh_selugrad(__m512h g, __m512h o) {
    __m512h t = _mm512_add_ph(o, sgh_bits(SG_F16_SA_BITS));
    __mmask32 neg = _mm512_cmp_ph_mask(o, _mm512_setzero_ph(), _CMP_LT_OQ);
    return _mm512_mul_ph(g, _mm512_mask_blend_ph(neg, sgh_bits(SG_F16_SCALE_BITS), t));
}

static inline __mmask32 sgh_mask32(size_t m) {
    return (__mmask32)((1ull << m) - 1u);
}

#endif /* SELUGRAD_KERNELS_AVX512FP16_SG_AVX512FP16_H */
