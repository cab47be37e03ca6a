/*
 * The gradient check that ties the two operators together (the forward and SeluGrad, both through
 * the public native API):
 *
 * 1. float32: for 100,000 random x with 0.01 <= |x| <= 8 and weights w in [-2, 2], the float64
 *    central difference of L(x) = sum(w * selu(x)) (step 2^-20, float64 selu with expm1) against
 *    SeluGrad(w, selu(x)) computed in fp32 from the forward's fp32 output. Bound per element:
 *    |w| * (|o| + SA) * 2^-21 + 2^-24 * |y| + 1e-9: the forward's o is off by a few ulps of its
 *    fp32 value (the exponential's one ulp, then t, the product), o + SA adds half an ulp of the
 *    operands' scale and the product half an ulp of y; 1e-9 covers the central difference's
 *    truncation (h^2 * selu''' / 6 < 1e-12) and rounding (2^-52 / h < 1e-9).
 * 2. float16: for every finite fp16 x != 0, SeluGrad(1, fp16 selu(x)) against the analytic
 *    derivative d(x) = S * A * exp(x) (x < 0) or S (x > 0). Bound: ulp16(o) / 2 (o rounded to
 *    fp16) + |SA16 - SA| (fp16's scale * alpha, 2.87e-4 off) + ulp16(y) / 2 (the result rounded)
 *    + 2^-20 (the fp32 steps before the rounding), and |S16 - S| + ulp16(y) / 2 for x > 0. Where
 *    the exponential saturates (x <= -7.73), o rounds to -SA16 exactly, o + SA16 is 0 and the
 *    result keeps no digit of d(x): the absolute bound still holds, the relative error is 100 %,
 *    and the test counts those inputs and prints the count.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "selugrad/selugrad.h"

static const double ALPHA = 1.6732632423543772848170429916717;
static const double SCALE = 1.0507009873554804934193349852946;

static double selu64(double x) {
    return x > 0 ? SCALE * x : SCALE * ALPHA * expm1(x);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double uniform(void) { /* [0, 1) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

static void test_f32_central_difference(void **state) {
    (void)state;
    enum { N = 100000 };
    float *x = malloc(N * 4), *w = malloc(N * 4), *o = malloc(N * 4), *y = malloc(N * 4);
    assert_non_null(x);
    assert_non_null(w);
    assert_non_null(o);
    assert_non_null(y);
    for (size_t i = 0; i < N; i++) {
        double mag = 0.01 * pow(800.0, uniform()); /* 0.01 .. 8, log-uniform */
        x[i] = (float)(uniform() < 0.5 ? -mag : mag);
        w[i] = (float)(4.0 * uniform() - 2.0);
    }
    assert_int_equal(selugrad_forward(SELUGRAD_FLOAT, N, x, o), SELUGRAD_OK);
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, N, w, o, y), SELUGRAD_OK);
    const double h = 0x1p-20, sa = SCALE * ALPHA;
    double worst = 0.0, worst_rel = 0.0;
    for (size_t i = 0; i < N; i++) {
        double xi = x[i];
        double fd = (double)w[i] * (selu64(xi + h) - selu64(xi - h)) / (2.0 * h);
        double bound = fabs((double)w[i]) * (fabs((double)o[i]) + sa) * 0x1p-21 +
                       0x1p-24 * fabs((double)y[i]) + 1e-9;
        double err = fabs((double)y[i] - fd);
        if (err > bound)
            fail_msg("x %a w %a: SeluGrad %a, central difference %a, error %g > bound %g",
                     (double)x[i], (double)w[i], (double)y[i], fd, err, bound);
        worst = err / bound > worst ? err / bound : worst;
        double rel = err / fabs(fd);
        worst_rel = rel > worst_rel ? rel : worst_rel;
    }
    printf("f32 gradient check: %d points, largest error %.3f of its bound, largest relative "
           "error %.3g\n",
           N, worst, worst_rel);
    free(x);
    free(w);
    free(o);
    free(y);
}

/* The fp16 ulp at |v| (2^-24 for subnormals). */
static double ulp16(double v) {
    int e;
    frexp(fabs(v), &e); /* |v| = m * 2^e, m in [0.5, 1) */
    return e - 1 < -14 ? 0x1p-24 : ldexp(1.0, e - 1 - 10);
}

static void test_f16_every_input(void **state) {
    (void)state;
    uint16_t *x = malloc(65536 * 2), *o = malloc(65536 * 2), *g = malloc(65536 * 2),
             *y = malloc(65536 * 2);
    assert_non_null(x);
    assert_non_null(o);
    assert_non_null(g);
    assert_non_null(y);
    for (uint32_t v = 0; v < 65536; v++) x[v] = (uint16_t)v, g[v] = 0x3C00; /* g = 1 */
    assert_int_equal(selugrad_forward(SELUGRAD_FLOAT16, 65536, x, o), SELUGRAD_OK);
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT16, 65536, g, o, y), SELUGRAD_OK);
    const double sa = SCALE * ALPHA;
    const double sa16 = selugrad_f16_to_f32(selugrad_f32_to_f16((float)sa)); /* 1.7578125 */
    const double s16 = selugrad_f16_to_f32(selugrad_f32_to_f16((float)SCALE));
    assert_true(sa16 == 1.7578125 && s16 == 1.05078125);
    size_t checked = 0, no_digits = 0;
    double worst = 0.0, worst_rel = 0.0, worst_rel_x = 0.0, no_digits_from = -INFINITY;
    for (uint32_t v = 0; v < 65536; v++) {
        double xv = selugrad_f16_to_f32(x[v]), ov = selugrad_f16_to_f32(o[v]);
        double yv = selugrad_f16_to_f32(y[v]);
        if (!isfinite(xv) || xv == 0.0) continue;
        double d = xv > 0 ? SCALE : sa * exp(xv);
        double bound = xv > 0 ? fabs(s16 - SCALE) + ulp16(yv) / 2
                              : ulp16(ov) / 2 + fabs(sa16 - sa) + ulp16(yv) / 2 + 0x1p-20;
        double err = fabs(yv - d);
        if (err > bound)
            fail_msg("x %a: o %a, SeluGrad %a, derivative %a, error %g > bound %g", xv, ov, yv, d,
                     err, bound);
        checked++;
        worst = err / bound > worst ? err / bound : worst;
        if (xv < 0 && yv == 0.0) {
            no_digits++; /* o + SA16 cancelled to 0: the exponential saturated */
            no_digits_from = xv > no_digits_from ? xv : no_digits_from;
            assert_true(ov == -sa16);
            continue;
        }
        if (err / d > worst_rel) worst_rel = err / d, worst_rel_x = xv;
    }
    printf("f16 gradient check: %zu inputs, largest error %.3f of its bound; %zu negative inputs "
           "(the largest x %g) give 0 where the derivative is 1.76 * exp(x) > 0: o + SA keeps no "
           "digit; "
           "elsewhere the largest relative error is %.3g (x = %g)\n",
           checked, worst, no_digits, no_digits_from, worst_rel, worst_rel_x);
    assert_true(checked > 60000);
    assert_true(no_digits > 0);
    free(x);
    free(o);
    free(g);
    free(y);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_central_difference),
        cmocka_unit_test(test_f16_every_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
