/* Instruction-set levels of the kernels. Kernels, detection and dispatch all name them. */
#ifndef SELUGRAD_ISA_ISA_H
#define SELUGRAD_ISA_ISA_H

/* Ordered within a family: a cap admits every level at or below it of its family. */
typedef enum sg_isa {
    SG_ISA_SCALAR = 0,
    SG_ISA_AVX2 = 1,       /* AVX2 + F16C + FMA */
    SG_ISA_AVX512 = 2,     /* AVX-512 F, BW, VL, DQ */
    SG_ISA_AVX512FP16 = 3, /* the above + AVX512-FP16 and AVX512_VBMI */
    SG_ISA_NEON = 4        /* aarch64 Advanced SIMD (always present on aarch64) */
} sg_isa;

#endif /* SELUGRAD_ISA_ISA_H */
