/*
 * int8 / uint8 SeluGrad in 16-bit fixed point: the float16 row of the contract (docs/contract.md,
 * "Per-dtype computation") made exact in integer operations, for the AVX-512 and AVX2 kernels
 * (avx512/small_int_avx512.h, avx2/small_int_avx2.h). No intrinsics here: the constants and the
 * tables the vector code looks up, each defined by what it means.
 *
 * The factor. f = o < 0 ? round16(o + SA) : scale is a multiple of 2^-8: f = K / 256 with K an
 * int16. scale = 0x3C34 = 269/256. For o < 0, o + SA = (256 o + 450) / 256 (SA = 0x3F08 =
 * 450/256): exact in fp16 while |o + SA| < 16, that is o >= -17; for o <= -18 the fp16 spacing
 * is 4/256 or more and 450 = 2 (mod 4, 8 and 16), so the sum rounds (ties to even where the
 * spacing is 4) to (256 o + 448) / 256. So K = 256 o + 450 (-17 <= o <= -1), 256 o + 448
 * (o <= -18), 269 (o >= 0): as bytes, K's high byte is min(o, 0) + 1 and its low byte 0xC2,
 * 0xC0 or 0x0D (SG_SMALL_K_LO_*).
 *
 * The product. The fp32 product g * f of the contract is exact: P = g * K as an integer, and
 * x = P / 256. With g held as g * 256 in a 16-bit lane, VPMULHW (VPMULHUW for uint8) gives
 * n = floor(P / 256) and VPMULLW gives the low byte r = P mod 256 as r * 256 (nothing else in
 * the lane): x = n + r / 256 with 0 <= r < 256, and n never overflows (|P| / 256 <= 16160).
 *
 * The two roundings. y = sat(rne(round16(x))). fp16 spacing at x is q / 256 with q = 1 (|x| < 8),
 * 2, 4, 8, 16 (|x| < 128), 32 (|x| < 256): round16 rounds P to a multiple of q, ties to even, and
 * since q divides 256 with 256 / q even, it moves r only: round16 gives n + rq / 256 with rq the
 * rounding of r to a multiple of q (at most 256). rne then rounds up exactly when rq > 128, or
 * rq == 128 and n is odd. With h = q / 2 (0 for q = 1), rq == 128 exactly when
 * 128 - h <= r <= 128 + h (both ends are ties that round to 128, which is an even multiple of q);
 * so y = n + up with up = 1 when r >= 129 + h (n even) or r >= 128 - h (n odd). Boundaries of |x|
 * land on r = 0, where up = 0 for any h, so h may be taken from n alone: from |x| for x >= 0 and
 * from -x - 1/256 (the bits of ~n) for x < 0, which agree except at r = 0. |x| >= 128 saturates
 * whatever up is (int8), and so does x >= 256 (uint8), so h matters only below.
 * Checked on all 65,536 int8 pairs and all 256 uint8 values against the golden model, for every
 * variant of the list (test_battery_int8) and lane by lane for both table schemes below
 * (test_small_int_fixed).
 */
#ifndef SELUGRAD_KERNELS_SMALL_INT_FIXED_H
#define SELUGRAD_KERNELS_SMALL_INT_FIXED_H

/* The low bytes of K (above). */
#define SG_SMALL_K_LO_SCALE 0x0D /* o >= 0: K = 269 = 0x010D */
#define SG_SMALL_K_LO_NEAR  0xC2 /* -17 <= o <= -1: K = 256 o + 450 = 256 (o + 1) + 0xC2 */
#define SG_SMALL_K_LO_FAR   0xC0 /* o <= -18: K = 256 o + 448 = 256 (o + 1) + 0xC0 */
#define SG_SMALL_K_SCALE    269  /* uint8: o >= 0 always */

/* h of |x| from a = floor(|x|) / 8 (0 .. 15 below 128) and from a = floor(|x|) / 16 (0 .. 15
   below 256, uint8: below 16 h is 0 or 1, and no uint8 value of r lies within 1 of 128 there, as
   r = 13 g mod 256 is 104 .. 195 for g = 8 .. 15, so 0 serves; from 256 it saturates). */
#define SG_SMALL_H8(a)  ((a) == 0 ? 0 : (a) == 1 ? 1 : (a) < 4 ? 2 : (a) < 8 ? 4 : 8)
#define SG_SMALL_H16(a) ((a) == 0 ? 0 : (a) == 1 ? 2 : (a) < 4 ? 4 : (a) < 8 ? 8 : 16)

/* The threshold on r * 256 that up compares with (unsigned r * 256 >= thr), from h and n odd. */
#define SG_SMALL_THR(h, odd) ((odd) ? (128 - (h)) << 8 : (129 + (h)) << 8)

