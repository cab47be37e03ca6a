/*
 * `selugrad st FILE.json`: system-test case files in the ATK format of ops-nn. A file is a JSON
 * array of cases {id, aclnn_name, inputs: [{name, dtype, shape, range_values, outlier_values}]}
 * for gradOutput and result (docs/st-format.md). Each case draws its inputs with a seed derived
 * from --seed and its id, runs, and is judged by bit-exactness and the precision standard.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"

static const char cli_st_help[] =
    "usage: selugrad st FILE.json [FILE.json...] [--ids=ID,...] [--report=out.json] [--seed=N]\n"
    "Runs system-test case files in ops-nn's ATK format (docs/st-format.md) and judges each\n"
    "case bit for bit and by the precision standard. A progress bar on a terminal, plain\n"
    "lines otherwise; one line per failing case; a summary by dtype; exit status 1 when any\n"
    "case fails (a malformed case is a failing case: it says why), 2 when a file cannot be\n"
    "read, is not a JSON array of cases, or an argument is bad.\n";

enum { ST_MAX_OUTLIERS = 64, ST_DTYPES = 6 };

typedef struct st_input {
    selugrad_dtype dtype;
    size_t rank;
    int64_t dims[CLI_MAX_RANK];
    double lo, hi;
    double outliers[ST_MAX_OUTLIERS];
    size_t n_outliers;
} st_input;

typedef struct st_tally {
    int cases[ST_DTYPES], passed[ST_DTYPES];
    int malformed; /* cases that name no valid dtype (they fail) */
} st_tally;

static int st_dtype_slot(selugrad_dtype dt) {
    switch (dt) {
    case SELUGRAD_FLOAT:
        return 0;
    case SELUGRAD_FLOAT16:
        return 1;
    case SELUGRAD_BF16:
        return 2;
    case SELUGRAD_INT8:
        return 3;
    case SELUGRAD_UINT8:
        return 4;
    default:
        return 5;
    }
}

/* A number, or one of the strings "inf", "-inf", "nan", "-0" that JSON cannot spell. */
static int st_number(const cJSON *j, double *v) {
    if (cJSON_IsNumber(j)) return *v = j->valuedouble, 0;
    if (!cJSON_IsString(j)) return -1;
    const char *s = j->valuestring;
    if (strcmp(s, "inf") == 0 || strcmp(s, "+inf") == 0)
        *v = INFINITY;
    else if (strcmp(s, "-inf") == 0)
        *v = -INFINITY;
    else if (strcmp(s, "nan") == 0 || strcmp(s, "-nan") == 0)
        *v = NAN;
    else if (strcmp(s, "-0") == 0)
        *v = -0.0;
    else
        return cli_parse_double(s, v);
    return 0;
}

