/*
 * Scalar kernels: the reference model of spec section 2 applied over contiguous arrays.
 * ISA: portable C. Tail: none (one element per step). Roundings: see selugrad_ref.h.
 */
#include "selugrad_ref.h"
#include "../kernel.h"

#define SG_SCALAR_KERNEL(tag, T, fn)                                                               \
    void sg_##tag##_selugrad__scalar(size_t n, const void *g, const void *o, void *y) {            \
        const T *gp = (const T *)g;                                                                \
        const T *op = (const T *)o;                                                                \
        T *yp = (T *)y;                                                                            \
        for (size_t i = 0; i < n; i++) yp[i] = fn(gp[i], op[i]);                                   \
    }

SG_SCALAR_KERNEL(f32, float, sg_ref_f32)
SG_SCALAR_KERNEL(f16, uint16_t, sg_ref_f16)
SG_SCALAR_KERNEL(bf16, uint16_t, sg_ref_bf16)
SG_SCALAR_KERNEL(s8, int8_t, sg_ref_s8)
SG_SCALAR_KERNEL(u8, uint8_t, sg_ref_u8)
SG_SCALAR_KERNEL(s32, int32_t, sg_ref_s32)
