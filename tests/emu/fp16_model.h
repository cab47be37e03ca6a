/*
 * The model the emulated AVX512-FP16 instructions (fp16_emu_scalar.h) are checked against, sharing
 * no code with them: values decoded and rounded to binary16 by the golden (tests/model: its own
 * round-half-even, subnormals kept, inf beyond the largest finite), arithmetic in double (exact
 * for the sum or product of two binary16 values), for a * b + c a double sum made exact by TwoSum
 * and rounded to odd before the golden's rounding (53 >= 11 + 2 bits, so that rounding is the
 * correct one), the C library's nearbyint for VCVTPH2W (the default rounding mode: nearest, ties
 * to even), and the SDM's NaN rules restated: the first NaN operand quieted, else the default
 * QNaN 0xFE00 for an invalid operation.
 */
#ifndef SELUGRAD_TESTS_EMU_FP16_MODEL_H
#define SELUGRAD_TESTS_EMU_FP16_MODEL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/golden.h"

static inline double val(uint16_t a) {
    return gm_value(a, gm_f16);
}

static inline int m_isnan(uint16_t a) {
    return isnan(val(a));
}

/* A result computed in double as binary16: NaN (an invalid operation) is the default QNaN. */
static inline uint16_t m_bits(double r) {
    return isnan(r) ? (uint16_t)0xFE00 : (uint16_t)gm_bits(gm_round(r, gm_f16), gm_f16);
}

/* The first NaN operand, quieted (bit 9 set), where there is one: 1 and *r, else 0. */
static inline int m_nan(const uint16_t *ops, int n, uint16_t *r) {
    for (int i = 0; i < n; i++)
        if (m_isnan(ops[i])) {
            *r = (uint16_t)(ops[i] | 0x0200);
            return 1;
        }
    return 0;
}

static inline uint16_t m_add(uint16_t a, uint16_t b) {
    uint16_t ops[2] = {a, b}, r;
    return m_nan(ops, 2, &r) ? r : m_bits(val(a) + val(b));
}

static inline uint16_t m_mul(uint16_t a, uint16_t b) {
    uint16_t ops[2] = {a, b}, r;
    return m_nan(ops, 2, &r) ? r : m_bits(val(a) * val(b));
}

/* a * b + c: the product is exact in double; the sum s plus its error e (TwoSum) is exact; s
   moved one ulp toward e when e != 0 and s is even is the sum rounded to odd at 53 bits. */
static inline uint16_t m_fma(uint16_t a, uint16_t b, uint16_t c) {
    uint16_t ops[3] = {a, b, c}, r;
    if (m_nan(ops, 3, &r)) return r;
    double p = val(a) * val(b), z = val(c);
    double s = p + z;
    if (isnan(s) || isinf(s)) return m_bits(s);
    double bb = s - p;
    double e = (p - (s - bb)) + (z - bb);
    uint64_t sb;
    memcpy(&sb, &s, sizeof sb);
    if (e != 0.0 && (sb & 1u) == 0) s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
    return m_bits(s);
}

static inline uint16_t m_cvtw2ph(int16_t v) {
    return m_bits((double)v);
}

static inline int16_t m_cvtph2w(uint16_t a) {
    double v = val(a);
    if (isnan(v) || isinf(v)) return INT16_MIN;
    double r = nearbyint(v);
    return r < -32768.0 || r > 32767.0 ? INT16_MIN : (int16_t)r;
}

#endif /* SELUGRAD_TESTS_EMU_FP16_MODEL_H */
