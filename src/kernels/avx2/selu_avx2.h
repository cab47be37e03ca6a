/*
 * Helpers of the AVX2 (+FMA, F16C) SELU forward kernels: the exponential of
 * kernels/ref/selu_exp.h lane for lane (the same IEEE operations in the same order, VFMADD for
 * its fmaf), the float32 step, the 16-bit roundings with ties away from zero (the loop is
 * sg_selu_loop, x86_nt.h). Tails go to the scalar kernel of the dtype (the same bits). Runs under
 * the default MXCSR (round to nearest, no FTZ/DAZ).
 */
#ifndef SELUGRAD_KERNELS_AVX2_SELU_AVX2_H
#define SELUGRAD_KERNELS_AVX2_SELU_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel.h"
#include "../ref/selu_ref.h"
#include "../x86_nt.h"

static inline __m256 sg256_selu_bits(uint32_t u) {
    return _mm256_castsi256_ps(_mm256_set1_epi32((int)u));
}

/* sg_selu_expf on 8 lanes. */
static inline __m256 sg256_selu_exp(__m256 x) {
    const __m256 magic = _mm256_set1_ps(SG_EXP_MAGIC);
    x = _mm256_max_ps(x, _mm256_set1_ps(SG_EXP_MIN));
    __m256 z = _mm256_fmadd_ps(x, _mm256_set1_ps(SG_EXP_LOG2E), magic);
    __m256 kf = _mm256_sub_ps(z, magic);
    __m256 r = _mm256_fmadd_ps(kf, _mm256_set1_ps(-SG_EXP_L2U), x);
    r = _mm256_fmadd_ps(kf, _mm256_set1_ps(-SG_EXP_L2L), r);
    __m256 u = _mm256_set1_ps(SG_EXP_C6);
    u = _mm256_fmadd_ps(u, r, _mm256_set1_ps(SG_EXP_C5));
    u = _mm256_fmadd_ps(u, r, _mm256_set1_ps(SG_EXP_C4));
    u = _mm256_fmadd_ps(u, r, _mm256_set1_ps(SG_EXP_C3));
    u = _mm256_fmadd_ps(u, r, _mm256_set1_ps(SG_EXP_C2));
    u = _mm256_fmadd_ps(u, r, _mm256_set1_ps(0.5f));
    u = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(_mm256_mul_ps(r, r), u, r));
    __m256i sb = _mm256_add_epi32(_mm256_castps_si256(z), _mm256_set1_epi32((int)SG_EXP_SCALE_ADD));
    __m256 s = _mm256_castsi256_ps(_mm256_slli_epi32(sb, 23));
    return _mm256_mul_ps(_mm256_mul_ps(u, s), _mm256_set1_ps(SG_EXP_UNSCALE));
}

/* The float32 forward (selu_scalar.c's form): t = (exp(min(x, 0)) - 1) * A, y = (x <= 0 ? t : x)
 * S, NaN made canonical. */
static inline __m256 sg256_selu_f32(__m256 x) {
    const __m256 zero = _mm256_setzero_ps();
    __m256 e = sg256_selu_exp(_mm256_min_ps(x, zero));
    __m256 t =
        _mm256_mul_ps(_mm256_sub_ps(e, _mm256_set1_ps(1.0f)), sg256_selu_bits(SG_F32_ALPHA_BITS));
    __m256 v = _mm256_blendv_ps(x, t, _mm256_cmp_ps(x, zero, _CMP_LE_OQ));
    __m256 r = _mm256_mul_ps(v, sg256_selu_bits(SG_F32_SCALE_BITS));
    return _mm256_blendv_ps(r, sg256_selu_bits(SG_F32_QNAN_BITS),
                            _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
}

/* fp32 (a NaN only the canonical one) to fp16, nearest with ties away from zero: as
   sg512_f16_away (y clamped to [-2^16, 2^16], its lowest bit set, then VCVTPS2PH to nearest
   even). */
static inline __m128i sg256_f16_away(__m256 y) {
    __m256 c = _mm256_max_ps(_mm256_set1_ps(-65536.0f), _mm256_min_ps(_mm256_set1_ps(65536.0f), y));
    __m256i o = _mm256_or_si256(_mm256_castps_si256(c), _mm256_set1_epi32(1));
    return _mm256_cvtps_ph(_mm256_castsi256_ps(o), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

/* fp32 (a NaN only the canonical one) to bf16 bits in the low half of each lane, nearest with
   ties away from zero: half a bf16 ulp added to the magnitude bits, then truncated. */
static inline __m256i sg256_bf16_away(__m256 y) {
    return _mm256_srli_epi32(_mm256_add_epi32(_mm256_castps_si256(y), _mm256_set1_epi32(0x8000)),
                             16);
}

#endif /* SELUGRAD_KERNELS_AVX2_SELU_AVX2_H */
