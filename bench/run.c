/*
 * The benchmark driver: for each size x dtype x isa x threads, the median time of
 * selugrad_backward, the triad bound for the same bytes and threads, and the hand-written loop
 * (handloop.c) on the threads the call really runs on.
 * Every row goes through the public API; an --isa level is set with selugrad_set_max_isa for its
 * rows and the cap in force before is restored after them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench_internal.h"
#include "sg_argv.h"
#include "core/dispatch.h"
#include "core/exec.h"
#include "core/pool.h"

typedef struct sgb_call {
    sgb_bufs *b;
    selugrad_dtype dtype;
    int op;                /* 0 selugrad_backward, 1 selugrad_forward (x in g's array) */
    size_t calls, threads; /* calls made, and the threads they ran on summed (sgb_lib_call) */
} sgb_call;

/* One call through the public API, counting the threads it ran on: from the pool's counts
   (sg_pool_counts) read around it, the benchmark being the only caller; a call the pool was not
   handed ran on the calling thread alone. Counted, not predicted: a worker that was not woken or
   came too late to claim a task shows in the count. */
static int sgb_lib_call(void *ctx) {
    sgb_call *c = ctx;
    size_t set = sgb_bufs_take(c->b);
    const void *g = sgb_buf(c->b, set, 0), *o = sgb_buf(c->b, set, 1);
    void *y = sgb_buf(c->b, set, 2);
    uint64_t j0, t0, j1, t1;
    sg_pool_counts(&j0, &t0);
    selugrad_status st = c->op ? selugrad_forward(c->dtype, c->b->n, g, y)
                               : selugrad_backward(c->dtype, c->b->n, g, o, y);
    sg_pool_counts(&j1, &t1);
    c->calls++;
    c->threads += j1 != j0 ? (size_t)(t1 - t0) : 1u;
    return st != SELUGRAD_OK;
}

/* The mean threads per call since the counts were last reset, rounded; 0 if no call. */
static unsigned sgb_calls_threads(sgb_call *c) {
    unsigned used = c->calls ? (unsigned)((c->threads + c->calls / 2) / c->calls) : 0u;
    c->calls = c->threads = 0;
    return used;
}

/* The hand loop over the arrays of bufs, split over nth threads of the library's pool in parts
   of whole 64-byte lines, as the triad is. */
typedef struct sgb_loop {
    sgb_bufs *b;
    sgb_loop_fn fn;
    unsigned nth;
} sgb_loop;

typedef struct sgb_loop_job {
    sgb_loop_fn fn;
    size_t n, es;
    const unsigned char *g, *o;
    unsigned char *y;
} sgb_loop_job;

static void sgb_loop_part(void *ctx, unsigned ith, unsigned nth) {
    const sgb_loop_job *j = ctx;
    size_t line = 64 / j->es;
    size_t per = ((j->n + nth - 1) / nth + line - 1) / line * line;
    size_t begin = (size_t)ith * per, end = begin + per;
    if (begin > j->n) begin = j->n;
    if (end > j->n) end = j->n;
    if (begin < end)
        j->fn(end - begin, j->g + begin * j->es, j->o + begin * j->es, j->y + begin * j->es);
}

static int sgb_loop_call(void *ctx) {
    const sgb_loop *l = ctx;
    size_t set = sgb_bufs_take(l->b);
    sgb_loop_job j = {l->fn,
                      l->b->n,
                      l->b->es,
                      sgb_buf(l->b, set, 0),
                      sgb_buf(l->b, set, 1),
                      sgb_buf(l->b, set, 2)};
    return sg_pool_run(l->nth, sgb_loop_part, &j, 0) == SELUGRAD_OK ? 0 : -1;
}

/* Threads the timed calls will run on, for choosing the bound's and the peers' thread counts:
   counted over a burst of calls made as the timing makes them (back to back: the first of a
   burst may find the workers asleep and not wake them, the others find them spinning); 0 if a
   call failed. */
