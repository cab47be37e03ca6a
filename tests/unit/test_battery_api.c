/*
 * The native API's edges, for every dtype: NULL pointers, unknown dtypes and partial overlap each
 * give their own status and a message naming the problem, and leave y untouched; n == 0 succeeds
 * and touches nothing; the strided API with negative, zero and mixed strides, strided in place,
 * rejected y_stride 0 and partial overlaps, and results equal to the contiguous ones and to the
 * golden (tests/model), with 1, 2, 3 and 7 threads for the large cases.
 */
#include <ctype.h>
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

enum { N = 8, BUF = 64 };

/* Whether the last error message contains word, ignoring case. */
static int msg_has(const char *word) {
    const char *m = selugrad_last_error();
    size_t wl = strlen(word);
    for (; *m; m++) {
        size_t i = 0;
        while (i < wl && m[i] && tolower((unsigned char)m[i]) == tolower((unsigned char)word[i]))
            i++;
        if (i == wl) return 1;
    }
    return 0;
}

/* Calls the contiguous (strided == 0) or the strided API with unit strides. */
static selugrad_status call(int strided, selugrad_dtype dt, size_t n, const void *g, const void *o,
                            void *y) {
    return strided ? selugrad_backward_strided(dt, n, g, 1, o, 1, y, 1)
                   : selugrad_backward(dt, n, g, o, y);
}

static void test_null_pointers(void **state) {
    (void)state;
    unsigned char g[BUF * 4], o[BUF * 4], y[BUF * 4], canary[BUF * 4];
    memset(g, 1, sizeof g);
    memset(o, 2, sizeof o);
    memset(canary, 0x5A, sizeof canary);
    static const char *const names[3] = {"grad", "out", "y"};
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        for (int strided = 0; strided < 2; strided++) {
            for (int which = 0; which < 3; which++) {
                memcpy(y, canary, sizeof y);
                selugrad_status st = call(strided, sg_dtype_list[d], N, which == 0 ? NULL : g,
                                          which == 1 ? NULL : o, which == 2 ? NULL : y);
                assert_int_equal(st, SELUGRAD_ERR_NULL_POINTER);
                assert_true(msg_has("NULL"));
                if (which < 2) assert_true(msg_has(names[which]));
                assert_memory_equal(y, canary, sizeof y);
            }
        }
    }
}

static void test_bad_dtype(void **state) {
    (void)state;
    static const int bad[] = {-1, 5, 6, 7, 8, 9, 11, 26, 28, 99, 0x7FFFFFFF};
    unsigned char g[BUF], o[BUF], y[BUF], canary[BUF];
    memset(g, 1, sizeof g);
    memset(o, 2, sizeof o);
    memset(canary, 0x5A, sizeof canary);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (int strided = 0; strided < 2; strided++) {
            for (size_t n = 0; n < 2; n++) { /* an unknown dtype is an error even with n == 0 */
                memcpy(y, canary, sizeof y);
                assert_int_equal(call(strided, (selugrad_dtype)bad[i], n, g, o, y),
                                 SELUGRAD_ERR_BAD_DTYPE);
                assert_true(msg_has("dtype"));
                assert_memory_equal(y, canary, sizeof y);
            }
        }
        assert_int_equal(selugrad_dtype_size((selugrad_dtype)bad[i]), 0);
        assert_null(selugrad_dtype_name((selugrad_dtype)bad[i]));
        assert_null(selugrad_kernel_name((selugrad_dtype)bad[i]));
    }
}

