/*
 * Judging a result by the golden model (tests/model/golden.c), the same model the tests use: bit
 * for bit against its results, and by the precision standard (docs/contract.md, "Precision
 * standard") against its float64 value rounded once to the output dtype. Integer results are
 * judged by equality with the exact integer result.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model/golden.h"

void cli_model(selugrad_dtype dt, size_t n, const void *g, const void *o, void *y) {
    gm_selugrad_array((int)dt, n, g, o, y);
}

void cli_model_progress(selugrad_dtype dt, size_t n, const void *g, const void *o, void *y,
                        cli_progress *p) {
    size_t es = selugrad_dtype_size(dt);
    for (size_t i = 0; i < n; i += CLI_PROGRESS_CHUNK) {
        size_t k = n - i < CLI_PROGRESS_CHUNK ? n - i : CLI_PROGRESS_CHUNK;
        cli_model(dt, k, (const char *)g + i * es, (const char *)o + i * es, (char *)y + i * es);
        cli_progress_add(p, "model", k);
    }
}

double cli_golden(selugrad_dtype dt, const void *g, const void *o, size_t i) {
    return gm_selugrad_f64((int)dt, g, o, i);
}

static double cli_threshold(selugrad_dtype dt) {
    switch (dt) {
    case SELUGRAD_FLOAT16:
        return 0x1p-10;
    case SELUGRAD_BF16:
        return 0x1p-7;
    case SELUGRAD_FLOAT:
        return 0x1p-13;
    default:
        return 0.0;
    }
}

static int cli_same_bits(selugrad_dtype dt, const void *a, const void *b, size_t i) {
    size_t es = selugrad_dtype_size(dt);
    return memcmp((const char *)a + i * es, (const char *)b + i * es, es) == 0;
}

/* Relative error of element i against the rounded golden; -1 when inf/NaN do not match. */
static double cli_rel_err(selugrad_dtype dt, double got, double golden) {
    double gr = cli_round_to(dt, golden);
    if (gr != gr) return got != got ? 0.0 : -1.0;
    if (isinf(gr)) return got == gr ? 0.0 : -1.0;
    if (got != got || isinf(got)) return -1.0;
    return fabs(got - gr) / (fabs(gr) + 1e-7);
}

int cli_check_run(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *y,
                  cli_check *c) {
    return cli_check_progress(dt, n, g, o, y, NULL, NULL, c);
}

int cli_check_progress(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *y,
                       void *keep, cli_progress *p, cli_check *c) {
    memset(c, 0, sizeof *c);
    c->n = n;
    c->threshold = cli_threshold(dt);
    size_t es = selugrad_dtype_size(dt);
    void *model = keep ? keep : malloc(n ? n * es : 1);
    if (!model) return -1;
    cli_model_progress(dt, n, g, o, model, p);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        cli_progress_step(p, "checking", i, n);
        if (!cli_same_bits(dt, model, y, i)) {
            if (c->nfirst < CLI_MAX_FIRST) c->first[c->nfirst++] = i;
            c->mismatches++;
        }
        double got = cli_get(dt, y, i);
        double err;
        if (cli_dtype_is_float(dt)) {
            err = cli_rel_err(dt, got, cli_golden(dt, g, o, i));
        } else {
            err = got == cli_get(dt, model, i) ? 0.0 : -1.0;
        }
        if (err < 0.0) {
            c->special_bad++;
            continue;
        }
        sum += err;
        if (err > c->mare) {
            c->mare = err;
            c->worst = i;
        }
    }
    if (!keep) free(model);
    c->mere = n ? sum / (double)n : 0.0;
    c->bit_ok = c->mismatches == 0;
    c->precision_ok =
        c->special_bad == 0 &&
        (cli_dtype_is_float(dt) ? c->mere < c->threshold && c->mare < 10.0 * c->threshold : 1);
    return 0;
}

/* Appends to buf (len bytes, *used of them taken); output that does not fit is cut. */
static void cli_append(char *buf, size_t len, size_t *used, const char *fmt, ...) {
    if (*used >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (w > 0) *used += (size_t)w;
}

void cli_check_summary(const cli_check *c, char *buf, size_t len) {
    size_t used = 0;
    if (len == 0) return;
    buf[0] = '\0';
    if (c->mismatches)
        cli_append(buf, len, &used, "%zu bit mismatches (first at [%zu])", c->mismatches,
                   c->first[0]);
    else
        cli_append(buf, len, &used, "bit-exact");
    if (c->threshold > 0.0) {
        if (c->mere >= c->threshold)
            cli_append(buf, len, &used, ", MERE %.6g >= %.6g", c->mere, c->threshold);
        if (c->mare >= 10.0 * c->threshold)
            cli_append(buf, len, &used, ", MARE %.6g >= %.6g at [%zu]", c->mare,
                       10.0 * c->threshold, c->worst);
        if (c->special_bad)
            cli_append(buf, len, &used, ", inf/NaN not matching the golden: %zu", c->special_bad);
    } else if (c->special_bad) {
        cli_append(buf, len, &used, ", integer results unequal to the exact result: %zu",
                   c->special_bad);
    }
}

/* The bits of element i of a float dtype's data, ordered so that consecutive values differ by 1:
   -0 and +0 both map to 0. */
static int64_t cli_ordered_bits(selugrad_dtype dt, const void *data, size_t i) {
    int64_t mag, neg;
    if (dt == SELUGRAD_FLOAT) {
        uint32_t b;
        memcpy(&b, (const char *)data + i * 4, 4);
        mag = (int64_t)(b & 0x7FFFFFFFu), neg = (int64_t)(b >> 31);
    } else {
        uint16_t b;
        memcpy(&b, (const char *)data + i * 2, 2);
        mag = (int64_t)(b & 0x7FFFu), neg = (int64_t)(b >> 15);
    }
    return neg ? -mag : mag;
}

double cli_ulp(selugrad_dtype dt, const void *a, const void *b, size_t i) {
    double x = cli_get(dt, a, i), y = cli_get(dt, b, i);
    if (!cli_dtype_is_float(dt)) return fabs(x - y); /* integers: exact in double */
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y) ? 0.0 : INFINITY;
    int64_t d = cli_ordered_bits(dt, a, i) - cli_ordered_bits(dt, b, i);
    return (double)(d < 0 ? -d : d);
}

void cli_ulp_str(double u, char *buf, size_t len) {
    if (isinf(u))
        snprintf(buf, len, "NaN against a number");
    else
        snprintf(buf, len, "%.0f ulp%s", u, u == 1.0 ? "" : "s");
}