static unsigned sgb_threads_used(sgb_call *c) {
    /* fewer for calls from DRAM, which take milliseconds each */
    size_t warm = c->b->cold ? 1 : 3, calls = c->b->cold ? 3 : 8;
    for (size_t k = 0; k < warm + calls; k++) {
        if (k == warm) sgb_calls_threads(c);
        if (sgb_lib_call(c) != 0) return 0;
    }
    return sgb_calls_threads(c);
}

typedef struct sgb_run {
    const sgb_options *opt;
    sgb_timing timing;
    sgb_row *rows;
    size_t nrows;
    unsigned char onednn_said[SGB_MAX_LIST]; /* per --dtype entry: its oneDNN note is out */
} sgb_run;

/* Whether this CPU runs the hand loops (built for the build machine, handloop.c). */
static int sgb_loop_runs_here(void) {
    return sg_isa_supported(sgb_loop_isa);
}

/* The compute bound and what governs the row (its memory bound and ratio set), from the median
   seconds of one timed call of c. */
static void sgb_row_compute(sgb_row *row, const sgb_compute *c, double med) {
    double bpe = (row->op ? 2.0 : 3.0) * (double)c->b->es;
    double rate = (double)(c->calls * c->b->n) / med; /* elements per second on one thread */
    row->compute_gbps = rate * bpe * (double)row->threads_used * 1e-9;
    int compute = row->compute_gbps < row->bound_gbps;
    snprintf(row->governs, sizeof row->governs, "%s", compute ? "compute" : row->bound_kind);
    row->ratio_gov = row->gbps / (compute ? row->compute_gbps : row->bound_gbps);
}

/* One row: the call, the triads, the hand loop on nth allowed threads and the kernel on the
   calling thread in L1 (cb: its dtype's values; the compute bound), timed in one group. */
