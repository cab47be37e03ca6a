/*
 * Helpers of the AVX-512 (F/BW/VL/DQ) SELU forward kernels: the exponential of
 * kernels/ref/selu_exp.h lane for lane in the kernels' form (the same IEEE operations in the same
 * order, VFMADD for its fmaf; the clamp at -20, 2^k by an integer add), the float32 step, the
 * 16-bit roundings with ties away from zero (the loop is sg_selu_loop, x86_nt.h). Runs under the
 * default MXCSR (round to nearest, no FTZ/DAZ).
 */
#ifndef SELUGRAD_KERNELS_AVX512_SELU_AVX512_H
#define SELUGRAD_KERNELS_AVX512_SELU_AVX512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel.h"
#include "../ref/selu_ref.h"
#include "../selu16_exp.h"
#include "../x86_nt.h"

/* sg_selu_expf on n <= 4 vectors of 16 lanes in the kernels' form (selu_exp.h), x[j] into e[j]: the
 * model's bits for x in [-20, 0], under 2^-25 below -20 as the model's; for x > 0 or a NaN,
 * exp(-20) (the caller discards it). The clamp is an integer minimum (SG_EXP_KERNEL_MIN_BITS).
 * Each operation is written for every vector before the next (n a constant: the compiler unrolls
 * the loops), so the instructions of the n chains of dependent operations come interleaved and
 * the core overlaps them without holding one chain's waiting instructions while it runs another's
 * (f32_selu__avx512, 4K elements in L1 on the Zen 5 VM, selugrad_isa_rates, six alternated
 * rounds: 8.3-9.8 cycles per 16 elements with n = 2 against 8.8-10.0 with the two chains one
 * after the other; n = 4 no faster than n = 2). */
SG_ALWAYS_INLINE void sg512_selu_exp_n(const __m512 *x, __m512 *e, int n) {
    const __m512 magic = _mm512_set1_ps(SG_EXP_MAGIC);
    __m512 c[4], z[4], kf[4], r[4], u[4];
    for (int j = 0; j < n; j++)
        c[j] = _mm512_castsi512_ps(_mm512_min_epi32(
            _mm512_castps_si512(x[j]), _mm512_set1_epi32((int)SG_EXP_KERNEL_MIN_BITS)));
    for (int j = 0; j < n; j++) z[j] = _mm512_fmadd_ps(c[j], _mm512_set1_ps(SG_EXP_LOG2E), magic);
    for (int j = 0; j < n; j++) kf[j] = _mm512_sub_ps(z[j], magic);
    for (int j = 0; j < n; j++) r[j] = _mm512_fmadd_ps(kf[j], _mm512_set1_ps(-SG_EXP_L2U), c[j]);
    for (int j = 0; j < n; j++) r[j] = _mm512_fmadd_ps(kf[j], _mm512_set1_ps(-SG_EXP_L2L), r[j]);
    for (int j = 0; j < n; j++)
        u[j] = _mm512_fmadd_ps(_mm512_set1_ps(SG_EXP_C6), r[j], _mm512_set1_ps(SG_EXP_C5));
    for (int j = 0; j < n; j++) u[j] = _mm512_fmadd_ps(u[j], r[j], _mm512_set1_ps(SG_EXP_C4));
    for (int j = 0; j < n; j++) u[j] = _mm512_fmadd_ps(u[j], r[j], _mm512_set1_ps(SG_EXP_C3));
    for (int j = 0; j < n; j++) u[j] = _mm512_fmadd_ps(u[j], r[j], _mm512_set1_ps(SG_EXP_C2));
    for (int j = 0; j < n; j++) u[j] = _mm512_fmadd_ps(u[j], r[j], _mm512_set1_ps(0.5f));
    for (int j = 0; j < n; j++)
        u[j] = _mm512_add_ps(_mm512_set1_ps(1.0f),
                             _mm512_fmadd_ps(_mm512_mul_ps(r[j], r[j]), u[j], r[j]));
    /* u * 2^k, exact: k << 23 (z's bits shifted) added to u's bits (VSCALEFPS(u, kf) gives the
       same value; with it the float32 forward took 4-5 % more cycles, selugrad_isa_rates, 4K
       elements in L1 on the Zen 5 VM) */
    for (int j = 0; j < n; j++)
        e[j] = _mm512_castsi512_ps(_mm512_add_epi32(
            _mm512_castps_si512(u[j]), _mm512_slli_epi32(_mm512_castps_si512(z[j]), 23)));
}