/* y partly overlapping an input is rejected, touching nothing; y right after it is accepted. */
static void test_overlap(void **state) {
    (void)state;
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        selugrad_dtype dt = sg_dtype_list[d];
        size_t es = selugrad_dtype_size(dt);
        unsigned char buf[BUF * 4], before[BUF * 4];
        uint64_t s = 11;
        for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)bt_rand(&s);
        unsigned char *b = buf + 16 * es; /* element 16: room on both sides */
        /* {g, o, y} element offsets from b, all with n = N */
        static const int cases[][3] = {{0, 20, 1},   {0, 20, -1}, {0, 20, 7}, {0, 20, -7},
                                       {20, 0, 3},   {20, 0, -5}, {0, 4, 2},  {4, 0, -2},
                                       {20, 20, 19}, {0, 0, 1},   {20, 0, 27}};
        for (int strided = 0; strided < 2; strided++) {
            for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
                memcpy(before, buf, sizeof buf);
                selugrad_status st =
                    call(strided, dt, N, b + cases[c][0] * (ptrdiff_t)es,
                         b + cases[c][1] * (ptrdiff_t)es, b + cases[c][2] * (ptrdiff_t)es);
                assert_int_equal(st, SELUGRAD_ERR_OVERLAP);
                assert_true(msg_has("overlap"));
                assert_memory_equal(buf, before, sizeof buf);
            }
            /* adjacent but disjoint spans, and inputs overlapping each other: accepted */
            assert_int_equal(
                call(strided, dt, N, b, b + N * (ptrdiff_t)es, b + 2 * N * (ptrdiff_t)es),
                SELUGRAD_OK);
            assert_int_equal(call(strided, dt, N, b, b + 3 * (ptrdiff_t)es, b - N * (ptrdiff_t)es),
                             SELUGRAD_OK);
        }
    }
    /* the three failures are told apart */
    assert_true(SELUGRAD_ERR_NULL_POINTER != SELUGRAD_ERR_BAD_DTYPE &&
                SELUGRAD_ERR_BAD_DTYPE != SELUGRAD_ERR_OVERLAP &&
                SELUGRAD_ERR_OVERLAP != SELUGRAD_ERR_NULL_POINTER);
}

static void test_zero_length(void **state) {
    (void)state;
    unsigned char g[BUF], o[BUF], y[BUF], canary[BUF];
    memset(g, 1, sizeof g);
    memset(o, 2, sizeof o);
    memset(canary, 0x5A, sizeof canary);
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        selugrad_dtype dt = sg_dtype_list[d];
        for (int strided = 0; strided < 2; strided++) {
            memcpy(y, canary, sizeof y);
            assert_int_equal(call(strided, dt, 0, g, o, y), SELUGRAD_OK);
            assert_int_equal(call(strided, dt, 0, NULL, NULL, NULL), SELUGRAD_OK);
            assert_int_equal(call(strided, dt, 0, y, y + 1, y + 2),
                             SELUGRAD_OK); /* would overlap */
            assert_memory_equal(y, canary, sizeof y);
        }
        assert_int_equal(selugrad_backward_strided(dt, 0, g, -1, o, 0, y, 0), SELUGRAD_OK);
        assert_memory_equal(y, canary, sizeof y);
    }
}

/* Fills a strided case: inputs in buffers large enough for the strides, expected values from the
   golden of the gathered inputs; checks the strided call against them and the contiguous call on
   the gathered inputs, y's other bytes untouched. Returns mismatches. */
