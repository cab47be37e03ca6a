/*
 * Views of the operator's tensors walked together: joint coalescing of same-shape views,
 * contiguity, the address span, self-overlap of an output, gather into and scatter out of a
 * packed buffer. Dims and strides count elements.
 */
#ifndef SELUGRAD_TENSOR_VIEW_H
#define SELUGRAD_TENSOR_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor.h"

/* After dropping dims of 1 every dim is >= 2, so a view of fewer than 2^63 elements has < 64. */
enum { SG_VIEW_MAX = 64 };

/* k same-shape views over one joint shape: rank 0 means one element. */
typedef struct sg_joint {
    int rank;
    int64_t dims[SG_VIEW_MAX];
    int64_t strides[3][SG_VIEW_MAX];
} sg_joint;

/* Coalesces the k (<= 3) non-empty same-shape tensors: dims of 1 dropped, and neighbours merged
   where every view allows it. */
void sg_joint_make(sg_joint *j, const aclTensor *const *t, int k);

/* Whether view v of j is row-major contiguous. */
bool sg_joint_contiguous(const sg_joint *j, int v);

/* Whether two elements of view v share one address. Exact, but for a view it cannot check (over
   4M elements with interleaved strides spanning more than 2^34 elements, or out of memory for
   the check), which counts as overlapping with *unproven set (unproven may be NULL). May
   allocate a bitmap over the span. */
bool sg_joint_self_overlaps(const sg_joint *j, int v, bool *unproven);

/* The offset, in elements, of view v's highest element from its first (strides are
   non-negative, so the first is the lowest): the span is [0, reach]. */
int64_t sg_joint_reach(const sg_joint *j, int v);

/* dst[i] = element i of view v at base (row-major order); es bytes per element. */
void sg_view_gather(void *dst, const void *base, const sg_joint *j, int v, size_t es);

/* Element i of view v at base = src[i]. */
void sg_view_scatter(void *base, const void *src, const sg_joint *j, int v, size_t es);

#endif /* SELUGRAD_TENSOR_VIEW_H */
