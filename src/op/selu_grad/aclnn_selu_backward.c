/*
 * aclnnSeluBackward in CANN's two phases. Phase 1 checks in the order of docs/contract.md,
 * "Phase 1 checks", each check one small function mapped to one code, then plans; phase 2 only
 * queues the plan.
 */
#include "aclnnop/aclnn_selu_backward.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/dtype.h"
#include "../../runtime/acl_error.h"
#include "../../runtime/registry.h"
#include "../../runtime/runtime.h"
#include "../../runtime/stream.h"
#include "../../tensor/tensor.h"
#include "aclnn_exec.h"

#define SG_FN1 "aclnnSeluBackwardGetWorkspaceSize"
#define SG_FN2 "aclnnSeluBackward"

static const char *const sg_names[3] = {"gradOutput", "result", "gradInput"};

static aclnnStatus sg_check_nullptr(const aclTensor *const t[3], const uint64_t *ws,
                                    aclOpExecutor *const *ex) {
    if (ws == NULL)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           SG_FN1 ": workspaceSize is NULL (expected the address of a uint64_t)");
    if (ex == NULL)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           SG_FN1 ": executor is NULL (expected the address of an "
                                  "aclOpExecutor pointer)");
    for (int v = 0; v < 3; v++)
        if (t[v] == NULL)
            return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                               SG_FN1 ": %s is NULL (expected an aclTensor)", sg_names[v]);
    for (int v = 0; v < 3; v++)
        if (!sg_tensor_live(t[v]))
            return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                               SG_FN1 ": %s %p is not a live aclTensor (destroyed or unknown)",
                               sg_names[v], (const void *)t[v]);
    return ACLNN_SUCCESS;
}

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

static aclnnStatus sg_check_dtype_soc(aclDataType dt) {
    const sg_soc *soc = sg_rt_soc();
    if (soc == NULL) /* aclInit refuses the same name; without it, no SoC is guessed */
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           SG_FN1 ": SELUGRAD_SOC=\"%s\" is not a known SoC, so the dtype list "
                                  "is unknown (`selugrad info` lists the SoCs)",
                           sg_soc_env_name());
    if (sg_soc_accepts(soc, (selugrad_dtype)dt)) return ACLNN_SUCCESS;
    char list[160] = "";
    size_t at = 0;
    for (int i = 0; i < SG_DTYPE_COUNT && at < sizeof list; i++)
        if (sg_soc_accepts(soc, sg_dtype_list[i]))
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "",
                                   sg_dtype_acl_name(sg_dtype_list[i]));
    return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                       SG_FN1 ": dtype %s (%d) is not supported on %s (expected %s)",
                       sg_acl_dtype_name(dt), (int)dt, soc->name, list);
}

static void sg_shape_str(const aclTensor *t, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = '\0';
    at += (size_t)snprintf(buf, cap, "[");
    for (uint64_t i = 0; i < t->rank && at < cap; i++)
        at += (size_t)snprintf(buf + at, cap - at, i ? ",%" PRId64 : "%" PRId64, t->dims[i]);
    if (at < cap) snprintf(buf + at, cap - at, "]");
}

static aclnnStatus sg_check_shape(const aclTensor *const t[3]) {
    for (int v = 1; v < 3; v++) {
        bool same = t[v]->rank == t[0]->rank;
        for (uint64_t i = 0; same && i < t[0]->rank; i++)
            if (t[v]->dims[i] != t[0]->dims[i]) same = false;
        if (!same) {
            char a[96], b[96];
            sg_shape_str(t[v], a, sizeof a);
            sg_shape_str(t[0], b, sizeof b);
            return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                               SG_FN1 ": %s shape %s differs from gradOutput shape %s (expected "
                                      "equal shapes, no broadcasting)",
                               sg_names[v], a, b);
        }
    }
    return ACLNN_SUCCESS;
}

