/*
 * aclnnSelu and aclnnInplaceSelu in CANN's two phases, with the machinery aclnnSeluBackward uses
 * (op/common/aclnn_op.h). Phase 1 checks in the order of docs/contract.md, "Forward aclnn API":
 * NULL pointers (161001); self's, then out's dtype in the SoC's list (161002); equal view shapes
 * (161002); then an empty tensor succeeds with workspace 0; then data, blocks and the output's
 * addresses. Any pair of the list's dtypes is accepted: as ops-nn's aclnnSelu, which checks no
 * castability and casts the result to out's dtype (tensor/convert.h says how).
 */
#include "aclnnop/aclnn_selu.h"

#include "../../core/dispatch.h"
#include "../../tensor/tensor.h"
#include "../common/aclnn_op.h"

/* Phase 1 of both forms: t = {self, out} (the same tensor in place). */
static aclnnStatus sg_selu_phase1(const char *fn, const char *run_name, const aclTensor *const t[2],
                                  const char *const names[2], uint64_t *ws, aclOpExecutor **ex) {
    aclnnStatus rc = sg_op_check_nullptr(fn, t, names, 2, ws, ex);
    if (rc == ACLNN_SUCCESS) rc = sg_op_check_dtype_soc(fn, names[0], t[0]->dtype);
    if (rc == ACLNN_SUCCESS) rc = sg_op_check_dtype_soc(fn, names[1], t[1]->dtype);
    if (rc == ACLNN_SUCCESS) rc = sg_op_check_shape(fn, t, names, 2);
    if (rc == ACLNN_SUCCESS && t[0]->numel != 0) rc = sg_op_check_data(fn, t, names, 2);
    if (rc != ACLNN_SUCCESS) return rc;
    const sg_kernel *k = sg_selu_kernel_for((selugrad_dtype)t[0]->dtype);
    return sg_op_make_executor(fn, run_name, k, t, names, 2, ws, ex);
}

static const char *const sg_names[2] = {"self", "out"};
static const char *const sg_inplace_names[2] = {"selfRef", "selfRef"};

aclnnStatus aclnnSeluGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
    const aclTensor *const t[2] = {self, out};
    return sg_selu_phase1("aclnnSeluGetWorkspaceSize", "aclnnSelu", t, sg_names, workspaceSize,
                          executor);
}

aclnnStatus aclnnSelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                      aclrtStream stream) {
    return sg_op_run("aclnnSelu", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceSeluGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
    const aclTensor *const t[2] = {selfRef, selfRef};
    return sg_selu_phase1("aclnnInplaceSeluGetWorkspaceSize", "aclnnInplaceSelu", t,
                          sg_inplace_names, workspaceSize, executor);
}

aclnnStatus aclnnInplaceSelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                             aclrtStream stream) {
    return sg_op_run("aclnnInplaceSelu", workspace, workspaceSize, executor, stream);
}
