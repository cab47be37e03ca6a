/* `selugrad verify` (judge a result made elsewhere) and `selugrad compute` (write the golden). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char cli_verify_help[] =
    "usage: selugrad verify [--dtype=DT] --gradOutput=G --result=O --gradInput=Y [--shape=S]\n"
    "                       [--show=N]\n"
    "       selugrad verify --op=selu [--dtype=DT] --self=X --out=Y [--shape=S] [--show=N]\n"
    "Checks gradInput Y produced elsewhere (e.g. dumped from an NPU) for the inputs gradOutput G\n"
    "and result O (the SELU forward output), aclnnSeluBackward's tensor names, bit for bit\n"
    "against the golden model (docs/contract.md, \"Per-dtype computation\") and by the\n"
    "precision standard (docs/contract.md, \"Precision standard\").\n"
    "Files: .npy (dtype from the header; bf16 is stored as '<u2', which reads as bf16) or raw\n"
    ".bin (little-endian; needs --dtype, and --shape unless 1-D). --show=N lists the first N\n"
    "mismatches (default 10, 0 to 1000). Exit status 0 when both checks pass, 1 otherwise,\n"
    "2 for bad arguments or unreadable files.\n"
    "--grad is an alias of --gradOutput and --out of --result. --result names aclnn's result\n"
    "(the SELU output), not the result under test: --out together with --result is refused.\n"
    "With --op=selu: X is aclnnSelu's self (--x is an alias) and Y its out, the result under\n"
    "test.\n";

static const char cli_compute_help[] =
    "usage: selugrad compute [--dtype=DT] --gradOutput=G --result=O -o Y [--shape=S] [--f64]\n"
    "       selugrad compute --op=selu [--dtype=DT] --self=X -o Y [--shape=S] [--f64]\n"
    "Writes the exact result (the golden model, docs/contract.md, \"Per-dtype computation\";\n"
    "with --op=selu, \"Forward per-dtype computation\") for the given inputs, as .npy, or raw\n"
    "when the name ends in .bin. --f64 writes the float64 golden instead ('<f8').\n";

/* --out is an alias of --result. A command with --grad, --out and --result reads as if --result
   were the gradInput under test, so the two together are refused rather than one winning. */
static const char cli_result_ambiguous[] =
    "--out and --result both given: --result is aclnn's result (the SELU output, as --out); "
    "give the result under test as --gradInput (e.g. --gradOutput=G --result=O --gradInput=Y)";

typedef struct cli_io_args {
    int dtype;                              /* -1: from the files */
    const char *grad, *out, *result, *dest; /* gradOutput, result (SELU output), gradInput */
    int out_alias, result_seen;
    size_t rank; /* SIZE_MAX: none given */
    int64_t dims[CLI_MAX_RANK];
    int show, f64;
} cli_io_args;

