/*
 * `selugrad run`: correctness runs in the style of benchdnn. Comma lists run as their product;
 * each case prints a status line and a repro command. Each --isa value is set with
 * selugrad_set_max_isa and each --soc value with cli_exec_use_soc, in this process.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/cpu.h"
#include "runtime/soc.h"
#include "cli.h"

enum { RUN_MAX = 16 };

typedef struct run_opts {
    char dtypes[RUN_MAX][64], shapes[RUN_MAX][64], threads[RUN_MAX][64], isas[RUN_MAX][64],
        socs[RUN_MAX][64];
    int n_dtypes, n_shapes, n_threads, n_isas, n_socs;
    const char *strides, *range;
    int fwd; /* --op=selu: the forward (aclnnSelu) instead of SeluGrad */
    int64_t seed;
    int pass, fail, skip;
} run_opts;

static const char cli_run_help[] =
    "usage: selugrad run --dtype=LIST (--shape=S | --shapes=LIST) [--threads=LIST] [--isa=LIST]\n"
    "                    [--soc=LIST]\n"
    "                    [--strides=S] [--seed=N] [--range=LO,HI] [--op=selu_grad|selu]\n"
    "Runs every combination of the lists through the operator's API, checks each result bit\n"
    "for bit against the golden model and by the precision standard (docs/contract.md),\n"
    "prints one status line with a repro command per case and a summary. Exit status 1\n"
    "when any case fails.\n"
    "  --dtype=f32,f16,bf16,s8,u8,s32\n"
    "  --shape=2x16x32x16   one tensor's shape, as for verify (2,16,32,16 is the same; scalar\n"
    "                       for rank 0)\n"
    "  --shapes=2x16x32x16,7   several shapes, one case each\n"
    "  --threads=1,2   worker threads (default: the library's default)\n"
    "  --isa=scalar,avx2,avx512,avx512fp16,neon,all   ISA caps (selugrad_set_max_isa)\n"
    "  --soc=Ascend910B,...   SoC profiles (SELUGRAD_SOC); skips bf16 where aclnn rejects it\n"
    "  --strides=AxB   element strides of every view, input and output (same rank as each shape)\n"
    "  --seed=N (default 1)   --range=LO,HI (default -2,2; integers: their full range)\n"
    "  --op=selu   the forward through aclnnSelu (no u8), judged by its golden\n";

static uint64_t run_hash(const char *s, uint64_t h) {
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001B3u;
    return h;
}

static void run_default_range(selugrad_dtype dt, double *lo, double *hi) {
    switch (dt) {
    case SELUGRAD_INT8:
        *lo = -128, *hi = 127;
        break;
    case SELUGRAD_UINT8:
        *lo = 0, *hi = 255;
        break;
    case SELUGRAD_INT32:
        *lo = -100000, *hi = 100000;
        break;
    default:
        *lo = -2, *hi = 2;
        break;
    }
}

/* Storage elements of a strided view (SIZE_MAX when that overflows), and the scatter/gather
   between it and a dense tensor. */
static size_t run_span(size_t rank, const int64_t *dims, const int64_t *strides) {
    for (size_t d = 0; d < rank; d++)
        if (dims[d] == 0) return 0;
    size_t span = 1;
    for (size_t d = 0; d < rank; d++) {
        size_t ext = (size_t)(dims[d] - 1), st = (size_t)strides[d];
        if (st != 0 && ext > (SIZE_MAX / 2 - span) / st) return SIZE_MAX;
        span += ext * st;
    }
    return span;
}

static void run_copy(const cli_tensor *t, const int64_t *strides, void *storage, int to_storage) {
    size_t es = selugrad_dtype_size(t->dtype);
    int64_t idx[CLI_MAX_RANK] = {0};
    for (size_t i = 0; i < t->n; i++) {
        size_t off = 0;
        for (size_t d = 0; d < t->rank; d++) off += (size_t)(idx[d] * strides[d]);
        char *s = (char *)storage + off * es, *c = (char *)t->data + i * es;
        memcpy(to_storage ? s : c, to_storage ? c : s, es);
        for (size_t d = t->rank; d-- > 0;) {
            if (++idx[d] < t->dims[d]) break;
            idx[d] = 0;
        }
    }
}

