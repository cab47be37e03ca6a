/*
 * The independent model of the SELU forward (docs/contract.md, "Forward per-dtype computation") for
 * the tests, in the style of golden.h: no code shared with src/, every operation in double then
 * rounded to the target format by gm_round (nearest even) or gm_round_away (nearest, ties away from
 * zero; modes toward zero and up for the int8 path), never float arithmetic. The exponential is a
 * parameter: the correctly rounded one (float64 exp rounded to fp32, gs_exp_cr), or any fp32 exp
 * under test, so that the order of operations and every rounding can be checked bit for bit apart
 * from the exp.
 */
#ifndef SELUGRAD_TESTS_MODEL_SELU_GOLDEN_H
#define SELUGRAD_TESTS_MODEL_SELU_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#include "golden.h"

/* An fp32 exponential on fp32 bit patterns. */
typedef uint32_t (*gs_exp_fn)(uint32_t x);

/* float64 exp of the fp32 x, rounded to fp32 (nearest even). */
uint32_t gs_exp_cr(uint32_t x);

/* x rounded to fmt, nearest with ties away from zero; subnormals kept, overflow to +-inf. */
double gm_round_away(double x, gm_fmt fmt);

/* The forward per dtype, on bit patterns / integers, with the exponential ex. */
uint32_t gs_selu_f32(uint32_t x, gs_exp_fn ex);
uint16_t gs_selu_f16(uint16_t x, gs_exp_fn ex);
uint16_t gs_selu_bf16(uint16_t x, gs_exp_fn ex);
int32_t gs_selu_s32(int32_t x, gs_exp_fn ex);
int8_t gs_selu_s8(int8_t x, gs_exp_fn ex);

/* expect[i] = forward(x[i]) for arrays of the dtype (a selugrad_dtype value); 0 for a dtype the
   forward does not have. */
int gs_selu_array(int dtype, size_t n, const void *x, void *expect, gs_exp_fn ex);

/* The float64 golden of element i of x (a selugrad_dtype value) for the precision standard
   (docs/contract.md, "Forward math"): S * (max(0, x) + min(0, A * (exp(x) - 1))) in double with
   the fp32 constants A and S the contract computes with ("Forward per-dtype computation"), exp(x) -
   1 as expm1(x) (which keeps its digits near 0), not rounded to the dtype; a NaN x gives NaN, -0.0
   gives +0.0 (0 + -0 in the sum), -inf gives -S * A. Integer dtypes: the exact integer result of
   the contract (gs_selu_s32 / gs_selu_s8; neither depends on the exponential). 0.0 for a dtype
   the forward does not have. */
double gs_selu_f64(int dtype, const void *x, size_t i);

#endif /* SELUGRAD_TESTS_MODEL_SELU_GOLDEN_H */
