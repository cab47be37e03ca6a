#include "exec.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/dtype.h"
#include "../common/tiling.h"
#include "cache.h"
#include "fpenv.h"
#include "parallel.h"
#include "pool.h"
#if defined(__x86_64__) || defined(_M_X64)
#include "../kernels/nt_bytes.h"
#define SG_KERNEL_NT_BYTES SG_NT_MIN_BYTES /* a kernel call of this much traffic streams */
#else
#define SG_KERNEL_NT_BYTES 0 /* no kernel streams */
#endif

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

/* Arrays a call of k moves: its inputs and the output. */
static size_t sg_arrays(const sg_kernel *k) {
    return sg_kernel_inputs(k) + 1;
}

/* Traffic from which a call streams, when set for a measurement (0: from the caches). */
static _Atomic size_t sg_stream_override;

void sg_exec_set_stream_bytes(size_t bytes) {
    atomic_store_explicit(&sg_stream_override, bytes, memory_order_relaxed);
}

/* Whether a call of this traffic on nth threads streams its stores: from sg_stream_bytes of this
   CPU's caches (cache.h), and never where no kernel streams. */
static int sg_stream_wanted(size_t traffic, unsigned nth) {
    if (SG_KERNEL_NT_BYTES == 0) return 0;
    size_t at = atomic_load_explicit(&sg_stream_override, memory_order_relaxed);
    if (at == 0) at = sg_stream_bytes(sg_caches_get(), nth);
    return traffic >= at;
}

/* The most elements of k's dtype one kernel call gets when it must not stream: just below
   SG_KERNEL_NT_BYTES of traffic, a multiple of SG_TASK_ALIGN (or SIZE_MAX: nothing streams). */
static size_t sg_plain_most(const sg_kernel *k) {
    if (SG_KERNEL_NT_BYTES == 0) return SIZE_MAX;
    size_t e = ((size_t)SG_KERNEL_NT_BYTES - 1) / (sg_arrays(k) * selugrad_dtype_size(k->dtype));
    return e / SG_TASK_ALIGN * SG_TASK_ALIGN;
}

/* Elements per task: about SG_TASKS_PER_THREAD tasks per thread, each at least a third of the
   kernel's sg_part_bytes of traffic (a task's fixed costs stay small against its work) and at
   most SG_TASK_MOST_PARTS of them (so that a long call is claimed in pieces of about
   SG_POOL_CLAIM_US, pool.h), or SG_STREAM_TASK_MOST when the call streams and that is more, a
   multiple of SG_TASK_ALIGN elements, and at most SG_POOL_MAX_TASKS tasks. Tasks of a call that
   streams have SG_KERNEL_NT_BYTES of traffic or more, so that every kernel call streams; tasks
   of one that does not stay below it. So a task's size tells whether the call streams
   (sg_flat_range). */
static size_t sg_task_elems(const sg_kernel *k, size_t n, unsigned nth, int stream) {
    size_t es = selugrad_dtype_size(k->dtype);
    size_t bytes = sg_arrays(k) * n * es / ((size_t)nth * SG_TASKS_PER_THREAD);
    size_t cap = SG_TASK_MOST_PARTS * sg_part_bytes(k);
    if (stream && cap < SG_STREAM_TASK_MOST) cap = SG_STREAM_TASK_MOST;
    if (bytes > cap) bytes = cap;
    size_t least = sg_part_bytes(k) / 3;
    size_t nt_least = SG_KERNEL_NT_BYTES; /* 0 where no kernel streams */
    if (stream && least < nt_least) least = nt_least;
    if (bytes < least) bytes = least;
    size_t e = (bytes / (sg_arrays(k) * es) + SG_TASK_ALIGN - 1) / SG_TASK_ALIGN * SG_TASK_ALIGN;
    size_t most = (n + SG_POOL_MAX_TASKS - 1) / SG_POOL_MAX_TASKS;
    if (e < most) e = (most + SG_TASK_ALIGN - 1) / SG_TASK_ALIGN * SG_TASK_ALIGN;
    /* tasks of 64 KiB of y or more start on a 4 KiB boundary of an aligned y: no page is
       written by two threads, and each thread's hardware prefetchers run over whole pages */
    size_t page = 4096 / es;
    if (e * es >= ((size_t)64 << 10)) e = (e + page - 1) / page * page;
    if (!stream && e > sg_plain_most(k)) e = sg_plain_most(k);
    return e ? e : SG_TASK_ALIGN;
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
    plan->chunk = (size_t)t.ub_former;
    plan->stream = sg_stream_wanted(sg_arrays(k) * n * es, plan->nth);
    if (plan->nth <= 1) /* one task, or runs of them below the streaming size */
        plan->block = n == 0 ? 1 : plan->stream || n <= sg_plain_most(k) ? n : sg_plain_most(k);
    else
        plan->block = sg_task_elems(k, n, plan->nth, plan->stream);
    plan->tasks = n / plan->block + (n % plan->block != 0);
}

