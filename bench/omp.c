/*
 * --omp: a call right after an OpenMP parallel region, the way a host such as PyTorch makes them.
 * With libgomp's default wait policy the region's threads spin on for a while after it ends, so
 * a pool of the library's own that spins too would fight them for the cores. Per dtype, size and
 * thread count: the median time of a call alone (back to back), of a call right after a region
 * through the library's own pool, and through selugrad_set_parallel_for driven by `#pragma omp
 * parallel for` (the region's threads then run the call's tasks). The three are also rows of the
 * CSV (cache "omp-alone", "omp-pool", "omp-hook"; bound_gbps: the call alone; ratio: alone time /
 * this time). The text line also gives the call alone through the hook (back to back, no region
 * between: what the region itself adds is hook / hook1), and the median of an empty `omp
 * parallel for` right after a region: the host's fork and join, which a call pays whenever it
 * goes to the hook (so a call too short to win that back runs on the caller: docs/dispatch.md,
 * "Host threads").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_internal.h"

#if defined(_OPENMP)
#include <omp.h>

#include "core/dispatch.h"
#include "core/parallel.h"
#include "core/pool.h"

static volatile double sgb_omp_sink;

/* The team size and wait policy this process started with: oneDNN's rows set the team size to
   their thread count (omp_set_num_threads), and OMP_WAIT_POLICY is read by libgomp when the
   program starts, whatever the environment says later (onednn.c sets it). */
static int sgb_omp_threads0;
static char sgb_omp_policy0[32];

void sgb_omp_note_start(void) {
    sgb_omp_threads0 = omp_get_max_threads();
    const char *p = getenv("OMP_WAIT_POLICY");
    snprintf(sgb_omp_policy0, sizeof sgb_omp_policy0, "%s", p ? p : "unset");
}
static unsigned sgb_omp_team; /* threads of the last hooked call's team that had a task */

/* A region with a little work on every thread of the team. */
static void sgb_omp_region(void) {
    double s = 0;
#pragma omp parallel reduction(+ : s)
    {
        for (int i = 0; i < 2000; i++) s += (double)i * 1e-9 * (double)omp_get_thread_num();
    }
    sgb_omp_sink = s;
}

static void sgb_omp_for(void *ctx, size_t n_tasks, selugrad_task_fn task, void *task_ctx) {
    (void)ctx;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < (long)n_tasks; i++) task(task_ctx, (size_t)i);
    /* schedule(static) gives every thread of the team a task while there are enough */
    unsigned team = (unsigned)omp_get_max_threads();
    sgb_omp_team = n_tasks < team ? (unsigned)n_tasks : team;
}

static int sgb_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median seconds of reps empty `omp parallel for` loops of the team, each right after a region. */
static double sgb_omp_fork_median(size_t reps, double *s) {
    for (size_t r = 0; r < reps; r++) {
        sgb_omp_region();
        int team = omp_get_max_threads(), acc = 0;
        double t0 = sgb_now();
#pragma omp parallel for schedule(static) reduction(+ : acc)
        for (int i = 0; i < team; i++) acc += i;
        s[r] = sgb_now() - t0;
        sgb_omp_sink = acc;
    }
    qsort(s, reps, sizeof *s, sgb_cmp);
    return s[reps / 2];
}

/* Median seconds of reps calls on set k = 0, 1, ... of b, each after a region if `region`;
   *used: the threads the calls ran on (the mean, rounded), counted as run.c counts them, or
   through the hook the team's threads that had a task. */
static double sgb_omp_median(const sgb_bufs *b, selugrad_dtype dt, size_t reps, int region,
                             double *s, unsigned *used) {
    size_t threads = 0;
    int hooked = sg_parallel_hooked();
    for (size_t r = 0; r < reps; r++) {
        if (region) sgb_omp_region();
        uint64_t j0, t0n, j1, t1n;
        sg_pool_counts(&j0, &t0n);
        sgb_omp_team = 1;
        double t0 = sgb_now();
        if (selugrad_backward(dt, b->n, sgb_buf(b, r, 0), sgb_buf(b, r, 1), sgb_buf(b, r, 2)) !=
            SELUGRAD_OK)
            return -1;
        s[r] = sgb_now() - t0;
        sg_pool_counts(&j1, &t1n);
        threads += hooked ? sgb_omp_team : j1 != j0 ? (size_t)(t1n - t0n) : 1u;
    }
    *used = (unsigned)((threads + reps / 2) / reps);
    qsort(s, reps, sizeof *s, sgb_cmp);
    return s[reps / 2];
}