static aclnnStatus sg_check_data(const aclTensor *const t[3]) {
    for (int v = 0; v < 3; v++)
        if (t[v]->data == NULL)
            return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                               SG_FN1 ": %s has no data (tensorData NULL for a non-empty view)",
                               sg_names[v]);
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnSeluBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *result,
                                              aclTensor *gradInput, uint64_t *workspaceSize,
                                              aclOpExecutor **executor) {
    const aclTensor *const t[3] = {gradOutput, result, gradInput};
    aclnnStatus rc = sg_check_nullptr(t, workspaceSize, executor);
    if (rc == ACLNN_SUCCESS) rc = sg_check_dtype_same(t);
    if (rc == ACLNN_SUCCESS) rc = sg_check_dtype_soc(t[0]->dtype);
    if (rc == ACLNN_SUCCESS) rc = sg_check_shape(t);
    if (rc != ACLNN_SUCCESS) return rc;
    bool empty = t[0]->numel == 0;
    sg_joint j;
    if (!empty) {
        rc = sg_check_data(t);
        for (int v = 0; v < 3 && rc == ACLNN_SUCCESS; v++)
            rc = sg_tensor_check_block(t[v], SG_FN1, sg_names[v]);
        if (rc != ACLNN_SUCCESS) return rc;
        sg_joint_make(&j, &t[2], 1);
        bool unproven;
        if (sg_joint_self_overlaps(&j, 0, &unproven))
            return unproven ? sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                                          SG_FN1 ": gradInput's interleaved strides could not be "
                                                 "proven to give each element its own address (a "
                                                 "view of over 4M elements spanning more than 2^34 "
                                                 "is not checked; docs/aclnn.md, Views)")
                            : sg_acl_fail(ACLNN_ERR_PARAM_INVALID, SG_FN1
                                          ": gradInput has elements sharing one address (a 0 "
                                          "or interleaved stride; expected each element its "
                                          "own address)");
    }
    aclOpExecutor *ex = sg_ex_new();
    if (ex == NULL) return sg_acl_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, SG_FN1 ": out of memory");
    if (empty)
        ex->mode = SG_EX_EMPTY;
    else
        sg_ex_plan(ex, t);
    *workspaceSize = ex->workspace;
    *executor = ex;
    return ACLNN_SUCCESS;
}

typedef struct sg_run_ctx {
    aclOpExecutor *ex;
    void *workspace;
} sg_run_ctx;

static int32_t sg_run_work(void *arg) {
    sg_run_ctx *c = arg;
    return sg_ex_run(c->ex, c->workspace);
}

static void sg_run_free(void *arg) {
    sg_run_ctx *c = arg;
    sg_ex_release(c->ex);
    free(c);
}

aclnnStatus aclnnSeluBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                              aclrtStream stream) {
    if (executor == NULL)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           SG_FN2 ": executor is NULL (expected the one phase 1 returned)");
    if (!sg_reg_has(executor, SG_H_EXECUTOR))
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           SG_FN2 ": executor %p is not live (already run, destroyed or "
                                  "unknown; make it repeatable to run it again)",
                           (void *)executor);
    if (workspaceSize < executor->workspace)
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           SG_FN2 ": workspaceSize %" PRIu64 " is below the %" PRIu64
                                  " bytes phase 1 asked for",
                           workspaceSize, executor->workspace);
    if (workspace == NULL && executor->workspace > 0)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           SG_FN2 ": workspace is NULL but phase 1 asked for %" PRIu64 " bytes",
                           executor->workspace);
    int32_t err = 0;
    sg_stream *s = sg_stream_resolve(stream, SG_FN2, &err);
    if (s == NULL)
        return sg_acl_recode(err == ACL_ERROR_INVALID_PARAM ? ACLNN_ERR_PARAM_INVALID
                                                            : ACLNN_ERR_RUNTIME_ERROR);
    sg_run_ctx *c = malloc(sizeof *c);
    if (c == NULL) return sg_acl_fail(ACLNN_ERR_INNER, SG_FN2 ": out of memory");
    c->ex = executor;
    c->workspace = workspace;
    /* Claimed atomically against a concurrent destroy or run: a one-shot executor is spent once
       queued (the registry's reference passes to the run, which frees it); a repeatable one
       gains a reference for the run while it is still registered. */
    bool claimed = executor->repeatable
                       ? sg_reg_if_live(executor, SG_H_EXECUTOR, sg_ex_ref, executor)
                       : sg_reg_remove(executor, SG_H_EXECUTOR, NULL);
    if (!claimed) {
        free(c);
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           SG_FN2 ": executor %p is not live (already run or destroyed by "
                                  "another thread meanwhile)",
                           (void *)executor);
    }
    bool small = executor->plan.n * executor->es <= 64 * 1024;
    err = sg_stream_submit(s, sg_run_work, sg_run_free, c, small);
    if (err != 0) return sg_acl_recode(ACLNN_ERR_RUNTIME_ERROR);
    return ACLNN_SUCCESS;
}
