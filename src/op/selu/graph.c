/*
 * The graph side of the SELU forward (docs/contract.md, "Forward graph side"): the op definition
 * as data, InferShape, InferDataType and ops-nn's arch35 Selu tiling (common/tiling.c,
 * docs/graph.md), with SeluGrad's shape checks (op/common/shape.h).
 */
#include <pthread.h>
#include <stdint.h>

#include "../../common/dtype.h"
#include "../../common/error.h"
#include "../../common/tiling.h"
#include "../../runtime/soc.h"
#include "../common/shape.h"
#include "selugrad/selugrad_graph.h"

static const char *const sg_selu_inputs[] = {"x"};
static const char *const sg_selu_outputs[] = {"y"};

/* The definition, with the dtypes of the list that the forward has (a selu_bpe in
   common/dtypes.inc), in the list's order; filled once. */
static selugrad_dtype sg_selu_dtypes[SG_DTYPE_COUNT];
static selugrad_op_def sg_selu_def = {"Selu", 1, sg_selu_inputs, 1,   sg_selu_outputs,
                                      0,      0, sg_selu_dtypes, "ND"};
static pthread_once_t sg_selu_def_once = PTHREAD_ONCE_INIT;

static void sg_selu_def_init(void) {
    size_t n = 0;
    for (int i = 0; i < SG_DTYPE_COUNT; i++)
        if (sg_dtype_selu_bpe(sg_dtype_list[i]) != 0) sg_selu_dtypes[n++] = sg_dtype_list[i];
    sg_selu_def.num_dtypes = n;
}

const selugrad_op_def *selugrad_selu_op_def_get(void) {
    pthread_once(&sg_selu_def_once, sg_selu_def_init);
    return &sg_selu_def;
}

selugrad_status selugrad_selu_infer_shape(const selugrad_shape *x, selugrad_shape *y) {
    if (x == NULL || y == NULL)
        return sg_fail(SELUGRAD_ERR_NULL_POINTER, "Selu InferShape: a shape pointer is NULL");
    selugrad_status st = sg_shape_check_form("Selu InferShape", x, "x");
    if (st != SELUGRAD_OK) return st;
    if (!sg_shape_unknown_rank(x) && x->rank > SELUGRAD_MAX_RANK)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "Selu InferShape: x has rank %zu, above %d",
                       x->rank, SELUGRAD_MAX_RANK);
    *y = *x;
    return SELUGRAD_OK;
}

selugrad_status selugrad_selu_infer_dtype(selugrad_dtype x, selugrad_dtype *y) {
    if (y == NULL) return sg_fail(SELUGRAD_ERR_NULL_POINTER, "Selu InferDataType: y is NULL");
    if (sg_dtype_selu_bpe(x) == 0) { /* UINT8, or not a dtype */
        char list[160];
        sg_dtype_list_text(list, sizeof list, 1);
        return sg_fail(SELUGRAD_ERR_BAD_DTYPE, "Selu InferDataType: x dtype %d is not one of %s",
                       (int)x, list);
    }
    *y = x;
    return SELUGRAD_OK;
}

selugrad_status selugrad_selu_tiling_platform(const selugrad_platform *platform,
                                              const selugrad_shape *x, selugrad_dtype dtype,
                                              selugrad_tiling *tiling) {
    if (platform == NULL || x == NULL || tiling == NULL)
        return sg_fail(SELUGRAD_ERR_NULL_POINTER, "Selu tiling: a pointer argument is NULL");
    int64_t total = 0;
    selugrad_status st = sg_shape_total(x, "x", &total);
    if (st != SELUGRAD_OK) return st;
    sg_tiling t;
    st = sg_selu_tiling_compute(total, platform->vector_cores, platform->ub_bytes, dtype, &t);
    if (st != SELUGRAD_OK) return st;
    sg_tiling_publish(&t, tiling);
    return SELUGRAD_OK;
}

selugrad_status selugrad_selu_tiling_soc(const char *soc, const selugrad_shape *x,
                                         selugrad_dtype dtype, selugrad_tiling *tiling) {
    selugrad_platform p;
    selugrad_status st = selugrad_soc_platform(soc, &p);
    if (st != SELUGRAD_OK) return st;
    return selugrad_selu_tiling_platform(&p, x, dtype, tiling);
}
