/* The kernel table, expanded from the list. */
#include "kernel.h"

const sg_kernel sg_kernels[] = {
#define SG_KERNEL(tag, dtype, variant, isa, part_kib)                                              \
    {#tag "_selugrad__" #variant,    dtype,           isa, part_kib,                               \
     sg_##tag##_selugrad__##variant, SG_OP_SELU_GRAD, NULL},
#include "selugrad.inc"
#undef SG_KERNEL
};

const size_t sg_kernel_count = sizeof sg_kernels / sizeof sg_kernels[0];

const sg_kernel sg_selu_kernels[] = {
#define SG_SELU_KERNEL(tag, dtype, variant, isa, part_kib)                                         \
    {#tag "_selu__" #variant, dtype, isa, part_kib, NULL, SG_OP_SELU, sg_##tag##_selu__##variant},
#include "selu.inc"
#undef SG_SELU_KERNEL
};

const size_t sg_selu_kernel_count = sizeof sg_selu_kernels / sizeof sg_selu_kernels[0];
