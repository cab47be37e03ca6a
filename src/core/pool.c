#define _GNU_SOURCE /* sched_getaffinity */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/error.h"

/* ---- thread count ---- */

static atomic_int sg_threads_override; /* 0: none */
static unsigned sg_threads_env;
static pthread_once_t sg_threads_once = PTHREAD_ONCE_INIT;

static unsigned sg_cpus_available(void) {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int c = CPU_COUNT(&set);
        if (c > 0) return (unsigned)c;
    }
#endif
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (unsigned)c : 1u;
}

static void sg_threads_init(void) {
    unsigned n = sg_cpus_available();
    const char *env = getenv("SELUGRAD_NUM_THREADS");
    if (env != NULL && env[0] != '\0') {
        char *end;
        long v = strtol(env, &end, 10);
        /* digits only: strtol would also take leading spaces and a sign */
        if (env[0] >= '0' && env[0] <= '9' && *end == '\0' && v >= 1 && v <= SG_MAX_THREADS)
            n = (unsigned)v;
        else
            fprintf(stderr,
                    "selugrad: SELUGRAD_NUM_THREADS=\"%s\" is not a whole number from 1 to %d; "
                    "using %u\n",
                    env, SG_MAX_THREADS, n);
    }
    sg_threads_env = n > SG_MAX_THREADS ? SG_MAX_THREADS : n;
}

unsigned sg_threads_default(void) {
    int o = atomic_load(&sg_threads_override);
    if (o > 0) return (unsigned)o;
    pthread_once(&sg_threads_once, sg_threads_init);
    return sg_threads_env;
}

selugrad_status selugrad_set_num_threads(int n) {
    if (n < 0 || n > SG_MAX_THREADS)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "selugrad_set_num_threads: n must be 0 (default) to %d, got %d",
                       SG_MAX_THREADS, n);
    atomic_store(&sg_threads_override, n);
    return SELUGRAD_OK;
}

int selugrad_get_num_threads(void) {
    return (int)sg_threads_default();
}

/* ---- the pool ----
 * A job is published by bumping `word`, which packs the job's generation (high bits) with its
 * part count (low 16 bits), so a worker reads both at once: a worker whose index is beyond the
 * part count never touches the job, and the job cannot change while a participating worker still
 * needs it (the caller holds job_lock until `pending` reaches zero). Workers spin for a while
 * on `word` before sleeping on a condition variable; the caller wakes them through the condition
 * only when one sleeps.
 * Cache lines: a waiting worker polls the line of `word`, which also holds `pending` and the copy
 * of a small job, so one transfer from the caller's core brings it the job too (a job left on
 * the caller's stack, and the plan it pointed to, took two more, one after the other); `fn` and
 * `ctx` sit in a line that a steady stream of calls does not write (they are written only when
 * they change; `sleepers` there changes only when a worker falls asleep or wakes), away from
 * job_lock, which every call writes. */

enum { SG_NTH_BITS = 16 };
/* How long a worker spins waiting for the next job (and the caller for the workers) before
   sleeping on a condition variable. A futex wake-up costs tens of microseconds on a VM, more
   than a whole in-cache call; measured in docs/dispatch.md. Checked by the clock because the
   duration of PAUSE varies tenfold between CPUs. */
#ifndef SG_POOL_YIELD_NS
#define SG_POOL_YIELD_NS 20000
#endif
#ifndef SG_POOL_SPIN_NS
#define SG_POOL_SPIN_NS 200000
#endif

typedef struct sg_pool {
    _Alignas(64) _Atomic uint64_t word; /* generation << 16 | parts */
    atomic_uint pending;                /* worker parts of the current job not yet finished */
    _Alignas(16) unsigned char job[SG_POOL_JOB_BYTES]; /* the copy of a job passed by value */
    _Alignas(64) sg_task_fn fn;
    void *ctx;            /* what the workers get: the caller's ctx, or `job` */
    atomic_uint sleepers; /* workers blocked on `wake` */
    atomic_int spin;      /* whether to spin: off when there are more threads than CPUs */
    unsigned workers;     /* threads started so far */
    uint64_t start_word;  /* `word` when the newest worker was started (under mu) */
    _Alignas(64) pthread_mutex_t job_lock; /* held by the caller whose job the pool runs */
    pthread_mutex_t mu; /* guards the condition variables, `workers`, `start_word` */
    pthread_cond_t wake, done;
} sg_pool;

_Static_assert(offsetof(sg_pool, job) + SG_POOL_JOB_BYTES <= 64,
               "the job copy shares the cache line of the job word");

static sg_pool sg_the_pool = {.job_lock = PTHREAD_MUTEX_INITIALIZER,
                              .mu = PTHREAD_MUTEX_INITIALIZER,
                              .wake = PTHREAD_COND_INITIALIZER,
                              .done = PTHREAD_COND_INITIALIZER};

static inline void sg_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("pause");
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static int64_t sg_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One spin-wait's deadline and next yield. Yielding now and then lets a waited-for thread
   that shares this CPU run; yielding often hands the CPU to unrelated processes for a whole
   time slice. */
typedef struct sg_spin {
    int64_t until, next_yield;
} sg_spin;

/* Called every 64 rounds of a spin; false when the spin should stop. */
static bool sg_spin_go_on(sg_spin *s) {
    if (!atomic_load_explicit(&sg_the_pool.spin, memory_order_relaxed)) return false;
    int64_t t = sg_now_ns();
    if (s->until == 0) {
        s->until = t + SG_POOL_SPIN_NS;
        s->next_yield = t + SG_POOL_YIELD_NS;
    }
    if (t >= s->next_yield) {
        sched_yield();
        s->next_yield = t + SG_POOL_YIELD_NS;
    }
    return t < s->until;
}

