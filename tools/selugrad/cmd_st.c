/*
 * `selugrad st FILE.json`: system-test case files in the ATK format of ops-nn. A file is a JSON
 * array of cases {id, aclnn_name or name, standard, inputs: [{name, dtype, shape, range_values,
 * outlier_values}]} for gradOutput and result, or x for aclnnSelu / aclnnInplaceSelu
 * (docs/st-format.md; one case is parsed by
 * st_case.c). Each case draws its inputs with a seed derived from --seed and its id, runs, and is
 * judged by bit-exactness and the precision standard.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "common/dtype.h"
#include "st_case.h"

static const char cli_st_help[] =
    "usage: selugrad st FILE.json [FILE.json...] [--ids=ID,...] [--report=out.json] [--seed=N]\n"
    "Runs system-test case files in ops-nn's ATK format (docs/st-format.md) and judges each\n"
    "case bit for bit and by the precision standard. Progress on stderr (a bar on a terminal,\n"
    "a count otherwise); one line per failing case; a summary by standard and by dtype; exit\n"
    "status 1 when any case fails (a malformed case is a failing case: it says why), 2 when a\n"
    "file cannot be read, is not a JSON array of cases or holds none, or an argument is bad.\n";

enum { ST_STANDARDS = 8 };

typedef struct st_tally {
    int cases[SG_DTYPE_COUNT], passed[SG_DTYPE_COUNT]; /* by position in the dtype list */
    int malformed; /* cases that name no valid dtype (they fail) */
    /* the standards the cases name, as named, with their case counts */
    char standard[ST_STANDARDS][ST_STANDARD_MAX];
    int standard_cases[ST_STANDARDS], standard_ours[ST_STANDARDS], nstandards;
    int other_standards; /* cases naming one more standard than the table holds */
} st_tally;

static uint64_t st_seed(const char *id, int64_t seed) {
    uint64_t h = 0xCBF29CE484222325u ^ (uint64_t)seed;
    for (; *id; id++) h = (h ^ (unsigned char)*id) * 0x100000001B3u;
    return h;
}

/* The report fields of one case: the API it went through, its size, the check's counts and the
   wall time between t0 and t1. */
static void st_report(cJSON *rep, const char *api, size_t n, const cli_check *c,
                      const struct timespec *t0, const struct timespec *t1) {
    cJSON_AddStringToObject(rep, "api", api);
    cJSON_AddNumberToObject(rep, "elements", (double)n);
    cJSON_AddNumberToObject(rep, "mismatches", (double)c->mismatches);
    cJSON_AddNumberToObject(rep, "mere", c->mere);
    cJSON_AddNumberToObject(rep, "mare", c->mare);
    cJSON_AddNumberToObject(rep, "seconds",
                            (double)(t1->tv_sec - t0->tv_sec) +
                                (double)(t1->tv_nsec - t0->tv_nsec) * 1e-9);
}

/* Runs one parsed case; returns 1 when it passes. Fills a report object. */
static int st_run_case(const char *id, const st_case *k, int64_t seed, cJSON *rep, char *msg,
                       size_t len) {
    const st_input *gi = &k->g, *oi = &k->o;
    int same = gi->dtype == oi->dtype && gi->rank == oi->rank;
    for (size_t i = 0; same && i < gi->rank; i++) same = gi->dims[i] == oi->dims[i];
    if (!same) {
        char gs[96], os[96];
        cli_shape_str(gi->rank, gi->dims, gs, sizeof gs);
        cli_shape_str(oi->rank, oi->dims, os, sizeof os);
        return snprintf(msg, len, "gradOutput (%s %s) and result (%s %s) differ in dtype or shape",
                        selugrad_dtype_name(gi->dtype), gs, selugrad_dtype_name(oi->dtype), os),
               0;
    }
    cli_tensor g, o, y;
    if (cli_tensor_alloc(&g, gi->dtype, gi->rank, gi->dims) ||
        cli_tensor_alloc(&o, gi->dtype, gi->rank, gi->dims) ||
        cli_tensor_alloc(&y, gi->dtype, gi->rank, gi->dims))
        return snprintf(msg, len, "out of memory"), 0;
    cli_rng rng = {st_seed(id, seed)};
    st_fill(&g, &rng, gi);
    st_fill(&o, &rng, oi);
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
    st_report(rep, cli_exec_api(g.dtype), g.n, &c, &t0, &t1);
    cli_tensor_free(&g), cli_tensor_free(&o), cli_tensor_free(&y);
    return ok;
}

