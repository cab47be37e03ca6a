/*
 * The benchmark's buffer sets (bench/buffers.c): calls on one sgb_bufs take its sets in one turn
 * shared by every function timed on it, so the four triads of a row never run on the set the
 * one before left in the caches; cold problems keep at least two sets and span 512 MiB.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench_internal.h"

/* Whether every float of the y array of set `set` is v. */
static int y_is(const sgb_bufs *b, size_t set, float v) {
    const float *y = sgb_buf(b, set, 2);
    for (size_t i = 0; i < b->array_bytes / 4; i++)
        if (memcmp(&y[i], &v, sizeof v) != 0) return 0;
    return 1;
}

/* Two triads and a scale loop, each making its first call, write three different sets: a = b + 3 c
   = 1 + 3 * 2 = 7 (STREAM's triad on sgb_bufs_fill_float's 1 and 2), then a = 3 b = 3; the sets
   after them keep their zeros. */
static void test_triads_take_their_own_sets(void **state) {
    (void)state;
    sgb_bufs b;
    assert_int_equal(sgb_bufs_alloc(&b, 4096, 4), 0);
    assert_int_equal(b.cold, 0);
    assert_int_equal(b.nsets, 16); /* 48 KiB sets within 768 KiB */
    sgb_bufs_fill_float(&b);
    sgb_triad tr[2], sc[2];
    sgb_triad_setup(tr, &b, 2, SG_ISA_ALL, 0);
    sgb_triad_setup(sc, &b, 1, SG_ISA_ALL, 1);
    assert_int_equal(sgb_triad_call(&tr[0]), 0);
    assert_int_equal(sgb_triad_call(&tr[1]), 0);
    assert_int_equal(sgb_triad_call(&sc[1]), 0);
    assert_true(y_is(&b, 0, 7.0f));
    assert_true(y_is(&b, 1, 7.0f));
    assert_true(y_is(&b, 2, 3.0f));
    for (size_t s = 3; s < b.nsets; s++) assert_true(y_is(&b, s, 0.0f));
    sgb_bufs_free(&b);
}

/* The turn visits every set once before any set again. */
static void test_take_cycles(void **state) {
    (void)state;
    sgb_bufs b;
    assert_int_equal(sgb_bufs_alloc(&b, 1000, 2), 0);
    assert_int_equal(b.nsets, 16);
    for (size_t r = 0; r < 3; r++)
        for (size_t s = 0; s < b.nsets; s++) assert_int_equal(sgb_bufs_take(&b), s);
    sgb_bufs_free(&b);
}

/* Cold geometries (planned, not allocated): at least two sets, together at least 512 MiB, and
   one set fewer would not reach it. */
static void test_cold_sets(void **state) {
    (void)state;
    static const struct {
        size_t n, es, nsets;
    } cases[] = {
        {(1u << 20) + 16, 1, 171}, /* 3 MiB sets: 171 x 3 MiB >= 512 MiB */
        {16u << 20, 4, 3},         /* 192 MiB sets */
        {16u << 20, 1, 11},        /* 48 MiB sets */
        {128u << 20, 1, 2},        /* 384 MiB */
        {128u << 20, 2, 2},        /* 768 MiB: one would span it; two, so no call follows itself */
        {128u << 20, 4, 2},        /* 1.5 GiB */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sgb_bufs b;
        sgb_bufs_plan(&b, cases[i].n, cases[i].es);
        assert_int_equal(b.cold, 1);
        assert_int_equal(b.nsets, cases[i].nsets);
        size_t set = 3 * b.stride;
        assert_true(b.nsets * set >= SGB_COLD_SPAN);
        assert_true(b.nsets == 2 || (b.nsets - 1) * set < SGB_COLD_SPAN);
        assert_int_equal(sgb_bufs_take(&b), 0);
        assert_int_equal(sgb_bufs_take(&b), 1);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triads_take_their_own_sets),
        cmocka_unit_test(test_take_cycles),
        cmocka_unit_test(test_cold_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
