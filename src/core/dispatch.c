#include "dispatch.h"

#include <pthread.h>

#include "../common/dtype.h"
#include "../common/error.h"
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

/* The choice for every cap (each level, then SG_ISA_ALL) and dtype, made once: a call then only
   loads the cap and looks its kernel up. */
enum { SG_CAP_SLOTS = SG_ISA_LEVELS + 1 };
static const sg_kernel *sg_chosen[SG_CAP_SLOTS][SG_DTYPE_COUNT];
static const sg_kernel *sg_selu_chosen[SG_CAP_SLOTS][SG_DTYPE_COUNT];
static pthread_once_t sg_chosen_once = PTHREAD_ONCE_INIT;

static sg_isa sg_cap_of_slot(int slot) {
    return slot < SG_ISA_LEVELS ? (sg_isa)slot : (sg_isa)SG_ISA_ALL;
}

static void sg_choose_all(void) {
    for (int c = 0; c < SG_CAP_SLOTS; c++) {
        for (int i = 0; i < SG_DTYPE_COUNT; i++) {
            sg_chosen[c][i] = sg_kernel_select(sg_dtype_list[i], sg_cap_of_slot(c));
            sg_selu_chosen[c][i] = sg_selu_kernel_select(sg_dtype_list[i], sg_cap_of_slot(c));
        }
    }
}

/* The slot of the cap in force (every value sg_isa_cap gives is a level or SG_ISA_ALL). */
static int sg_cap_slot(void) {
    sg_isa cap = sg_isa_cap();
    return (unsigned)cap < SG_ISA_LEVELS ? (int)cap : SG_ISA_LEVELS;
}

const sg_kernel *sg_kernel_for(selugrad_dtype dtype) {
    pthread_once(&sg_chosen_once, sg_choose_all);
    int i = sg_dtype_index(dtype);
    return i >= 0 ? sg_chosen[sg_cap_slot()][i] : NULL;
}

const sg_kernel *sg_selu_kernel_for(selugrad_dtype dtype) {
    pthread_once(&sg_chosen_once, sg_choose_all);
    int i = sg_dtype_index(dtype);
    return i >= 0 ? sg_selu_chosen[sg_cap_slot()][i] : NULL;
}

size_t selugrad_kernel_count(void) {
    return sg_kernel_count + sg_selu_kernel_count;
}

selugrad_status selugrad_kernel_get(size_t i, selugrad_kernel_info *info) {
    if (info == NULL)
        return sg_fail(SELUGRAD_ERR_NULL_POINTER, "selugrad_kernel_get: info is NULL");
    if (i >= selugrad_kernel_count())
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "selugrad_kernel_get: kernel %zu of %zu (expected 0 .. %zu)", i,
                       selugrad_kernel_count(), selugrad_kernel_count() - 1);
    int forward = i >= sg_kernel_count;
    const sg_kernel *k = forward ? &sg_selu_kernels[i - sg_kernel_count] : &sg_kernels[i];
    *info = (selugrad_kernel_info){
        k->name,
        forward,
        k->dtype,
        k->isa,
        sg_isa_supported(k->isa),
        (forward ? sg_selu_kernel_for(k->dtype) : sg_kernel_for(k->dtype)) == k};
    return SELUGRAD_OK;
}
