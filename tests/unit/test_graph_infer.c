/* docs/contract.md, "Op definition", "InferShape", "InferDataType": every case verbatim. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "selugrad/selugrad_graph.h"

static selugrad_shape mk(size_t rank, const int64_t *dims) {
    selugrad_shape s;
    memset(&s, 0, sizeof s);
    s.rank = rank;
    for (size_t i = 0; i < rank; i++) s.dims[i] = dims[i];
    return s;
}

static void assert_shape(const selugrad_shape *s, size_t rank, const int64_t *dims) {
    assert_int_equal(s->rank, rank);
    for (size_t i = 0; i < rank; i++) assert_int_equal(s->dims[i], dims[i]);
}

static void test_definition(void **state) {
    (void)state;
    const selugrad_op_def *d = selugrad_op_def_get();
    assert_string_equal(d->op_type, "SeluGrad");
    assert_int_equal(d->num_inputs, 2);
    assert_string_equal(d->input_names[0], "gradients");
    assert_string_equal(d->input_names[1], "outputs");
    assert_int_equal(d->num_outputs, 1);
    assert_string_equal(d->output_names[0], "y");
    assert_int_equal(d->num_attrs, 0);
    assert_string_equal(d->format, "ND");
    /* {FLOAT16, FLOAT, BF16, INT32, INT8, UINT8} as CANN's aclDataType numbers */
    const int want[6] = {1, 0, 27, 3, 2, 4};
    assert_int_equal(d->num_dtypes, 6);
    for (int i = 0; i < 6; i++) assert_int_equal((int)d->dtypes[i], want[i]);
}

static void test_same_shapes(void **state) {
    (void)state;
    const int64_t a[] = {2, 3, 4};
    selugrad_shape g = mk(3, a), o = mk(3, a), y;
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_OK);
    assert_shape(&y, 3, a);
}

static void test_dim_mismatch_fails(void **state) {
    (void)state;
    const int64_t a[] = {2, 3, 4}, b[] = {1, 3, 1};
    selugrad_shape g = mk(3, a), o = mk(3, b), y;
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_ERR_BAD_ARGUMENT);
    assert_true(strlen(selugrad_last_error()) > 0);
}

static void test_dynamic_dim(void **state) {
    (void)state;
    const int64_t a[] = {-1, 3, 4}, b[] = {2, 3, 4}, c[] = {2, 5, 4};
    selugrad_shape g = mk(3, a), o = mk(3, b), y;
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_OK);
    assert_shape(&y, 3, a);
    o = mk(3, c);
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_ERR_BAD_ARGUMENT);
}

static void test_unknown_rank(void **state) {
    (void)state;
    const int64_t u[] = {-2}, nine[] = {1, 2, 3, 4, 5, 6, 7, 8, 9},
                  eight[] = {1, 2, 3, 4, 5, 6, 7, 8};
    selugrad_shape g = mk(1, u), o = mk(9, nine), y;
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_ERR_BAD_ARGUMENT);
    /* the comparison is skipped: {-2} with any rank up to 8 gives {-2} */
    o = mk(8, eight);
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_OK);
    assert_shape(&y, 1, u);
    /* a known gradients with an unknown-rank outputs keeps gradients' shape */
    assert_int_equal(selugrad_infer_shape(&o, &g, &y), SELUGRAD_OK);
    assert_shape(&y, 8, eight);
}

static void test_rank_limits(void **state) {
    (void)state;
    const int64_t nine[] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
    selugrad_shape g = mk(9, nine), o = mk(9, nine), y;
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_ERR_BAD_ARGUMENT);
    const int64_t a[] = {2, 3}, b[] = {2, 3, 1};
    g = mk(2, a);
    o = mk(3, b);
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_ERR_BAD_ARGUMENT);
    /* rank 0 (a scalar) is fine */
    g = mk(0, a);
    o = mk(0, a);
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_OK);
    assert_int_equal(y.rank, 0);
}

static void test_empty_and_bad_forms(void **state) {
    (void)state;
    const int64_t e[] = {0, 3}, bad[] = {2, -3};
    selugrad_shape g = mk(2, e), o = mk(2, e), y;
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_OK);
    assert_shape(&y, 2, e);
    o = mk(2, bad);
    assert_int_equal(selugrad_infer_shape(&g, &o, &y), SELUGRAD_ERR_BAD_ARGUMENT);
    g.rank = SELUGRAD_SHAPE_DIMS + 1;
    assert_int_equal(selugrad_infer_shape(&g, &g, &y), SELUGRAD_ERR_BAD_ARGUMENT);
    assert_int_equal(selugrad_infer_shape(NULL, &o, &y), SELUGRAD_ERR_NULL_POINTER);
    assert_int_equal(selugrad_infer_shape(&o, &o, NULL), SELUGRAD_ERR_NULL_POINTER);
}

/* The rules of docs/contract.md, "InferShape", one row each, with y checked whole: a copy of
   gradients on success, and on a failure left exactly as it was (docs/api.md). Shapes are
   written as rank and dims; U is the unknown-rank form {-2}. */
