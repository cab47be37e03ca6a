/*
 * CPU feature detection and the ISA cap. An ISA level counts as present only when the CPU has
 * every instruction set it needs and the OS saves the registers it uses (XCR0, via xgetbv).
 */
#ifndef SELUGRAD_ISA_CPU_H
#define SELUGRAD_ISA_CPU_H

#include <stdbool.h>

#include "../kernels/kernel.h"

/* Features of this CPU, detected once. */
typedef struct sg_cpu_features {
    bool sse2, avx, f16c, fma, avx2;
    bool avx512f, avx512bw, avx512vl, avx512dq, avx512fp16, avx512vbmi;
    bool os_avx, os_avx512; /* XCR0 says the OS saves YMM, resp. ZMM and opmask state */
    bool neon;
} sg_cpu_features;

const sg_cpu_features *sg_cpu_features_get(void);

/* Whether this process can run kernels of the ISA level. */
bool sg_isa_supported(sg_isa isa);

/* "scalar", "avx2", "avx512", "avx512fp16", "neon"; "unknown" for any other value. */
const char *sg_isa_name(sg_isa isa);

/* Parses an ISA name (as above, case-sensitive); false for an unknown name. */
bool sg_isa_from_name(const char *name, sg_isa *isa);

/* Whether a kernel of level isa may run under cap: scalar always; x86 levels up to the cap. */
bool sg_isa_allowed(sg_isa isa, sg_isa cap);

/* The cap from SELUGRAD_MAX_ISA, read once (no cap: the highest level). An unknown name is
   reported once on stderr and ignored. */
sg_isa sg_isa_cap_from_env(void);

/* Detection for this architecture (isa/x86.c, isa/other.c). */
void sg_cpu_detect(sg_cpu_features *f);

#endif /* SELUGRAD_ISA_CPU_H */
