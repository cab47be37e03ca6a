/* Feature detection on architectures other than x86: aarch64 always has Advanced SIMD. */
#include "features.h"

#if !defined(__x86_64__) && !defined(__i386__)
void sg_cpu_detect(sg_cpu_features *f) {
    *f = (sg_cpu_features){0};
#if defined(__aarch64__)
    f->neon = true;
#else
    typedef int sg_isa_other_unused; /* ISO C forbids an empty translation unit */
#endif
}
#else
typedef int sg_isa_other_unused; /* ISO C forbids an empty translation unit */
#endif
