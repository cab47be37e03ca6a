/*
 * The compute bound of a row: the row's kernel on the calling thread with its data in L1, as
 * selugrad_isa_rates measures it (SGB_L1_N elements of the benchmark's values, calls repeated on
 * the same buffers), timed in the row's group beside the call and the triads so that it sees the
 * same moments of a shared machine, and reported in GB/s beside the memory bound.
 */
#include "bench_internal.h"
#include "kernels/kernel.h"

/* `calls` calls of k on the arrays of set 0 of b. */
static void sgb_compute_batch(const sg_kernel *k, const sgb_bufs *b, size_t calls) {
    const void *g = sgb_buf(b, 0, 0), *o = sgb_buf(b, 0, 1);
    void *y = sgb_buf(b, 0, 2);
    for (size_t c = 0; c < calls; c++) sg_kernel_call(k, b->n, g, o, y);
}

void sgb_compute_setup(sgb_compute *c, const sg_kernel *k, const sgb_bufs *b, double min_s) {
    c->k = k;
    c->b = b;
    c->calls = 1;
    sgb_compute_batch(k, b, 1); /* the buffers into L1, the code into the caches */
    for (;;) {
        double t0 = sgb_now();
        sgb_compute_batch(k, b, c->calls);
        if (sgb_now() - t0 >= min_s) break;
        c->calls *= 2;
    }
}

int sgb_compute_call(void *ctx) {
    const sgb_compute *c = ctx;
    sgb_compute_batch(c->k, c->b, c->calls);
    return 0;
}
