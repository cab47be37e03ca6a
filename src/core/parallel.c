/*
 * The host parallel-for hook. The pair (fn, ctx) is read on every call that splits and written
 * rarely, so it sits behind a sequence lock: a reader takes the pair when the sequence is even
 * and unchanged around its reads, with no lock and no write of its own.
 */
#include "parallel.h"

#include <pthread.h>
#include <stdatomic.h>

#include "cache.h"

#ifndef SG_HOOK_TASKS_PER_THREAD
#define SG_HOOK_TASKS_PER_THREAD 8
#endif

static atomic_uint sg_hook_seq; /* odd while a writer changes the pair */
static _Atomic(selugrad_parallel_for_fn) sg_hook_fn;
static _Atomic(void *) sg_hook_ctx;
static pthread_mutex_t sg_hook_mu = PTHREAD_MUTEX_INITIALIZER; /* one writer at a time */

/* fork() in another thread while a writer is between its two stores of the sequence would give
   the child an odd sequence that no writer ends, and every reader there would wait for it: the
   fork waits for the writer (sg_hook_mu held across it), so the child gets the pair one writer
   left, which is the host's setting, kept as it is. Registered by the first writer before it
   takes the lock. */
static void sg_hook_fork_prepare(void) {
    pthread_mutex_lock(&sg_hook_mu);
}

static void sg_hook_fork_done(void) {
    pthread_mutex_unlock(&sg_hook_mu);
}

static pthread_once_t sg_hook_fork_once = PTHREAD_ONCE_INIT;

static void sg_hook_fork_register(void) {
    /* fails only without memory: the hook is then set without the handler */
    (void)pthread_atfork(sg_hook_fork_prepare, sg_hook_fork_done, sg_hook_fork_done);
}

selugrad_status selugrad_set_parallel_for(selugrad_parallel_for_fn fn, void *ctx) {
    pthread_once(&sg_hook_fork_once, sg_hook_fork_register);
    pthread_mutex_lock(&sg_hook_mu);
    unsigned s = atomic_load_explicit(&sg_hook_seq, memory_order_relaxed);
    atomic_store_explicit(&sg_hook_seq, s + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&sg_hook_fn, fn, memory_order_relaxed);
    atomic_store_explicit(&sg_hook_ctx, fn ? ctx : NULL, memory_order_relaxed);
    atomic_store_explicit(&sg_hook_seq, s + 2, memory_order_release);
    pthread_mutex_unlock(&sg_hook_mu);
    return SELUGRAD_OK;
}

/* The pair as one writer left it; false when no hook is set. */
static bool sg_hook_get(selugrad_parallel_for_fn *fn, void **ctx) {
    for (;;) {
        unsigned s = atomic_load_explicit(&sg_hook_seq, memory_order_acquire);
        *fn = atomic_load_explicit(&sg_hook_fn, memory_order_relaxed);
        *ctx = atomic_load_explicit(&sg_hook_ctx, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if ((s & 1u) == 0 && atomic_load_explicit(&sg_hook_seq, memory_order_relaxed) == s)
            return *fn != NULL;
    }
}

bool sg_parallel_hooked(void) {
    selugrad_parallel_for_fn fn;
    void *ctx;
    return sg_hook_get(&fn, &ctx);
}

unsigned sg_threads_for(unsigned asked, unsigned cpus, bool hooked) {
    if (hooked) return asked ? asked : 1u;
    return sg_threads_capped(asked, cpus);
}

unsigned sg_threads_call(void) {
    return sg_threads_for(sg_threads_default(), sg_cpus_available(), sg_parallel_hooked());
}

bool sg_hook_worth(size_t cost, size_t traffic, size_t l2) {
    return cost >= SG_HOOK_MIN_COST || (l2 != 0 && traffic > l2 - l2 / 4);
}

bool sg_parallel_on_host(unsigned nth, size_t n_tasks, size_t cost, size_t traffic) {
    return nth > 1 && n_tasks > 1 && sg_parallel_hooked() &&
           sg_hook_worth(cost, traffic, sg_caches_get()->l2);
}

typedef struct sg_hook_job {
    sg_range_fn fn;
    void *ctx;
    size_t n_tasks, groups;
} sg_hook_job;

/* The host's task i: the i-th of `groups` runs of whole tasks, one range. */
static void sg_hook_task(void *task_ctx, size_t i) {
    const sg_hook_job *j = (const sg_hook_job *)task_ctx;
    size_t b = i * j->n_tasks / j->groups, e = (i + 1) * j->n_tasks / j->groups;
    if (b < e) j->fn(j->ctx, b, e);
}

selugrad_status sg_parallel_for(unsigned nth, size_t n_tasks, sg_range_fn fn, void *ctx,
                                size_t size, size_t cost, size_t traffic) {
    selugrad_parallel_for_fn hook;
    void *hook_ctx;
    if (nth > 1 && n_tasks > 1 && sg_hook_get(&hook, &hook_ctx)) {
        if (!sg_hook_worth(cost, traffic, sg_caches_get()->l2)) {
            fn(ctx, 0, n_tasks);
            return SELUGRAD_OK;
        }
        /* at most SG_HOOK_TASKS_PER_THREAD host tasks per thread, as many as the own pool's
           split makes (a dynamic host balances them); a long call's many small tasks (exec.h,
           SG_TASK_MOST_PARTS) go to the host in runs, each one range */
        size_t groups = (size_t)nth * SG_HOOK_TASKS_PER_THREAD;
        sg_hook_job j = {fn, ctx, n_tasks, groups < n_tasks ? groups : n_tasks};
        hook(hook_ctx, j.groups, sg_hook_task, &j);
        return SELUGRAD_OK;
    }
    return sg_pool_for(nth, n_tasks, fn, ctx, size, cost);
}
