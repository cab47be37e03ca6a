/*
 * The SELU forward in the selugrad command: running one case through aclnnSelu (or
 * aclnnInplaceSelu) in CANN's canonical flow, and judging it (docs/cli.md, "The forward"):
 * bit for bit against the forward's golden model (tests/model/selu_golden.c) with the library's
 * exponential, the one algorithm every path uses; and by the precision standard against the same
 * computation with the correctly rounded exponential (float64 exp rounded to fp32), which is
 * what the contract's steps give with an exact exp (docs/contract.md, "Forward per-dtype
 * computation"). Integers must equal the golden.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_selu.h"
#include "cli.h"
#include "kernels/ref/selu_exp.h"
#include "model/selu_golden.h"

static uint32_t cli_lib_exp(uint32_t x) {
    return sg_f32_bits(sg_selu_expf(sg_bits_f32(x)));
}

/* gs_selu_array in chunks, each added to p's pass stage (p may be NULL); 0 for a dtype the
   forward does not have. */
static int cli_fwd_model(selugrad_dtype dt, size_t n, const void *x, void *y, gs_exp_fn ex,
                         cli_progress *p, const char *stage) {
    size_t es = selugrad_dtype_size(dt);
    if (n == 0) return gs_selu_array((int)dt, 0, x, y, ex);
    for (size_t i = 0; i < n; i += CLI_PROGRESS_CHUNK) {
        size_t k = n - i < CLI_PROGRESS_CHUNK ? n - i : CLI_PROGRESS_CHUNK;
        if (!gs_selu_array((int)dt, k, (const char *)x + i * es, (char *)y + i * es, ex)) return 0;
        cli_progress_add(p, stage, k);
    }
    return 1;
}

int cli_fwd_check(selugrad_dtype dt, size_t n, const void *x, const void *y, cli_check *c) {
    return cli_fwd_check_progress(dt, n, x, y, NULL, NULL, c);
}

int cli_fwd_check_progress(selugrad_dtype dt, size_t n, const void *x, const void *y, void *keep,
                           cli_progress *p, cli_check *c) {
    memset(c, 0, sizeof *c);
    c->n = n;
    c->threshold = dt == SELUGRAD_FLOAT16 ? 0x1p-10
                   : dt == SELUGRAD_BF16  ? 0x1p-7
                   : dt == SELUGRAD_FLOAT ? 0x1p-13
                                          : 0.0;
    size_t es = selugrad_dtype_size(dt);
    unsigned char *model = keep ? keep : malloc(n ? n * es : 1), *exact = malloc(n ? n * es : 1);
    if (!model || !exact || !cli_fwd_model(dt, n, x, model, cli_lib_exp, p, "model") ||
        !cli_fwd_model(dt, n, x, exact, gs_exp_cr, p, "exact golden")) {
        if (!keep) free(model);
        free(exact);
        return -1;
    }
    double sum = 0.0, worst = -1.0;
    for (size_t i = 0; i < n; i++) {
        cli_progress_step(p, "checking", i, n);
        if (memcmp(model + i * es, (const char *)y + i * es, es) != 0) {
            if (c->nfirst < CLI_MAX_FIRST) c->first[c->nfirst++] = i;
            c->mismatches++;
        }
        double a = cli_get(dt, y, i), g = cli_get(dt, exact, i);
        double err;
        if (g != g || isinf(g))
            err = (a == g || (a != a && g != g)) ? 0.0 : -1.0;
        else if (a != a || isinf(a))
            err = -1.0;
        else
            err = fabs(a - g) / (fabs(g) + 1e-7);
        if (!cli_dtype_is_float(dt) && a != g) err = -1.0;
        if (err < 0) {
            c->special_bad++;
            continue;
        }
        sum += err;
        if (err > worst) worst = err, c->worst = i;
    }
    c->mere = n ? sum / (double)n : 0.0;
    c->mare = worst > 0 ? worst : 0.0;
    c->bit_ok = c->mismatches == 0;
    c->precision_ok =
        c->special_bad == 0 &&
        (c->threshold == 0.0 || (c->mere < c->threshold && c->mare < 10 * c->threshold));
    if (!keep) free(model);
    free(exact);
    return 0;
}

