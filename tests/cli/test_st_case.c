/*
 * One ATK case as `selugrad st` reads it (tools/selugrad/st_case.c): ids, the operator's
 * spellings, the standard in both forms, inputs found by name or position, both range_values
 * forms with their failures, and the values drawn: uniform within [lo, hi], normal with the
 * mean and standard deviation the case asks for (checked by the sample's statistics).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "selugrad/st_case.h" /* tools/selugrad/st_case.h */

static cJSON *json(const char *text) {
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    return j;
}

static void assert_id(const char *text, const char *want) {
    cJSON *c = json(text);
    char id[ST_ID_MAX];
    int rc = st_case_id(c, id, sizeof id);
    if (want) {
        assert_int_equal(rc, 0);
        assert_string_equal(id, want);
    } else {
        assert_int_equal(rc, -1);
    }
    cJSON_Delete(c);
}

static void test_ids(void **state) {
    (void)state;
    assert_id("{\"id\": 0}", "0");
    assert_id("{\"id\": 200}", "200");
    assert_id("{\"id\": -3}", "-3");
    assert_id("{\"id\": \"selu_7\"}", "selu_7");
    assert_id("{\"id\": 2.5}", NULL);
    assert_id("{\"id\": 1e20}", NULL); /* not exact in a double */
    assert_id("{\"id\": \"\"}", NULL);
    assert_id("{\"id\": [1]}", NULL);
    assert_id("{\"name\": \"x\"}", NULL);
}

#define INPUTS                                                                                     \
    "\"inputs\": [{\"name\": \"gradOutput\", \"type\": \"tensor\", \"required\": true, "           \
    "\"dtype\": \"fp16\", \"shape\": [2, 3], \"range_values\": [-1, 1], \"backward\": false, "     \
    "\"align_32B\": null, \"outlier_values\": null}, {\"name\": \"result\", \"type\": "            \
    "\"tensor\", \"required\": true, \"dtype\": \"fp16\", \"shape\": [2, 3], \"range_values\": "   \
    "{\"name\": \"nd\", \"mean\": [-1, 1], \"std\": [0.5, 2]}, \"backward\": false, "              \
    "\"align_32B\": null, \"outlier_values\": null}]"

/* Parses {head, INPUTS}; returns st_case_parse's status, the case in *k and why in err. */
static int parse(const char *head, st_case *k, char *err, size_t len) {
    char text[2048];
    snprintf(text, sizeof text, "{%s%s" INPUTS "}", head, head[0] ? ", " : "");
    cJSON *c = json(text);
    err[0] = '\0';
    int rc = st_case_parse(c, k, err, len);
    cJSON_Delete(c);
    return rc;
}

static void test_real_form(void **state) {
    (void)state;
    st_case k;
    char err[256];
    assert_int_equal(parse("\"id\": 0, \"name\": \"aclnn.selu.backward\", \"api_type\": "
                           "\"function\", \"aclnn_name\": \"aclnnSeluBackward\", \"standard\": "
                           "{\"acc\": {\"single_bm\": {\"type\": \"high_performance\"}}, "
                           "\"perf\": \"not_key\"}",
                           &k, err, sizeof err),
                     0);
    assert_string_equal(k.standard, "single_bm high_performance");
    assert_false(k.standard_ours);
    assert_int_equal(k.g.dtype, SELUGRAD_FLOAT16);
    assert_int_equal(k.g.rank, 2);
    assert_int_equal(k.g.dims[1], 3);
    assert_false(k.g.normal);
    assert_true(k.g.lo == -1.0 && k.g.hi == 1.0);
    assert_int_equal(k.g.n_outliers, 0);
    assert_true(k.o.normal);
    assert_true(k.o.lo == -1.0 && k.o.hi == 1.0 && k.o.std_lo == 0.5 && k.o.std_hi == 2.0);
}

