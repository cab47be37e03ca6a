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

/* Whether t is a live tensor from aclCreateTensor. */
bool sg_tensor_live(const aclTensor *t);

#endif /* SELUGRAD_TENSOR_TENSOR_H */
