/*
 * Element conversion between the operators' dtypes, for an aclnn output whose dtype differs from
 * the one computed in (docs/aclnn.md, "Output dtype"): floating to floating through fp32 (exact
 * widening, narrowing to nearest even), integer to floating through fp32 (nearest even, so int32
 * to fp16 rounds twice), int8 to int32 exactly, int32 to int8 keeping the low byte (two's
 * complement wrap), floating to int32 truncated toward zero and saturated (NaN gives 0: the
 * contract's int32 rule), floating to int8 that int32 by its low byte (the contract's int8 rule
 * wraps, and int32 to int8 keeps the low byte).
 */
#ifndef SELUGRAD_TENSOR_CONVERT_H
#define SELUGRAD_TENSOR_CONVERT_H

#include <stddef.h>

#include "selugrad/selugrad.h"

/* dst[i] = src[i] converted from `from` to `to`, i < n; contiguous, not overlapping. */
void sg_convert(void *dst, selugrad_dtype to, const void *src, selugrad_dtype from, size_t n);

#endif /* SELUGRAD_TENSOR_CONVERT_H */