static void test_standards(void **state) {
    (void)state;
    st_case k;
    char err[256];
    const char *op = "\"aclnn_name\": \"aclnnSeluBackward\", ";
    char head[256];
    snprintf(head, sizeof head, "%s\"standard\": {\"acc\": \"single_bm\", \"perf\": \"not_key\"}",
             op);
    assert_int_equal(parse(head, &k, err, sizeof err), 0);
    assert_string_equal(k.standard, ST_STANDARD_OURS);
    assert_true(k.standard_ours);
    snprintf(head, sizeof head, "%s\"standard\": {\"acc\": {\"single_bm\": {}}}", op);
    assert_int_equal(parse(head, &k, err, sizeof err), 0);
    assert_true(k.standard_ours); /* ATK's default type is high_precision */
    snprintf(head, sizeof head, "%s\"standard\": {\"acc\": \"double_bm\"}", op);
    assert_int_equal(parse(head, &k, err, sizeof err), 0);
    assert_string_equal(k.standard, "double_bm");
    assert_false(k.standard_ours);
    assert_int_equal(parse("\"aclnn_name\": \"aclnnSeluBackward\"", &k, err, sizeof err), 0);
    assert_true(k.standard_ours); /* none named */
    snprintf(head, sizeof head, "%s\"standard\": {\"acc\": 3}", op);
    assert_int_equal(parse(head, &k, err, sizeof err), -1);
    assert_non_null(strstr(err, "standard.acc must be a name"));
}

static void test_operator(void **state) {
    (void)state;
    st_case k;
    char err[256];
    const char *good[] = {"\"aclnn_name\": \"aclnnSeluBackward\"",
                          "\"aclnn_name\": \"SeluBackward\"", "\"name\": \"aclnn.selu.backward\"",
                          "\"name\": \"selu_backward\"",
                          "\"name\": \"other\", \"aclnn_name\": \"aclnnSeluBackward\""};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_int_equal(parse(good[i], &k, err, sizeof err), 0);
    assert_int_equal(k.op, 0);
    /* the forward: its input is the first tensor */
    assert_int_equal(parse("\"aclnn_name\": \"aclnnSelu\"", &k, err, sizeof err), 0);
    assert_int_equal(k.op, 1);
    assert_int_equal(parse("\"name\": \"aclnn.selu\"", &k, err, sizeof err), 0);
    assert_int_equal(k.op, 1);
    assert_int_equal(parse("\"aclnn_name\": \"aclnnInplaceSelu\"", &k, err, sizeof err), 0);
    assert_int_equal(k.op, 2);
    assert_int_equal(parse("\"aclnn_name\": \"aclnnSeluGrad\"", &k, err, sizeof err), -1);
    assert_string_equal(err, "aclnn_name aclnnSeluGrad is not aclnnSeluBackward, aclnnSelu or "
                             "aclnnInplaceSelu");
    assert_int_equal(parse("\"name\": \"aclnn.elu\"", &k, err, sizeof err), -1);
    assert_string_equal(err,
                        "name aclnn.elu is not aclnnSeluBackward, aclnnSelu or aclnnInplaceSelu");
    assert_int_equal(parse("\"id\": 1", &k, err, sizeof err), -1);
    assert_string_equal(err, "the case names no operator (aclnn_name or name)");
    assert_int_equal(parse("\"aclnn_name\": 5", &k, err, sizeof err), -1);
    assert_string_equal(err, "aclnn_name is not a string");
}