static int st_parse_input(const cJSON *in, st_input *p, char *err, size_t len) {
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(in, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(in, "shape");
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(in, "range_values");
    const cJSON *outl = cJSON_GetObjectItemCaseSensitive(in, "outlier_values");
    memset(p, 0, sizeof *p);
    if (!cJSON_IsString(dt) || sg_argv_dtype(dt->valuestring, &p->dtype) != 0)
        return snprintf(err, len, "missing or unknown dtype"), -1;
    if (!cJSON_IsArray(shape)) return snprintf(err, len, "missing shape (a list of dims)"), -1;
    if (cJSON_GetArraySize(shape) > CLI_MAX_RANK)
        return snprintf(err, len, "shape has more than %d dims", CLI_MAX_RANK), -1;
    const cJSON *d;
    cJSON_ArrayForEach(d, shape) {
        if (!cJSON_IsNumber(d) || d->valuedouble < 0 || d->valuedouble > 1e9 ||
            d->valuedouble != (double)(int64_t)d->valuedouble)
            return snprintf(err, len, "bad dim in shape (whole numbers 0 to 1e9)"), -1;
        p->dims[p->rank++] = (int64_t)d->valuedouble;
    }
    if (cli_shape_count(p->rank, p->dims) > (size_t)1 << 26)
        return snprintf(err, len, "shape too large (more than 2^26 elements)"), -1;
    /* [lo, hi], or [[lo, hi], ...] of which the first range is used */
    const cJSON *r = cJSON_IsArray(range) ? range->child : NULL;
    if (cJSON_IsArray(r)) range = r;
    if (!cJSON_IsArray(range) || cJSON_GetArraySize(range) != 2 ||
        st_number(cJSON_GetArrayItem(range, 0), &p->lo) != 0 ||
        st_number(cJSON_GetArrayItem(range, 1), &p->hi) != 0 || !(p->lo <= p->hi))
        return snprintf(err, len, "range_values must be [lo, hi] with lo <= hi"), -1;
    if (outl && !cJSON_IsNull(outl)) {
        if (!cJSON_IsArray(outl)) return snprintf(err, len, "outlier_values must be a list"), -1;
        cJSON_ArrayForEach(d, outl) {
            if (p->n_outliers == ST_MAX_OUTLIERS || st_number(d, &p->outliers[p->n_outliers]) != 0)
                return snprintf(err, len, "bad outlier value"), -1;
            p->n_outliers++;
        }
    }
    return 0;
}

/* The two inputs by name (gradOutput, result), else the first two in order. */
static int st_parse_case(const cJSON *c, st_input *g, st_input *o, char *err, size_t len) {
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(c, "inputs");
    if (!cJSON_IsArray(inputs) || cJSON_GetArraySize(inputs) < 2)
        return snprintf(err, len, "inputs must list gradOutput and result"), -1;
    const cJSON *gi = NULL, *oi = NULL, *in;
    cJSON_ArrayForEach(in, inputs) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(in, "name");
        if (cJSON_IsString(nm) && strcmp(nm->valuestring, "gradOutput") == 0) gi = in;
        if (cJSON_IsString(nm) && strcmp(nm->valuestring, "result") == 0) oi = in;
    }
    if (!gi || !oi) gi = cJSON_GetArrayItem(inputs, 0), oi = cJSON_GetArrayItem(inputs, 1);
    char e2[200];
    if (st_parse_input(gi, g, e2, sizeof e2) != 0)
        return snprintf(err, len, "gradOutput: %s", e2), -1;
    if (st_parse_input(oi, o, e2, sizeof e2) != 0) return snprintf(err, len, "result: %s", e2), -1;
    return 0;
}

static uint64_t st_seed(const char *id, int64_t seed) {
    uint64_t h = 0xCBF29CE484222325u ^ (uint64_t)seed;
    for (; *id; id++) h = (h ^ (unsigned char)*id) * 0x100000001B3u;
    return h;
}

