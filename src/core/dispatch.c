#include "dispatch.h"

#include <pthread.h>

#include "../common/dtype.h"
#include "../isa/cpu.h"

/* The first kernel of dtype in list[0 .. count) that the cap and the CPU allow. */
static const sg_kernel *sg_first_allowed(const sg_kernel *list, size_t count, selugrad_dtype dtype,
                                         sg_isa cap) {
    for (size_t i = 0; i < count; i++) {
        const sg_kernel *k = &list[i];
        if (k->dtype == dtype && sg_isa_allowed(k->isa, cap) && sg_isa_supported(k->isa)) return k;
    }
    return NULL;
}

const sg_kernel *sg_kernel_select(selugrad_dtype dtype, sg_isa cap) {
    return sg_first_allowed(sg_kernels, sg_kernel_count, dtype, cap);
}

const sg_kernel *sg_selu_kernel_select(selugrad_dtype dtype, sg_isa cap) {
    return sg_first_allowed(sg_selu_kernels, sg_selu_kernel_count, dtype, cap);
}

static const sg_kernel *sg_chosen[SG_DTYPE_COUNT];
static const sg_kernel *sg_selu_chosen[SG_DTYPE_COUNT];
static pthread_once_t sg_chosen_once = PTHREAD_ONCE_INIT;

static void sg_choose_all(void) {
    sg_isa cap = sg_isa_cap_from_env();
    for (int i = 0; i < SG_DTYPE_COUNT; i++) {
        sg_chosen[i] = sg_kernel_select(sg_dtype_list[i], cap);
        sg_selu_chosen[i] = sg_selu_kernel_select(sg_dtype_list[i], cap);
    }
}

const sg_kernel *sg_kernel_for(selugrad_dtype dtype) {
    pthread_once(&sg_chosen_once, sg_choose_all);
    int i = sg_dtype_index(dtype);
    return i >= 0 ? sg_chosen[i] : NULL;
}

const sg_kernel *sg_selu_kernel_for(selugrad_dtype dtype) {
    pthread_once(&sg_chosen_once, sg_choose_all);
    int i = sg_dtype_index(dtype);
    return i >= 0 ? sg_selu_chosen[i] : NULL;
}
