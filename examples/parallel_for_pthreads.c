/*
 * Running the library's work on a host program's own thread pool: selugrad_set_parallel_for
 * with a plain pthread pool of the pthreadpool / oneDNN-threadpool shape (fixed threads; a call
 * hands them a loop of n tasks, they take tasks from a shared counter, the call returns when all
 * are done). Checks that the results are the bits the library's own pool gives, for a
 * contiguous and a strided call, and that the hook ran.
 */
#include <pthread.h>
#include <selugrad/selugrad.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { POOL_THREADS = 3 };

/* The host's pool: one loop at a time, published under the mutex with a generation number. */
typedef struct host_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, idle;
    unsigned long generation;
    int stop, busy;
    size_t n_tasks;
    atomic_size_t next;
    selugrad_task_fn task;
    void *task_ctx;
    pthread_t threads[POOL_THREADS];
    int loops;
} host_pool;

/* Takes tasks from the shared counter until none is left. */
static void run_tasks(host_pool *p) {
    for (size_t i; (i = atomic_fetch_add(&p->next, 1)) < p->n_tasks;) p->task(p->task_ctx, i);
}

static void *pool_main(void *arg) {
    host_pool *p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->work, &p->mu);
        if (p->stop) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        run_tasks(p);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0) pthread_cond_signal(&p->idle);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The parallel-for handed to the library: the calling thread takes tasks too. */
static void pool_parallel_for(void *ctx, size_t n_tasks, selugrad_task_fn task, void *task_ctx) {
    host_pool *p = ctx;
    pthread_mutex_lock(&p->mu);
    p->n_tasks = n_tasks;
    p->task = task;
    p->task_ctx = task_ctx;
    atomic_store(&p->next, 0);
    p->busy = POOL_THREADS;
    p->generation++;
    p->loops++;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    run_tasks(p);
    pthread_mutex_lock(&p->mu);
    while (p->busy != 0) pthread_cond_wait(&p->idle, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

int main(void) {
    static host_pool pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
                             .work = PTHREAD_COND_INITIALIZER,
                             .idle = PTHREAD_COND_INITIALIZER};
    for (int t = 0; t < POOL_THREADS; t++)
        if (pthread_create(&pool.threads[t], NULL, pool_main, &pool) != 0) return 1;
    enum { N = 1 << 21 };
    uint16_t *g = malloc(N * 2), *o = malloc(N * 2), *own = malloc(N * 2), *host = malloc(N * 2);
    if (!g || !o || !own || !host) return 1;
    for (int i = 0; i < N; i++) { /* bfloat16 values */
        g[i] = selugrad_f32_to_bf16((float)(i % 101) * 0.03125f - 1.5f);
        o[i] = selugrad_f32_to_bf16((float)(i % 97) * 0.0625f - 3.0f);
    }
    selugrad_set_num_threads(POOL_THREADS + 1);
    int passed = 0, failed = 0;
    for (int strided = 0; strided < 2; strided++) {
        size_t n = strided ? N / 2 : N;
        ptrdiff_t s = strided ? 2 : 1;
        selugrad_set_parallel_for(NULL, NULL);
        if (selugrad_backward_strided(SELUGRAD_BF16, n, g, s, o, s, own, 1) != SELUGRAD_OK)
            return 1;
        selugrad_set_parallel_for(pool_parallel_for, &pool);
        if (selugrad_backward_strided(SELUGRAD_BF16, n, g, s, o, s, host, 1) != SELUGRAD_OK)
            return 1;
        int same = memcmp(own, host, n * 2) == 0;
        printf("%s bf16 call of %zu: results %s\n", strided ? "strided" : "contiguous", n,
               same ? "bit-identical" : "DIFFER");
        passed += same, failed += !same;
    }
    selugrad_set_parallel_for(NULL, NULL);
    int used = pool.loops == 2;
    printf("host pool of %d threads ran %d loop(s)\n", POOL_THREADS, pool.loops);
    passed += used, failed += !used;
    pthread_mutex_lock(&pool.mu);
    pool.stop = 1;
    pthread_cond_broadcast(&pool.work);
    pthread_mutex_unlock(&pool.mu);
    for (int t = 0; t < POOL_THREADS; t++) pthread_join(pool.threads[t], NULL);
    printf("%d passed, %d failed\n", passed, failed);
    free(g), free(o), free(own), free(host);
    return failed != 0;
}
