/* aclnnSeluBackward: phase 1 checks in the contract's order (docs/contract.md, "Phase 1 checks")
   with their codes, the SoC dtype list, empty and rank-0 tensors, high ranks, workspace and
   executor rules. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"
#include "aclnnop/aclnn_selu.h"

static const int64_t shape[2] = {4, 2};

/* Phase 1 + phase 2 + sync on the default stream; returns the first failure. */
static int run_op(aclTensor *g, aclTensor *o, aclTensor *y) {
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int rc = aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &ex);
    return sgt_finish(rc, ws, ex, aclnnSeluBackward, NULL);
}

static void test_check_order(void **state) {
    (void)state;
    float gb[8] = {0}, ob[8] = {0}, yb[8] = {0};
    aclTensor *g = sgt_tensor(ACL_FLOAT, shape, 2, gb), *o = sgt_tensor(ACL_FLOAT, shape, 2, ob);
    aclTensor *y = sgt_tensor(ACL_FLOAT, shape, 2, yb);
    aclTensor *y16 = sgt_tensor(ACL_FLOAT16, shape, 2, yb);
    const int64_t other[2] = {2, 4};
    aclTensor *yshape = sgt_tensor(ACL_FLOAT, other, 2, yb);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    /* 1: workspaceSize or executor NULL, before anything else (even NULL tensors). */
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(NULL, NULL, NULL, NULL, &ex),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "workspaceSize");
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, NULL),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "executor");
    /* 2: a NULL tensor, before dtype checks. */
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, NULL, y16, &ws, &ex),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "result is NULL");
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(NULL, o, y, &ws, &ex),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "gradOutput is NULL");
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, NULL, &ws, &ex),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "gradInput is NULL");
    /* 3: dtypes differ, before the shape check. */
    aclTensor *y16s = sgt_tensor(ACL_FLOAT16, other, 2, yb);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y16s, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "gradInput dtype ACL_FLOAT16");
    aclTensor *o16 = sgt_tensor(ACL_FLOAT16, shape, 2, ob);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o16, y, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "result dtype ACL_FLOAT16");
    /* 5: shapes differ (same element count, no broadcasting, rank included). */
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, yshape, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "gradInput shape [2,4]");
    const int64_t flat[1] = {8};
    aclTensor *oflat = sgt_tensor(ACL_FLOAT, flat, 1, ob);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, oflat, y, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "result shape [8]");
    const int64_t bc[2] = {1, 2};
    aclTensor *obc = sgt_tensor(ACL_FLOAT, bc, 2, ob);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, obc, y, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    /* A destroyed tensor is refused, not read. */
    aclDestroyTensor(oflat);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, oflat, y, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "not a live aclTensor");
    /* Data NULL on a non-empty tensor. */
    aclTensor *ynull = sgt_tensor(ACL_FLOAT, shape, 2, NULL);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, ynull, &ws, &ex),
                     ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "gradInput has no data");
    aclTensor *all[] = {g, o, y, y16, yshape, y16s, o16, obc, ynull};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) aclDestroyTensor(all[i]);
}

/* Whether phase 1 accepts dtype dt with SELUGRAD_SOC = soc. */
static int phase1_dtype(const char *soc, aclDataType dt) {
    assert_int_equal(sgt_restart_soc(soc), ACL_SUCCESS);
    uint32_t buf[8] = {0}, yb[8];
    aclTensor *g = sgt_tensor(dt, shape, 2, buf), *o = sgt_tensor(dt, shape, 2, buf);
    aclTensor *y = sgt_tensor(dt, shape, 2, yb);
    int rc = run_op(g, o, y);
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyTensor(y);
    return rc;
}

