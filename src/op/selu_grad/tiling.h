/*
 * The NPU's OneDim tiling of SeluGrad (docs/contract.md, "Tiling"), a pure function of values.
 * The CPU scheduler uses the same function with a CPU profile (cores = threads, ub = cache
 * chunk).
 */
#ifndef SELUGRAD_OP_SELU_GRAD_TILING_H
#define SELUGRAD_OP_SELU_GRAD_TILING_H

#include <stdint.h>

#include "selugrad/selugrad.h"

typedef struct sg_tiling {
    int64_t total_elements;
    int64_t block_former; /* elements per core, a multiple of 32 */
    int64_t ub_former;    /* elements per UB chunk, a multiple of 32, at least 32 */
    int64_t block_dim;    /* cores used */
    int64_t workspace_size;
} sg_tiling;

/* UB bytes the kernel needs per element (inputs, output, both branches, the select mask). */
int64_t sg_tiling_bytes_per_element(selugrad_dtype dtype);

/* Fills *out from the element count, the core count and the UB size in bytes. An empty tensor
   (total == 0) gives block_dim 1 and zeros elsewhere. Fails with SELUGRAD_ERR_BAD_ARGUMENT for
   total < 0, cores < 1 or ub < 0, SELUGRAD_ERR_BAD_DTYPE for an unknown dtype. */
selugrad_status sg_tiling_compute(int64_t total, int64_t cores, int64_t ub, selugrad_dtype dtype,
                                  sg_tiling *out);

/* The same OneDim split for any operator of one element-wise pass: bpe UB bytes per element
   (>= 1, else SELUGRAD_ERR_BAD_ARGUMENT). The SELU forward uses it with its own bpe. */
selugrad_status sg_tiling_compute_bpe(int64_t total, int64_t cores, int64_t ub, int64_t bpe,
                                      sg_tiling *out);

#endif /* SELUGRAD_OP_SELU_GRAD_TILING_H */