static size_t strided_case(selugrad_dtype dt, size_t n, ptrdiff_t gs, ptrdiff_t os, ptrdiff_t ys,
                           int large, uint64_t *s) {
    size_t es = selugrad_dtype_size(dt), bad = 0;
    size_t gspan = (n - 1) * (size_t)(gs < 0 ? -gs : gs) + 1,
           ospan = (n - 1) * (size_t)(os < 0 ? -os : os) + 1;
    size_t yspan = (n - 1) * (size_t)(ys < 0 ? -ys : ys) + 1;
    unsigned char *gb = bt_alloc(gspan * es), *ob = bt_alloc(ospan * es),
                  *yb = bt_alloc(yspan * es);
    unsigned char *gc = bt_alloc(n * es), *oc = bt_alloc(n * es), *e = bt_alloc(n * es),
                  *yc = bt_alloc(n * es);
    for (size_t i = 0; i < gspan * es; i++) gb[i] = (unsigned char)bt_rand(s);
    for (size_t i = 0; i < ospan * es; i++) ob[i] = (unsigned char)bt_rand(s);
    /* a negative stride starts at the end of its buffer */
    unsigned char *g = gs < 0 ? gb + (gspan - 1) * es : gb,
                  *o = os < 0 ? ob + (ospan - 1) * es : ob;
    unsigned char *y = ys < 0 ? yb + (yspan - 1) * es : yb;
    for (size_t i = 0; i < n; i++) {
        memcpy(gc + i * es, g + (ptrdiff_t)i * gs * (ptrdiff_t)es, es);
        memcpy(oc + i * es, o + (ptrdiff_t)i * os * (ptrdiff_t)es, es);
    }
    gm_selugrad_array(dt, n, gc, oc, e);
    char what[96], who[128];
    snprintf(what, sizeof what, "n=%zu strides g %td o %td y %td", n, gs, os, ys);
    for (bt_setting set = bt_settings(large); bt_setting_next(&set);) {
        memset(yb, 0x5A, yspan * es);
        assert_int_equal(selugrad_backward_strided(dt, n, g, gs, o, os, y, ys), SELUGRAD_OK);
        for (size_t i = 0; i < n; i++)
            memcpy(yc + i * es, y + (ptrdiff_t)i * ys * (ptrdiff_t)es, es);
        snprintf(who, sizeof who, "selugrad_backward_strided(%s)", set.label);
        bad += bt_compare(dt, n, gc, oc, e, yc, who, what);
        for (size_t i = 0; i < yspan * es; i++) /* bytes between y's elements stay untouched */
            if ((i / es) % (size_t)(ys < 0 ? -ys : ys) != 0 && yb[i] != 0x5A && bad++ == 0)
                printf("GUARD %s [%s]: byte %zu between elements written\n", who, what, i);
        /* the contiguous call */
        assert_int_equal(selugrad_backward(dt, n, gc, oc, yc), SELUGRAD_OK);
        snprintf(who, sizeof who, "selugrad_backward (contiguous twin; %s)", set.label);
        bad += bt_compare(dt, n, gc, oc, e, yc, who, what);
    }
    free(gb), free(ob), free(yb), free(gc), free(oc), free(e), free(yc);
    return bad;
}

static void test_strided_values(void **state) {
    (void)state;
    static const ptrdiff_t gss[] = {-3, -1, 0, 1, 2}, oss[] = {-2, 0, 1, 3}, yss[] = {-2, -1, 1, 3};
    static const size_t ns[] = {1, 2, 7, 33, 300};
    uint64_t s = 5;
    size_t bad = 0;
    for (int d = 0; d < SG_DTYPE_COUNT; d++)
        for (size_t a = 0; a < 5; a++)
            for (size_t b = 0; b < 4; b++)
                for (size_t c = 0; c < 4; c++)
                    for (size_t k = 0; k < 5; k++)
                        bad += strided_case(sg_dtype_list[d], ns[k], gss[a], oss[b], yss[c], 0, &s);
    assert_int_equal(bad, 0);
}

static void test_strided_large(void **state) {
    (void)state;
    static const ptrdiff_t st[][3] = {{-1, 2, 3}, {0, -1, 1}, {2, 0, -1}, {1, 1, 2}};
    uint64_t s = 6;
    size_t bad = 0;
    for (int d = 0; d < SG_DTYPE_COUNT; d++)
        for (size_t i = 0; i < 4; i++)
            bad += strided_case(sg_dtype_list[d], 70001, st[i][0], st[i][1], st[i][2], 1, &s);
    assert_int_equal(bad, 0);
}

/* y_stride 0 is rejected when n > 1 (outputs would share one element), accepted when n == 1. */
static void test_strided_y_stride_zero(void **state) {
    (void)state;
    unsigned char g[BUF], o[BUF], y[BUF], canary[BUF];
    uint64_t s = 3;
    for (size_t i = 0; i < BUF; i++)
        g[i] = (unsigned char)bt_rand(&s), o[i] = (unsigned char)bt_rand(&s);
    memset(canary, 0x5A, sizeof canary);
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        selugrad_dtype dt = sg_dtype_list[d];
        memcpy(y, canary, sizeof y);
        assert_int_equal(selugrad_backward_strided(dt, 2, g, 1, o, 1, y, 0),
                         SELUGRAD_ERR_BAD_ARGUMENT);
        assert_true(msg_has("stride"));
        assert_memory_equal(y, canary, sizeof y);
        unsigned char e[4];
        gm_selugrad_array(dt, 1, g, o, e);
        assert_int_equal(selugrad_backward_strided(dt, 1, g, 1, o, 1, y, 0), SELUGRAD_OK);
        assert_memory_equal(y, e, selugrad_dtype_size(dt));
        /* one element in place with strides that differ (never applied): in place all the same */
        unsigned char a[4];
        memcpy(a, g, sizeof a);
        assert_int_equal(selugrad_backward_strided(dt, 1, a, 5, o, 1, a, 0), SELUGRAD_OK);
        assert_memory_equal(a, e, selugrad_dtype_size(dt));
        /* two elements in place with strides that differ: an overlap, refused */
        assert_int_equal(selugrad_backward_strided(dt, 2, a, 2, o, 1, a, 1), SELUGRAD_ERR_OVERLAP);
    }
}

