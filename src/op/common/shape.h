/*
 * Shape checks both operators' graph sides share (InferShape, the tiling entry points): the
 * graph engine's forms (-1 an unknown dim, {-2} an unknown rank) and the element count of a
 * known shape. Failures leave a message naming the caller (what) and the shape (name). And the
 * copy of a computed tiling into the public struct both tiling entry points return.
 */
#ifndef SELUGRAD_OP_COMMON_SHAPE_H
#define SELUGRAD_OP_COMMON_SHAPE_H

#include <stdint.h>

#include "../../common/tiling.h"
#include "selugrad/selugrad_graph.h"

/* Whether s is the unknown rank {-2}. */
int sg_shape_unknown_rank(const selugrad_shape *s);

/* s is well formed: rank within SELUGRAD_SHAPE_DIMS, dims >= -1 (or the {-2} form). */
selugrad_status sg_shape_check_form(const char *what, const selugrad_shape *s, const char *name);

/* Element count of a known shape of rank 0..8 (rank 0 counts 1, a 0 dim gives 0); fails on -1
   dims, higher ranks or more than 2^63 - 1 elements. */
selugrad_status sg_shape_total(const selugrad_shape *s, const char *name, int64_t *total);

/* The public form of a computed tiling. */
void sg_tiling_publish(const sg_tiling *t, selugrad_tiling *out);

#endif /* SELUGRAD_OP_COMMON_SHAPE_H */
