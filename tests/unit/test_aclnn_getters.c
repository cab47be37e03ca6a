/*
 * The aclTensor getters from C: the values given to aclCreateTensor come back, the arrays are the
 * caller's (freed with aclnnSelugradFreeArray), and the codes are CANN's: 161001 for a NULL
 * tensor or out-pointer, 161002 (ours, with a message) for a tensor that is not live.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"

static void assert_array(const int64_t *got, uint64_t n, const int64_t *want, uint64_t wn) {
    assert_int_equal(n, wn);
    assert_non_null(got);
    for (uint64_t i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
}

static void test_values(void **state) {
    (void)state;
    int8_t buf[64];
    const int64_t dims[3] = {2, 3, 4}, strides[3] = {1, 8, 2}, storage[2] = {5, 12};
    aclTensor *t = aclCreateTensor(dims, 3, ACL_BF16, strides, 7, ACL_FORMAT_NCL, storage, 2, buf);
    assert_non_null(t);
    int64_t *a = NULL;
    uint64_t n = 99;
    assert_int_equal(aclGetViewShape(t, &a, &n), ACLNN_SUCCESS);
    assert_array(a, n, dims, 3);
    aclnnSelugradFreeArray(a);
    assert_int_equal(aclGetViewStrides(t, &a, &n), ACLNN_SUCCESS);
    assert_array(a, n, strides, 3);
    aclnnSelugradFreeArray(a);
    assert_int_equal(aclGetStorageShape(t, &a, &n), ACLNN_SUCCESS);
    assert_array(a, n, storage, 2);
    aclnnSelugradFreeArray(a);
    int64_t off = -1;
    assert_int_equal(aclGetViewOffset(t, &off), ACLNN_SUCCESS);
    assert_int_equal(off, 7);
    aclFormat f = ACL_FORMAT_UNDEFINED;
    assert_int_equal(aclGetFormat(t, &f), ACLNN_SUCCESS);
    assert_int_equal(f, ACL_FORMAT_NCL);
    aclDataType dt = ACL_DT_UNDEFINED;
    assert_int_equal(aclGetDataType(t, &dt), ACLNN_SUCCESS);
    assert_int_equal(dt, ACL_BF16);
    aclDestroyTensor(t);
}

/* stride NULL: the row-major strides aclCreateTensor took; any dtype and format value is kept. */
static void test_defaults_and_kept_values(void **state) {
    (void)state;
    float buf[24];
    const int64_t dims[3] = {2, 3, 4};
    aclTensor *t = aclCreateTensor(dims, 3, (aclDataType)99, NULL, 0, (aclFormat)77, dims, 3, buf);
    assert_non_null(t);
    int64_t *a = NULL;
    uint64_t n = 0;
    const int64_t rowmajor[3] = {12, 4, 1};
    assert_int_equal(aclGetViewStrides(t, &a, &n), ACLNN_SUCCESS);
    assert_array(a, n, rowmajor, 3);
    aclnnSelugradFreeArray(a);
    aclDataType dt;
    aclFormat f;
    assert_int_equal(aclGetDataType(t, &dt), ACLNN_SUCCESS);
    assert_int_equal(aclGetFormat(t, &f), ACLNN_SUCCESS);
    assert_int_equal((int)dt, 99);
    assert_int_equal((int)f, 77);
    aclDestroyTensor(t);
}

/* Rank 0 and no storage dims: a count of 0 and still an array to free (CANN's new int64_t[0]). */
static void test_rank0(void **state) {
    (void)state;
    float x = 1.0f;
    aclTensor *t = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, &x);
    assert_non_null(t);
    int64_t *a = NULL, *b = NULL, *c = NULL;
    uint64_t n = 5, m = 5, k = 5;
    assert_int_equal(aclGetViewShape(t, &a, &n), ACLNN_SUCCESS);
    assert_int_equal(aclGetViewStrides(t, &b, &m), ACLNN_SUCCESS);
    assert_int_equal(aclGetStorageShape(t, &c, &k), ACLNN_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(m, 0);
    assert_int_equal(k, 0);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    aclnnSelugradFreeArray(a);
    aclnnSelugradFreeArray(b);
    aclnnSelugradFreeArray(c);
    aclnnSelugradFreeArray(NULL);
    aclDestroyTensor(t);
}

/* The longest view aclCreateTensor takes (4096 dims of 1). */
static void test_rank4096(void **state) {
    (void)state;
    static int64_t dims[4096], strides[4096];
    for (int i = 0; i < 4096; i++) dims[i] = 1, strides[i] = i;
    float x = 0.0f;
    aclTensor *t = aclCreateTensor(dims, 4096, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, &x);
    assert_non_null(t);
    int64_t *a = NULL;
    uint64_t n = 0;
    assert_int_equal(aclGetViewStrides(t, &a, &n), ACLNN_SUCCESS);
    assert_array(a, n, strides, 4096);
    aclnnSelugradFreeArray(a);
    aclDestroyTensor(t);
}

static void test_null_arguments(void **state) {
    (void)state;
    float buf[4];
    const int64_t dims[1] = {4};
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, buf);
    int64_t *a = NULL, off;
    uint64_t n;
    aclFormat f;
    aclDataType dt;
    assert_int_equal(aclGetViewShape(NULL, &a, &n), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclGetViewShape", "tensor is NULL");
    assert_int_equal(aclGetViewShape(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetViewShape(t, &a, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclGetViewShape", "out-pointer is NULL");
    assert_int_equal(aclGetViewStrides(NULL, &a, &n), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetViewStrides(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetViewStrides(t, &a, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetStorageShape(NULL, &a, &n), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetStorageShape(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetStorageShape(t, &a, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetViewOffset(NULL, &off), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetViewOffset(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclGetViewOffset", "out-pointer is NULL");
    assert_int_equal(aclGetFormat(NULL, &f), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetFormat(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetDataType(NULL, &dt), ACLNN_ERR_PARAM_NULLPTR);
    assert_int_equal(aclGetDataType(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclGetDataType", "out-pointer is NULL");
    assert_null(a); /* nothing was allocated */
    aclDestroyTensor(t);
}

/* A destroyed tensor: 161002, the outputs untouched. */
static void test_dead_tensor(void **state) {
    (void)state;
    float buf[4];
    const int64_t dims[1] = {4};
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, buf);
    assert_int_equal(aclDestroyTensor(t), ACLNN_SUCCESS);
    int64_t *a = NULL, off = 42;
    uint64_t n = 42;
    aclFormat f = ACL_FORMAT_NHWC;
    aclDataType dt = ACL_INT8;
    assert_int_equal(aclGetViewShape(t, &a, &n), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclGetViewShape", "is not a live aclTensor");
    assert_int_equal(aclGetViewStrides(t, &a, &n), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclGetStorageShape(t, &a, &n), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclGetViewOffset(t, &off), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclGetFormat(t, &f), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclGetDataType(t, &dt), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclGetDataType", "is not a live aclTensor");
    assert_null(a);
    assert_int_equal(n, 42);
    assert_int_equal(off, 42);
    assert_int_equal(f, ACL_FORMAT_NHWC);
    assert_int_equal(dt, ACL_INT8);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),         cmocka_unit_test(test_defaults_and_kept_values),
        cmocka_unit_test(test_rank0),          cmocka_unit_test(test_rank4096),
        cmocka_unit_test(test_null_arguments), cmocka_unit_test(test_dead_tensor),
    };
    return cmocka_run_group_tests(tests, sgt_setup, sgt_teardown);
}
