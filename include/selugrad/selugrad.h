/*
 * selugrad: the SeluGrad operator of Huawei CANN (aclnnSeluBackward) on ordinary CPUs.
 *
 * Native C API. Every result is bit-identical to the contract (docs/contract.md, "Per-dtype
 * computation"): y = g * (o + SA) where o < 0, else g * scale, rounded per dtype. Each function's
 * errors and thread safety: docs/api.md.
 * All functions are thread-safe. Messages of failures are kept per thread.
 */
#ifndef SELUGRAD_SELUGRAD_H
#define SELUGRAD_SELUGRAD_H

#include <stddef.h>
#include <stdint.h>

/* Marks the library's exported functions: it is built with hidden visibility by default, so its
   shared object exports exactly what is declared with SELUGRAD_API here and in
   selugrad_graph.h (and CANN's ACL_FUNC_VISIBILITY / ACLNN_API in the acl and aclnn headers). */
#ifndef SELUGRAD_API
#if defined(__GNUC__)
#define SELUGRAD_API __attribute__((visibility("default")))
#else
#define SELUGRAD_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SELUGRAD_VERSION_MAJOR 0
#define SELUGRAD_VERSION_MINOR 1
#define SELUGRAD_VERSION_PATCH 0

/* Element types, numbered as CANN's aclDataType. */
typedef enum selugrad_dtype {
    SELUGRAD_FLOAT = 0,
    SELUGRAD_FLOAT16 = 1,
    SELUGRAD_INT8 = 2,
    SELUGRAD_INT32 = 3,
    SELUGRAD_UINT8 = 4,
    SELUGRAD_BF16 = 27
} selugrad_dtype;

/* Outcome of a call; every failure also leaves a message for selugrad_last_error(). */
typedef enum selugrad_status {
    SELUGRAD_OK = 0,
    SELUGRAD_ERR_NULL_POINTER = 1, /* a required pointer is NULL */
    SELUGRAD_ERR_BAD_DTYPE = 2,    /* not one of the six selugrad_dtype values */
    SELUGRAD_ERR_OVERLAP = 3,      /* y partly overlaps grad or out (not the same array) */
    SELUGRAD_ERR_BAD_ARGUMENT = 4, /* any other invalid value (stride, count, name) */
    SELUGRAD_ERR_NO_MEMORY = 5,    /* an allocation failed */
    SELUGRAD_ERR_INTERNAL = 6      /* a bug or a failed system call (threads) */
} selugrad_status;

/*
 * y[i] = SeluGrad(grad[i], out[i]) for i < n. grad is the upstream gradient, out the SELU forward
 * output. y may be the same array as grad or out (in place); any other overlap is rejected.
 * n == 0 succeeds and touches nothing (the dtype is still checked first). Pointers may be at any
 * byte address: arrays off their element type's natural alignment give the same bits, copied in
 * chunks through aligned buffers (natural alignment is the fast case); fp16 and bf16 elements are
 * passed as uint16_t bit patterns. Checks, in order: dtype, n == 0, NULL pointers, size (the span
 * of each array at most PTRDIFF_MAX bytes and inside the address space), y stride, overlap. Overlap
 * is judged on addresses: memory mapped twice, y partly overlapping an input only through its
 * second address, cannot be seen and gives unspecified results (the same memory under two addresses
 * as an exact in-place alias is fine).
 */
SELUGRAD_API selugrad_status selugrad_backward(selugrad_dtype dtype, size_t n, const void *grad,
                                               const void *out, void *y);

/*
 * Strided variant: element i of grad is at grad + i * grad_stride elements (likewise out, y).
 * Strides count elements and may be zero or negative for the inputs; y_stride must not be zero
 * when n > 1. In place means the same base pointer and the same stride (any stride when n == 1);
 * any other overlap of the spans of y and an input is rejected.
 */
SELUGRAD_API selugrad_status selugrad_backward_strided(selugrad_dtype dtype, size_t n,
                                                       const void *grad, ptrdiff_t grad_stride,
                                                       const void *out, ptrdiff_t out_stride,
                                                       void *y, ptrdiff_t y_stride);

