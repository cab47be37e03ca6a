/*
 * The independent model of the SeluGrad contract ("the golden", docs/contract.md, "Math" and
 * "Per-dtype computation"): the oracle of the tests and the judge of the selugrad command
 * (compute, verify, st, run).
 *
 * It shares no code with src/: it decodes fp32/fp16/bf16 bit patterns from their fields with
 * powers of two, computes every operation in double (exact for products of two of these values;
 * a sum rounded to double first is harmless since 53 >= 2p + 2), and rounds to the target format
 * with its own round-half-even on the significand scaled by frexp and powers of two (subnormals
 * kept, overflow to inf). It never does arithmetic in float. test_battery_golden checks it
 * against the contract's reference values and against the compiler's double -> float conversion.
 */
#ifndef SELUGRAD_TESTS_MODEL_GOLDEN_H
#define SELUGRAD_TESTS_MODEL_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

/* A binary floating-point format: precision in bits (hidden bit included), exponent bits. */
typedef struct gm_fmt {
    int prec;
    int ebits;
} gm_fmt;

extern const gm_fmt gm_f32, gm_f16, gm_bf16;

/* x rounded to fmt, nearest with ties to even; subnormals kept, overflow to +-inf. */
double gm_round(double x, gm_fmt fmt);

/* Value of a bit pattern of fmt (NaN for any NaN pattern). */
double gm_value(uint32_t bits, gm_fmt fmt);

/* Bit pattern of v, which must be exactly representable in fmt; NaN gives the canonical quiet
   NaN (fp32 0x7FC00000, fp16 0x7E00, bf16 0x7FC0). */
uint32_t gm_bits(double v, gm_fmt fmt);

/* SeluGrad per docs/contract.md, "Per-dtype computation", on bit patterns / integers. */
uint32_t gm_selugrad_f32(uint32_t g, uint32_t o);
uint16_t gm_selugrad_f16(uint16_t g, uint16_t o);
uint16_t gm_selugrad_bf16(uint16_t g, uint16_t o);
int8_t gm_selugrad_s8(int8_t g, int8_t o);
uint8_t gm_selugrad_u8(uint8_t g, uint8_t o);
int32_t gm_selugrad_s32(int32_t g, int32_t o);

/* Round half to even of a double that is a multiple of 2^-24 with |x| < 2^39, in integers. */
int64_t gm_round_half_even_int(double x);

/* One element of the dtype (a selugrad_dtype value) read from g and o and written to y as raw
   bytes, at any alignment. Returns 0 (nothing written) for an unknown dtype, else 1. */
int gm_selugrad_element(int dtype, const void *g, const void *o, void *y);

/* Fills expect[i] = golden(g[i], o[i]) for arrays of the dtype; nothing for an unknown dtype. */
void gm_selugrad_array(int dtype, size_t n, const void *g, const void *o, void *expect);

/* The format of a floating-point dtype in *fmt: 1; 0 for any other dtype. */
int gm_fmt_of(int dtype, gm_fmt *fmt);

/* Element i of an array of the dtype as a double (exact for every dtype). */
double gm_element(int dtype, const void *data, size_t i);

/* The float64 golden of element i for the precision standard (docs/contract.md, "Precision
   standard"): the formula in double with the dtype's own constants, g * (o + SA) where o < 0
   else g * scale, not rounded to the dtype. The dtype's constants rather than the exact decimal
   ones: near o = -SA, where o + SA cancels, an fp16 or bf16 result would otherwise be off by up
   to 100 % through no fault of the computation. Integer dtypes: the exact integer result. */
double gm_selugrad_f64(int dtype, const void *g, const void *o, size_t i);

#endif /* SELUGRAD_TESTS_MODEL_GOLDEN_H */
