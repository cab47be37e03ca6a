#include "dispatch.h"

#include <pthread.h>

#include "../isa/cpu.h"

int sg_dtype_valid(selugrad_dtype dtype) {
    return selugrad_dtype_size(dtype) != 0;
}

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

enum { SG_DTYPE_SLOTS = 6 };
static const selugrad_dtype sg_all_dtypes[SG_DTYPE_SLOTS] = {
    SELUGRAD_FLOAT, SELUGRAD_FLOAT16, SELUGRAD_INT8, SELUGRAD_INT32, SELUGRAD_UINT8, SELUGRAD_BF16};
static const sg_kernel *sg_chosen[SG_DTYPE_SLOTS];
static const sg_kernel *sg_selu_chosen[SG_DTYPE_SLOTS];
static pthread_once_t sg_chosen_once = PTHREAD_ONCE_INIT;

static void sg_choose_all(void) {
    sg_isa cap = sg_isa_cap_from_env();
    for (int i = 0; i < SG_DTYPE_SLOTS; i++) {
        sg_chosen[i] = sg_kernel_select(sg_all_dtypes[i], cap);
        sg_selu_chosen[i] = sg_selu_kernel_select(sg_all_dtypes[i], cap);
    }
}

const sg_kernel *sg_kernel_for(selugrad_dtype dtype) {
    pthread_once(&sg_chosen_once, sg_choose_all);
    for (int i = 0; i < SG_DTYPE_SLOTS; i++)
        if (sg_all_dtypes[i] == dtype) return sg_chosen[i];
    return NULL;
}

const sg_kernel *sg_selu_kernel_for(selugrad_dtype dtype) {
    pthread_once(&sg_chosen_once, sg_choose_all);
    for (int i = 0; i < SG_DTYPE_SLOTS; i++)
        if (sg_all_dtypes[i] == dtype) return sg_selu_chosen[i];
    return NULL;
}
