/*
 * The CLI's own judge: rounding a double to a dtype, the float64 golden, the precision standard
 * and the bit-exact comparison, each against values worked out by hand from docs/contract.md, and
 * each shown able to fail.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "selugrad/cli.h" /* tools/selugrad/cli.h */

static void test_round_to(void **state) {
    (void)state;
    /* fp16: 1 + 2^-11 is a tie between 1 and 1 + 2^-10 -> even (1); 1 + 3*2^-11 -> 1 + 2^-9 */
    assert_true(cli_round_to(SELUGRAD_FLOAT16, 1.0 + 0x1p-11) == 1.0);
    assert_true(cli_round_to(SELUGRAD_FLOAT16, 1.0 + 3 * 0x1p-11) == 1.0 + 0x1p-9);
    /* overflow: 65519 stays 65504, 65520 goes to inf */
    assert_true(cli_round_to(SELUGRAD_FLOAT16, 65519.0) == 65504.0);
    assert_true(isinf(cli_round_to(SELUGRAD_FLOAT16, 65520.0)));
    /* subnormal: 2.5 units of 2^-24 -> 2 units (even), 3.5 -> 4 */
    assert_true(cli_round_to(SELUGRAD_FLOAT16, 2.5 * 0x1p-24) == 2 * 0x1p-24);
    assert_true(cli_round_to(SELUGRAD_FLOAT16, -3.5 * 0x1p-24) == -4 * 0x1p-24);
    /* no double rounding: just above a bf16 tie must round up even if a float would tie */
    assert_true(cli_round_to(SELUGRAD_BF16, 1.0 + 0x1p-8 + 0x1p-40) == 1.0 + 0x1p-7);
    assert_true(cli_round_to(SELUGRAD_FLOAT, 1.0 + 0x1p-24 + 0x1p-50) == 1.0 + 0x1p-23);
    assert_true(cli_round_to(SELUGRAD_FLOAT, 1.0 + 0x1p-24) == 1.0);
    assert_true(isnan(cli_round_to(SELUGRAD_FLOAT, NAN)));
}

static void test_golden_spec_values(void **state) {
    (void)state;
    /* docs/contract.md, "Reference values", fp32, g = 1: [-2, -1, -0.5, 0, 0.5] -> rounded
       golden = those values */
    const float o[5] = {-2, -1, -0.5f, 0, 0.5f};
    const float g[5] = {1, 1, 1, 1, 1};
    const double want[5] = {-0.24190068, 0.75809932, 1.2580993, 1.050701, 1.050701};
    for (size_t i = 0; i < 5; i++) {
        double gr = cli_golden(SELUGRAD_FLOAT, g, o, i);
        assert_true(fabs(gr - want[i]) < 1e-7);
    }
    /* fp16 with the fp16 constants: g = 1, o = -2 -> 1 * (-2 + 1.7578125) = -0.2421875 */
    uint16_t g16 = 0x3C00, o16 = 0xC000;
    assert_true(cli_golden(SELUGRAD_FLOAT16, &g16, &o16, 0) == -0.2421875);
    /* bf16 scale branch: g = 1, o = 0 -> 1.046875 */
    uint16_t gb = 0x3F80, ob = 0x0000;
    assert_true(cli_golden(SELUGRAD_BF16, &gb, &ob, 0) == 1.046875);
    /* o NaN takes the scale branch; o = -inf with g = 0 is NaN */
    float gn[2] = {2, 0}, on[2] = {NAN, -INFINITY};
    assert_true(cli_golden(SELUGRAD_FLOAT, gn, on, 0) == 2.0 * (double)0x1.0cfabep+0f);
    assert_true(isnan(cli_golden(SELUGRAD_FLOAT, gn, on, 1)));
    /* integers: the contract's integer results ("Reference values"), not a raw product */
    const int8_t g8[4] = {1, 10, 127, 100}, o8[4] = {-1, -1, 3, -5};
    const double want8[4] = {1, 8, 127, -128};
    for (size_t i = 0; i < 4; i++) assert_true(cli_golden(SELUGRAD_INT8, g8, o8, i) == want8[i]);
    const uint8_t gu[2] = {10, 255}, ou[2] = {5, 0};
    assert_true(cli_golden(SELUGRAD_UINT8, gu, ou, 0) == 11.0);
    assert_true(cli_golden(SELUGRAD_UINT8, gu, ou, 1) == 255.0);
    const int32_t g32[3] = {10, 127, 100}, o32[3] = {-1, 3, -5};
    const double want32[3] = {7, 133, -324};
    for (size_t i = 0; i < 3; i++)
        assert_true(cli_golden(SELUGRAD_INT32, g32, o32, i) == want32[i]);
}

