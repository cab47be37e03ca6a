/*
 * float32 and int32: every pair of an edge list (signed zeros, infinities, NaNs, subnormals,
 * FLT_MAX, INT32_MIN/MAX, 2^24 +- 1, values around -SA, ...) and 10^6 seeded random pairs,
 * through every kernel variant and through selugrad_backward with 1, 2, 3 and 7 threads, against
 * the golden (tests/model). NaN results must be exactly 0x7FC00000.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "battery/harness.h"
#include "model/golden.h"

enum { RANDOM_PAIRS = 1000000 };

static const uint32_t f32_edges[] = {
    0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u,                           /* +-0, +-inf */
    0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFBFFFFFu, 0x7FFFFFFFu,              /* NaNs */
    0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x00400000u, 0x80000003u, /* subnormal */
    0x00800000u, 0x80800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, /* smallest normal, FLT_MAX */
    0x3F800000u, 0xBF800000u, 0x3F000000u, 0xBF000000u, 0x40000000u, 0xC0000000u, /* 1, .5, 2 */
    0x40400000u, 0xC0400000u, 0x3F7FFFFFu, 0xBF7FFFFFu, 0x3F800001u, 0xC2C80000u, /* 3, -100 */
    0x4B7FFFFFu, 0x4B800000u, 0x4B800001u, 0xCB7FFFFFu, 0xCB800001u, /* 2^24 - 1, 2^24, +2 */
    0x4F000000u, 0xCF000000u, 0x4EFFFFFFu, /* 2^31 (INT32_MAX rounded), INT32_MIN */
    0xBFE10966u, 0xBFE10965u, 0xBFE10967u, 0x3FE10966u, 0x3F867D5Fu, /* -SA and neighbours */
    0x0DA24260u, 0x8DA24260u, 0x7149F2CAu, 0xF149F2CAu, 0xFE967699u, /* 1e-30, 1e30, -1e38 */
    0x5F000000u, 0xDF000000u, 0x1F800000u, 0x9F800000u,              /* 2^63, 2^-64 */
};

static const int32_t s32_edges[] = {
    0,
    1,
    -1,
    2,
    -2,
    3,
    -3,
    -5,
    10,
    100,
    127,
    -128,
    255,
    1000,
    -1000,
    INT32_MIN,
    INT32_MIN + 1,
    INT32_MAX,
    INT32_MAX - 1,
    16777215,
    16777216,
    16777217,
    16777218,
    16777219, /* 2^24 +- 1: RNE to fp32 above 2^24 */
    -16777215,
    -16777216,
    -16777217,
    -16777219,
    33554431,
    33554433,
    2147483584,
    2147483583,
    2147483520,
    -2147483584,
    -2147483585,
    1000000000,
    -1000000000,
    46341,
    -46341,
    2043930000,
    -2043930000,
    65536,
    -65536,
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

static void run_pairs(selugrad_dtype dt, size_t n, const uint32_t *g, const uint32_t *o,
                      const char *what) {
    uint32_t *e = bt_alloc(n * 4);
    gm_selugrad_array(dt, n, g, o, e);
    assert_int_equal(bt_check_all(dt, n, g, o, e, what, n >= 100000), 0);
    free(e);
}

/* Every (g, o) pair of the edge list, as 4-byte patterns. */
static void edge_pairs(selugrad_dtype dt, const uint32_t *edges, size_t ne) {
    size_t n = ne * ne;
    uint32_t *g = bt_alloc(n * 4), *o = bt_alloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        g[i] = edges[i / ne];
        o[i] = edges[i % ne];
    }
    run_pairs(dt, n, g, o, "edge x edge");
    free(g);
    free(o);
}

static void test_f32_edges(void **state) {
    (void)state;
    edge_pairs(SELUGRAD_FLOAT, f32_edges, NELEMS(f32_edges));
}

static void test_s32_edges(void **state) {
    (void)state;
    uint32_t bits[NELEMS(s32_edges)];
    memcpy(bits, s32_edges, sizeof bits);
    edge_pairs(SELUGRAD_INT32, bits, NELEMS(bits));
}

