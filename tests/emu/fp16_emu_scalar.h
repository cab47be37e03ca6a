/*
 * IEEE binary16 arithmetic in integers, as the AVX512-FP16 instructions compute it lane by lane
 * (Intel SDM, VADDPH, VMULPH, VFMADD*PH, VCVTW2PH, VCVTPH2W, VCMPPH) under the library's MXCSR:
 * round to nearest even, and no flushing of subnormals (FP16 instructions ignore FTZ and DAZ).
 * Every finite binary16 value is an integer times 2^-24 below 2^40 in magnitude, so a sum is an
 * exact integer in units of 2^-24, a product (and a product plus an addend) an exact integer in
 * units of 2^-48 below 2^81 (__int128); one rounding (sge_round) then gives the result. No
 * floating-point arithmetic is used.
 * NaNs (SDM, "Rules for handling NaNs"): the first NaN operand in the order of the intrinsic's
 * arguments, quieted; an invalid operation without a NaN operand (0 * inf, inf - inf) gives the
 * default QNaN 0xFE00. The hardware orders NaN operands by the instruction's sources, which the
 * compiler may permute (commutative VADDPH / VMULPH, the three VFMADD forms); the SeluGrad
 * kernels never give one operation two NaN operands, so their results do not depend on it.
 * Plain C: the vector layer is fp16_emu.h.
 */
#ifndef SELUGRAD_TESTS_EMU_FP16_EMU_SCALAR_H
#define SELUGRAD_TESTS_EMU_FP16_EMU_SCALAR_H

#include <stdint.h>

/* __extension__: -Wpedantic accepts the GNU 128-bit integers only so. */
__extension__ typedef __int128 sge_i128;
__extension__ typedef unsigned __int128 sge_u128;

#define SGE_SIGN        0x8000u
#define SGE_INF         0x7C00u
#define SGE_QUIET       0x0200u
#define SGE_DEFAULT_NAN 0xFE00u /* the "QNaN floating-point indefinite" of binary16 */

static inline int sge_isnan(uint16_t a) {
    return (a & 0x7FFFu) > SGE_INF;
}

static inline int sge_isinf(uint16_t a) {
    return (a & 0x7FFFu) == SGE_INF;
}

static inline int sge_iszero(uint16_t a) {
    return (a & 0x7FFFu) == 0;
}

static inline uint16_t sge_quiet(uint16_t a) {
    return (uint16_t)(a | SGE_QUIET);
}

/* |a| of a finite a in units of 2^-24: a subnormal's significand field counts them; a normal
   value with biased exponent e is (1024 + field) * 2^(e - 25). */
static inline uint64_t sge_units(uint16_t a) {
    uint64_t e = (a >> 10) & 0x1Fu, m = a & 0x3FFu;
    return e ? (m | 0x400u) << (e - 1) : m;
}

/* Index of the highest set bit of m > 0. */
static inline int sge_top_bit(sge_u128 m) {
    uint64_t hi = (uint64_t)(m >> 64), lo = (uint64_t)m;
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);
}

/* The binary16 nearest (ties to even) to (-1)^neg * mag * 2^-frac, mag < 2^100, frac >= 24:
   subnormals kept, beyond the largest finite +-inf. The exponent of the quantum is that of the
   value's binade less 10, and never below -24 (the subnormals'); the rounded significand, with
   its leading one, then adds to the biased exponent field, so that a carry out of it (2048) and a
   subnormal rounding up to 1024 both land on the next encoding. */
static inline uint16_t sge_round(sge_u128 mag, int neg, int frac) {
    uint16_t sign = neg ? (uint16_t)SGE_SIGN : 0;
    if (mag == 0) return sign;
    int e = sge_top_bit(mag) - frac; /* mag * 2^-frac lies in [2^e, 2^(e+1)) */
    if (e < -14) e = -14;
    int drop = e - 10 + frac; /* bits below the quantum 2^(e-10); >= 0 as frac >= 24 */
    sge_u128 kept = mag >> drop;
    if (drop > 0) {
        sge_u128 rest = mag & (((sge_u128)1 << drop) - 1u);
        sge_u128 half = (sge_u128)1 << (drop - 1);
        if (rest > half || (rest == half && (kept & 1u))) kept++;
    }
    sge_u128 bits = ((sge_u128)(e + 14) << 10) + kept;
    if (bits >= SGE_INF) return (uint16_t)(sign | SGE_INF);
    return (uint16_t)(sign | (uint16_t)bits);
}