SG_ALWAYS_INLINE __m512 sg512_selu_exp(__m512 x) {
    __m512 e;
    sg512_selu_exp_n(&x, &e, 1);
    return e;
}

/* VFIXUPIMMPS tables (a nibble per class of its input v: QNaN, SNaN, 0, 1, -inf, +inf, < 0, > 0;
   0 takes the canonical NaN, 1 keeps v, 14 and 15 give +-FLT_MAX): NaNs made canonical (the
   float32 path's x, the 16-bit paths' x * S), and the float16 path's, whose infinities become
   +-FLT_MAX (sg512_f16_away_finite rounds them to +-inf). */
#define SG512_FIX_F32 0x11111100
#define SG512_FIX_F16 0x11EF1100

/* The float32 forward (selu_scalar.c's form) on n vectors in place, interleaved as
 * sg512_selu_exp_n: t = (exp(min(x, 0)) - 1) * A, y = (x <= 0 ? t : x) S, NaN made canonical:
 * x's classes fixed up first (SG512_FIX_F32: a NaN becomes the canonical one, which the product
 * by S keeps; nothing else), off the exponential's chain of dependent operations. The select is the
 * multiply by A, merged where x is below 0 or -0 (VFPCLASSPS): +0 keeps x, equal to its t (+0); -0
 * takes t (+0) as the model does; a NaN keeps the fixed-up x. */
SG_ALWAYS_INLINE void sg512_selu_f32_n(__m512 *v, int n) {
    __mmask16 neg[4];
    __m512 xq[4], e[4];
    /* VFPCLASSPS: -0 (0x04), -inf (0x10), negative finite (0x40) */
    for (int j = 0; j < n; j++) neg[j] = _mm512_fpclass_ps_mask(v[j], 0x54);
    for (int j = 0; j < n; j++)
        xq[j] = _mm512_fixupimm_ps(_mm512_castsi512_ps(_mm512_set1_epi32((int)SG_F32_QNAN_BITS)),
                                   v[j], _mm512_set1_epi32(SG512_FIX_F32), 0);
    sg512_selu_exp_n(v, e, n);
    for (int j = 0; j < n; j++)
        e[j] = _mm512_mask_mul_ps(xq[j], neg[j], _mm512_sub_ps(e[j], _mm512_set1_ps(1.0f)),
                                  _mm512_castsi512_ps(_mm512_set1_epi32((int)SG_F32_ALPHA_BITS)));
    for (int j = 0; j < n; j++)
        v[j] = _mm512_mul_ps(e[j], _mm512_castsi512_ps(_mm512_set1_epi32((int)SG_F32_SCALE_BITS)));
}

SG_ALWAYS_INLINE __m512 sg512_selu_f32(__m512 x) {
    sg512_selu_f32_n(&x, 1);
    return x;
}

static inline __m512 sg512_bits(uint32_t u) {
    return _mm512_castsi512_ps(_mm512_set1_epi32((int)u));
}

/* The forward of x widened from float16 or bfloat16 (selu16_exp.h, N = 16), NaN made canonical
 * and x * S's classes fixed up by the table fix (SG512_FIX_F32 or SG512_FIX_F16): equal to
 * sg512_selu_f32 after the rounding to the 16-bit type, not before. The fix-up and the select sit
 * on the x * S side, off the exponential's chain of dependent operations. */
