/*
 * aclnnSeluBackward in CANN's two phases. Phase 1 checks in the order of docs/contract.md,
 * "Phase 1 checks", each check one small function mapped to one code (op/common/aclnn_op.h),
 * then plans; phase 2 only queues the plan.
 */
#include "aclnnop/aclnn_selu_backward.h"

#include "../../core/dispatch.h"
#include "../../runtime/acl_error.h"
#include "../../tensor/tensor.h"
#include "../common/aclnn_op.h"

#define SG_FN1 "aclnnSeluBackwardGetWorkspaceSize"
#define SG_FN2 "aclnnSeluBackward"

static const char *const sg_names[3] = {"gradOutput", "result", "gradInput"};

static aclnnStatus sg_check_dtype_same(const aclTensor *const t[3]) {
    for (int v = 1; v < 3; v++)
        if (t[v]->dtype != t[0]->dtype)
            return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                               SG_FN1 ": %s dtype %s (%d) differs from gradOutput dtype %s (%d) "
                                      "(expected all three equal)",
                               sg_names[v], sg_acl_dtype_name(t[v]->dtype), (int)t[v]->dtype,
                               sg_acl_dtype_name(t[0]->dtype), (int)t[0]->dtype);
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnSeluBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *result,
                                              aclTensor *gradInput, uint64_t *workspaceSize,
                                              aclOpExecutor **executor) {
    const aclTensor *const t[3] = {gradOutput, result, gradInput};
    aclnnStatus rc = sg_op_check_nullptr(SG_FN1, t, sg_names, 3, workspaceSize, executor);
    if (rc == ACLNN_SUCCESS) rc = sg_check_dtype_same(t);
    if (rc == ACLNN_SUCCESS) rc = sg_op_check_dtype_soc(SG_FN1, NULL, t[0]->dtype);
    if (rc == ACLNN_SUCCESS) rc = sg_op_check_shape(SG_FN1, t, sg_names, 3);
    if (rc == ACLNN_SUCCESS && t[0]->numel != 0) rc = sg_op_check_data(SG_FN1, t, sg_names, 3);
    if (rc != ACLNN_SUCCESS) return rc;
    const sg_kernel *k = sg_kernel_for((selugrad_dtype)t[0]->dtype);
    return sg_op_make_executor(SG_FN1, SG_FN2, k, t, sg_names, 3, workspaceSize, executor);
}

aclnnStatus aclnnSeluBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                              aclrtStream stream) {
    return sg_op_run(SG_FN2, workspace, workspaceSize, executor, stream);
}
