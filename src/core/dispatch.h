/* Choice of the kernel variant per dtype: the first in the list that the CPU and the cap allow. */
#ifndef SELUGRAD_CORE_DISPATCH_H
#define SELUGRAD_CORE_DISPATCH_H

#include "../kernels/kernel.h"

/* Pure choice for a given cap; never NULL for a valid dtype (the scalar kernel always qualifies).
 */
const sg_kernel *sg_kernel_select(selugrad_dtype dtype, sg_isa cap);

/* The choice under the cap in force (selugrad_set_max_isa, by default SELUGRAD_MAX_ISA); NULL
   for an unknown dtype. */
const sg_kernel *sg_kernel_for(selugrad_dtype dtype);

/* The same for the SELU forward's list (selu.inc); NULL for a dtype it does not have (UINT8). */
const sg_kernel *sg_selu_kernel_select(selugrad_dtype dtype, sg_isa cap);
const sg_kernel *sg_selu_kernel_for(selugrad_dtype dtype);

#endif /* SELUGRAD_CORE_DISPATCH_H */
