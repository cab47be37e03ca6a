/*
 * The aclnn executor of the element-wise operators (SeluGrad: three tensors; Selu: two): the CPU
 * plan made in phase 1 (kernel, thread split, how each view is read or written, the workspace
 * layout, an output dtype conversion) and its run in phase 2 on a stream.
 */
#ifndef SELUGRAD_OP_COMMON_ACLNN_EXEC_H
#define SELUGRAD_OP_COMMON_ACLNN_EXEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/exec.h"
#include "../../tensor/view.h"
#include "aclnn/acl_meta.h"

/* How phase 2 walks the tensors. */
typedef enum sg_ex_mode {
    SG_EX_EMPTY = 0,   /* nothing to do */
    SG_EX_STRIDED = 1, /* one strided 1-D run per tensor: sg_plan_run_strided */
    SG_EX_PACKED = 2   /* N-D views: gather into the workspace, run contiguously, scatter */
} sg_ex_mode;

struct aclOpExecutor {
    sg_ex_mode mode;
    sg_plan plan;
    sg_joint joint;
    int nt;             /* tensors: the inputs, then the output (last) */
    char *base[3];      /* first element of each view */
    bool pack[3];       /* view copied through the workspace */
    size_t ws_off[3];   /* its place in the workspace */
    size_t cast_off;    /* place of the output converted to its dtype (when they differ) */
    uint64_t workspace; /* bytes phase 2 needs */
    size_t es;          /* bytes per element of the inputs: the dtype computed in */
    size_t out_es;      /* bytes per element of the output view */
    aclDataType dtype, out_dtype;
    const char *run_name;     /* phase 2's function, for messages */
    const char *const *names; /* the tensors' parameter names (nt), for messages */
    const void *blk_start[3]; /* the aclrtMalloc / aclrtMallocHost block each view lay in at */
    size_t blk_size[3];       /* phase 1 (NULL: memory the program owns), for phase 2 to check */
    bool repeatable;
    atomic_int refs; /* 1 while registered + 1 per queued run */
};

/* Makes the plan for nt (2 or 3) validated, non-empty, same-shape tensors, the output last, run
   by kernel k (computing in t[0]'s dtype; an output of another dtype is converted after). False
   when the workspace it needs would exceed INT64_MAX or SIZE_MAX bytes: no plan. */
bool sg_ex_plan(aclOpExecutor *ex, const sg_kernel *k, const aclTensor *const t[], int nt);

/* Runs ex with the workspace on this thread; 0 or an aclnn code with a message. */
int32_t sg_ex_run(const aclOpExecutor *ex, void *workspace);

/* The first view (0 .. nt - 1) whose address span, from its first element to its last, meets
   the bytes [workspace, workspace + the executor's workspace size), or -1: a workspace sharing
   memory with a tensor would corrupt it or be corrupted (phase 2 refuses it; the span, not the
   single elements, so a workspace in the gaps of a strided view is refused too). -1 when no
   workspace is used. */
int sg_ex_workspace_meets(const aclOpExecutor *ex, const void *workspace);

/* Registers a new executor (refs 1); NULL on out of memory. */
aclOpExecutor *sg_ex_new(void);

/* Takes one more reference (ex is an aclOpExecutor *; the form sg_reg_if_live calls). */
void sg_ex_ref(void *ex);

/* Drops one reference, retiring ex (sg_reg_retire) at zero. */
void sg_ex_release(aclOpExecutor *ex);

#endif /* SELUGRAD_OP_COMMON_ACLNN_EXEC_H */
