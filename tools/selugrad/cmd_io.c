/* `selugrad verify` (judge a result made elsewhere) and `selugrad compute` (write the golden). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char cli_verify_help[] =
    "usage: selugrad verify [--dtype=DT] --gradOutput=G --result=O --gradInput=Y [--shape=S]\n"
    "                       [--show=N]\n"
    "Checks gradInput Y produced elsewhere (e.g. dumped from an NPU) for the inputs gradOutput G\n"
    "and result O (the SELU forward output), aclnnSeluBackward's tensor names, bit for bit\n"
    "against the\n"
    "golden model (docs/contract.md, \"Per-dtype computation\") and by the precision standard\n"
    "(docs/contract.md, \"Precision standard\").\n"
    "Files: .npy (dtype from the header; bf16 is stored as '<u2', which reads as bf16) or raw "
    ".bin\n"
    "(little-endian; needs --dtype, and --shape unless 1-D). --show=N lists the first N\n"
    "mismatches (default 10, 0 to 1000). Exit status 0 when both checks pass, 1 otherwise,\n"
    "2 for bad arguments or unreadable files.\n"
    "--grad is an alias of --gradOutput and --out of --result. --result names aclnn's result\n"
    "(the SELU output), not the result under test: --out together with --result is refused.\n";

static const char cli_compute_help[] =
    "usage: selugrad compute [--dtype=DT] --gradOutput=G --result=O -o Y [--shape=S] [--f64]\n"
    "Writes the exact result (the golden model, docs/contract.md, \"Per-dtype computation\")\n"
    "for the given inputs, as .npy, or raw when the name ends in .bin. --f64 writes the float64\n"
    "golden instead ('<f8').\n";

/* --out is the old name of --result; the old --result named the gradInput under test. */
static const char cli_result_ambiguous[] =
    "--out and --result both given: --result now means aclnn's result (the SELU output, "
    "the old --out); give the result under test as --gradInput (e.g. --gradOutput=G --result=O "
    "--gradInput=Y)";

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
        } else if (strcmp(s, "--f64") == 0)
            a->f64 = 1;
        else if (strcmp(s, "-o") == 0) {
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

/* Loads g and o (and y when asked); all must agree in dtype and shape. */
static int cli_io_load(const cli_io_args *a, cli_tensor *g, cli_tensor *o, cli_tensor *y) {
    char err[512];
    int rc = cli_load(a->grad, a->dtype, a->rank, a->dims, g, err, sizeof err);
    if (rc == 0) {
        rc = cli_load(a->out, (int)g->dtype, g->rank, g->dims, o, err, sizeof err);
        if (rc != 0) cli_tensor_free(g);
    }
    if (rc == 0 && y) {
        rc = cli_load(a->result, (int)g->dtype, g->rank, g->dims, y, err, sizeof err);
        if (rc != 0) cli_tensor_free(g), cli_tensor_free(o);
    }
    if (rc != 0) {
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

int cli_cmd_verify(int argc, char **argv) {
    int pre = cli_begin("verify", argc, argv, cli_verify_help);
    if (pre >= 0) return pre;
    cli_io_args a;
    int rc = cli_io_parse("verify", argc, argv, &a);
    if (rc != 0) return rc;
    if (!a.result)
        return cli_usage_error("verify", "--gradInput (the result under test) is needed");
    cli_tensor g, o, y;
    if ((rc = cli_io_load(&a, &g, &o, &y)) != 0) return rc;
    cli_check c;
    size_t es = selugrad_dtype_size(g.dtype);
    void *model = malloc(g.n ? g.n * es : 1);
    if (!model || cli_check_run(g.dtype, g.n, g.data, o.data, y.data, &c) != 0) {
        fprintf(stderr, "selugrad verify: out of memory\n");
        return 1;
    }
    cli_model(g.dtype, g.n, g.data, o.data, model);
    printf("dtype %s, %zu element%s\n", selugrad_dtype_name(g.dtype), g.n, g.n == 1 ? "" : "s");
    printf("bit-exact: %s, %zu mismatching element%s\n", c.bit_ok ? "PASS" : "FAIL", c.mismatches,
           c.mismatches == 1 ? "" : "s");
    for (size_t k = 0; k < c.nfirst && k < (size_t)a.show; k++) {
        size_t i = c.first[k];
        char gs[64], os[64], ms[64], ys[64];
        cli_format_elem(g.dtype, g.data, i, gs, sizeof gs);
        cli_format_elem(g.dtype, o.data, i, os, sizeof os);
        cli_format_elem(g.dtype, model, i, ms, sizeof ms);
        cli_format_elem(g.dtype, y.data, i, ys, sizeof ys);
        cli_print_index(&g, i);
        printf(" gradOutput %s result %s expected %s got %s\n", gs, os, ms, ys);
    }
    if (cli_dtype_is_float(g.dtype) && g.n == 0) /* no element, so no index to name */
        printf("precision: %s, no elements\n", c.precision_ok ? "PASS" : "FAIL");
    else if (cli_dtype_is_float(g.dtype))
        printf("precision: %s, MERE %.6g (%s %.6g), MARE %.6g (%s %.6g) at [%zu], inf/NaN "
               "mismatches %zu\n",
               c.precision_ok ? "PASS" : "FAIL", c.mere,
               c.mere < c.threshold ? "<" : ">=", c.threshold, c.mare,
               c.mare < 10 * c.threshold ? "<" : ">=", 10 * c.threshold, c.worst, c.special_bad);
    else
        printf("precision: %s, integer results unequal to the exact result: %zu\n",
               c.precision_ok ? "PASS" : "FAIL", c.special_bad);
    free(model);
    cli_tensor_free(&g), cli_tensor_free(&o), cli_tensor_free(&y);
    return c.bit_ok && c.precision_ok ? 0 : 1;
}

int cli_cmd_compute(int argc, char **argv) {
    int pre = cli_begin("compute", argc, argv, cli_compute_help);
    if (pre >= 0) return pre;
    cli_io_args a;
    int rc = cli_io_parse("compute", argc, argv, &a);
    if (rc != 0) return rc;
    if (a.result)
        return cli_usage_error("compute",
                               "--gradInput is what compute writes: name it with -o FILE");
    if (!a.dest) return cli_usage_error("compute", "-o FILE is needed");
    cli_tensor g, o, y;
    if ((rc = cli_io_load(&a, &g, &o, NULL)) != 0) return rc;
    double *f64 = NULL;
    rc = cli_tensor_alloc(&y, g.dtype, g.rank, g.dims);
    if (rc == 0 && a.f64) {
        f64 = malloc(g.n ? g.n * sizeof *f64 : 1);
        if (!f64) rc = -1;
        for (size_t i = 0; f64 && i < g.n; i++) f64[i] = cli_golden(g.dtype, g.data, o.data, i);
    }
    char err[512];
    int code = 0;
    if (rc == 0) {
        cli_model(g.dtype, g.n, g.data, o.data, y.data);
        if (cli_save(a.dest, &y, f64, err, sizeof err) != 0) {
            fprintf(stderr, "selugrad compute: %s\n", err);
            /* an output that cannot be written, like an input that cannot be read */
            code = CLI_USAGE;
        }
    } else {
        fprintf(stderr, "selugrad compute: out of memory\n");
        code = 1;
    }
    free(f64);
    cli_tensor_free(&g), cli_tensor_free(&o), cli_tensor_free(&y);
    return code;
}