/* Runs one forward case (x in k->g) through aclnnSelu, or aclnnInplaceSelu; returns 1 when it
   passes. Fills a report object. */
static int st_run_fwd_case(const char *id, const st_case *k, int64_t seed, cJSON *rep, char *msg,
                           size_t len) {
    const st_input *xi = &k->g;
    cli_tensor x, y;
    if (cli_tensor_alloc(&x, xi->dtype, xi->rank, xi->dims) ||
        cli_tensor_alloc(&y, xi->dtype, xi->rank, xi->dims))
        return snprintf(msg, len, "out of memory"), 0;
    cli_rng rng = {st_seed(id, seed)};
    st_fill(&x, &rng, xi);
    char err[256];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc =
        cli_fwd_exec(x.dtype, x.rank, x.dims, NULL, x.data, y.data, k->op == 2, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cli_check c;
    memset(&c, 0, sizeof c);
    int ok = rc == 0 && cli_fwd_check(x.dtype, x.n, x.data, y.data, &c) == 0 && c.bit_ok &&
             c.precision_ok;
    if (rc != 0)
        snprintf(msg, len, "error: %s", err);
    else if (!ok)
        cli_check_summary(&c, msg, len);
    st_report(rep, k->op == 2 ? "aclnnInplaceSelu" : "aclnnSelu", x.n, &c, &t0, &t1);
    cli_tensor_free(&x), cli_tensor_free(&y);
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

/* Progress on stderr: a bar redrawn per case on a terminal; otherwise a count, about every
   tenth of the cases and at the end, so a log stays short. */
static void st_progress(int tty, int done, int total, int failed) {
    if (tty) {
        fputc('\r', stderr);
        cli_progress_bar((size_t)done, (size_t)total);
        fprintf(stderr, " %d/%d", done, total);
        if (done == total) fputc('\n', stderr);
    } else {
        int step = total / 10 > 0 ? total / 10 : 1;
        if (done % step == 0 || done == total)
            fprintf(stderr, "st: %d/%d cases, %d failed\n", done, total, failed);
    }
}

/* Case ids (as text: ATK's integer ids are their decimal form) are unique within each file (ATK
   numbers every file's cases from 0, so two files may share ids), no file is given twice, and
   every id named by --ids exists: a typo must not pass as "0 cases, 0 failed". */
static int st_check_ids(cJSON *const *files, const char *const *paths, int nfiles,
                        const char *ids) {
    for (int f = 0; f < nfiles; f++) {
        for (int g = 0; g < f; g++)
            if (strcmp(paths[f], paths[g]) == 0 || cli_same_file(paths[f], paths[g]))
                return cli_usage_error("st", "the file %s is given twice", paths[f]);
        const cJSON *c;
        char a[ST_ID_MAX], b[ST_ID_MAX];
        cJSON_ArrayForEach(c, files[f]) {
            if (st_case_id(c, a, sizeof a) != 0) continue;
            const cJSON *d;
            cJSON_ArrayForEach(d, files[f]) {
                if (d == c) break;
                if (st_case_id(d, b, sizeof b) == 0 && strcmp(a, b) == 0)
                    return cli_usage_error("st", "case id '%s' appears twice in %s", a, paths[f]);
            }
        }
    }
    for (const char *p = ids; p && *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        for (int f = 0; f < nfiles && !found; f++) {
            const cJSON *c;
            char a[ST_ID_MAX];
            cJSON_ArrayForEach(c, files[f]) {
                if (st_case_id(c, a, sizeof a) == 0 && strlen(a) == n && strncmp(a, p, n) == 0)
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
    const char *paths[ST_MAX_FILES];
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
            /* an empty array is refused too: a file that lost its cases must not pass as "0
               cases, 0 failed" */
            if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) == 0) {
                fprintf(stderr, "selugrad st: %s: %s\n", arg,
                        !j                 ? why
                        : cJSON_IsArray(j) ? "holds no cases (an empty JSON array)"
                                           : "not a JSON array of cases");
                cJSON_Delete(j);
                st_free(a);
                return CLI_USAGE;
            }
            a->paths[a->nfiles] = arg;
            a->files[a->nfiles++] = j;
        }
    }
    if (a->nfiles == 0) return cli_usage_error("st", "no case file given");
    return 0;
}

/* A report that cannot be written is a usage error, found before any case runs; the probe
   creates or appends nothing, so an existing file is not touched. */
static int st_check_report(const char *report, const char *const paths[], int nfiles) {
    if (!report) return 0;
    for (int f = 0; f < nfiles; f++)
        if (cli_same_file(report, paths[f]))
            return cli_usage_error("st",
                                   "the report %s is the case file %s (expected another name: "
                                   "the report would replace the cases)",
                                   report, paths[f]);
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
    int rc = st_check_report(a->report, a->paths, a->nfiles);
    return rc != 0 ? rc : st_check_ids(a->files, a->paths, a->nfiles, a->ids);
}

/* Counts a case under the standard it names. */
static void st_tally_standard(st_tally *t, const st_case *k) {
    for (int i = 0; i < t->nstandards; i++)
        if (strcmp(t->standard[i], k->standard) == 0) {
            t->standard_cases[i]++;
            return;
        }
    if (t->nstandards == ST_STANDARDS) {
        t->other_standards++;
        return;
    }
    int i = t->nstandards++;
    snprintf(t->standard[i], sizeof t->standard[i], "%s", k->standard);
    t->standard_cases[i] = 1;
    t->standard_ours[i] = k->standard_ours;
}

/* One case object of a file: parsed, run, judged, tallied; its report entry goes into cases.
   Returns 1 when it passes; msg says why not. */
static int st_one_case(const cJSON *c, const char *file, const char *id, int64_t seed,
                       st_tally *tally, cJSON *cases, char *msg, size_t len) {
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "file", file);
    cJSON_AddStringToObject(r, "id", id);
    st_case k;
    char idtext[ST_ID_MAX];
    int ok = 0, parsed = 0;
    msg[0] = '\0';
    if (st_case_id(c, idtext, sizeof idtext) != 0)
        snprintf(msg, len, "the case needs an id: a non-empty string or a whole number");
    else if (st_case_parse(c, &k, msg, len) == 0) {
        parsed = 1;
        char shape[200];
        cli_shape_str(k.g.rank, k.g.dims, shape, sizeof shape);
        cJSON_AddStringToObject(r, "dtype", selugrad_dtype_name(k.g.dtype));
        cJSON_AddStringToObject(r, "shape", shape);
        cJSON_AddStringToObject(r, "standard", k.standard);
        cJSON_AddStringToObject(r, "op", k.op == 0 ? "selu_grad" : "selu");
        ok = k.op == 0 ? st_run_case(id, &k, seed, r, msg, len)
                       : st_run_fwd_case(id, &k, seed, r, msg, len);
        int slot = sg_dtype_index(k.g.dtype); /* a parsed case has a dtype of the list */
        tally->cases[slot]++;
        tally->passed[slot] += ok;
        st_tally_standard(tally, &k);
    }
    tally->malformed += !parsed;
    cJSON_AddStringToObject(r, "status", ok ? "pass" : "fail");
    cJSON_AddStringToObject(r, "message", ok ? "" : msg);
    cJSON_AddItemToArray(cases, r);
    return ok;
}

