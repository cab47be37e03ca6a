/*
 * The SELU forward's graph side, as tables: the op definition, InferShape (unknown dims and the
 * unknown rank pass through; bad forms and ranks above 8 fail), InferDataType, and the tiling
 * of ops-nn's arch35 Selu kernel (docs/graph.md, "The SELU forward"), whose expected values are
 * worked by hand from its formula.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "selugrad/selugrad_graph.h"

static void test_def(void **state) {
    (void)state;
    const selugrad_op_def *d = selugrad_selu_op_def_get();
    assert_string_equal(d->op_type, "Selu");
    assert_int_equal(d->num_inputs, 1);
    assert_string_equal(d->input_names[0], "x");
    assert_int_equal(d->num_outputs, 1);
    assert_string_equal(d->output_names[0], "y");
    assert_int_equal(d->num_attrs, 0);
    const selugrad_dtype want[5] = {SELUGRAD_FLOAT16, SELUGRAD_FLOAT, SELUGRAD_BF16, SELUGRAD_INT32,
                                    SELUGRAD_INT8};
    assert_int_equal(d->num_dtypes, 5);
    for (int i = 0; i < 5; i++) assert_int_equal(d->dtypes[i], want[i]);
    assert_string_equal(d->format, "ND");
}

typedef struct shape_case {
    size_t rank;
    int64_t dims[17];
    selugrad_status want;
} shape_case;

static void test_infer_shape(void **state) {
    (void)state;
    const shape_case cases[] = {
        {3, {2, 3, 4}, SELUGRAD_OK},
        {3, {-1, 3, -1}, SELUGRAD_OK},
        {1, {-2}, SELUGRAD_OK}, /* unknown rank */
        {0, {0}, SELUGRAD_OK},  /* a scalar */
        {2, {0, 5}, SELUGRAD_OK},
        {8, {1, 2, 3, 4, 5, 6, 7, 8}, SELUGRAD_OK},
        {9, {1, 2, 3, 4, 5, 6, 7, 8, 9}, SELUGRAD_ERR_BAD_ARGUMENT},
        {2, {3, -3}, SELUGRAD_ERR_BAD_ARGUMENT},
        {2, {-2, 3}, SELUGRAD_ERR_BAD_ARGUMENT}, /* -2 only as the one-dim form */
        {17, {1}, SELUGRAD_ERR_BAD_ARGUMENT},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        selugrad_shape x = {cases[c].rank, {0}}, y;
        memset(&y, 0x5A, sizeof y);
        for (size_t i = 0; i < cases[c].rank && i < SELUGRAD_SHAPE_DIMS; i++)
            x.dims[i] = cases[c].dims[i];
        assert_int_equal(selugrad_selu_infer_shape(&x, &y), cases[c].want);
        if (cases[c].want == SELUGRAD_OK) {
            assert_int_equal(y.rank, x.rank);
            assert_memory_equal(y.dims, x.dims, x.rank * sizeof x.dims[0]);
        }
    }
    selugrad_shape s = {1, {4}};
    assert_int_equal(selugrad_selu_infer_shape(NULL, &s), SELUGRAD_ERR_NULL_POINTER);
    assert_int_equal(selugrad_selu_infer_shape(&s, NULL), SELUGRAD_ERR_NULL_POINTER);
}

static void test_infer_dtype(void **state) {
    (void)state;
    const struct {
        int x;
        selugrad_status want;
    } cases[] = {{SELUGRAD_FLOAT, SELUGRAD_OK}, {SELUGRAD_FLOAT16, SELUGRAD_OK},
                 {SELUGRAD_BF16, SELUGRAD_OK},  {SELUGRAD_INT32, SELUGRAD_OK},
                 {SELUGRAD_INT8, SELUGRAD_OK},  {SELUGRAD_UINT8, SELUGRAD_ERR_BAD_DTYPE},
                 {99, SELUGRAD_ERR_BAD_DTYPE},  {-1, SELUGRAD_ERR_BAD_DTYPE}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        selugrad_dtype y = (selugrad_dtype)77;
        assert_int_equal(selugrad_selu_infer_dtype((selugrad_dtype)cases[c].x, &y), cases[c].want);
        if (cases[c].want == SELUGRAD_OK) assert_int_equal(y, cases[c].x);
    }
    assert_int_equal(selugrad_selu_infer_dtype(SELUGRAD_FLOAT, NULL), SELUGRAD_ERR_NULL_POINTER);
}

typedef struct tiling_case {
    int64_t total, cores, ub;
    selugrad_dtype dtype;
    int64_t block_former, ub_former, block_dim;
} tiling_case;

