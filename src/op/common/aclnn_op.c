/* The shared aclnn machinery; see aclnn_op.h. */
#include "aclnn_op.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../common/dtype.h"
#include "../../runtime/acl_error.h"
#include "../../runtime/registry.h"
#include "../../runtime/runtime.h"
#include "../../runtime/stream.h"
#include "../../tensor/tensor.h"
#include "../../tensor/view.h"
#include "aclnn_exec.h"

aclnnStatus sg_op_check_nullptr(const char *fn, const aclTensor *const t[],
                                const char *const names[], int nt, const uint64_t *ws,
                                aclOpExecutor *const *ex) {
    if (ws == NULL)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           "%s: workspaceSize is NULL (expected the address of a uint64_t)", fn);
    if (ex == NULL)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           "%s: executor is NULL (expected the address of an aclOpExecutor "
                           "pointer)",
                           fn);
    for (int v = 0; v < nt; v++)
        if (t[v] == NULL)
            return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL (expected an aclTensor)",
                               fn, names[v]);
    for (int v = 0; v < nt; v++)
        if (!sg_tensor_live(t[v]))
            return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                               "%s: %s %p is not a live aclTensor (destroyed or unknown)", fn,
                               names[v], (const void *)t[v]);
    return ACLNN_SUCCESS;
}

aclnnStatus sg_op_check_dtype_soc(const char *fn, const char *name, aclDataType dt) {
    const sg_soc *soc = sg_rt_soc();
    if (soc == NULL) /* aclInit refuses the same name; without it, no SoC is guessed */
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: SELUGRAD_SOC=\"%s\" is not a known SoC, so the dtype list is "
                           "unknown (`selugrad info` lists the SoCs)",
                           fn, sg_soc_env_name());
    if (sg_soc_accepts(soc, (selugrad_dtype)dt)) return ACLNN_SUCCESS;
    char list[160] = "";
    size_t at = 0;
    for (int i = 0; i < SG_DTYPE_COUNT && at < sizeof list; i++)
        if (sg_soc_accepts(soc, sg_dtype_list[i]))
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "",
                                   sg_dtype_acl_name(sg_dtype_list[i]));
    return sg_acl_fail(
        ACLNN_ERR_PARAM_INVALID, "%s: %s%sdtype %s (%d) is not supported on %s (expected %s)", fn,
        name ? name : "", name ? " " : "", sg_acl_dtype_name(dt), (int)dt, soc->name, list);
}

static void sg_shape_str(const aclTensor *t, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = '\0';
    at += (size_t)snprintf(buf, cap, "[");
    for (uint64_t i = 0; i < t->rank && at < cap; i++)
        at += (size_t)snprintf(buf + at, cap - at, i ? ",%" PRId64 : "%" PRId64, t->dims[i]);
    if (at < cap) snprintf(buf + at, cap - at, "]");
}

aclnnStatus sg_op_check_shape(const char *fn, const aclTensor *const t[], const char *const names[],
                              int nt) {
    for (int v = 1; v < nt; v++) {
        bool same = t[v]->rank == t[0]->rank;
        for (uint64_t i = 0; same && i < t[0]->rank; i++)
            if (t[v]->dims[i] != t[0]->dims[i]) same = false;
        if (!same) {
            char a[96], b[96];
            sg_shape_str(t[v], a, sizeof a);
            sg_shape_str(t[0], b, sizeof b);
            return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                               "%s: %s shape %s differs from %s shape %s (expected equal "
                               "shapes, no broadcasting)",
                               fn, names[v], a, names[0], b);
        }
    }
    return ACLNN_SUCCESS;
}

