/*
 * A second peer: oneDNN's eltwise backward with the algorithm eltwise_elu_use_dst_for_bwd and
 * alpha = SA, diff_src = diff_dst * (dst > 0 ? 1 : dst + alpha), run on the same buffers (dst = o,
 * diff_dst = g, diff_src = y) and the same threads as the library call. It moves the same bytes
 * and makes the same kind of select, but it is not SeluGrad: where o > 0 it multiplies by 1, not
 * by scale, so it is a speed peer only. oneDNN's CPU engine has it for f32 and bf16; the other
 * dtypes are skipped with the reason. oneDNN picks its own ISA (the bench's --isa cap does not
 * reach it) and runs on OpenMP threads (Debian's build), whose count is set per row.
 * libdnnl.so.2 is opened at run time (dlopen), so neither the benchmark nor the selugrad command
 * depends on it: where it is missing the rows say so. Built with oneDNN's header where CMake
 * finds it (SGB_HAVE_ONEDNN; Debian: libdnnl-dev).
 */
#define _POSIX_C_SOURCE 200809L /* setenv, dlopen */
#include <stdlib.h>

#include "bench_internal.h"

/* oneDNN's eltwise backward has no other dtype, in any build of it: said before whether it is
   here at all */
static const char *sgb_onednn_dtype_why(selugrad_dtype dtype) {
    if (dtype != SELUGRAD_FLOAT && dtype != SELUGRAD_BF16)
        return "oneDNN's eltwise backward takes f32 and bf16 only";
    return NULL;
}

#if defined(SGB_HAVE_ONEDNN)
#include <dlfcn.h>
#include <pthread.h>

#include "oneapi/dnnl/dnnl.h"

#define SGB_SA 1.7580993408473768599402175208123f

/* The oneDNN functions used, found in libdnnl.so.2 by name. */
#define SGB_DNNL_FUNCS(X)                                                                          \
    X(dnnl_engine_create)                                                                          \
    X(dnnl_stream_create)                                                                          \
    X(dnnl_stream_wait)                                                                            \
    X(dnnl_memory_desc_init_by_tag)                                                                \
    X(dnnl_eltwise_forward_desc_init)                                                              \
    X(dnnl_eltwise_backward_desc_init)                                                             \
    X(dnnl_primitive_desc_create)                                                                  \
    X(dnnl_primitive_desc_query)                                                                   \
    X(dnnl_primitive_desc_destroy)                                                                 \
    X(dnnl_primitive_create)                                                                       \
    X(dnnl_primitive_destroy)                                                                      \
    X(dnnl_primitive_execute)                                                                      \
    X(dnnl_memory_create)                                                                          \
    X(dnnl_memory_destroy)                                                                         \
    X(dnnl_memory_set_data_handle)

static struct {
#define SGB_DNNL_PTR(f) __typeof__(&f) f;
    SGB_DNNL_FUNCS(SGB_DNNL_PTR)
#undef SGB_DNNL_PTR
    void (*omp_set_num_threads)(int);
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    const char *why; /* NULL when all of the above is ready */
} sgb_dnnl;
static pthread_once_t sgb_dnnl_once = PTHREAD_ONCE_INIT;

/* Opens libdnnl.so.2, finds the functions and makes one engine and stream for the process.
   Unless the user set OMP_WAIT_POLICY, it is set to passive before oneDNN is opened: OpenMP's
   default keeps idle threads spinning, and with the library's pool in the same process the two
   sets of threads take each other's cores (with both spinning, a 64K f32 call of oneDNN on two
   threads took 0.7-7 ms on this 2-core machine instead of about 25 us on one). That reaches the
   OpenMP runtime only where it loads with oneDNN: a program linked with libgomp (selugrad_bench,
   for --omp) read the variable at its start, so there oneDNN's threads spin, and run.c times
   oneDNN apart from the others. */
static void sgb_dnnl_init(void) {
    setenv("OMP_WAIT_POLICY", "passive", 0);
    void *lib = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        sgb_dnnl.why = "libdnnl.so.2 not found (Debian: libdnnl2)";
        return;
    }
    sgb_dnnl.why = "libdnnl.so.2 lacks a function this benchmark calls";
#define SGB_DNNL_SYM(f)                                                                            \
    *(void **)&sgb_dnnl.f = dlsym(lib, #f);                                                        \
    if (sgb_dnnl.f == NULL) return;
    SGB_DNNL_FUNCS(SGB_DNNL_SYM)
#undef SGB_DNNL_SYM
    /* its OpenMP runtime, loaded with it: dlsym on the handle searches its dependencies too
       (none in a build on another threading runtime) */
    *(void **)&sgb_dnnl.omp_set_num_threads = dlsym(lib, "omp_set_num_threads");
    if (sgb_dnnl.dnnl_engine_create(&sgb_dnnl.engine, dnnl_cpu, 0) != dnnl_success ||
        sgb_dnnl.dnnl_stream_create(&sgb_dnnl.stream, sgb_dnnl.engine, dnnl_stream_default_flags) !=
            dnnl_success) {
        sgb_dnnl.why = "oneDNN has no CPU engine here";
        return;
    }
    sgb_dnnl.why = NULL;
}

struct sgb_onednn {
    sgb_bufs *bufs;
    dnnl_primitive_desc_t fwd, bwd;
    dnnl_primitive_t prim;
    dnnl_memory_t g, o, y;
    const char *impl;
};

