/*
 * Non-contiguous views (sliced, transposed, with offset, stride-0 inputs, high rank), in place
 * and overlapping outputs, each checked element by element against the reference model applied
 * to a snapshot of the inputs taken before the call.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"
#include "model/golden.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}
static int64_t rnd_in(int64_t lo, int64_t hi) {
    return lo + (int64_t)(rnd() % (uint32_t)(hi - lo + 1));
}

typedef struct view {
    int64_t dims[12], strides[12], offset, storage;
} view;

/* A random injective view of rank r over dims: padded, permuted, stepped, offset. */
static void make_view(view *v, int r, const int64_t *dims, int zero_ok) {
    int perm[12];
    int64_t big[12], st[12];
    for (int i = 0; i < r; i++) perm[i] = i;
    for (int i = r - 1; i > 0; i--) {
        int k = (int)rnd_in(0, i), t = perm[i];
        perm[i] = perm[k], perm[k] = t;
    }
    int64_t step[12];
    for (int i = 0; i < r; i++) {
        step[i] = rnd() % 3 == 0 ? rnd_in(2, 3) : 1;
        big[i] = dims[i] * step[i] + (rnd() % 4 == 0 ? rnd_in(1, 2) : 0);
    }
    int64_t run = 1;
    for (int k = r - 1; k >= 0; k--) {
        st[perm[k]] = run;
        run *= big[perm[k]];
    }
    v->offset = rnd() % 2 ? rnd_in(1, 7) : 0;
    for (int i = 0; i < r; i++) {
        v->dims[i] = dims[i];
        v->strides[i] = st[i] * step[i];
        if (zero_ok && rnd() % 6 == 0) v->strides[i] = 0;
    }
    v->storage = v->offset + run;
}

static int64_t elem_at(const view *v, int r, int64_t flat) {
    int64_t off = v->offset;
    for (int i = r - 1; i >= 0; i--) {
        off += (flat % v->dims[i]) * v->strides[i];
        flat /= v->dims[i];
    }
    return off;
}

static size_t es_of(aclDataType dt) {
    return aclDataTypeSize(dt);
}

static void fill(unsigned char *p, size_t bytes, aclDataType dt) {
    for (size_t i = 0; i < bytes; i++) p[i] = (unsigned char)rnd();
    if (dt == ACL_INT32) /* keep int32 values moderate so both branches occur */
        for (size_t i = 0; i + 4 <= bytes; i += 4) {
            int32_t v = (int32_t)rnd_in(-100000, 100000);
            memcpy(p + i, &v, 4);
        }
}

/* Which storage y aliases: none, g's (same or shifted view) or o's. */
typedef enum { ALIAS_NONE, ALIAS_G_SAME, ALIAS_O_SAME, ALIAS_G_SHIFT } alias_kind;

static void run_case(aclDataType dt, int r, const int64_t *dims, alias_kind alias) {
    size_t es = es_of(dt);
    view vg, vo, vy;
    make_view(&vg, r, dims, 1);
    make_view(&vo, r, dims, 1);
    make_view(&vy, r, dims, 0);
    if (alias == ALIAS_G_SAME || alias == ALIAS_G_SHIFT) {
        make_view(&vg, r, dims, 0); /* an output view: no stride 0 */
        vy = vg;
        if (alias == ALIAS_G_SHIFT) vy.offset = vg.offset ? vg.offset - 1 : 1, vy.storage += 1;
    }
    if (alias == ALIAS_O_SAME) {
        make_view(&vo, r, dims, 0);
        vy = vo;
    }
    int64_t n = 1;
    for (int i = 0; i < r; i++) n *= dims[i];
    int64_t sg = vg.storage > vy.storage ? vg.storage : vy.storage;
    unsigned char *gs = malloc((size_t)sg * es), *os = malloc((size_t)vo.storage * es);
    unsigned char *ys = alias == ALIAS_NONE ? malloc((size_t)vy.storage * es) : NULL;
    fill(gs, (size_t)sg * es, dt);
    fill(os, (size_t)vo.storage * es, dt);
    if (ys) fill(ys, (size_t)vy.storage * es, dt);
    if (alias == ALIAS_G_SAME || alias == ALIAS_G_SHIFT) ys = gs;
    if (alias == ALIAS_O_SAME) ys = os;
    int64_t ylen = alias == ALIAS_G_SAME || alias == ALIAS_G_SHIFT ? sg : vy.storage;
    unsigned char *g0 = malloc((size_t)sg * es), *o0 = malloc((size_t)vo.storage * es);
    unsigned char *expect = malloc((size_t)ylen * es);
    memcpy(g0, gs, (size_t)sg * es);
    memcpy(o0, os, (size_t)vo.storage * es);
    memcpy(expect, ys, (size_t)ylen * es);
    for (int64_t i = 0; i < n; i++)
        gm_selugrad_element((int)dt, g0 + (size_t)elem_at(&vg, r, i) * es,
                            o0 + (size_t)elem_at(&vo, r, i) * es,
                            expect + (size_t)elem_at(&vy, r, i) * es);
    const int64_t sgd[1] = {sg}, sod[1] = {vo.storage}, syd[1] = {ylen};
    aclTensor *tg =
        aclCreateTensor(dims, (uint64_t)r, dt, vg.strides, vg.offset, ACL_FORMAT_ND, sgd, 1, gs);
    aclTensor *to =
        aclCreateTensor(dims, (uint64_t)r, dt, vo.strides, vo.offset, ACL_FORMAT_ND, sod, 1, os);
    aclTensor *ty =
        aclCreateTensor(dims, (uint64_t)r, dt, vy.strides, vy.offset, ACL_FORMAT_ND, syd, 1, ys);
    assert_non_null(tg);
    assert_non_null(to);
    assert_non_null(ty);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(tg, to, ty, &ws, &ex), ACLNN_SUCCESS);
    void *w = ws ? malloc(ws) : NULL;
    assert_int_equal(aclnnSeluBackward(w, ws, ex, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    /* Every byte of y's storage: the view's elements computed, the rest untouched. */
    if (memcmp(ys, expect, (size_t)ylen * es) != 0) {
        for (int64_t i = 0; i < ylen * (int64_t)es; i++)
            if (ys[i] != expect[i]) {
                print_error("dtype %d rank %d alias %d: byte %lld differs\n", (int)dt, r,
                            (int)alias, (long long)i);
                break;
            }
        fail();
    }
    free(w);
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyTensor(ty);
    if (alias == ALIAS_NONE) free(ys);
    free(gs), free(os), free(g0), free(o0), free(expect);
}

static const aclDataType dts[5] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32};

