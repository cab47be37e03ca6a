/*
 * The aclnn executor of SeluGrad: the CPU plan made in phase 1 (kernel, thread split, how each
 * view is read or written, the workspace layout) and its run in phase 2 on a stream.
 */
#ifndef SELUGRAD_OP_SELU_GRAD_ACLNN_EXEC_H
#define SELUGRAD_OP_SELU_GRAD_ACLNN_EXEC_H

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

enum { SG_EX_G = 0, SG_EX_O = 1, SG_EX_Y = 2 };

struct aclOpExecutor {
    sg_ex_mode mode;
    sg_plan plan;
    sg_joint joint;
    char *base[3];      /* first element of gradOutput, result, gradInput */
    bool pack[3];       /* view copied through the workspace */
    size_t ws_off[3];   /* its place in the workspace */
    uint64_t workspace; /* bytes phase 2 needs */
    size_t es;
    bool repeatable;
    atomic_int refs; /* 1 while registered + 1 per queued run */
};

/* Makes the plan for validated, non-empty, same-shape tensors (g, o, y). */
void sg_ex_plan(aclOpExecutor *ex, const aclTensor *const t[3]);

/* Runs ex with the workspace on this thread; 0 or an aclnn code with a message. */
int32_t sg_ex_run(const aclOpExecutor *ex, void *workspace);

/* Registers a new executor (refs 1); NULL on out of memory. */
aclOpExecutor *sg_ex_new(void);

/* Takes one more reference (ex is an aclOpExecutor *; the form sg_reg_if_live calls). */
void sg_ex_ref(void *ex);

/* Drops one reference, retiring ex (sg_reg_retire) at zero. */
void sg_ex_release(aclOpExecutor *ex);

#endif /* SELUGRAD_OP_SELU_GRAD_ACLNN_EXEC_H */
