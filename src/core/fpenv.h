/*
 * The contract assumes the default floating-point environment: round to nearest even, no
 * flush-to-zero, no denormals-are-zero. A caller may have changed it (fesetround, or a program
 * linked with -ffast-math sets FTZ/DAZ at start-up), so each thread that runs kernels enters the
 * default environment for the duration of its work and restores the caller's afterwards.
 */
#ifndef SELUGRAD_CORE_FPENV_H
#define SELUGRAD_CORE_FPENV_H

#include <fenv.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
typedef struct sg_fpenv {
    unsigned int csr;
} sg_fpenv;
#define SG_MXCSR_DEFAULT 0x1F80u /* all exceptions masked, round to nearest, no FTZ/DAZ */
#define SG_MXCSR_FLAGS   0x3Fu   /* the sticky exception flags */
static inline void sg_fpenv_enter(sg_fpenv *saved) {
    saved->csr = _mm_getcsr();
    if ((saved->csr & ~SG_MXCSR_FLAGS) != SG_MXCSR_DEFAULT) _mm_setcsr(SG_MXCSR_DEFAULT);
}
static inline void sg_fpenv_leave(const sg_fpenv *saved) {
    if ((saved->csr & ~SG_MXCSR_FLAGS) != SG_MXCSR_DEFAULT) _mm_setcsr(saved->csr);
}
#elif defined(__aarch64__)
typedef struct sg_fpenv {
    fenv_t env;
    int changed;
} sg_fpenv;
static inline void sg_fpenv_enter(sg_fpenv *saved) {
    fegetenv(&saved->env);
    /* FPCR bits that change results: FIZ (0) and AH (1) of FEAT_AFP, FZ16 (19), RMode (22-23),
       FZ (24), DN (25). All must be clear. */
    saved->changed = (saved->env.__fpcr & 0x03C80003u) != 0;
    if (saved->changed) fesetenv(FE_DFL_ENV);
}
static inline void sg_fpenv_leave(const sg_fpenv *saved) {
    if (saved->changed) fesetenv(&saved->env);
}
#else
typedef struct sg_fpenv {
    int round;
} sg_fpenv;
static inline void sg_fpenv_enter(sg_fpenv *saved) {
    saved->round = fegetround();
    if (saved->round != FE_TONEAREST) fesetround(FE_TONEAREST);
}
static inline void sg_fpenv_leave(const sg_fpenv *saved) {
    if (saved->round != FE_TONEAREST) fesetround(saved->round);
}
#endif

#endif /* SELUGRAD_CORE_FPENV_H */