/* Runs one parsed case; returns 1 when it passes. Fills a report object. */
static int st_run_case(const char *id, const st_input *gi, const st_input *oi, int64_t seed,
                       cJSON *rep, char *msg, size_t len) {
    int same = gi->dtype == oi->dtype && gi->rank == oi->rank;
    for (size_t i = 0; same && i < gi->rank; i++) same = gi->dims[i] == oi->dims[i];
    if (!same) return snprintf(msg, len, "gradOutput and result differ in dtype or shape"), 0;
    cli_tensor g, o, y;
    if (cli_tensor_alloc(&g, gi->dtype, gi->rank, gi->dims) ||
        cli_tensor_alloc(&o, gi->dtype, gi->rank, gi->dims) ||
        cli_tensor_alloc(&y, gi->dtype, gi->rank, gi->dims))
        return snprintf(msg, len, "out of memory"), 0;
    cli_rng rng = {st_seed(id, seed)};
    cli_fill(&g, &rng, gi->lo, gi->hi, gi->outliers, gi->n_outliers);
    cli_fill(&o, &rng, oi->lo, oi->hi, oi->outliers, oi->n_outliers);
    char err[256];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = cli_exec_case(g.dtype, g.rank, g.dims, NULL, g.data, o.data, y.data, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cli_check c;
    memset(&c, 0, sizeof c);
    int ok = rc == 0 && cli_check_run(g.dtype, g.n, g.data, o.data, y.data, &c) == 0 && c.bit_ok &&
             c.precision_ok;
    if (rc != 0)
        snprintf(msg, len, "error: %s", err);
    else if (!ok)
        cli_check_summary(&c, msg, len);
    cJSON_AddStringToObject(rep, "api", cli_exec_api(g.dtype));
    cJSON_AddNumberToObject(rep, "elements", (double)g.n);
    cJSON_AddNumberToObject(rep, "mismatches", (double)c.mismatches);
    cJSON_AddNumberToObject(rep, "mere", c.mere);
    cJSON_AddNumberToObject(rep, "mare", c.mare);
    cJSON_AddNumberToObject(
        rep, "seconds", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    cli_tensor_free(&g), cli_tensor_free(&o), cli_tensor_free(&y);
    return ok;
}

static int st_selected(const char *id, const char *ids) {
    if (!ids) return 1;
    size_t n = strlen(id);
    for (const char *p = ids; (p = strstr(p, id)) != NULL; p++)
        if ((p == ids || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

/* The file's JSON, or NULL with why in err. */
static cJSON *st_read_file(const char *path, char *err, size_t len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, len, "cannot read: %s", strerror(errno));
        return NULL;
    }
    snprintf(err, len, "not JSON");
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = sz >= 0 ? malloc((size_t)sz + 1) : NULL;
    cJSON *j = NULL;
    if (buf && fread(buf, 1, (size_t)sz, f) == (size_t)sz) {
        buf[sz] = '\0';
        j = cJSON_Parse(buf);
    }
    free(buf);
    fclose(f);
    return j;
}

static void st_progress(int tty, int done, int total, const char *id, int ok) {
    if (tty) {
        int w = 40, fill = total ? done * w / total : w;
        fprintf(stderr, "\r[%.*s%*s] %d/%d", fill, "########################################",
                w - fill, "", done, total);
        if (done == total) fputc('\n', stderr);
    } else {
        printf("[%d/%d] %s %s\n", done, total, ok ? "PASS" : "FAIL", id);
    }
}

/* Case ids are unique across the files, and every id named by --ids exists: a typo must not
   pass as "0 cases, 0 failed". */
static int st_check_ids(cJSON *const *files, int nfiles, const char *ids) {
    for (int f = 0; f < nfiles; f++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, files[f]) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(c, "id");
            if (!cJSON_IsString(a)) continue;
            for (int g = 0; g <= f; g++) {
                const cJSON *d;
                cJSON_ArrayForEach(d, files[g]) {
                    if (d == c) break;
                    const cJSON *b = cJSON_GetObjectItemCaseSensitive(d, "id");
                    if (cJSON_IsString(b) && strcmp(a->valuestring, b->valuestring) == 0)
                        return cli_usage_error("st", "case id '%s' appears twice", a->valuestring);
                }
            }
        }
    }
    for (const char *p = ids; p && *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        for (int f = 0; f < nfiles && !found; f++) {
            const cJSON *c;
            cJSON_ArrayForEach(c, files[f]) {
                const cJSON *a = cJSON_GetObjectItemCaseSensitive(c, "id");
                if (cJSON_IsString(a) && strlen(a->valuestring) == n &&
                    strncmp(a->valuestring, p, n) == 0)
                    found = 1;
            }
        }
        if (!found) return cli_usage_error("st", "no case has the id '%.*s'", (int)n, p);
        p = e ? e + 1 : p + n;
    }
    return 0;
}

enum { ST_MAX_FILES = 64 };

typedef struct st_args {
    const char *ids, *report;
    int64_t seed;
    cJSON *files[ST_MAX_FILES]; /* each a JSON array of cases */
    int nfiles;
} st_args;

static void st_free(st_args *a) {
    for (int f = 0; f < a->nfiles; f++) cJSON_Delete(a->files[f]);
    a->nfiles = 0;
}

/* The options and the case files (read and parsed as JSON arrays); 0, or the usage error's
   status with nothing left allocated. */
static int st_parse(int argc, char **argv, st_args *a) {
    memset(a, 0, sizeof *a);
    const char *v;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (sg_argv_opt(argc, argv, &i, "--ids", &v))
            a->ids = v;
        else if (sg_argv_opt(argc, argv, &i, "--report", &v))
            a->report = v;
        else if (sg_argv_opt(argc, argv, &i, "--seed", &v)) {
            if (cli_parse_i64(v, &a->seed) != 0)
                return st_free(a), cli_usage_error("st", "bad --seed");
        } else if (arg[0] == '-')
            return st_free(a), cli_usage_error("st", "unknown argument '%s'", arg);
        else if (a->nfiles == ST_MAX_FILES)
            return st_free(a), cli_usage_error("st", "too many files");
        else {
            char why[128];
            cJSON *j = st_read_file(arg, why, sizeof why);
            if (!cJSON_IsArray(j)) {
                fprintf(stderr, "selugrad st: %s: %s\n", arg,
                        j ? "not a JSON array of cases" : why);
                cJSON_Delete(j);
                st_free(a);
                return CLI_USAGE;
            }
            a->files[a->nfiles++] = j;
        }
    }
    if (a->nfiles == 0) return cli_usage_error("st", "no case file given");
    return 0;
}

