#include "tiling.h"

#include "dtype.h"
#include "error.h"

enum { SG_TILING_ALIGN = 32, SG_UB_RESERVED = 8192 };

/* a >= 0, b >= 1; no overflow near INT64_MAX */
static int64_t sg_ceil_div(int64_t a, int64_t b) {
    return a / b + (a % b != 0);
}

selugrad_status sg_tiling_compute(int64_t total, int64_t cores, int64_t ub, selugrad_dtype dtype,
                                  sg_tiling *out) {
    int64_t bpe = sg_dtype_ub_bpe(dtype);
    if (bpe == 0) return sg_fail(SELUGRAD_ERR_BAD_DTYPE, "tiling: unknown dtype %d", (int)dtype);
    return sg_tiling_compute_bpe(total, cores, ub, bpe, out);
}

/* The forward's NPU tiling (ops-nn's arch35 Selu host tiling): alignment to 32 bytes of the
   element type, and a UB chunk that holds the input and output buffers of the element type and
   two fp32 work buffers, with nothing reserved. */
selugrad_status sg_selu_tiling_compute(int64_t total, int64_t cores, int64_t ub,
                                       selugrad_dtype dtype, sg_tiling *out) {
    if (out == NULL)
        return sg_fail(SELUGRAD_ERR_NULL_POINTER, "tiling: the result pointer is NULL");
    if (sg_dtype_selu_bpe(dtype) == 0)
        return sg_fail(SELUGRAD_ERR_BAD_DTYPE, "tiling: dtype %d has no SELU forward", (int)dtype);
    if (total < 0 || cores < 1 || ub < 0)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "tiling: need total >= 0, cores >= 1, ub >= 0; got total %lld, cores %lld, "
                       "ub %lld",
                       (long long)total, (long long)cores, (long long)ub);
    int64_t size = (int64_t)selugrad_dtype_size(dtype);
    int64_t align = SG_TILING_ALIGN / size;      /* elements in 32 bytes */
    int64_t divisor = (2 * size + 2 * 4) / size; /* 4 (fp32, int32), 6 (16-bit), 10 (int8) */
    int64_t per_ub = ub / size / divisor / align * align;
    if (total > 0 && per_ub < 1)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "tiling: a UB of %lld bytes holds no chunk of %lld elements (%lld bytes per "
                       "element of the forward's buffers)",
                       (long long)ub, (long long)align, (long long)(divisor * size));
    int64_t per_core = sg_ceil_div(total, cores);
    if (per_core > INT64_MAX / align * align)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "tiling: blockFormer (%lld elements per core, aligned up to %lld) does not "
                       "fit in int64",
                       (long long)per_core, (long long)align);
    *out = (sg_tiling){0};
    out->block_dim = 1;
    if (total == 0) return SELUGRAD_OK;
    out->total_elements = total;
    out->block_former = sg_ceil_div(per_core, align) * align;
    out->ub_former = per_ub;
    out->block_dim = sg_ceil_div(total, out->block_former);
    return SELUGRAD_OK;
}

selugrad_status sg_tiling_compute_bpe(int64_t total, int64_t cores, int64_t ub, int64_t bpe,
                                      sg_tiling *out) {
    if (out == NULL)
        return sg_fail(SELUGRAD_ERR_NULL_POINTER, "tiling: the result pointer is NULL");
    if (bpe < 1)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT, "tiling: %lld bytes per element", (long long)bpe);
    if (total < 0 || cores < 1 || ub < 0)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "tiling: need total >= 0, cores >= 1, ub >= 0; got total %lld, cores %lld, "
                       "ub %lld",
                       (long long)total, (long long)cores, (long long)ub);
    int64_t per_core = sg_ceil_div(total, cores);
    if (per_core > INT64_MAX / SG_TILING_ALIGN * SG_TILING_ALIGN)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "tiling: blockFormer (%lld elements per core, aligned up to %d) does not "
                       "fit in int64",
                       (long long)per_core, SG_TILING_ALIGN);
    *out = (sg_tiling){0};
    out->block_dim = 1;
    if (total == 0) return SELUGRAD_OK;
    out->total_elements = total;
    out->block_former = sg_ceil_div(per_core, SG_TILING_ALIGN) * SG_TILING_ALIGN;
    int64_t per_ub = ub > SG_UB_RESERVED ? (ub - SG_UB_RESERVED) / bpe : 0;
    per_ub = per_ub / SG_TILING_ALIGN * SG_TILING_ALIGN;
    out->ub_former = per_ub > SG_TILING_ALIGN ? per_ub : SG_TILING_ALIGN;
    out->block_dim = sg_ceil_div(total, out->block_former);
    return SELUGRAD_OK;
}