/* One CSV row of the omp case `cache` taking `sec` per call, against the call alone. */
static void sgb_omp_row(sgb_row *row, selugrad_dtype dt, size_t n, unsigned nth, unsigned used,
                        const char *cache, double sec, double alone) {
    double bytes = 3.0 * (double)n * (double)selugrad_dtype_size(dt);
    const sg_kernel *k = sg_kernel_for(dt);
    *row = (sgb_row){0};
    row->dtype = dt;
    row->n = n;
    row->threads = nth;
    row->threads_used = used;
    row->isa = "auto";
    row->kernel = k ? k->name : "none";
    row->cache = cache;
    row->us = sec * 1e6;
    row->gbps = bytes / sec * 1e-9;
    row->bound_gbps = bytes / alone * 1e-9;
    snprintf(row->bound_kind, sizeof row->bound_kind, "omp-alone");
    row->ratio = alone / sec;
}

int sgb_omp_run(const sgb_options *opt, const sgb_timing *t, sgb_row *rows, size_t *nrows) {
    *nrows = 0;
    size_t reps = t->reps ? t->reps : opt->quick ? 50 : 400;
    double *s = malloc(reps * sizeof *s);
    if (s == NULL) return -1;
    if (sgb_omp_threads0 > 0) omp_set_num_threads(sgb_omp_threads0);
    printf(
        "# omp: a call alone, and right after an OpenMP parallel region (team of %d, "
        "OMP_WAIT_POLICY %s at the start) through the own pool and through the host hook "
        "(omp parallel for); medians of %zu calls, us; x = over the call alone; hook1 = the call "
        "alone through the hook, x1 = hook over it; fork = an empty omp parallel for right "
        "after a region, the host's fork and join\n",
        omp_get_max_threads(), sgb_omp_threads0 > 0 ? sgb_omp_policy0 : "not noted", reps);
    printf("# omp dtype      n threads   alone    pool  pool_x    hook  hook_x   hook1      x1    "
           "fork\n");
    int rc = 0;
    for (size_t si = 0; si < opt->nsizes && rc == 0; si++)
        for (size_t di = 0; di < opt->ndtypes && rc == 0; di++)
            for (size_t ti = 0; ti < opt->nthreads && rc == 0; ti++) {
                selugrad_dtype dt = opt->dtypes[di];
                sgb_bufs b;
                if (sgb_bufs_alloc(&b, opt->sizes[si], selugrad_dtype_size(dt)) != 0) {
                    rc = -1;
                    break;
                }
                sgb_bufs_fill(&b, dt);
                selugrad_set_num_threads((int)opt->threads[ti]);
                unsigned ua, up, uh, uh1;
                sgb_omp_median(&b, dt, reps < 20 ? reps : 20, 0, s, &ua); /* warm-up */
                double alone = sgb_omp_median(&b, dt, reps, 0, s, &ua);
                double pool = sgb_omp_median(&b, dt, reps, 1, s, &up);
                selugrad_set_parallel_for(sgb_omp_for, NULL);
                double hook1 = sgb_omp_median(&b, dt, reps, 0, s, &uh1);
                double hook = sgb_omp_median(&b, dt, reps, 1, s, &uh);
                selugrad_set_parallel_for(NULL, NULL);
                double fork = sgb_omp_fork_median(reps, s);
                selugrad_set_num_threads(0);
                sgb_bufs_free(&b);
                if (alone <= 0 || pool <= 0 || hook <= 0 || hook1 <= 0) {
                    rc = -1;
                    break;
                }
                char n[32];
                sgb_size_name(opt->sizes[si], n, sizeof n);
                printf("# omp %-5s %6s %7u %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f\n",
                       selugrad_dtype_name(dt), n, opt->threads[ti], alone * 1e6, pool * 1e6,
                       pool / alone, hook * 1e6, hook / alone, hook1 * 1e6, hook / hook1,
                       fork * 1e6);
                fflush(stdout);
                size_t nn = opt->sizes[si];
                unsigned nth = opt->threads[ti];
                sgb_omp_row(&rows[(*nrows)++], dt, nn, nth, ua, "omp-alone", alone, alone);
                sgb_omp_row(&rows[(*nrows)++], dt, nn, nth, up, "omp-pool", pool, alone);
                sgb_omp_row(&rows[(*nrows)++], dt, nn, nth, uh, "omp-hook", hook, alone);
            }
    free(s);
    return rc;
}
#else
void sgb_omp_note_start(void) {}

int sgb_omp_run(const sgb_options *opt, const sgb_timing *t, sgb_row *rows, size_t *nrows) {
    (void)t;
    (void)rows;
    *nrows = 0;
    fprintf(stderr, "%s: --omp: this benchmark was built without OpenMP\n", opt->prog);
    return -1;
}
#endif