static int cli_io_parse(const char *cmd, int argc, char **argv, cli_io_args *a) {
    memset(a, 0, sizeof *a);
    a->dtype = -1;
    a->rank = (size_t)-1;
    a->show = 10;
    const char *v;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        selugrad_dtype dt;
        int64_t n;
        if (sg_argv_opt(argc, argv, &i, "--dtype", &v)) {
            if (sg_argv_dtype(v, &dt) != 0) return cli_usage_error(cmd, "unknown dtype '%s'", v);
            a->dtype = (int)dt;
        } else if (sg_argv_opt(argc, argv, &i, "--op", &v)) {
            if (strcmp(v, "selu_grad") != 0)
                return cli_usage_error(cmd, "unknown --op '%s' (selu_grad, selu)", v);
        } else if (sg_argv_opt(argc, argv, &i, "--gradOutput", &v) ||
                   sg_argv_opt(argc, argv, &i, "--grad", &v)) {
            if (a->grad)
                return cli_usage_error(cmd, "gradOutput is given twice (--gradOutput/--grad)");
            a->grad = v;
        } else if (sg_argv_opt(argc, argv, &i, "--result", &v)) {
            if (a->out_alias) return cli_usage_error(cmd, "%s", cli_result_ambiguous);
            if (a->out) return cli_usage_error(cmd, "--result is given twice");
            a->out = v;
            a->result_seen = 1;
        } else if (sg_argv_opt(argc, argv, &i, "--out", &v)) {
            if (a->result_seen) return cli_usage_error(cmd, "%s", cli_result_ambiguous);
            if (a->out) return cli_usage_error(cmd, "--out is given twice");
            a->out = v;
            a->out_alias = 1;
        } else if (sg_argv_opt(argc, argv, &i, "--gradInput", &v)) {
            if (a->result) return cli_usage_error(cmd, "--gradInput is given twice");
            a->result = v;
        } else if (sg_argv_opt(argc, argv, &i, "--shape", &v)) {
            const char *why = cli_shape_why(v, &a->rank, a->dims, 0);
            if (why) return cli_usage_error(cmd, "bad shape '%s': %s", v, why);
        } else if (sg_argv_opt(argc, argv, &i, "--show", &v)) {
            if (cli_parse_i64(v, &n) != 0 || n < 0 || n > CLI_MAX_FIRST)
                return cli_usage_error(cmd, "bad --show '%s' (0 to %d)", v, (int)CLI_MAX_FIRST);
            a->show = (int)n;
        } else if (strcmp(s, "--f64") == 0) {
            if (strcmp(cmd, "compute") != 0)
                return cli_usage_error(cmd, "--f64 is for compute (it writes the float64 golden)");
            a->f64 = 1;
        } else if (strcmp(s, "-o") == 0) {
            if (i + 1 >= argc) return cli_usage_error(cmd, "-o needs a FILE after it");
            a->dest = argv[++i];
        } else if (strncmp(s, "-o=", 3) == 0) {
            a->dest = s + 3;
        } else if (sg_argv_opt(argc, argv, &i, "--output", &v))
            a->dest = v;
        else
            return cli_usage_error(cmd, "unknown argument '%s'", s);
    }
    if (!a->grad || !a->out)
        return cli_usage_error(cmd, "--gradOutput (or --grad) and --result (or --out) are needed");
    return 0;
}

/* Loads g and o (and y when asked); all must agree in dtype and shape. Starts p for cmd, once
   g's size is known, with its steps passes over the data (the reading of each file one of them). */
static int cli_io_load(const cli_io_args *a, cli_tensor *g, cli_tensor *o, cli_tensor *y,
                       cli_progress *p, const char *cmd, int steps) {
    char err[512];
    *p = (cli_progress){.on = 0};
    /* the files, the model and (compute) the output or (--f64) its doubles, as the gradOutput
       file's size: verify 4, compute 3, with --f64 5 */
    int fit = cli_files_fit(cmd, a->grad, y ? 4 : a->f64 ? 5 : 3);
    if (fit != 0) return fit;
    int rc = cli_load(a->grad, a->dtype, a->rank, a->dims, g, err, sizeof err);
    if (rc == 0) {
        cli_progress_begin(p, cmd, g->n, steps);
        cli_progress_add(p, "reading gradOutput", g->n);
        rc = cli_load(a->out, (int)g->dtype, g->rank, g->dims, o, err, sizeof err);
        if (rc != 0) cli_tensor_free(g);
    }
    if (rc == 0) cli_progress_add(p, "reading result", g->n);
    if (rc == 0 && y) {
        rc = cli_load(a->result, (int)g->dtype, g->rank, g->dims, y, err, sizeof err);
        if (rc != 0) cli_tensor_free(g), cli_tensor_free(o);
        if (rc == 0) cli_progress_add(p, "reading gradInput", g->n);
    }
    if (rc != 0) {
        cli_progress_end(p);
        fprintf(stderr, "selugrad: %s\n", err);
        return CLI_USAGE;
    }
    int same = g->rank == o->rank && (!y || g->rank == y->rank);
    for (size_t i = 0; same && i < g->rank; i++)
        same = g->dims[i] == o->dims[i] && (!y || g->dims[i] == y->dims[i]);
    int as_given = a->rank == (size_t)-1 || a->rank == g->rank;
    for (size_t i = 0; as_given && a->rank != (size_t)-1 && i < g->rank; i++)
        as_given = a->dims[i] == g->dims[i];
    if (!same || !as_given) {
        char gs[128], os[128], ys[128] = "";
        cli_shape_str(g->rank, g->dims, gs, sizeof gs);
        cli_shape_str(o->rank, o->dims, os, sizeof os);
        if (y) cli_shape_str(y->rank, y->dims, ys, sizeof ys);
        cli_progress_end(p);
        if (!same)
            fprintf(
                stderr, "selugrad: the shapes of the files differ: %s is %s, %s is %s%s%s%s%s\n",
                a->grad, gs, a->out, os, y ? ", " : "", y ? a->result : "", y ? " is " : "", ys);
        else
            fprintf(stderr, "selugrad: --shape differs from the files' shape %s\n", gs);
        cli_tensor_free(g), cli_tensor_free(o);
        if (y) cli_tensor_free(y);
        return CLI_USAGE;
    }
    return 0;
}

