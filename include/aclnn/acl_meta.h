/*
 * CANN's aclnn/acl_meta.h, the part selugrad implements: aclTensor, aclOpExecutor, aclnnStatus
 * and its codes, and the tensor (create, destroy, getters) and executor calls.
 */
#ifndef OP_API_INC_ACL_META_H_
#define OP_API_INC_ACL_META_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifndef ACLNN_API
#if defined(__GNUC__)
#define ACLNN_API __attribute__((visibility("default")))
#else
#define ACLNN_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;

/* aclnnStatus values, as macros like CANN's opdev/op_errno.h: host code that defines them itself
   (CANN's samples do, e.g. `#define ACLNN_ERR_PARAM_NULLPTR 161001`) repeats the same
   definition, which C and C++ allow. */
#define ACLNN_SUCCESS                   0
#define ACLNN_ERR_PARAM_NULLPTR         161001
#define ACLNN_ERR_PARAM_INVALID         161002
#define ACLNN_ERR_RUNTIME_ERROR         361001
#define ACLNN_ERR_INNER                 561000
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101
#define ACLNN_ERR_INNER_NULLPTR         561103

/*
 * A view of tensorData: viewDims and stride (in elements) from offset (in elements), over a
 * storage of storageDims elements. NULL with a message for aclGetRecentErrMsg() on a bad
 * descriptor. stride NULL means row-major strides of viewDims.
 */
ACLNN_API aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
                                     aclDataType dataType, const int64_t *stride, int64_t offset,
                                     aclFormat format, const int64_t *storageDims,
                                     uint64_t storageDimsNum, void *tensorData);
ACLNN_API aclnnStatus aclDestroyTensor(const aclTensor *tensor);

/*
 * The tensor getters, with CANN's signatures and codes: 161001 for a NULL tensor or out-pointer,
 * 161002 for a tensor that is not live, 561103 when an array cannot be allocated. The arrays of
 * aclGetViewShape, aclGetViewStrides and aclGetStorageShape are allocated as CANN allocates them,
 * with C++ `new int64_t[n]` (also for n == 0), and belong to the caller: C++ code frees them with
 * `delete[]`, as with CANN; C code with aclnnSelugradFreeArray.
 */
ACLNN_API aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims,
                                      uint64_t *viewDimsNum);
ACLNN_API aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                                        uint64_t *stridesNum);
ACLNN_API aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                                         uint64_t *storageDimsNum);
ACLNN_API aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
ACLNN_API aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
ACLNN_API aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);

/* selugrad's addition (CANN has none: its users are C++): frees an array from the getters above,
   as delete[] does. NULL is allowed. */
ACLNN_API void aclnnSelugradFreeArray(int64_t *array);

/* Makes an executor runnable many times (on the data then in its buffers) until destroyed. */
ACLNN_API aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACLNN_API aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_ACL_META_H_ */
