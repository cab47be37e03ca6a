/* docs/contract.md, "Reference values", each exact, through selugrad_backward. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "selugrad/selugrad.h"

static const float spec_o[7] = {-2, -1, -0.5f, 0, 0.5f, 1, 3};

static void test_f32_values(void **state) {
    (void)state;
    /* Expected values: the float32 nearest to each reference value, i.e. round(o + SA) (g = 1) or
       scale, with SA = 0x3FE10966 and scale = 0x3F867D5F (worked out in double precision). */
    const uint32_t expect[7] = {0xBE77B4D0u, 0x3F4212CCu, 0x3FA10966u, 0x3F867D5Fu,
                                0x3F867D5Fu, 0x3F867D5Fu, 0x3F867D5Fu};
    float g[7], y[7];
    for (int i = 0; i < 7; i++) g[i] = 1.0f;
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, 7, g, spec_o, y), SELUGRAD_OK);
    for (int i = 0; i < 7; i++) {
        uint32_t bits;
        memcpy(&bits, &y[i], 4);
        assert_int_equal(bits, expect[i]);
    }
}

static void test_f16_values(void **state) {
    (void)state;
    /* o in fp16: -2 C000, -1 BC00, -0.5 B800, 0 0000, 0.5 3800, 1 3C00, 3 4200; g = 1 (3C00).
       Expected: -0.2421875 B3C0, 0.7578125 3A10, 1.2578125 3D08, 1.05078125 3C34. */
    const uint16_t o[7] = {0xC000, 0xBC00, 0xB800, 0x0000, 0x3800, 0x3C00, 0x4200};
    const uint16_t expect[7] = {0xB3C0, 0x3A10, 0x3D08, 0x3C34, 0x3C34, 0x3C34, 0x3C34};
    uint16_t g[7], y[7];
    for (int i = 0; i < 7; i++) g[i] = 0x3C00;
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT16, 7, g, o, y), SELUGRAD_OK);
    for (int i = 0; i < 7; i++) assert_int_equal(y[i], expect[i]);
    /* g = -0.89990234 (BB33), o = 0.25 (3400) -> -0.94580078 (BB91) */
    uint16_t g1 = 0xBB33, o1 = 0x3400, y1;
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT16, 1, &g1, &o1, &y1), SELUGRAD_OK);
    assert_int_equal(y1, 0xBB91);
}

static void test_bf16_values(void **state) {
    (void)state;
    const uint16_t o[7] = {0xC000, 0xBF80, 0xBF00, 0x0000, 0x3F00, 0x3F80, 0x4040};
    /* -0.2421875 BE78, 0.7578125 3F42, 1.2578125 3FA1, 1.046875 3F86 */
    const uint16_t expect[7] = {0xBE78, 0x3F42, 0x3FA1, 0x3F86, 0x3F86, 0x3F86, 0x3F86};
    uint16_t g[7], y[7];
    for (int i = 0; i < 7; i++) g[i] = 0x3F80;
    assert_int_equal(selugrad_backward(SELUGRAD_BF16, 7, g, o, y), SELUGRAD_OK);
    for (int i = 0; i < 7; i++) assert_int_equal(y[i], expect[i]);
    /* g = 0.30078125 (3E9A), o = -0.69921875 (BF33) -> 0.3203125 (3EA4) */
    uint16_t g1 = 0x3E9A, o1 = 0xBF33, y1;
    assert_int_equal(selugrad_backward(SELUGRAD_BF16, 1, &g1, &o1, &y1), SELUGRAD_OK);
    assert_int_equal(y1, 0x3EA4);
}

static void test_int8_values(void **state) {
    (void)state;
    const int8_t g[8] = {1, 1, 1, 10, 10, -3, 127, 100};
    const int8_t o[8] = {-2, -1, 0, 5, -1, -1, 3, -5};
    const int8_t expect[8] = {0, 1, 1, 11, 8, -2, 127, -128};
    int8_t y[8];
    assert_int_equal(selugrad_backward(SELUGRAD_INT8, 8, g, o, y), SELUGRAD_OK);
    for (int i = 0; i < 8; i++) assert_int_equal(y[i], expect[i]);
}

static void test_int32_values(void **state) {
    (void)state;
    const int32_t g[7] = {1, 1, 10, 10, 127, 2, 100};
    const int32_t o[7] = {-1, 0, 5, -1, 3, -1, -5};
    const int32_t expect[7] = {0, 1, 10, 7, 133, 1, -324};
    int32_t y[7];
    assert_int_equal(selugrad_backward(SELUGRAD_INT32, 7, g, o, y), SELUGRAD_OK);
    for (int i = 0; i < 7; i++) assert_int_equal(y[i], expect[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_values),   cmocka_unit_test(test_f16_values),
        cmocka_unit_test(test_bf16_values),  cmocka_unit_test(test_int8_values),
        cmocka_unit_test(test_int32_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
