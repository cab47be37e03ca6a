/*
 * The fp32 exponential of the SELU forward, for x <= 0: one sequence of IEEE operations (each
 * rounded to nearest even; fma is the fused multiply-add, one rounding) that every kernel
 * variant repeats lane for lane, so every ISA and thread count gives the same bits. The scalar
 * code calls fmaf (C99: one rounding; glibc uses the FMA instruction where the CPU has it).
 *
 *   x = max(x, -104)             below, exp(x) < 2^-150 rounds to 0 anyway
 *   z = fma(x, log2(e), 1.5*2^23) k = z - 1.5*2^23 = round(x / ln 2), an integer in [-150, 0]
 *   r = fma(k, -L2U, x); r = fma(k, -L2L, r)        x - k ln 2 (Cody and Waite, ln 2 = L2U + L2L)
 *   u = C6; u = fma(u, r, C5) ... fma(u, r, 0.5)    Horner, SLEEF's expf_u10 coefficients
 *   u = 1 + fma(r * r, u, r)                        exp(r) on |r| <= ln(2) / 2
 *   e = u * 2^k, rounded once                       a subnormal result is rounded once; the
 *                                                   scalar, AVX2 and NEON code form it as
 *                                                   (u * 2^(k + 64)) * 2^-64 (the first product
 *                                                   exact: k + 64 in [-86, 64] keeps it normal),
 *                                                   AVX-512 as VSCALEFPS(u, k) (one rounding):
 *                                                   the same value, so the same bits
 *
 * Why not a library: Debian 12's SLEEF 3.5.1 has no deterministic variants (its scalar, AVX2,
 * AVX-512 and NEON expf differ in their FMA use and reductions; docs/numerics.md). Measured
 * against float64 exp rounded to fp32 over every fp32 x <= 0: tests/exhaustive/exp_all.c, the
 * figure in docs/numerics.md. NaN in gives garbage out: callers replace it.
 */
#ifndef SELUGRAD_KERNELS_REF_SELU_EXP_H
#define SELUGRAD_KERNELS_REF_SELU_EXP_H

#include <math.h>
#include <stdint.h>

#include "half.h"

/* Constants, shared with the SIMD kernels (decimal literals, each rounded once to fp32). */
#define SG_EXP_MIN   (-104.0f)
#define SG_EXP_LOG2E 1.442695040888963407359924681001892137f
#define SG_EXP_MAGIC 12582912.0f /* 1.5 * 2^23 */
#define SG_EXP_L2U   0.693145751953125f
#define SG_EXP_L2L   1.428606765330187045e-06f
#define SG_EXP_C6    0.000198527617612853646278381f
#define SG_EXP_C5    0.00139304355252534151077271f
#define SG_EXP_C4    0.00833336077630519866943359f
#define SG_EXP_C3    0.0416664853692054748535156f
#define SG_EXP_C2    0.166666671633720397949219f

/* 2^(k + 64) from z = fma(x, log2(e), 1.5 * 2^23), whose low bits hold k: the biased exponent
   k + 64 + 127 (in [41, 191] for k in [-150, 0]) shifted into place, in unsigned arithmetic. */
#define SG_EXP_SCALE_ADD (127u + 64u - 0x4B400000u) /* 0x4B400000: the bits of 1.5 * 2^23 */
#define SG_EXP_UNSCALE   0x1p-64f

static inline float sg_selu_expf(float x) {
    x = x < SG_EXP_MIN ? SG_EXP_MIN : x;
    float z = fmaf(x, SG_EXP_LOG2E, SG_EXP_MAGIC);
    float kf = z - SG_EXP_MAGIC;
    float r = fmaf(kf, -SG_EXP_L2U, x);
    r = fmaf(kf, -SG_EXP_L2L, r);
    float u = SG_EXP_C6;
    u = fmaf(u, r, SG_EXP_C5);
    u = fmaf(u, r, SG_EXP_C4);
    u = fmaf(u, r, SG_EXP_C3);
    u = fmaf(u, r, SG_EXP_C2);
    u = fmaf(u, r, 0.5f);
    u = 1.0f + fmaf(r * r, u, r);
    /* k in [-150, 0] (x not a NaN): u * 2^(k + 64) is normal, so exact; one rounding after */
    float s = sg_bits_f32((sg_f32_bits(z) + SG_EXP_SCALE_ADD) << 23);
    return (u * s) * SG_EXP_UNSCALE;
}

#endif /* SELUGRAD_KERNELS_REF_SELU_EXP_H */
