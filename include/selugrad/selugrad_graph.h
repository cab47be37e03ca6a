/*
 * selugrad graph side: the SeluGrad operator as the graph engine sees it (docs/contract.md, "Op
 * definition" to "Tiling"): its definition as data, shape and dtype inference, and the NPU's
 * OneDim tiling calculator.
 * Pure functions of values; thread-safe. Failures return a status and leave a message for
 * selugrad_last_error().
 */
#ifndef SELUGRAD_SELUGRAD_GRAPH_H
#define SELUGRAD_SELUGRAD_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "selugrad/selugrad.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Graph-engine conventions: a -1 dim is unknown; the one-dim shape {-2} is an unknown rank. */
#define SELUGRAD_DIM_UNKNOWN  (-1)
#define SELUGRAD_RANK_UNKNOWN (-2)
#define SELUGRAD_MAX_RANK     8  /* highest rank InferShape and tiling accept */
#define SELUGRAD_SHAPE_DIMS   16 /* capacity of selugrad_shape (ranks above 8 can be described) */

typedef struct selugrad_shape {
    size_t rank; /* 0 is a scalar (one element) */
    int64_t dims[SELUGRAD_SHAPE_DIMS];
} selugrad_shape;

/* The op definition as data (ops-nn's selu_grad_def.cpp). */
typedef struct selugrad_op_def {
    const char *op_type;             /* "SeluGrad" */
    size_t num_inputs;               /* 2, both required */
    const char *const *input_names;  /* "gradients", "outputs" */
    size_t num_outputs;              /* 1, required */
    const char *const *output_names; /* "y" */
    size_t num_attrs;                /* 0 */
    size_t num_dtypes;               /* 6 */
    const selugrad_dtype *dtypes;    /* FLOAT16, FLOAT, BF16, INT32, INT8, UINT8 */
    const char *format;              /* "ND" */
} selugrad_op_def;

SELUGRAD_API const selugrad_op_def *selugrad_op_def_get(void);

/*
 * InferShape: *y = *gradients. Fails (SELUGRAD_ERR_BAD_ARGUMENT) when a known rank is above 8,
 * when known ranks differ, or when two known dims differ; -1 matches any dim; an unknown rank
 * skips the comparison but not the other input's rank limit. NULL pointers give
 * SELUGRAD_ERR_NULL_POINTER; a rank above SELUGRAD_SHAPE_DIMS or a dim below -1 (other than the
 * {-2} form) is SELUGRAD_ERR_BAD_ARGUMENT.
 */
SELUGRAD_API selugrad_status selugrad_infer_shape(const selugrad_shape *gradients,
                                                  const selugrad_shape *outputs, selugrad_shape *y);

/* InferDataType: *y = gradients. Fails with SELUGRAD_ERR_BAD_DTYPE when gradients is not in the
   definition's dtype list, SELUGRAD_ERR_NULL_POINTER when y is NULL. outputs is not compared
   here (the tiling and the aclnn layer do). */
SELUGRAD_API selugrad_status selugrad_infer_dtype(selugrad_dtype gradients, selugrad_dtype outputs,
                                                  selugrad_dtype *y);

/* A platform as the tiling sees it. */
typedef struct selugrad_platform {
    int64_t vector_cores; /* >= 1 */
    int64_t ub_bytes;     /* unified buffer bytes per core, >= 0 */
} selugrad_platform;

/* The tiling data (docs/contract.md, "Tiling"). */
typedef struct selugrad_tiling {
    int64_t total_elements; /* 0 for an empty tensor; a scalar counts 1 */
    int64_t block_former;   /* elements per core, a multiple of 32 */
    int64_t ub_former;      /* elements per UB chunk, a multiple of 32, at least 32 (0: empty) */
    int64_t block_dim;      /* cores used, at least 1 */
    int64_t workspace_size; /* always 0 */
} selugrad_tiling;

/* Tiling for known shapes (no -1, ranks 0..8, equal) and equal dtypes on a platform. */
SELUGRAD_API selugrad_status selugrad_tiling_platform(const selugrad_platform *platform,
                                                      const selugrad_shape *gradients,
                                                      const selugrad_shape *outputs,
                                                      selugrad_dtype g_dtype,
                                                      selugrad_dtype o_dtype,
                                                      selugrad_tiling *tiling);

/* The same with the platform of a SoC profile, e.g. "Ascend950" (docs/soc.md). */
SELUGRAD_API selugrad_status selugrad_tiling_soc(const char *soc, const selugrad_shape *gradients,
                                                 const selugrad_shape *outputs,
                                                 selugrad_dtype g_dtype, selugrad_dtype o_dtype,
                                                 selugrad_tiling *tiling);

/* The platform of a SoC name; SELUGRAD_ERR_BAD_ARGUMENT for an unknown name. */
SELUGRAD_API selugrad_status selugrad_soc_platform(const char *soc, selugrad_platform *platform);

/*
 * The SELU forward's graph side (docs/contract.md, "Forward graph side"; docs/graph.md): op type
 * "Selu", input "x", output "y", dtypes FLOAT16, FLOAT, BF16, INT32, INT8, format ND.
 */
SELUGRAD_API const selugrad_op_def *selugrad_selu_op_def_get(void);

/* InferShape: *y = *x (a -1 dim stays -1, the unknown rank {-2} stays). Fails
   (SELUGRAD_ERR_BAD_ARGUMENT) for a known rank above 8 or a shape that is not well formed, as
   selugrad_infer_shape; SELUGRAD_ERR_NULL_POINTER for NULL. */
SELUGRAD_API selugrad_status selugrad_selu_infer_shape(const selugrad_shape *x, selugrad_shape *y);

/* InferDataType: *y = x; SELUGRAD_ERR_BAD_DTYPE for UINT8 or a value that is not a dtype. */
SELUGRAD_API selugrad_status selugrad_selu_infer_dtype(selugrad_dtype x, selugrad_dtype *y);

/* The forward's tiling, ops-nn's arch35 Selu tiling (docs/graph.md): blockFormer and ubFormer in
   multiples of 32 bytes, ubFormer = ub over 16 bytes per element for fp32 and int32, 12 for fp16
   and bf16, 10 for int8. x known, rank 0..8; SELUGRAD_ERR_BAD_ARGUMENT for a UB below one
   32-byte chunk (unless x is empty). */
SELUGRAD_API selugrad_status selugrad_selu_tiling_platform(const selugrad_platform *platform,
                                                           const selugrad_shape *x,
                                                           selugrad_dtype dtype,
                                                           selugrad_tiling *tiling);

/* The same with the platform of a SoC profile. */
SELUGRAD_API selugrad_status selugrad_selu_tiling_soc(const char *soc, const selugrad_shape *x,
                                                      selugrad_dtype dtype,
                                                      selugrad_tiling *tiling);

/* The SoC profiles: how many, and the name of the i-th (NULL past the end). */
SELUGRAD_API size_t selugrad_soc_count(void);
SELUGRAD_API const char *selugrad_soc_name(size_t i);

#ifdef __cplusplus
}
#endif

#endif /* SELUGRAD_SELUGRAD_GRAPH_H */