static int sgb_run_row(sgb_run *r, sgb_bufs *b, sgb_bufs *tb, const sgb_bufs *cb, sgb_call *lc,
                       sgb_onednn *dn, const sg_kernel *k, sg_isa cap, unsigned nth, sgb_row *row) {
    if (selugrad_set_num_threads((int)nth) != SELUGRAD_OK) return -1;
    unsigned used = sgb_threads_used(lc);
    /* The bound is the best the memory system gives these bytes with up to nth threads: the
       plain and the non-temporal triads on nth threads, on one, and on the threads the call uses
       when that is in between (a small triad split over threads mostly pays the wake-up, so a
       call that splits early, being slow per element, is still measured against the one-thread
       bound). */
    unsigned counts[3] = {nth, 1, used};
    size_t ncounts = nth > 1 ? (used > 1 && used < nth ? 3 : 2) : 1;
    sgb_triad tr[6];
    sgb_call_fn fns[9] = {sgb_lib_call};
    void *ctxs[9] = {lc};
    for (size_t c = 0; c < ncounts; c++) {
        sgb_triad_setup(tr + 2 * c, tb, counts[c], cap, lc->op);
        for (size_t v = 0; v < 2; v++) {
            fns[1 + 2 * c + v] = sgb_triad_call;
            ctxs[1 + 2 * c + v] = &tr[2 * c + v];
        }
    }
    size_t nfns = 1 + 2 * ncounts;
    sgb_loop loop = {b, sgb_hand_loop(lc->dtype), used};
    int with_loop = used > 0 && sgb_loop_runs_here() && lc->op == 0; /* SeluGrad's loops only */
    size_t at_loop = nfns;
    if (with_loop) {
        fns[nfns] = sgb_loop_call;
        ctxs[nfns++] = &loop;
    }
    /* the compute bound: samples of 20 us in turns that open with a refill (hot); of 0.2 ms
       after streaming calls that evicted its buffers (cold: the refill is then a few us) */
    sgb_compute cmp;
    sgb_compute_setup(&cmp, k, cb, b->cold ? 200e-6 : 20e-6);
    size_t at_cmp = nfns;
    fns[nfns] = sgb_compute_call;
    ctxs[nfns++] = &cmp;
    double med[9], dn_med = 0.0;
    /* Cold cases alternate samples of the call, the triads and the hand loop: other processes'
       memory traffic then hits all of them alike. Hot ones take eight turns of several samples
       each (a turn opens with one sample not kept, to refill the caches). */
    sgb_calls_threads(lc);
    int rc = used > 0 ? sgb_time_medians(nfns, fns, ctxs, b->cold, &r->timing, med) : -1;
    unsigned timed_used = sgb_calls_threads(lc); /* what the timed calls ran on */
    /* oneDNN on its own, after the others: its OpenMP threads spin for milliseconds after each
       of its calls (libgomp's default wait policy) and, alternated with the others, took a CPU
       from whatever ran next (16M f32 on 2 threads: the call's ratio 0.60-0.72 beside oneDNN,
       0.82-0.91 with OMP_WAIT_POLICY=passive, on the shared Zen 5) */
    if (rc == 0 && dn && used > 0) {
        sgb_onednn_threads(used);
        sgb_call_fn dfn = sgb_onednn_call;
        void *dctx = dn;
        rc = sgb_time_medians(1, &dfn, &dctx, b->cold, &r->timing, &dn_med);
    }
    selugrad_set_num_threads(0);
    if (rc != 0) return -1;
    double bytes = (lc->op ? 2.0 : 3.0) * (double)b->array_bytes;
    row->op = lc->op;
    row->dtype = lc->dtype;
    row->n = b->n;
    row->threads = nth;
    row->threads_used = timed_used;
    row->kernel = k->name;
    row->cache = b->cold ? "cold" : "hot";
    row->us = med[0] * 1e6;
    row->gbps = bytes / med[0] * 1e-9;
    size_t best = 1;
    for (size_t f = 2; f < 1 + 2 * ncounts; f++)
        if (med[f] < med[best]) best = f;
    row->bound_gbps = bytes / med[best] * 1e-9;
    if (tr[best - 1].nth < nth)
        snprintf(row->bound_kind, sizeof row->bound_kind, "%s/%ut", tr[best - 1].name,
                 tr[best - 1].nth);
    else
        snprintf(row->bound_kind, sizeof row->bound_kind, "%s", tr[best - 1].name);
    row->ratio = row->gbps / row->bound_gbps;
    row->loop_gbps = with_loop ? bytes / med[at_loop] * 1e-9 : 0.0;
    row->speedup = with_loop ? med[at_loop] / med[0] : 0.0;
    row->onednn_gbps = dn_med > 0.0 ? bytes / dn_med * 1e-9 : 0.0;
    sgb_row_compute(row, &cmp, med[at_cmp]);
    return 0;
}

/* b holds the dtype's inputs (the di-th --dtype entry), tb floats of the same geometry for the
   triad, cb SGB_L1_N elements of the dtype for the compute bound; op 0 SeluGrad, 1 the forward. */
static int sgb_run_dtype(sgb_run *r, sgb_bufs *b, sgb_bufs *tb, const sgb_bufs *cb, size_t di,
                         int op) {
    const sgb_options *opt = r->opt;
    selugrad_dtype dtype = opt->dtypes[di];
    size_t nisas = opt->nisas ? opt->nisas : 1;
    const char *why;
    sgb_onednn *dn = sgb_onednn_open(b, dtype, &why);
    if (!r->onednn_said[di]) { /* once per dtype: what the onednn_gbps column holds */
        if (dn)
            printf("# onednn %s: %s\n", selugrad_dtype_name(dtype), sgb_onednn_impl(dn));
        else
            printf("# onednn %s: not run (%s)\n", selugrad_dtype_name(dtype), why);
        r->onednn_said[di] = 1;
    }
    const selugrad_isa before = selugrad_get_max_isa();
    int rc = 0;
    for (size_t i = 0; i < nisas && rc == 0; i++) {
        const char *isa = "auto";
        if (opt->nisas) {
            if (opt->isas[i] != SG_ISA_ALL && !sg_isa_supported(opt->isas[i])) continue;
            selugrad_set_max_isa(opt->isas[i]);
            isa = sg_isa_name(opt->isas[i]);
        }
        sg_isa cap = selugrad_get_max_isa();
        const sg_kernel *k = op ? sg_selu_kernel_for(dtype) : sg_kernel_for(dtype);
        if (k == NULL) break; /* the forward has no uint8 */
        sgb_call lc = {b, dtype, op, 0, 0};
        for (size_t t = 0; t < opt->nthreads && rc == 0; t++) {
            sgb_row *row = &r->rows[r->nrows];
            rc = sgb_run_row(r, b, tb, cb, &lc, op ? NULL : dn, k, cap, opt->threads[t], row);
            if (rc != 0) break;
            row->isa = isa;
            r->nrows++;
            sgb_table_row(stdout, row);
        }
    }
    selugrad_set_max_isa(before);
    sgb_onednn_close(dn);
    return rc;
}

