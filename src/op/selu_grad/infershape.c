/* InferShape and InferDataType of SeluGrad (docs/contract.md, "InferShape", "InferDataType"):
   y copies gradients. */
#include "selugrad/selugrad_graph.h"

#include "../../common/error.h"
#include "../common/shape.h"

static selugrad_status sg_check_rank_limit(const selugrad_shape *s, const char *name) {
    if (!sg_shape_unknown_rank(s) && s->rank > SELUGRAD_MAX_RANK)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "InferShape: %s has rank %zu, above %d", name,
                       s->rank, SELUGRAD_MAX_RANK);
    return SELUGRAD_OK;
}

/* Known shapes agree: same rank, and each pair of known dims equal. */
static selugrad_status sg_check_match(const selugrad_shape *g, const selugrad_shape *o) {
    if (sg_shape_unknown_rank(g) || sg_shape_unknown_rank(o)) return SELUGRAD_OK;
    if (g->rank != o->rank)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "InferShape: gradients has rank %zu but outputs rank %zu", g->rank, o->rank);
    for (size_t i = 0; i < g->rank; i++) {
        int64_t a = g->dims[i], b = o->dims[i];
        if (a != SELUGRAD_DIM_UNKNOWN && b != SELUGRAD_DIM_UNKNOWN && a != b)
            return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                           "InferShape: dim %zu differs: gradients %lld, outputs %lld", i,
                           (long long)a, (long long)b);
    }
    return SELUGRAD_OK;
}

selugrad_status selugrad_infer_shape(const selugrad_shape *gradients, const selugrad_shape *outputs,
                                     selugrad_shape *y) {
    if (gradients == NULL || outputs == NULL || y == NULL)
        return sg_fail(SELUGRAD_ERR_NULL_POINTER, "InferShape: a shape pointer is NULL");
    selugrad_status st = sg_shape_check_form("InferShape", gradients, "gradients");
    if (st == SELUGRAD_OK) st = sg_shape_check_form("InferShape", outputs, "outputs");
    if (st == SELUGRAD_OK) st = sg_check_rank_limit(gradients, "gradients");
    if (st == SELUGRAD_OK) st = sg_check_rank_limit(outputs, "outputs");
    if (st == SELUGRAD_OK) st = sg_check_match(gradients, outputs);
    if (st != SELUGRAD_OK) return st;
    *y = *gradients;
    return SELUGRAD_OK;
}

selugrad_status selugrad_infer_dtype(selugrad_dtype gradients, selugrad_dtype outputs,
                                     selugrad_dtype *y) {
    (void)outputs; /* compared by the tiling and the aclnn layer, not by InferDataType */
    if (y == NULL) return sg_fail(SELUGRAD_ERR_NULL_POINTER, "InferDataType: y is NULL");
    const selugrad_op_def *def = selugrad_op_def_get();
    for (size_t i = 0; i < def->num_dtypes; i++) {
        if (def->dtypes[i] == gradients) {
            *y = gradients;
            return SELUGRAD_OK;
        }
    }
    return sg_fail(SELUGRAD_ERR_BAD_DTYPE, "InferDataType: gradients dtype %d is not supported",
                   (int)gradients);
}