static inline __m512 sg512_selu16_f32_fix(__m512 x, int fix) {
    static const uint32_t tab[16] = SG16_EXP_TABLE;
    const __m512 magic = _mm512_set1_ps(SG_EXP_MAGIC);
    __m512 pos = _mm512_fixupimm_ps(_mm512_castsi512_ps(_mm512_set1_epi32((int)SG_F32_QNAN_BITS)),
                                    _mm512_mul_ps(x, sg512_bits(SG_F32_SCALE_BITS)),
                                    _mm512_set1_epi32(fix), 0);
    __m512 xc = _mm512_max_ps(x, _mm512_set1_ps(SG16_EXP_MIN));
    __m512 z = _mm512_fmadd_ps(xc, sg512_bits(SG16_INV_LN2_16), magic);
    __m512 kf = _mm512_sub_ps(z, magic);
    __m512 r = _mm512_fnmadd_ps(kf, sg512_bits(SG16_LN2_16), xc);
    __m512 t = _mm512_permutexvar_ps(_mm512_castps_si512(z), _mm512_loadu_ps(tab));
    /* t times 2^floor(k/16): the bits of z shifted right by 4 hold floor(k/16) plus a multiple of
       2^18 (from 1.5 * 2^23), which the shift by 23 drops */
    __m512i m = _mm512_slli_epi32(_mm512_srli_epi32(_mm512_castps_si512(z), 4), 23);
    t = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(t), m)); /* normal: exact */
    /* p = r + r^2 (1/2 + r/6) (Estrin's order) */
    __m512 p = _mm512_fmadd_ps(_mm512_mul_ps(r, r),
                               _mm512_fmadd_ps(sg512_bits(SG16_C3), r, _mm512_set1_ps(0.5f)), r);
    __m512 e = _mm512_fmadd_ps(t, p, t);
    const __m512 sa = sg512_bits(SG16_SCALE_ALPHA);
    return _mm512_mask_mov_ps(pos, _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LE_OQ),
                              _mm512_fmsub_ps(e, sa, sa));
}

/* fp32 without infinities (a NaN only the canonical one) to fp16, nearest with ties away from
   zero: the lowest bit of y set, then VCVTPS2PH to nearest even. Every fp16 value and every
   midpoint between two has that bit clear (they lie on a coarser grid), so setting it moves an
   exact midpoint just past it, away from zero, and moves no other value across one: the even
   rounding of the result is the away rounding of y (65520 and up, FLT_MAX too, give inf; the NaN
   gives 0x7E00). An infinity would become a NaN. */
static inline __m256i sg512_f16_away_finite(__m512 y) {
    __m512i o = _mm512_or_si512(_mm512_castps_si512(y), _mm512_set1_epi32(1));
    return _mm512_cvtps_ph(_mm512_castsi512_ps(o), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

/* Any fp32 (a NaN only the canonical one) to fp16, nearest with ties away from zero:
   sg512_f16_away_finite of y clamped to [-2^16, 2^16] (VMINPS / VMAXPS with y second, which
   returns the NaN). */
static inline __m256i sg512_f16_away(__m512 y) {
    __m512 c = _mm512_max_ps(_mm512_set1_ps(-65536.0f), _mm512_min_ps(_mm512_set1_ps(65536.0f), y));
    return sg512_f16_away_finite(c);
}

/* fp32 (a NaN only the canonical one) to bf16 bits in the low half of each lane (the high half
   0), nearest with ties away from zero: half a bf16 ulp added to the magnitude bits, then
   truncated (0x7FC00000 gives 0x7FC0). */
static inline __m512i sg512_bf16_away(__m512 y) {
    return _mm512_srli_epi32(_mm512_add_epi32(_mm512_castps_si512(y), _mm512_set1_epi32(0x8000)),
                             16);
}

/* Mask of the first m (< 16, or < 32, or < 64) lanes. */
static inline __mmask16 sg512_selu_mask16(size_t m) {
    return (__mmask16)((1u << m) - 1u);
}

#endif /* SELUGRAD_KERNELS_AVX512_SELU_AVX512_H */