static void cli_print_index(const cli_tensor *t, size_t flat) {
    char buf[256];
    size_t used = 0;
    size_t rem = flat;
    int64_t idx[CLI_MAX_RANK];
    for (size_t d = t->rank; d-- > 0;) {
        idx[d] = (int64_t)(rem % (size_t)t->dims[d]);
        rem /= (size_t)t->dims[d];
    }
    buf[0] = '\0';
    for (size_t d = 0; d < t->rank && used < sizeof buf; d++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%lld", d ? "," : "",
                                 (long long)idx[d]);
    printf("  [%zu] (%s)", flat, buf);
}

/* Elements whose bits differ between the model's result for inputs (g, o) read as dt and want;
   SIZE_MAX when out of memory. */
static size_t cli_count_other(selugrad_dtype dt, size_t n, const void *g, const void *o,
                              const void *want) {
    size_t es = selugrad_dtype_size(dt), m = 0;
    char *alt = malloc(n ? n * es : 1);
    if (!alt) return SIZE_MAX;
    cli_model(dt, n, g, o, alt);
    for (size_t i = 0; i < n; i++) m += memcmp(alt + i * es, (const char *)want + i * es, es) != 0;
    free(alt);
    return m;
}

/* The hints of python/selugrad/_verify.py: another reading of the inputs under which all the
   elements, or all but a tenth of the mismatches (when there are at least 10), match. */
static void cli_print_hints(const cli_tensor *g, const cli_tensor *o, const cli_tensor *y,
                            size_t nmis) {
    size_t n = g->n;
    int any = 0;
    struct {
        const char *what;
        selugrad_dtype dt;
        const void *g, *o, *want;
    } r[3] = {{"result and gradInput exchanged", g->dtype, g->data, y->data, o->data},
              {"gradOutput and result exchanged", g->dtype, o->data, g->data, y->data},
              {NULL, g->dtype, g->data, o->data, y->data}};
    int nr = 2;
    if (g->dtype == SELUGRAD_FLOAT16 || g->dtype == SELUGRAD_BF16) {
        int to_f16 = g->dtype == SELUGRAD_BF16;
        r[2].what = to_f16 ? "the data read as float16 (--dtype=f16)"
                           : "the data read as bfloat16 (--dtype=bf16)";
        r[2].dt = to_f16 ? SELUGRAD_FLOAT16 : SELUGRAD_BF16;
        nr = 3;
    }
    for (int k = 0; k < nr; k++) {
        size_t m = cli_count_other(r[k].dt, n, r[k].g, r[k].o, r[k].want);
        if (m == SIZE_MAX) continue;
        if (m == 0 || (m * 10 <= nmis && nmis >= 10)) {
            printf("hint: %zu of %zu elements match with %s\n", n - m, n, r[k].what);
            any = 1;
        }
    }
    if (!any && nmis == n && n > 1)
        printf("hint: every element differs: check the dtype and which file is gradOutput, "
               "result and gradInput\n");
}

