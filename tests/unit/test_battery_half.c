/*
 * float16 and bfloat16: every one of the 65,536 o patterns against 64 g values (signed zeros,
 * infinities, NaNs, subnormals, the largest finite, ...), and every g pattern against 32 o values,
 * through every kernel variant and through selugrad_backward with 1, 2, 3 and 7 threads, against
 * the golden (tests/model). NaN results must be exactly the canonical quiet NaN.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "battery/harness.h"
#include "model/golden.h"

enum { ALL = 65536, PICKED = 64, PICKED_O = 32 };

/* 64 values of the format: the edge values below, then seeded random patterns. */
static void picked_values(selugrad_dtype dt, uint16_t out[PICKED]) {
    static const uint16_t f16_edges[] = {
        0x0000, 0x8000, 0x7C00, 0xFC00, /* +-0, +-inf */
        0x7E00, 0xFE00, 0x7C01, 0x7FFF, /* NaNs: quiet, negative, signalling, all payload */
        0x0001, 0x8001, 0x03FF, 0x83FF, 0x0200, 0x8155, /* subnormals */
        0x0400, 0x8400, 0x7BFF, 0xFBFF,                 /* smallest normal, largest finite */
        0x3C00, 0xBC00, 0x3800, 0xB800, 0x4000, 0xC000, 0x3BFF, 0x3C01, /* around 1 */
        0xBB33, 0x3400, 0x3C34, 0x3F08, 0xBF08, 0xBF07, 0xBF09,         /* contract values, +-SA */
        0x7800, 0xF800, 0x7A00, 0x1400, 0x9400, 0x0C00, 0x5BFF, 0xDBFF, /* large / small */
    };
    static const uint16_t bf16_edges[] = {
        0x0000, 0x8000, 0x7F80, 0xFF80,                 /* +-0, +-inf */
        0x7FC0, 0xFFC0, 0x7F81, 0x7FFF,                 /* NaNs */
        0x0001, 0x8001, 0x007F, 0x807F, 0x0040, 0x8055, /* subnormals */
        0x0080, 0x8080, 0x7F7F, 0xFF7F,                 /* smallest normal, largest finite */
        0x3F80, 0xBF80, 0x3F00, 0xBF00, 0x4000, 0xC000, 0x3F7F, 0x3F81, /* around 1 */
        0x3E9A, 0xBF33, 0x3F86, 0x3FE1, 0xBFE1, 0xBFE0, 0xBFE2,         /* contract values, +-SA */
        0x7F00, 0xFF00, 0x7E80, 0x0100, 0x8100, 0x2000, 0x5F7F, 0xDF7F, /* large / small */
    };
    const uint16_t *edges = dt == SELUGRAD_FLOAT16 ? f16_edges : bf16_edges;
    size_t ne = sizeof f16_edges / sizeof f16_edges[0];
    uint64_t s = 2026;
    for (size_t i = 0; i < PICKED; i++) out[i] = i < ne ? edges[i] : (uint16_t)bt_rand(&s);
}

/* vary_o: all o against the picked g values; else all g against the picked o values. */
static void sweep(selugrad_dtype dt, int vary_o) {
    const size_t np = vary_o ? PICKED : PICKED_O, n = (size_t)ALL * np;
    uint16_t picked[PICKED];
    uint16_t *g = bt_alloc(n * 2), *o = bt_alloc(n * 2), *e = bt_alloc(n * 2);
    picked_values(dt, picked);
    for (size_t k = 0; k < np; k++) {
        for (size_t v = 0; v < ALL; v++) {
            size_t i = k * ALL + v;
            g[i] = vary_o ? picked[k] : (uint16_t)v;
            o[i] = vary_o ? (uint16_t)v : picked[k];
        }
    }
    gm_selugrad_array(dt, n, g, o, e);
    const char *what = vary_o ? "every o x 64 g" : "every g x 32 o";
    assert_int_equal(bt_check_all(dt, n, g, o, e, what, 1), 0);
    free(g);
    free(o);
    free(e);
}

static void test_f16_every_o(void **state) {
    (void)state;
    sweep(SELUGRAD_FLOAT16, 1);
}

static void test_f16_every_g(void **state) {
    (void)state;
    sweep(SELUGRAD_FLOAT16, 0);
}

static void test_bf16_every_o(void **state) {
    (void)state;
    sweep(SELUGRAD_BF16, 1);
}

static void test_bf16_every_g(void **state) {
    (void)state;
    sweep(SELUGRAD_BF16, 0);
}

/* The NaN and special results spelled out, independent of the golden. */
static void test_specials_by_hand(void **state) {
    (void)state;
    /* g NaN (any sign/payload) -> 7E00; 0 * -inf -> 7E00; o NaN -> g * scale; -0.0 -> scale;
       inf * scale -> inf; 65504 * scale -> inf; 2^-24 * scale -> 2^-24 (subnormal kept). */
    const uint16_t g[8] = {0xFE01, 0x0000, 0x3C00, 0x3C00, 0xFC00, 0x7BFF, 0x0001, 0x7D00};
    const uint16_t o[8] = {0xBC00, 0xFC00, 0xFE00, 0x8000, 0x3C00, 0x0000, 0x0000, 0xFC00};
    const uint16_t want[8] = {0x7E00, 0x7E00, 0x3C34, 0x3C34, 0xFC00, 0x7C00, 0x0001, 0x7E00};
    assert_int_equal(bt_check_all(SELUGRAD_FLOAT16, 8, g, o, want, "specials by hand", 0), 0);
    const uint16_t bg[8] = {0xFF81, 0x8000, 0x3F80, 0x3F80, 0xFF80, 0x7F7F, 0x0001, 0x7FA0};
    const uint16_t bo[8] = {0xBF80, 0xFF80, 0xFFC0, 0x8000, 0x3F80, 0x0000, 0x0000, 0xFF80};
    const uint16_t bwant[8] = {0x7FC0, 0x7FC0, 0x3F86, 0x3F86, 0xFF80, 0x7F80, 0x0001, 0x7FC0};
    assert_int_equal(bt_check_all(SELUGRAD_BF16, 8, bg, bo, bwant, "specials by hand", 0), 0);
}

static int teardown(void **state) {
    (void)state;
    bt_print_summary("test_battery_half");
    return 0;
}

int main(int argc, char **argv) {
    int rc = bt_parse_args(argc, argv);
    if (rc != 0) return rc;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_every_o),      cmocka_unit_test(test_f16_every_g),
        cmocka_unit_test(test_bf16_every_o),     cmocka_unit_test(test_bf16_every_g),
        cmocka_unit_test(test_specials_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