/* A case's layout: shape, and the strides of all three views (srank 0: contiguous). */
typedef struct run_layout {
    size_t rank, srank;
    int64_t dims[CLI_MAX_RANK], strides[CLI_MAX_RANK];
} run_layout;

/* What a case needs before it runs: its layout, whether its SoC takes the dtype, the value range
   and the thread count (set in the library). Returns 0 to go on, 1 fail, 2 skip (msg says why). */
static int run_case_setup(const run_opts *op, selugrad_dtype dt, const char *shape_s,
                          const char *thr, const char *soc, run_layout *lay, double *lo, double *hi,
                          char *msg, size_t len) {
    lay->srank = 0;
    if (cli_parse_shape(shape_s, &lay->rank, lay->dims, 0) != 0)
        return snprintf(msg, len, "bad shape"), 1;
    if (op->strides && (cli_parse_shape(op->strides, &lay->srank, lay->strides, 0) != 0 ||
                        lay->srank != lay->rank))
        return snprintf(msg, len, "--strides needs %zu non-negative strides", lay->rank), 1;
    if (!soc) soc = sg_soc_env_name(); /* the SoC aclInit picks (checked with the options) */
    const sg_soc *p = sg_soc_find(soc);
    if (!p) return snprintf(msg, len, "unknown SoC"), 1;
    if (dt == SELUGRAD_BF16 && !p->bf16)
        return snprintf(msg, len, "%s not accepted by aclnn on %s", selugrad_dtype_name(dt), soc),
               2;
    run_default_range(dt, lo, hi);
    if (op->range) {
        char parts[2][64];
        int n;
        if (cli_split(op->range, ',', parts, 2, &n) != 0 || n != 2 ||
            cli_parse_double(parts[0], lo) != 0 || cli_parse_double(parts[1], hi) != 0)
            return snprintf(msg, len, "bad --range"), 1;
    }
    int64_t nth = 0;
    if (thr && cli_parse_i64(thr, &nth) != 0) return snprintf(msg, len, "bad --threads"), 1;
    if (selugrad_set_num_threads((int)nth) != SELUGRAD_OK)
        return snprintf(msg, len, "%s", selugrad_last_error()), 1;
    return 0;
}

/* Runs the case on storage laid out with the strides: g and o scattered into it, y gathered
   back. Returns cli_exec_case's status, or -1 out of memory. */
static int run_exec_strided(const run_layout *lay, const cli_tensor *g, const cli_tensor *o,
                            cli_tensor *y, char *err, size_t len) {
    size_t span = run_span(lay->rank, lay->dims, lay->strides), es = selugrad_dtype_size(g->dtype);
    int fits = span < ((size_t)1 << 40); /* checked with the options; kept for any caller */
    char *sg = fits ? calloc(span + 1, es) : NULL, *so = fits ? calloc(span + 1, es) : NULL,
         *sy = fits ? calloc(span + 1, es) : NULL;
    int rc = -1;
    if (!sg || !so || !sy) {
        snprintf(err, len, "out of memory");
    } else {
        run_copy(g, lay->strides, sg, 1);
        run_copy(o, lay->strides, so, 1);
        rc = cli_exec_case(g->dtype, lay->rank, lay->dims, lay->strides, sg, so, sy, err, len);
        run_copy(y, lay->strides, sy, 0);
    }
    free(sg), free(so), free(sy);
    return rc;
}