int cli_fwd_exec(selugrad_dtype dt, size_t rank, const int64_t *dims, const int64_t *strides,
                 const void *x, void *y, int inplace, char *err, size_t errlen) {
    int rc = cli_acl_ready(err, errlen);
    if (rc != 0) return rc;
    size_t n = cli_shape_count(rank, dims), es = selugrad_dtype_size(dt);
    int64_t st[CLI_MAX_RANK];
    for (size_t d = rank; d-- > 0;) /* row-major strides when none given */
        st[d] = strides ? strides[d] : (d + 1 == rank ? 1 : st[d + 1] * dims[d + 1]);
    if (strides && n) { /* the storage the view reaches: its last element's offset + 1 */
        n = 1;
        for (size_t d = 0; d < rank; d++) n += (size_t)(dims[d] - 1) * (size_t)strides[d];
    }
    size_t bytes = (n ? n : 1) * es;
    int64_t storage = (int64_t)(n ? n : 1);
    void *dx = NULL, *dy = NULL, *ws = NULL;
    aclTensor *tx = NULL, *ty = NULL;
    aclOpExecutor *ex = NULL;
    uint64_t wsz = 0;
    const char *step = "aclrtMalloc";
    aclDataType adt = (aclDataType)(int)dt;
    rc = aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!rc && !inplace) rc = aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!rc && n) step = "aclrtMemcpy", rc = aclrtMemcpy(dx, bytes, x, n * es, 1);
    if (!rc) {
        step = "aclCreateTensor";
        tx = aclCreateTensor(dims, rank, adt, st, 0, ACL_FORMAT_ND, &storage, 1, dx);
        ty = inplace ? NULL
                     : aclCreateTensor(dims, rank, adt, st, 0, ACL_FORMAT_ND, &storage, 1, dy);
        rc = tx && (inplace || ty) ? 0 : -1;
    }
    if (!rc && inplace)
        step = "aclnnInplaceSeluGetWorkspaceSize",
        rc = aclnnInplaceSeluGetWorkspaceSize(tx, &wsz, &ex);
    else if (!rc)
        step = "aclnnSeluGetWorkspaceSize", rc = aclnnSeluGetWorkspaceSize(tx, ty, &wsz, &ex);
    if (!rc && wsz > 0) step = "aclrtMalloc(workspace)", rc = aclrtMalloc(&ws, wsz, 0);
    if (!rc && inplace)
        step = "aclnnInplaceSelu", rc = aclnnInplaceSelu(ws, wsz, ex, cli_acl_stream());
    else if (!rc)
        step = "aclnnSelu", rc = aclnnSelu(ws, wsz, ex, cli_acl_stream());
    if (!rc) step = "aclrtSynchronizeStream", rc = aclrtSynchronizeStream(cli_acl_stream());
    if (!rc && n) step = "aclrtMemcpy", rc = aclrtMemcpy(y, bytes, inplace ? dx : dy, n * es, 2);
    if (rc) snprintf(err, errlen, "%s returned %d: %s", step, rc, aclGetRecentErrMsg());
    if (tx) aclDestroyTensor(tx);
    if (ty) aclDestroyTensor(ty);
    if (ws) aclrtFree(ws);
    if (dx) aclrtFree(dx);
    if (dy) aclrtFree(dy);
    return rc;
}

/* ---- verify and compute with --op=selu ---- */

int cli_fwd_wanted(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--op=selu") == 0) return 1;
        if (strcmp(argv[i], "--op") == 0 && i + 1 < argc && strcmp(argv[i + 1], "selu") == 0)
            return 1;
    }
    return 0;
}

