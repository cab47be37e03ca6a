/*
 * CANN's aclnnop/aclnn_selu.h: the SELU forward in two phases (docs/contract.md, "Forward aclnn
 * API"). out = scale * (max(0, self) + min(0, alpha * (exp(self) - 1))), per dtype as
 * docs/numerics.md says.
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_SELU_H_
#define OP_API_INC_LEVEL2_ACLNN_SELU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1 of out = selu(self): checks the tensors, plans the CPU run, and reports the workspace
   it needs. out may have another dtype than self where CANN casts (an integer self to any, a
   floating one to another floating one); the result is computed in self's dtype, then
   converted (docs/aclnn.md). */
ACLNN_API aclnnStatus aclnnSeluGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned run on stream (NULL: the default stream) and returns. */
ACLNN_API aclnnStatus aclnnSelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                aclrtStream stream);

/* Phase 1 of selfRef = selu(selfRef), in place. */
ACLNN_API aclnnStatus aclnnInplaceSeluGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                       aclOpExecutor **executor);

/* Phase 2 of the in-place form. */
ACLNN_API aclnnStatus aclnnInplaceSelu(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_SELU_H_ */