/* One forward case (--op=selu) through aclnnSelu; returns 0 pass, 1 fail, 2 skip. */
static int run_fwd_case(const run_opts *op, selugrad_dtype dt, const char *shape_s,
                        const run_layout *lay, double lo, double hi, char *msg, size_t len) {
    if (dt == SELUGRAD_UINT8) return snprintf(msg, len, "the forward has no u8"), 2;
    cli_tensor x, y;
    cli_rng rng = {run_hash(shape_s, run_hash(selugrad_dtype_name(dt), (uint64_t)op->seed))};
    if (cli_tensor_alloc(&x, dt, lay->rank, lay->dims) ||
        cli_tensor_alloc(&y, dt, lay->rank, lay->dims))
        return snprintf(msg, len, "out of memory"), 1;
    cli_progress p; /* x drawn, the call, the model, the exact golden, the check */
    cli_progress_begin(&p, "run", x.n, 5);
    cli_fill(&x, &rng, lo, hi, NULL, 0);
    cli_progress_add(&p, "drawing self", x.n);
    char err[256] = "";
    clock_t t0 = clock();
    int rc;
    if (lay->srank) { /* x scattered into storage laid out with the strides, y gathered back */
        size_t span = run_span(lay->rank, lay->dims, lay->strides), es = selugrad_dtype_size(dt);
        char *sx = calloc(span + 1, es), *sy = calloc(span + 1, es);
        rc = -1;
        if (!sx || !sy) {
            snprintf(err, sizeof err, "out of memory");
        } else {
            run_copy(&x, lay->strides, sx, 1);
            rc = cli_fwd_exec(dt, lay->rank, lay->dims, lay->strides, sx, sy, 0, err, sizeof err);
            run_copy(&y, lay->strides, sy, 0);
        }
        free(sx), free(sy);
    } else {
        rc = cli_fwd_exec(dt, lay->rank, lay->dims, NULL, x.data, y.data, 0, err, sizeof err);
    }
    double ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
    if (rc == 0) cli_progress_add(&p, "library call", x.n);
    cli_check c;
    memset(&c, 0, sizeof c);
    if (rc == 0 && cli_fwd_check_progress(dt, x.n, x.data, y.data, NULL, &p, &c) != 0) rc = -1;
    cli_progress_end(&p);
    int bad = rc != 0 || !c.bit_ok || !c.precision_ok;
    if (rc != 0)
        snprintf(msg, len, "error %s", err);
    else
        snprintf(msg, len,
                 "api=aclnnSelu kernel=%s threads=%d mismatches=%zu MERE=%.2g MARE=%.2g%s "
                 "cpu=%.1fms",
                 selugrad_forward_kernel_name(dt), selugrad_get_num_threads(), c.mismatches, c.mere,
                 c.mare, c.precision_ok ? "" : " precision=FAIL", ms);
    cli_tensor_free(&x), cli_tensor_free(&y);
    return bad;
}

/* One case; returns 0 pass, 1 fail, 2 skip. */
static int run_case(const run_opts *op, selugrad_dtype dt, const char *shape_s, const char *thr,
                    const char *soc, char *msg, size_t len) {
    run_layout lay;
    double lo, hi;
    int pre = run_case_setup(op, dt, shape_s, thr, soc, &lay, &lo, &hi, msg, len);
    if (pre != 0) return pre;
    if (op->fwd) return run_fwd_case(op, dt, shape_s, &lay, lo, hi, msg, len);
    cli_tensor g, o, y;
    cli_rng rng = {run_hash(shape_s, run_hash(selugrad_dtype_name(dt), (uint64_t)op->seed))};
    if (cli_tensor_alloc(&g, dt, lay.rank, lay.dims) ||
        cli_tensor_alloc(&o, dt, lay.rank, lay.dims) ||
        cli_tensor_alloc(&y, dt, lay.rank, lay.dims))
        return snprintf(msg, len, "out of memory"), 1;
    cli_progress p; /* the two inputs drawn, the call, the model, the check */
    cli_progress_begin(&p, "run", g.n, 5);
    cli_fill(&g, &rng, lo, hi, NULL, 0);
    cli_progress_add(&p, "drawing gradOutput", g.n);
    cli_fill(&o, &rng, lo, hi, NULL, 0);
    cli_progress_add(&p, "drawing result", g.n);
    char err[256] = "";
    clock_t t0 = clock();
    int rc = lay.srank ? run_exec_strided(&lay, &g, &o, &y, err, sizeof err)
                       : cli_exec_case(dt, lay.rank, lay.dims, NULL, g.data, o.data, y.data, err,
                                       sizeof err);
    double ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
    if (rc == 0) cli_progress_add(&p, "library call", g.n);
    cli_check c;
    memset(&c, 0, sizeof c);
    if (rc == 0 && cli_check_progress(dt, g.n, g.data, o.data, y.data, NULL, &p, &c) != 0) rc = -1;
    cli_progress_end(&p);
    int bad = rc != 0 || !c.bit_ok || !c.precision_ok;
    if (rc != 0)
        snprintf(msg, len, "error %s", err);
    else
        snprintf(msg, len,
                 "api=%s kernel=%s threads=%d mismatches=%zu MERE=%.2g MARE=%.2g%s cpu=%.1fms",
                 cli_exec_api(dt), selugrad_kernel_name(dt), selugrad_get_num_threads(),
                 c.mismatches, c.mere, c.mare, c.precision_ok ? "" : " precision=FAIL", ms);
    cli_tensor_free(&g), cli_tensor_free(&o), cli_tensor_free(&y);
    return bad;
}

