/*
 * CPU feature detection and the ISA cap. An ISA level counts as present only when the CPU has
 * every instruction set it needs and the OS saves the registers it uses (XCR0, via xgetbv).
 */
#ifndef SELUGRAD_ISA_CPU_H
#define SELUGRAD_ISA_CPU_H

#include <stdbool.h>

#include "features.h"
#include "isa.h"

/* Features of this CPU, detected once. */
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

#endif /* SELUGRAD_ISA_CPU_H */