double cli_max_ulp(selugrad_dtype dt, size_t n, const void *model, const void *y) {
    size_t es = selugrad_dtype_size(dt);
    double most = 0.0;
    for (size_t i = 0; i < n; i++)
        if (memcmp((const char *)model + i * es, (const char *)y + i * es, es) != 0) {
            double u = cli_ulp(dt, model, y, i);
            if (u > most) most = u;
        }
    return most;
}

void cli_print_precision(const cli_check *c, selugrad_dtype dt, size_t n, int worst_at) {
    const char *ok = c->precision_ok ? "PASS" : "FAIL";
    if (!cli_dtype_is_float(dt)) {
        printf("precision: %s, integer results unequal to the exact result: %zu\n", ok,
               c->special_bad);
        return;
    }
    if (n == 0) { /* no element, so no index to name */
        printf("precision: %s, no elements\n", ok);
        return;
    }
    printf("precision: %s, MERE %.6g (%s %.6g), MARE %.6g (%s %.6g)", ok, c->mere,
           c->mere < c->threshold ? "<" : ">=", c->threshold, c->mare,
           c->mare < 10 * c->threshold ? "<" : ">=", 10 * c->threshold);
    if (worst_at) printf(" at [%zu]", c->worst);
    printf(", inf/NaN mismatches %zu\n", c->special_bad);
}

void cli_print_verdict(const cli_check *c, size_t n, const char *ulps, const char *golden,
                       const char *golden_bits) {
    if (c->bit_ok && c->precision_ok)
        printf("verdict: PASS: bit-identical to %s\n", golden);
    else if (c->mismatches)
        printf("verdict: FAIL: %zu of %zu elements are not %s (largest distance %s); %s\n",
               c->mismatches, n, golden_bits, ulps,
               c->precision_ok ? "the precision standard passes"
                               : "the precision standard fails too");
    else
        printf("verdict: FAIL: bit-identical to %s; but the precision standard fails\n", golden);
}

int cli_cmd_verify(int argc, char **argv) {
    int pre = cli_begin("verify", argc, argv, cli_verify_help);
    if (pre >= 0) return pre;
    if (cli_fwd_wanted(argc, argv)) return cli_fwd_io("verify", argc, argv);
    cli_io_args a;
    int rc = cli_io_parse("verify", argc, argv, &a);
    if (rc != 0) return rc;
    if (!a.result)
        return cli_usage_error("verify", "--gradInput (the result under test) is needed");
    cli_tensor g, o, y;
    cli_progress p; /* three files read, the model, the check */
    if ((rc = cli_io_load(&a, &g, &o, &y, &p, "verify", 5)) != 0) return rc;
    cli_check c;
    size_t es = selugrad_dtype_size(g.dtype);
    void *model = malloc(g.n ? g.n * es : 1);
    if (!model || cli_check_progress(g.dtype, g.n, g.data, o.data, y.data, model, &p, &c) != 0) {
        cli_progress_end(&p);
        fprintf(stderr, "selugrad verify: out of memory\n");
        free(model);
        cli_tensor_free(&g), cli_tensor_free(&o), cli_tensor_free(&y);
        return 1;
    }
    cli_progress_end(&p);
    char shape[256], ulps[64];
    cli_shape_str(g.rank, g.dims, shape, sizeof shape);
    cli_ulp_str(cli_max_ulp(g.dtype, g.n, model, y.data), ulps, sizeof ulps);
    printf("selugrad verify: %s, shape %s, %zu element%s\n", selugrad_dtype_name(g.dtype), shape,
           g.n, g.n == 1 ? "" : "s");
    printf("bit-exact: %s, %zu mismatching element%s", c.bit_ok ? "PASS" : "FAIL", c.mismatches,
           c.mismatches == 1 ? "" : "s");
    if (c.mismatches) printf(", largest distance %s", ulps);
    printf("\n");
    size_t shown = 0;
    int is_float = cli_dtype_is_float(g.dtype);
    for (size_t k = 0; k < c.nfirst && k < (size_t)a.show; k++, shown++) {
        size_t i = c.first[k];
        char ms[64], ys[64], u[64];
        cli_format_elem(g.dtype, model, i, ms, sizeof ms);
        cli_format_elem(g.dtype, y.data, i, ys, sizeof ys);
        cli_ulp_str(cli_ulp(g.dtype, model, y.data, i), u, sizeof u);
        cli_print_index(&g, i);
        if (is_float)
            printf(" gradOutput %.9g result %.9g", cli_get_shown(g.dtype, g.data, i),
                   cli_get_shown(g.dtype, o.data, i));
        else
            printf(" gradOutput %.0f result %.0f", cli_get(g.dtype, g.data, i),
                   cli_get(g.dtype, o.data, i));
        printf(" expected %s got %s, %s\n", ms, ys, u);
    }
    if (c.mismatches > shown) printf("  ... %zu more\n", c.mismatches - shown);
    cli_print_precision(&c, g.dtype, g.n, 1);
    if (c.mismatches) cli_print_hints(&g, &o, &y, c.mismatches);
    cli_print_verdict(&c, g.n, ulps, "the NPU kernel's result", "the NPU kernel's bits");
    free(model);
    cli_tensor_free(&g), cli_tensor_free(&o), cli_tensor_free(&y);
    return c.bit_ok && c.precision_ok ? 0 : 1;
}

