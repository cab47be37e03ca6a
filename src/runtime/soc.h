/*
 * SoC profiles: what the selected Ascend chip decides for SeluGrad (docs/contract.md, "SoC
 * selection"): the dtypes aclnnSeluBackward accepts, and the vector-core count and UB size of
 * the tiling calculator.
 */
#ifndef SELUGRAD_RUNTIME_SOC_H
#define SELUGRAD_RUNTIME_SOC_H

#include <stdbool.h>
#include <stdint.h>

#include "selugrad/selugrad.h"

typedef struct sg_soc {
    const char *name;     /* as aclrtGetSocName() reports it, e.g. "Ascend910B" */
    int64_t vector_cores; /* cores the OneDim tiling splits over */
    int64_t ub_bytes;     /* unified buffer per vector core */
    bool bf16;            /* BF16 accepted by aclnnSeluBackward (910B family and newer) */
} sg_soc;

/* The profile of a name, or NULL for an unknown one. */
const sg_soc *sg_soc_find(const char *name);

/* Whether aclnnSeluBackward accepts dtype on soc (the aclnn column of common/dtypes.inc). */
bool sg_soc_accepts(const sg_soc *soc, selugrad_dtype dtype);

/* All profiles, and how many there are. */
const sg_soc *sg_soc_table(int *count);

/* The name the environment selects: SELUGRAD_SOC, or "Ascend910B" when unset or empty. */
const char *sg_soc_env_name(void);

#define SG_SOC_DEFAULT "Ascend910B"

#endif /* SELUGRAD_RUNTIME_SOC_H */