/* A report that cannot be written is a usage error, found before any case runs; the probe
   creates or appends nothing, so an existing file is not touched. */
static int st_check_report(const char *report) {
    if (!report) return 0;
    struct stat before;
    int existed = stat(report, &before) == 0;
    FILE *probe = fopen(report, "a");
    if (!probe) {
        fprintf(stderr, "selugrad st: cannot write the report %s: %s\n", report, strerror(errno));
        return CLI_USAGE;
    }
    fclose(probe);
    if (!existed) remove(report);
    return 0;
}

/* Everything checked before a case runs: the report can be written, ids are unique and every
   --ids entry exists. */
static int st_validate(const st_args *a) {
    int rc = st_check_report(a->report);
    return rc != 0 ? rc : st_check_ids(a->files, a->nfiles, a->ids);
}

/* One case object of a file: parsed, run, judged, tallied; its report entry goes into cases.
   Returns 1 when it passes; msg says why not. */
static int st_one_case(const cJSON *c, const char *id, int64_t seed, st_tally *tally, cJSON *cases,
                       char *msg, size_t len) {
    const cJSON *idj = cJSON_GetObjectItemCaseSensitive(c, "id");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "aclnn_name");
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "id", id);
    st_input gi, oi;
    int ok = 0, parsed = 0;
    msg[0] = '\0';
    if (!cJSON_IsString(idj) || !cJSON_IsString(name) || idj->valuestring[0] == '\0')
        snprintf(msg, len, "case needs a non-empty string id and an aclnn_name");
    else if (strcmp(name->valuestring, "aclnnSeluBackward") != 0)
        snprintf(msg, len, "aclnn_name %s is not aclnnSeluBackward", name->valuestring);
    else if (st_parse_case(c, &gi, &oi, msg, len) == 0) {
        parsed = 1;
        char shape[200];
        cli_shape_str(gi.rank, gi.dims, shape, sizeof shape);
        cJSON_AddStringToObject(r, "dtype", selugrad_dtype_name(gi.dtype));
        cJSON_AddStringToObject(r, "shape", shape);
        ok = st_run_case(id, &gi, &oi, seed, r, msg, len);
        int slot = st_dtype_slot(gi.dtype);
        tally->cases[slot]++;
        tally->passed[slot] += ok;
    }
    tally->malformed += !parsed;
    cJSON_AddStringToObject(r, "status", ok ? "pass" : "fail");
    cJSON_AddStringToObject(r, "message", ok ? "" : msg);
    cJSON_AddItemToArray(cases, r);
    return ok;
}