/* Random fp32 pattern: raw bits, moderate values, tiny/huge ones, or an edge value. */
static uint32_t random_f32(uint64_t *s) {
    uint64_t r = bt_rand(s);
    uint32_t bits = (uint32_t)(r >> 32), sign = bits & 0x80000000u, man = bits & 0x7FFFFFu;
    unsigned mode = (unsigned)(r % 20);
    if (mode < 8) return bits;
    if (mode < 14) return sign | ((110u + (unsigned)(r >> 8) % 31u) << 23) | man; /* 2^-17..2^13 */
    if (mode < 17) {
        unsigned e = (unsigned)(r >> 8) % 22u; /* exponents 0..10 and 244..254 */
        return sign | ((e < 11 ? e : 233u + e) << 23) | man;
    }
    return f32_edges[(r >> 8) % NELEMS(f32_edges)];
}

/* Random int32: raw bits, small values, values of random magnitude, or an edge value. */
static uint32_t random_s32(uint64_t *s) {
    uint64_t r = bt_rand(s);
    uint32_t bits = (uint32_t)(r >> 32);
    unsigned mode = (unsigned)(r % 20);
    int32_t v;
    if (mode < 8) return bits;
    if (mode < 14)
        v = (int32_t)((r >> 8) % 601u) - 300;
    else if (mode < 17)
        v = (int32_t)((bits & 0x7FFFFFFFu) >> ((r >> 8) % 31u)) * ((r >> 20) & 1 ? -1 : 1);
    else
        v = s32_edges[(r >> 8) % NELEMS(s32_edges)];
    memcpy(&bits, &v, 4);
    return bits;
}

static void random_pairs(selugrad_dtype dt, uint64_t seed) {
    uint32_t *g = bt_alloc((size_t)RANDOM_PAIRS * 4), *o = bt_alloc((size_t)RANDOM_PAIRS * 4);
    uint64_t s = seed;
    for (size_t i = 0; i < RANDOM_PAIRS; i++) {
        g[i] = dt == SELUGRAD_FLOAT ? random_f32(&s) : random_s32(&s);
        o[i] = dt == SELUGRAD_FLOAT ? random_f32(&s) : random_s32(&s);
    }
    run_pairs(dt, RANDOM_PAIRS, g, o, "10^6 random pairs");
    free(g);
    free(o);
}

static void test_f32_random(void **state) {
    (void)state;
    random_pairs(SELUGRAD_FLOAT, 0x5E1A5E1Au);
}

static void test_s32_random(void **state) {
    (void)state;
    random_pairs(SELUGRAD_INT32, 0x1A71A7u);
}

/* Special results spelled out, independent of the golden. */
static void test_specials_by_hand(void **state) {
    (void)state;
    /* g NaN -> canonical; 0 * -inf -> canonical; o NaN or -0.0 -> g * scale; FLT_MAX * scale ->
       inf; subnormal g * scale stays subnormal (1.05 units -> 1, 2.1 -> 2); o = -inf -> -inf. */
    const uint32_t g[8] = {0xFFC00001u, 0x00000000u, 0x3F800000u, 0x3F800000u,
                           0x7F7FFFFFu, 0x00000001u, 0x00000002u, 0x3F800000u};
    const uint32_t o[8] = {0xBF800000u, 0xFF800000u, 0x7FC00000u, 0x80000000u,
                           0x00000000u, 0x00000000u, 0x3F800000u, 0xFF800000u};
    const uint32_t want[8] = {0x7FC00000u, 0x7FC00000u, 0x3F867D5Fu, 0x3F867D5Fu,
                              0x7F800000u, 0x00000001u, 0x00000002u, 0xFF800000u};
    assert_int_equal(bt_check_all(SELUGRAD_FLOAT, 8, g, o, want, "specials by hand", 0), 0);
    /* int32: saturation both ways, truncation toward zero, g rounded to fp32 first. */
    const int32_t sg[6] = {INT32_MAX, INT32_MIN, -10, 16777217, INT32_MAX, 3};
    const int32_t so[6] = {0, 5, 7, 0, INT32_MIN, -1};
    const int32_t swant[6] = {INT32_MAX, INT32_MIN, -10, 17627838, INT32_MIN, 2};
    assert_int_equal(bt_check_all(SELUGRAD_INT32, 6, sg, so, swant, "specials by hand", 0), 0);
}

static int teardown(void **state) {
    (void)state;
    bt_print_summary("test_battery_f32");
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_edges),        cmocka_unit_test(test_s32_edges),
        cmocka_unit_test(test_f32_random),       cmocka_unit_test(test_s32_random),
        cmocka_unit_test(test_specials_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