/*
 * The SELU forward: y[i] = selu(x[i]) for i < n, computed as docs/contract.md, "Forward per-dtype
 * computation" says per dtype (docs/numerics.md): FLOAT, FLOAT16, BF16, INT32 and INT8; UINT8 has
 * no forward (SELUGRAD_ERR_BAD_DTYPE). y may be the same array as x (in place); any other overlap
 * is rejected. Checks, in order: dtype, n == 0, NULL pointers, size, y stride, overlap; otherwise
 * as selugrad_backward. Every result is the same bits on every ISA and thread count.
 */
SELUGRAD_API selugrad_status selugrad_forward(selugrad_dtype dtype, size_t n, const void *x,
                                              void *y);

/* Strided variant: element i of x is at x + i * x_stride elements (likewise y); as
   selugrad_backward_strided for the strides, in place and overlap. */
SELUGRAD_API selugrad_status selugrad_forward_strided(selugrad_dtype dtype, size_t n, const void *x,
                                                      ptrdiff_t x_stride, void *y,
                                                      ptrdiff_t y_stride);

/* The forward kernel variant that runs for dtype now, e.g. "f32_selu__avx512"; NULL for UINT8 or
   an unknown dtype. */
SELUGRAD_API const char *selugrad_forward_kernel_name(selugrad_dtype dtype);

/* Message of this thread's last failure ("" when none yet). A later success does not clear it:
   read it when a call has returned an error. The pointer stays valid until this thread's next
   call into the library. */
SELUGRAD_API const char *selugrad_last_error(void);

/* Name of a status code, e.g. "SELUGRAD_ERR_OVERLAP"; "unknown status" for other values. */
SELUGRAD_API const char *selugrad_status_name(selugrad_status status);

/* Size in bytes of one element of dtype, or 0 for an unknown dtype. */
SELUGRAD_API size_t selugrad_dtype_size(selugrad_dtype dtype);

/* Short name of dtype ("f32", "f16", "bf16", "s8", "u8", "s32"), or NULL for an unknown one. */
SELUGRAD_API const char *selugrad_dtype_name(selugrad_dtype dtype);

/* The kernel variant that runs for dtype now (under the cap of selugrad_set_max_isa), e.g.
   "f32_selugrad__avx512"; NULL for an unknown dtype. */
SELUGRAD_API const char *selugrad_kernel_name(selugrad_dtype dtype);

/*
 * Instruction-set levels of the kernels. Within a family each level includes the ones below it:
 * x86-64 scalar < avx2 < avx512 < avx512fp16; aarch64 scalar < neon.
 */
typedef enum selugrad_isa {
    SELUGRAD_ISA_SCALAR = 0,     /* portable C: every CPU */
    SELUGRAD_ISA_AVX2 = 1,       /* AVX2, F16C and FMA */
    SELUGRAD_ISA_AVX512 = 2,     /* AVX-512 F, BW, VL and DQ */
    SELUGRAD_ISA_AVX512FP16 = 3, /* the above, AVX512-FP16 and AVX512_VBMI */
    SELUGRAD_ISA_NEON = 4,       /* aarch64 Advanced SIMD */
    SELUGRAD_ISA_ALL = 255       /* no cap: every level this CPU runs */
} selugrad_isa;

/*
 * The highest level dispatch may choose (oneDNN's dnnl_set_max_cpu_isa is the model): the kernels
 * of isa's family at or below it, and the scalar ones, qualify; SELUGRAD_ISA_ALL removes the cap.
 * A level this CPU lacks is a valid cap: dispatch then takes the best level below it that runs. A
 * level of another family (NEON on x86-64) leaves the scalar kernels. The default is the
 * environment variable SELUGRAD_MAX_ISA (a level's name or "all"; read once, when first needed;
 * an unknown name is reported on stderr and ignored), else SELUGRAD_ISA_ALL.
 * It may be called at any time, from any thread: every call that starts after it returns chooses
 * under the new cap; calls already running finish with the kernel they chose (every kernel gives
 * the same bits). An aclnn executor keeps the kernel of its phase 1. The cap is the process's.
 * Errors: SELUGRAD_ERR_BAD_ARGUMENT for a value that is not a selugrad_isa.
 */
SELUGRAD_API selugrad_status selugrad_set_max_isa(selugrad_isa isa);

/* The cap in force: the last selugrad_set_max_isa, else SELUGRAD_MAX_ISA's, else
   SELUGRAD_ISA_ALL. */
SELUGRAD_API selugrad_isa selugrad_get_max_isa(void);

