/* The golden model; see golden.h. Pure double arithmetic, no float operations. */
#include "golden.h"

#include <math.h>
#include <string.h>

#include "selugrad/selugrad.h" /* only for the dtype enum values */

const gm_fmt gm_f32 = {24, 8}, gm_f16 = {11, 5}, gm_bf16 = {8, 8};

static int gm_bias(gm_fmt f) {
    return (1 << (f.ebits - 1)) - 1;
}

/* 2^k for |k| < 1023, built from its bits: exact, and faster than ldexp (this is the hot path of
   the battery's expected values). Scaling by it is exact for every value the model meets. */
static double gm_pow2(int k) {
    uint64_t u = (uint64_t)(1023 + k) << 52;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* The unbiased binary exponent of a finite, non-zero x that is a normal double (every value the
   model meets: products of two fp32 values lie within 2^-298 .. 2^256), from its bits. */
static int gm_exponent(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (int)((u >> 52) & 0x7FFu) - 1023;
}

double gm_round(double x, gm_fmt f) {
    if (x == 0.0 || isnan(x) || isinf(x)) return x;
    int emin = 1 - gm_bias(f), emax = gm_bias(f);
    double a = fabs(x);
    int e = gm_exponent(a);
    int exp = e > emin ? e : emin;    /* subnormals share emin's quantum */
    int quantum = exp - (f.prec - 1); /* weight of the last significand bit */
    double s = a * gm_pow2(-quantum); /* significand as a real number, < 2^prec */
    uint64_t whole = (uint64_t)s;     /* truncation: s >= 0 */
    double frac = s - (double)whole;  /* exact: s < 2^53 */
    if (frac > 0.5 || (frac == 0.5 && (whole & 1u))) whole += 1;
    double r = (double)whole * gm_pow2(quantum);
    double max_finite = (2.0 - gm_pow2(1 - f.prec)) * gm_pow2(emax);
    if (r > max_finite) r = INFINITY;
    return x < 0 ? -r : r;
}

double gm_value(uint32_t bits, gm_fmt f) {
    int mbits = f.prec - 1;
    uint32_t sign = (bits >> (mbits + f.ebits)) & 1u;
    uint32_t e = (bits >> mbits) & ((1u << f.ebits) - 1u);
    uint32_t m = bits & ((1u << mbits) - 1u);
    double v;
    if (e == (1u << f.ebits) - 1u)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = (double)m * gm_pow2(1 - gm_bias(f) - mbits);
    else
        v = ((double)m + gm_pow2(mbits)) * gm_pow2((int)e - gm_bias(f) - mbits);
    return sign ? -v : v;
}

uint32_t gm_bits(double v, gm_fmt f) {
    int mbits = f.prec - 1;
    uint32_t emask = (1u << f.ebits) - 1u;
    if (isnan(v)) return (emask << mbits) | (1u << (mbits - 1)); /* canonical: +, quiet bit */
    uint32_t sign = signbit(v) ? 1u << (mbits + f.ebits) : 0u;
    double a = fabs(v);
    if (isinf(a)) return sign | (emask << mbits);
    if (a == 0.0) return sign;
    int e = gm_exponent(a);
    int emin = 1 - gm_bias(f);
    if (e < emin) /* subnormal: the significand counts units of 2^(emin - mbits) */
        return sign | (uint32_t)(a * gm_pow2(mbits - emin));
    uint32_t field = (uint32_t)(e + gm_bias(f));
    uint32_t frac = (uint32_t)(a * gm_pow2(mbits - e) - gm_pow2(mbits));
    return sign | (field << mbits) | frac;
}

/* Constants of docs/contract.md, "Math", as bit patterns of each format. */
enum {
    GM_F32_SCALE = 0x3F867D5F,
    GM_F32_SA = 0x3FE10966,
    GM_F16_SCALE = 0x3C34,
    GM_F16_SA = 0x3F08,
    GM_BF16_SCALE = 0x3F86,
    GM_BF16_SA = 0x3FE1
};

/* The formula on values of fmt, every operation rounded to fmt: a NaN result stays NaN. */
static double gm_formula(double g, double o, gm_fmt f, uint32_t scale_bits, uint32_t sa_bits) {
    if (o < 0.0) {
        double t = gm_round(o + gm_value(sa_bits, f), f);
        return gm_round(g * t, f);
    }
    return gm_round(g * gm_value(scale_bits, f), f);
}

uint32_t gm_selugrad_f32(uint32_t g, uint32_t o) {
    double r =
        gm_formula(gm_value(g, gm_f32), gm_value(o, gm_f32), gm_f32, GM_F32_SCALE, GM_F32_SA);
    return gm_bits(r, gm_f32);
}

uint16_t gm_selugrad_f16(uint16_t g, uint16_t o) {
    double r =
        gm_formula(gm_value(g, gm_f16), gm_value(o, gm_f16), gm_f16, GM_F16_SCALE, GM_F16_SA);
    return (uint16_t)gm_bits(r, gm_f16);
}

uint16_t gm_selugrad_bf16(uint16_t g, uint16_t o) {
    double r =
        gm_formula(gm_value(g, gm_bf16), gm_value(o, gm_bf16), gm_bf16, GM_BF16_SCALE, GM_BF16_SA);
    return (uint16_t)gm_bits(r, gm_bf16);
}

int64_t gm_round_half_even_int(double x) {
    const int64_t unit = (int64_t)1 << 24;
    int64_t v = (int64_t)(x * 16777216.0); /* exact by the precondition */
    int64_t q = v / unit, rem = v % unit;  /* C truncates; make it a floor division */
    if (rem < 0) {
        q -= 1;
        rem += unit;
    }
    if (rem > unit / 2 || (rem == unit / 2 && (q % 2 != 0))) q += 1;
    return q;
}

/* int8 / uint8: exact in fp16, the fp16 formula, round half to even, saturate. */
static int64_t gm_small_int(int g, int o, int64_t lo, int64_t hi) {
    double r = gm_formula((double)g, (double)o, gm_f16, GM_F16_SCALE, GM_F16_SA);
    int64_t q = gm_round_half_even_int(r);
    return q < lo ? lo : (q > hi ? hi : q);
}

int8_t gm_selugrad_s8(int8_t g, int8_t o) {
    return (int8_t)gm_small_int(g, o, -128, 127);
}

uint8_t gm_selugrad_u8(uint8_t g, uint8_t o) {
    return (uint8_t)gm_small_int(g, o, 0, 255);
}

int32_t gm_selugrad_s32(int32_t g, int32_t o) {
    double gf = gm_round((double)g, gm_f32), of = gm_round((double)o, gm_f32);
    double r = gm_formula(gf, of, gm_f32, GM_F32_SCALE, GM_F32_SA);
    double tr = r < 0 ? ceil(r) : floor(r); /* toward zero */
    if (tr >= 2147483647.0) return INT32_MAX;
    if (tr <= -2147483648.0) return INT32_MIN;
    return (int32_t)tr;
}

int gm_selugrad_element(int dtype, const void *g, const void *o, void *y) {
    switch (dtype) {
    case SELUGRAD_FLOAT:
    case SELUGRAD_INT32: {
        uint32_t gb, ob, yb;
        memcpy(&gb, g, 4);
        memcpy(&ob, o, 4);
        if (dtype == SELUGRAD_FLOAT) {
            yb = gm_selugrad_f32(gb, ob);
        } else {
            int32_t gi, oi, r;
            memcpy(&gi, &gb, 4);
            memcpy(&oi, &ob, 4);
            r = gm_selugrad_s32(gi, oi);
            memcpy(&yb, &r, 4);
        }
        memcpy(y, &yb, 4);
        return 1;
    }
    case SELUGRAD_FLOAT16:
    case SELUGRAD_BF16: {
        uint16_t gb, ob, yb;
        memcpy(&gb, g, 2);
        memcpy(&ob, o, 2);
        yb = dtype == SELUGRAD_FLOAT16 ? gm_selugrad_f16(gb, ob) : gm_selugrad_bf16(gb, ob);
        memcpy(y, &yb, 2);
        return 1;
    }
    case SELUGRAD_INT8: {
        int8_t r = gm_selugrad_s8(*(const int8_t *)g, *(const int8_t *)o);
        memcpy(y, &r, 1);
        return 1;
    }
    case SELUGRAD_UINT8:
        *(uint8_t *)y = gm_selugrad_u8(*(const uint8_t *)g, *(const uint8_t *)o);
        return 1;
    default:
        return 0;
    }
}

/* Bytes per element of the six dtypes; 0 for any other value. */
static size_t gm_size(int dtype) {
    switch (dtype) {
    case SELUGRAD_FLOAT:
    case SELUGRAD_INT32:
        return 4;
    case SELUGRAD_FLOAT16:
    case SELUGRAD_BF16:
        return 2;
    case SELUGRAD_INT8:
    case SELUGRAD_UINT8:
        return 1;
    default:
        return 0;
    }
}

void gm_selugrad_array(int dtype, size_t n, const void *g, const void *o, void *expect) {
    size_t es = gm_size(dtype);
    const unsigned char *gp = g, *op = o;
    unsigned char *yp = expect;
    for (size_t i = 0; es && i < n; i++)
        gm_selugrad_element(dtype, gp + i * es, op + i * es, yp + i * es);
}

int gm_fmt_of(int dtype, gm_fmt *fmt) {
    switch (dtype) {
    case SELUGRAD_FLOAT:
        *fmt = gm_f32;
        return 1;
    case SELUGRAD_FLOAT16:
        *fmt = gm_f16;
        return 1;
    case SELUGRAD_BF16:
        *fmt = gm_bf16;
        return 1;
    default:
        return 0;
    }
}

double gm_element(int dtype, const void *data, size_t i) {
    const unsigned char *p = data;
    switch (dtype) {
    case SELUGRAD_FLOAT: {
        uint32_t b;
        memcpy(&b, p + 4 * i, 4);
        return gm_value(b, gm_f32);
    }
    case SELUGRAD_FLOAT16:
    case SELUGRAD_BF16: {
        uint16_t b;
        memcpy(&b, p + 2 * i, 2);
        return gm_value(b, dtype == SELUGRAD_FLOAT16 ? gm_f16 : gm_bf16);
    }
    case SELUGRAD_INT8:
        return (double)(int8_t)p[i];
    case SELUGRAD_UINT8:
        return (double)p[i];
    case SELUGRAD_INT32: {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        return (double)v;
    }
    default:
        return 0.0;
    }
}

double gm_selugrad_f64(int dtype, const void *g, const void *o, size_t i) {
    gm_fmt f;
    if (!gm_fmt_of(dtype, &f)) {
        unsigned char y[4];
        size_t es = gm_size(dtype);
        if (!gm_selugrad_element(dtype, (const unsigned char *)g + i * es,
                                 (const unsigned char *)o + i * es, y))
            return 0.0;
        return gm_element(dtype, y, 0);
    }
    uint32_t scale = dtype == SELUGRAD_FLOAT16 ? GM_F16_SCALE
                     : dtype == SELUGRAD_BF16  ? GM_BF16_SCALE
                                               : GM_F32_SCALE;
    uint32_t sa = dtype == SELUGRAD_FLOAT16 ? GM_F16_SA
                  : dtype == SELUGRAD_BF16  ? GM_BF16_SA
                                            : GM_F32_SA;
    double gv = gm_element(dtype, g, i), ov = gm_element(dtype, o, i);
    return ov < 0.0 ? gv * (ov + gm_value(sa, f)) : gv * gm_value(scale, f);
}
