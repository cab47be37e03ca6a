/*
 * Instruction-set levels of the kernels: the public selugrad_isa (include/selugrad/selugrad.h) is
 * the one list; kernels, detection and dispatch name its values by these shorter names.
 */
#ifndef SELUGRAD_ISA_ISA_H
#define SELUGRAD_ISA_ISA_H

#include "selugrad/selugrad.h"

typedef selugrad_isa sg_isa;

#define SG_ISA_SCALAR     SELUGRAD_ISA_SCALAR
#define SG_ISA_AVX2       SELUGRAD_ISA_AVX2
#define SG_ISA_AVX512     SELUGRAD_ISA_AVX512
#define SG_ISA_AVX512FP16 SELUGRAD_ISA_AVX512FP16
#define SG_ISA_NEON       SELUGRAD_ISA_NEON
#define SG_ISA_ALL        SELUGRAD_ISA_ALL /* no cap */

/* The levels, SCALAR to NEON, have the values 0 .. SG_ISA_LEVELS - 1. */
enum { SG_ISA_LEVELS = SG_ISA_NEON + 1 };

#endif /* SELUGRAD_ISA_ISA_H */
