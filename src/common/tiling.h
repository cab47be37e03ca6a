/*
 * The NPU's OneDim tiling (docs/contract.md, "Tiling"), a pure function of values. The graph side
 * (op/selu_grad/graph_api.c) reports it for a SoC; the CPU planner (core/exec.c) uses the same
 * function with a CPU profile (cores = threads, ub = cache chunk), for SeluGrad and the SELU
 * forward alike, so it sits below both. The forward's graph side reports its own NPU tiling
 * (sg_selu_tiling_compute, op/selu/graph.c).
 */
#ifndef SELUGRAD_COMMON_TILING_H
#define SELUGRAD_COMMON_TILING_H

#include <stdint.h>

#include "selugrad/selugrad.h"

typedef struct sg_tiling {
    int64_t total_elements;
    int64_t block_former; /* elements per core, a multiple of 32 (the forward's: of 32 bytes) */
    int64_t ub_former;    /* elements per UB chunk, likewise, at least one multiple */
    int64_t block_dim;    /* cores used */
    int64_t workspace_size;
} sg_tiling;

/* Fills *out from the element count, the core count and the UB size in bytes. An empty tensor
   (total == 0) gives block_dim 1 and zeros elsewhere. Fails with SELUGRAD_ERR_BAD_ARGUMENT for
   total < 0, cores < 1 or ub < 0, SELUGRAD_ERR_BAD_DTYPE for an unknown dtype. */
selugrad_status sg_tiling_compute(int64_t total, int64_t cores, int64_t ub, selugrad_dtype dtype,
                                  sg_tiling *out);

/* The SELU forward's NPU tiling (docs/graph.md, "The SELU forward"): as sg_tiling_compute, but
   blockFormer and ubFormer are multiples of 32 bytes of the dtype, and ubFormer is the UB over
   the forward's bytes per element with nothing reserved (SELUGRAD_ERR_BAD_ARGUMENT when that is
   not one multiple). SELUGRAD_ERR_BAD_DTYPE also for a dtype the forward does not have (UINT8). */
selugrad_status sg_selu_tiling_compute(int64_t total, int64_t cores, int64_t ub,
                                       selugrad_dtype dtype, sg_tiling *out);

/* The same OneDim split for any operator of one element-wise pass: bpe UB bytes per element
   (>= 1, else SELUGRAD_ERR_BAD_ARGUMENT). */
selugrad_status sg_tiling_compute_bpe(int64_t total, int64_t cores, int64_t ub, int64_t bpe,
                                      sg_tiling *out);

#endif /* SELUGRAD_COMMON_TILING_H */