/* Inputs by name in any order, else the first two tensors (other entries skipped). */
static void test_inputs(void **state) {
    (void)state;
    st_case k;
    char err[256];
    cJSON *c = json("{\"aclnn_name\": \"aclnnSeluBackward\", \"inputs\": ["
                    "{\"name\": \"result\", \"dtype\": \"bf16\", \"shape\": [4], "
                    "\"range_values\": [0, 1]},"
                    "{\"name\": \"gradOutput\", \"dtype\": \"bf16\", \"shape\": [4], "
                    "\"range_values\": [-5, -4]}]}");
    assert_int_equal(st_case_parse(c, &k, err, sizeof err), 0);
    assert_true(k.g.lo == -5.0 && k.o.lo == 0.0);
    cJSON_Delete(c);
    c = json("{\"aclnn_name\": \"aclnnSeluBackward\", \"inputs\": ["
             "{\"name\": \"alpha\", \"type\": \"attr\", \"dtype\": \"float\"},"
             "{\"name\": \"x\", \"type\": \"tensor\", \"dtype\": \"fp32\", \"shape\": [4], "
             "\"range_values\": [-2, -1]},"
             "{\"name\": \"y\", \"type\": \"tensor\", \"dtype\": \"fp32\", \"shape\": [4], "
             "\"range_values\": [1, 2]}]}");
    assert_int_equal(st_case_parse(c, &k, err, sizeof err), 0);
    assert_true(k.g.lo == -2.0 && k.o.lo == 1.0);
    cJSON_Delete(c);
    c = json("{\"aclnn_name\": \"aclnnSeluBackward\", \"inputs\": [{\"name\": \"gradOutput\", "
             "\"dtype\": \"fp32\", \"shape\": [4], \"range_values\": [-2, -1]}]}");
    assert_int_equal(st_case_parse(c, &k, err, sizeof err), -1);
    assert_string_equal(err, "inputs must list gradOutput and result");
    cJSON_Delete(c);
}

static void assert_range_error(const char *range, const char *fragment) {
    char text[1024];
    snprintf(text, sizeof text,
             "{\"aclnn_name\": \"aclnnSeluBackward\", \"inputs\": [{\"name\": \"gradOutput\", "
             "\"dtype\": \"fp32\", \"shape\": [4], \"range_values\": %s}, {\"name\": \"result\", "
             "\"dtype\": \"fp32\", \"shape\": [4], \"range_values\": [0, 1]}]}",
             range);
    cJSON *c = json(text);
    st_case k;
    char err[256];
    assert_int_equal(st_case_parse(c, &k, err, sizeof err), -1);
    if (strstr(err, fragment) == NULL) fail_msg("\"%s\" lacks \"%s\"", err, fragment);
    cJSON_Delete(c);
}

static void test_range_errors(void **state) {
    (void)state;
    assert_range_error("[1, -1]", "range_values must be [lo, hi]");
    assert_range_error("{\"name\": \"uniform\", \"low\": 0}", "distribution 'uniform'");
    assert_range_error("{\"mean\": [0, 1], \"std\": [1, 1]}", "distribution '(none)'");
    assert_range_error("{\"name\": \"nd\", \"mean\": [0, 1], \"std\": [-1, 1]}", "std >= 0");
    assert_range_error("{\"name\": \"nd\", \"mean\": [1, 0], \"std\": [1, 1]}", "lo <= hi");
    assert_range_error("{\"name\": \"nd\", \"mean\": [0, 1]}", "\"std\": [lo, hi]");
    assert_range_error("{\"name\": \"nd\", \"mean\": [0, \"inf\"], \"std\": [1, 1]}", "finite");
}

static cli_tensor tensor_of(size_t n) {
    cli_tensor t;
    int64_t dims[1] = {(int64_t)n};
    assert_int_equal(cli_tensor_alloc(&t, SELUGRAD_FLOAT, 1, dims), 0);
    return t;
}

