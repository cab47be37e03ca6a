/*
 * Lengths, alignment and aliasing, for every dtype: every length from 0 to 300 at varying
 * misaligned offsets (element-aligned, not vector-aligned) of g, o and y; every offset for a few
 * lengths; y == g, y == o and y == g == o. Each case runs through every kernel variant,
 * selugrad_backward and selugrad_backward_strided (unit strides); y is surrounded by guard
 * elements that must stay untouched, and inputs are allocated to their exact size (for ASan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "battery/harness.h"
#include "model/golden.h"

enum { GUARD = 64, VEC_BYTES = 64, MAX_LEN = 300, BIG = 100003 };

/* Random patterns; for float dtypes every eighth element is a special value. */
static void fill(selugrad_dtype dt, size_t n, void *buf, uint64_t *s) {
    static const uint32_t f32_sp[] = {0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00001u,
                                      0x00000001u, 0x807FFFFFu, 0xBFE10966u, 0x7F7FFFFFu};
    static const uint16_t f16_sp[] = {0x8000, 0x7C00, 0xFC00, 0xFE01,
                                      0x0001, 0x83FF, 0xBF08, 0x7BFF};
    static const uint16_t bf_sp[] = {0x8000, 0x7F80, 0xFF80, 0xFFC1,
                                     0x0001, 0x807F, 0xBFE1, 0x7F7F};
    size_t es = selugrad_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = bt_rand(s);
        if (r % 8 == 0 && dt == SELUGRAD_FLOAT) {
            memcpy((char *)buf + i * 4, &f32_sp[(r >> 8) % 8], 4);
        } else if (r % 8 == 0 && (dt == SELUGRAD_FLOAT16 || dt == SELUGRAD_BF16)) {
            memcpy((char *)buf + i * 2,
                   dt == SELUGRAD_BF16 ? &bf_sp[(r >> 8) % 8] : &f16_sp[(r >> 8) % 8], 2);
        } else {
            memcpy((char *)buf + i * es, (const char *)&r + 4, es);
        }
    }
}

/* Counts bytes of buf outside [y, y + bytes) that lost the 0x5A marker. */
static size_t guard_check(const unsigned char *buf, size_t len, const void *y, size_t bytes,
                          const char *who, const char *what) {
    size_t lo = (size_t)((const unsigned char *)y - buf), bad = 0;
    for (size_t i = 0; i < len; i++) {
        if ((i < lo || i >= lo + bytes) && buf[i] != 0x5A && bad++ == 0)
            printf("GUARD %s [%s]: byte %td outside y was written\n", who, what,
                   (ptrdiff_t)i - (ptrdiff_t)lo);
    }
    return bad;
}

/* One out-of-place case at element offsets (go, oo, yo). */
static size_t out_of_place(selugrad_dtype dt, size_t n, size_t go, size_t oo, size_t yo,
                           uint64_t *s) {
    size_t es = selugrad_dtype_size(dt), bad = 0;
    char *gb = bt_alloc((go + n) * es), *ob = bt_alloc((oo + n) * es), *e = bt_alloc(n * es);
    size_t ylen = (GUARD + yo + n + GUARD) * es;
    unsigned char *yb = bt_alloc(ylen);
    const char *g = gb + go * es, *o = ob + oo * es;
    unsigned char *y = yb + (GUARD + yo) * es;
    fill(dt, go + n, gb, s);
    fill(dt, oo + n, ob, s);
    gm_selugrad_array(dt, n, g, o, e);
    char what[80];
    snprintf(what, sizeof what, "n=%zu offsets g+%zu o+%zu y+%zu", n, go, oo, yo);
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *k = &sg_kernels[i];
        if (k->dtype != dt || !bt_kernel_runs(k)) continue;
        memset(yb, 0x5A, ylen);
        k->fn(n, g, o, y);
        bad += bt_compare(dt, n, g, o, e, y, k->name, what) +
               guard_check(yb, ylen, y, n * es, k->name, what);
    }
    for (bt_setting set = bt_settings(0); bt_setting_next(&set);) {
        char who[96];
        memset(yb, 0x5A, ylen);
        assert_int_equal(selugrad_backward(dt, n, g, o, y), SELUGRAD_OK);
        snprintf(who, sizeof who, "selugrad_backward(%s)", set.label);
        bad +=
            bt_compare(dt, n, g, o, e, y, who, what) + guard_check(yb, ylen, y, n * es, who, what);
        memset(yb, 0x5A, ylen);
        assert_int_equal(selugrad_backward_strided(dt, n, g, 1, o, 1, y, 1), SELUGRAD_OK);
        snprintf(who, sizeof who, "selugrad_backward_strided(%s)", set.label);
        bad +=
            bt_compare(dt, n, g, o, e, y, who, what) + guard_check(yb, ylen, y, n * es, who, what);
    }
    free(gb);
    free(ob);
    free(e);
    free(yb);
    return bad;
}

