/*
 * CANN's aclnnop/aclnn_selu_backward.h: SeluGrad in two phases (docs/contract.md, "aclnn API").
 * gradInput = gradOutput * (result + scale*alpha) where result < 0, else gradOutput * scale.
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_SELU_BACKWARD_H_
#define OP_API_INC_LEVEL2_ACLNN_SELU_BACKWARD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: checks the tensors, plans the CPU run, and reports the workspace it needs. */
ACLNN_API aclnnStatus aclnnSeluBackwardGetWorkspaceSize(const aclTensor *gradOutput,
                                                        const aclTensor *result,
                                                        aclTensor *gradInput,
                                                        uint64_t *workspaceSize,
                                                        aclOpExecutor **executor);

/* Phase 2: enqueues the planned run on stream (NULL: the default stream) and returns. */
ACLNN_API aclnnStatus aclnnSeluBackward(void *workspace, uint64_t workspaceSize,
                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_SELU_BACKWARD_H_ */
