#include "exec.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/dtype.h"
#include "../common/tiling.h"
#include "fpenv.h"
#include "pool.h"

/* The UB bytes per element of k's operator and dtype, for the CPU's tiling. */
static int64_t sg_kernel_tiling_bpe(const sg_kernel *k) {
    return k->op == SG_OP_SELU ? sg_dtype_selu_bpe(k->dtype) : sg_dtype_ub_bpe(k->dtype);
}

size_t sg_part_bytes(const sg_kernel *k) {
#ifdef SG_INLINE_BYTES
    (void)k;
    return (size_t)(SG_INLINE_BYTES);
#else
    return (size_t)k->part_kib << 10;
#endif
}

/* Bytes of one array (of the three, or two, a call moves) each thread must get: that share of
   its traffic. */
static size_t sg_thread_share(const sg_kernel *k) {
    size_t per = sg_part_bytes(k) / (sg_kernel_inputs(k) + 1);
    return per ? per : 1;
}

/* Threads a call of n elements wants: every thread gets at least sg_part_bytes of traffic, so a
   small call runs on the calling thread alone and a middling one wakes only some workers. */
static size_t sg_threads_wanted(const sg_kernel *k, size_t n) {
    return n * selugrad_dtype_size(k->dtype) / sg_thread_share(k);
}

void sg_plan_make(sg_plan *plan, const sg_kernel *k, size_t n, unsigned max_threads) {
    size_t es = selugrad_dtype_size(k->dtype);
    plan->kernel = k;
    plan->n = n;
    plan->elem_size = es;
    size_t want = sg_threads_wanted(k, n);
    unsigned cores = max_threads ? max_threads : 1;
    if (want < cores) cores = want ? (unsigned)want : 1u;
    sg_tiling t;
    if (sg_tiling_compute_bpe((int64_t)n, (int64_t)cores, SG_CPU_UB_BYTES, sg_kernel_tiling_bpe(k),
                              &t) != SELUGRAD_OK) {
        t = (sg_tiling){(int64_t)n, (int64_t)n, 32, 1, 0};
    }
    plan->nth = (unsigned)t.block_dim;
    plan->block = (size_t)t.block_former;
    plan->chunk = (size_t)t.ub_former;
}

int sg_run_small(const sg_kernel *k, size_t n, const void *g, const void *o, void *y) {
    /* one core, so one block [0, n): skipping the plan costs 14-18 ns of overhead instead of
       41-56 (docs/dispatch.md) */
    if (n * selugrad_dtype_size(k->dtype) >= 2 * sg_thread_share(k) || sg_verbose())
        return 0; /* sg_threads_wanted(k, n) > 1, without its division (n * es cannot overflow:
                     the caller's size check bounds the bytes) */
    sg_fpenv env;
    sg_fpenv_enter(&env);
    sg_kernel_call(k, n, g, o, y);
    sg_fpenv_leave(&env);
    return 1;
}

typedef struct sg_job {
    const sg_plan *plan;
    const char *g, *o;
    char *y;
    ptrdiff_t gs, os, ys; /* element strides; all 1 for the contiguous path */
    int contiguous;
} sg_job;

/* Elements [begin, end) of part ith when the blocks of n elements (block elements each, the
   last one shorter) are spread over nth threads: thread ith takes a contiguous run of whole
   blocks, so each block stays on one thread whatever nth is. */
static void sg_part_range(size_t n, size_t block, unsigned ith, unsigned nth, size_t *begin,
                          size_t *end) {
    size_t blocks = n / block + (n % block != 0);
    size_t per = (blocks + nth - 1) / nth;
    size_t b0 = (size_t)ith * per;
    size_t b1 = b0 + per;
    if (b1 > blocks) b1 = blocks;
    *begin = b0 * block < n ? b0 * block : n;
    *end = b1 * block < n ? b1 * block : n;
    if (*end < *begin) *end = *begin;
}

/* Copies m elements of es bytes (1, 2 or 4) from a run with a stride of `stride` elements into a
   packed buffer, or back: one loop per element size, so that each copy is one load and one store
   of a known size rather than a call of memcpy. */
static void sg_gather(unsigned char *dst, const char *src, ptrdiff_t stride, size_t m, size_t es) {
    ptrdiff_t sb = stride * (ptrdiff_t)es;
    if (es == 4)
        for (size_t j = 0; j < m; j++) memcpy(dst + j * 4, src + (ptrdiff_t)j * sb, 4);
    else if (es == 2)
        for (size_t j = 0; j < m; j++) memcpy(dst + j * 2, src + (ptrdiff_t)j * sb, 2);
    else
        for (size_t j = 0; j < m; j++) memcpy(dst + j, src + (ptrdiff_t)j * sb, 1);
}

static void sg_scatter(char *dst, ptrdiff_t stride, const unsigned char *src, size_t m, size_t es) {
    ptrdiff_t sb = stride * (ptrdiff_t)es;
    if (es == 4)
        for (size_t j = 0; j < m; j++) memcpy(dst + (ptrdiff_t)j * sb, src + j * 4, 4);
    else if (es == 2)
        for (size_t j = 0; j < m; j++) memcpy(dst + (ptrdiff_t)j * sb, src + j * 2, 2);
    else
        for (size_t j = 0; j < m; j++) memcpy(dst + (ptrdiff_t)j * sb, src + j, 1);
}