/* AVX-512 int8 table (VPERMI2W, 64 words): index i = ((n >> 3) ^ (n << 5)) mod 64 (arithmetic
   shift), so bits 0..4 are n >> 3 as a signed 5-bit value c (-16 .. 15 below |n| = 128) and bit
   5 is n's bit 0 (oddness) xor its sign; floor(|x|) / 8 is c, or ~c = -c - 1 when c < 0. */
#define SG_S8_C(i)      (((i)&31) >= 16 ? ((i)&31) - 32 : ((i)&31))
#define SG_S8_A(i)      (SG_S8_C(i) >= 0 ? SG_S8_C(i) : -SG_S8_C(i) - 1)
#define SG_S8_ODD(i)    ((((i) >> 5) ^ ((i) >> 4)) & 1)
#define SG_S8_THR512(i) SG_SMALL_THR(SG_SMALL_H8(SG_S8_A(i)), SG_S8_ODD(i))
/* AVX-512 uint8 table: i = ((n >> 3) ^ (n << 5)) mod 64 (logical shift, n < 256): bits 0..4 are
   n >> 3 (h: 16 from 16 up), bit 5 is n's bit 0. */
#define SG_U8_H512(a)   ((a) >= 16 ? 16 : SG_SMALL_H8(a))
#define SG_U8_THR512(i) SG_SMALL_THR(SG_U8_H512((i)&31), ((i) >> 5) & 1)

/* AVX2 int8 table (VPSHUFB, 16 bytes of h): up = 1 when r >= 129 + h (n even) or r >= 128 - h
   (n odd), that is r - 128 > t with t = h for even n and t = ~h = -h - 1 for odd n (an XOR with
   the all-ones mask of odd n). The index a is taken from |n| (VPABSW), not from ~n as above: for
   n < 0 the two differ only where n is a multiple of 8 (n = -8k, |x| just below 8k, a one too
   big; n = -128 gives index 16, read as 0) and then only on an r inside the tie window of one h
   and not the other (r in 129 .. 136 for n even); no int8 pair has such an r (the products g K
   with those n and r do not exist: checked on every pair by test_small_int_fixed's lane model
   and through the kernel by test_battery_int8). */
#define SG_S8_H256(a) SG_SMALL_H8(a)

/* AVX2 uint8, by rows of 16 values (three VPSHUFB tables indexed by h = g / 16): y = min(255,
   g + d) with d = y - g before saturation, which for g = 16 h + l is
       d = SG_U8_ROW_BASE(h) + (l > SG_U8_ROW_UP(h)) - (l == SG_U8_ROW_DIP(h)).
   SG_U8_D(g) is d by the form above (n = g + floor(13 g / 256), r = 13 g mod 256, h from n / 16).
   It grows by 13 * 16 / 256 < 1 over a row, so it steps up at most once in a row: BASE is d at
   l = 0 and UP the last l before the step (15: none). From x >= 128, where fp16 spaces x by 1/8
   and the tie of the second rounding goes to even, d falls back by one right after the step in
   rows 10, 11 and 14 (y(167) = y(168) = 176), and in row 15, which saturates from g = 243: DIP
   is that l (-1: none). Checked against the golden model on all 256 values
   (test_small_int_fixed) and through the kernel (test_battery_int8). */
#define SG_U8_UPB(n, r)                                                                            \
    ((n)&1 ? (r) >= 128 - SG_SMALL_H16((n) >> 4) : (r) >= 129 + SG_SMALL_H16((n) >> 4))
#define SG_U8_D(g)          (((13 * (g)) >> 8) + SG_U8_UPB((g) + ((13 * (g)) >> 8), (13 * (g)) & 255))
#define SG_U8_ROW_BASE(h)   SG_U8_D(16 * (h))
#define SG_U8_ABOVE(h, l)   (SG_U8_D(16 * (h) + (l)) > SG_U8_ROW_BASE(h))
#define SG_U8_DIP_AT(h, l)  (SG_U8_D(16 * (h) + (l)) == SG_U8_ROW_BASE(h) && SG_U8_ABOVE(h, (l)-1))
#define SG_U8_DIP_AT1(h, l) (((l) + 1) * SG_U8_DIP_AT(h, l))
#define SG_U8_SUM15(F, h)                                                                          \
    (F(h, 1) + F(h, 2) + F(h, 3) + F(h, 4) + F(h, 5) + F(h, 6) + F(h, 7) + F(h, 8) + F(h, 9) +     \
     F(h, 10) + F(h, 11) + F(h, 12) + F(h, 13) + F(h, 14) + F(h, 15))
#define SG_U8_ROW_DIP(h) (SG_U8_SUM15(SG_U8_DIP_AT1, h) - 1)
#define SG_U8_ROW_UP(h)  (15 - SG_U8_SUM15(SG_U8_ABOVE, h) - SG_U8_SUM15(SG_U8_DIP_AT, h))

#endif /* SELUGRAD_KERNELS_SMALL_INT_FIXED_H */
