#define _GNU_SOURCE /* sched_getaffinity */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "error.h"

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
        if (*end == '\0' && v >= 1 && v <= SG_MAX_THREADS)
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

int selugrad_get_num_threads(void) { return (int)sg_threads_default(); }

/* ---- the pool ---- */

typedef struct sg_pool {
    pthread_mutex_t job_lock; /* held by the caller whose job the pool runs */
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    unsigned workers;      /* threads started so far */
    unsigned long gen;     /* bumped for each job */
    sg_task_fn fn;
    void *ctx;
    unsigned nth;
    unsigned pending; /* worker parts not yet finished */
} sg_pool;

static sg_pool sg_the_pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                              PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL,
                              NULL, 0, 0};

static void *sg_worker_main(void *arg) {
    sg_pool *p = &sg_the_pool;
    unsigned index = (unsigned)(size_t)arg;
    pthread_mutex_lock(&p->mu);
    /* A worker is started by the job that needs it, and that job's gen is already bumped when
       the worker first gets mu (the job cannot finish without it): that job is still unseen. */
    unsigned long seen = p->gen - 1;
    for (;;) {
        while (p->gen == seen) pthread_cond_wait(&p->wake, &p->mu);
        seen = p->gen;
        if (index >= p->nth) continue;
        sg_task_fn fn = p->fn;
        void *ctx = p->ctx;
        unsigned nth = p->nth;
        pthread_mutex_unlock(&p->mu);
        fn(ctx, index, nth);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
    }
    return NULL;
}

/* Starts workers up to want (called with mu held); returns how many exist. */
static unsigned sg_pool_grow(sg_pool *p, unsigned want) {
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
    return p->workers;
}

static void sg_run_inline(unsigned nth, sg_task_fn fn, void *ctx) {
    for (unsigned i = 0; i < nth; i++) fn(ctx, i, nth);
}

selugrad_status sg_pool_run(unsigned nth, sg_task_fn fn, void *ctx) {
    sg_pool *p = &sg_the_pool;
    if (nth <= 1 || pthread_mutex_trylock(&p->job_lock) != 0) {
        sg_run_inline(nth ? nth : 1, fn, ctx);
        return SELUGRAD_OK;
    }
    pthread_mutex_lock(&p->mu);
    unsigned have = sg_pool_grow(p, nth - 1);
    unsigned helpers = have < nth - 1 ? have : nth - 1;
    p->fn = fn;
    p->ctx = ctx;
    p->nth = helpers + 1;
    p->pending = helpers;
    p->gen++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);

    /* Part 0 here. If fewer workers could be started than asked, the job is split into fewer
       parts; an elementwise job gives the same results for any split. */
    fn(ctx, 0, helpers + 1);

    pthread_mutex_lock(&p->mu);
    while (p->pending != 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->job_lock);
    return SELUGRAD_OK;
}