/* Whether g, o (NULL for a one-input kernel) and y all have the natural alignment of elements
   of es bytes (1, 2 or 4), which the kernels assume (kernel.h). */
static int sg_aligned(const void *g, const void *o, const void *y, size_t es) {
    return (((uintptr_t)g | (uintptr_t)o | (uintptr_t)y) & (es - 1)) == 0;
}

int sg_run_small(const sg_kernel *k, size_t n, const void *g, const void *o, void *y) {
    /* one core, so one block [0, n): skipping the plan costs 14-18 ns of overhead instead of
       41-56 (docs/dispatch.md) */
    size_t es = selugrad_dtype_size(k->dtype);
    if (n * es >= 2 * sg_thread_share(k) || sg_verbose() || !sg_aligned(g, o, y, es))
        return 0; /* sg_threads_wanted(k, n) > 1, without its division (n * es cannot overflow:
                     the caller's size check bounds the bytes); a misaligned array goes through
                     the copying path (sg_plan_go) */
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
    int contiguous;       /* all strides 1 (o's too, or no o) */
} sg_job;

/* Copies m elements of es bytes (1, 2 or 4) from a run with a stride of `stride` elements into a
   packed buffer, or back: one loop per element size, so that each copy is one load and one store
   of a known size rather than a call of memcpy. */
static void sg_gather(unsigned char *dst, const char *src, ptrdiff_t stride, size_t m, size_t es) {
    /* in unsigned arithmetic: a one-element run may carry any stride, even PTRDIFF_MIN */
    size_t sb = (size_t)stride * es;
    if (stride == 1) /* a contiguous array off its alignment */
        memcpy(dst, src, m * es);
    else if (es == 4)
        for (size_t j = 0; j < m; j++) memcpy(dst + j * 4, src + (ptrdiff_t)(j * sb), 4);
    else if (es == 2)
        for (size_t j = 0; j < m; j++) memcpy(dst + j * 2, src + (ptrdiff_t)(j * sb), 2);
    else
        for (size_t j = 0; j < m; j++) memcpy(dst + j, src + (ptrdiff_t)(j * sb), 1);
}