/* VADDPH: a + b. */
static inline uint16_t sge_add(uint16_t a, uint16_t b) {
    if (sge_isnan(a)) return sge_quiet(a);
    if (sge_isnan(b)) return sge_quiet(b);
    if (sge_isinf(a) || sge_isinf(b)) {
        if (sge_isinf(a) && sge_isinf(b) && ((a ^ b) & SGE_SIGN)) return SGE_DEFAULT_NAN;
        return sge_isinf(a) ? a : b;
    }
    int64_t s = (a & SGE_SIGN ? -(int64_t)sge_units(a) : (int64_t)sge_units(a)) +
                (b & SGE_SIGN ? -(int64_t)sge_units(b) : (int64_t)sge_units(b));
    /* an exact zero is -0 only as -0 + -0; the sum of opposite signs is +0 */
    if (s == 0) return (uint16_t)(a & b & SGE_SIGN);
    return sge_round((sge_u128)(s < 0 ? -s : s), s < 0, 24);
}

/* VMULPH: a * b. */
static inline uint16_t sge_mul(uint16_t a, uint16_t b) {
    if (sge_isnan(a)) return sge_quiet(a);
    if (sge_isnan(b)) return sge_quiet(b);
    uint16_t sign = (uint16_t)((a ^ b) & SGE_SIGN);
    if (sge_isinf(a) || sge_isinf(b)) {
        if (sge_iszero(a) || sge_iszero(b)) return SGE_DEFAULT_NAN;
        return (uint16_t)(sign | SGE_INF);
    }
    return sge_round((sge_u128)sge_units(a) * sge_units(b), sign != 0, 48);
}

/* VFMADD*PH: a * b + c with one rounding. */
static inline uint16_t sge_fma(uint16_t a, uint16_t b, uint16_t c) {
    if (sge_isnan(a)) return sge_quiet(a);
    if (sge_isnan(b)) return sge_quiet(b);
    if (sge_isnan(c)) return sge_quiet(c);
    uint16_t psign = (uint16_t)((a ^ b) & SGE_SIGN);
    if (sge_isinf(a) || sge_isinf(b)) {
        if (sge_iszero(a) || sge_iszero(b)) return SGE_DEFAULT_NAN;
        if (sge_isinf(c) && (c & SGE_SIGN) != psign) return SGE_DEFAULT_NAN;
        return (uint16_t)(psign | SGE_INF);
    }
    if (sge_isinf(c)) return c;
    sge_i128 p = (sge_i128)((sge_u128)sge_units(a) * sge_units(b));
    sge_i128 q = (sge_i128)sge_units(c) << 24; /* units of 2^-48 */
    sge_i128 s = (psign ? -p : p) + (c & SGE_SIGN ? -q : q);
    /* an exact zero is -0 only when the product and c are both zeros of sign -; otherwise +0 */
    if (s == 0) return (uint16_t)(p == 0 && q == 0 ? psign & c & SGE_SIGN : 0);
    return sge_round((sge_u128)(s < 0 ? -s : s), s < 0, 48);
}

/* VCVTW2PH: the int16 v, rounded to binary16 (|v| <= 2^15: never overflows). */
static inline uint16_t sge_cvtw2ph(int16_t v) {
    uint64_t mag = (uint64_t)(v < 0 ? -(int32_t)v : v);
    return v == 0 ? 0 : sge_round((sge_u128)mag << 24, v < 0, 24);
}

/* VCVTPH2W under round to nearest even: a NaN, an infinity or a rounded value outside int16
   gives the integer indefinite 0x8000. */
static inline int16_t sge_cvtph2w(uint16_t a) {
    if (sge_isnan(a) || sge_isinf(a)) return INT16_MIN;
    uint64_t u = sge_units(a), k = u >> 24, rest = u & 0xFFFFFFu;
    if (rest > 0x800000u || (rest == 0x800000u && (k & 1u))) k++;
    int64_t v = a & SGE_SIGN ? -(int64_t)k : (int64_t)k;
    return v < INT16_MIN || v > INT16_MAX ? INT16_MIN : (int16_t)v;
}

/* VCMPPH with _CMP_LT_OQ: ordered and a < b (+0 and -0 equal); never signals on a QNaN. */
static inline int sge_lt_oq(uint16_t a, uint16_t b) {
    if (sge_isnan(a) || sge_isnan(b)) return 0;
    int64_t x = a & SGE_SIGN ? -(int64_t)sge_units(a) : (int64_t)sge_units(a);
    int64_t y = b & SGE_SIGN ? -(int64_t)sge_units(b) : (int64_t)sge_units(b);
    if (sge_isinf(a)) x = a & SGE_SIGN ? -((int64_t)1 << 41) : (int64_t)1 << 41;
    if (sge_isinf(b)) y = b & SGE_SIGN ? -((int64_t)1 << 41) : (int64_t)1 << 41;
    return x < y;
}

/* VCMPPH with _CMP_UNORD_Q: either operand is a NaN. */
static inline int sge_unord_q(uint16_t a, uint16_t b) {
    return sge_isnan(a) || sge_isnan(b);
}

#endif /* SELUGRAD_TESTS_EMU_FP16_EMU_SCALAR_H */
