/*
 * CANN's aclnn/acl_meta.h, the part selugrad implements: aclTensor, aclOpExecutor, aclnnStatus
 * and its codes, and the tensor and executor calls.
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

/* Makes an executor runnable many times (on the data then in its buffers) until destroyed. */
ACLNN_API aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACLNN_API aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_ACL_META_H_ */
