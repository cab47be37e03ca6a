/* Median-of-samples timing with CLOCK_MONOTONIC. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdlib.h>
#include <time.h>

#include "bench_internal.h"

double sgb_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int sgb_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { SGB_MAX_SAMPLES = 1000 };
#define SGB_MIN_SAMPLE_S 20e-6 /* shorter calls are timed in batches: clock cost stays < 1% */
#define SGB_SLOW_CALL_S  0.25  /* calls this slow: one warm-up call and 3 samples at least */

double sgb_time_median(sgb_call_fn fn, void *ctx, const sgb_timing *t) {
    size_t k = 0;
    /* Warm-up: first touch, pool start-up, caches and branch predictors of the hot case. */
    double t0 = sgb_now();
    if (fn(ctx, k++) != 0) return -1.0;
    double t1 = sgb_now(), est = t1 - t0;
    if (est < SGB_SLOW_CALL_S) { /* a second look: the first call may have paid start-up costs */
        if (fn(ctx, k++) != 0) return -1.0;
        double e2 = sgb_now() - t1;
        if (e2 < est) est = e2;
    }
    if (est <= 0) est = 1e-9;

    size_t inner = 1;
    if (est < SGB_MIN_SAMPLE_S) inner = (size_t)(SGB_MIN_SAMPLE_S / est) + 1;
    for (size_t j = 1; j < inner; j++) /* a whole batch of warm-up for the small cases */
        if (fn(ctx, k++) != 0) return -1.0;

    size_t reps = t->reps;
    if (reps == 0) {
        double want = t->budget_s / ((double)inner * est);
        size_t min = t->min_reps;
        if (est > SGB_SLOW_CALL_S && min > 3) min = 3;
        reps = want < (double)min ? min : (size_t)want;
        if (reps > SGB_MAX_SAMPLES) reps = SGB_MAX_SAMPLES;
    }
    double *s = malloc(reps * sizeof *s);
    if (s == NULL) return -1.0;
    for (size_t r = 0; r < reps; r++) {
        double a = sgb_now();
        for (size_t j = 0; j < inner; j++) {
            if (fn(ctx, k++) != 0) {
                free(s);
                return -1.0;
            }
        }
        s[r] = (sgb_now() - a) / (double)inner;
    }
    qsort(s, reps, sizeof *s, sgb_cmp_double);
    double med = reps % 2 ? s[reps / 2] : 0.5 * (s[reps / 2 - 1] + s[reps / 2]);
    free(s);
    return med;
}
