/*
 * The compute bound of a row: how fast the row's kernel runs on the calling thread with its data
 * in L1, as selugrad_isa_rates measures it (SGB_L1_N elements of the benchmark's values, calls
 * repeated on the same buffers), but in elements per second rather than cycles, so that the
 * report can set it beside the memory bound in GB/s.
 */
#include "bench_internal.h"
#include "kernels/kernel.h"

#define SGB_COMPUTE_SAMPLE_S 100e-6 /* a sample: calls repeated for at least this long */

/* Seconds for `calls` calls of k on the arrays of set 0 of b. */
static double sgb_compute_batch(const sg_kernel *k, const sgb_bufs *b, size_t calls) {
    const void *g = sgb_buf(b, 0, 0), *o = sgb_buf(b, 0, 1);
    void *y = sgb_buf(b, 0, 2);
    double t0 = sgb_now();
    for (size_t c = 0; c < calls; c++) sg_kernel_call(k, b->n, g, o, y);
    return sgb_now() - t0;
}

double sgb_compute_rate(const sg_kernel *k, const sgb_bufs *b, unsigned samples) {
    /* the first batch brings the buffers into L1 and the code into the caches; then batches
       double until one lasts a sample's time */
    size_t calls = 1;
    double s;
    (void)sgb_compute_batch(k, b, calls);
    while ((s = sgb_compute_batch(k, b, calls)) < SGB_COMPUTE_SAMPLE_S) calls *= 2;
    double best = s / (double)calls;
    /* the fastest sample: the one that nothing preempted (a slower one measured the machine) */
    for (unsigned i = 1; i < samples; i++) {
        double t = sgb_compute_batch(k, b, calls) / (double)calls;
        if (t < best) best = t;
    }
    return (double)b->n / best;
}