/* Every dtype x shape x threads case under the cap and SoC in force; isa and soc (NULL when not
   given) go into the repro lines. */
static void run_all(run_opts *op, const char *isa, const char *soc) {
    static const char *const st_names[3] = {"PASS", "FAIL", "SKIP"};
    for (int d = 0; d < op->n_dtypes; d++)
        for (int sh = 0; sh < op->n_shapes; sh++)
            for (int t = 0; t < (op->n_threads ? op->n_threads : 1); t++) {
                selugrad_dtype dt;
                char msg[512];
                const char *thr = op->n_threads ? op->threads[t] : NULL;
                sg_argv_dtype(op->dtypes[d], &dt);
                int r = run_case(op, dt, op->shapes[sh], thr, soc, msg, sizeof msg);
                if (r == 0)
                    op->pass++;
                else if (r == 1)
                    op->fail++;
                else
                    op->skip++;
                /* a SoC from the environment goes into the line too */
                const char *env_soc = soc ? NULL : getenv("SELUGRAD_SOC");
                int by_env = env_soc != NULL && env_soc[0] != '\0';
                printf("%s %s %s %s | repro: %s%s%sselugrad run --dtype=%s --shape=%s", st_names[r],
                       op->dtypes[d], op->shapes[sh], msg, by_env ? "SELUGRAD_SOC=" : "",
                       by_env ? env_soc : "", by_env ? " " : "", op->dtypes[d], op->shapes[sh]);
                if (op->fwd) printf(" --op=selu");
                if (thr) printf(" --threads=%s", thr);
                if (isa) printf(" --isa=%s", isa);
                if (soc) printf(" --soc=%s", soc);
                if (op->strides) printf(" --strides=%s", op->strides);
                printf(" --seed=%lld", (long long)op->seed);
                if (op->range) printf(" --range=%s", op->range);
                printf("\n");
                fflush(stdout);
            }
}

static int run_list(const char *v, char out[][64], int *n, const char *what) {
    if (cli_split(v, ',', out, RUN_MAX, n) != 0 || *n == 0)
        return cli_usage_error("run",
                               "bad %s list '%s': at most %d entries, each under 64 characters",
                               what, v, RUN_MAX);
    return 0;
}