/* In place with a stride: the same base and the same stride as g (or o). */
static size_t strided_in_place(selugrad_dtype dt, size_t n, ptrdiff_t st, int on_o, int large,
                               uint64_t *s) {
    size_t es = selugrad_dtype_size(dt), span = (n - 1) * (size_t)(st < 0 ? -st : st) + 1, bad = 0;
    unsigned char *buf = bt_alloc(span * es), *other = bt_alloc(n * es),
                  *orig = bt_alloc(span * es);
    unsigned char *gc = bt_alloc(n * es), *oc = bt_alloc(n * es), *e = bt_alloc(n * es),
                  *yc = bt_alloc(n * es);
    for (size_t i = 0; i < span * es; i++) orig[i] = (unsigned char)bt_rand(s);
    for (size_t i = 0; i < n * es; i++) other[i] = (unsigned char)bt_rand(s);
    unsigned char *a = (st < 0 ? buf + (span - 1) * es : buf);
    char what[80];
    snprintf(what, sizeof what, "n=%zu in place on %s, stride %td", n, on_o ? "o" : "g", st);
    for (bt_setting set = bt_settings(large); bt_setting_next(&set);) {
        memcpy(buf, orig, span * es);
        for (size_t i = 0; i < n; i++)
            memcpy((on_o ? oc : gc) + i * es, a + (ptrdiff_t)i * st * (ptrdiff_t)es, es);
        memcpy(on_o ? gc : oc, other, n * es);
        if (set.step == 1) gm_selugrad_array(dt, n, gc, oc, e); /* the same inputs each time */
        selugrad_status r = on_o ? selugrad_backward_strided(dt, n, other, 1, a, st, a, st)
                                 : selugrad_backward_strided(dt, n, a, st, other, 1, a, st);
        assert_int_equal(r, SELUGRAD_OK);
        for (size_t i = 0; i < n; i++)
            memcpy(yc + i * es, a + (ptrdiff_t)i * st * (ptrdiff_t)es, es);
        bad += bt_compare(dt, n, gc, oc, e, yc, set.label, what);
        for (size_t i = 0; i < span * es; i++) /* elements between the strided ones untouched */
            if ((i / es) % (size_t)(st < 0 ? -st : st) != 0 && buf[i] != orig[i] && bad++ == 0)
                printf("GUARD [%s; %s]: byte %zu between elements written\n", what, set.label, i);
    }
    free(buf), free(other), free(orig), free(gc), free(oc), free(e), free(yc);
    return bad;
}

static void test_strided_in_place(void **state) {
    (void)state;
    static const ptrdiff_t strides[] = {-3, -1, 1, 2};
    uint64_t s = 9;
    size_t bad = 0;
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        for (size_t i = 0; i < 4; i++) {
            for (int on_o = 0; on_o < 2; on_o++) {
                bad += strided_in_place(sg_dtype_list[d], 1, strides[i], on_o, 0, &s);
                bad += strided_in_place(sg_dtype_list[d], 301, strides[i], on_o, 0, &s);
            }
        }
        bad += strided_in_place(sg_dtype_list[d], 70001, 2, 0, 1, &s);
        bad += strided_in_place(sg_dtype_list[d], 70001, -1, 1, 1, &s);
    }
    assert_int_equal(bad, 0);
}