/* The summary by dtype on stdout and into the report's "by_dtype" and "summary". */
static void st_summary(const st_tally *tally, int done, int failed, cJSON *rep) {
    static const char *const names[ST_DTYPES] = {"f32", "f16", "bf16", "s8", "u8", "s32"};
    printf("%-6s %7s %7s %7s\n", "dtype", "cases", "passed", "failed");
    cJSON *by = cJSON_AddObjectToObject(rep, "by_dtype");
    for (int k = 0; k < ST_DTYPES; k++) {
        if (!tally->cases[k]) continue;
        printf("%-6s %7d %7d %7d\n", names[k], tally->cases[k], tally->passed[k],
               tally->cases[k] - tally->passed[k]);
        cJSON *o = cJSON_AddObjectToObject(by, names[k]);
        cJSON_AddNumberToObject(o, "cases", tally->cases[k]);
        cJSON_AddNumberToObject(o, "passed", tally->passed[k]);
        cJSON_AddNumberToObject(o, "failed", tally->cases[k] - tally->passed[k]);
    }
    if (tally->malformed) { /* cases with no valid dtype to file them under */
        printf("%-6s %7d %7d %7d\n", "(bad)", tally->malformed, 0, tally->malformed);
        cJSON *o = cJSON_AddObjectToObject(by, "malformed");
        cJSON_AddNumberToObject(o, "cases", tally->malformed);
        cJSON_AddNumberToObject(o, "passed", 0);
        cJSON_AddNumberToObject(o, "failed", tally->malformed);
    }
    printf("%-6s %7d %7d %7d\n", "total", done, done - failed, failed);
    cJSON *sum = cJSON_AddObjectToObject(rep, "summary");
    cJSON_AddNumberToObject(sum, "total", done);
    cJSON_AddNumberToObject(sum, "passed", done - failed);
    cJSON_AddNumberToObject(sum, "failed", failed);
}

/* Writes the report as JSON; 0, or 1 when it cannot. */
static int st_write_report(const char *report, const cJSON *rep) {
    char *s = cJSON_Print(rep);
    FILE *out = fopen(report, "w");
    int rc = 0;
    if (!s || !out || fputs(s, out) < 0) {
        fprintf(stderr, "selugrad st: cannot write %s: %s\n", report,
                out ? "write failed" : strerror(errno));
        rc = 1;
    }
    if (out) fclose(out);
    cJSON_free(s);
    return rc;
}

/* Runs the selected cases of every file with progress and failure lines, then the summary and
   the report. Returns 1 when a case failed or the report could not be written, else 0. */
static int st_run(const st_args *a) {
    int total = 0, done = 0, failed = 0, tty = isatty(STDERR_FILENO);
    for (int f = 0; f < a->nfiles; f++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, a->files[f]) {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
            total += cJSON_IsString(id) ? st_selected(id->valuestring, a->ids) : 1;
        }
    }
    st_tally tally;
    memset(&tally, 0, sizeof tally);
    cJSON *rep = cJSON_CreateObject(), *cases = cJSON_AddArrayToObject(rep, "cases");
    for (int f = 0; f < a->nfiles; f++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, a->files[f]) {
            const cJSON *idj = cJSON_GetObjectItemCaseSensitive(c, "id");
            const char *id =
                cJSON_IsString(idj) && idj->valuestring[0] ? idj->valuestring : "(no id)";
            if (!st_selected(id, a->ids)) continue;
            char msg[300];
            int ok = st_one_case(c, id, a->seed, &tally, cases, msg, sizeof msg);
            failed += !ok;
            st_progress(tty, ++done, total, id, ok);
            if (!ok) fprintf(tty ? stderr : stdout, "%sFAIL %s: %s\n", tty ? "\n" : "", id, msg);
        }
    }
    st_summary(&tally, done, failed, rep);
    int rc = failed ? 1 : 0;
    if (a->report && st_write_report(a->report, rep) != 0) rc = 1;
    cJSON_Delete(rep);
    return rc;
}

int cli_cmd_st(int argc, char **argv) {
    int pre = cli_begin("st", argc, argv, cli_st_help);
    if (pre >= 0) return pre;
    st_args a;
    int rc = st_parse(argc, argv, &a);
    if (rc != 0) return rc;
    rc = st_validate(&a);
    if (rc == 0) rc = st_run(&a);
    st_free(&a);
    return rc;
}
