/*
 * The benchmark driver: for each size x dtype x isa x threads, the median time of
 * selugrad_backward, the triad bound for the same bytes and threads, and the hand-written loop.
 * Rows whose kernel is the one the library dispatches go through the public API; an --isa level
 * that picks another kernel goes through the same plan path the API uses (core/exec.h), minus
 * the argument checks, because the library reads SELUGRAD_MAX_ISA once per process.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench_internal.h"
#include "core/dispatch.h"
#include "core/exec.h"
#include "core/pool.h"

typedef struct sgb_call {
    const sgb_bufs *b;
    selugrad_dtype dtype;
    const sg_kernel *kernel; /* NULL: the public API */
    sgb_loop_fn loop;        /* set: the hand loop instead */
} sgb_call;

static int sgb_lib_call(void *ctx, size_t k) {
    const sgb_call *c = ctx;
    const void *g = sgb_buf(c->b, k, 0), *o = sgb_buf(c->b, k, 1);
    void *y = sgb_buf(c->b, k, 2);
    if (c->loop) {
        c->loop(c->b->n, g, o, y);
        return 0;
    }
    if (c->kernel == NULL) return selugrad_backward(c->dtype, c->b->n, g, o, y) != SELUGRAD_OK;
    sg_plan plan;
    sg_plan_make(&plan, c->kernel, c->b->n, sg_threads_default());
    return sg_plan_run(&plan, g, o, y) != SELUGRAD_OK;
}

typedef struct sgb_run {
    const sgb_options *opt;
    sgb_timing timing;
    sgb_row *rows;
    size_t nrows;
} sgb_run;

/* Threads a call of n elements with kernel k really uses when allowed t. */
static unsigned sgb_used_threads(const sg_kernel *k, size_t n, unsigned t) {
    sg_plan plan;
    sg_plan_make(&plan, k, n, t);
    return plan.nth < t ? plan.nth : t;
}

/* b holds the dtype's inputs, tb floats of the same geometry for the triad. */
static int sgb_run_dtype(sgb_run *r, sgb_bufs *b, const sgb_bufs *tb, selugrad_dtype dtype) {
    const sgb_options *opt = r->opt;
    double bytes = 3.0 * (double)b->array_bytes;
    sgb_call hc = {b, dtype, NULL, sgb_hand_loop(dtype)};
    double loop_s = sgb_time_median(sgb_lib_call, &hc, &r->timing);
    if (loop_s <= 0) return -1;
    size_t nisas = opt->nisas ? opt->nisas : 1;
    for (size_t i = 0; i < nisas; i++) {
        const sg_kernel *k = sg_kernel_for(dtype);
        const char *isa = "auto";
        sg_isa cap = sg_isa_cap_from_env();
        if (opt->nisas) {
            cap = opt->isas[i];
            if (!sg_isa_supported(opt->isas[i])) continue;
            k = sg_kernel_select(dtype, opt->isas[i]);
            isa = sg_isa_name(opt->isas[i]);
        }
        sgb_call lc = {b, dtype, k == sg_kernel_for(dtype) ? NULL : k, NULL};
        for (size_t t = 0; t < opt->nthreads; t++) {
            unsigned nth = opt->threads[t];
            /* The bound is the best the memory system gives these bytes with up to nth threads:
               the plain and the non-temporal triads on nth threads, on one, and on the threads
               the call uses when that is in between (a small triad split over threads mostly
               pays the wake-up, so a call that splits early, being slow per element, is still
               measured against the one-thread bound; and the old rule's bound, on the call's
               threads, is always among the candidates). */
            unsigned counts[3] = {nth, 1, sgb_used_threads(k, b->n, nth)};
            size_t ncounts = nth > 1 ? (counts[2] > 1 && counts[2] < nth ? 3 : 2) : 1;
            sgb_triad tr[6];
            sgb_call_fn fns[7] = {sgb_lib_call};
            void *ctxs[7] = {&lc};
            for (size_t c = 0; c < ncounts; c++) {
                sgb_triad_setup(tr + 2 * c, tb, counts[c], cap);
                for (size_t v = 0; v < 2; v++) {
                    fns[1 + 2 * c + v] = sgb_triad_call;
                    ctxs[1 + 2 * c + v] = &tr[2 * c + v];
                }
            }
            size_t nfns = 1 + 2 * ncounts;
            double med[7];
            if (selugrad_set_num_threads((int)nth) != SELUGRAD_OK) return -1;
            /* Cold cases alternate samples of the call and the triads: other processes' memory
               traffic then hits all of them alike. Hot ones take eight turns of several samples
               each (a turn opens with one sample not kept, to refill the caches). */
            int rc = sgb_time_medians(nfns, fns, ctxs, b->cold, &r->timing, med);
            selugrad_set_num_threads(0);
            if (rc != 0) return -1;
            sgb_row *row = &r->rows[r->nrows++];
            row->dtype = dtype;
            row->n = b->n;
            row->threads = nth;
            row->isa = isa;
            row->kernel = k->name;
            row->cache = b->cold ? "cold" : "hot";
            row->us = med[0] * 1e6;
            row->gbps = bytes / med[0] * 1e-9;
            size_t best = 1;
            for (size_t f = 2; f < nfns; f++)
                if (med[f] < med[best]) best = f;
            row->bound_gbps = bytes / med[best] * 1e-9;
            if (tr[best - 1].nth < nth)
                snprintf(row->bound_kind, sizeof row->bound_kind, "%s/%ut", tr[best - 1].name,
                         tr[best - 1].nth);
            else
                snprintf(row->bound_kind, sizeof row->bound_kind, "%s", tr[best - 1].name);
            row->ratio = row->gbps / row->bound_gbps;
            row->loop_gbps = bytes / loop_s * 1e-9;
            row->speedup = loop_s / med[0];
            sgb_table_row(stdout, row);
        }
    }
    return 0;
}