aclnnStatus sg_op_check_data(const char *fn, const aclTensor *const t[], const char *const names[],
                             int nt) {
    for (int v = 0; v < nt; v++)
        if (t[v]->data == NULL)
            return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                               "%s: %s has no data (tensorData NULL for a non-empty view)", fn,
                               names[v]);
    aclnnStatus rc = ACLNN_SUCCESS;
    for (int v = 0; v < nt && rc == ACLNN_SUCCESS; v++)
        rc = sg_tensor_check_block(t[v], fn, names[v]);
    if (rc != ACLNN_SUCCESS) return rc;
    sg_joint j;
    sg_joint_make(&j, &t[nt - 1], 1);
    bool unproven;
    if (!sg_joint_self_overlaps(&j, 0, &unproven)) return ACLNN_SUCCESS;
    const char *out = names[nt - 1];
    return unproven ? sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                                  "%s: %s's interleaved strides could not be proven to give each "
                                  "element its own address (a view of over 4M elements spanning "
                                  "more than 2^34 is not checked; docs/aclnn.md, Views)",
                                  fn, out)
                    : sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                                  "%s: %s has elements sharing one address (a 0 or interleaved "
                                  "stride; expected each element its own address)",
                                  fn, out);
}

aclnnStatus sg_op_make_executor(const char *fn, const char *run_name, const sg_kernel *k,
                                const aclTensor *const t[], const char *const names[], int nt,
                                uint64_t *ws, aclOpExecutor **executor) {
    aclOpExecutor *ex = sg_ex_new();
    if (ex == NULL) return sg_acl_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: out of memory", fn);
    ex->run_name = run_name;
    ex->names = names;
    for (int v = 0; v < nt && t[0]->numel != 0; v++) {
        sg_reg_block blk;
        if (sg_reg_block_of(t[v]->data, &blk)) {
            ex->blk_start[v] = blk.start;
            ex->blk_size[v] = blk.size;
        }
    }
    if (t[0]->numel == 0) {
        ex->mode = SG_EX_EMPTY;
    } else if (!sg_ex_plan(ex, k, t, nt)) {
        if (sg_reg_remove(ex, SG_H_EXECUTOR, NULL)) sg_ex_release(ex);
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: the workspace for %" PRId64 " elements would exceed 2^63 - 1 "
                           "bytes (views that must be copied through it are too large)",
                           fn, t[0]->numel);
    }
    *ws = ex->workspace;
    *executor = ex;
    return ACLNN_SUCCESS;
}

typedef struct sg_run_ctx {
    aclOpExecutor *ex;
    void *workspace;
    const void *pinned[4]; /* the blocks of the tensors and the workspace, pinned until done */
} sg_run_ctx;

static int32_t sg_run_work(void *arg) {
    sg_run_ctx *c = arg;
    return sg_ex_run(c->ex, c->workspace);
}

static void sg_run_free(void *arg) {
    sg_run_ctx *c = arg;
    sg_reg_unpin(c->pinned, 4);
    sg_ex_release(c->ex);
    free(c);
}

