#include "aclnn_exec.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/dispatch.h"
#include "../../core/fpenv.h"
#include "../../core/parallel.h"
#include "../../runtime/acl_error.h"
#include "../../runtime/registry.h"
#include "../../tensor/convert.h"

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

static size_t sg_es_of(const aclOpExecutor *ex, int v) {
    return v == ex->nt - 1 ? ex->out_es : ex->es;
}

/* Whether views a and b of the joint shape are the very same elements in the same order. */
static bool sg_same_view(const aclOpExecutor *ex, int a, int b) {
    if (ex->base[a] != ex->base[b] || sg_es_of(ex, a) != sg_es_of(ex, b)) return false;
    for (int i = 0; i < ex->joint.rank; i++)
        if (ex->joint.strides[a][i] != ex->joint.strides[b][i]) return false;
    return true;
}

int sg_ex_workspace_meets(const aclOpExecutor *ex, const void *workspace) {
    if (ex->mode == SG_EX_EMPTY || ex->workspace == 0 || workspace == NULL) return -1;
    uintptr_t wlo = (uintptr_t)workspace, whi = wlo + (uintptr_t)ex->workspace;
    if (whi < wlo) whi = UINTPTR_MAX; /* a workspace claimed to reach past the address space */
    for (int v = 0; v < ex->nt; v++) {
        size_t es = sg_es_of(ex, v);
        uintptr_t lo = (uintptr_t)ex->base[v];
        uintptr_t hi = lo + (uintptr_t)sg_joint_reach(&ex->joint, v) * es + es;
        if (lo < whi && wlo < hi) return v;
    }
    return -1;
}

static bool sg_spans_meet(const aclOpExecutor *ex, int a, int b) {
    size_t ea = sg_es_of(ex, a), eb = sg_es_of(ex, b);
    const char *alo = ex->base[a], *blo = ex->base[b];
    const char *ahi = alo + (size_t)sg_joint_reach(&ex->joint, a) * ea + ea;
    const char *bhi = blo + (size_t)sg_joint_reach(&ex->joint, b) * eb + eb;
    return alo < bhi && blo < ahi;
}

/* Adds the bytes of n elements of es bytes, rounded up to SG_WS_ALIGN, to *off; false when the
   sum would pass INT64_MAX or SIZE_MAX (a view of up to 2^63 elements packed at 4 bytes each,
   or three such buffers, does not fit in 64 bits). */
static bool sg_ws_add(uint64_t *off, size_t n, size_t es) {
    const uint64_t max =
        (uint64_t)SIZE_MAX < (uint64_t)INT64_MAX ? (uint64_t)SIZE_MAX : (uint64_t)INT64_MAX;
    if ((uint64_t)n > (max - (SG_WS_ALIGN - 1)) / es) return false;
    uint64_t bytes = ((uint64_t)n * es + SG_WS_ALIGN - 1) / SG_WS_ALIGN * SG_WS_ALIGN;
    if (bytes > max - *off) return false;
    *off += bytes;
    return true;
}

bool sg_ex_plan(aclOpExecutor *ex, const sg_kernel *k, const aclTensor *const t[], int nt) {
    int yv = nt - 1;
    ex->nt = nt;
    ex->dtype = t[0]->dtype;
    ex->out_dtype = t[yv]->dtype;
    ex->es = aclDataTypeSize(ex->dtype);
    ex->out_es = aclDataTypeSize(ex->out_dtype);
    for (int v = 0; v < nt; v++)
        ex->base[v] = (char *)t[v]->data + (size_t)t[v]->offset * sg_es_of(ex, v);
    sg_joint_make(&ex->joint, t, nt);
    size_t n = (size_t)t[0]->numel;
    sg_plan_make(&ex->plan, k, n, sg_threads_call());
    bool cast = ex->out_dtype != ex->dtype;
    /* One strided run per tensor when the views coalesce to 1-D; else pack what is not
       contiguous. An input that partly overlaps the output is copied first either way, so the
       result is the out-of-place one; an output of another dtype is computed in the workspace
       and converted. */
    ex->mode = ex->joint.rank <= 1 ? SG_EX_STRIDED : SG_EX_PACKED;
    for (int v = 0; v < nt; v++) {
        bool pack = ex->mode == SG_EX_PACKED && !sg_joint_contiguous(&ex->joint, v);
        if (v != yv && !sg_same_view(ex, v, yv) && sg_spans_meet(ex, v, yv)) pack = true;
        if (v == yv && cast) pack = true;
        ex->pack[v] = pack;
    }
    uint64_t off = 0;
    for (int v = 0; v < nt; v++) {
        if (!ex->pack[v]) continue;
        ex->ws_off[v] = (size_t)off;
        if (!sg_ws_add(&off, n, ex->es)) return false;
    }
    if (cast) {
        ex->cast_off = (size_t)off;
        if (!sg_ws_add(&off, n, ex->out_es)) return false;
    }
    ex->workspace = off;
    return true;
}

int32_t sg_ex_run(const aclOpExecutor *ex, void *workspace) {
    if (ex->mode == SG_EX_EMPTY) return 0;
    int nt = ex->nt, yv = nt - 1;
    char *p[3] = {NULL, NULL, NULL};
    ptrdiff_t s[3] = {0, 0, 0};
    for (int v = 0; v < nt; v++) {
        p[v] = ex->pack[v] ? (char *)workspace + ex->ws_off[v] : ex->base[v];
        s[v] = ex->pack[v] || ex->joint.rank == 0 ? 1 : (ptrdiff_t)ex->joint.strides[v][0];
        if (ex->pack[v] && v != yv) sg_view_gather(p[v], ex->base[v], &ex->joint, v, ex->es);
    }
    char *o = nt == 3 ? p[1] : NULL; /* a one-input kernel takes no o */
    ptrdiff_t os = nt == 3 ? s[1] : 0;
    selugrad_status st;
    if (ex->mode == SG_EX_STRIDED)
        st = sg_plan_run_strided(&ex->plan, p[0], s[0], o, os, p[yv], s[yv]);
    else
        st = sg_plan_run(&ex->plan, p[0], o, p[yv]);
    if (st != SELUGRAD_OK)
        return sg_acl_fail(ACLNN_ERR_INNER, "%s: the CPU run failed: %s", ex->run_name,
                           selugrad_last_error());
    if (ex->out_dtype != ex->dtype) {
        char *c = (char *)workspace + ex->cast_off;
        /* In the default environment too, as the kernels: an int32 result converted to fp32
           rounds to nearest even whatever rounding mode the calling (or stream) thread has. */
        sg_fpenv env;
        sg_fpenv_enter(&env);
        sg_convert(c, (selugrad_dtype)ex->out_dtype, p[yv], (selugrad_dtype)ex->dtype, ex->plan.n);
        sg_fpenv_leave(&env);
        sg_view_scatter(ex->base[yv], c, &ex->joint, yv, ex->out_es);
    } else if (ex->pack[yv]) {
        sg_view_scatter(ex->base[yv], p[yv], &ex->joint, yv, ex->es);
    }
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
