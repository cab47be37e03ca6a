/*
 * The caller's floating-point environment must not change results: a rounding mode other than
 * nearest, and on x86 FTZ/DAZ (set by programs linked with -ffast-math), are set aside for the
 * call and restored afterwards. Expected values are worked out in double in the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <fenv.h>

#include "selugrad/selugrad.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

enum { N = 4096 };

/* Subnormal and tie-prone inputs: every result depends on subnormals or on the rounding mode. */
static void fill(float *g, float *o, float *expect) {
    const double scale = 1.0507009873554804934193349852946; /* rounded to float below */
    const float scale_f = (float)scale;
    for (int i = 0; i < N; i++) {
        uint32_t bits = 0x00000001u + (uint32_t)i * 977u; /* subnormal g */
        memcpy(&g[i], &bits, 4);
        o[i] = (float)(i % 7) + 0.5f;                        /* o > 0: y = round(g * scale) */
        expect[i] = (float)((double)g[i] * (double)scale_f); /* exact product, one rounding */
    }
}

static void check(const float *y, const float *expect) {
    for (int i = 0; i < N; i++) {
        uint32_t a, b;
        memcpy(&a, &y[i], 4);
        memcpy(&b, &expect[i], 4);
        assert_int_equal(a, b);
    }
}

static void test_rounding_mode_ignored(void **state) {
    (void)state;
    static float g[N], o[N], y[N], expect[N];
    fill(g, o, expect); /* expectations computed under round-to-nearest */
    assert_int_equal(fesetround(FE_UPWARD), 0);
    selugrad_status st = selugrad_backward(SELUGRAD_FLOAT, N, g, o, y);
    int mode = fegetround();
    fesetround(FE_TONEAREST);
    assert_int_equal(st, SELUGRAD_OK);
    assert_int_equal(mode, FE_UPWARD); /* the caller's mode is restored */
    check(y, expect);
}

static void test_ftz_daz_ignored(void **state) {
    (void)state;
#if defined(__x86_64__)
    static float g[N], o[N], y[N], expect[N];
    fill(g, o, expect);
    unsigned int saved = _mm_getcsr();
    _mm_setcsr(saved | 0x8040u); /* FTZ | DAZ */
    selugrad_status st = selugrad_backward(SELUGRAD_FLOAT, N, g, o, y);
    unsigned int after = _mm_getcsr();
    _mm_setcsr(saved);
    assert_int_equal(st, SELUGRAD_OK);
    assert_int_equal(after & 0x8040u, 0x8040u); /* restored */
    check(y, expect);
#else
    skip();
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounding_mode_ignored),
        cmocka_unit_test(test_ftz_daz_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