static void test_soc_dtypes(void **state) {
    (void)state;
    const char *bf16_yes[] = {"Ascend910B", "Ascend910_93", "Ascend950", "Ascend910E"};
    const char *bf16_no[] = {"Ascend910", "Ascend310P"};
    const aclDataType always[4] = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT8};
    const aclDataType never[6] = {ACL_UINT8,  ACL_INT16, ACL_INT64,
                                  ACL_DOUBLE, ACL_BOOL,  ACL_UINT32};
    for (int s = 0; s < 6; s++) {
        const char *soc = s < 4 ? bf16_yes[s] : bf16_no[s - 4];
        for (int i = 0; i < 4; i++) assert_int_equal(phase1_dtype(soc, always[i]), ACLNN_SUCCESS);
        for (int i = 0; i < 6; i++) {
            assert_int_equal(phase1_dtype(soc, never[i]), ACLNN_ERR_PARAM_INVALID);
            assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", soc);
        }
        assert_int_equal(phase1_dtype(soc, ACL_BF16), s < 4 ? ACLNN_SUCCESS : 161002);
        if (s >= 4) assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "ACL_BF16 (27) is not");
    }
    assert_int_equal(phase1_dtype("Ascend910B", ACL_UINT8), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "ACL_UINT8 (4) is not supported");
    /* dtypes that aclCreateTensor keeps although they have no byte size here, and values that
       are no aclDataType: 161002 from the dtype check, as ops-nn's own test expects for
       ACL_DT_UNDEFINED (they used to fail in aclCreateTensor, so phase 1 said 161001) */
    assert_int_equal(phase1_dtype("Ascend910B", ACL_DT_UNDEFINED), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "ACL_DT_UNDEFINED (-1) is not supported");
    assert_int_equal(phase1_dtype("Ascend910B", ACL_INT4), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "ACL_INT4 (29) is not supported");
    assert_int_equal(phase1_dtype("Ascend910B", ACL_FLOAT8_E4M3FN), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(phase1_dtype("Ascend910B", (aclDataType)99), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "an unknown aclDataType (99)");
    /* The dtype check precedes the shape check. */
    uint8_t b[8];
    const int64_t other[1] = {3};
    aclTensor *g = sgt_tensor(ACL_UINT8, shape, 2, b), *o = sgt_tensor(ACL_UINT8, other, 1, b);
    uint64_t ws;
    aclOpExecutor *ex;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, g, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "ACL_UINT8");
    /* An unknown SELUGRAD_SOC: aclInit fails, and phase 1 (no SoC, so no dtype list) fails too
       instead of guessing one; FLOAT as much as BF16. */
    assert_int_equal(sgt_restart_soc("Ascend999"), ACL_ERROR_INVALID_PARAM);
    float f[8] = {0};
    aclTensor *gf = sgt_tensor(ACL_FLOAT, shape, 2, f);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(gf, gf, gf, &ws, &ex),
                     ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", "SELUGRAD_SOC=\"Ascend999\"");
    aclDestroyTensor(gf);
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    assert_int_equal(sgt_restart_soc(NULL), ACL_SUCCESS);
}

static void test_empty_and_rank0(void **state) {
    (void)state;
    const int64_t e[3] = {2, 0, 3};
    aclTensor *g = sgt_tensor(ACL_FLOAT, e, 3, NULL), *o = sgt_tensor(ACL_FLOAT, e, 3, NULL);
    aclTensor *y = sgt_tensor(ACL_FLOAT, e, 3, NULL);
    uint64_t ws = 99;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(ws, 0);
    assert_non_null(ex);
    assert_int_equal(aclnnSeluBackward(NULL, 0, ex, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyTensor(y);
    /* Rank 0: one element. */
    float gv = 2.0f, ov = -1.0f, yv = 0;
    g = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, &gv);
    o = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, &ov);
    y = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, &yv);
    assert_int_equal(run_op(g, o, y), ACLNN_SUCCESS);
    assert_true(sgt_same_f32(yv, sgt_ref_f32(gv, ov)));
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyTensor(y);
}

/* An empty tensor succeeds only at check 6: checks 1 to 5 still apply to it, in their order
   (docs/contract.md, "Phase 1 checks"). Each row: the three tensors' dtypes and shapes (all
   empty unless said), whether workspaceSize is passed, and the code expected. */
