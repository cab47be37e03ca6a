/* aclTensor: a strided view (in elements) over a storage buffer, as aclCreateTensor describes it.
 */
#ifndef SELUGRAD_TENSOR_TENSOR_H
#define SELUGRAD_TENSOR_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aclnn/acl_meta.h"

struct aclTensor {
    uint64_t rank;
    int64_t *dims;    /* rank view dims */
    int64_t *strides; /* rank strides, elements */
    int64_t offset;   /* elements */
    uint64_t storage_rank;
    int64_t *storage; /* storage dims */
    int64_t numel;    /* view elements (1 for rank 0) */
    int64_t storage_numel;
    aclDataType dtype;
    aclFormat format;
    void *data;
};

/* "ACL_FLOAT16" and so on for every aclDataType value; "an unknown aclDataType" for others. */
const char *sg_acl_dtype_name(aclDataType dataType);

/* Whether t is a live tensor from aclCreateTensor. */
bool sg_tensor_live(const aclTensor *t);

/* The elements of the view at offset + sum(i * stride), in elements from the data pointer: the
   lowest lo and the highest hi (for a non-empty view). */
void sg_tensor_span(const aclTensor *t, int64_t *lo, int64_t *hi);

/* A non-empty view whose data pointer lies in a live aclrtMalloc / aclrtMallocHost block (or just
   past its end) must have every element inside that block: else 161002 with a message naming fn
   and the tensor's name. A pointer into no known block (the program's own memory) passes. */
aclnnStatus sg_tensor_check_block(const aclTensor *t, const char *fn, const char *name);

#endif /* SELUGRAD_TENSOR_TENSOR_H */
