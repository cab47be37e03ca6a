/*
 * CPU feature detection and the ISA cap. An ISA level counts as present only when the CPU has
 * every instruction set it needs and the OS saves the registers it uses (XCR0, via xgetbv). The
 * cap is atomic state: selugrad_set_max_isa may change it at any time, SELUGRAD_MAX_ISA gives
 * its default.
 */
#ifndef SELUGRAD_ISA_CPU_H
#define SELUGRAD_ISA_CPU_H

#include <stdbool.h>

#include "features.h"
#include "isa.h"

/* Features of this CPU, detected once. */
const sg_cpu_features *sg_cpu_features_get(void);

/* Whether this process can run kernels of the ISA level (false for SG_ISA_ALL, no level). */
bool sg_isa_supported(sg_isa isa);

/* "scalar", "avx2", "avx512", "avx512fp16", "neon", "all" (SG_ISA_ALL); "unknown" for any other
   value. */
const char *sg_isa_name(sg_isa isa);

/* Parses an ISA name (as above but "unknown", case-sensitive); false for an unknown name. */
bool sg_isa_from_name(const char *name, sg_isa *isa);

/* Whether a kernel of level isa may run under cap: scalar always; under SG_ISA_ALL every level;
   else the levels of cap's family up to cap. */
bool sg_isa_allowed(sg_isa isa, sg_isa cap);

/* Whether v is a value of selugrad_isa (a level or SG_ISA_ALL). */
bool sg_isa_valid(int v);

/* The cap in force (selugrad_get_max_isa): one atomic load once the default is known. */
sg_isa sg_isa_cap(void);

#endif /* SELUGRAD_ISA_CPU_H */