static int sgb_run_all(sgb_run *r) {
    const sgb_options *opt = r->opt;
    for (size_t si = 0; si < opt->nsizes; si++) {
        for (size_t di = 0; di < opt->ndtypes; di++) {
            selugrad_dtype dt = opt->dtypes[di];
            sgb_bufs b, tb, cb;
            size_t n = opt->sizes[si], es = selugrad_dtype_size(dt);
            int ab = sgb_bufs_alloc(&b, n, es), at = sgb_bufs_alloc(&tb, n, es);
            int ac = sgb_bufs_alloc(&cb, SGB_L1_N, es);
            if (ab != 0 || at != 0 || ac != 0) {
                sgb_bufs_free(&b);
                sgb_bufs_free(&tb);
                sgb_bufs_free(&cb);
                fprintf(stderr, "%s: out of memory for n = %zu %s\n", opt->prog, n,
                        selugrad_dtype_name(dt));
                return -1;
            }
            sgb_bufs_fill(&b, dt);
            sgb_bufs_fill_float(&tb);
            sgb_bufs_fill(&cb, dt);
            int rc = 0;
            for (size_t oi = 0; oi < opt->nops && rc == 0; oi++)
                rc = sgb_run_dtype(r, &b, &tb, &cb, di, opt->ops[oi]);
            sgb_bufs_free(&b);
            sgb_bufs_free(&tb);
            sgb_bufs_free(&cb);
            if (rc != 0) {
                fprintf(stderr, "%s: a call failed: %s\n", opt->prog, selugrad_last_error());
                return -1;
            }
        }
    }
    return 0;
}

/* Every size's buffers fit in the memory available (the two sets sgb_run_all maps at once and
   the L1 set): mapped with MAP_POPULATE beyond it, the system kills the run partway rather than
   the mapping fail. 0, or 2 with the reason on stderr. */
static int sgb_check_memory(const sgb_options *opt) {
    double avail = sg_argv_available_memory(), gib = 1024.0 * 1024.0 * 1024.0;
    if (avail <= 0) return 0; /* unknown: the mappings decide */
    for (size_t si = 0; si < opt->nsizes; si++)
        for (size_t di = 0; di < opt->ndtypes; di++) {
            size_t n = opt->sizes[si], es = selugrad_dtype_size(opt->dtypes[di]);
            double need = 2.0 * (double)sgb_bufs_plan_bytes(n, es) +
                          (double)sgb_bufs_plan_bytes(SGB_L1_N, es);
            if (need > avail) {
                fprintf(stderr,
                        "%s: --size %zu of %s needs %.1f GiB for its buffers, more than the "
                        "%.1f GiB of memory available\n",
                        opt->prog, n, selugrad_dtype_name(opt->dtypes[di]), need / gib,
                        avail / gib);
                return 2;
            }
        }
    return 0;
}