/* Spins until *a is zero or the spin ends; returns the last value read. */
static unsigned sg_spin_until_zero(atomic_uint *a) {
    sg_spin s = {0, 0};
    for (unsigned i = 1;; i++) {
        unsigned v = atomic_load_explicit(a, memory_order_acquire);
        if (v == 0 || ((i & 63u) == 0 && !sg_spin_go_on(&s))) return v;
        sg_cpu_relax();
    }
}

/* Spins until the job word differs from old or the spin ends; returns the last value read. */
static uint64_t sg_spin_word(sg_pool *p, uint64_t old) {
    sg_spin s = {0, 0};
    for (unsigned i = 1;; i++) {
        uint64_t w = atomic_load_explicit(&p->word, memory_order_acquire);
        if (w != old || ((i & 63u) == 0 && !sg_spin_go_on(&s))) return w;
        sg_cpu_relax();
    }
}

/* Waits until the job word differs from old: spins, then blocks on `wake`. */
static uint64_t sg_wait_word(sg_pool *p, uint64_t old) {
    uint64_t w = sg_spin_word(p, old);
    if (w != old) return w;
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->sleepers, 1);
    while ((w = atomic_load(&p->word)) == old) pthread_cond_wait(&p->wake, &p->mu);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mu);
    return w;
}

static void *sg_worker_main(void *arg) {
    sg_pool *p = &sg_the_pool;
    unsigned index = (unsigned)(size_t)arg;
    /* The job that made this worker is published after its creation: start from the word as it
       was then, not as it is now, or that first job would be missed. */
    pthread_mutex_lock(&p->mu);
    uint64_t seen = p->start_word;
    pthread_mutex_unlock(&p->mu);
    for (;;) {
        seen = sg_wait_word(p, seen);
        unsigned nth = (unsigned)(seen & ((1u << SG_NTH_BITS) - 1u));
        if (index >= nth) continue;
        p->fn(p->ctx, index, nth);
        if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
    return NULL;
}

/* Starts workers up to want (called with job_lock and mu held); returns how many exist. */
static unsigned sg_pool_grow(sg_pool *p, unsigned want) {
    p->start_word = atomic_load(&p->word);
    while (p->workers < want) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &attr, sg_worker_main, (void *)(size_t)(p->workers + 1));
        pthread_attr_destroy(&attr);
        if (rc != 0) break;
        p->workers++;
    }
    /* Spinning threads would steal the CPUs the others need when there are more than CPUs. */
    atomic_store(&p->spin, p->workers < sg_cpus_available());
    return p->workers;
}

/* All parts on the calling thread; parts after the first get a copy of a job passed by value,
   made before any part runs, as workers would. */
static void sg_run_inline(unsigned nth, sg_task_fn fn, void *ctx, size_t size) {
    _Alignas(16) unsigned char copy[SG_POOL_JOB_BYTES];
    if (size && nth > 1) memcpy(copy, ctx, size);
    for (unsigned i = 0; i < nth; i++) fn(i == 0 || size == 0 ? ctx : (void *)copy, i, nth);
}

selugrad_status sg_pool_run(unsigned nth, sg_task_fn fn, void *ctx, size_t size) {
    sg_pool *p = &sg_the_pool;
    if (size > SG_POOL_JOB_BYTES)
        return sg_fail(SELUGRAD_ERR_INTERNAL, "sg_pool_run: a job of %zu bytes (at most %d)", size,
                       (int)SG_POOL_JOB_BYTES);
    if (nth <= 1 || pthread_mutex_trylock(&p->job_lock) != 0) {
        sg_run_inline(nth ? nth : 1, fn, ctx, size);
        return SELUGRAD_OK;
    }
    if (nth > SG_MAX_THREADS) nth = SG_MAX_THREADS;
    unsigned have = p->workers; /* changed only by the holder of job_lock */
    if (have < nth - 1) {
        pthread_mutex_lock(&p->mu);
        have = sg_pool_grow(p, nth - 1);
        pthread_mutex_unlock(&p->mu);
    }
    /* If fewer workers could be started than asked, the job is split into fewer parts; an
       elementwise job gives the same results for any split. */
    unsigned helpers = have < nth - 1 ? have : nth - 1;
    unsigned parts = helpers + 1;
    /* written only when they change, so that the workers' copies of their line stay valid */
    if (p->fn != fn) p->fn = fn;
    void *given = size ? (void *)p->job : ctx;
    if (p->ctx != given) p->ctx = given;
    if (size) memcpy(p->job, ctx, size);
    /* ordered before the workers see the job by the seq_cst store of `word` below; one locked
       instruction per publish instead of two */
    atomic_store_explicit(&p->pending, helpers, memory_order_relaxed);
    uint64_t gen = (atomic_load(&p->word) >> SG_NTH_BITS) + 1u;
    atomic_store(&p->word, (gen << SG_NTH_BITS) | parts);
    if (atomic_load(&p->sleepers) != 0) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
    }

    fn(ctx, 0, parts);

    if (sg_spin_until_zero(&p->pending) != 0) {
        pthread_mutex_lock(&p->mu);
        while (atomic_load(&p->pending) != 0) pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
    pthread_mutex_unlock(&p->job_lock);
    return SELUGRAD_OK;
}