/* "scalar", "avx2", "avx512", "avx512fp16", "neon", "all"; NULL for any other value. */
SELUGRAD_API const char *selugrad_isa_name(selugrad_isa isa);

/* 1 when this CPU and OS run kernels of level isa (the OS must save the registers it uses), else 0;
   0 also for SELUGRAD_ISA_ALL, which is no level. */
SELUGRAD_API int selugrad_isa_supported(selugrad_isa isa);

/* A kernel built into this library. */
typedef struct selugrad_kernel_info {
    const char *name;     /* e.g. "f16_selugrad__avx512", "f32_selu__avx2" */
    int forward;          /* 0: SeluGrad (selugrad_backward), 1: SELU (selugrad_forward) */
    selugrad_dtype dtype; /* the element type it computes */
    selugrad_isa isa;     /* the level it needs */
    int supported;        /* 1 when this CPU and OS run it */
    int chosen;           /* 1 when dispatch takes it now, under the current cap */
} selugrad_kernel_info;

/* How many kernels this library has: both operators, every dtype and level it was built with. */
SELUGRAD_API size_t selugrad_kernel_count(void);

/* Fills *info for kernel i (0 <= i < selugrad_kernel_count()), listed per operator and dtype from
   the most preferred to the least. SELUGRAD_ERR_NULL_POINTER for info NULL,
   SELUGRAD_ERR_BAD_ARGUMENT for i out of range. */
SELUGRAD_API selugrad_status selugrad_kernel_get(size_t i, selugrad_kernel_info *info);

/* Version as "MAJOR.MINOR.PATCH", and as MAJOR * 10000 + MINOR * 100 + PATCH. */
SELUGRAD_API const char *selugrad_version(void);
SELUGRAD_API int selugrad_version_number(void);

/*
 * Worker threads asked for one call (the calling thread counts as one). The default comes from
 * SELUGRAD_NUM_THREADS, else the CPUs this process may run on. A call on the library's own pool
 * runs on no more threads than those CPUs (its affinity mask, or a container's cgroup CPU quota
 * where lower); through a host parallel-for it is split for the count asked. Results never depend
 * on it. selugrad_set_num_threads(0) restores the default; values above 1024 are rejected;
 * selugrad_get_num_threads returns the count asked. The setting is the process's, not the
 * calling thread's.
 */
SELUGRAD_API selugrad_status selugrad_set_num_threads(int n);
SELUGRAD_API int selugrad_get_num_threads(void);

/*
 * Running the library's work on the host program's threads (OpenMP, a thread pool) instead of
 * its own pool. After selugrad_set_parallel_for(fn, ctx), every call that splits (one that
 * would use more than one thread, see selugrad_set_num_threads) hands its work to
 * fn(ctx, n_tasks, task, task_ctx), which must run task(task_ctx, i) once for every i in
 * [0, n_tasks), on any threads in any order, and return when all have returned: the shape of
 * oneDNN's threadpool interop and of pthreadpool's parallelize_1d. Tasks do not fail and do not
 * call into the library's thread settings. Calls too small to split, and calls too short to
 * pay for a host's fork and join (less than about 16 microseconds of one-thread work by the
 * library's estimate, and traffic within three quarters of the calling core's L2;
 * docs/dispatch.md), run on the calling thread without calling fn. fn = NULL restores the
 * library's own pool (ctx is then ignored). The setting is the process's; it applies to the
 * native and the aclnn API alike, aclnn streams included. Results are the same bits whatever
 * runs the tasks. Always returns SELUGRAD_OK.
 */
typedef void (*selugrad_task_fn)(void *task_ctx, size_t i);
typedef void (*selugrad_parallel_for_fn)(void *ctx, size_t n_tasks, selugrad_task_fn task,
                                         void *task_ctx);
SELUGRAD_API selugrad_status selugrad_set_parallel_for(selugrad_parallel_for_fn fn, void *ctx);

/* Exact conversions used by the contract: round to nearest even, subnormals kept, NaN stays NaN. */
SELUGRAD_API uint16_t selugrad_f32_to_f16(float x);
SELUGRAD_API float selugrad_f16_to_f32(uint16_t h);
SELUGRAD_API uint16_t selugrad_f32_to_bf16(float x);
SELUGRAD_API float selugrad_bf16_to_f32(uint16_t b);

#ifdef __cplusplus
}
#endif

#endif /* SELUGRAD_SELUGRAD_H */