static void test_check_passes_and_fails(void **state) {
    (void)state;
    enum { N = 64 };
    float g[N], o[N], y[N];
    for (int i = 0; i < N; i++) {
        g[i] = (float)(i - 32) / 8.0f;
        o[i] = (float)(i % 9 - 4) / 2.0f;
    }
    cli_model(SELUGRAD_FLOAT, N, g, o, y);
    cli_check c;
    assert_int_equal(cli_check_run(SELUGRAD_FLOAT, N, g, o, y, &c), 0);
    assert_true(c.bit_ok && c.precision_ok);
    /* one flipped low bit: bit-exactness fails and names the index; precision still passes */
    uint32_t bits;
    memcpy(&bits, &y[17], 4);
    bits ^= 1u;
    memcpy(&y[17], &bits, 4);
    assert_int_equal(cli_check_run(SELUGRAD_FLOAT, N, g, o, y, &c), 0);
    assert_false(c.bit_ok);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first[0], 17);
    assert_true(c.precision_ok);
    char line[256];
    cli_check_summary(&c, line, sizeof line);
    assert_string_equal(line, "1 bit mismatches (first at [17])");
    /* a 1% error fails MARE (10 * 2^-13), and the summary names the bound and the element */
    y[17] *= 1.01f;
    assert_int_equal(cli_check_run(SELUGRAD_FLOAT, N, g, o, y, &c), 0);
    assert_false(c.precision_ok);
    assert_int_equal(c.worst, 17);
    cli_check_summary(&c, line, sizeof line);
    /* MARE about 0.01 at [17]; MERE 0.01 / 64 = 0.000156 is over 2^-13 too */
    assert_true(strncmp(line, "1 bit mismatches (first at [17]), MERE 0.00015", 46) == 0);
    assert_non_null(strstr(line, " >= 0.00012207, MARE 0.0100"));
    assert_non_null(strstr(line, " >= 0.0012207 at [17]"));
    /* a NaN where the golden is finite fails */
    cli_model(SELUGRAD_FLOAT, N, g, o, y);
    y[3] = NAN;
    assert_int_equal(cli_check_run(SELUGRAD_FLOAT, N, g, o, y, &c), 0);
    assert_false(c.precision_ok);
    assert_int_equal(c.special_bad, 1);
    cli_check_summary(&c, line, sizeof line);
    assert_string_equal(line,
                        "1 bit mismatches (first at [3]), inf/NaN not matching the golden: 1");
    /* a short buffer is cut, still a string */
    cli_check_summary(&c, line, 8);
    assert_string_equal(line, "1 bit m");
}

/* The fp16 known limit of docs/cli.md: bit-exact, yet over MARE (g = 0x0027, o = 0xAAB8: the
   model gives 66 units of 2^-24, the golden rounds to 67). */
static void test_check_summary_bit_exact_precision_fail(void **state) {
    (void)state;
    const uint16_t g[1] = {0x0027}, o[1] = {0xAAB8}, y[1] = {0x0042};
    cli_check c;
    assert_int_equal(cli_check_run(SELUGRAD_FLOAT16, 1, g, o, y, &c), 0);
    assert_true(c.bit_ok);
    assert_false(c.precision_ok);
    char line[256];
    cli_check_summary(&c, line, sizeof line);
    /* 1 unit / (67 units + 1e-7) = 0.0145608 (2^-24 units); MERE over 1 element is the same */
    assert_string_equal(line, "bit-exact, MERE 0.0145608 >= 0.000976562, MARE 0.0145608 >= "
                              "0.00976562 at [0]");
}