/* Spans of y and an input that overlap without being the same array are rejected. */
static void test_strided_partial_overlap(void **state) {
    (void)state;
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        selugrad_dtype dt = sg_dtype_list[d];
        ptrdiff_t es = (ptrdiff_t)selugrad_dtype_size(dt);
        unsigned char buf[BUF * 4 * 4], before[sizeof buf];
        uint64_t s = 13;
        for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)bt_rand(&s);
        unsigned char *b = buf + 64 * es, *far = buf + 160 * es;
        /* {g offset, g stride, y offset, y stride}, o elsewhere, n = N */
        static const ptrdiff_t cases[][4] = {
            {0, 2, 0, 1},   /* same base, different stride */
            {0, 2, 1, 2},   /* interleaved: spans overlap though no element is shared */
            {0, 2, 14, 2},  /* y starts on g's last element */
            {0, 1, 0, -1},  /* same base, reversed */
            {0, -1, -7, 1}, /* g runs backwards over y's span */
            {0, 0, 0, 1},   /* g broadcast from y's first element */
            {0, 3, 10, -1}, /* y runs backwards into g's span */
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            for (int on_o = 0; on_o < 2; on_o++) {
                memcpy(before, buf, sizeof buf);
                const unsigned char *in = b + cases[c][0] * es;
                unsigned char *y = b + cases[c][2] * es;
                selugrad_status st =
                    on_o
                        ? selugrad_backward_strided(dt, N, far, 1, in, cases[c][1], y, cases[c][3])
                        : selugrad_backward_strided(dt, N, in, cases[c][1], far, 1, y, cases[c][3]);
                assert_int_equal(st, SELUGRAD_ERR_OVERLAP);
                assert_true(msg_has("overlap"));
                assert_memory_equal(buf, before, sizeof buf);
            }
        }
        /* disjoint spans with interleaving strides just past each other: accepted */
        assert_int_equal(selugrad_backward_strided(dt, N, b, 2, far, 1, b + 15 * es, 2),
                         SELUGRAD_OK);
    }
}

static int teardown(void **state) {
    (void)state;
    bt_print_summary("test_battery_api");
    return 0;
}

/* With n == 1 a stride is never applied: even PTRDIFF_MIN is accepted (and must not overflow). */
static void test_strided_extreme_stride_one_element(void **state) {
    (void)state;
    float g = 2.0f, o = -1.0f, y = 0.0f;
    assert_int_equal(
        selugrad_backward_strided(SELUGRAD_FLOAT, 1, &g, PTRDIFF_MIN, &o, PTRDIFF_MAX, &y, 1),
        SELUGRAD_OK);
    /* 2 * round(-1 + SA) = 2 * 0x3F4212CC, exact */
    uint32_t bits;
    memcpy(&bits, &y, 4);
    assert_int_equal(bits, 0x3FC212CCu);
}

/* The size check (docs/api.md): n elements of es bytes at the largest stride S span
   ((n - 1) * S + 1) * es bytes, which must be at most 2^63 - 1. At the largest n that passes it,
   distinct arrays a few bytes apart overlap (the next check); one more element is
   SELUGRAD_ERR_BAD_ARGUMENT. Each call is refused before anything is read. */
static void boundary_case(int fwd, selugrad_dtype dt, ptrdiff_t gs, ptrdiff_t ys, size_t n_max) {
    size_t es = selugrad_dtype_size(dt);
    size_t S = (size_t)(gs < 0 ? -gs : gs) > (size_t)ys ? (size_t)(gs < 0 ? -gs : gs) : (size_t)ys;
    /* the expected boundary, by the definition in 128-bit arithmetic */
    __extension__ typedef unsigned __int128 u128;
    const u128 half = ((u128)1 << 63) - 1;
    assert_true(((u128)(n_max - 1) * S + 1) * es <= half);
    assert_true(((u128)n_max * S + 1) * es > half);
    static unsigned char buf[64];
    int strided = gs != 1 || ys != 1;
    for (int k = 0; k < 2; k++) {
        size_t n = n_max + (size_t)k;
        selugrad_status st;
        if (fwd)
            st = strided ? selugrad_forward_strided(dt, n, buf, gs, buf + 24, ys)
                         : selugrad_forward(dt, n, buf, buf + 24);
        else
            st = strided ? selugrad_backward_strided(dt, n, buf, gs, buf + 16, gs, buf + 32, ys)
                         : selugrad_backward(dt, n, buf, buf + 16, buf + 32);
        if (st != (k ? SELUGRAD_ERR_BAD_ARGUMENT : SELUGRAD_ERR_OVERLAP))
            fail_msg("%s%s %s n=%zu strides %td/%td: %s (%s)", fwd ? "forward" : "backward",
                     strided ? "_strided" : "", selugrad_dtype_name(dt), n, gs, ys,
                     selugrad_status_name(st), selugrad_last_error());
        if (k) assert_true(msg_has("half the address space"));
    }
}

