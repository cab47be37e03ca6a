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

/* Warm-up of one function; sets its estimate and its batch size. */
static int sgb_warm(sgb_call_fn fn, void *ctx, double *est, size_t *inner) {
    double t0 = sgb_now();
    if (fn(ctx) != 0) return -1;
    double t1 = sgb_now(), e = t1 - t0;
    if (e < SGB_SLOW_CALL_S) { /* a second look: the first call may have paid start-up costs */
        if (fn(ctx) != 0) return -1;
        double e2 = sgb_now() - t1;
        if (e2 < e) e = e2;
    }
    if (e <= 0) e = 1e-9;
    *est = e;
    *inner = e < SGB_MIN_SAMPLE_S ? (size_t)(SGB_MIN_SAMPLE_S / e) + 1 : 1;
    for (size_t j = 1; j < *inner; j++) /* a whole batch of warm-up for the small cases */
        if (fn(ctx) != 0) return -1;
    return 0;
}

static int sgb_sample(sgb_call_fn fn, void *ctx, size_t inner, double *out) {
    double a = sgb_now();
    for (size_t j = 0; j < inner; j++)
        if (fn(ctx) != 0) return -1;
    *out = (sgb_now() - a) / (double)inner;
    return 0;
}

static double sgb_median(double *s, size_t n) {
    qsort(s, n, sizeof *s, sgb_cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* Warms up every function, then takes rounds of `block` samples of each, so all of them see the
   same moments of a shared machine. With block > 1 (cached data) each function's turn starts
   with one sample that is not kept, which brings its buffers back into the caches. */
static int sgb_time_group(size_t count, const sgb_call_fn *fns, void *const *ctxs,
                          const sgb_timing *t, size_t blocks, double *med) {
    enum { MAXF = 9 };
    size_t inner[MAXF];
    double est[MAXF], round = 0, slowest = 0;
    if (count == 0 || count > MAXF) return -1;
    for (size_t i = 0; i < count; i++) {
        if (sgb_warm(fns[i], ctxs[i], &est[i], &inner[i]) != 0) return -1;
        round += (double)inner[i] * est[i];
        if (est[i] > slowest) slowest = est[i];
    }
    size_t reps = t->reps;
    if (reps == 0) {
        double want = t->budget_s * (double)count / round;
        size_t min = t->min_reps;
        if (slowest > SGB_SLOW_CALL_S && min > 3) min = 3;
        reps = want < (double)min ? min : (size_t)want;
        if (reps > SGB_MAX_SAMPLES) reps = SGB_MAX_SAMPLES;
    }
    int turns = blocks > 1 && count > 1; /* turns of several samples, each opening with a refill */
    size_t block = turns ? (reps + blocks - 1) / blocks : 1;
    double *s = malloc(reps * count * sizeof *s), spare;
    if (s == NULL) return -1;
    for (size_t r = 0; r < reps; r += block) {
        size_t end = r + block < reps ? r + block : reps;
        for (size_t i = 0; i < count; i++) {
            int bad = turns && sgb_sample(fns[i], ctxs[i], inner[i], &spare) != 0;
            for (size_t q = r; q < end && !bad; q++)
                bad = sgb_sample(fns[i], ctxs[i], inner[i], &s[i * reps + q]) != 0;
            if (bad) {
                free(s);
                return -1;
            }
        }
    }
    for (size_t i = 0; i < count; i++) med[i] = sgb_median(s + i * reps, reps);
    free(s);
    return 0;
}

int sgb_time_medians(size_t count, const sgb_call_fn *fns, void *const *ctxs, int interleave,
                     const sgb_timing *t, double *med) {
    /* Data from DRAM: every sample alternates. Data in the caches: up to eight turns of about an
       eighth of the samples, so that neither finds its lines evicted by the other's buffers at
       every sample, yet a slow spell of the shared machine falls on all of them (were each to
       take all its samples in one go, a spell could halve one ratio or double another). */
    return sgb_time_group(count, fns, ctxs, t, interleave ? 1 : 8, med);
}