static void test_check_integers(void **state) {
    (void)state;
    /* the int8 pairs of docs/contract.md, "Reference values"; the exact results must match, one
       off fails */
    int8_t g[8] = {1, 1, 1, 10, 10, -3, 127, 100}, o[8] = {-2, -1, 0, 5, -1, -1, 3, -5};
    int8_t y[8] = {0, 1, 1, 11, 8, -2, 127, -128};
    cli_check c;
    assert_int_equal(cli_check_run(SELUGRAD_INT8, 8, g, o, y, &c), 0);
    assert_true(c.bit_ok && c.precision_ok);
    y[4] = 7;
    assert_int_equal(cli_check_run(SELUGRAD_INT8, 8, g, o, y, &c), 0);
    assert_false(c.bit_ok);
    assert_false(c.precision_ok);
    char line[256];
    cli_check_summary(&c, line, sizeof line);
    assert_string_equal(line,
                        "1 bit mismatches (first at [4]), integer results unequal to the exact "
                        "result: 1");
}

static void test_parsing(void **state) {
    (void)state;
    size_t rank;
    int64_t dims[CLI_MAX_RANK];
    assert_int_equal(cli_parse_shape("2x16x32x16", &rank, dims, 0), 0);
    assert_int_equal(rank, 4);
    assert_int_equal(dims[3], 16);
    assert_int_equal(cli_parse_shape("scalar", &rank, dims, 0), 0);
    assert_int_equal(rank, 0);
    assert_int_equal(cli_parse_shape("-1x3", &rank, dims, 0), -1);
    assert_int_equal(cli_parse_shape("-1x3", &rank, dims, 1), 0);
    assert_int_equal(cli_parse_shape("2xx3", &rank, dims, 0), -1);
    selugrad_dtype dt;
    assert_int_equal(sg_argv_dtype("fp16", &dt), 0);
    assert_int_equal((int)dt, 1);
    assert_int_equal(sg_argv_dtype("bf16", &dt), 0);
    assert_int_equal((int)dt, 27);
    assert_int_equal(sg_argv_dtype("f64", &dt), -1);
}

/* ulp distance: ordered bit patterns, so +0 against -0 is 0 and across zero counts both sides */
static void test_ulp(void **state) {
    (void)state;
    const uint16_t a[] = {0x0000, 0x3C00, 0x0001, 0x7E00, 0x7E00, 0xFC00};
    const uint16_t b[] = {0x8000, 0x3C01, 0x8001, 0x3C00, 0x7E01, 0xFBFF};
    assert_true(cli_ulp(SELUGRAD_FLOAT16, a, b, 0) == 0.0);
    assert_true(cli_ulp(SELUGRAD_FLOAT16, a, b, 1) == 1.0);
    assert_true(cli_ulp(SELUGRAD_FLOAT16, a, b, 2) == 2.0);
    assert_true(isinf(cli_ulp(SELUGRAD_FLOAT16, a, b, 3)));
    assert_true(cli_ulp(SELUGRAD_FLOAT16, a, b, 4) == 0.0); /* two NaNs */
    assert_true(cli_ulp(SELUGRAD_BF16, a, b, 5) == 1.0);    /* -inf against the lowest finite */
    const float f[] = {1.0f, -1.0f}, h[] = {0x1.000002p0f, 1.0f};
    assert_true(cli_ulp(SELUGRAD_FLOAT, f, h, 0) == 1.0);
    assert_true(cli_ulp(SELUGRAD_FLOAT, f, h, 1) == 2.0 * 0x3F800000);
    const int8_t i8[] = {-5}, j8[] = {3};
    assert_true(cli_ulp(SELUGRAD_INT8, i8, j8, 0) == 8.0);
    char buf[64];
    cli_ulp_str(1.0, buf, sizeof buf);
    assert_string_equal(buf, "1 ulp");
    cli_ulp_str(0.0, buf, sizeof buf);
    assert_string_equal(buf, "0 ulps");
    cli_ulp_str(INFINITY, buf, sizeof buf);
    assert_string_equal(buf, "NaN against a number");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_to),
        cmocka_unit_test(test_golden_spec_values),
        cmocka_unit_test(test_check_passes_and_fails),
        cmocka_unit_test(test_check_summary_bit_exact_precision_fail),
        cmocka_unit_test(test_check_integers),
        cmocka_unit_test(test_parsing),
        cmocka_unit_test(test_ulp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
