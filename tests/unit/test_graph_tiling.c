/* docs/contract.md, "Tiling": the vectors and ubFormer tables verbatim, empty tensors, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "selugrad/selugrad_graph.h"

static selugrad_shape one_d(int64_t n) {
    selugrad_shape s;
    memset(&s, 0, sizeof s);
    s.rank = 1;
    s.dims[0] = n;
    return s;
}

typedef struct vec {
    int64_t total, cores, ub;
    selugrad_dtype dtype;
    int64_t block_former, ub_former, block_dim;
} vec;

static void test_spec_vectors(void **state) {
    (void)state;
    const vec v[] = {
        {16, 64, 245760, SELUGRAD_FLOAT, 32, 8192, 1},
        {24, 48, 196608, SELUGRAD_FLOAT, 32, 6496, 1},
        {2048, 64, 245760, SELUGRAD_FLOAT, 32, 8192, 64},
        {2049, 64, 245760, SELUGRAD_FLOAT, 64, 8192, 33},
        {1000, 48, 196608, SELUGRAD_FLOAT16, 32, 5536, 32},
        {100000, 48, 196608, SELUGRAD_INT8, 2112, 5376, 48},
        {13023360, 64, 245760, SELUGRAD_FLOAT, 203520, 8192, 64},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        selugrad_platform p = {v[i].cores, v[i].ub};
        selugrad_shape s = one_d(v[i].total);
        selugrad_tiling t;
        assert_int_equal(selugrad_tiling_platform(&p, &s, &s, v[i].dtype, v[i].dtype, &t),
                         SELUGRAD_OK);
        assert_int_equal(t.total_elements, v[i].total);
        assert_int_equal(t.block_former, v[i].block_former);
        assert_int_equal(t.ub_former, v[i].ub_former);
        assert_int_equal(t.block_dim, v[i].block_dim);
        assert_int_equal(t.workspace_size, 0);
    }
}

static void test_ub_former_tables(void **state) {
    (void)state;
    const selugrad_dtype dt[5] = {SELUGRAD_FLOAT, SELUGRAD_FLOAT16, SELUGRAD_INT32, SELUGRAD_INT8,
                                  SELUGRAD_UINT8};
    const int64_t at245760[5] = {8192, 6976, 5376, 6784, 6400};
    const int64_t at196608[5] = {6496, 5536, 4256, 5376, 5088};
    for (int i = 0; i < 5; i++) {
        selugrad_shape s = one_d(1000);
        selugrad_tiling t;
        selugrad_platform a = {64, 245760}, b = {48, 196608};
        assert_int_equal(selugrad_tiling_platform(&a, &s, &s, dt[i], dt[i], &t), SELUGRAD_OK);
        assert_int_equal(t.ub_former, at245760[i]);
        assert_int_equal(selugrad_tiling_platform(&b, &s, &s, dt[i], dt[i], &t), SELUGRAD_OK);
        assert_int_equal(t.ub_former, at196608[i]);
    }
    /* bf16 has fp16's bytes per element */
    selugrad_shape s = one_d(1000);
    selugrad_tiling t;
    selugrad_platform a = {64, 245760};
    assert_int_equal(selugrad_tiling_platform(&a, &s, &s, SELUGRAD_BF16, SELUGRAD_BF16, &t),
                     SELUGRAD_OK);
    assert_int_equal(t.ub_former, 6976);
    /* a tiny UB still gives the 32-element floor */
    selugrad_platform tiny = {4, 100};
    assert_int_equal(selugrad_tiling_platform(&tiny, &s, &s, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_OK);
    assert_int_equal(t.ub_former, 32);
}