static void test_empty_still_checked(void **state) {
    (void)state;
    static const int64_t e203[3] = {2, 0, 3}, e204[3] = {2, 0, 4}, e20[2] = {2, 0},
                         e023[3] = {0, 2, 3}, n23[2] = {2, 3};
    static const struct {
        aclDataType dt[3];
        const int64_t *dims[3];
        uint64_t rank[3];
        int pass_ws;
        int null_tensor; /* index of a NULL tensor, or -1 */
        aclnnStatus want;
        const char *msg;
    } rows[] = {
        /* 1: workspaceSize NULL */
        {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
         {e203, e203, e203},
         {3, 3, 3},
         0,
         -1,
         ACLNN_ERR_PARAM_NULLPTR,
         "workspaceSize"},
        /* 2: a NULL tensor beside empty ones */
        {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
         {e203, e203, e203},
         {3, 3, 3},
         1,
         1,
         ACLNN_ERR_PARAM_NULLPTR,
         "result is NULL"},
        /* 3: dtypes differ */
        {{ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT},
         {e203, e203, e203},
         {3, 3, 3},
         1,
         -1,
         ACLNN_ERR_PARAM_INVALID,
         "result dtype"},
        /* 4: a dtype the SoC does not take */
        {{ACL_UINT8, ACL_UINT8, ACL_UINT8},
         {e203, e203, e203},
         {3, 3, 3},
         1,
         -1,
         ACLNN_ERR_PARAM_INVALID,
         "ACL_UINT8 (4) is not supported"},
        {{ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE},
         {e203, e203, e203},
         {3, 3, 3},
         1,
         -1,
         ACLNN_ERR_PARAM_INVALID,
         "ACL_DOUBLE"},
        /* 5: shapes differ, both empty; a rank apart; the 0 elsewhere; one not empty */
        {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
         {e203, e203, e204},
         {3, 3, 3},
         1,
         -1,
         ACLNN_ERR_PARAM_INVALID,
         "gradInput shape [2,0,4]"},
        {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
         {e203, e20, e203},
         {3, 2, 3},
         1,
         -1,
         ACLNN_ERR_PARAM_INVALID,
         "result shape [2,0]"},
        {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
         {e203, e023, e203},
         {3, 3, 3},
         1,
         -1,
         ACLNN_ERR_PARAM_INVALID,
         "result shape [0,2,3]"},
        {{ACL_INT8, ACL_INT8, ACL_INT8},
         {e203, e203, n23},
         {3, 3, 2},
         1,
         -1,
         ACLNN_ERR_PARAM_INVALID,
         "gradInput shape [2,3]"},
        /* 6: all checks passed: success, workspace 0 */
        {{ACL_INT32, ACL_INT32, ACL_INT32},
         {e203, e203, e203},
         {3, 3, 3},
         1,
         -1,
         ACLNN_SUCCESS,
         NULL},
    };
    int8_t data[8] = {0};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        aclTensor *t[3];
        for (int v = 0; v < 3; v++) {
            /* empty views get no data (none is needed); the non-empty one gets a buffer */
            int64_t n = 1;
            for (uint64_t i = 0; i < rows[r].rank[v]; i++) n *= rows[r].dims[v][i];
            t[v] = sgt_tensor(rows[r].dt[v], rows[r].dims[v], rows[r].rank[v], n ? data : NULL);
            assert_non_null(t[v]);
        }
        uint64_t ws = 77;
        aclOpExecutor *ex = NULL;
        aclnnStatus rc = aclnnSeluBackwardGetWorkspaceSize(
            t[0], rows[r].null_tensor == 1 ? NULL : t[1], t[2], rows[r].pass_ws ? &ws : NULL, &ex);
        if (rc != rows[r].want) print_error("row %zu: %d, expected %d\n", r, rc, rows[r].want);
        assert_int_equal(rc, rows[r].want);
        if (rows[r].msg != NULL) {
            assert_msg_has("aclnnSeluBackwardGetWorkspaceSize", rows[r].msg);
            assert_int_equal(ws, 77); /* nothing written on a failure */
            assert_null(ex);
        } else {
            assert_int_equal(ws, 0);
            assert_int_equal(aclnnSeluBackward(NULL, 0, ex, NULL), ACLNN_SUCCESS);
            assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        }
        for (int v = 0; v < 3; v++) aclDestroyTensor(t[v]);
    }
}