static void random_cases(alias_kind alias, int count) {
    for (int c = 0; c < count; c++) {
        int r = rnd() % 8 == 0 ? (int)rnd_in(9, 11) : (int)rnd_in(1, 4);
        int64_t dims[12];
        for (int i = 0; i < r; i++) dims[i] = r > 8 ? rnd_in(1, 2) : rnd_in(1, 9);
        run_case(dts[c % 5], r, dims, alias);
    }
}

static void test_views_out_of_place(void **state) {
    (void)state;
    random_cases(ALIAS_NONE, 400);
}

static void test_views_in_place(void **state) {
    (void)state;
    random_cases(ALIAS_G_SAME, 100);
    random_cases(ALIAS_O_SAME, 100);
}

static void test_views_partial_overlap(void **state) {
    (void)state;
    random_cases(ALIAS_G_SHIFT, 150);
}

static void test_views_large(void **state) {
    (void)state;
    /* Large enough for several threads: transposed and sliced views of 300 x 700. */
    const int64_t d2[2] = {300, 700};
    for (int k = 0; k < 3; k++) run_case(ACL_FLOAT, 2, d2, ALIAS_NONE);
    run_case(ACL_FLOAT16, 2, d2, ALIAS_G_SHIFT);
    const int64_t d1[1] = {150000};
    run_case(ACL_FLOAT, 1, d1, ALIAS_NONE);
    run_case(ACL_INT8, 1, d1, ALIAS_G_SHIFT);
}

