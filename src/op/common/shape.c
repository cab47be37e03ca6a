/* Shared shape checks of the graph sides; see shape.h. */
#include "shape.h"

#include "../../common/error.h"

int sg_shape_unknown_rank(const selugrad_shape *s) {
    return s->rank == 1 && s->dims[0] == SELUGRAD_RANK_UNKNOWN;
}

selugrad_status sg_shape_check_form(const char *what, const selugrad_shape *s, const char *name) {
    if (s->rank > SELUGRAD_SHAPE_DIMS)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "%s: %s has rank %zu, above %d", what, name,
                       s->rank, SELUGRAD_SHAPE_DIMS);
    if (sg_shape_unknown_rank(s)) return SELUGRAD_OK;
    for (size_t i = 0; i < s->rank; i++)
        if (s->dims[i] < SELUGRAD_DIM_UNKNOWN)
            return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "%s: %s dim %zu is %lld", what, name, i,
                           (long long)s->dims[i]);
    return SELUGRAD_OK;
}

selugrad_status sg_shape_total(const selugrad_shape *s, const char *name, int64_t *total) {
    if (s->rank > SELUGRAD_MAX_RANK)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "tiling: %s has rank %zu, above %d", name,
                       s->rank, SELUGRAD_MAX_RANK);
    int empty = 0;
    for (size_t i = 0; i < s->rank; i++) {
        if (s->dims[i] < 0)
            return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "tiling: %s dim %zu is %lld (unknown)", name,
                           i, (long long)s->dims[i]);
        empty |= s->dims[i] == 0;
    }
    if (empty) { /* 0 elements wherever the 0 sits, whatever the other dims multiply to */
        *total = 0;
        return SELUGRAD_OK;
    }
    int64_t n = 1;
    for (size_t i = 0; i < s->rank; i++) {
        int64_t d = s->dims[i];
        if (n > INT64_MAX / d)
            return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "tiling: %s has more than 2^63 - 1 elements",
                           name);
        n *= d;
    }
    *total = n;
    return SELUGRAD_OK;
}

void sg_tiling_publish(const sg_tiling *t, selugrad_tiling *out) {
    out->total_elements = t->total_elements;
    out->block_former = t->block_former;
    out->ub_former = t->ub_former;
    out->block_dim = t->block_dim;
    out->workspace_size = t->workspace_size;
}
