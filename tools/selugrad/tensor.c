/* Host tensors: allocation, exact element access and rounding to a dtype (both by the golden
   model), random fill. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/dtype.h"
#include "model/golden.h"

int cli_tensor_alloc(cli_tensor *t, selugrad_dtype dt, size_t rank, const int64_t *dims) {
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    t->rank = rank;
    for (size_t i = 0; i < rank; i++) t->dims[i] = dims[i];
    t->n = cli_shape_count(rank, dims);
    size_t es = selugrad_dtype_size(dt);
    if (es == 0 || t->n > (SIZE_MAX / 2) / es) return -1;
    t->data = calloc(t->n ? t->n : 1, es);
    return t->data ? 0 : -1;
}

void cli_tensor_free(cli_tensor *t) {
    free(t->data);
    t->data = NULL;
}

int cli_dtype_is_float(selugrad_dtype dt) {
    return sg_dtype_is_float(dt);
}

double cli_get(selugrad_dtype dt, const void *data, size_t i) {
    return gm_element((int)dt, data, i);
}

double cli_round_to(selugrad_dtype dt, double x) {
    gm_fmt f;
    return gm_fmt_of((int)dt, &f) ? gm_round(x, f) : x;
}

static double cli_int_sat(double x, double lo, double hi) {
    if (x != x) return 0.0;
    x = nearbyint(x);
    return x < lo ? lo : (x > hi ? hi : x);
}

void cli_set(selugrad_dtype dt, void *data, size_t i, double x) {
    switch (dt) {
    case SELUGRAD_FLOAT:
        ((float *)data)[i] = (float)cli_round_to(dt, x);
        break;
    case SELUGRAD_FLOAT16:
        ((uint16_t *)data)[i] = selugrad_f32_to_f16((float)cli_round_to(dt, x));
        break;
    case SELUGRAD_BF16:
        ((uint16_t *)data)[i] = selugrad_f32_to_bf16((float)cli_round_to(dt, x));
        break;
    case SELUGRAD_INT8:
        ((int8_t *)data)[i] = (int8_t)cli_int_sat(x, -128.0, 127.0);
        break;
    case SELUGRAD_UINT8:
        ((uint8_t *)data)[i] = (uint8_t)cli_int_sat(x, 0.0, 255.0);
        break;
    case SELUGRAD_INT32:
        ((int32_t *)data)[i] = (int32_t)cli_int_sat(x, -2147483648.0, 2147483647.0);
        break;
    }
}

double cli_get_shown(selugrad_dtype dt, const void *data, size_t i) {
    double v = cli_get(dt, data, i);
    return isnan(v) ? fabs(v) : v;
}

void cli_format_elem(selugrad_dtype dt, const void *data, size_t i, char *buf, size_t len) {
    double v = cli_get_shown(dt, data, i);
    switch (dt) {
    case SELUGRAD_FLOAT: {
        uint32_t b;
        memcpy(&b, (const float *)data + i, 4);
        snprintf(buf, len, "%.9g (0x%08X)", v, (unsigned)b);
        break;
    }
    case SELUGRAD_FLOAT16:
    case SELUGRAD_BF16:
        snprintf(buf, len, "%.9g (0x%04X)", v, (unsigned)((const uint16_t *)data)[i]);
        break;
    default:
        snprintf(buf, len, "%.0f", v);
        break;
    }
}

uint64_t cli_rng_next(cli_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

double cli_rng_uniform(cli_rng *r, double lo, double hi) {
    double u = (double)(cli_rng_next(r) >> 11) * 0x1p-53; /* [0, 1) */
    return lo + (hi - lo) * u;
}

void cli_fill(cli_tensor *t, cli_rng *r, double lo, double hi, const double *outliers,
              size_t n_outliers) {
    for (size_t i = 0; i < t->n; i++) cli_set(t->dtype, t->data, i, cli_rng_uniform(r, lo, hi));
    cli_mix_outliers(t, r, outliers, n_outliers);
}

void cli_mix_outliers(cli_tensor *t, cli_rng *r, const double *outliers, size_t n_outliers) {
    if (n_outliers == 0 || t->n == 0) return;
    /* every outlier at least once (when it fits), then about one element in 16 */
    for (size_t k = 0; k < n_outliers && k < t->n; k++) {
        size_t at = (size_t)(cli_rng_next(r) % t->n);
        cli_set(t->dtype, t->data, at, outliers[k]);
    }
    for (size_t i = 0; i < t->n; i++)
        if (cli_rng_next(r) % 16 == 0)
            cli_set(t->dtype, t->data, i, outliers[cli_rng_next(r) % n_outliers]);
}
