/*
 * The kernel interface. A kernel is a pure function: y[i] = SeluGrad(g[i], o[i]) for i < n over
 * contiguous arrays of one dtype, bit-identical to the reference (ref/selugrad_ref.c). No
 * allocation, threads, dispatch or shapes inside. y may equal g or o (in place); kernels read
 * each element before they write it. Pointers have at least the element's natural alignment (the
 * executor copies arrays that have not through aligned buffers: core/exec.c).
 */
#ifndef SELUGRAD_KERNELS_KERNEL_H
#define SELUGRAD_KERNELS_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "../isa/isa.h"
#include "selugrad/selugrad.h"

typedef void (*sg_kernel_fn)(size_t n, const void *g, const void *o, void *y);

/* A SELU forward kernel (selu.inc): y[i] = selu(x[i]), bit-identical to ref/selu_ref.h; y may
   equal x. Otherwise as above. */
typedef void (*sg_unary_fn)(size_t n, const void *x, void *y);

/* The operator a kernel computes. */
typedef enum sg_op {
    SG_OP_SELU_GRAD = 0, /* y = SeluGrad(g, o): sg_kernel.fn */
    SG_OP_SELU = 1       /* y = selu(x): sg_kernel.fn1 */
} sg_op;

typedef struct sg_kernel {
    const char *name; /* e.g. "f32_selugrad__scalar" */
    selugrad_dtype dtype;
    sg_isa isa;
    unsigned part_kib; /* traffic (KiB) each thread must get before a call splits (selugrad.inc) */
    sg_kernel_fn fn;   /* SG_OP_SELU_GRAD */
    sg_op op;          /* which of fn and fn1 is set (zero, SeluGrad, for selugrad.inc's list) */
    sg_unary_fn fn1;   /* SG_OP_SELU */
} sg_kernel;

/* Inputs the kernel reads: 2 (g, o) or 1 (x). */
static inline unsigned sg_kernel_inputs(const sg_kernel *k) {
    return k->op == SG_OP_SELU ? 1u : 2u;
}

/* Runs k on n contiguous elements: in1 is ignored by a one-input kernel. */
static inline void sg_kernel_call(const sg_kernel *k, size_t n, const void *in0, const void *in1,
                                  void *y) {
    if (k->op == SG_OP_SELU)
        k->fn1(n, in0, y);
    else
        k->fn(n, in0, in1, y);
}

/* Declarations of every kernel in the list. */
#define SG_KERNEL(tag, dtype, variant, isa, part_kib)                                              \
    void sg_##tag##_selugrad__##variant(size_t n, const void *g, const void *o, void *y);
#include "selugrad.inc"
#undef SG_KERNEL
#define SG_SELU_KERNEL(tag, dtype, variant, isa, part_kib)                                         \
    void sg_##tag##_selu__##variant(size_t n, const void *x, void *y);
#include "selu.inc"
#undef SG_SELU_KERNEL

/* The kernels' loops are functions that take their steps as function pointers (x86_nt.h,
   avx2/sg_avx2.h, avx512/sg_avx512.h). A loop is always inlined into its kernel, where the
   pointers are constants, so that the compiler calls the steps directly and inlines them: at
   -O1 and above GCC 12 and clang 14 leave no indirect call in a kernel (objdump -d). */
#define SG_ALWAYS_INLINE static inline __attribute__((always_inline))

/* 0.0f read through a volatile object, so that no compiler can fold it into what it is compared
   with. The float16 kernels compare the fp32 values VCVTPH2PS made of o with it: clang 14
   rewrites a compare of such a widened value with a constant into a compare of the fp16 values,
   which without AVX512-FP16 it then expands lane by lane (its AVX2 and AVX-512F float16 kernels
   took 5-10x GCC's time without this: `selugrad_bench --dtype=f16 --size=4K --threads=1
   --isa=avx2,avx512`, a build by each compiler). One load per call. */
static inline float sg_opaque_zero(void) {
    static const volatile float zero = 0.0f;
    return zero;
}

/* p, passed through a volatile copy the compiler cannot see through. The block loops of the
   16-bit kernels with a fast path (sg256_fast_loop, sg512_fast_loop) read a flagged block again
   through it: otherwise GCC keeps what the fast step loaded and converted for the full step,
   hoisted above the fast step's check and spilled to the stack (GCC 12 at -O3: 8-39 stack
   accesses per clean block, by kernel, against 0-2 with it; counted in objdump -d of the kernel
   objects). */
static inline const uint16_t *sg_launder16(const uint16_t *p) {
    const uint16_t *volatile v = p;
    return v;
}

/* Whether y partly overlaps g or o, n elements of es bytes each (y == g and y == o are fine): the
   kernels with a fast path that holds a block of results in registers keep their plain element
   order then (the API refuses it; a direct caller may not). */
static inline int sg_partial_overlap(const void *g, const void *o, const void *y, size_t n,
                                     size_t es) {
    uintptr_t yb = (uintptr_t)y, gb = (uintptr_t)g, ob = (uintptr_t)o, len = n * es;
    return (y != g && yb < gb + len && gb < yb + len) || (y != o && yb < ob + len && ob < yb + len);
}

/* The whole list, in list order, and its length. */
extern const sg_kernel sg_kernels[];
extern const size_t sg_kernel_count;

/* The forward list (selu.inc), in list order, and its length. */
extern const sg_kernel sg_selu_kernels[];
extern const size_t sg_selu_kernel_count;

#endif /* SELUGRAD_KERNELS_KERNEL_H */
