/* aclCreateTensor / aclDestroyTensor: every descriptor field checked, overflow included. */
#include "tensor.h"

#include <stdlib.h>
#include <string.h>

#include "../runtime/acl_error.h"
#include "../runtime/registry.h"
#include "selugrad/selugrad.h"

size_t aclDataTypeSize(aclDataType dataType) {
    switch (dataType) {
#define SG_ACL_DTYPE(name, size)                                                                   \
    case name:                                                                                     \
        return size;
#include "acl_dtypes.inc"
#undef SG_ACL_DTYPE
    }
    return 0;
}

const char *sg_acl_dtype_name(aclDataType dataType) {
    switch (dataType) {
#define SG_ACL_DTYPE(name, size)                                                                   \
    case name:                                                                                     \
        return #name;
#include "acl_dtypes.inc"
#undef SG_ACL_DTYPE
    }
    return "an unknown aclDataType";
}

/* The element types of the dtype list carry the aclDataType of the same number. */
#define SG_DTYPE(tag, dtype, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases)                      \
    _Static_assert((int)(dtype) == (int)(acl), #tag ": selugrad_dtype and aclDataType agree");
#include "../common/dtypes.inc"
#undef SG_DTYPE

bool sg_tensor_live(const aclTensor *t) {
    return t != NULL && sg_reg_has(t, SG_H_TENSOR);
}

/* *acc *= d, false on int64 overflow (d >= 0, *acc >= 0). */
static bool sg_mul_ok(int64_t *acc, int64_t d) {
    if (d != 0 && *acc > INT64_MAX / d) return false;
    *acc *= d;
    return true;
}

/* Product of dims into *numel; a message and false on a negative dim or an overflow. */
static bool sg_dims_ok(const char *what, const int64_t *dims, uint64_t n, int64_t *numel) {
    int64_t acc = 1;
    bool overflow = false;
    for (uint64_t i = 0; i < n; i++) {
        if (dims[i] < 0) {
            sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                        "aclCreateTensor: %s[%llu] is %lld (expected >= 0)", what,
                        (unsigned long long)i, (long long)dims[i]);
            return false;
        }
        if (!overflow && !sg_mul_ok(&acc, dims[i])) overflow = true;
    }
    /* A zero dim makes the tensor empty whatever the others are. */
    for (uint64_t i = 0; i < n && overflow; i++)
        if (dims[i] == 0) overflow = false, acc = 0;
    if (overflow) {
        sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                    "aclCreateTensor: the element count of %s overflows int64", what);
        return false;
    }
    *numel = acc;
    return true;
}

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format,
                           const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData) {
    const char *fn = "aclCreateTensor";
    if (viewDims == NULL && viewDimsNum != 0) {
        sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: viewDims is NULL but viewDimsNum is %llu", fn,
                    (unsigned long long)viewDimsNum);
        return NULL;
    }
    if (storageDims == NULL && storageDimsNum != 0) {
        sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: storageDims is NULL but storageDimsNum is %llu",
                    fn, (unsigned long long)storageDimsNum);
        return NULL;
    }
    if (viewDimsNum > 4096 || storageDimsNum > 4096) {
        sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                    "%s: viewDimsNum %llu / storageDimsNum %llu (expected at most 4096)", fn,
                    (unsigned long long)viewDimsNum, (unsigned long long)storageDimsNum);
        return NULL;
    }
    /* Any dataType value is kept, as CANN's aclCreateTensor keeps it: an operator refuses the
       ones it does not support (aclnnSeluBackward: 161002). One without a whole-byte size here
       (undefined, unknown, narrower than a byte) counts as 1 byte for the storage-size check. */
    size_t es = aclDataTypeSize(dataType);
    if (es == 0) es = 1;
    if (offset < 0) {
        sg_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: offset is %lld (expected >= 0)", fn,
                    (long long)offset);
        return NULL;
    }
    int64_t numel, snumel;
    if (!sg_dims_ok("viewDims", viewDims, viewDimsNum, &numel)) return NULL;
    if (!sg_dims_ok("storageDims", storageDims, storageDimsNum, &snumel)) return NULL;
    if (snumel > INT64_MAX / (int64_t)es) {
        sg_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the storage's byte count overflows int64", fn);
        return NULL;
    }
    /* Row-major strides when none are given. */
    size_t r = (size_t)viewDimsNum;
    aclTensor *t = calloc(1, sizeof *t + (2 * r + (size_t)storageDimsNum) * sizeof(int64_t));
    if (t == NULL) {
        sg_acl_fail(ACLNN_ERR_INNER, "%s: out of memory", fn);
        return NULL;
    }
    t->dims = (int64_t *)(t + 1);
    t->strides = t->dims + r;
    t->storage = t->strides + r;
    if (r) memcpy(t->dims, viewDims, r * sizeof(int64_t));
    if (storageDimsNum) memcpy(t->storage, storageDims, (size_t)storageDimsNum * sizeof(int64_t));
    int64_t run = 1;
    for (size_t i = r; i-- > 0;) {
        t->strides[i] = stride ? stride[i] : run;
        if (!stride && viewDims[i] > 0 && run <= INT64_MAX / viewDims[i]) run *= viewDims[i];
    }
    /* The view's last element: offset + sum((d - 1) * s) must lie inside the storage. */
    int64_t reach = offset;
    bool overflow = false;
    for (size_t i = 0; i < r; i++) {
        if (t->strides[i] < 0) {
            sg_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: stride[%zu] is %lld (expected >= 0)", fn, i,
                        (long long)t->strides[i]);
            free(t);
            return NULL;
        }
        int64_t ext = t->dims[i] > 0 ? t->dims[i] - 1 : 0;
        if (ext != 0 && t->strides[i] > (INT64_MAX - reach) / ext)
            overflow = true;
        else
            reach += ext * t->strides[i];
    }
    if (numel > 0 && overflow) {
        sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                    "%s: the view's last element, offset + sum((dim - 1) * stride), is beyond "
                    "2^63 - 1 but the storage holds %lld elements",
                    fn, (long long)snumel);
        free(t);
        return NULL;
    }
    if (numel > 0 && reach >= snumel) {
        sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                    "%s: the view reaches element %lld but the storage holds %lld elements "
                    "(expected offset + sum((dim - 1) * stride) < product(storageDims))",
                    fn, (long long)reach, (long long)snumel);
        free(t);
        return NULL;
    }
    t->rank = viewDimsNum;
    t->storage_rank = storageDimsNum;
    t->offset = offset;
    t->numel = numel;
    t->storage_numel = snumel;
    t->dtype = dataType;
    t->format = format;
    t->data = tensorData;
    if (!sg_reg_add(t, SG_H_TENSOR,
                    sizeof *t + (2 * r + (size_t)storageDimsNum) * sizeof(int64_t))) {
        free(t);
        sg_acl_fail(ACLNN_ERR_INNER, "%s: out of memory", fn);
        return NULL;
    }
    return t;
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    if (tensor == NULL) return ACLNN_SUCCESS; /* as CANN: nothing to destroy */
    size_t bytes = 0;
    if (!sg_reg_remove(tensor, SG_H_TENSOR, &bytes))
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "aclDestroyTensor: %p is not a live tensor (unknown or already "
                           "destroyed)",
                           (const void *)tensor);
    sg_reg_retire((void *)(uintptr_t)tensor, bytes);
    return ACLNN_SUCCESS;
}
