/* aclCreateTensor's descriptor checks and aclDestroyTensor. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"

static float buf[64];

static void test_valid(void **state) {
    (void)state;
    const int64_t d[2] = {4, 2}, s[2] = {2, 1};
    aclTensor *t = aclCreateTensor(d, 2, ACL_FLOAT, s, 0, ACL_FORMAT_ND, d, 2, buf);
    assert_non_null(t);
    assert_int_equal(aclDestroyTensor(t), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclDestroyTensor", "already destroyed");
    assert_int_equal(aclDestroyTensor(NULL), ACLNN_SUCCESS); /* as CANN: nothing to do */
    /* Rank 0, NULL strides (row-major), any format, an empty view with no data. */
    t = aclCreateTensor(NULL, 0, ACL_FLOAT16, NULL, 0, ACL_FORMAT_NCHW, NULL, 0, buf);
    assert_non_null(t);
    aclDestroyTensor(t);
    t = aclCreateTensor(d, 2, ACL_INT8, NULL, 0, (aclFormat)77, d, 2, buf);
    assert_non_null(t);
    aclDestroyTensor(t);
    const int64_t e[3] = {3, 0, 5};
    t = aclCreateTensor(e, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, e, 3, NULL);
    assert_non_null(t);
    aclDestroyTensor(t);
    /* A view with an offset and a transposed stride inside a 64-element storage. */
    const int64_t vd[2] = {3, 4}, vs[2] = {1, 8}, sd[1] = {64};
    t = aclCreateTensor(vd, 2, ACL_FLOAT, vs, 37, ACL_FORMAT_ND, sd, 1, buf);
    assert_non_null(t); /* reach 37 + 2 + 24 = 63 */
    aclDestroyTensor(t);
    assert_null(aclCreateTensor(vd, 2, ACL_FLOAT, vs, 38, ACL_FORMAT_ND, sd, 1, buf));
    assert_msg_has("aclCreateTensor", "storage");
}

static void test_bad_descriptors(void **state) {
    (void)state;
    const int64_t d[2] = {4, 2}, s[2] = {2, 1};
    assert_null(aclCreateTensor(NULL, 2, ACL_FLOAT, s, 0, ACL_FORMAT_ND, d, 2, buf));
    assert_msg_has("aclCreateTensor", "viewDims is NULL");
    assert_null(aclCreateTensor(d, 2, ACL_FLOAT, s, 0, ACL_FORMAT_ND, NULL, 2, buf));
    assert_msg_has("aclCreateTensor", "storageDims is NULL");
    const int64_t neg[2] = {4, -2};
    assert_null(aclCreateTensor(neg, 2, ACL_FLOAT, s, 0, ACL_FORMAT_ND, d, 2, buf));
    assert_msg_has("aclCreateTensor", "viewDims[1] is -2");
    assert_null(aclCreateTensor(d, 2, ACL_FLOAT, s, 0, ACL_FORMAT_ND, neg, 2, buf));
    assert_msg_has("aclCreateTensor", "storageDims[1]");
    const int64_t ns[2] = {-2, 1};
    assert_null(aclCreateTensor(d, 2, ACL_FLOAT, ns, 0, ACL_FORMAT_ND, d, 2, buf));
    assert_msg_has("aclCreateTensor", "stride[0] is -2");
    assert_null(aclCreateTensor(d, 2, ACL_FLOAT, s, -1, ACL_FORMAT_ND, d, 2, buf));
    assert_msg_has("aclCreateTensor", "offset");
    /* Any dataType value makes a tensor, as in CANN; the operator refuses it (test_aclnn_op) */
    const aclDataType odd[] = {(aclDataType)5, ACL_DT_UNDEFINED, (aclDataType)1000, ACL_INT4,
                               ACL_HIFLOAT8};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        aclTensor *u = aclCreateTensor(d, 2, odd[i], s, 0, ACL_FORMAT_ND, d, 2, buf);
        assert_non_null(u);
        assert_int_equal(aclDestroyTensor(u), ACLNN_SUCCESS);
    }
    /* Element and byte counts that overflow int64. */
    const int64_t huge[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 2};
    const int64_t hs[3] = {0, 0, 0};
    assert_null(aclCreateTensor(huge, 3, ACL_FLOAT, hs, 0, ACL_FORMAT_ND, huge, 3, buf));
    assert_msg_has("aclCreateTensor", "overflow");
    const int64_t big[1] = {INT64_C(1) << 62};
    assert_null(aclCreateTensor(big, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, big, 1, buf));
    assert_msg_has("aclCreateTensor", "byte count");
    /* The storage's bytes at most 2^63 - 1, as the native API's size check (docs/api.md): of
       4-byte elements 2^61 - 1 are accepted and 2^61 refused, of 2-byte ones 2^62 - 1 and 2^62;
       1-byte elements are bounded by int64 itself. */
    const struct {
        aclDataType dt;
        int64_t most;
    } edge[] = {{ACL_FLOAT, (INT64_C(1) << 61) - 1},
                {ACL_INT32, (INT64_C(1) << 61) - 1},
                {ACL_FLOAT16, (INT64_C(1) << 62) - 1},
                {ACL_BF16, (INT64_C(1) << 62) - 1},
                {ACL_INT8, INT64_MAX}};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        const int64_t at[1] = {edge[i].most};
        aclTensor *e = aclCreateTensor(at, 1, edge[i].dt, NULL, 0, ACL_FORMAT_ND, at, 1, buf);
        assert_non_null(e);
        assert_int_equal(aclDestroyTensor(e), ACLNN_SUCCESS);
        if (edge[i].most == INT64_MAX) continue;
        const int64_t past[1] = {edge[i].most + 1};
        assert_null(aclCreateTensor(past, 1, edge[i].dt, NULL, 0, ACL_FORMAT_ND, past, 1, buf));
        assert_msg_has("aclCreateTensor", "byte count");
    }
    /* A stride that takes the view past int64. */
    const int64_t one[1] = {3}, st[1] = {INT64_MAX / 2 + 1}, sd[1] = {64};
    assert_null(aclCreateTensor(one, 1, ACL_FLOAT, st, 0, ACL_FORMAT_ND, sd, 1, buf));
    assert_msg_has("aclCreateTensor", "is beyond 2^63 - 1");
    /* The view reaching outside its storage: {4,2} row-major needs 8 elements. */
    const int64_t small[1] = {7};
    assert_null(aclCreateTensor(d, 2, ACL_FLOAT, s, 0, ACL_FORMAT_ND, small, 1, buf));
    assert_msg_has("aclCreateTensor", "holds 7");
    /* A zero dim with an overflowing product elsewhere is simply empty. */
    const int64_t z[3] = {INT64_C(1) << 40, 0, INT64_C(1) << 40};
    aclTensor *t = aclCreateTensor(z, 3, ACL_FLOAT, hs, 0, ACL_FORMAT_ND, z, 3, NULL);
    assert_non_null(t);
    aclDestroyTensor(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_bad_descriptors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
