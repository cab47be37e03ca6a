/*
 * Running the library's work on OpenMP's threads: selugrad_set_parallel_for with a
 * `#pragma omp parallel for`. A host that already has an OpenMP team (PyTorch-style programs)
 * then uses its threads for selugrad too, instead of a second pool fighting them for the cores.
 * Checks that the results are the bits the library's own pool gives, and that the hook ran.
 */
#include <omp.h>
#include <selugrad/selugrad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hook_calls;

/* The host's parallel-for: every task once, on the OpenMP team; returns when all are done. */
static void omp_parallel_for(void *ctx, size_t n_tasks, selugrad_task_fn task, void *task_ctx) {
    (void)ctx;
    hook_calls++;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < (long)n_tasks; i++) task(task_ctx, (size_t)i);
}

int main(void) {
    enum { N = 1 << 22 };
    float *g = malloc(N * sizeof *g), *o = malloc(N * sizeof *o);
    float *own = malloc(N * sizeof *own), *host = malloc(N * sizeof *host);
    if (!g || !o || !own || !host) return 1;
    for (int i = 0; i < N; i++) {
        g[i] = (float)(i % 101) * 0.03125f - 1.5f;
        o[i] = (float)(i % 97) * 0.0625f - 3.0f;
    }
    /* at least two threads, so that the call splits */
    selugrad_set_num_threads(omp_get_max_threads() > 1 ? omp_get_max_threads() : 2);
    if (selugrad_backward(SELUGRAD_FLOAT, N, g, o, own) != SELUGRAD_OK) return 1;
    selugrad_set_parallel_for(omp_parallel_for, NULL);
    if (selugrad_backward(SELUGRAD_FLOAT, N, g, o, host) != SELUGRAD_OK) {
        fprintf(stderr, "selugrad_backward failed: %s\n", selugrad_last_error());
        return 1;
    }
    selugrad_set_parallel_for(NULL, NULL); /* back to the library's own pool */
    int same = memcmp(own, host, N * sizeof *own) == 0, used = hook_calls == 1;
    printf("OpenMP team of %d: results %s, hook called %d time(s)\n", omp_get_max_threads(),
           same ? "bit-identical" : "DIFFER", hook_calls);
    printf("%d passed, %d failed\n", same + used, 2 - same - used);
    free(g), free(o), free(own), free(host);
    return same && used ? 0 : 1;
}
