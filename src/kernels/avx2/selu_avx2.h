/*
 * Helpers of the AVX2 (+FMA, F16C) SELU forward kernels: the exponential of
 * kernels/ref/selu_exp.h lane for lane in the kernels' form (the same IEEE operations in the same
 * order, VFMADD for its fmaf; the clamp at -20, 2^k by an integer add), the float32 step, the
 * 16-bit roundings with ties away from zero (the loop is sg_selu_loop, x86_nt.h). Tails go to
 * shorter steps or the scalar kernel of the dtype (the same bits). Runs under the default MXCSR
 * (round to nearest, no FTZ/DAZ).
 */
#ifndef SELUGRAD_KERNELS_AVX2_SELU_AVX2_H
#define SELUGRAD_KERNELS_AVX2_SELU_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../kernel.h"
#include "../ref/selu_ref.h"
#include "../selu16_exp.h"
#include "../selu16_table.h"
#include "../x86_nt.h"

static inline __m256 sg256_selu_bits(uint32_t u) {
    return _mm256_castsi256_ps(_mm256_set1_epi32((int)u));
}

/* sg_selu_expf on n <= 4 vectors of 8 lanes in the kernels' form (selu_exp.h), x[j] into e[j]: the
 * model's bits for x in [-20, 0], under 2^-25 below -20 as the model's; for x > 0 or a NaN,
 * exp(-20) (the caller discards it). The clamp is an integer minimum (SG_EXP_KERNEL_MIN_BITS) and
 * 2^k an integer add, both off the multiply pipes. Each operation is written for every vector
 * before the next (n a constant: the compiler unrolls the loops), so the instructions of the n
 * chains of dependent operations come interleaved and the core overlaps them without holding one
 * chain's waiting instructions while it runs another's (f32_selu__avx2, 4K elements in L1 on
 * the Zen 5 VM, selugrad_isa_rates, six alternated rounds: 19.0-21.1 cycles per 16 elements
 * with n = 2 against 20.3-22.1 with the two chains one after the other; n = 4 runs out of the
 * 16 registers). */
SG_ALWAYS_INLINE void sg256_selu_exp_n(const __m256 *x, __m256 *e, int n) {
    const __m256 magic = _mm256_set1_ps(SG_EXP_MAGIC);
    __m256 c[4], z[4], kf[4], r[4], u[4];
    for (int j = 0; j < n; j++)
        c[j] = _mm256_castsi256_ps(_mm256_min_epi32(
            _mm256_castps_si256(x[j]), _mm256_set1_epi32((int)SG_EXP_KERNEL_MIN_BITS)));
    for (int j = 0; j < n; j++) z[j] = _mm256_fmadd_ps(c[j], _mm256_set1_ps(SG_EXP_LOG2E), magic);
    for (int j = 0; j < n; j++) kf[j] = _mm256_sub_ps(z[j], magic);
    for (int j = 0; j < n; j++) r[j] = _mm256_fmadd_ps(kf[j], _mm256_set1_ps(-SG_EXP_L2U), c[j]);
    for (int j = 0; j < n; j++) r[j] = _mm256_fmadd_ps(kf[j], _mm256_set1_ps(-SG_EXP_L2L), r[j]);
    for (int j = 0; j < n; j++)
        u[j] = _mm256_fmadd_ps(_mm256_set1_ps(SG_EXP_C6), r[j], _mm256_set1_ps(SG_EXP_C5));
    for (int j = 0; j < n; j++) u[j] = _mm256_fmadd_ps(u[j], r[j], _mm256_set1_ps(SG_EXP_C4));
    for (int j = 0; j < n; j++) u[j] = _mm256_fmadd_ps(u[j], r[j], _mm256_set1_ps(SG_EXP_C3));
    for (int j = 0; j < n; j++) u[j] = _mm256_fmadd_ps(u[j], r[j], _mm256_set1_ps(SG_EXP_C2));
    for (int j = 0; j < n; j++) u[j] = _mm256_fmadd_ps(u[j], r[j], _mm256_set1_ps(0.5f));
    for (int j = 0; j < n; j++)
        u[j] = _mm256_add_ps(_mm256_set1_ps(1.0f),
                             _mm256_fmadd_ps(_mm256_mul_ps(r[j], r[j]), u[j], r[j]));
    /* u * 2^k, exact: k << 23 (z's bits shifted) added to u's bits */
    for (int j = 0; j < n; j++)
        e[j] = _mm256_castsi256_ps(_mm256_add_epi32(
            _mm256_castps_si256(u[j]), _mm256_slli_epi32(_mm256_castps_si256(z[j]), 23)));
}

SG_ALWAYS_INLINE __m256 sg256_selu_exp(__m256 x) {
    __m256 e;
    sg256_selu_exp_n(&x, &e, 1);
    return e;
}

/* The float32 forward (selu_scalar.c's form) on n vectors in place, interleaved as
 * sg256_selu_exp_n: t = (exp(min(x, 0)) - 1) * A, y = (x <= 0 ? t : x) S, NaN made canonical.
 * The select takes t where x's sign bit is set and x is not a NaN: +0 keeps x, equal to its t
 * (+0); -0 takes t (+0) as the model does; a NaN keeps x made the canonical NaN before, which the
 * product by S keeps. The NaN work sits on x's side, off the exponential's chain of dependent
 * operations. */
