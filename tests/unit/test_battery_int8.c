/*
 * int8 and uint8: all 65,536 (g, o) pairs, through every kernel variant and through
 * selugrad_backward with 1, 2, 3 and 7 threads, against the golden (tests/model).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "battery/harness.h"
#include "model/golden.h"

enum { PAIRS = 65536 };

/* All pairs: g is the high byte of the index, o the low byte, as raw bytes of the dtype. */
static void all_pairs(selugrad_dtype dt) {
    uint8_t *g = bt_alloc(PAIRS), *o = bt_alloc(PAIRS), *e = bt_alloc(PAIRS);
    for (uint32_t i = 0; i < PAIRS; i++) {
        g[i] = (uint8_t)(i >> 8);
        o[i] = (uint8_t)i;
    }
    gm_selugrad_array(dt, PAIRS, g, o, e);
    assert_int_equal(bt_check_all(dt, PAIRS, g, o, e, "all (g, o) pairs", 1), 0);
    free(g);
    free(o);
    free(e);
}

static void test_s8_all_pairs(void **state) {
    (void)state;
    all_pairs(SELUGRAD_INT8);
}

static void test_u8_all_pairs(void **state) {
    (void)state;
    all_pairs(SELUGRAD_UINT8);
}

/* A few values worked out by hand, so that the golden's integer path is pinned too. */
static void test_hand_values(void **state) {
    (void)state;
    /* int8: (-128, -128): t = -126.2421875 -> fp16 -126.25; y = 16160 -> saturates to 127.
       (-128, 0): -134.5 -> fp16 -134.5 -> -134 (even) -> -128. (5, -1): 3.7890625 -> 4.
       (2, -1): 1.515625 -> 2. (-2, -2): 0.484375 -> 0. (3, 0): 3.15234375 -> 3. */
    const int8_t g[6] = {-128, -128, 5, 2, -2, 3}, o[6] = {-128, 0, -1, -1, -2, 0};
    const int8_t want[6] = {127, -128, 4, 2, 0, 3};
    assert_int_equal(bt_check_all(SELUGRAD_INT8, 6, g, o, want, "hand values", 0), 0);
    /* uint8: (255, x) -> 267.95 -> 255; (2, 7): 2.1015625 -> 2; (200, 0): 210.15625 -> fp16 210.125
     * -> 210. */
    const uint8_t ug[3] = {255, 2, 200}, uo[3] = {9, 7, 0}, uwant[3] = {255, 2, 210};
    assert_int_equal(bt_check_all(SELUGRAD_UINT8, 3, ug, uo, uwant, "hand values", 0), 0);
}

static int teardown(void **state) {
    (void)state;
    bt_print_summary("test_battery_int8");
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s8_all_pairs),
        cmocka_unit_test(test_u8_all_pairs),
        cmocka_unit_test(test_hand_values),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