static void test_soc_names(void **state) {
    (void)state;
    selugrad_shape s = one_d(13023360);
    selugrad_tiling t;
    assert_int_equal(selugrad_tiling_soc("Ascend950", &s, &s, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_OK);
    assert_int_equal(t.block_former, 203520);
    assert_int_equal(t.ub_former, 8192);
    assert_int_equal(t.block_dim, 64);
    s = one_d(1000);
    assert_int_equal(
        selugrad_tiling_soc("Ascend910B", &s, &s, SELUGRAD_FLOAT16, SELUGRAD_FLOAT16, &t),
        SELUGRAD_OK);
    assert_int_equal(t.block_former, 32);
    assert_int_equal(t.ub_former, 5536);
    assert_int_equal(t.block_dim, 32);
    assert_int_equal(selugrad_tiling_soc("Ascend999", &s, &s, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_true(selugrad_soc_count() >= 6);
    int found = 0;
    for (size_t i = 0; i < selugrad_soc_count(); i++)
        found += strcmp(selugrad_soc_name(i), "Ascend950") == 0;
    assert_int_equal(found, 1);
    assert_null(selugrad_soc_name(selugrad_soc_count()));
}

static void test_empty_and_scalar(void **state) {
    (void)state;
    selugrad_platform p = {48, 196608};
    selugrad_shape s;
    memset(&s, 0, sizeof s);
    s.rank = 3;
    s.dims[0] = 4;
    s.dims[1] = 0;
    s.dims[2] = 5;
    selugrad_tiling t;
    memset(&t, 0x55, sizeof t);
    assert_int_equal(selugrad_tiling_platform(&p, &s, &s, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_OK);
    assert_int_equal(t.total_elements, 0);
    assert_int_equal(t.block_former, 0);
    assert_int_equal(t.ub_former, 0);
    assert_int_equal(t.block_dim, 1);
    assert_int_equal(t.workspace_size, 0);
    /* 0 elements wherever the 0 sits, even after dims whose product overflows */
    s.dims[0] = INT64_MAX;
    s.dims[1] = INT64_MAX;
    s.dims[2] = 0;
    memset(&t, 0x55, sizeof t);
    assert_int_equal(selugrad_tiling_platform(&p, &s, &s, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_OK);
    assert_int_equal(t.total_elements, 0);
    assert_int_equal(t.block_dim, 1);
    s.rank = 0; /* a scalar counts one element */
    assert_int_equal(selugrad_tiling_platform(&p, &s, &s, SELUGRAD_INT8, SELUGRAD_INT8, &t),
                     SELUGRAD_OK);
    assert_int_equal(t.total_elements, 1);
    assert_int_equal(t.block_former, 32);
    assert_int_equal(t.block_dim, 1);
}

static void test_errors(void **state) {
    (void)state;
    selugrad_platform p = {48, 196608};
    selugrad_shape a = one_d(10), b = one_d(11), t9;
    selugrad_tiling t;
    assert_int_equal(selugrad_tiling_platform(&p, &a, &b, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_int_equal(selugrad_tiling_platform(&p, &a, &a, SELUGRAD_FLOAT, SELUGRAD_FLOAT16, &t),
                     SELUGRAD_ERR_BAD_DTYPE);
    assert_int_equal(selugrad_tiling_platform(&p, &a, &a, (selugrad_dtype)6, (selugrad_dtype)6, &t),
                     SELUGRAD_ERR_BAD_DTYPE);
    memset(&t9, 0, sizeof t9);
    t9.rank = 9;
    for (int i = 0; i < 9; i++) t9.dims[i] = 1;
    assert_int_equal(selugrad_tiling_platform(&p, &t9, &t9, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    selugrad_shape dyn = one_d(-1);
    assert_int_equal(selugrad_tiling_platform(&p, &dyn, &dyn, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    selugrad_platform none = {0, 196608};
    assert_int_equal(selugrad_tiling_platform(&none, &a, &a, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    selugrad_shape big;
    memset(&big, 0, sizeof big);
    big.rank = 3;
    big.dims[0] = big.dims[1] = big.dims[2] = INT64_C(1) << 30;
    assert_int_equal(selugrad_tiling_platform(&p, &big, &big, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_int_equal(selugrad_tiling_platform(NULL, &a, &a, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_NULL_POINTER);
    /* one core: blockFormer = CeilAlign(total, 32) must fit in int64 */
    selugrad_platform one = {1, 196608};
    selugrad_shape huge = one_d(INT64_MAX);
    memset(&t, 0x55, sizeof t);
    assert_int_equal(
        selugrad_tiling_platform(&one, &huge, &huge, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
        SELUGRAD_ERR_BAD_ARGUMENT);
    assert_int_equal(t.block_dim, 0x5555555555555555); /* untouched */
    huge = one_d(INT64_MAX - 31);                      /* 2^63 - 32: the largest multiple of 32 */
    assert_int_equal(
        selugrad_tiling_platform(&one, &huge, &huge, SELUGRAD_FLOAT, SELUGRAD_FLOAT, &t),
        SELUGRAD_OK);
    assert_int_equal(t.block_former, INT64_MAX - 31);
    assert_int_equal(t.block_dim, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_vectors), cmocka_unit_test(test_ub_former_tables),
        cmocka_unit_test(test_soc_names),    cmocka_unit_test(test_empty_and_scalar),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