/* In place: mode 0 y == g, 1 y == o, 2 y == g == o; the array starts at element offset off.
   Runs each kernel, and selugrad_backward under every setting of bt_settings(large). */
static size_t in_place(selugrad_dtype dt, size_t n, size_t off, int mode, int large, uint64_t *s) {
    size_t es = selugrad_dtype_size(dt), bad = 0;
    char *g = bt_alloc(n * es), *o = bt_alloc(n * es), *e = bt_alloc(n * es),
         *cb = bt_alloc((off + n) * es);
    char *c = cb + off * es;
    fill(dt, n, g, s);
    fill(dt, n, o, s);
    if (mode == 2) memcpy(o, g, n * es);
    gm_selugrad_array(dt, n, g, o, e);
    const char *src = mode == 1 ? o : g;
    static const char *const names[3] = {"y == g", "y == o", "y == g == o"};
    char what[80];
    snprintf(what, sizeof what, "n=%zu offset %zu, %s", n, off, names[mode]);
    const void *gi = mode == 1 ? g : c, *oi = mode == 0 ? o : c;
    for (size_t r = 0; r < sg_kernel_count; r++) {
        const sg_kernel *k = &sg_kernels[r];
        if (k->dtype != dt || !bt_kernel_runs(k)) continue;
        memcpy(c, src, n * es);
        k->fn(n, gi, oi, c);
        bad += bt_compare(dt, n, g, o, e, c, k->name, what);
    }
    for (bt_setting set = bt_settings(large); bt_setting_next(&set);) {
        char who[96];
        memcpy(c, src, n * es);
        assert_int_equal(selugrad_backward(dt, n, gi, oi, c), SELUGRAD_OK);
        snprintf(who, sizeof who, "selugrad_backward(%s)", set.label);
        bad += bt_compare(dt, n, g, o, e, c, who, what);
    }
    free(g);
    free(o);
    free(e);
    free(cb);
    return bad;
}

static void test_every_length(void **state) {
    (void)state;
    uint64_t s = 300;
    size_t bad = 0;
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        selugrad_dtype dt = sg_dtype_list[d];
        size_t lanes = VEC_BYTES / selugrad_dtype_size(dt);
        for (size_t n = 0; n <= MAX_LEN; n++) {
            bad +=
                out_of_place(dt, n, (n * 7) % lanes, (n * 13 + 1) % lanes, (n * 3 + 2) % lanes, &s);
            for (int mode = 0; mode < 3; mode++)
                bad += in_place(dt, n, (n + (size_t)mode) % lanes, mode, 0, &s);
        }
    }
    assert_int_equal(bad, 0);
}

static void test_every_offset(void **state) {
    (void)state;
    static const size_t lens[] = {1, 15, 16, 17, 33, 71, 129, 257};
    uint64_t s = 64;
    size_t bad = 0;
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        selugrad_dtype dt = sg_dtype_list[d];
        size_t lanes = VEC_BYTES / selugrad_dtype_size(dt);
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            for (size_t off = 0; off < lanes; off++) {
                bad += out_of_place(dt, lens[li], off, 0, 0, &s);
                bad += out_of_place(dt, lens[li], 0, off, 0, &s);
                bad += out_of_place(dt, lens[li], 0, 0, off, &s);
                bad += out_of_place(dt, lens[li], off, lanes - 1 - off, (off * 5) % lanes, &s);
            }
        }
    }
    assert_int_equal(bad, 0);
}

/* In place on an array large enough to be split across threads. */
static void test_large_in_place(void **state) {
    (void)state;
    uint64_t s = 7;
    size_t bad = 0;
    for (int d = 0; d < SG_DTYPE_COUNT; d++)
        for (int mode = 0; mode < 3; mode++)
            bad += in_place(sg_dtype_list[d], BIG, (size_t)mode, mode, 1, &s);
    assert_int_equal(bad, 0);
}

static int teardown(void **state) {
    (void)state;
    bt_print_summary("test_battery_shapes");
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_length),
        cmocka_unit_test(test_every_offset),
        cmocka_unit_test(test_large_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