static void test_ranks(void **state) {
    (void)state;
    /* Ranks 1..12 (above 8 is flattened), each with 2 * 3 * 1 * 2 * ... elements. */
    float gb[4096], ob[4096], yb[4096];
    for (int i = 0; i < 4096; i++) {
        gb[i] = (float)(i % 13) - 6.0f;
        ob[i] = (float)(i % 7) * 0.5f - 1.75f;
    }
    for (uint64_t r = 1; r <= 12; r++) {
        int64_t d[12];
        int64_t n = 1;
        for (uint64_t i = 0; i < r; i++) {
            d[i] = (int64_t)(i % 3 + 1);
            n *= d[i];
        }
        memset(yb, 0, sizeof yb);
        aclTensor *g = sgt_tensor(ACL_FLOAT, d, r, gb), *o = sgt_tensor(ACL_FLOAT, d, r, ob);
        aclTensor *y = sgt_tensor(ACL_FLOAT, d, r, yb);
        assert_int_equal(run_op(g, o, y), ACLNN_SUCCESS);
        for (int64_t i = 0; i < n; i++) assert_true(sgt_same_f32(yb[i], sgt_ref_f32(gb[i], ob[i])));
        assert_true(yb[n] == 0.0f);
        aclDestroyTensor(g);
        aclDestroyTensor(o);
        aclDestroyTensor(y);
    }
}

static void test_formats_ignored(void **state) {
    (void)state;
    const aclFormat fmts[4] = {ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_FRACTAL_NZ,
                               (aclFormat)123};
    float gb[8] = {1, 1, 1, 1, 1, 1, 1, 1}, ob[8] = {-2, -1, 0, 1, 2, 3, -0.5f, 0.5f}, yb[8];
    const int64_t s[2] = {2, 1};
    for (int f = 0; f < 4; f++) {
        aclTensor *g = aclCreateTensor(shape, 2, ACL_FLOAT, s, 0, fmts[f], shape, 2, gb);
        aclTensor *o = aclCreateTensor(shape, 2, ACL_FLOAT, s, 0, ACL_FORMAT_ND, shape, 2, ob);
        aclTensor *y = aclCreateTensor(shape, 2, ACL_FLOAT, s, 0, fmts[3 - f], shape, 2, yb);
        assert_int_equal(run_op(g, o, y), ACLNN_SUCCESS);
        for (int i = 0; i < 8; i++) assert_true(sgt_same_f32(yb[i], sgt_ref_f32(gb[i], ob[i])));
        aclDestroyTensor(g);
        aclDestroyTensor(o);
        aclDestroyTensor(y);
    }
}

