/* The aclTensor getters, checked as CANN checks them; the arrays come from sg_i64_array_new. */
#include <string.h>

#include "../runtime/acl_error.h"
#include "i64_array.h"
#include "tensor.h"

/* CANN's checks (161001 for a NULL argument), then liveness (161002). */
static aclnnStatus sg_getter_check(const char *fn, const aclTensor *t, const void *out1,
                                   const void *out2) {
    if (t == NULL) return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: tensor is NULL", fn);
    if (out1 == NULL || out2 == NULL)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           "%s: an out-pointer is NULL (expected the addresses to fill)", fn);
    if (!sg_tensor_live(t))
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: %p is not a live aclTensor (destroyed or unknown)", fn,
                           (const void *)t);
    return ACLNN_SUCCESS;
}

/* *out = a new copy of the n values at src, *num = n. */
static aclnnStatus sg_getter_array(const char *fn, const int64_t *src, uint64_t n, int64_t **out,
                                   uint64_t *num) {
    int64_t *a = sg_i64_array_new(n);
    if (a == NULL) return sg_acl_fail(ACLNN_ERR_INNER_NULLPTR, "%s: out of memory", fn);
    if (n) memcpy(a, src, (size_t)n * sizeof *a);
    *out = a;
    *num = n;
    return ACLNN_SUCCESS;
}

/* The fields are read only after the checks: a NULL or dead tensor is not dereferenced. */
aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
    aclnnStatus rc = sg_getter_check("aclGetViewShape", tensor, viewDims, viewDimsNum);
    if (rc != ACLNN_SUCCESS) return rc;
    return sg_getter_array("aclGetViewShape", tensor->dims, tensor->rank, viewDims, viewDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                              uint64_t *stridesNum) {
    aclnnStatus rc = sg_getter_check("aclGetViewStrides", tensor, stridesValue, stridesNum);
    if (rc != ACLNN_SUCCESS) return rc;
    return sg_getter_array("aclGetViewStrides", tensor->strides, tensor->rank, stridesValue,
                           stridesNum);
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                               uint64_t *storageDimsNum) {
    aclnnStatus rc = sg_getter_check("aclGetStorageShape", tensor, storageDims, storageDimsNum);
    if (rc != ACLNN_SUCCESS) return rc;
    return sg_getter_array("aclGetStorageShape", tensor->storage, tensor->storage_rank, storageDims,
                           storageDimsNum);
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
    aclnnStatus rc = sg_getter_check("aclGetViewOffset", tensor, offset, offset);
    if (rc == ACLNN_SUCCESS) *offset = tensor->offset;
    return rc;
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
    aclnnStatus rc = sg_getter_check("aclGetFormat", tensor, format, format);
    if (rc == ACLNN_SUCCESS) *format = tensor->format;
    return rc;
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
    aclnnStatus rc = sg_getter_check("aclGetDataType", tensor, dataType, dataType);
    if (rc == ACLNN_SUCCESS) *dataType = tensor->dtype;
    return rc;
}

void aclnnSelugradFreeArray(int64_t *array) {
    sg_i64_array_delete(array);
}