/* Normal values: the sample mean and deviation of 200,000 float32 draws. */
static void test_fill_normal(void **state) {
    (void)state;
    enum { N = 200000 };
    cli_tensor t = tensor_of(N);
    st_input in;
    memset(&in, 0, sizeof in);
    in.dtype = SELUGRAD_FLOAT;
    in.normal = 1;
    in.lo = in.hi = 3.0;
    in.std_lo = in.std_hi = 2.0;
    cli_rng r = {12345};
    st_fill(&t, &r, &in);
    double sum = 0.0, sq = 0.0;
    size_t within1 = 0;
    for (size_t i = 0; i < N; i++) {
        double v = cli_get(SELUGRAD_FLOAT, t.data, i);
        sum += v;
        sq += v * v;
        within1 += fabs(v - 3.0) < 2.0;
    }
    double mean = sum / N, sd = sqrt(sq / N - mean * mean);
    /* the standard errors are 0.0045 and 0.0032: these bounds are over 5 of them */
    assert_true(fabs(mean - 3.0) < 0.025);
    assert_true(fabs(sd - 2.0) < 0.02);
    /* a normal puts 68.27 % within one deviation; a uniform of that sd would put 57.7 % */
    assert_true(fabs((double)within1 / N - 0.6827) < 0.006);
    /* the mean and deviation are drawn from their ranges once per tensor */
    in.lo = -10.0, in.hi = -9.0, in.std_lo = in.std_hi = 0.0;
    st_fill(&t, &r, &in);
    float first;
    memcpy(&first, t.data, 4);
    assert_true(first >= -10.0f && first <= -9.0f);
    for (size_t i = 1; i < N; i++) assert_memory_equal((float *)t.data + i, &first, 4);
    cli_tensor_free(&t);
}

/* ops-nn's files give range_values ["nan"], ["inf"], ["-inf"] and [v, v]: every element is that
   value (a uniform draw over [inf, inf] would be inf + 0 * inf, a NaN) */
static void test_fill_constant(void **state) {
    (void)state;
    static const struct {
        const char *range;
        uint32_t bits; /* of every float32 element */
    } rows[] = {
        {"[\"nan\"]", 0x7FC00000u},
        {"[\"inf\"]", 0x7F800000u},
        {"[\"-inf\"]", 0xFF800000u},
        {"[\"-0\"]", 0x80000000u},
        {"[2.5]", 0x40200000u},
        {"[59, 59]", 0x426C0000u},
        {"[\"inf\", \"inf\"]", 0x7F800000u},
        {"[[-3, -3], [0, 1]]", 0xC0400000u},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"aclnn_name\": \"aclnnSelu\", \"inputs\": [{\"name\": \"x\", \"dtype\": "
                 "\"fp32\", \"shape\": [33], \"range_values\": %s}]}",
                 rows[k].range);
        cJSON *c = json(text);
        st_case sc;
        char err[256] = "";
        if (st_case_parse(c, &sc, err, sizeof err) != 0) fail_msg("%s: %s", rows[k].range, err);
        cli_tensor t = tensor_of(33);
        cli_rng r = {3};
        st_fill(&t, &r, &sc.g);
        for (size_t i = 0; i < 33; i++) {
            uint32_t b;
            memcpy(&b, (const float *)t.data + i, 4);
            if (b != rows[k].bits)
                fail_msg("%s: element %zu is 0x%08X, expected 0x%08X", rows[k].range, i,
                         (unsigned)b, (unsigned)rows[k].bits);
        }
        cli_tensor_free(&t);
        cJSON_Delete(c);
    }
    assert_range_error("[]", "range_values must be [lo, hi] with lo <= hi, or [v]");
    assert_range_error("[\"x\"]", "or [v]");
    assert_range_error("[1, 2, 3]", "or [v]");
}

static void test_fill_uniform(void **state) {
    (void)state;
    enum { N = 10000 };
    cli_tensor t = tensor_of(N);
    st_input in;
    memset(&in, 0, sizeof in);
    in.dtype = SELUGRAD_FLOAT;
    in.lo = -1.5, in.hi = 0.25;
    cli_rng r = {7};
    st_fill(&t, &r, &in);
    double lo = 1e9, hi = -1e9;
    for (size_t i = 0; i < N; i++) {
        double v = cli_get(SELUGRAD_FLOAT, t.data, i);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    assert_true(lo >= -1.5 && lo < -1.49 && hi <= 0.25 && hi > 0.24);
    cli_tensor_free(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),           cmocka_unit_test(test_real_form),
        cmocka_unit_test(test_standards),     cmocka_unit_test(test_operator),
        cmocka_unit_test(test_inputs),        cmocka_unit_test(test_range_errors),
        cmocka_unit_test(test_fill_normal),   cmocka_unit_test(test_fill_uniform),
        cmocka_unit_test(test_fill_constant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