static void test_tiling(void **state) {
    (void)state;
    /* ops-nn's arch35 Selu tiling, worked by hand: with s the element size and a = 32 / s,
       blockFormer = CeilAlign(CeilDiv(total, cores), a), blockDim = CeilDiv(total, blockFormer),
       ubFormer = FloorAlign(ub / s / ((2 s + 2 * 4) / s), a): ub / 16 for fp32 and int32,
       ub / 2 / 6 for fp16 and bf16, ub / 10 for int8 */
    const tiling_case cases[] = {
        {16, 64, 245760, SELUGRAD_FLOAT, 8, 15360, 2},       /* CeilDiv 1 -> 8 */
        {2048, 64, 245760, SELUGRAD_FLOAT, 32, 15360, 64},   /* 245760 / 16 = 15360 */
        {2049, 64, 245760, SELUGRAD_FLOAT, 40, 15360, 52},   /* 33 -> 40; 2049 / 40 = 51.2 */
        {1000, 48, 196608, SELUGRAD_FLOAT16, 32, 16384, 32}, /* 21 -> 32; 98304 / 6 = 16384 */
        {1000, 48, 196608, SELUGRAD_BF16, 32, 16384, 32},
        {100000, 48, 196608, SELUGRAD_INT8, 2112, 19648, 48},  /* 2084 -> 2112; 19660 -> 19648 */
        {100000, 64, 245760, SELUGRAD_INT32, 1568, 15360, 64}, /* 1563 -> 1568 */
        {13023360, 64, 245760, SELUGRAD_FLOAT, 203496, 15360, 64}, /* 203490 -> 203496 */
        {100, 1, 128, SELUGRAD_FLOAT, 104, 8, 1},    /* 128 / 4 / 4 = 8: one 32-byte chunk */
        {100, 1, 200, SELUGRAD_FLOAT16, 112, 16, 1}, /* 200 / 2 / 6 = 16 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        selugrad_platform p = {cases[c].cores, cases[c].ub};
        selugrad_shape x = {1, {cases[c].total}};
        selugrad_tiling t;
        assert_int_equal(selugrad_selu_tiling_platform(&p, &x, cases[c].dtype, &t), SELUGRAD_OK);
        assert_int_equal(t.total_elements, cases[c].total);
        assert_int_equal(t.block_former, cases[c].block_former);
        assert_int_equal(t.ub_former, cases[c].ub_former);
        assert_int_equal(t.block_dim, cases[c].block_dim);
        assert_int_equal(t.workspace_size, 0);
    }
    selugrad_platform p = {64, 245760};
    selugrad_tiling t;
    selugrad_shape empty = {2, {0, 5}}, scalar = {0, {0}}, nine = {9, {1, 1, 1, 1, 1, 1, 1, 1, 1}};
    selugrad_shape unknown = {2, {-1, 5}}, ok = {2, {4, 2}};
    assert_int_equal(selugrad_selu_tiling_platform(&p, &empty, SELUGRAD_FLOAT, &t), SELUGRAD_OK);
    assert_int_equal(t.block_dim, 1);
    assert_int_equal(t.total_elements, 0);
    assert_int_equal(t.ub_former, 0);
    assert_int_equal(selugrad_selu_tiling_platform(&p, &scalar, SELUGRAD_INT8, &t), SELUGRAD_OK);
    assert_int_equal(t.total_elements, 1);
    assert_int_equal(selugrad_selu_tiling_platform(&p, &nine, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_int_equal(selugrad_selu_tiling_platform(&p, &unknown, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_BAD_ARGUMENT);
    assert_int_equal(selugrad_selu_tiling_platform(&p, &ok, SELUGRAD_UINT8, &t),
                     SELUGRAD_ERR_BAD_DTYPE);
    assert_int_equal(selugrad_selu_tiling_platform(NULL, &ok, SELUGRAD_FLOAT, &t),
                     SELUGRAD_ERR_NULL_POINTER);
    /* a UB below one 32-byte chunk of the forward's buffers: 127 / 4 / 4 = 7 fp32 elements,
       191 / 2 / 6 = 15 fp16 elements, 319 / 10 = 31 int8 elements, and none at all */
    const struct {
        int64_t ub;
        selugrad_dtype dtype;
    } small[] = {
        {127, SELUGRAD_FLOAT}, {191, SELUGRAD_FLOAT16}, {319, SELUGRAD_INT8}, {0, SELUGRAD_INT32}};
    for (size_t c = 0; c < sizeof small / sizeof small[0]; c++) {
        selugrad_platform tiny = {1, small[c].ub};
        assert_int_equal(selugrad_selu_tiling_platform(&tiny, &ok, small[c].dtype, &t),
                         SELUGRAD_ERR_BAD_ARGUMENT);
    }
    selugrad_platform tiny = {1, 0}; /* an empty tensor needs no UB */
    assert_int_equal(selugrad_selu_tiling_platform(&tiny, &empty, SELUGRAD_FLOAT, &t), SELUGRAD_OK);
    assert_int_equal(t.block_dim, 1);
    /* a SoC profile: the same as its platform */
    selugrad_platform soc;
    selugrad_tiling a, b;
    assert_int_equal(selugrad_soc_platform("Ascend910B", &soc), SELUGRAD_OK);
    assert_int_equal(selugrad_selu_tiling_soc("Ascend910B", &ok, SELUGRAD_FLOAT16, &a),
                     SELUGRAD_OK);
    assert_int_equal(selugrad_selu_tiling_platform(&soc, &ok, SELUGRAD_FLOAT16, &b), SELUGRAD_OK);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(selugrad_selu_tiling_soc("Ascend999", &ok, SELUGRAD_FLOAT, &a),
                     SELUGRAD_ERR_BAD_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_def),
        cmocka_unit_test(test_infer_shape),
        cmocka_unit_test(test_infer_dtype),
        cmocka_unit_test(test_tiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