int cli_fwd_io(const char *cmd, int argc, char **argv) {
    int dtype = -1, show = 10, op_seen = 0, f64 = 0;
    const char *x_path = NULL, *result = NULL, *dest = NULL, *v;
    size_t rank = (size_t)-1;
    int64_t dims[CLI_MAX_RANK];
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        selugrad_dtype dt;
        int64_t n;
        if (sg_argv_opt(argc, argv, &i, "--op", &v)) {
            /* one of them is selu, or we would not be here; a second --op (even a second selu)
               is refused rather than letting one of the two win unseen */
            if (op_seen++) return cli_usage_error(cmd, "--op is given twice");
        } else if (sg_argv_opt(argc, argv, &i, "--dtype", &v)) {
            if (sg_argv_dtype(v, &dt) != 0) return cli_usage_error(cmd, "unknown dtype '%s'", v);
            dtype = (int)dt;
        } else if (sg_argv_opt(argc, argv, &i, "--self", &v) ||
                   sg_argv_opt(argc, argv, &i, "--x", &v)) {
            if (x_path) return cli_usage_error(cmd, "self is given twice (--self/--x)");
            x_path = v;
        } else if (sg_argv_opt(argc, argv, &i, "--out", &v)) {
            if (result) return cli_usage_error(cmd, "--out is given twice");
            result = v;
        } else if (sg_argv_opt(argc, argv, &i, "--shape", &v)) {
            const char *why = cli_shape_why(v, &rank, dims, 0);
            if (why) return cli_usage_error(cmd, "bad shape '%s': %s", v, why);
        } else if (sg_argv_opt(argc, argv, &i, "--show", &v)) {
            if (cli_parse_i64(v, &n) != 0 || n < 0 || n > CLI_MAX_FIRST)
                return cli_usage_error(cmd, "bad --show '%s' (0 to %d)", v, (int)CLI_MAX_FIRST);
            show = (int)n;
        } else if (strcmp(s, "--f64") == 0) {
            if (strcmp(cmd, "compute") != 0)
                return cli_usage_error(cmd, "--f64 is for compute (it writes the float64 golden)");
            f64 = 1;
        } else if (strcmp(s, "-o") == 0) {
            if (i + 1 >= argc) return cli_usage_error(cmd, "-o needs a FILE after it");
            dest = argv[++i];
        } else if (strncmp(s, "-o=", 3) == 0) {
            dest = s + 3;
        } else if (sg_argv_opt(argc, argv, &i, "--output", &v)) {
            dest = v;
        } else {
            return cli_usage_error(cmd, "unknown argument '%s' (with --op=selu)", s);
        }
    }
    int verify = strcmp(cmd, "verify") == 0;
    if (!x_path) return cli_usage_error(cmd, "--self (or --x) is needed with --op=selu");
    if (verify && !result) return cli_usage_error(cmd, "--out (the result under test) is needed");
    if (!verify && !dest) return cli_usage_error(cmd, "-o FILE is needed");
    if (!verify && cli_same_file(dest, x_path))
        return cli_usage_error(cmd,
                               "-o %s is the self file (expected another name: the result would "
                               "replace the input)",
                               dest);
    cli_tensor x, y;
    char err[512];
    /* self, the output (verify: the result read, the model, the exact golden), as self's size */
    int fit = cli_files_fit(cmd, x_path, verify ? 4 : f64 ? 4 : 2);
    if (fit != 0) return fit;
    if (cli_load(x_path, dtype, rank, dims, &x, err, sizeof err) != 0) {
        fprintf(stderr, "selugrad: %s\n", err);
        return CLI_USAGE;
    }
    if (x.dtype == SELUGRAD_UINT8) {
        cli_tensor_free(&x);
        return cli_usage_error(cmd, "the forward has no uint8");
    }
    /* verify: the two files read, the model, the exact golden, the check; compute: x read, the
       model (or with --f64 the float64 golden), the file written */
    cli_progress p;
    cli_progress_begin(&p, cmd, x.n, verify ? 5 : 3);
    cli_progress_add(&p, "reading self", x.n);
    if (!verify) {
        int code = 0;
        /* --f64: the float64 golden (selu_golden.h, gs_selu_f64) in place of the model's bits */
        double *g64 = f64 ? malloc(x.n ? x.n * sizeof *g64 : 1) : NULL;
        for (size_t i = 0; g64 && i < x.n; i++) {
            g64[i] = gs_selu_f64((int)x.dtype, x.data, i);
            cli_progress_step(&p, "float64 golden", i, x.n);
        }
        int ok = cli_tensor_alloc(&y, x.dtype, x.rank, x.dims) == 0 &&
                 (f64 ? g64 != NULL
                      : cli_fwd_model(x.dtype, x.n, x.data, y.data, cli_lib_exp, &p, "model"));
        int saved = ok && cli_save(dest, &y, g64, err, sizeof err) == 0;
        if (saved) cli_progress_add(&p, "writing", x.n);
        cli_progress_end(&p);
        if (!ok) {
            fprintf(stderr, "selugrad compute: out of memory\n");
            code = 1;
        } else if (!saved) {
            fprintf(stderr, "selugrad compute: %s\n", err);
            code = CLI_USAGE;
        } else {
            char shape[256];
            cli_shape_str(y.rank, y.dims, shape, sizeof shape);
            printf("selugrad compute: wrote %s: out, %s, shape %s, %zu element%s%s\n", dest,
                   selugrad_dtype_name(y.dtype), shape, y.n, y.n == 1 ? "" : "s",
                   f64 ? ", as float64 ('<f8')" : "");
        }
        free(g64);
        cli_tensor_free(&x), cli_tensor_free(&y);
        return code;
    }
    if (cli_load(result, (int)x.dtype, x.rank, x.dims, &y, err, sizeof err) != 0) {
        cli_progress_end(&p);
        fprintf(stderr, "selugrad: %s\n", err);
        cli_tensor_free(&x);
        return CLI_USAGE;
    }
    cli_progress_add(&p, "reading out", x.n);
    int same = y.rank == x.rank;
    for (size_t i = 0; same && i < x.rank; i++) same = x.dims[i] == y.dims[i];
    if (!same) {
        cli_progress_end(&p);
        fprintf(stderr, "selugrad: the shapes of %s and %s differ\n", x_path, result);
        cli_tensor_free(&x), cli_tensor_free(&y);
        return CLI_USAGE;
    }
    cli_check c;
    size_t es = selugrad_dtype_size(x.dtype);
    unsigned char *model = malloc(x.n ? x.n * es : 1);
    int checked = model && cli_fwd_check_progress(x.dtype, x.n, x.data, y.data, model, &p, &c) == 0;
    cli_progress_end(&p);
    if (!checked) {
        fprintf(stderr, "selugrad verify: out of memory\n");
        free(model);
        cli_tensor_free(&x), cli_tensor_free(&y);
        return 1;
    }
    /* the lines of the SeluGrad verify: header, bit-exact with the largest distance, the first
       mismatches with theirs, the count of the rest, precision, verdict */
    char shape[256], ulps[64];
    cli_shape_str(x.rank, x.dims, shape, sizeof shape);
    cli_ulp_str(cli_max_ulp(x.dtype, x.n, model, y.data), ulps, sizeof ulps);
    printf("selugrad verify: op selu, %s, shape %s, %zu element%s\n", selugrad_dtype_name(x.dtype),
           shape, x.n, x.n == 1 ? "" : "s");
    printf("bit-exact: %s, %zu mismatching element%s", c.bit_ok ? "PASS" : "FAIL", c.mismatches,
           c.mismatches == 1 ? "" : "s");
    if (c.mismatches) printf(", largest distance %s", ulps);
    printf("\n");
    size_t shown = 0;
    for (size_t k = 0; k < c.nfirst && k < (size_t)show; k++, shown++) {
        size_t i = c.first[k];
        char xs[64], ms[64], ys[64], u[64];
        cli_format_elem(x.dtype, x.data, i, xs, sizeof xs);
        cli_format_elem(x.dtype, model, i, ms, sizeof ms);
        cli_format_elem(x.dtype, y.data, i, ys, sizeof ys);
        cli_ulp_str(cli_ulp(x.dtype, model, y.data, i), u, sizeof u);
        printf("  [%zu] x %s expected %s got %s, %s\n", i, xs, ms, ys, u);
    }
    if (c.mismatches > shown) printf("  ... %zu more\n", c.mismatches - shown);
    cli_print_precision(&c, x.dtype, x.n, 0);
    cli_print_verdict(&c, x.n, ulps, "the forward's golden", "the forward golden's bits");
    free(model);
    cli_tensor_free(&x), cli_tensor_free(&y);
    return c.bit_ok && c.precision_ok ? 0 : 1;
}