/* The options into op, as given; 0, or the usage error's status. */
static int run_parse(int argc, char **argv, run_opts *op) {
    memset(op, 0, sizeof *op);
    op->seed = 1;
    const char *v;
    int op_seen = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (sg_argv_opt(argc, argv, &i, "--dtype", &v))
            rc = run_list(v, op->dtypes, &op->n_dtypes, "dtype");
        else if (sg_argv_opt(argc, argv, &i, "--shapes", &v)) {
            if (op->n_shapes) return cli_usage_error("run", "give --shape or --shapes, once");
            rc = run_list(v, op->shapes, &op->n_shapes, "shape");
        } else if (sg_argv_opt(argc, argv, &i, "--shape", &v)) {
            if (op->n_shapes) return cli_usage_error("run", "give --shape or --shapes, once");
            if (strchr(v, ',') && strchr(v, 'x'))
                return cli_usage_error(
                    "run",
                    "--shape '%s' mixes ',' and 'x': --shape is one tensor's "
                    "shape (4,8,16 is 4x8x16); for several cases use --shapes=%s",
                    v, v);
            size_t r;
            int64_t d[CLI_MAX_RANK];
            const char *why = cli_shape_why(v, &r, d, 0);
            if (why) return cli_usage_error("run", "bad shape '%s': %s", v, why);
            if (strlen(v) >= sizeof op->shapes[0])
                return cli_usage_error("run", "shape '%s' is longer than 63 characters", v);
            cli_shape_str(r, d, op->shapes[0], sizeof op->shapes[0]);
            op->n_shapes = 1;
        } else if (sg_argv_opt(argc, argv, &i, "--threads", &v))
            rc = run_list(v, op->threads, &op->n_threads, "threads");
        else if (sg_argv_opt(argc, argv, &i, "--isa", &v))
            rc = run_list(v, op->isas, &op->n_isas, "isa");
        else if (sg_argv_opt(argc, argv, &i, "--soc", &v))
            rc = run_list(v, op->socs, &op->n_socs, "soc");
        else if (sg_argv_opt(argc, argv, &i, "--strides", &v))
            op->strides = v;
        else if (sg_argv_opt(argc, argv, &i, "--op", &v)) {
            if (strcmp(v, "selu") != 0 && strcmp(v, "selu_grad") != 0)
                return cli_usage_error("run", "unknown --op '%s' (selu_grad, selu)", v);
            if (op_seen++) return cli_usage_error("run", "--op is given twice");
            op->fwd = strcmp(v, "selu") == 0;
        } else if (sg_argv_opt(argc, argv, &i, "--range", &v))
            op->range = v;
        else if (sg_argv_opt(argc, argv, &i, "--seed", &v)) {
            if (cli_parse_i64(v, &op->seed) != 0) return cli_usage_error("run", "bad --seed");
        } else
            return cli_usage_error("run", "unknown argument '%s'", a);
        if (rc) return rc;
    }
    if (!op->n_dtypes || !op->n_shapes)
        return cli_usage_error("run", "--dtype and --shape (or --shapes) needed");
    return 0;
}

/* Every entry of the dtype, shape, threads, isa and soc lists names something that exists. */
static int run_validate_lists(const run_opts *op) {
    for (int i = 0; i < op->n_dtypes; i++) {
        selugrad_dtype dt;
        if (sg_argv_dtype(op->dtypes[i], &dt) != 0)
            return cli_usage_error("run", "unknown dtype '%s'", op->dtypes[i]);
    }
    for (int i = 0; i < op->n_shapes; i++) {
        size_t r;
        int64_t d[CLI_MAX_RANK];
        const char *why = cli_shape_why(op->shapes[i], &r, d, 0);
        if (why) return cli_usage_error("run", "bad shape '%s': %s", op->shapes[i], why);
        if (cli_shape_count(r, d) > ((size_t)1 << 40))
            return cli_usage_error("run", "shape '%s' has more than 2^40 elements", op->shapes[i]);
    }
    for (int i = 0; i < op->n_threads; i++) {
        int64_t t;
        if (cli_parse_i64(op->threads[i], &t) != 0 || t < 1 || t > 1024)
            return cli_usage_error("run", "bad --threads entry '%s' (1 to 1024)", op->threads[i]);
    }
    for (int i = 0; i < op->n_isas; i++) {
        sg_isa isa;
        if (!sg_isa_from_name(op->isas[i], &isa))
            return cli_usage_error("run", "unknown isa '%s'", op->isas[i]);
    }
    for (int i = 0; i < op->n_socs; i++)
        if (!sg_soc_find(op->socs[i]))
            return cli_usage_error("run", "unknown SoC '%s'", op->socs[i]);
    if (op->n_socs == 0 && !sg_soc_find(sg_soc_env_name()))
        return cli_usage_error("run",
                               "SELUGRAD_SOC=\"%s\" is not a known SoC (see `selugrad info`)",
                               sg_soc_env_name());
    return 0;
}

/* --range is LO,HI, finite, LO <= HI. */
static int run_validate_range(const run_opts *op) {
    if (!op->range) return 0;
    char parts[2][64];
    int n;
    double lo, hi;
    if (cli_split(op->range, ',', parts, 2, &n) != 0 || n != 2 ||
        cli_parse_double(parts[0], &lo) != 0 || cli_parse_double(parts[1], &hi) != 0 ||
        !isfinite(lo) || !isfinite(hi) || lo > hi)
        return cli_usage_error("run", "bad --range '%s' (LO,HI: finite, LO <= HI)", op->range);
    return 0;
}

static int run_cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

enum { RUN_SHARED_MAX = 1 << 22 }; /* elements whose offsets run_shared sorts */

