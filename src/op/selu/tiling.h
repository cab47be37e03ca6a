/*
 * The SELU forward's tiling: the OneDim split of SeluGrad (op/selu_grad/tiling.h) with the
 * forward's UB bytes per element. The contract gives none; ours are derived in tiling.c and
 * docs/graph.md.
 */
#ifndef SELUGRAD_OP_SELU_TILING_H
#define SELUGRAD_OP_SELU_TILING_H

#include <stdint.h>

#include "../selu_grad/tiling.h"
#include "selugrad/selugrad.h"

/* UB bytes per element of the forward for dtype; 0 for a dtype it does not have (UINT8). */
int64_t sg_selu_tiling_bytes_per_element(selugrad_dtype dtype);

/* sg_tiling_compute for the forward: SELUGRAD_ERR_BAD_DTYPE for UINT8 or an unknown dtype. */
selugrad_status sg_selu_tiling_compute(int64_t total, int64_t cores, int64_t ub,
                                       selugrad_dtype dtype, sg_tiling *out);

#endif /* SELUGRAD_OP_SELU_TILING_H */