void sgb_onednn_close(sgb_onednn *p) {
    if (p == NULL) return;
    if (p->prim) sgb_dnnl.dnnl_primitive_destroy(p->prim);
    if (p->bwd) sgb_dnnl.dnnl_primitive_desc_destroy(p->bwd);
    if (p->fwd) sgb_dnnl.dnnl_primitive_desc_destroy(p->fwd);
    if (p->g) sgb_dnnl.dnnl_memory_destroy(p->g);
    if (p->o) sgb_dnnl.dnnl_memory_destroy(p->o);
    if (p->y) sgb_dnnl.dnnl_memory_destroy(p->y);
    free(p);
}

/* The primitive descriptors, the primitive and the three memory objects of p. */
static int sgb_onednn_make(sgb_onednn *p, dnnl_data_type_t dt) {
    dnnl_dims_t dims = {(dnnl_dim_t)p->bufs->n};
    dnnl_memory_desc_t md;
    dnnl_eltwise_desc_t fd, bd;
    const dnnl_alg_kind_t alg = dnnl_eltwise_elu_use_dst_for_bwd;
    dnnl_engine_t e = sgb_dnnl.engine;
    return sgb_dnnl.dnnl_memory_desc_init_by_tag(&md, 1, dims, dt, dnnl_a) != dnnl_success ||
           sgb_dnnl.dnnl_eltwise_forward_desc_init(&fd, dnnl_forward_training, alg, &md, SGB_SA,
                                                   0.0f) != dnnl_success ||
           sgb_dnnl.dnnl_primitive_desc_create(&p->fwd, &fd, NULL, e, NULL) != dnnl_success ||
           sgb_dnnl.dnnl_eltwise_backward_desc_init(&bd, alg, &md, &md, SGB_SA, 0.0f) !=
               dnnl_success ||
           sgb_dnnl.dnnl_primitive_desc_create(&p->bwd, &bd, NULL, e, p->fwd) != dnnl_success ||
           sgb_dnnl.dnnl_primitive_create(&p->prim, p->bwd) != dnnl_success ||
           sgb_dnnl.dnnl_primitive_desc_query(p->bwd, dnnl_query_impl_info_str, 0, &p->impl) !=
               dnnl_success ||
           sgb_dnnl.dnnl_memory_create(&p->g, &md, e, sgb_buf(p->bufs, 0, 0)) != dnnl_success ||
           sgb_dnnl.dnnl_memory_create(&p->o, &md, e, sgb_buf(p->bufs, 0, 1)) != dnnl_success ||
           sgb_dnnl.dnnl_memory_create(&p->y, &md, e, sgb_buf(p->bufs, 0, 2)) != dnnl_success;
}

sgb_onednn *sgb_onednn_open(sgb_bufs *b, selugrad_dtype dtype, const char **why) {
    if ((*why = sgb_onednn_dtype_why(dtype)) != NULL) return NULL;
    pthread_once(&sgb_dnnl_once, sgb_dnnl_init);
    if (sgb_dnnl.why) {
        *why = sgb_dnnl.why;
        return NULL;
    }
    sgb_onednn *p = calloc(1, sizeof *p);
    if (p == NULL) {
        *why = "out of memory";
        return NULL;
    }
    p->bufs = b;
    if (sgb_onednn_make(p, dtype == SELUGRAD_FLOAT ? dnnl_f32 : dnnl_bf16) != 0) {
        sgb_onednn_close(p);
        *why = "oneDNN has no eltwise backward primitive for this dtype on this CPU";
        return NULL;
    }
    *why = NULL;
    return p;
}

const char *sgb_onednn_impl(const sgb_onednn *p) {
    return p->impl;
}

void sgb_onednn_threads(unsigned nth) {
    if (sgb_dnnl.omp_set_num_threads) sgb_dnnl.omp_set_num_threads((int)nth);
}

int sgb_onednn_call(void *ctx) {
    sgb_onednn *p = ctx;
    size_t set = sgb_bufs_take(p->bufs);
    if (sgb_dnnl.dnnl_memory_set_data_handle(p->g, sgb_buf(p->bufs, set, 0)) != dnnl_success ||
        sgb_dnnl.dnnl_memory_set_data_handle(p->o, sgb_buf(p->bufs, set, 1)) != dnnl_success ||
        sgb_dnnl.dnnl_memory_set_data_handle(p->y, sgb_buf(p->bufs, set, 2)) != dnnl_success)
        return -1;
    dnnl_exec_arg_t args[3] = {
        {DNNL_ARG_DST, p->o}, {DNNL_ARG_DIFF_DST, p->g}, {DNNL_ARG_DIFF_SRC, p->y}};
    if (sgb_dnnl.dnnl_primitive_execute(p->prim, sgb_dnnl.stream, 3, args) != dnnl_success)
        return -1;
    return sgb_dnnl.dnnl_stream_wait(sgb_dnnl.stream) == dnnl_success ? 0 : -1;
}

#else

struct sgb_onednn {
    int unused;
};

sgb_onednn *sgb_onednn_open(sgb_bufs *b, selugrad_dtype dtype, const char **why) {
    (void)b;
    if ((*why = sgb_onednn_dtype_why(dtype)) != NULL) return NULL;
#if defined(SGB_ONEDNN_SANITIZED)
    *why = "not built: a sanitizer build (bench/CMakeLists.txt says why)";
#else
    *why = "not built: CMake found no oneDNN header (Debian: libdnnl-dev)";
#endif
    return NULL;
}

void sgb_onednn_close(sgb_onednn *p) {
    free(p);
}

const char *sgb_onednn_impl(const sgb_onednn *p) {
    (void)p;
    return "";
}

void sgb_onednn_threads(unsigned nth) {
    (void)nth;
}

int sgb_onednn_call(void *ctx) {
    (void)ctx;
    return -1;
}

#endif