aclnnStatus sg_op_run(const char *fn, void *workspace, uint64_t workspace_size,
                      aclOpExecutor *executor, aclrtStream stream) {
    if (executor == NULL)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           "%s: executor is NULL (expected the one phase 1 returned)", fn);
    if (!sg_reg_has(executor, SG_H_EXECUTOR))
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: executor %p is not live (already run, destroyed or unknown; make "
                           "it repeatable to run it again)",
                           fn, (void *)executor);
    for (int v = 0; v < executor->nt; v++) {
        sg_reg_block blk; /* the memory a view lay in at phase 1 is still there */
        const void *start = executor->blk_start[v];
        if (start != NULL && (!sg_reg_block_of(start, &blk) || blk.start != start ||
                              blk.size < executor->blk_size[v]))
            return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                               "%s: %s lay in a block of %zu bytes at %p at phase 1, which has "
                               "been freed (expected the tensors' memory to live until the run "
                               "is done)",
                               fn, executor->names[v], executor->blk_size[v], start);
    }
    if (workspace_size < executor->workspace)
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: workspaceSize %" PRIu64 " is below the %" PRIu64
                           " bytes phase 1 asked for",
                           fn, workspace_size, executor->workspace);
    if (workspace == NULL && executor->workspace > 0)
        return sg_acl_fail(ACLNN_ERR_PARAM_NULLPTR,
                           "%s: workspace is NULL but phase 1 asked for %" PRIu64 " bytes", fn,
                           executor->workspace);
    sg_reg_block blk; /* a workspace in a known block must hold what phase 1 asked for */
    uint64_t at;
    if (workspace != NULL && !sg_reg_block_holds(workspace, executor->workspace, &blk, &at))
        return sg_acl_fail(
            ACLNN_ERR_PARAM_INVALID,
            "%s: workspace %p is %" PRIu64 " bytes into a block of %zu bytes "
            "from %s, which leaves fewer than the %" PRIu64 " bytes phase 1 asked for",
            fn, workspace, at, blk.size, sg_reg_block_origin(&blk), executor->workspace);
    int meets = sg_ex_workspace_meets(executor, workspace);
    if (meets >= 0)
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: workspace %p (%" PRIu64 " bytes used) meets the address span "
                           "of %s, from its first element to its last (expected a workspace "
                           "apart from the tensors, e.g. from aclrtMalloc)",
                           fn, workspace, executor->workspace, executor->names[meets]);
    int32_t err = 0;
    sg_stream *s = sg_stream_resolve(stream, fn, &err);
    if (s == NULL)
        return sg_acl_recode(err == ACL_ERROR_INVALID_PARAM ? ACLNN_ERR_PARAM_INVALID
                                                            : ACLNN_ERR_RUNTIME_ERROR);
    sg_run_ctx *c = malloc(sizeof *c);
    if (c == NULL) return sg_acl_fail(ACLNN_ERR_INNER, "%s: out of memory", fn);
    *c = (sg_run_ctx){executor, workspace, {NULL}};
    /* The blocks stay allocated until the run is done: an aclrtFree meanwhile waits for it. */
    size_t sizes[4] = {0};
    for (int v = 0; v < executor->nt; v++) {
        c->pinned[v] = executor->blk_start[v];
        sizes[v] = executor->blk_size[v];
    }
    if (!sg_reg_pin(c->pinned, sizes, executor->nt)) {
        free(c);
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: a block a tensor lay in at phase 1 is being freed by another "
                           "thread (expected the tensors' memory to live until the run is done)",
                           fn);
    }
    if (workspace != NULL && executor->workspace > 0 && sg_reg_block_of(workspace, &blk)) {
        c->pinned[3] = blk.start;
        sizes[3] = blk.size;
        if (!sg_reg_pin(&c->pinned[3], &sizes[3], 1)) {
            c->pinned[3] = NULL;
            sg_reg_unpin(c->pinned, 3);
            free(c);
            return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                               "%s: workspace %p's block is being freed by another thread "
                               "(expected it to live until the run is done)",
                               fn, workspace);
        }
    }
    /* Claimed atomically against a concurrent destroy or run: a one-shot executor is spent once
       queued (the registry's reference passes to the run, which frees it); a repeatable one
       gains a reference for the run while it is still registered. */
    bool claimed = executor->repeatable
                       ? sg_reg_if_live(executor, SG_H_EXECUTOR, sg_ex_ref, executor)
                       : sg_reg_remove(executor, SG_H_EXECUTOR, NULL);
    if (!claimed) {
        sg_reg_unpin(c->pinned, 4);
        free(c);
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: executor %p is not live (already run or destroyed by another "
                           "thread meanwhile)",
                           fn, (void *)executor);
    }
    bool small = executor->plan.n * executor->es <= 64 * 1024;
    err = sg_stream_submit(s, sg_run_work, sg_run_free, c, small);
    if (err != 0) return sg_acl_recode(ACLNN_ERR_RUNTIME_ERROR);
    return ACLNN_SUCCESS;
}