int cli_cmd_compute(int argc, char **argv) {
    int pre = cli_begin("compute", argc, argv, cli_compute_help);
    if (pre >= 0) return pre;
    if (cli_fwd_wanted(argc, argv)) return cli_fwd_io("compute", argc, argv);
    cli_io_args a;
    int rc = cli_io_parse("compute", argc, argv, &a);
    if (rc != 0) return rc;
    if (a.result)
        return cli_usage_error("compute",
                               "--gradInput is what compute writes: name it with -o FILE");
    if (!a.dest) return cli_usage_error("compute", "-o FILE is needed");
    if (cli_same_file(a.dest, a.grad) || cli_same_file(a.dest, a.out))
        return cli_usage_error("compute",
                               "-o %s is the %s file (expected another name: the result would "
                               "replace an input)",
                               a.dest, cli_same_file(a.dest, a.grad) ? "gradOutput" : "result");
    cli_tensor g, o, y;
    cli_progress p; /* two files read, the model (and the float64 golden), the file written */
    if ((rc = cli_io_load(&a, &g, &o, NULL, &p, "compute", a.f64 ? 5 : 4)) != 0) return rc;
    double *f64 = NULL;
    rc = cli_tensor_alloc(&y, g.dtype, g.rank, g.dims);
    if (rc == 0 && a.f64) {
        f64 = malloc(g.n ? g.n * sizeof *f64 : 1);
        if (!f64) rc = -1;
        for (size_t i = 0; f64 && i < g.n; i++) {
            f64[i] = cli_golden(g.dtype, g.data, o.data, i);
            cli_progress_step(&p, "float64 golden", i, g.n);
        }
    }
    char err[512];
    int code = 0;
    if (rc == 0) {
        cli_model_progress(g.dtype, g.n, g.data, o.data, y.data, &p);
        rc = cli_save(a.dest, &y, f64, err, sizeof err);
        if (rc == 0) cli_progress_add(&p, "writing", g.n);
        cli_progress_end(&p);
        if (rc != 0) {
            fprintf(stderr, "selugrad compute: %s\n", err);
            /* an output that cannot be written, like an input that cannot be read */
            code = CLI_USAGE;
        } else {
            char shape[256];
            cli_shape_str(g.rank, g.dims, shape, sizeof shape);
            printf("selugrad compute: wrote %s: gradInput, %s, shape %s, %zu element%s%s\n", a.dest,
                   selugrad_dtype_name(g.dtype), shape, g.n, g.n == 1 ? "" : "s",
                   f64 ? ", as float64 ('<f8')" : "");
        }
    } else {
        cli_progress_end(&p);
        fprintf(stderr, "selugrad compute: out of memory\n");
        code = 1;
    }
    free(f64);
    cli_tensor_free(&g), cli_tensor_free(&o), cli_tensor_free(&y);
    return code;
}