static void test_infer_shape_table(void **state) {
    (void)state;
    enum { U = SELUGRAD_RANK_UNKNOWN, D = SELUGRAD_DIM_UNKNOWN };
    static const struct {
        size_t gr;
        int64_t g[9];
        size_t orank;
        int64_t o[9];
        selugrad_status want;
    } rows[] = {
        {3, {2, 3, 4}, 3, {2, 3, 4}, SELUGRAD_OK},
        {3, {2, 3, 4}, 3, {1, 3, 1}, SELUGRAD_ERR_BAD_ARGUMENT},
        {3, {D, 3, 4}, 3, {2, 3, 4}, SELUGRAD_OK},
        {3, {D, 3, 4}, 3, {2, 5, 4}, SELUGRAD_ERR_BAD_ARGUMENT},
        {1, {U}, 9, {1, 1, 1, 1, 1, 1, 1, 1, 1}, SELUGRAD_ERR_BAD_ARGUMENT},
        {9, {1, 1, 1, 1, 1, 1, 1, 1, 1}, 1, {U}, SELUGRAD_ERR_BAD_ARGUMENT},
        {9, {1, 1, 1, 1, 1, 1, 1, 1, 1}, 9, {1, 1, 1, 1, 1, 1, 1, 1, 1}, SELUGRAD_ERR_BAD_ARGUMENT},
        {8, {1, 2, 3, 4, 5, 6, 7, 8}, 8, {1, 2, 3, 4, 5, 6, 7, 8}, SELUGRAD_OK},
        {1, {U}, 1, {U}, SELUGRAD_OK},
        {1, {U}, 0, {0}, SELUGRAD_OK},
        {0, {0}, 1, {U}, SELUGRAD_OK},
        {2, {D, D}, 2, {7, D}, SELUGRAD_OK},
        {2, {2, 3}, 2, {D, D}, SELUGRAD_OK},
        {2, {D, 3}, 3, {D, 3, 1}, SELUGRAD_ERR_BAD_ARGUMENT}, /* ranks differ, even with -1 */
        {0, {0}, 1, {1}, SELUGRAD_ERR_BAD_ARGUMENT},          /* a scalar is not {1} */
        {1, {0}, 1, {0}, SELUGRAD_OK},                        /* empty */
        {1, {0}, 1, {1}, SELUGRAD_ERR_BAD_ARGUMENT},
        {2, {U, 3}, 2, {U, 3}, SELUGRAD_ERR_BAD_ARGUMENT}, /* -2 is only the rank-1 form */
        {1, {-3}, 1, {2}, SELUGRAD_ERR_BAD_ARGUMENT},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        selugrad_shape g = mk(rows[r].gr, rows[r].g);
        selugrad_shape o = mk(rows[r].orank, rows[r].o);
        selugrad_shape y, before;
        memset(&y, 0x5A, sizeof y);
        before = y;
        selugrad_status st = selugrad_infer_shape(&g, &o, &y);
        if (st != rows[r].want) print_error("row %zu: status %d\n", r, (int)st);
        assert_int_equal(st, rows[r].want);
        if (st == SELUGRAD_OK)
            assert_shape(&y, g.rank, g.dims);
        else
            assert_memory_equal(&y, &before, sizeof y);
    }
}

static void test_infer_dtype(void **state) {
    (void)state;
    const int all[6] = {0, 1, 2, 3, 4, 27};
    for (int i = 0; i < 6; i++) {
        selugrad_dtype y = (selugrad_dtype)99;
        assert_int_equal(selugrad_infer_dtype((selugrad_dtype)all[i], SELUGRAD_FLOAT, &y),
                         SELUGRAD_OK);
        assert_int_equal((int)y, all[i]);
    }
    selugrad_dtype y = (selugrad_dtype)77;
    assert_int_equal(selugrad_infer_dtype((selugrad_dtype)6, SELUGRAD_FLOAT, &y),
                     SELUGRAD_ERR_BAD_DTYPE);
    assert_int_equal((int)y, 77); /* left as it was */
    /* y is gradients' dtype, whatever outputs is (outputs is not compared here) */
    assert_int_equal(selugrad_infer_dtype(SELUGRAD_INT8, SELUGRAD_BF16, &y), SELUGRAD_OK);
    assert_int_equal(y, SELUGRAD_INT8);
    assert_int_equal(selugrad_infer_dtype(SELUGRAD_FLOAT, SELUGRAD_FLOAT, NULL),
                     SELUGRAD_ERR_NULL_POINTER);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_definition),          cmocka_unit_test(test_same_shapes),
        cmocka_unit_test(test_dim_mismatch_fails),  cmocka_unit_test(test_dynamic_dim),
        cmocka_unit_test(test_unknown_rank),        cmocka_unit_test(test_rank_limits),
        cmocka_unit_test(test_empty_and_bad_forms), cmocka_unit_test(test_infer_dtype),
        cmocka_unit_test(test_infer_shape_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
