/*
 * Judging a result: bit for bit against the model (the scalar kernels; docs/contract.md,
 * "Per-dtype computation"), and by the precision standard (docs/contract.md, "Precision
 * standard") against a float64 golden.
 *
 * The golden is y = g * (o + SA) where o < 0, else g * scale, in double with the dtype's own
 * constants (docs/contract.md, "Math": an fp16 operator multiplies by the fp16 scale), and no
 * rounding until it is rounded once to the output dtype for the comparison. With the exact
 * decimal constants an fp16/bf16 output near o = -SA (where o + SA cancels) is off by ~100%
 * through no fault of the kernel, so that golden would measure the dtype's constants, not the
 * computation. Integer results are judged by equality with the contract's integer result.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/dispatch.h"
#include "cli.h"

void cli_model(selugrad_dtype dt, size_t n, const void *g, const void *o, void *y) {
    const sg_kernel *k = sg_kernel_select(dt, SG_ISA_SCALAR);
    if (k && n) k->fn(n, g, o, y);
}

static void cli_constants(selugrad_dtype dt, double *scale, double *sa) {
    switch (dt) {
    case SELUGRAD_FLOAT16:
        *scale = 1.05078125; /* 0x3C34 */
        *sa = 1.7578125;     /* 0x3F08 */
        break;
    case SELUGRAD_BF16:
        *scale = 1.046875; /* 0x3F86 */
        *sa = 1.7578125;   /* 0x3FE1 */
        break;
    default:
        *scale = 0x1.0cfabep+0; /* 0x3F867D5F */
        *sa = 0x1.c212ccp+0;    /* 0x3FE10966 */
        break;
    }
}

double cli_golden(selugrad_dtype dt, const void *g, const void *o, size_t i) {
    if (dt == SELUGRAD_INT8 || dt == SELUGRAD_UINT8 || dt == SELUGRAD_INT32) {
        /* the contract's integer result (fp16 constants for int8/uint8, truncation for int32) */
        size_t es = selugrad_dtype_size(dt);
        unsigned char y[4];
        cli_model(dt, 1, (const unsigned char *)g + i * es, (const unsigned char *)o + i * es, y);
        return cli_get(dt, y, 0);
    }
    double scale, sa;
    cli_constants(dt, &scale, &sa);
    double gv = cli_get(dt, g, i), ov = cli_get(dt, o, i);
    return ov < 0.0 ? gv * (ov + sa) : gv * scale;
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
    memset(c, 0, sizeof *c);
    c->n = n;
    c->threshold = cli_threshold(dt);
    size_t es = selugrad_dtype_size(dt);
    void *model = malloc(n ? n * es : 1);
    if (!model) return -1;
    cli_model(dt, n, g, o, model);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
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
    free(model);
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
