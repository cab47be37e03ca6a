/* The forward's golden model; see selu_golden.h. Pure double arithmetic, no float operations. */
#include "selu_golden.h"

#include <math.h>
#include <string.h>

#include "selugrad/selugrad.h" /* only for the dtype enum values */

enum { GS_ALPHA = 0x3FD62D7D, GS_SCALE = 0x3F867D5F, GS_F16_SCALE = 0x3C34, GS_F16_SA = 0x3F08 };

uint32_t gs_exp_cr(uint32_t x) {
    return gm_bits(gm_round(exp(gm_value(x, gm_f32)), gm_f32), gm_f32);
}

/* x to fmt's precision with the significand rounded by mode: 0 nearest-away, 1 toward zero. */
static double gs_round_mode(double x, gm_fmt f, int mode) {
    if (x == 0.0 || isnan(x) || isinf(x)) return x;
    int bias = (1 << (f.ebits - 1)) - 1, emin = 1 - bias;
    int e;
    (void)frexp(fabs(x), &e);
    int ex = e - 1 > emin ? e - 1 : emin;
    int quantum = ex - (f.prec - 1);
    double s = ldexp(fabs(x), -quantum);
    double whole = floor(s), frac = s - whole;
    if (mode == 0 && frac >= 0.5) whole += 1.0;
    double r = ldexp(whole, quantum);
    double max_finite = ldexp(2.0 - ldexp(1.0, 1 - f.prec), bias);
    if (r > max_finite) r = mode == 0 ? INFINITY : max_finite;
    return x < 0 ? -r : r;
}

double gm_round_away(double x, gm_fmt f) {
    return gs_round_mode(x, f, 0);
}

/* The float32 steps on an fp32 value (NaN: NaN). */
static double gs_steps(double x, gs_exp_fn ex) {
    if (isnan(x)) return NAN;
    double a = gm_value(GS_ALPHA, gm_f32), s = gm_value(GS_SCALE, gm_f32);
    double m = x < 0.0 ? x : 0.0;
    double e = gm_value(ex(gm_bits(m, gm_f32)), gm_f32);
    double t = gm_round(e - 1.0, gm_f32);
    t = gm_round(t * a, gm_f32);
    t = t < 0.0 ? t : 0.0;
    double p = x > 0.0 ? x : 0.0;
    return gm_round(gm_round(p + t, gm_f32) * s, gm_f32);
}

uint32_t gs_selu_f32(uint32_t x, gs_exp_fn ex) {
    return gm_bits(gs_steps(gm_value(x, gm_f32), ex), gm_f32);
}

uint16_t gs_selu_f16(uint16_t x, gs_exp_fn ex) {
    double y = gs_steps(gm_value(x, gm_f16), ex);
    return (uint16_t)gm_bits(isnan(y) ? y : gm_round_away(y, gm_f16), gm_f16);
}

uint16_t gs_selu_bf16(uint16_t x, gs_exp_fn ex) {
    double y = gs_steps(gm_value(x, gm_bf16), ex);
    return (uint16_t)gm_bits(isnan(y) ? y : gm_round_away(y, gm_bf16), gm_bf16);
}

int32_t gs_selu_s32(int32_t x, gs_exp_fn ex) {
    double y = gs_steps(gm_round((double)x, gm_f32), ex);
    double t = trunc(y);
    if (t >= 2147483647.0) return INT32_MAX;
    if (t <= -2147483648.0) return INT32_MIN;
    return (int32_t)t;
}

int8_t gs_selu_s8(int8_t x, gs_exp_fn ex) {
    double xv = (double)x; /* exact in fp16 */
    double s16 = gm_value(GS_F16_SCALE, gm_f16), sa16 = gm_value(GS_F16_SA, gm_f16);
    double pos = gs_round_mode((xv > 0.0 ? xv : 0.0) * s16, gm_f16, 1);
    double e = gm_value(ex(gm_bits(xv < 0.0 ? xv : 0.0, gm_f32)), gm_f32);
    double e16 = gm_round(e, gm_f16);
    double neg = ceil(gm_round(gm_round(e16 - 1.0, gm_f16) * sa16, gm_f16));
    double v = trunc(gm_round(pos + neg, gm_f16));
    long iv = (long)v;
    return (int8_t)(iv >= 128 ? iv - 256 : iv);
}

int gs_selu_array(int dtype, size_t n, const void *x, void *expect, gs_exp_fn ex) {
    for (size_t i = 0; i < n; i++) {
        switch (dtype) {
        case SELUGRAD_FLOAT: {
            uint32_t a, r;
            memcpy(&a, (const char *)x + 4 * i, 4);
            r = gs_selu_f32(a, ex);
            memcpy((char *)expect + 4 * i, &r, 4);
            break;
        }
        case SELUGRAD_INT32: {
            int32_t a, r;
            memcpy(&a, (const char *)x + 4 * i, 4);
            r = gs_selu_s32(a, ex);
            memcpy((char *)expect + 4 * i, &r, 4);
            break;
        }
        case SELUGRAD_FLOAT16:
        case SELUGRAD_BF16: {
            uint16_t a, r;
            memcpy(&a, (const char *)x + 2 * i, 2);
            r = dtype == SELUGRAD_FLOAT16 ? gs_selu_f16(a, ex) : gs_selu_bf16(a, ex);
            memcpy((char *)expect + 2 * i, &r, 2);
            break;
        }
        case SELUGRAD_INT8:
            ((int8_t *)expect)[i] = gs_selu_s8(((const int8_t *)x)[i], ex);
            break;
        default:
            return 0;
        }
    }
    return 1;
}

double gs_selu_f64(int dtype, const void *x, size_t i) {
    switch (dtype) {
    case SELUGRAD_FLOAT:
    case SELUGRAD_FLOAT16:
    case SELUGRAD_BF16: {
        double v = gm_element(dtype, x, i);
        if (isnan(v)) return v;
        double a = gm_value(GS_ALPHA, gm_f32), s = gm_value(GS_SCALE, gm_f32);
        double p = v > 0.0 ? v : 0.0, t = a * expm1(v);
        t = t < 0.0 ? t : 0.0;
        return s * (p + t);
    }
    case SELUGRAD_INT32: {
        int32_t v;
        memcpy(&v, (const char *)x + 4 * i, 4);
        return (double)gs_selu_s32(v, gs_exp_cr);
    }
    case SELUGRAD_INT8:
        return (double)gs_selu_s8(((const int8_t *)x)[i], gs_exp_cr);
    default:
        return 0.0;
    }
}
