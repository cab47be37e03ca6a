/* The kernel table, expanded from the list. */
#include "kernel.h"

const sg_kernel sg_kernels[] = {
#define SG_KERNEL(tag, dtype, variant, isa, part_kib)                                              \
    {#tag "_selugrad__" #variant, dtype, isa, part_kib, sg_##tag##_selugrad__##variant},
#include "selugrad.inc"
#undef SG_KERNEL
};

const size_t sg_kernel_count = sizeof sg_kernels / sizeof sg_kernels[0];