static void test_phase2_errors(void **state) {
    (void)state;
    /* The three tensors in one block, 256 floats apart, so that a workspace (512 bytes here)
       placed at one of them meets no other. */
    float *mem = calloc(1024, sizeof(float));
    assert_non_null(mem);
    float *gb = mem + 256, *ob = mem + 512, *yb = mem + 768;
    for (int i = 0; i < 64; i++) gb[i] = 1.0f, ob[i] = (float)i - 32.0f, yb[i] = 0;
    /* A transposed 8x8 gradInput view needs a workspace. */
    const int64_t d[2] = {8, 8}, st[2] = {1, 8};
    aclTensor *g = sgt_tensor(ACL_FLOAT, d, 2, gb), *o = sgt_tensor(ACL_FLOAT, d, 2, ob);
    aclTensor *y = aclCreateTensor(d, 2, ACL_FLOAT, st, 0, ACL_FORMAT_ND, d, 2, yb);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluBackward(NULL, 0, NULL, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluBackward", "executor is NULL");
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &ex), ACLNN_SUCCESS);
    assert_true(ws >= 64 * sizeof(float));
    assert_true(ws <= 256 * sizeof(float)); /* the gap between the tensors */
    void *w = malloc(ws);
    assert_int_equal(aclnnSeluBackward(w, ws - 1, ex, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackward", "workspaceSize");
    assert_int_equal(aclnnSeluBackward(NULL, ws, ex, NULL), ACLNN_ERR_PARAM_NULLPTR);
    assert_msg_has("aclnnSeluBackward", "workspace is NULL");
    int bogus;
    assert_int_equal(aclnnSeluBackward(w, ws, ex, &bogus), ACLNN_ERR_PARAM_INVALID);
    /* one message with one code prefix, the aclnn one (not the runtime's as well) */
    const char *m = aclGetRecentErrMsg();
    assert_ptr_equal(strstr(m, "ACLNN_ERR_PARAM_INVALID(161002): "), m);
    assert_non_null(strstr(m, "not a live stream"));
    assert_null(strstr(m, "ACL_ERROR"));
    assert_null(strchr(m, '\n'));
    /* A workspace sharing memory with a tensor's elements (161002, naming it): the tensors'
       own buffers, one starting inside gradInput, one ending inside gradOutput's first
       element. The executor is not spent by a refused call. */
    const struct {
        void *w;
        const char *name;
    } shared[] = {
        {gb, "gradOutput"},
        {ob, "result"},
        {yb, "gradInput"},
        {(char *)yb + 8, "gradInput"},
        {(void *)((uintptr_t)gb - (uintptr_t)ws + 4), "gradOutput"},
    };
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
        assert_int_equal(aclnnSeluBackward(shared[i].w, ws, ex, NULL), ACLNN_ERR_PARAM_INVALID);
        assert_msg_has2("aclnnSeluBackward", "meets the address span of", shared[i].name);
    }
    /* A workspace in an aclrtMalloc block that holds fewer bytes than phase 1 asked for, at its
       start or further in (161002); the block's size, not workspaceSize, decides. */
    char *blk = NULL;
    assert_int_equal(aclrtMalloc((void **)&blk, ws + 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclnnSeluBackward(blk + 17, ws, ex, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackward", "bytes phase 1 asked for");
    assert_int_equal(aclnnSeluBackward(blk + 17, ws + 100, ex, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclrtFree(blk), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc((void **)&blk, ws - 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclnnSeluBackward(blk, ws, ex, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackward", "block of");
    assert_int_equal(aclrtFree(blk), ACL_SUCCESS);
    for (int i = 0; i < 64; i++) assert_true(yb[i] == 0.0f); /* nothing ran */
    for (int i = 0; i < 64; i++) assert_true(gb[i] == 1.0f);
    /* exactly enough: a block of ws + 16 bytes used from byte 16 */
    assert_int_equal(aclrtMalloc((void **)&blk, ws + 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclnnSeluBackward(blk + 16, ws, ex, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtFree(blk), ACL_SUCCESS);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            assert_true(sgt_same_f32(yb[c * 8 + r], sgt_ref_f32(gb[r * 8 + c], ob[r * 8 + c])));
    /* A one-shot executor is spent. */
    assert_int_equal(aclnnSeluBackward(w, ws, ex, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackward", "not live");
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID);
    /* NULL executors: CANN's ACLNN_ERR_INNER_NULLPTR (561103) for both calls */
    assert_int_equal(aclDestroyAclOpExecutor(NULL), 561103);
    assert_msg_has("aclDestroyAclOpExecutor", "executor is NULL");
    assert_int_equal(aclSetAclOpExecutorRepeatable(NULL), 561103);
    assert_msg_has("aclSetAclOpExecutorRepeatable", "executor is NULL");
    assert_int_equal(aclSetAclOpExecutorRepeatable(ex), ACLNN_ERR_PARAM_INVALID);
    /* A contiguous call needs no workspace; an unrun executor can be destroyed. */
    aclTensor *yc = sgt_tensor(ACL_FLOAT, d, 2, yb);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, yc, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(ws, 0);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    assert_int_equal(aclnnSeluBackward(NULL, 0, ex, NULL), ACLNN_ERR_PARAM_INVALID);
    free(w);
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyTensor(y);
    aclDestroyTensor(yc);
    free(mem);
}

/* A tensor's aclrtMalloc block freed between phase 1 and phase 2 (or between two runs of a
   repeatable executor): phase 2 refuses to run (161002, naming the tensor) instead of writing
   into freed memory; the executor stays as it was. */
static void test_freed_memory(void **state) {
    (void)state;
    const int64_t d[1] = {16};
    float *b[3];
    for (int v = 0; v < 3; v++)
        assert_int_equal(
            aclrtMalloc((void **)&b[v], 16 * sizeof(float), ACL_MEM_MALLOC_NORMAL_ONLY),
            ACL_SUCCESS);
    for (int i = 0; i < 16; i++) b[0][i] = 1.0f, b[1][i] = (float)i - 8.0f;
    aclTensor *g = sgt_tensor(ACL_FLOAT, d, 1, b[0]), *o = sgt_tensor(ACL_FLOAT, d, 1, b[1]);
    aclTensor *y = sgt_tensor(ACL_FLOAT, d, 1, b[2]);
    uint64_t ws = 0;
    aclOpExecutor *rep = NULL, *once = NULL;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &rep), ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(rep), ACLNN_SUCCESS);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &once), ACLNN_SUCCESS);
    assert_int_equal(aclnnSeluBackward(NULL, 0, rep, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int i = 0; i < 16; i++) assert_true(sgt_same_f32(b[2][i], sgt_ref_f32(1.0f, b[1][i])));
    assert_int_equal(aclrtFree(b[2]), ACL_SUCCESS); /* gradInput's memory */
    assert_int_equal(aclnnSeluBackward(NULL, 0, rep, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has2("aclnnSeluBackward", "gradInput lay in a block", "has been freed");
    assert_int_equal(aclnnSeluBackward(NULL, 0, once, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclrtFree(b[1]), ACL_SUCCESS); /* result's too: named first */
    assert_int_equal(aclnnSeluBackward(NULL, 0, once, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnSeluBackward", "result lay in a block");
    /* refused before the claim: both executors are still there to destroy */
    assert_int_equal(aclDestroyAclOpExecutor(rep), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(once), ACLNN_SUCCESS);
    /* the forward, in place */
    aclOpExecutor *fw = NULL;
    assert_int_equal(aclnnInplaceSeluGetWorkspaceSize(g, &ws, &fw), ACLNN_SUCCESS);
    assert_int_equal(aclrtFree(b[0]), ACL_SUCCESS);
    assert_int_equal(aclnnInplaceSelu(NULL, 0, fw, NULL), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnInplaceSelu", "selfRef lay in a block");
    assert_int_equal(aclDestroyAclOpExecutor(fw), ACLNN_SUCCESS);
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyTensor(y);
}

static void test_repeatable(void **state) {
    (void)state;
    float gb[16], ob[16], yb[16];
    const int64_t d[1] = {16};
    aclTensor *g = sgt_tensor(ACL_FLOAT, d, 1, gb), *o = sgt_tensor(ACL_FLOAT, d, 1, ob);
    aclTensor *y = sgt_tensor(ACL_FLOAT, d, 1, yb);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    aclrtStream s;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
    /* The tensors may go; the executor keeps what it needs. */
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyTensor(y);
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 16; i++) {
            gb[i] = (float)(round + 1) * 0.25f;
            ob[i] = (float)(i - 8 + round);
        }
        assert_int_equal(aclnnSeluBackward(NULL, 0, ex, s), ACLNN_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        for (int i = 0; i < 16; i++) assert_true(sgt_same_f32(yb[i], sgt_ref_f32(gb[i], ob[i])));
    }
    /* Destroying with runs queued: they finish first, then it is gone. */
    for (int k = 0; k < 3; k++) assert_int_equal(aclnnSeluBackward(NULL, 0, ex, s), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclnnSeluBackward(NULL, 0, ex, s), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

/* A spent executor or a destroyed tensor stays dead even when new ones are made right after:
   their memory is not handed out again at once, so a stale handle cannot reach a new object at
   the same address (it would run another call's job or read another call's tensor). */
static void test_stale_handles(void **state) {
    (void)state;
    float gb[8], ob[8], y1[8], y2[8];
    for (int i = 0; i < 8; i++) gb[i] = 1.0f, ob[i] = (float)i - 4.0f, y1[i] = y2[i] = -7.0f;
    const int64_t d[1] = {8};
    aclTensor *g = sgt_tensor(ACL_FLOAT, d, 1, gb), *o = sgt_tensor(ACL_FLOAT, d, 1, ob);
    for (int k = 0; k < 50; k++) {
        aclTensor *t1 = sgt_tensor(ACL_FLOAT, d, 1, y1), *t2 = sgt_tensor(ACL_FLOAT, d, 1, y2);
        uint64_t ws = 0;
        aclOpExecutor *e1 = NULL, *e2 = NULL;
        /* a one-shot executor, run and spent; the next one is made right after */
        assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, t1, &ws, &e1), ACLNN_SUCCESS);
        assert_int_equal(aclnnSeluBackward(NULL, 0, e1, NULL), ACLNN_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
        assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, t2, &ws, &e2), ACLNN_SUCCESS);
        assert_true(e2 != e1);
        assert_int_equal(aclnnSeluBackward(NULL, 0, e1, NULL), ACLNN_ERR_PARAM_INVALID);
        assert_msg_has("aclnnSeluBackward", "not live");
        assert_int_equal(aclDestroyAclOpExecutor(e2), ACLNN_SUCCESS);
        /* a destroyed tensor, and a new one of the same size made right after */
        assert_int_equal(aclDestroyTensor(t1), ACLNN_SUCCESS);
        aclTensor *t3 = sgt_tensor(ACL_FLOAT, d, 1, y2);
        assert_true((const void *)t3 != (const void *)t1);
        assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, t1, &ws, &e1),
                         ACLNN_ERR_PARAM_INVALID);
        assert_int_equal(aclDestroyTensor(t3), ACLNN_SUCCESS);
        assert_int_equal(aclDestroyTensor(t2), ACLNN_SUCCESS);
    }
    for (int i = 0; i < 8; i++) assert_true(y2[i] == -7.0f); /* no stale handle ran a job */
    aclDestroyTensor(g);
    aclDestroyTensor(o);
}

typedef struct race {
    aclOpExecutor *ex;
    int rc, rounds;
    atomic_int ran; /* set after the thread's first queued run */
} race;

static void *race_run(void *arg) {
    race *r = (race *)arg;
    for (int k = 0; k < r->rounds; k++) {
        int rc = aclnnSeluBackward(NULL, 0, r->ex, NULL);
        if (rc != ACLNN_SUCCESS && rc != ACLNN_ERR_PARAM_INVALID) r->rc = rc;
        if (rc == ACLNN_SUCCESS && r->rounds == 1) r->rc = 0;
        if (rc == ACLNN_SUCCESS) atomic_store(&r->ran, 1);
    }
    return NULL;
}

/* Two threads racing to run one one-shot executor: exactly one run is queued. A repeatable
   executor destroyed while another thread keeps running it: every call either runs or is 161002,
   with no use after free (ASan, TSan). */
static void test_concurrent_claims(void **state) {
    (void)state;
    float gb[8], ob[8], yb[8];
    for (int i = 0; i < 8; i++) gb[i] = 2.0f, ob[i] = (float)i - 4.0f;
    const int64_t d[1] = {8};
    aclTensor *g = sgt_tensor(ACL_FLOAT, d, 1, gb), *o = sgt_tensor(ACL_FLOAT, d, 1, ob);
    aclTensor *y = sgt_tensor(ACL_FLOAT, d, 1, yb);
    uint64_t ws = 0;
    for (int k = 0; k < 100; k++) {
        race r = {NULL, -1, 1, 0};
        assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &r.ex), ACLNN_SUCCESS);
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, race_run, &r), 0);
        int mine = aclnnSeluBackward(NULL, 0, r.ex, NULL);
        pthread_join(t, NULL);
        assert_true(mine == ACLNN_SUCCESS || mine == ACLNN_ERR_PARAM_INVALID);
        assert_int_equal((mine == ACLNN_SUCCESS) + (r.rc == 0), 1);
        assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    }
    for (int i = 0; i < 8; i++) assert_true(sgt_same_f32(yb[i], sgt_ref_f32(gb[i], ob[i])));
    for (int k = 0; k < 20; k++) {
        race r = {NULL, 0, 50, 0};
        assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &r.ex), ACLNN_SUCCESS);
        assert_int_equal(aclSetAclOpExecutorRepeatable(r.ex), ACLNN_SUCCESS);
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, race_run, &r), 0);
        /* destroy only once the thread is running it, so the destroy meets its later calls */
        while (!atomic_load(&r.ran)) sched_yield();
        assert_int_equal(aclDestroyAclOpExecutor(r.ex), ACLNN_SUCCESS);
        pthread_join(t, NULL);
        assert_int_equal(r.rc, 0); /* nothing but 0 and 161002 */
        assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    }
    aclDestroyTensor(g);
    aclDestroyTensor(o);
    aclDestroyTensor(y);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_claims),
        cmocka_unit_test(test_stale_handles),
        cmocka_unit_test(test_check_order),
        cmocka_unit_test(test_soc_dtypes),
        cmocka_unit_test(test_empty_and_rank0),
        cmocka_unit_test(test_empty_still_checked),
        cmocka_unit_test(test_ranks),
        cmocka_unit_test(test_formats_ignored),
        cmocka_unit_test(test_phase2_errors),
        cmocka_unit_test(test_repeatable),
        cmocka_unit_test(test_freed_memory),
    };
    return cmocka_run_group_tests(tests, sgt_setup, sgt_teardown);
}