static void sg_scatter(char *dst, ptrdiff_t stride, const unsigned char *src, size_t m, size_t es) {
    /* in unsigned arithmetic: a one-element run may carry any stride, even PTRDIFF_MIN */
    size_t sb = (size_t)stride * es;
    if (stride == 1)
        memcpy(dst, src, m * es);
    else if (es == 4)
        for (size_t j = 0; j < m; j++) memcpy(dst + (ptrdiff_t)(j * sb), src + j * 4, 4);
    else if (es == 2)
        for (size_t j = 0; j < m; j++) memcpy(dst + (ptrdiff_t)(j * sb), src + j * 2, 2);
    else
        for (size_t j = 0; j < m; j++) memcpy(dst + (ptrdiff_t)(j * sb), src + j, 1);
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

/* Tasks [tb, te) of a plan as elements [*begin, *end). */
static void sg_task_span(const sg_plan *p, size_t tb, size_t te, size_t *begin, size_t *end) {
    *begin = tb * p->block;
    *end = te * p->block < p->n ? te * p->block : p->n;
}

/* a one-input job has o NULL and os 0 */
static void sg_strided_range(void *ctx, size_t tb, size_t te) {
    const sg_job *job = (const sg_job *)ctx;
    const sg_plan *p = job->plan;
    size_t begin, end;
    sg_task_span(p, tb, te, &begin, &end);
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

/* A contiguous call's job: all a task needs, small enough for the pool to pass by value in the
   cache line its waiting workers read (pool.h), so a worker reads nothing else of the caller's. */
typedef struct sg_flat_job {
    const sg_kernel *kernel;
    size_t n, block;
    const char *g, *o;
    char *y;
} sg_flat_job;

_Static_assert(sizeof(sg_flat_job) <= SG_POOL_JOB_BYTES, "a flat job travels by value");

/* Runs tasks [tb, te): one kernel call when the tasks stream (the call's tasks are that large
   only then), else calls of the most whole tasks that stay below the streaming size, so that a
   run of claimed tasks does not start streaming. */
static void sg_flat_range(void *ctx, size_t tb, size_t te) {
    const sg_flat_job *job = (const sg_flat_job *)ctx;
    const sg_kernel *k = job->kernel;
    size_t begin = tb * job->block, end = te * job->block < job->n ? te * job->block : job->n;
    size_t most = sg_plain_most(k), piece = end - begin;
    if (job->block <= most) {
        size_t whole = most / job->block * job->block;
        if (piece > whole) piece = whole;
    }
    sg_fpenv env;
    sg_fpenv_enter(&env);
    size_t es = selugrad_dtype_size(k->dtype);
    for (size_t i = begin; i < end; i += piece) {
        size_t m = end - i < piece ? end - i : piece;
        sg_kernel_call(k, m, job->g + i * es, job->o ? job->o + i * es : NULL, job->y + i * es);
    }
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

/* The bytes a job reads and writes. */
static size_t sg_job_traffic(const sg_plan *p) {
    return sg_arrays(p->kernel) * p->n * p->elem_size;
}

/* A job's time on one thread in microseconds, roughly: a kernel's part_kib of traffic takes
   about a microsecond on one thread (a second thread starts to pay at twice that). */
static size_t sg_job_cost(const sg_plan *p) {
    return sg_job_traffic(p) / sg_part_bytes(p->kernel);
}

void sg_plan_print(const sg_plan *p, int contiguous) {
    fprintf(
        stderr,
        "selugrad: dtype=%s n=%zu kernel=%s threads=%u block=%zu chunk=%zu %s tasks=%zu "
        "stores=%s%s\n",
        selugrad_dtype_name(p->kernel->dtype), p->n, p->kernel->name, p->nth, p->block, p->chunk,
        contiguous > 0    ? "contiguous"
        : contiguous == 0 ? "strided"
                          : "misaligned",
        p->tasks, contiguous > 0 && p->stream ? "stream" : "plain",
        sg_parallel_on_host(p->nth, p->tasks, sg_job_cost(p), sg_job_traffic(p)) ? " on=host" : "");
}

/* A contiguous job runs the kernel on the arrays themselves; a strided one, or a contiguous one
   with an array off its element's natural alignment (any byte address is allowed, docs/api.md),
   copies chunks through aligned buffers with byte copies (sg_run_strided_range). */
static selugrad_status sg_plan_go(sg_job *job) {
    const sg_plan *p = job->plan;
    int direct = job->contiguous && sg_aligned(job->g, job->o, job->y, p->elem_size);
    if (sg_verbose()) sg_plan_print(p, direct ? 1 : job->contiguous ? -1 : 0);
    if (p->n == 0) return SELUGRAD_OK;
    if (direct) {
        sg_flat_job flat = {p->kernel, p->n, p->block, job->g, job->o, job->y};
        return sg_parallel_for(p->nth, p->tasks, sg_flat_range, &flat, sizeof flat, sg_job_cost(p),
                               sg_job_traffic(p));
    }
    return sg_parallel_for(p->nth, p->tasks, sg_strided_range, job, 0, sg_job_cost(p),
                           sg_job_traffic(p));
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