static int sgb_run_all(sgb_run *r) {
    const sgb_options *opt = r->opt;
    for (size_t si = 0; si < opt->nsizes; si++) {
        for (size_t di = 0; di < opt->ndtypes; di++) {
            selugrad_dtype dt = opt->dtypes[di];
            sgb_bufs b, tb;
            size_t n = opt->sizes[si], es = selugrad_dtype_size(dt);
            int ab = sgb_bufs_alloc(&b, n, es), at = sgb_bufs_alloc(&tb, n, es);
            if (ab != 0 || at != 0) {
                sgb_bufs_free(&b);
                sgb_bufs_free(&tb);
                fprintf(stderr, "%s: out of memory for n = %zu %s\n", opt->prog, n,
                        selugrad_dtype_name(dt));
                return -1;
            }
            sgb_bufs_fill(&b, dt);
            sgb_bufs_fill_float(&tb);
            int rc = sgb_run_dtype(r, &b, &tb, dt);
            sgb_bufs_free(&b);
            sgb_bufs_free(&tb);
            if (rc != 0) {
                fprintf(stderr, "%s: a call failed: %s\n", opt->prog, selugrad_last_error());
                return -1;
            }
        }
    }
    return 0;
}

int selugrad_bench_main(int argc, char **argv) {
    sgb_options opt;
    int rc = sgb_parse_options(argc, argv, &opt, stderr);
    if (rc != 0) return rc == 1 ? 0 : 2;
    for (size_t i = 0; i < opt.nisas; i++)
        if (!sg_isa_supported(opt.isas[i]))
            fprintf(stderr, "%s: --isa=%s: this CPU cannot run it; skipped\n", opt.prog,
                    sg_isa_name(opt.isas[i]));
    sgb_run r = {&opt, {opt.reps, opt.quick ? 0.005 : 0.15, opt.quick ? 3u : 5u}, NULL, 0};
    size_t nisas = opt.nisas ? opt.nisas : 1;
    r.rows = calloc(opt.nsizes * opt.ndtypes * nisas * opt.nthreads, sizeof *r.rows);
    if (r.rows == NULL) {
        fprintf(stderr, "%s: out of memory\n", opt.prog);
        return 1;
    }
    printf("# selugrad %s bench: median of repeated calls; GB/s = 3 n sizeof(T) / time; "
           "bound = best STREAM triad (plain or non-temporal, on the threads or on 1, of the "
           "row's ISA level at most) on the same bytes; loop = hand-written -O3 loop, 1 thread; "
           "speedup = loop time / call time\n",
           selugrad_version());
    sgb_table_header(stdout);
    double t0 = sgb_now();
    rc = sgb_run_all(&r) == 0 ? 0 : 1;
    printf("# %zu rows in %.1f s\n", r.nrows, sgb_now() - t0);
    if (rc == 0 && opt.csv && sgb_write_csv(opt.prog, opt.csv, r.rows, r.nrows) != 0) rc = 1;
    if (rc == 0 && opt.plot && sgb_plot(opt.prog, opt.plot, r.rows, r.nrows) != 0) rc = 1;
    free(r.rows);
    return rc;
}