void sg_run_strided_range(const sg_kernel *k, size_t chunk, size_t n, const void *g, ptrdiff_t gs,
                          const void *o, ptrdiff_t os, void *y, ptrdiff_t ys) {
    enum { CAP = 1024 };
    _Alignas(64) unsigned char gb[CAP * 4], ob[CAP * 4], yb[CAP * 4];
    size_t es = selugrad_dtype_size(k->dtype);
    const char *gp = (const char *)g, *op = (const char *)o;
    char *yp = (char *)y;
    int two = sg_kernel_inputs(k) == 2; /* o is read only by two-input kernels */
    if (chunk > CAP || chunk == 0) chunk = CAP;
    for (size_t i = 0; i < n; i += chunk) {
        size_t m = n - i < chunk ? n - i : chunk;
        ptrdiff_t at = (ptrdiff_t)i * (ptrdiff_t)es;
        sg_gather(gb, gp + at * gs, gs, m, es);
        if (two) sg_gather(ob, op + at * os, os, m, es);
        sg_kernel_call(k, m, gb, ob, yb);
        sg_scatter(yp + at * ys, ys, yb, m, es);
    }
}

static void sg_job_part(void *ctx, unsigned ith, unsigned nth) {
    const sg_job *job = (const sg_job *)ctx;
    const sg_plan *p = job->plan;
    size_t begin, end;
    sg_part_range(p->n, p->block, ith, nth, &begin, &end);
    if (begin == end) return;
    sg_fpenv env;
    sg_fpenv_enter(&env);
    size_t es = p->elem_size;
    ptrdiff_t b = (ptrdiff_t)begin;
    /* a one-input job has o NULL and os 0 */
    sg_run_strided_range(p->kernel, p->chunk, end - begin, job->g + b * job->gs * (ptrdiff_t)es,
                         job->gs, job->o ? job->o + b * job->os * (ptrdiff_t)es : NULL, job->os,
                         job->y + b * job->ys * (ptrdiff_t)es, job->ys);
    sg_fpenv_leave(&env);
}

/* A contiguous call's job: all a part needs, small enough for the pool to pass by value in the
   cache line its waiting workers read (pool.h), so a worker reads nothing else of the caller's. */
typedef struct sg_flat_job {
    const sg_kernel *kernel;
    size_t n, block;
    const char *g, *o;
    char *y;
} sg_flat_job;

static void sg_flat_part(void *ctx, unsigned ith, unsigned nth) {
    const sg_flat_job *job = (const sg_flat_job *)ctx;
    size_t begin, end;
    sg_part_range(job->n, job->block, ith, nth, &begin, &end);
    if (begin == end) return;
    sg_fpenv env;
    sg_fpenv_enter(&env);
    size_t es = selugrad_dtype_size(job->kernel->dtype);
    sg_kernel_call(job->kernel, end - begin, job->g + begin * es,
                   job->o ? job->o + begin * es : NULL, job->y + begin * es);
    sg_fpenv_leave(&env);
}

static int sg_verbose_flag;
static pthread_once_t sg_verbose_once = PTHREAD_ONCE_INIT;

static void sg_verbose_init(void) {
    const char *env = getenv("SELUGRAD_VERBOSE");
    sg_verbose_flag = env != NULL && env[0] != '\0' && strcmp(env, "0") != 0;
}

int sg_verbose(void) {
    pthread_once(&sg_verbose_once, sg_verbose_init);
    return sg_verbose_flag;
}

void sg_plan_print(const sg_plan *p, int contiguous) {
    fprintf(stderr, "selugrad: dtype=%s n=%zu kernel=%s threads=%u block=%zu chunk=%zu %s\n",
            selugrad_dtype_name(p->kernel->dtype), p->n, p->kernel->name, p->nth, p->block,
            p->chunk, contiguous ? "contiguous" : "strided");
}

static selugrad_status sg_plan_go(sg_job *job) {
    const sg_plan *p = job->plan;
    if (sg_verbose()) sg_plan_print(p, job->contiguous);
    if (p->n == 0) return SELUGRAD_OK;
    if (job->contiguous) {
        sg_flat_job flat = {p->kernel, p->n, p->block, job->g, job->o, job->y};
        return sg_pool_run(p->nth, sg_flat_part, &flat, sizeof flat);
    }
    return sg_pool_run(p->nth, sg_job_part, job, 0);
}

selugrad_status sg_plan_run(const sg_plan *plan, const void *g, const void *o, void *y) {
    sg_job job = {plan, (const char *)g, (const char *)o, (char *)y, 1, 1, 1, 1};
    return sg_plan_go(&job);
}

selugrad_status sg_plan_run_strided(const sg_plan *plan, const void *g, ptrdiff_t gs, const void *o,
                                    ptrdiff_t os, void *y, ptrdiff_t ys) {
    sg_job job = {plan,
                  (const char *)g,
                  (const char *)o,
                  (char *)y,
                  gs,
                  os,
                  ys,
                  gs == 1 && (os == 1 || o == NULL) && ys == 1};
    return sg_plan_go(&job);
}
