#include "aclnn_exec.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/dispatch.h"
#include "../../core/pool.h"
#include "../../runtime/acl_error.h"
#include "../../runtime/registry.h"

enum { SG_WS_ALIGN = 64 };

aclOpExecutor *sg_ex_new(void) {
    aclOpExecutor *ex = calloc(1, sizeof *ex);
    if (ex == NULL) return NULL;
    atomic_init(&ex->refs, 1);
    if (!sg_reg_add(ex, SG_H_EXECUTOR, 0)) {
        free(ex);
        return NULL;
    }
    return ex;
}

void sg_ex_ref(void *ex) {
    atomic_fetch_add(&((aclOpExecutor *)ex)->refs, 1);
}

void sg_ex_release(aclOpExecutor *ex) {
    if (atomic_fetch_sub(&ex->refs, 1) == 1) sg_reg_retire(ex, sizeof *ex);
}

/* Whether views a and b of the joint shape are the very same elements in the same order. */
static bool sg_same_view(const aclOpExecutor *ex, int a, int b) {
    if (ex->base[a] != ex->base[b]) return false;
    for (int i = 0; i < ex->joint.rank; i++)
        if (ex->joint.strides[a][i] != ex->joint.strides[b][i]) return false;
    return true;
}

static bool sg_spans_meet(const aclOpExecutor *ex, int a, int b) {
    const char *alo = ex->base[a], *blo = ex->base[b];
    const char *ahi = alo + (size_t)sg_joint_reach(&ex->joint, a) * ex->es + ex->es;
    const char *bhi = blo + (size_t)sg_joint_reach(&ex->joint, b) * ex->es + ex->es;
    return alo < bhi && blo < ahi;
}

void sg_ex_plan(aclOpExecutor *ex, const aclTensor *const t[3]) {
    ex->es = aclDataTypeSize(t[0]->dtype);
    for (int v = 0; v < 3; v++) ex->base[v] = (char *)t[v]->data + (size_t)t[v]->offset * ex->es;
    sg_joint_make(&ex->joint, t, 3);
    size_t n = (size_t)t[0]->numel;
    const sg_kernel *k = sg_kernel_for((selugrad_dtype)t[0]->dtype);
    sg_plan_make(&ex->plan, k, n, sg_threads_default());
    /* One strided run per tensor when the views coalesce to 1-D; else pack what is not
       contiguous. An input that partly overlaps the output is copied first either way, so the
       result is the out-of-place one. */
    ex->mode = ex->joint.rank <= 1 ? SG_EX_STRIDED : SG_EX_PACKED;
    for (int v = 0; v < 3; v++) {
        bool pack = ex->mode == SG_EX_PACKED && !sg_joint_contiguous(&ex->joint, v);
        if (v != SG_EX_Y && !sg_same_view(ex, v, SG_EX_Y) && sg_spans_meet(ex, v, SG_EX_Y))
            pack = true;
        ex->pack[v] = pack;
    }
    uint64_t off = 0;
    for (int v = 0; v < 3; v++) {
        if (!ex->pack[v]) continue;
        ex->ws_off[v] = (size_t)off;
        off += ((uint64_t)n * ex->es + SG_WS_ALIGN - 1) / SG_WS_ALIGN * SG_WS_ALIGN;
    }
    ex->workspace = off;
}

int32_t sg_ex_run(const aclOpExecutor *ex, void *workspace) {
    if (ex->mode == SG_EX_EMPTY) return 0;
    char *p[3];
    ptrdiff_t s[3];
    for (int v = 0; v < 3; v++) {
        p[v] = ex->pack[v] ? (char *)workspace + ex->ws_off[v] : ex->base[v];
        s[v] = ex->pack[v] || ex->joint.rank == 0 ? 1 : (ptrdiff_t)ex->joint.strides[v][0];
        if (ex->pack[v] && v != SG_EX_Y) sg_view_gather(p[v], ex->base[v], &ex->joint, v, ex->es);
    }
    selugrad_status st;
    if (ex->mode == SG_EX_STRIDED)
        st = sg_plan_run_strided(&ex->plan, p[0], s[0], p[1], s[1], p[2], s[2]);
    else
        st = sg_plan_run(&ex->plan, p[0], p[1], p[2]);
    if (st != SELUGRAD_OK)
        return sg_acl_fail(ACLNN_ERR_INNER, "aclnnSeluBackward: the CPU run failed: %s",
                           selugrad_last_error());
    if (ex->pack[SG_EX_Y]) sg_view_scatter(ex->base[SG_EX_Y], p[2], &ex->joint, SG_EX_Y, ex->es);
    return 0;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
    if (executor == NULL) /* CANN's code for it (561103), not 161001 */
        return sg_acl_fail(ACLNN_ERR_INNER_NULLPTR,
                           "aclSetAclOpExecutorRepeatable: executor is NULL");
    if (!sg_reg_has(executor, SG_H_EXECUTOR))
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "aclSetAclOpExecutorRepeatable: executor %p is not live (unknown, "
                           "already run or destroyed)",
                           (void *)executor);
    executor->repeatable = true;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
    if (executor == NULL) /* CANN's code for it (561103), not 161001 */
        return sg_acl_fail(ACLNN_ERR_INNER_NULLPTR, "aclDestroyAclOpExecutor: executor is NULL");
    if (!sg_reg_remove(executor, SG_H_EXECUTOR, NULL))
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "aclDestroyAclOpExecutor: executor %p is not live (unknown, already "
                           "run or destroyed)",
                           (void *)executor);
    sg_ex_release(executor); /* queued runs keep it until they finish */
    return ACLNN_SUCCESS;
}
