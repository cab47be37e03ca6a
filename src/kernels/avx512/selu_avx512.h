/*
 * Helpers of the AVX-512 (F/BW/VL/DQ) SELU forward kernels: the exponential of
 * kernels/ref/selu_exp.h lane for lane (the same IEEE operations in the same order, VFMADD for
 * its fmaf), the float32 step, the 16-bit roundings with ties away from zero (the loop is
 * sg_selu_loop, x86_nt.h). Runs under the default MXCSR (round to nearest, no FTZ/DAZ).
 */
#ifndef SELUGRAD_KERNELS_AVX512_SELU_AVX512_H
#define SELUGRAD_KERNELS_AVX512_SELU_AVX512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel.h"
#include "../ref/selu_ref.h"
#include "../x86_nt.h"

/* sg_selu_expf on 16 lanes. */
static inline __m512 sg512_selu_exp(__m512 x) {
    const __m512 magic = _mm512_set1_ps(SG_EXP_MAGIC);
    x = _mm512_max_ps(x, _mm512_set1_ps(SG_EXP_MIN));
    __m512 z = _mm512_fmadd_ps(x, _mm512_set1_ps(SG_EXP_LOG2E), magic);
    __m512i k = _mm512_sub_epi32(_mm512_castps_si512(z), _mm512_castps_si512(magic));
    __m512 kf = _mm512_sub_ps(z, magic);
    __m512 r = _mm512_fmadd_ps(kf, _mm512_set1_ps(-SG_EXP_L2U), x);
    r = _mm512_fmadd_ps(kf, _mm512_set1_ps(-SG_EXP_L2L), r);
    __m512 u = _mm512_set1_ps(SG_EXP_C6);
    u = _mm512_fmadd_ps(u, r, _mm512_set1_ps(SG_EXP_C5));
    u = _mm512_fmadd_ps(u, r, _mm512_set1_ps(SG_EXP_C4));
    u = _mm512_fmadd_ps(u, r, _mm512_set1_ps(SG_EXP_C3));
    u = _mm512_fmadd_ps(u, r, _mm512_set1_ps(SG_EXP_C2));
    u = _mm512_fmadd_ps(u, r, _mm512_set1_ps(0.5f));
    u = _mm512_add_ps(_mm512_set1_ps(1.0f), _mm512_fmadd_ps(_mm512_mul_ps(r, r), u, r));
    __m512i k2 = _mm512_srai_epi32(k, 1);
    __m512i k1 = _mm512_sub_epi32(k, k2);
    const __m512i bias = _mm512_set1_epi32(127);
    __m512 s1 = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(k1, bias), 23));
    __m512 s2 = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(k2, bias), 23));
    return _mm512_mul_ps(_mm512_mul_ps(u, s1), s2);
}

/* The float32 forward (selu_scalar.c's form): t = (exp(min(x, 0)) - 1) * A, y = (x <= 0 ? t : x)
 * S, NaN made canonical (a NaN x fails x <= 0 and stays a NaN through the product). */
static inline __m512 sg512_selu_f32(__m512 x) {
    const __m512 zero = _mm512_setzero_ps();
    __m512 e = sg512_selu_exp(_mm512_min_ps(x, zero));
    __m512 t = _mm512_mul_ps(_mm512_sub_ps(e, _mm512_set1_ps(1.0f)),
                             _mm512_castsi512_ps(_mm512_set1_epi32((int)SG_F32_ALPHA_BITS)));
    __m512 v = _mm512_mask_mov_ps(x, _mm512_cmp_ps_mask(x, zero, _CMP_LE_OQ), t);
    __m512 r = _mm512_mul_ps(v, _mm512_castsi512_ps(_mm512_set1_epi32((int)SG_F32_SCALE_BITS)));
    /* VFIXUPIMMPS: NaN classes take the canonical NaN, every other class keeps r */
    return _mm512_fixupimm_ps(_mm512_castsi512_ps(_mm512_set1_epi32((int)SG_F32_QNAN_BITS)), r,
                              _mm512_set1_epi32(0x11111100), 0);
}

/* fp32 (a NaN only the canonical one) to fp16, nearest with ties away from zero: VCVTPS2PH
   rounds to nearest even; where y is exactly the midpoint of its truncation h and the next value
   h + 1 (their mean, exact in fp32), the away result is h + 1. */
static inline __m256i sg512_f16_away(__m512 y) {
    __m256i ne = _mm512_cvtps_ph(y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256i z = _mm512_cvtps_ph(y, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    __m256i z1 = _mm256_add_epi16(z, _mm256_set1_epi16(1));
    __m512 mid =
        _mm512_mul_ps(_mm512_add_ps(_mm512_cvtph_ps(z), _mm512_cvtph_ps(z1)), _mm512_set1_ps(0.5f));
    __mmask16 tie = _mm512_cmp_ps_mask(y, mid, _CMP_EQ_OQ);
    return _mm256_mask_mov_epi16(ne, tie, z1);
}

/* fp32 (a NaN only the canonical one) to bf16, nearest with ties away from zero: half a bf16
   ulp added to the magnitude bits, then truncated (0x7FC00000 gives 0x7FC0). */
static inline __m256i sg512_bf16_away(__m512 y) {
    __m512i b = _mm512_add_epi32(_mm512_castps_si512(y), _mm512_set1_epi32(0x8000));
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(b, 16));
}

/* Mask of the first m (< 16, or < 32, or < 64) lanes. */
static inline __mmask16 sg512_selu_mask16(size_t m) {
    return (__mmask16)((1u << m) - 1u);
}

#endif /* SELUGRAD_KERNELS_AVX512_SELU_AVX512_H */