int selugrad_bench_main(int argc, char **argv) {
    sgb_omp_note_start();
    sgb_options opt;
    int rc = sgb_parse_options(argc, argv, &opt, stderr);
    if (rc != 0) return rc == 1 ? 0 : 2;
    if ((rc = sgb_check_memory(&opt)) != 0) return rc;
    for (size_t i = 0; i < opt.nisas; i++)
        if (opt.isas[i] != SG_ISA_ALL && !sg_isa_supported(opt.isas[i]))
            fprintf(stderr, "%s: --isa=%s: this CPU cannot run it; skipped\n", opt.prog,
                    sg_isa_name(opt.isas[i]));
    sgb_run r = {&opt, {opt.reps, opt.quick ? 0.005 : 0.15, opt.quick ? 3u : 5u}, NULL, 0, {0}};
    size_t nisas = opt.nisas ? opt.nisas : 1;
    /* the table's rows, then --omp's: three per size, dtype and thread count */
    size_t nomp = opt.omp ? 3 * opt.nsizes * opt.ndtypes * opt.nthreads : 0;
    r.rows =
        calloc(opt.nops * opt.nsizes * opt.ndtypes * nisas * opt.nthreads + nomp, sizeof *r.rows);
    if (r.rows == NULL) {
        fprintf(stderr, "%s: out of memory\n", opt.prog);
        return 1;
    }
    char env[2048];
    sgb_env_text(&opt, env, sizeof env);
    fputs(env, stdout);
    printf(
        "# selugrad %s bench: median of repeated calls; gbps = 3 n sizeof(T) / median time "
        "(the forward, kernel *_selu__*: 2 n sizeof(T), bound: STREAM scale, 1 read + 1 write; "
        "no loop, no oneDNN)\n"
        "# threads = what selugrad_set_num_threads was given; threads_used = the threads the "
        "timed calls ran on, counted per call (the mean, rounded; a call below its kernel's "
        "per-thread traffic runs on one)\n"
        "# bound = the best STREAM triad (plain or non-temporal, of the row's ISA level at "
        "most) on the same bytes, on threads, on 1 and on threads_used; ratio = gbps / "
        "bound_gbps\n"
        "# compute_gbps = the row's kernel on %d elements in L1 on one thread (as "
        "selugrad_isa_rates; the median, sampled in turn with the call and the triads) x the "
        "bytes per element x threads_used; "
        "governs = the lower of the two bounds (compute, or the bound's name); ratio_gov = "
        "gbps / that bound\n"
        "# a ratio above 1: the call moved its bytes faster than the triad in the same run; the "
        "bound is a measured loop, not a hardware limit (in cache both are limited by the core, "
        "and on a shared machine two medians move apart by several per cent); u8 never reads o "
        "(o >= 0 always), so it moves 2 of the 3 bytes per element counted\n"
        "# loop = the hand-written branch-free loop (bench/handloop.c, %s) on threads_used "
        "threads%s; speedup = loop time / call time\n"
        "# onednn_gbps = oneDNN's eltwise backward (elu_use_dst_for_bwd, alpha = SA: the same "
        "bytes and select, x1 instead of scale where o > 0) on threads_used threads, timed after "
        "the others and on its own (its OpenMP threads spin after each call); 0 where not run "
        "(a '# onednn' line per dtype says what ran)\n",
        selugrad_version(), (int)SGB_L1_N, sgb_loop_build,
        sgb_loop_runs_here() ? "" : " (not run: built for a CPU level this one lacks)");
    sgb_table_header(stdout);
    double t0 = sgb_now();
    rc = sgb_run_all(&r) == 0 ? 0 : 1;
    printf("# %zu rows in %.1f s\n", r.nrows, sgb_now() - t0);
    size_t nomp_rows = 0;
    if (rc == 0 && opt.omp && sgb_omp_run(&opt, &r.timing, r.rows + r.nrows, &nomp_rows) != 0)
        rc = 1;
    if (rc == 0 && opt.csv &&
        sgb_write_csv(opt.prog, opt.csv, env, r.rows, r.nrows + nomp_rows) != 0)
        rc = 1;
    if (rc == 0 && opt.plot && sgb_plot(opt.prog, opt.plot, r.rows, r.nrows) != 0) rc = 1;
    free(r.rows);
    return rc;
}
