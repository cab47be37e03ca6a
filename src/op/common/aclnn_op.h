/*
 * The machinery both element-wise aclnn operators share (aclnnSeluBackward, aclnnSelu,
 * aclnnInplaceSelu): phase 1's checks, each one small function mapped to one code and leaving a
 * message that names the calling function and the tensor; the executor's creation and plan;
 * phase 2's checks and queueing on a stream. The operators call them in their own order.
 * Tensors are given as arrays t[0 .. nt) with their CANN parameter names, the output last.
 */
#ifndef SELUGRAD_OP_COMMON_ACLNN_OP_H
#define SELUGRAD_OP_COMMON_ACLNN_OP_H

#include <stdbool.h>
#include <stdint.h>

#include "../../kernels/kernel.h"
#include "aclnn/acl_meta.h"

/* workspaceSize and executor pointers, then each tensor NULL (161001), then each not live
   (161002). */
aclnnStatus sg_op_check_nullptr(const char *fn, const aclTensor *const t[],
                                const char *const names[], int nt, const uint64_t *ws,
                                aclOpExecutor *const *ex);

/* Whether dt is in the SoC's dtype list (sg_soc_accepts: common/dtypes.inc's aclnn column);
   161002 if not. name NULL leaves the tensor's name out of the message. */
aclnnStatus sg_op_check_dtype_soc(const char *fn, const char *name, aclDataType dt);

/* Every view shape equal to t[0]'s, rank included (161002). */
aclnnStatus sg_op_check_shape(const char *fn, const aclTensor *const t[], const char *const names[],
                              int nt);

/* For a non-empty call: data pointers (161001), views inside their blocks, and the output
   (t[nt - 1]) giving each element its own address (161002). */
aclnnStatus sg_op_check_data(const char *fn, const aclTensor *const t[], const char *const names[],
                             int nt);

/* Makes the executor: empty when t[0] has no element, else planned with kernel k over the
   validated tensors (the output last, of dtype out_dt; a different dtype from the inputs' is
   converted after the run). run_name names phase 2 in messages, names[] the tensors (static
   strings). 561101 out of memory. */
aclnnStatus sg_op_make_executor(const char *fn, const char *run_name, const sg_kernel *k,
                                const aclTensor *const t[], const char *const names[], int nt,
                                uint64_t *ws, aclOpExecutor **ex);

/* Phase 2: checks the executor and workspace (present, large enough, sharing no memory with a
   tensor), resolves the stream and queues the run. */
aclnnStatus sg_op_run(const char *fn, void *workspace, uint64_t workspace_size,
                      aclOpExecutor *executor, aclrtStream stream);

#endif /* SELUGRAD_OP_COMMON_ACLNN_OP_H */