/* Whether a view of the shape with these strides (no 0 stride on a dim above 1, span checked)
   gives two elements one address: 0 no, 1 yes, 2 not proven (interleaved strides over more than
   RUN_SHARED_MAX elements), 3 no memory to check. Strides that each pass the reach of the
   smaller ones prove it; else the element offsets are sorted and compared. */
static int run_shared(size_t rank, const int64_t *dims, const int64_t *strides) {
    size_t order[CLI_MAX_RANK], m = 0, n = 1;
    for (size_t d = 0; d < rank; d++) {
        if (dims[d] == 0) return 0;
        n *= (size_t)dims[d];
        if (dims[d] > 1) order[m++] = d;
    }
    for (size_t i = 1; i < m; i++) /* by stride, smallest first */
        for (size_t j = i; j > 0 && strides[order[j]] < strides[order[j - 1]]; j--) {
            size_t t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    size_t reach = 0, k = 0;
    for (; k < m && (size_t)strides[order[k]] > reach; k++)
        reach += (size_t)(dims[order[k]] - 1) * (size_t)strides[order[k]];
    if (k == m) return 0;
    if (n > RUN_SHARED_MAX) return 2;
    size_t *off = malloc(n * sizeof *off);
    if (!off) return 3;
    int64_t idx[CLI_MAX_RANK] = {0};
    for (size_t i = 0; i < n; i++) {
        off[i] = 0;
        for (size_t d = 0; d < rank; d++) off[i] += (size_t)(idx[d] * strides[d]);
        for (size_t d = rank; d-- > 0;) {
            if (++idx[d] < dims[d]) break;
            idx[d] = 0;
        }
    }
    qsort(off, n, sizeof *off, run_cmp_size);
    int shared = 0;
    for (size_t i = 1; i < n && !shared; i++) shared = off[i] == off[i - 1];
    free(off);
    return shared;
}

/* --strides has each shape's rank, no 0 stride on a dim above 1 and no other two elements at
   one address (the strides apply to the output too, whose elements would share addresses: aclnn
   refuses such a gradInput, and the native API, called row by row, cannot see it), and a span
   of at most 2^40 elements over every shape. */
static int run_validate_strides(const run_opts *op) {
    if (!op->strides) return 0;
    size_t srank;
    int64_t st[CLI_MAX_RANK];
    const char *why = cli_shape_why(op->strides, &srank, st, 0);
    if (why == cli_why_negative_dim) /* the parser's words are for shapes */
        why = "a negative stride (strides are 0 or more, as aclnn's views take them)";
    if (why) return cli_usage_error("run", "bad --strides '%s': %s", op->strides, why);
    for (int i = 0; i < op->n_shapes; i++) {
        size_t r;
        int64_t d[CLI_MAX_RANK];
        if (cli_parse_shape(op->shapes[i], &r, d, 0) == 0 && r != srank)
            return cli_usage_error("run", "--strides '%s' has rank %zu, shape '%s' rank %zu",
                                   op->strides, srank, op->shapes[i], r);
        for (size_t k = 0; k < r && k < srank; k++)
            if (st[k] == 0 && d[k] > 1)
                return cli_usage_error("run",
                                       "--strides '%s' has a 0 stride on a dim of %lld in "
                                       "shape '%s': the strides apply to the output too, "
                                       "whose elements would share addresses",
                                       op->strides, (long long)d[k], op->shapes[i]);
        if (run_span(r, d, st) > ((size_t)1 << 40))
            return cli_usage_error("run",
                                   "--strides '%s' over shape '%s' spans more than 2^40 elements",
                                   op->strides, op->shapes[i]);
        int shared = r == srank ? run_shared(r, d, st) : 0;
        if (shared == 1)
            return cli_usage_error("run",
                                   "--strides '%s' over shape '%s' puts two elements at one "
                                   "address: the strides apply to the output too, whose "
                                   "elements would share addresses",
                                   op->strides, op->shapes[i]);
        if (shared == 2)
            return cli_usage_error("run",
                                   "--strides '%s' interleave over shape '%s', of more than %d "
                                   "elements: whether two share an address is not checked (give "
                                   "each stride beyond the reach of the smaller ones)",
                                   op->strides, op->shapes[i], (int)RUN_SHARED_MAX);
        if (shared == 3) {
            fprintf(stderr, "selugrad run: out of memory checking --strides '%s' over shape '%s'\n",
                    op->strides, op->shapes[i]);
            return 1;
        }
    }
    return 0;
}

/* Each case fits in this machine's memory: a case whose arrays (the inputs and the output on
   the host and as the device's copies, SeluGrad's 6, the forward's 4; with --strides the
   device's copies span the strided storage, and the output's storage on the host is written
   whole) exceed the memory available is refused, since the
   system would kill the process partway (each allocation succeeds, the pages fault in later)
   rather than an allocation fail. A lower bound: the model's and the checks' arrays come on
   top. */
static int run_validate_memory(const run_opts *op) {
    double ram = sg_argv_available_memory(), gib = 1024.0 * 1024.0 * 1024.0;
    if (ram <= 0) return 0; /* unknown: the allocations decide */
    size_t es = 1;
    for (int i = 0; i < op->n_dtypes; i++) {
        selugrad_dtype dt;
        if (sg_argv_dtype(op->dtypes[i], &dt) == 0 && selugrad_dtype_size(dt) > es)
            es = selugrad_dtype_size(dt);
    }
    for (int i = 0; i < op->n_shapes; i++) {
        size_t r, sr;
        int64_t d[CLI_MAX_RANK], st[CLI_MAX_RANK];
        if (cli_parse_shape(op->shapes[i], &r, d, 0) != 0) continue;
        double n = (double)cli_shape_count(r, d), arrays = op->fwd ? 4 : 6;
        double need = n * (double)es * arrays;
        if (op->strides && cli_parse_shape(op->strides, &sr, st, 0) == 0 && sr == r)
            need += (double)run_span(r, d, st) * (double)es * (arrays / 2 + 1);
        if (need > ram)
            return cli_usage_error("run",
                                   "shape '%s' needs at least %.1f GiB of memory for its arrays "
                                   "(%.0f of %zu-byte elements%s), more than the %.1f GiB "
                                   "available",
                                   op->shapes[i], need / gib, arrays, es,
                                   op->strides ? ", and the strided storage" : "", ram / gib);
    }
    return 0;
}

/* All checks of the options before any case runs; 0, or the usage error's status. */
static int run_validate(const run_opts *op) {
    int rc = run_validate_lists(op);
    if (rc == 0) rc = run_validate_range(op);
    if (rc == 0) rc = run_validate_strides(op);
    if (rc == 0) rc = run_validate_memory(op);
    return rc;
}

/* Runs the cases under each --isa cap and on each --soc (the library's defaults for a list not
   given), then prints the summary; the cap in force before is restored. */
static int run_execute(run_opts *op) {
    const selugrad_isa cap_before = selugrad_get_max_isa();
    for (int i = 0; i < (op->n_isas ? op->n_isas : 1); i++) {
        const char *isa_name = op->n_isas ? op->isas[i] : NULL;
        sg_isa isa;
        if (isa_name && sg_isa_from_name(isa_name, &isa)) {
            if (isa != SG_ISA_ALL && !sg_isa_supported(isa))
                printf("note: isa %s is not available on this CPU; its cap runs the best level "
                       "below it\n",
                       isa_name);
            selugrad_set_max_isa(isa);
        }
        for (int s = 0; s < (op->n_socs ? op->n_socs : 1); s++) {
            const char *soc = op->n_socs ? op->socs[s] : NULL;
            if (soc && cli_exec_use_soc(soc) != 0) {
                printf("FAIL cannot set SELUGRAD_SOC=%s for the cases that follow\n", soc);
                op->fail++;
                continue;
            }
            run_all(op, isa_name, soc);
        }
    }
    selugrad_set_max_isa(cap_before);
    printf("summary: %d cases, %d passed, %d failed, %d skipped\n", op->pass + op->fail + op->skip,
           op->pass, op->fail, op->skip);
    return op->fail ? 1 : 0;
}

int cli_cmd_run(int argc, char **argv) {
    int pre = cli_begin("run", argc, argv, cli_run_help);
    if (pre >= 0) return pre;
    run_opts op;
    int rc = run_parse(argc, argv, &op);
    if (rc == 0) rc = run_validate(&op);
    return rc != 0 ? rc : run_execute(&op);
}
