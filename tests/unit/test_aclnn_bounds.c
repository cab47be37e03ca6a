/*
 * Views held to their allocation: a tensor whose data pointer lies in an aclrtMalloc or
 * aclrtMallocHost block must keep every element inside that block, whatever its storage dims
 * claim (phase 1 gives 161002 otherwise). The edges: the last element exactly at the end and one
 * past it, offsets, a pointer into the middle of a block and at its end, stride 0, in place,
 * negative strides, and the program's own memory, which keeps the storage-dims check only.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"

#define FN1 "aclnnSeluBackwardGetWorkspaceSize"

static void *dev(size_t bytes) {
    void *p = NULL;
    assert_int_equal(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(p, 0, bytes);
    return p;
}

static aclTensor *view(const int64_t *dims, uint64_t rank, const int64_t *strides, int64_t offset,
                       int64_t storage, void *data) {
    const int64_t sd[1] = {storage};
    aclTensor *t =
        aclCreateTensor(dims, rank, ACL_FLOAT, strides, offset, ACL_FORMAT_ND, sd, 1, data);
    assert_non_null(t);
    return t;
}

/* Phase 1 with (g, o, y); on success runs it and destroys the executor. */
static int phase1(const aclTensor *g, const aclTensor *o, aclTensor *y) {
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int rc = aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &ex);
    if (rc != ACLNN_SUCCESS) return rc;
    void *w = NULL;
    if (ws) assert_int_equal(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclnnSeluBackward(w, ws, ex, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    if (w) aclrtFree(w);
    return rc;
}

/* 64 bytes under dims {4, 4}, strides {2^40, 1}, storage dims {2^43}: the last
   element is at 3 * 2^40 + 3, so the elements end at byte 4 * (3 * 2^40 + 4). */
static void test_huge_stride_refused(void **state) {
    (void)state;
    float *b = dev(64);
    const int64_t d[2] = {4, 4}, s[2] = {(int64_t)1 << 40, 1};
    aclTensor *bad = view(d, 2, s, 0, (int64_t)1 << 43, b);
    aclTensor *ok = view(d, 2, NULL, 0, 16, b);
    assert_int_equal(phase1(bad, ok, ok), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has2(FN1, "gradOutput reaches bytes [0, 13194139533328)",
                    "block of 64 bytes from aclrtMalloc");
    assert_int_equal(phase1(ok, bad, ok), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "result reaches");
    assert_int_equal(phase1(ok, ok, bad), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "gradInput reaches");
    aclDestroyTensor(bad);
    aclDestroyTensor(ok);
    aclrtFree(b);
}

/* 17 floats: offset 1 puts the 16th element on the last 4 bytes; offset 2 one past them. */
static void test_last_element_edges(void **state) {
    (void)state;
    float *g = dev(68), *o = dev(68), *y = dev(68);
    for (int i = 0; i < 17; i++) g[i] = (float)(i + 1), o[i] = (float)(i - 8) / 4;
    const int64_t d[2] = {4, 4};
    aclTensor *tg = view(d, 2, NULL, 1, 17, g), *to = view(d, 2, NULL, 1, 17, o);
    aclTensor *ty = view(d, 2, NULL, 1, 17, y);
    assert_int_equal(phase1(tg, to, ty), ACLNN_SUCCESS);
    for (int i = 1; i < 17; i++) assert_true(sgt_same_f32(y[i], sgt_ref_f32(g[i], o[i])));
    assert_true(y[0] == 0.0f);
    aclDestroyTensor(ty);
    /* storage dims of 18 let aclCreateTensor accept offset 2; the block does not */
    ty = view(d, 2, NULL, 2, 18, y);
    assert_int_equal(phase1(tg, to, ty), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "gradInput reaches bytes [8, 72) from its data pointer");
    aclDestroyTensor(ty);
    /* strides {5, 1}: the last element at 3 * 5 + 3 = 18 of 17 */
    const int64_t s5[2] = {5, 1};
    ty = view(d, 2, s5, 0, 19, y);
    assert_int_equal(phase1(tg, to, ty), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "[0, 76)");
    aclDestroyTensor(ty);
    /* strides {4, 1} from offset 1: the last element exactly at the end again */
    const int64_t s4[2] = {4, 1};
    ty = view(d, 2, s4, 1, 17, y);
    assert_int_equal(phase1(tg, to, ty), ACLNN_SUCCESS);
    aclDestroyTensor(ty);
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclrtFree(g);
    aclrtFree(o);
    aclrtFree(y);
}

/* A block whose size is not a whole number of elements: 33 bytes hold 8 floats, not 9. */
static void test_partial_last_element(void **state) {
    (void)state;
    float *b = dev(33);
    const int64_t d8[1] = {8}, d9[1] = {9};
    aclTensor *t8 = view(d8, 1, NULL, 0, 8, b), *t9 = view(d9, 1, NULL, 0, 9, b);
    assert_int_equal(phase1(t8, t8, t8), ACLNN_SUCCESS);
    assert_int_equal(phase1(t9, t9, t9), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "[0, 36)");
    aclDestroyTensor(t8);
    aclDestroyTensor(t9);
    aclrtFree(b);
}

/* A data pointer into the middle of a block, or exactly at its end. */
static void test_pointer_inside_and_at_end(void **state) {
    (void)state;
    float *b = dev(64);
    const int64_t d14[1] = {14}, d15[1] = {15}, d1[1] = {1};
    aclTensor *in = view(d14, 1, NULL, 0, 14, b + 2), *over = view(d15, 1, NULL, 0, 15, b + 2);
    assert_int_equal(phase1(in, in, in), ACLNN_SUCCESS);
    assert_int_equal(phase1(over, over, over), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "which is 8 bytes into a block of 64 bytes");
    /* the pointer just past the end is not the block's: another allocation may begin there */
    aclTensor *end = view(d1, 1, NULL, 0, 1, b + 16);
    assert_int_equal(phase1(end, end, end), ACLNN_SUCCESS);
    /* ... but an empty view there needs no element */
    const int64_t d0[1] = {0};
    aclTensor *empty = view(d0, 1, NULL, 0, 0, b + 16);
    assert_int_equal(phase1(empty, empty, empty), ACLNN_SUCCESS);
    aclDestroyTensor(in);
    aclDestroyTensor(over);
    aclDestroyTensor(end);
    aclDestroyTensor(empty);
    aclrtFree(b);
}

/* Offsets alone can leave the block: {1} at offset 16 of 16 floats. */
static void test_offset(void **state) {
    (void)state;
    float *b = dev(64);
    const int64_t d1[1] = {1};
    aclTensor *last = view(d1, 1, NULL, 15, 16, b), *past = view(d1, 1, NULL, 16, 17, b);
    assert_int_equal(phase1(last, last, last), ACLNN_SUCCESS);
    assert_int_equal(phase1(past, past, past), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "[64, 68)");
    aclDestroyTensor(last);
    aclDestroyTensor(past);
    aclrtFree(b);
}

/* Stride 0 (a broadcast input): one element of a 4-byte block serves a {4, 4} view. */
static void test_stride_zero(void **state) {
    (void)state;
    float *one = dev(4), *y = dev(64), *o = dev(64);
    one[0] = 3.0f;
    for (int i = 0; i < 16; i++) o[i] = (float)(i - 8);
    const int64_t d[2] = {4, 4}, z[2] = {0, 0};
    aclTensor *g = view(d, 2, z, 0, 1, one), *to = view(d, 2, NULL, 0, 16, o);
    aclTensor *ty = view(d, 2, NULL, 0, 16, y);
    assert_int_equal(phase1(g, to, ty), ACLNN_SUCCESS);
    for (int i = 0; i < 16; i++) assert_true(sgt_same_f32(y[i], sgt_ref_f32(3.0f, o[i])));
    aclTensor *g1 = view(d, 2, z, 1, 2, one);
    assert_int_equal(phase1(g1, to, ty), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "gradOutput reaches bytes [4, 8)");
    aclDestroyTensor(g);
    aclDestroyTensor(g1);
    aclDestroyTensor(to);
    aclDestroyTensor(ty);
    aclrtFree(one);
    aclrtFree(y);
    aclrtFree(o);
}

/* In place: gradInput is gradOutput's view over its exact block; then one reaching past it. */
static void test_in_place(void **state) {
    (void)state;
    float *g = dev(64), *o = dev(64), g0[16];
    for (int i = 0; i < 16; i++) g[i] = g0[i] = (float)i / 3, o[i] = (float)(7 - i) / 2;
    const int64_t d[2] = {4, 4}, s[2] = {1, 4}; /* transposed, still inside */
    aclTensor *tg = view(d, 2, s, 0, 16, g), *to = view(d, 2, s, 0, 16, o);
    assert_int_equal(phase1(tg, to, tg), ACLNN_SUCCESS);
    for (int i = 0; i < 16; i++) assert_true(sgt_same_f32(g[i], sgt_ref_f32(g0[i], o[i])));
    const int64_t s5[2] = {1, 5};
    aclTensor *ty = view(d, 2, s5, 0, 19, g);
    assert_int_equal(phase1(tg, to, ty), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "gradInput reaches bytes [0, 76)");
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyTensor(ty);
    aclrtFree(g);
    aclrtFree(o);
}

/* Negative strides never reach phase 1: aclCreateTensor refuses them. */
static void test_negative_stride(void **state) {
    (void)state;
    float *b = dev(64);
    const int64_t d[1] = {4}, s[1] = {-1}, sd[1] = {16};
    assert_null(aclCreateTensor(d, 1, ACL_FLOAT, s, 3, ACL_FORMAT_ND, sd, 1, b));
    assert_msg_has("aclCreateTensor", "stride[0] is -1");
    aclrtFree(b);
}

/* aclrtMallocHost blocks are held the same way. */
static void test_host_block(void **state) {
    (void)state;
    void *h = NULL;
    assert_int_equal(aclrtMallocHost(&h, 64), ACL_SUCCESS);
    memset(h, 0, 64);
    const int64_t d16[1] = {16}, d17[1] = {17};
    aclTensor *ok = view(d16, 1, NULL, 0, 16, h), *bad = view(d17, 1, NULL, 0, 17, h);
    assert_int_equal(phase1(ok, ok, ok), ACLNN_SUCCESS);
    assert_int_equal(phase1(bad, bad, bad), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has(FN1, "block of 64 bytes from aclrtMallocHost");
    aclDestroyTensor(ok);
    aclDestroyTensor(bad);
    aclrtFreeHost(h);
}

/* Memory the runtime does not know keeps only the storage-dims check: phase 1 accepts a view
   that storage dims allow (not run here: it would leave the array). */
static void test_unknown_memory(void **state) {
    (void)state;
    float b[16] = {0};
    const int64_t d[2] = {4, 4}, s[2] = {(int64_t)1 << 40, 1};
    aclTensor *t = view(d, 2, s, 0, (int64_t)1 << 43, b);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(t, t, t, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    aclDestroyTensor(t);
    /* A freed block is unknown again. */
    float *f = dev(64);
    aclTensor *tf = view(d, 2, s, 0, (int64_t)1 << 43, f);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(tf, tf, tf, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    aclrtFree(f);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(tf, tf, tf, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    aclDestroyTensor(tf);
}

/* Many blocks at once: each view is held to its own block, found among the others. */
static void test_many_blocks(void **state) {
    (void)state;
    enum { N = 300 };
    float *blk[N];
    for (int i = 0; i < N; i++) blk[i] = dev((size_t)(i % 7 + 1) * 4);
    for (int i = 0; i < N; i++) {
        int64_t n = i % 7 + 1, d[1] = {n}, d1[1] = {n + 1};
        aclTensor *ok = view(d, 1, NULL, 0, n, blk[i]), *bad = view(d1, 1, NULL, 0, n + 1, blk[i]);
        assert_int_equal(phase1(ok, ok, ok), ACLNN_SUCCESS);
        assert_int_equal(phase1(bad, bad, bad), ACLNN_ERR_PARAM_INVALID);
        aclDestroyTensor(ok);
        aclDestroyTensor(bad);
        if (i % 2) aclrtFree(blk[i]);
    }
    for (int i = 0; i < N; i += 2) aclrtFree(blk[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_huge_stride_refused),
        cmocka_unit_test(test_last_element_edges),
        cmocka_unit_test(test_partial_last_element),
        cmocka_unit_test(test_pointer_inside_and_at_end),
        cmocka_unit_test(test_offset),
        cmocka_unit_test(test_stride_zero),
        cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_negative_stride),
        cmocka_unit_test(test_host_block),
        cmocka_unit_test(test_unknown_memory),
        cmocka_unit_test(test_many_blocks),
    };
    return cmocka_run_group_tests(tests, sgt_setup, sgt_teardown);
}
