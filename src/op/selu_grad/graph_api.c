/* The public tiling entry points: checks of the graph side, then sg_tiling_compute. */
#include "selugrad/selugrad_graph.h"

#include <stdint.h>

#include "../../common/error.h"
#include "../../runtime/soc.h"
#include "../../common/tiling.h"
#include "../common/shape.h"

selugrad_status selugrad_tiling_platform(const selugrad_platform *platform,
                                         const selugrad_shape *gradients,
                                         const selugrad_shape *outputs, selugrad_dtype g_dtype,
                                         selugrad_dtype o_dtype, selugrad_tiling *tiling) {
    if (platform == NULL || gradients == NULL || outputs == NULL || tiling == NULL)
        return sg_fail(SELUGRAD_ERR_NULL_POINTER, "tiling: a pointer argument is NULL");
    if (g_dtype != o_dtype)
        return sg_fail(SELUGRAD_ERR_BAD_DTYPE, "tiling: gradients dtype %d differs from outputs %d",
                       (int)g_dtype, (int)o_dtype);
    int64_t total = 0, total_o = 0;
    selugrad_status st = sg_shape_total(gradients, "gradients", &total);
    if (st == SELUGRAD_OK) st = sg_shape_total(outputs, "outputs", &total_o);
    if (st != SELUGRAD_OK) return st;
    int same = gradients->rank == outputs->rank;
    for (size_t i = 0; same && i < gradients->rank; i++)
        same = gradients->dims[i] == outputs->dims[i];
    if (!same)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "tiling: gradients and outputs shapes differ");
    sg_tiling t;
    st = sg_tiling_compute(total, platform->vector_cores, platform->ub_bytes, g_dtype, &t);
    if (st != SELUGRAD_OK) return st;
    sg_tiling_publish(&t, tiling);
    return SELUGRAD_OK;
}

selugrad_status selugrad_soc_platform(const char *soc, selugrad_platform *platform) {
    if (soc == NULL || platform == NULL)
        return sg_fail(SELUGRAD_ERR_NULL_POINTER, "SoC: a pointer argument is NULL");
    const sg_soc *p = sg_soc_find(soc);
    if (p == NULL) return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "SoC: unknown name \"%s\"", soc);
    platform->vector_cores = p->vector_cores;
    platform->ub_bytes = p->ub_bytes;
    return SELUGRAD_OK;
}

selugrad_status selugrad_tiling_soc(const char *soc, const selugrad_shape *gradients,
                                    const selugrad_shape *outputs, selugrad_dtype g_dtype,
                                    selugrad_dtype o_dtype, selugrad_tiling *tiling) {
    selugrad_platform p;
    selugrad_status st = selugrad_soc_platform(soc, &p);
    if (st != SELUGRAD_OK) return st;
    return selugrad_tiling_platform(&p, gradients, outputs, g_dtype, o_dtype, tiling);
}

size_t selugrad_soc_count(void) {
    int n = 0;
    sg_soc_table(&n);
    return (size_t)n;
}

const char *selugrad_soc_name(size_t i) {
    int n = 0;
    const sg_soc *t = sg_soc_table(&n);
    return i < (size_t)n ? t[i].name : NULL;
}
