/*
 * What the CPU and the OS offer, as the detection of each architecture reports it (x86.c:
 * cpuid and xgetbv; other.c). cpu.c detects once and derives the ISA levels from it.
 */
#ifndef SELUGRAD_ISA_FEATURES_H
#define SELUGRAD_ISA_FEATURES_H

#include <stdbool.h>

typedef struct sg_cpu_features {
    bool sse2, avx, f16c, fma, avx2;
    bool avx512f, avx512bw, avx512vl, avx512dq, avx512fp16, avx512vbmi;
    bool os_avx, os_avx512; /* XCR0 says the OS saves YMM, resp. ZMM and opmask state */
    bool neon;
} sg_cpu_features;

/* Detection for this architecture (x86.c or other.c, whichever the build compiles). */
void sg_cpu_detect(sg_cpu_features *f);

#endif /* SELUGRAD_ISA_FEATURES_H */
