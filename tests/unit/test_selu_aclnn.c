/*
 * aclnnSelu and aclnnInplaceSelu: phase 1 checks in the contract's order (docs/contract.md,
 * "Forward aclnn API") with their codes and messages, the SoC dtype lists, the output dtype
 * conversions, empty, rank-0 and rank-9 tensors, non-contiguous views with offsets, in place,
 * overlap, streams and repeatable executors; values against the independent golden
 * (tests/model/selu_golden.c) with the library's exponential.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"
#include "aclnnop/aclnn_selu.h"
#include "kernels/ref/selu_exp.h"
#include "model/selu_golden.h"

static uint32_t lib_exp(uint32_t x) {
    return sg_f32_bits(sg_selu_expf(sg_bits_f32(x)));
}

static float gold_f32(float x) {
    uint32_t b, r;
    memcpy(&b, &x, 4);
    r = gs_selu_f32(b, lib_exp);
    float y;
    memcpy(&y, &r, 4);
    return y;
}

static const int64_t shape[2] = {4, 2};

/* Phase 1 + phase 2 + sync on stream s; returns the first failure. */
static int run_selu(aclTensor *x, aclTensor *y, aclrtStream s) {
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int rc = aclnnSeluGetWorkspaceSize(x, y, &ws, &ex);
    return sgt_finish(rc, ws, ex, aclnnSelu, s);
}

static int run_inplace(aclTensor *x) {
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int rc = aclnnInplaceSeluGetWorkspaceSize(x, &ws, &ex);
    return sgt_finish(rc, ws, ex, aclnnInplaceSelu, NULL);
}

