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
 *                                                   scalar code forms it as
 *                                                   (u * 2^(k + 64)) * 2^-64 (the first product
 *                                                   exact: k + 64 in [-86, 64] keeps it normal)
 *
 * The SIMD kernels' form (avx2/selu_avx2.h, avx512/selu_avx512.h, neon/selu_neon.h): the same
 * operations on x clamped at -20 instead of -104, with 2^k applied by an integer add (in place of
 * the two products, which take the multiply pipes the polynomial needs). Only e - 1 reaches a
 * kernel's output, and for every x <= -20 the model's e rounds e - 1 to exactly -1:
 * exp(-20) < 2^-28 and e is within 1 ulp of exp(x) (tests/exhaustive/exp_all.c), so e < 2^-25
 * and the exact e - 1 lies in (-1, -1 + 2^-25), below the midpoint -1 + 2^-25 of -1 and its
 * neighbour -1 + 2^-24. A kernel's e at the clamp is the model's e(-20), also < 2^-25: the same
 * -1. On [-20, 0], k = round(x log2(e)) is in [-29, 0] and u in [0.70, 1.42], so u * 2^k >= 2^-30
 * is normal and exact, the same value as (u * 2^(k + 64)) * 2^-64; it is u's bits plus k << 23,
 * and k << 23 is z's bits shifted left by 23 (z's bits are 0x4B400000 + k, and 0x4B400000 << 23
 * is 0 modulo 2^32). tests/exhaustive/selu_f32_all.c runs every fp32 bit pattern through every
 * float32 kernel against the model.
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

/* The SIMD kernels' clamp (above): the bits of -20.0f. Read as signed 32-bit integers, the bits
   of a float at or below -0 (or a NaN with the sign set) are the lower the nearer it is to -0
   (-0's are the least), and those of +0 and up (positive NaNs too) lie above them all, so the
   signed minimum of x's bits and these is x for x in [-20, -0] and -20 for every other x: below
   -20, +0 and up, NaNs. The kernels take x itself where its sign bit is clear and fix NaNs up
   after, so the last two never reach an output. */
#define SG_EXP_KERNEL_MIN_BITS 0xC1A00000u

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