static void test_output_self_overlap(void **state) {
    (void)state;
    float b[64] = {0};
    const int64_t d2[2] = {4, 2}, sd[1] = {64};
    aclTensor *g = aclCreateTensor(d2, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, sd, 1, b);
    uint64_t ws;
    aclOpExecutor *ex;
    /* A 0 stride on a dim longer than 1: rejected for gradInput only. */
    const int64_t s0[2] = {0, 1};
    aclTensor *y = aclCreateTensor(d2, 2, ACL_FLOAT, s0, 0, ACL_FORMAT_ND, sd, 1, b + 32);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, g, y, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "gradInput has elements sharing");
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(y, y, g, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    aclDestroyTensor(y);
    /* Strides {1, 1} over {4, 2}: elements (0,1) and (1,0) share an address. */
    const int64_t s11[2] = {1, 1};
    y = aclCreateTensor(d2, 2, ACL_FLOAT, s11, 0, ACL_FORMAT_ND, sd, 1, b + 32);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, g, y, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(y);
    /* A 0 stride on a dim of 1 is harmless. */
    const int64_t d3[3] = {4, 1, 2}, s3[3] = {2, 0, 1};
    aclTensor *g3 = aclCreateTensor(d3, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, sd, 1, b);
    y = aclCreateTensor(d3, 3, ACL_FLOAT, s3, 0, ACL_FORMAT_ND, sd, 1, b + 32);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g3, g3, y, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    aclDestroyTensor(y);
    aclDestroyTensor(g3);
    /* Interleaved but disjoint: {3,2} with strides {2,3} hits 0,3,2,5,4,7. */
    const int64_t d32[2] = {3, 2}, s23[2] = {2, 3};
    float gb[6] = {1, 2, 3, 4, 5, 6}, ob[6] = {-1, 1, -2, 2, -0.5f, 0.5f}, yb[8] = {0};
    aclTensor *gg = aclCreateTensor(d32, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d32, 2, gb);
    aclTensor *oo = aclCreateTensor(d32, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d32, 2, ob);
    const int64_t s8[1] = {8};
    y = aclCreateTensor(d32, 2, ACL_FLOAT, s23, 0, ACL_FORMAT_ND, s8, 1, yb);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(gg, oo, y, &ws, &ex), ACLNN_SUCCESS);
    void *w = ws ? malloc(ws) : NULL;
    assert_int_equal(aclnnSeluBackward(w, ws, ex, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            assert_true(sgt_same_f32(yb[2 * i + 3 * j], sgt_ref_f32(gb[2 * i + j], ob[2 * i + j])));
    free(w);
    aclDestroyTensor(y);
    aclDestroyTensor(gg);
    aclDestroyTensor(oo);
    aclDestroyTensor(g);
}

/* Strides so large that dim * stride overflows int64 must not be merged (nor overflow). */
static void test_huge_strides_phase1(void **state) {
    (void)state;
    int8_t b[4] = {0};
    const int64_t d[2] = {2, 2}, st[2] = {1, (int64_t)1 << 62}, sd[1] = {((int64_t)1 << 62) + 2};
    aclTensor *t = aclCreateTensor(d, 2, ACL_INT8, st, 0, ACL_FORMAT_ND, sd, 1, b);
    assert_non_null(t);
    uint64_t ws = 1;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(t, t, t, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    aclDestroyTensor(t);
    /* Interleaved, disjoint, with a span far beyond any bitmap: {3,2} strides {2,3} * 2^32. */
    const int64_t d32[2] = {3, 2}, s23[2] = {(int64_t)2 << 32, (int64_t)3 << 32};
    const int64_t sd2[1] = {((int64_t)7 << 32) + 1};
    t = aclCreateTensor(d32, 2, ACL_INT8, s23, 0, ACL_FORMAT_ND, sd2, 1, b);
    assert_non_null(t);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(t, t, t, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    aclDestroyTensor(t);
    /* Interleaved, over 4M elements and a span over 2^34: not checked, refused, and the message
       says it was not proven (it does not claim a shared address). */
    const int64_t d3[3] = {3, 2, 700000}, s3[3] = {2, 3, 32768};
    const int64_t sd3[1] = {7 + (int64_t)699999 * 32768 + 1}, one[1] = {1}, z3[3] = {0, 0, 0};
    aclTensor *gi = aclCreateTensor(d3, 3, ACL_INT8, z3, 0, ACL_FORMAT_ND, one, 1, b);
    t = aclCreateTensor(d3, 3, ACL_INT8, s3, 0, ACL_FORMAT_ND, sd3, 1, b);
    assert_non_null(gi);
    assert_non_null(t);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(gi, gi, t, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "could not be proven");
    aclDestroyTensor(t);
    aclDestroyTensor(gi);
    /* A workspace beyond 2^63 - 1 bytes is refused, not wrapped: gradInput {2^61, 2} with
       strides {3, 1} (disjoint, not contiguous: packed, 2^62 bytes) and both inputs of stride 0
       (packed too): 3 * 2^62 bytes. The views lie in memory the runtime does not know, and the
       executor is never run. */
    const int64_t dw[2] = {(int64_t)1 << 61, 2}, sw[2] = {3, 1}, zw[2] = {0, 0};
    const int64_t sdw[1] = {((int64_t)3 << 61) + 2};
    gi = aclCreateTensor(dw, 2, ACL_INT8, zw, 0, ACL_FORMAT_ND, one, 1, b);
    t = aclCreateTensor(dw, 2, ACL_INT8, sw, 0, ACL_FORMAT_ND, sdw, 1, b);
    assert_non_null(gi);
    assert_non_null(t);
    ws = 1;
    ex = NULL;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(gi, gi, t, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "workspace");
    assert_int_equal(ws, 1); /* nothing written on a failure */
    assert_null(ex);
    aclDestroyTensor(t);
    aclDestroyTensor(gi);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_out_of_place),    cmocka_unit_test(test_views_in_place),
        cmocka_unit_test(test_views_partial_overlap), cmocka_unit_test(test_views_large),
        cmocka_unit_test(test_output_self_overlap),   cmocka_unit_test(test_huge_strides_phase1),
    };
    return cmocka_run_group_tests(tests, sgt_setup, sgt_teardown);
}