/* The standards the cases named, and the one they were judged by, on stdout and into the
   report's "by_standard". */
static void st_standards(const st_tally *tally, cJSON *rep) {
    printf("%-28s %7s  %s\n", "standard (as named)", "cases", "judged by");
    cJSON *by = cJSON_AddObjectToObject(rep, "by_standard");
    for (int i = 0; i < tally->nstandards; i++) {
        printf("%-28s %7d  %s%s\n", tally->standard[i], tally->standard_cases[i], ST_STANDARD_OURS,
               tally->standard_ours[i] ? "" : " (selugrad's only standard)");
        cJSON *o = cJSON_AddObjectToObject(by, tally->standard[i]);
        cJSON_AddNumberToObject(o, "cases", tally->standard_cases[i]);
        cJSON_AddStringToObject(o, "judged_by", ST_STANDARD_OURS);
    }
    if (tally->other_standards)
        printf("%-28s %7d  %s (selugrad's only standard)\n", "(more standards)",
               tally->other_standards, ST_STANDARD_OURS);
}

/* The summary by dtype on stdout and into the report's "by_dtype" and "summary". */
static void st_summary(const st_tally *tally, int done, int failed, cJSON *rep) {
    printf("%-6s %7s %7s %7s\n", "dtype", "cases", "passed", "failed");
    cJSON *by = cJSON_AddObjectToObject(rep, "by_dtype");
    for (int k = 0; k < SG_DTYPE_COUNT; k++) {
        if (!tally->cases[k]) continue;
        const char *name = selugrad_dtype_name(sg_dtype_list[k]);
        printf("%-6s %7d %7d %7d\n", name, tally->cases[k], tally->passed[k],
               tally->cases[k] - tally->passed[k]);
        cJSON *o = cJSON_AddObjectToObject(by, name);
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
    char tmp[CLI_OUT_TMP_MAX];
    FILE *out = cli_out_open(report, tmp, sizeof tmp);
    int rc = 0;
    /* a full disk may show only when the buffer is flushed, at fclose */
    int wrote = s && out && fputs(s, out) >= 0;
    if (out) wrote = cli_out_close(out, tmp, wrote);
    if (!wrote) {
        fprintf(stderr, "selugrad st: cannot write %s: %s\n", report,
                out ? "write failed" : strerror(errno));
        rc = 1;
    }
    cJSON_free(s);
    return rc;
}

/* Runs the selected cases of every file with progress and failure lines, then the summary and
   the report. Returns 1 when a case failed or the report could not be written, else 0. */
static int st_run(const st_args *a) {
    int total = 0, done = 0, failed = 0, tty = isatty(STDERR_FILENO);
    char id[ST_ID_MAX];
    for (int f = 0; f < a->nfiles; f++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, a->files[f]) {
            total += st_case_id(c, id, sizeof id) == 0 ? st_selected(id, a->ids) : !a->ids;
        }
    }
    st_tally tally;
    memset(&tally, 0, sizeof tally);
    cJSON *rep = cJSON_CreateObject(), *cases = cJSON_AddArrayToObject(rep, "cases");
    for (int f = 0; f < a->nfiles; f++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, a->files[f]) {
            if (st_case_id(c, id, sizeof id) != 0) {
                if (a->ids) continue; /* --ids names ids; a case without one is not among them */
                snprintf(id, sizeof id, "(no id)");
            } else if (!st_selected(id, a->ids)) {
                continue;
            }
            char msg[300];
            int ok = st_one_case(c, a->paths[f], id, a->seed, &tally, cases, msg, sizeof msg);
            failed += !ok;
            if (!ok) /* with several files, ids may repeat: the file says which case */
                fprintf(tty ? stderr : stdout, "%sFAIL %s%s%s: %s\n", tty ? "\n" : "",
                        a->nfiles > 1 ? a->paths[f] : "", a->nfiles > 1 ? ":" : "", id, msg);
            st_progress(tty, ++done, total, failed);
        }
    }
    if (tally.nstandards) st_standards(&tally, rep);
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