SG_ALWAYS_INLINE void sg256_selu_f32_n(__m256 *v, int n) {
    __m256 e[4], nan[4];
    sg256_selu_exp_n(v, e, n);
    for (int j = 0; j < n; j++)
        e[j] = _mm256_mul_ps(_mm256_sub_ps(e[j], _mm256_set1_ps(1.0f)),
                             sg256_selu_bits(SG_F32_ALPHA_BITS));
    for (int j = 0; j < n; j++) nan[j] = _mm256_cmp_ps(v[j], v[j], _CMP_UNORD_Q);
    for (int j = 0; j < n; j++)
        v[j] = _mm256_mul_ps(
            _mm256_blendv_ps(_mm256_blendv_ps(v[j], sg256_selu_bits(SG_F32_QNAN_BITS), nan[j]),
                             e[j], _mm256_andnot_ps(nan[j], v[j])), /* sign: x < 0 or -0 */
            sg256_selu_bits(SG_F32_SCALE_BITS));
}

SG_ALWAYS_INLINE __m256 sg256_selu_f32(__m256 x) {
    sg256_selu_f32_n(&x, 1);
    return x;
}

/* The forward of x widened from float16 or bfloat16 (selu16_exp.h, N = 8: the even entries of
 * its table, degree 4), NaN made canonical: equal to sg256_selu_f32 after the rounding to the
 * 16-bit type, not before. With f16 set, +inf gives 2^16 (sg256_f16_away_pos rounds it to +inf
 * again; no result lies below -2). The NaN and the clamp sit on the x * S side, off the
 * exponential's chain of dependent operations. */
static inline __m256 sg256_selu16_f32(__m256 x, int f16) {
    static const uint32_t tab[16] = SG16_EXP_TABLE;
    const __m256 t8 = _mm256_castsi256_ps(_mm256_setr_epi32((int)tab[0], (int)tab[2], (int)tab[4],
                                                            (int)tab[6], (int)tab[8], (int)tab[10],
                                                            (int)tab[12], (int)tab[14]));
    const __m256 magic = _mm256_set1_ps(SG_EXP_MAGIC);
    __m256 pos =
        _mm256_blendv_ps(_mm256_mul_ps(x, sg256_selu_bits(SG_F32_SCALE_BITS)),
                         sg256_selu_bits(SG_F32_QNAN_BITS), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    if (f16) pos = _mm256_min_ps(_mm256_set1_ps(65536.0f), pos); /* the NaN stays */
    __m256 xc = _mm256_max_ps(x, _mm256_set1_ps(SG16_EXP_MIN));
    __m256 z = _mm256_fmadd_ps(xc, sg256_selu_bits(SG16_INV_LN2_8), magic);
    __m256 kf = _mm256_sub_ps(z, magic);
    __m256 r = _mm256_fnmadd_ps(kf, sg256_selu_bits(SG16_LN2_8), xc);
    __m256 t = _mm256_permutevar8x32_ps(t8, _mm256_castps_si256(z));
    /* t times 2^floor(k/8): the bits of z shifted right by 3 hold floor(k/8) plus a multiple of
       2^19 (from 1.5 * 2^23), which the shift by 23 drops */
    __m256i m = _mm256_slli_epi32(_mm256_srli_epi32(_mm256_castps_si256(z), 3), 23);
    t = _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(t), m)); /* normal: exact */
    /* p = r + r^2 (1/2 + r/6 + r^2/24) (Estrin's order) */
    __m256 r2 = _mm256_mul_ps(r, r);
    __m256 c = _mm256_fmadd_ps(sg256_selu_bits(SG16_C3), r, _mm256_set1_ps(0.5f));
    __m256 p = _mm256_fmadd_ps(r2, _mm256_fmadd_ps(r2, sg256_selu_bits(SG16_C4), c), r);
    __m256 e = _mm256_fmadd_ps(t, p, t);
    const __m256 sa = sg256_selu_bits(SG16_SCALE_ALPHA);
    return _mm256_blendv_ps(pos, _mm256_fmsub_ps(e, sa, sa),
                            _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LE_OQ));
}

/* fp32 (a NaN only the canonical one) to fp16, nearest with ties away from zero: as
   sg512_f16_away (y clamped to [-2^16, 2^16], its lowest bit set, then VCVTPS2PH to nearest
   even). */
static inline __m128i sg256_f16_away(__m256 y) {
    __m256 c = _mm256_max_ps(_mm256_set1_ps(-65536.0f), _mm256_min_ps(_mm256_set1_ps(65536.0f), y));
    __m256i o = _mm256_or_si256(_mm256_castps_si256(c), _mm256_set1_epi32(1));
    return _mm256_cvtps_ph(_mm256_castsi256_ps(o), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

/* fp32 within [-2^16, 2^16] (a NaN only the canonical one) to fp16, nearest with ties away from
   zero: sg256_f16_away without its clamp. */
static inline __m128i sg256_f16_away_pos(__m256 y) {
    __m256i o = _mm256_or_si256(_mm256_castps_si256(y), _mm256_set1_epi32(1));
    return _mm256_cvtps_ph(_mm256_castsi256_ps(o), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

/* fp32 (a NaN only the canonical one) to bf16 bits in the low half of each lane, nearest with
   ties away from zero: half a bf16 ulp added to the magnitude bits, then truncated. */
static inline __m256i sg256_bf16_away(__m256 y) {
    return _mm256_srli_epi32(_mm256_add_epi32(_mm256_castps_si256(y), _mm256_set1_epi32(0x8000)),
                             16);
}

#endif /* SELUGRAD_KERNELS_AVX2_SELU_AVX2_H */