static void test_size_boundary(void **state) {
    (void)state;
    for (int d = 0; d < SG_DTYPE_COUNT; d++) {
        selugrad_dtype dt = sg_dtype_list[d];
        size_t es = selugrad_dtype_size(dt);
        /* 2^63 - 1 bytes: 2^61 - 1 elements of 4 bytes, 2^62 - 1 of 2, 2^63 - 1 of 1 */
        size_t most = es == 4   ? ((size_t)1 << 61) - 1
                      : es == 2 ? ((size_t)1 << 62) - 1
                                : ((size_t)1 << 63) - 1;
        for (int fwd = 0; fwd < 2; fwd++) {
            if (fwd && dt == SELUGRAD_UINT8) continue;
            boundary_case(fwd, dt, 1, 1, most);
            /* at stride S: (n - 1) * S + 1 <= most */
            boundary_case(fwd, dt, 3, 1, (most - 1) / 3 + 1);
            boundary_case(fwd, dt, 2, 5, (most - 1) / 5 + 1);
            boundary_case(fwd, dt, 1, 7, (most - 1) / 7 + 1);
        }
        /* far beyond: n = SIZE_MAX, and a stride so large that two elements do not fit */
        assert_int_equal(selugrad_backward(dt, SIZE_MAX, &most, &most, &most),
                         SELUGRAD_ERR_BAD_ARGUMENT);
        assert_int_equal(selugrad_backward_strided(dt, 2, &most, PTRDIFF_MIN, &most, 1, &es, 1),
                         SELUGRAD_ERR_BAD_ARGUMENT);
    }
}

/* Arrays whose span from their pointer leaves the address space: below address 0 with a negative
   stride, past the top with a positive one: SELUGRAD_ERR_BAD_ARGUMENT, nothing read. */
static void test_span_outside_address_space(void **state) {
    (void)state;
    static float g[4], o[4], y[4];
    ptrdiff_t below = -(ptrdiff_t)((uintptr_t)g / 4) - 1; /* element 1 at g - (g/4 + 1) * 4 < 0 */
    assert_int_equal(selugrad_backward_strided(SELUGRAD_FLOAT, 2, g, below, o, 1, y, 1),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_true(msg_has("grad's n = 2 elements"));
    assert_true(msg_has("reach outside the address space"));
    ptrdiff_t y_below = -(ptrdiff_t)((uintptr_t)y / 4) - 1; /* the same, from y */
    assert_int_equal(selugrad_forward_strided(SELUGRAD_FLOAT, 2, g, 1, y, y_below),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_true(msg_has("y's n = 2 elements"));
    /* the end of a span, one past its last byte, is an address too: two float32 elements from
       8 bytes below 2^64 would end at 2^64, which wraps to 0 (and overlap checks would read that
       span as empty), so 8 bytes below the top is refused, as 7 are; never read: refused first */
    const void *top = (const void *)(UINTPTR_MAX - 7);
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, 2, top, o, y), SELUGRAD_ERR_BAD_ARGUMENT);
    assert_true(msg_has("grad's n = 2 elements"));
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, 2, g, o, (void *)(UINTPTR_MAX - 6)),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_true(msg_has("y's n = 2 elements"));
    /* a negative stride reaches down, but the element at the pointer itself ends past the top */
    assert_int_equal(
        selugrad_forward_strided(SELUGRAD_FLOAT, 2, (const void *)(UINTPTR_MAX - 2), -1, y, 1),
        SELUGRAD_ERR_BAD_ARGUMENT);
    assert_true(msg_has("x's n = 2 elements"));
    assert_true(msg_has("reach outside the address space"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_pointers),
        cmocka_unit_test(test_bad_dtype),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_zero_length),
        cmocka_unit_test(test_strided_values),
        cmocka_unit_test(test_strided_large),
        cmocka_unit_test(test_strided_y_stride_zero),
        cmocka_unit_test(test_strided_in_place),
        cmocka_unit_test(test_strided_partial_overlap),
        cmocka_unit_test(test_strided_extreme_stride_one_element),
        cmocka_unit_test(test_size_boundary),
        cmocka_unit_test(test_span_outside_address_space),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
