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

/* Bounds already measured, by (n, element size, threads): f32/s32 and f16/bf16 share them. */
typedef struct sgb_bound_cache {
    size_t n, es;
    unsigned threads;
    sgb_bound bound;
} sgb_bound_cache;

typedef struct sgb_run {
    const sgb_options *opt;
    sgb_timing timing;
    sgb_row *rows;
    size_t nrows, cap;
    sgb_bound_cache *bounds;
    size_t nbounds;
} sgb_run;

static const sgb_bound *sgb_find_bound(const sgb_run *r, size_t n, size_t es, unsigned t) {
    for (size_t i = 0; i < r->nbounds; i++)
        if (r->bounds[i].n == n && r->bounds[i].es == es && r->bounds[i].threads == t)
            return &r->bounds[i].bound;
    return NULL;
}

/* Threads a call of n elements really uses when allowed t: the library runs small calls on the
   calling thread alone, and the bound should not charge it a pool wake-up it never pays. */
static unsigned sgb_used_threads(selugrad_dtype dtype, size_t n, unsigned t) {
    sg_plan plan;
    sg_plan_make(&plan, sg_kernel_for(dtype), n, t);
    return plan.nth < t ? plan.nth : t;
}

static int sgb_measure_bounds(sgb_run *r, sgb_bufs *b, selugrad_dtype dtype) {
    int filled = 0;
    for (size_t t = 0; t < r->opt->nthreads; t++) {
        unsigned nth = sgb_used_threads(dtype, b->n, r->opt->threads[t]);
        if (sgb_find_bound(r, b->n, b->es, nth)) continue;
        if (!filled) sgb_bufs_fill_float(b);
        filled = 1;
        sgb_bound_cache *c = &r->bounds[r->nbounds];
        if (sgb_bound_measure(b, nth, &r->timing, &c->bound) != 0) return -1;
        c->n = b->n;
        c->es = b->es;
        c->threads = nth;
        r->nbounds++;
    }
    return 0;
}

static int sgb_run_dtype(sgb_run *r, sgb_bufs *b, selugrad_dtype dtype) {
    const sgb_options *opt = r->opt;
    sgb_bufs_fill(b, dtype);
    double bytes = 3.0 * (double)b->array_bytes;
    sgb_call hc = {b, dtype, NULL, sgb_hand_loop(dtype)};
    double loop_s = sgb_time_median(sgb_lib_call, &hc, &r->timing);
    if (loop_s <= 0) return -1;
    size_t nisas = opt->nisas ? opt->nisas : 1;
    for (size_t i = 0; i < nisas; i++) {
        const sg_kernel *k = sg_kernel_for(dtype);
        const char *isa = "auto";
        if (opt->nisas) {
            if (!sg_isa_supported(opt->isas[i])) continue;
            k = sg_kernel_select(dtype, opt->isas[i]);
            isa = sg_isa_name(opt->isas[i]);
        }
        sgb_call lc = {b, dtype, k == sg_kernel_for(dtype) ? NULL : k, NULL};
        for (size_t t = 0; t < opt->nthreads; t++) {
            unsigned nth = opt->threads[t];
            if (selugrad_set_num_threads((int)nth) != SELUGRAD_OK) return -1;
            double s = sgb_time_median(sgb_lib_call, &lc, &r->timing);
            selugrad_set_num_threads(0);
            if (s <= 0) return -1;
            const sgb_bound *bd =
                sgb_find_bound(r, b->n, b->es, sgb_used_threads(dtype, b->n, nth));
            sgb_row *row = &r->rows[r->nrows++];
            row->dtype = dtype;
            row->n = b->n;
            row->threads = nth;
            row->isa = isa;
            row->kernel = k->name;
            row->cache = b->cold ? "cold" : "hot";
            row->us = s * 1e6;
            row->gbps = bytes / s * 1e-9;
            int nt = bd->nt_gbps > bd->plain_gbps;
            row->bound_gbps = nt ? bd->nt_gbps : bd->plain_gbps;
            row->bound_kind = nt ? bd->nt_name : bd->plain_name;
            row->ratio = row->gbps / row->bound_gbps;
            row->loop_gbps = bytes / loop_s * 1e-9;
            row->speedup = loop_s / s;
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
            sgb_bufs b;
            if (sgb_bufs_alloc(&b, opt->sizes[si], selugrad_dtype_size(dt)) != 0) {
                fprintf(stderr, "%s: out of memory for n = %zu %s\n", opt->prog, opt->sizes[si],
                        selugrad_dtype_name(dt));
                return -1;
            }
            int rc = sgb_measure_bounds(r, &b, dt);
            if (rc == 0) rc = sgb_run_dtype(r, &b, dt);
            sgb_bufs_free(&b);
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
    sgb_run r = {&opt, {opt.reps, opt.quick ? 0.005 : 0.15, opt.quick ? 3u : 5u}, NULL, 0, 0, NULL,
                 0};
    size_t nisas = opt.nisas ? opt.nisas : 1;
    r.cap = opt.nsizes * opt.ndtypes * nisas * opt.nthreads;
    r.rows = calloc(r.cap, sizeof *r.rows);
    r.bounds = calloc(opt.nsizes * opt.ndtypes * opt.nthreads, sizeof *r.bounds);
    if (r.rows == NULL || r.bounds == NULL) {
        free(r.rows);
        free(r.bounds);
        fprintf(stderr, "%s: out of memory\n", opt.prog);
        return 1;
    }
    printf("# selugrad %s bench: median of repeated calls; GB/s = 3 n sizeof(T) / time; "
           "bound = best STREAM triad (plain or non-temporal) on the same bytes and threads; "
           "loop = hand-written -O3 loop, 1 thread; speedup = loop time / call time\n",
           selugrad_version());
    sgb_table_header(stdout);
    double t0 = sgb_now();
    rc = sgb_run_all(&r) == 0 ? 0 : 1;
    printf("# %zu rows in %.1f s\n", r.nrows, sgb_now() - t0);
    if (rc == 0 && opt.csv && sgb_write_csv(opt.prog, opt.csv, r.rows, r.nrows) != 0) rc = 1;
    if (rc == 0 && opt.plot && sgb_plot(opt.prog, opt.plot, r.rows, r.nrows) != 0) rc = 1;
    free(r.rows);
    free(r.bounds);
    return rc;
}