static void test_check_order(void **state) {
    (void)state;
    float xb[8] = {0}, yb[8] = {0};
    int32_t ib[8] = {0};
    aclTensor *x = sgt_tensor(ACL_FLOAT, shape, 2, xb), *y = sgt_tensor(ACL_FLOAT, shape, 2, yb);
    aclTensor *yu8 = sgt_tensor(ACL_UINT8, shape, 2, yb),
              *xu8 = sgt_tensor(ACL_UINT8, shape, 2, xb);
    const int64_t other[2] = {2, 4};
    aclTensor *yshape = sgt_tensor(ACL_FLOAT, other, 2, yb);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    /* 1: NULL pointers (161001): workspaceSize, executor, then the tensors */
    assert_int_equal(aclnnSeluGetWorkspaceSize(NULL, NULL, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "workspaceSize is NULL");
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, y, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "executor is NULL");
    assert_int_equal(aclnnSeluGetWorkspaceSize(NULL, yu8, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "self is NULL");
    assert_int_equal(aclnnSeluGetWorkspaceSize(xu8, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "out is NULL");
    assert_int_equal(aclnnInplaceSeluGetWorkspaceSize(NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnInplaceSeluGetWorkspaceSize", "selfRef is NULL");
    /* 2: dtypes in the SoC's list (161002), self's first, before the shape check */
    assert_int_equal(aclnnSeluGetWorkspaceSize(xu8, yshape, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "self dtype ACL_UINT8 (4) is not supported");
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, yu8, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "out dtype ACL_UINT8 (4) is not supported");
    assert_int_equal(aclnnInplaceSeluGetWorkspaceSize(xu8, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnInplaceSeluGetWorkspaceSize", "selfRef dtype ACL_UINT8");
    /* 3: shapes (161002); a floating self with an integer out of another shape fails there (as
       ops-nn's, the forward checks no castability: test_casts) */
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, yshape, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "out shape [2,4] differs from self shape [4,2]");
    aclTensor *yi = sgt_tensor(ACL_INT32, other, 2, ib);
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, yi, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "out shape [2,4] differs from self shape [4,2]");
    /* a destroyed tensor (161002) */
    aclTensor *dead = sgt_tensor(ACL_FLOAT, shape, 2, xb);
    aclDestroyTensor(dead);
    assert_int_equal(aclnnSeluGetWorkspaceSize(dead, y, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "self");
    /* an output whose elements share one address (161002) */
    const int64_t zs[2] = {1, 0};
    aclTensor *y0 = aclCreateTensor(shape, 2, ACL_FLOAT, zs, 0, ACL_FORMAT_ND, shape, 2, yb);
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, y0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "out has elements sharing one address");
    /* no data for a non-empty view (161001) */
    aclTensor *nodata = sgt_tensor(ACL_FLOAT, shape, 2, NULL);
    assert_int_equal(aclnnSeluGetWorkspaceSize(nodata, y, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "self has no data");
    /* phase 2 */
    assert_int_equal(aclnnSelu(NULL, 0, NULL, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSelu", "executor is NULL");
    assert_int_equal(aclnnInplaceSelu(NULL, 0, (aclOpExecutor *)xb, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnInplaceSelu", "not live");
    aclTensor *all[] = {x, y, yu8, xu8, yi, yshape, y0, nodata};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) aclDestroyTensor(all[i]);
}

/* Empty tensors succeed only after the other checks (docs/contract.md, "Forward aclnn API"):
   a NULL pointer, a dtype outside the SoC's list and differing shapes are still refused. Each row:
   self's and out's dtype and shape, and the expected code and message. */
static void test_empty_still_checked(void **state) {
    (void)state;
    static const int64_t e203[3] = {2, 0, 3}, e204[3] = {2, 0, 4}, e20[2] = {2, 0};
    static const struct {
        aclDataType dt[2];
        const int64_t *dims[2];
        uint64_t rank[2];
        aclnnStatus want;
        const char *msg;
    } rows[] = {
        {{ACL_UINT8, ACL_UINT8}, {e203, e203}, {3, 3}, ACLNN_ERR_PARAM_INVALID, "self dtype"},
        {{ACL_FLOAT, ACL_UINT8}, {e203, e203}, {3, 3}, ACLNN_ERR_PARAM_INVALID, "out dtype"},
        {{ACL_FLOAT, ACL_INT8}, {e203, e203}, {3, 3}, ACLNN_SUCCESS, NULL},
        {{ACL_FLOAT, ACL_FLOAT}, {e203, e204}, {3, 3}, ACLNN_ERR_PARAM_INVALID, "out shape"},
        {{ACL_INT8, ACL_INT8}, {e203, e20}, {3, 2}, ACLNN_ERR_PARAM_INVALID, "out shape [2,0]"},
        {{ACL_INT8, ACL_FLOAT16}, {e203, e203}, {3, 3}, ACLNN_SUCCESS, NULL},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        aclTensor *x = sgt_tensor(rows[r].dt[0], rows[r].dims[0], rows[r].rank[0], NULL);
        aclTensor *y = sgt_tensor(rows[r].dt[1], rows[r].dims[1], rows[r].rank[1], NULL);
        uint64_t ws = 77;
        aclOpExecutor *ex = NULL;
        assert_int_equal(aclnnSeluGetWorkspaceSize(x, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
        assert_int_equal(aclnnSeluGetWorkspaceSize(x, y, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR);
        assert_int_equal(aclnnSeluGetWorkspaceSize(x, y, &ws, &ex), rows[r].want);
        if (rows[r].msg != NULL) {
            assert_msg_has("aclnnSeluGetWorkspaceSize", rows[r].msg);
            assert_int_equal(ws, 77);
            assert_null(ex);
        } else {
            assert_int_equal(ws, 0);
            assert_int_equal(aclnnSelu(NULL, 0, ex, NULL), ACLNN_SUCCESS);
            assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        }
        /* in place: the dtype list still applies to an empty selfRef */
        ex = NULL;
        aclnnStatus in = aclnnInplaceSeluGetWorkspaceSize(x, &ws, &ex);
        assert_int_equal(in, rows[r].dt[0] == ACL_UINT8 ? ACLNN_ERR_PARAM_INVALID : ACLNN_SUCCESS);
        if (in == ACLNN_SUCCESS) {
            assert_int_equal(ws, 0);
            assert_int_equal(aclnnInplaceSelu(NULL, 0, ex, NULL), ACLNN_SUCCESS);
        }
        aclDestroyTensor(x);
        aclDestroyTensor(y);
    }
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
}

/* Whether phase 1 (and the run) accepts self and out of dtype dt with SELUGRAD_SOC = soc. */
static int phase1_dtype(const char *soc, aclDataType dt) {
    assert_int_equal(sgt_restart_soc(soc), ACL_SUCCESS);
    uint32_t buf[8] = {0}, yb[8];
    aclTensor *x = sgt_tensor(dt, shape, 2, buf), *y = sgt_tensor(dt, shape, 2, yb);
    int rc = run_selu(x, y, NULL);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    return rc;
}

static void test_soc_dtypes(void **state) {
    (void)state;
    const char *socs[6] = {"Ascend910B", "Ascend910_93", "Ascend950",
                           "Ascend910E", "Ascend910",    "Ascend310P"};
    const aclDataType always[4] = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT8};
    const aclDataType never[5] = {ACL_UINT8, ACL_INT16, ACL_INT64, ACL_DOUBLE, ACL_BOOL};
    for (int s = 0; s < 6; s++) {
        for (int i = 0; i < 4; i++)
            assert_int_equal(phase1_dtype(socs[s], always[i]), ACLNN_SUCCESS);
        for (int i = 0; i < 5; i++) {
            assert_int_equal(phase1_dtype(socs[s], never[i]), ACLNN_ERR_PARAM_INVALID);
            assert_msg_has("aclnnSeluGetWorkspaceSize", socs[s]);
        }
        assert_int_equal(phase1_dtype(socs[s], ACL_BF16), s < 4 ? ACLNN_SUCCESS : 161002);
    }
    assert_int_equal(sgt_restart_soc(NULL), ACL_SUCCESS);
}

/* The canonical example's data, and values one by one against the golden. */
static void test_values(void **state) {
    (void)state;
    float xb[8] = {0, 2, 3, 4, 5, 6, 7, 7}, yb[8];
    aclTensor *x = sgt_tensor(ACL_FLOAT, shape, 2, xb), *y = sgt_tensor(ACL_FLOAT, shape, 2, yb);
    assert_int_equal(run_selu(x, y, NULL), ACLNN_SUCCESS);
    for (int i = 0; i < 8; i++) assert_true(sgt_same_f32(yb[i], gold_f32(xb[i])));
    assert_true(fabsf(yb[1] - 2.101402f) < 1e-6f);
    float neg[8] = {-1, -2, -0.5f, -0.0f, INFINITY, -INFINITY, NAN, 1e-30f};
    memcpy(xb, neg, sizeof neg);
    assert_int_equal(run_inplace(x), ACLNN_SUCCESS);
    for (int i = 0; i < 8; i++) assert_true(sgt_same_f32(xb[i], gold_f32(neg[i])));
    assert_int_equal(xb[3] == 0.0f && !signbit(xb[3]), 1); /* -0 gives +0 */
    aclDestroyTensor(x);
    aclDestroyTensor(y);
}

/* out of another dtype: computed in self's dtype, then converted (docs/aclnn.md). */
static void test_casts(void **state) {
    (void)state;
    float xf[8] = {-3, -1, -0.25f, 0, 0.1f, 1, 100, 70000};
    uint16_t h[8];
    aclTensor *x = sgt_tensor(ACL_FLOAT, shape, 2, xf), *y = sgt_tensor(ACL_FLOAT16, shape, 2, h);
    assert_int_equal(run_selu(x, y, NULL), ACLNN_SUCCESS);
    for (int i = 0; i < 8; i++) { /* fp32 result rounded to fp16, nearest even */
        uint32_t r = gs_selu_f32(sg_f32_bits(xf[i]), lib_exp);
        double v = gm_value(r, gm_f32);
        assert_int_equal(h[i], gm_bits(gm_round(v, gm_f16), gm_f16));
    }
    assert_int_equal(h[7], 0x7C00); /* 70000 * S overflows fp16 */
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    /* A floating self into an integer out, which ops-nn's aclnnSelu casts too: the fp32 result
       truncated toward zero and saturated to int32 (NaN gives 0), and for int8 that int32's low
       byte. The results by hand: selu(-3) = -1.67, selu(-0.25) = -0.39 and selu(0.1) = 0.105
       truncate to -1, 0 and 0; selu(1.9) = 1.996 to 1; selu(200) = 210.14 to 210 (int8: 210 -
       256 = -46); 3e9 * S and +inf saturate to INT32_MAX (int8: its low byte 0xFF, -1). */
    const float xq[8] = {-3, -0.25f, 0.1f, 1.9f, 200, 3e9f, NAN, INFINITY};
    const int32_t want32[8] = {-1, 0, 0, 1, 210, INT32_MAX, 0, INT32_MAX};
    const int8_t want8[8] = {-1, 0, 0, 1, -46, -1, 0, -1};
    float xqb[8];
    int32_t q32[8];
    int8_t q8[8];
    memcpy(xqb, xq, sizeof xq);
    x = sgt_tensor(ACL_FLOAT, shape, 2, xqb);
    aclTensor *o32 = sgt_tensor(ACL_INT32, shape, 2, q32), *o8 = sgt_tensor(ACL_INT8, shape, 2, q8);
    assert_int_equal(run_selu(x, o32, NULL), ACLNN_SUCCESS);
    assert_int_equal(run_selu(x, o8, NULL), ACLNN_SUCCESS);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(q32[i], want32[i]);
        assert_int_equal(q8[i], want8[i]);
    }
    aclDestroyTensor(x);
    aclDestroyTensor(o32);
    aclDestroyTensor(o8);
    uint16_t xh[8] = {0xFC00, 0xC200, 0x3C00, 0x4900, 0x7E00, 0x7C00, 0x8000, 0x0001};
    /* fp16 -inf, -3, 1, 10, NaN, +inf, -0, the least subnormal: -1, -1, 1, 10 (selu 10.507),
       0, INT32_MAX, 0, 0 */
    const int32_t wanth[8] = {-1, -1, 1, 10, 0, INT32_MAX, 0, 0};
    x = sgt_tensor(ACL_FLOAT16, shape, 2, xh);
    o32 = sgt_tensor(ACL_INT32, shape, 2, q32);
    assert_int_equal(run_selu(x, o32, NULL), ACLNN_SUCCESS);
    for (int i = 0; i < 8; i++) assert_int_equal(q32[i], wanth[i]);
    aclDestroyTensor(x);
    aclDestroyTensor(o32);
    int8_t xi[8] = {-128, -5, -1, 0, 1, 50, 100, 127};
    float yf[8];
    int32_t yi[8];
    x = sgt_tensor(ACL_INT8, shape, 2, xi);
    y = sgt_tensor(ACL_FLOAT, shape, 2, yf);
    aclTensor *y32 = sgt_tensor(ACL_INT32, shape, 2, yi);
    assert_int_equal(run_selu(x, y, NULL), ACLNN_SUCCESS);
    assert_int_equal(run_selu(x, y32, NULL), ACLNN_SUCCESS);
    const int want[8] = {-1, -1, -1, 0, 1, 52, 105, -123}; /* the int8 results, widened */
    for (int i = 0; i < 8; i++) {
        assert_true(yf[i] == (float)want[i]);
        assert_int_equal(yi[i], want[i]);
    }
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclDestroyTensor(y32);
    int32_t big[8] = {-7, 0, 130, 2000000000, 1, 2, 3, 4};
    int8_t small[8];
    x = sgt_tensor(ACL_INT32, shape, 2, big);
    y = sgt_tensor(ACL_INT8, shape, 2, small);
    assert_int_equal(run_selu(x, y, NULL), ACLNN_SUCCESS);
    /* int32 results (2000000000 * S = 2101401984 in fp32), then their low byte */
    const int32_t r32[8] = {-1, 0, 136, 2101401984, 1, 2, 3, 4};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(gs_selu_s32(big[i], lib_exp), r32[i]);
        assert_int_equal(small[i], (int8_t)(uint8_t)(uint32_t)r32[i]);
    }
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    /* A conversion whose workspace would pass 2^63 - 1 bytes is refused, not wrapped: 2^62
       int32 elements (self of stride 0) computed in the workspace (2^64 bytes) before their
       conversion to an int8 out. The out lies in memory the runtime does not know; nothing
       runs. */
    const int64_t dh[1] = {(int64_t)1 << 62}, z1[1] = {0}, one[1] = {1};
    x = aclCreateTensor(dh, 1, ACL_INT32, z1, 0, ACL_FORMAT_ND, one, 1, big);
    y = aclCreateTensor(dh, 1, ACL_INT8, NULL, 0, ACL_FORMAT_ND, dh, 1, small);
    assert_non_null(x);
    assert_non_null(y);
    uint64_t ws = 1;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, y, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluGetWorkspaceSize", "workspace");
    assert_int_equal(ws, 1);
    assert_null(ex);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    /* The conversion's workspace may not share memory with self or out (161002); with one of
       its own the call runs. */
    int32_t *xs = calloc(128, sizeof *xs); /* self, then out 256 bytes further on */
    assert_non_null(xs);
    int8_t *ys = (int8_t *)(xs + 64);
    const int32_t xv[8] = {-7, 0, 130, 1, 2, 3, 4, 5};
    memcpy(xs, xv, sizeof xv);
    x = sgt_tensor(ACL_INT32, shape, 2, xs);
    y = sgt_tensor(ACL_INT8, shape, 2, ys);
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, y, &ws, &ex), ACLNN_SUCCESS);
    assert_true(ws > 0 && ws <= 224); /* from either tensor it meets only that one */
    assert_int_equal(aclnnSelu(xs, ws, ex, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSelu", "meets the address span of self");
    assert_int_equal(aclnnSelu(ys, ws, ex, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSelu", "meets the address span of out");
    assert_int_equal(xs[2], 130); /* nothing ran */
    assert_int_equal(sgt_finish(ACLNN_SUCCESS, ws, ex, aclnnSelu, NULL), ACLNN_SUCCESS);
    assert_int_equal(ys[2], (int8_t)136);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    free(xs);
}

/* The conversion to out's dtype rounds to nearest even whatever rounding mode the caller (and
   so the thread of a stream it creates) has set, as the kernels do (docs/api.md, "Floating-point
   environment"): INT32_MAX, the int32 result of every x >= 2043930000 (x * S saturates),
   converts to 2^31 (0x4F000000); rounding down or toward zero would give 2147483520. Small (run
   on the calling thread) and large (queued on a stream's worker) calls. */
static void test_cast_rounding_mode(void **state) {
    (void)state;
    enum { BIG = 20000 }; /* 80 KB of out: more than a call runs inline */
    static int32_t x[BIG];
    static float y[BIG];
    for (int i = 0; i < BIG; i++) x[i] = 2100000000 + (i % 1000) * 40000;
    const int modes[3] = {FE_DOWNWARD, FE_TOWARDZERO, FE_UPWARD};
    const int64_t counts[2] = {8, BIG};
    for (int m = 0; m < 3; m++) {
        for (int c = 0; c < 2; c++) {
            memset(y, 0, sizeof y);
            assert_int_equal(fesetround(modes[m]), 0);
            aclrtStream s = NULL;
            int rc = aclrtCreateStream(&s); /* its worker starts in the caller's mode */
            aclTensor *tx = sgt_tensor(ACL_INT32, &counts[c], 1, x);
            aclTensor *ty = sgt_tensor(ACL_FLOAT, &counts[c], 1, y);
            if (rc == ACL_SUCCESS) rc = run_selu(tx, ty, s);
            int after = fegetround();
            fesetround(FE_TONEAREST);
            assert_int_equal(rc, ACLNN_SUCCESS);
            assert_int_equal(after, modes[m]); /* the caller's mode is left as it was */
            for (int64_t i = 0; i < counts[c]; i++)
                assert_int_equal(sg_f32_bits(y[i]), 0x4F000000u);
            aclDestroyTensor(tx);
            aclDestroyTensor(ty);
            assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
        }
    }
}

/* Views: transposed, offset, strided; ranks 0 and 9; empty; in place and partial overlap. */
static void test_views(void **state) {
    (void)state;
    float buf[64], out[64], want[64];
    for (int i = 0; i < 64; i++) buf[i] = (float)(i - 32) * 0.37f;
    /* transposed 4x3 view of a 3x4 block at offset 5 into a strided out */
    const int64_t d[2] = {4, 3}, st[2] = {1, 4}, ost[2] = {6, 2}, stor[1] = {64};
    aclTensor *x = aclCreateTensor(d, 2, ACL_FLOAT, st, 5, ACL_FORMAT_ND, stor, 1, buf);
    aclTensor *y = aclCreateTensor(d, 2, ACL_FLOAT, ost, 1, ACL_FORMAT_ND, stor, 1, out);
    memset(out, 0, sizeof out);
    assert_int_equal(run_selu(x, y, NULL), ACLNN_SUCCESS);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            assert_true(sgt_same_f32(out[1 + 6 * i + 2 * j], gold_f32(buf[5 + i + 4 * j])));
    assert_int_equal(out[0] == 0.0f, 1);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    /* rank 0: one element */
    x = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 3, ACL_FORMAT_ND, stor, 1, buf);
    y = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, stor, 1, out);
    assert_int_equal(run_selu(x, y, NULL), ACLNN_SUCCESS);
    assert_true(sgt_same_f32(out[0], gold_f32(buf[3])));
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    /* rank 9 (2^6 elements as 2x2x...x1x...): flattened and computed */
    const int64_t d9[9] = {2, 2, 2, 2, 2, 2, 1, 1, 1};
    x = sgt_tensor(ACL_FLOAT, d9, 9, buf);
    y = sgt_tensor(ACL_FLOAT, d9, 9, out);
    assert_int_equal(run_selu(x, y, NULL), ACLNN_SUCCESS);
    for (int i = 0; i < 64; i++) assert_true(sgt_same_f32(out[i], gold_f32(buf[i])));
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    /* empty: workspace 0, success, nothing written */
    const int64_t de[2] = {0, 5};
    x = sgt_tensor(ACL_FLOAT, de, 2, NULL);
    y = sgt_tensor(ACL_FLOAT, de, 2, NULL);
    uint64_t ws = 7;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, y, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(ws, 0);
    assert_int_equal(aclnnSelu(NULL, 0, ex, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    /* in place through aclnnSelu (self == out), and out shifted by one over self: the
       out-of-place values */
    for (int i = 0; i < 64; i++) want[i] = gold_f32(buf[i]);
    memcpy(out, buf, sizeof buf);
    const int64_t d1[1] = {32};
    x = sgt_tensor(ACL_FLOAT, d1, 1, out);
    assert_int_equal(run_selu(x, x, NULL), ACLNN_SUCCESS);
    for (int i = 0; i < 32; i++) assert_true(sgt_same_f32(out[i], want[i]));
    aclDestroyTensor(x);
    memcpy(out, buf, sizeof buf);
    x = sgt_tensor(ACL_FLOAT, d1, 1, out);
    y = sgt_tensor(ACL_FLOAT, d1, 1, out + 1);
    assert_int_equal(run_selu(x, y, NULL), ACLNN_SUCCESS);
    for (int i = 0; i < 32; i++) assert_true(sgt_same_f32(out[1 + i], want[i]));
    aclDestroyTensor(x);
    aclDestroyTensor(y);
}

/* A repeatable executor on a created stream, run twice; a one-shot one is spent after a run. */
static void test_streams_executors(void **state) {
    (void)state;
    float xb[8] = {-2, -1, 0, 1, 2, 3, -0.5f, 0.5f}, yb[8];
    aclTensor *x = sgt_tensor(ACL_FLOAT, shape, 2, xb), *y = sgt_tensor(ACL_FLOAT, shape, 2, yb);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluGetWorkspaceSize(x, y, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
    for (int r = 0; r < 2; r++) {
        memset(yb, 0, sizeof yb);
        assert_int_equal(aclnnSelu(NULL, ws, ex, s), ACLNN_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        for (int i = 0; i < 8; i++) assert_true(sgt_same_f32(yb[i], gold_f32(xb[i])));
    }
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplaceSeluGetWorkspaceSize(y, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplaceSelu(NULL, ws, ex, s), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplaceSelu(NULL, ws, ex, s), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnInplaceSelu", "not live");
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    for (int i = 0; i < 8; i++) assert_true(sgt_same_f32(yb[i], gold_f32(gold_f32(xb[i]))));
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_order), cmocka_unit_test(test_empty_still_checked),
        cmocka_unit_test(test_soc_dtypes),  cmocka_unit_test(test_values),
        cmocka_unit_test(test_casts),       cmocka_unit_test(test_cast_rounding_mode),
        cmocka_unit_test(test_views),       cmocka_unit_test(test_streams_executors),
    };
    return cmocka_run_group_tests(tests, sgt_setup, sgt_teardown);
}
