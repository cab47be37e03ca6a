/*
 * The x86 float16 / bfloat16 SELU forward's fp32 step for x <= 0: a shorter computation than the
 * model's (kernels/ref/selu_ref.h) that gives the same 16-bit result on every one of the 65,536
 * inputs of each type. A 16-bit result keeps 11 (fp16) or 8 (bf16) of the fp32 result's 24 bits,
 * so an fp32 value a few ulps off the model's rounds to the same 16-bit value unless the model's
 * lies within those ulps of a rounding boundary; the constants below are the ones for which no
 * input does. tests/unit/test_selu_forward.c checks every 16-bit input of every variant against
 * the model, so a change here that breaks one input fails there.
 *
 *   xc = max(x, -18)              below -18 every 16-bit result is the saturated -S*A (the model's
 *                                 e - 1 rounds to -1 there), and e stays normal
 *   z  = fma(xc, N / ln 2, 1.5*2^23)    k = z - 1.5*2^23 = round(x N / ln 2), in its low bits
 *   r  = fma(k, -ln 2 / N, xc)          one-part reduction, |r| <= ln 2 / 2N (+ its rounding)
 *   T  = SG16_EXP_TABLE[k mod N]        2^(j/N) in fp32, VPERMPS
 *   p  = r * (1 + r (1/2 + r (1/6 [+ r/24])))   Taylor, degree 3 for N = 16, 4 for N = 8
 *   e  = fma(T, p, T) * 2^floor(k/N)    the scaling an integer add to the exponent bits
 *   y  = x <= 0 ? fma(e, S*A, -S*A) : x * S     one rounding where the model has e - 1, * A, * S
 *
 * e equals the model's exponential on most inputs, not all (they are different approximations of
 * exp, both about 1 ulp off), and y is rounded once where the model rounds three times; neither
 * moves a 16-bit result. The table is 2^(j/16) rounded to nearest except j = 10 (rounded up) and
 * j = 12 (rounded down): with nearest, fp16 0xB471 (N = 16) and 0xB099 (N = 8) give results one
 * fp16 ulp away from the model's, whose exponential is 0.58 ulp off at those points. AVX-512 uses
 * all 16 entries (N = 16, VPERMPS on 16 lanes), AVX2 the even ones (N = 8, 8 lanes).
 * Operations per 16 lanes on AVX-512: 8 on the FMA/multiply pipes (the float32 step: 12), 3 on
 * the add pipes, 3 integer, one permute.
 */
#ifndef SELUGRAD_KERNELS_SELU16_EXP_H
#define SELUGRAD_KERNELS_SELU16_EXP_H

#include <stdint.h>

#include "ref/selu_exp.h"

#define SG16_EXP_MIN     (-18.0f)
#define SG16_INV_LN2_16  0x41B8AA3Bu /* fp32(16 / ln 2) */
#define SG16_LN2_16      0x3D317218u /* fp32(ln 2 / 16) */
#define SG16_INV_LN2_8   0x4138AA3Bu /* fp32(8 / ln 2) */
#define SG16_LN2_8       0x3DB17218u /* fp32(ln 2 / 8) */
#define SG16_C3          0x3E2AAAABu /* fp32(1 / 6) */
#define SG16_C4          0x3D2AAAABu /* fp32(1 / 24) */
#define SG16_SCALE_ALPHA 0x3FE10966u /* fp32(S * A) of the contract's fp32 S and A */

/* 2^(j/16), j = 0 .. 15, as fp32 bits (entries 10 and 12: see above). */
#define SG16_EXP_TABLE                                                                             \
    {                                                                                              \
        0x3F800000u, 0x3F85AAC3u, 0x3F8B95C2u, 0x3F91C3D3u, 0x3F9837F0u, 0x3F9EF532u, 0x3FA5FED7u, \
            0x3FAD583Fu, 0x3FB504F3u, 0x3FBD08A4u, 0x3FC5672Bu, 0x3FCE248Cu, 0x3FD744FCu,          \
            0x3FE0CCDFu, 0x3FEAC0C7u, 0x3FF5257Du                                                  \
    }

#endif /* SELUGRAD_KERNELS_SELU16_EXP_H */
