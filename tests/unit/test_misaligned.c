/*
 * Pointers at any byte address (docs/api.md, "selugrad_backward"): the native calls, contiguous,
 * strided and in place, with grad, out, x and y off their element's natural alignment by every
 * byte offset below the element size, give the golden's bits (tests/model) under every ISA cap
 * this CPU runs, on 1, 2 and 3 threads, at sizes below and above the streaming-store threshold
 * (also with streaming forced for every call, sg_exec_set_stream_bytes), and write no byte
 * outside y. The aclnn operators the same with tensors whose data (and the workspace) sit at odd
 * addresses: 1-D views, N-D views packed through the workspace, and in place.
 */
#define _POSIX_C_SOURCE 200809L /* setenv (aclnn_test_util.h) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "core/exec.h"
#include "kernels/nt_bytes.h"
#include "kernels/ref/selu_exp.h"
#include "model/golden.h"
#include "model/selu_golden.h"
#include "selugrad/selugrad.h"
#include "test_rng.h"

/* Sizes: tails of every vector width, a cache-resident run, and runs whose calls move more than
   SG_NT_MIN_BYTES (streamed where the call streams and y is element aligned). */
static const size_t sizes[] = {1, 3, 17, 64, 129, 1000, 70001};
enum { PAD = 64, NSIZES = sizeof sizes / sizeof sizes[0], BIG = 300007 };

static const selugrad_isa caps[] = {SELUGRAD_ISA_SCALAR,     SELUGRAD_ISA_AVX2, SELUGRAD_ISA_AVX512,
                                    SELUGRAD_ISA_AVX512FP16, SELUGRAD_ISA_NEON, SELUGRAD_ISA_ALL};

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t rnd(void) {
    return sgt_xorshift64s(&rng_state);
}

static uint32_t lib_exp(uint32_t x) {
    return sg_f32_bits(sg_selu_expf(sg_bits_f32(x)));
}

/* Random bytes, with fp values spread over both signs and magnitudes around 1 (so that both of
   the contract's branches and the exponential run) one element in two. */
static void fill(unsigned char *p, size_t n, size_t es) {
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        if (es == 4 && (r & 1)) {
            uint32_t v = 0x3E000000u + (uint32_t)(r >> 8) % 0x02000000u;
            v |= (uint32_t)(r >> 40 & 1) << 31;
            memcpy(p + i * es, &v, 4);
        } else if (es == 2 && (r & 1)) {
            uint16_t v = (uint16_t)(0x3400u + (r >> 8) % 0x1000u);
            v |= (uint16_t)((r >> 40 & 1) << 15);
            memcpy(p + i * es, &v, 2);
        } else {
            memcpy(p + i * es, &r, es);
        }
    }
}

/* Golden of n elements with input strides: expect[i] from g + i * gs (and o + i * os). */
static void golden(int fwd, selugrad_dtype dt, size_t n, const unsigned char *g, ptrdiff_t gs,
                   const unsigned char *o, ptrdiff_t os, unsigned char *expect) {
    size_t es = selugrad_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *gi = g + (ptrdiff_t)i * gs * (ptrdiff_t)es;
        if (fwd)
            assert_int_equal(gs_selu_array(dt, 1, gi, expect + i * es, lib_exp), 1);
        else
            assert_int_equal(
                gm_selugrad_element(dt, gi, o + (ptrdiff_t)i * os * (ptrdiff_t)es, expect + i * es),
                1);
    }
}

typedef struct layout {
    size_t gb, ob, yb; /* byte offsets from 64-byte aligned buffers */
    ptrdiff_t gs, ys;  /* strides of grad (and out) and y, elements */
    int inplace;       /* 0; 1: y is grad; 2: y is out (backward) */
} layout;

static const char *op_name(int fwd) {
    return fwd ? "selugrad_forward" : "selugrad_backward";
}

/* One case under every cap, thread count and stream setting. */
static void run_case(int fwd, selugrad_dtype dt, size_t n, layout L) {
    size_t es = selugrad_dtype_size(dt);
    size_t ag = (size_t)(L.gs < 0 ? -L.gs : L.gs), ay = (size_t)(L.ys < 0 ? -L.ys : L.ys);
    size_t gspan = ((n - 1) * (ag ? ag : 1) + 1) * es, yspan = ((n - 1) * ay + 1) * es;
    size_t bytes = (gspan > yspan ? gspan : yspan) + 2 * PAD;
    unsigned char *gbuf = aligned_alloc(64, (bytes + 63) / 64 * 64);
    unsigned char *obuf = aligned_alloc(64, (bytes + 63) / 64 * 64);
    unsigned char *ybuf = aligned_alloc(64, (bytes + 63) / 64 * 64);
    unsigned char *g0 = malloc(bytes), *o0 = malloc(bytes), *y0 = malloc(bytes);
    unsigned char *expect = malloc(n * es), *got = malloc(n * es);
    assert_non_null(gbuf);
    assert_non_null(obuf);
    assert_non_null(ybuf);
    assert_non_null(g0);
    assert_non_null(o0);
    assert_non_null(y0);
    assert_non_null(expect);
    assert_non_null(got);
    fill(g0, bytes / es, es);
    fill(o0, bytes / es, es);
    fill(y0, bytes / es, es);
    memcpy(gbuf, g0, bytes);
    memcpy(obuf, o0, bytes);
    /* element 0 of a negative stride sits at the span's top */
    size_t gfirst = L.gs < 0 ? (n - 1) * ag * es : 0, yfirst = L.ys < 0 ? (n - 1) * ay * es : 0;
    unsigned char *g = gbuf + PAD + L.gb + gfirst, *o = obuf + PAD + L.ob + gfirst;
    unsigned char *y = ybuf + PAD + L.yb + yfirst;
    ptrdiff_t ys = L.ys, gs = L.gs;
    if (L.inplace) { /* y is the input array itself: the same address and stride */
        y = L.inplace == 1 ? g : o;
        ys = gs;
    }
    golden(fwd, dt, n, g0 + (g - gbuf), gs, o0 + (o - obuf), gs, expect);
    unsigned char *yb_ = L.inplace == 1 ? gbuf : L.inplace == 2 ? obuf : ybuf;
    const unsigned char *yb0 = L.inplace == 1 ? g0 : L.inplace == 2 ? o0 : y0;
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        if (caps[c] != SELUGRAD_ISA_ALL && !selugrad_isa_supported(caps[c])) continue;
        assert_int_equal(selugrad_set_max_isa(caps[c]), SELUGRAD_OK);
        for (int th = 1; th <= 3; th++) {
            assert_int_equal(selugrad_set_num_threads(th), SELUGRAD_OK);
            /* forcing matters only where a kernel call could stream */
            int forces = n * es * 3 >= SG_NT_MIN_BYTES ? 2 : 1;
            for (int forced = 0; forced < forces; forced++) {
                sg_exec_set_stream_bytes(forced ? 1 : 0);
                for (int strided = 0; strided < 2; strided++) {
                    if (!strided && (gs != 1 || ys != 1)) continue;
                    /* only y's buffer changes (checked below) */
                    memcpy(yb_, yb0, bytes);
                    selugrad_status st;
                    if (fwd)
                        st = strided ? selugrad_forward_strided(dt, n, g, gs, y, ys)
                                     : selugrad_forward(dt, n, g, y);
                    else
                        st = strided ? selugrad_backward_strided(dt, n, g, gs, o, gs, y, ys)
                                     : selugrad_backward(dt, n, g, o, y);
                    if (st != SELUGRAD_OK) fail_msg("%s: %s", op_name(fwd), selugrad_last_error());
                    if (ys == 1)
                        memcpy(got, y, n * es);
                    else
                        for (size_t i = 0; i < n; i++)
                            memcpy(got + i * es, y + (ptrdiff_t)i * ys * (ptrdiff_t)es, es);
                    if (memcmp(got, expect, n * es) != 0) {
                        size_t i = 0;
                        while (memcmp(got + i * es, expect + i * es, es) == 0) i++;
                        fail_msg("%s%s %s n=%zu offsets g+%zu o+%zu y+%zu strides %td/%td "
                                 "inplace=%d cap=%s threads=%d stream forced=%d: element %zu "
                                 "differs from the golden",
                                 op_name(fwd), strided ? "_strided" : "", selugrad_dtype_name(dt),
                                 n, L.gb, L.ob, L.yb, gs, ys, L.inplace, selugrad_isa_name(caps[c]),
                                 th, forced, i);
                    }
                    /* no byte outside y's elements changed: y's elements restored, the
                       buffer is its start */
                    if (ys == 1)
                        memcpy(y, yb0 + (y - yb_), n * es);
                    else
                        for (size_t i = 0; i < n; i++)
                            memcpy(y + (ptrdiff_t)i * ys * (ptrdiff_t)es,
                                   yb0 + (y - yb_) + (ptrdiff_t)i * ys * (ptrdiff_t)es, es);
                    if (memcmp(yb_, yb0, bytes) != 0) fail_msg("a byte outside y was written");
                    if ((L.inplace != 1 && memcmp(gbuf, g0, bytes) != 0) ||
                        (L.inplace != 2 && memcmp(obuf, o0, bytes) != 0))
                        fail_msg("an input was written");
                }
            }
        }
    }
    sg_exec_set_stream_bytes(0);
    assert_int_equal(selugrad_set_max_isa(SELUGRAD_ISA_ALL), SELUGRAD_OK);
    assert_int_equal(selugrad_set_num_threads(0), SELUGRAD_OK);
    free(gbuf);
    free(obuf);
    free(ybuf);
    free(g0);
    free(o0);
    free(y0);
    free(expect);
    free(got);
}

static const selugrad_dtype dtypes[] = {SELUGRAD_FLOAT, SELUGRAD_FLOAT16, SELUGRAD_BF16,
                                        SELUGRAD_INT32, SELUGRAD_INT8,    SELUGRAD_UINT8};

/* Every dtype of the operator at every size: each pointer off by each byte offset below the
   element size (and all at once), in place at a misaligned address, strided at odd
   addresses. */
static void run_op(int fwd) {
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
        selugrad_dtype dt = dtypes[d];
        if (fwd && dt == SELUGRAD_UINT8) continue;
        size_t es = selugrad_dtype_size(dt);
        for (size_t s = 0; s < NSIZES; s++) {
            size_t n = sizes[s];
            for (size_t off = 1; off < es; off++) {
                run_case(fwd, dt, n, (layout){off, 0, 0, 1, 1, 0});
                run_case(fwd, dt, n, (layout){0, off, 0, 1, 1, 0});
                run_case(fwd, dt, n, (layout){0, 0, off, 1, 1, 0});
                run_case(fwd, dt, n, (layout){off, es - off, off, 1, 1, 0});
                run_case(fwd, dt, n, (layout){off, off, 0, 1, 1, 1});
                if (!fwd) run_case(fwd, dt, n, (layout){off, off, 0, 1, 1, 2});
            }
            /* strided, at addresses off by one byte (1-byte dtypes are aligned anywhere) */
            size_t off = es > 1 ? 1 : 0;
            run_case(fwd, dt, n, (layout){off, off + 1 < es ? off + 1 : off, off, 2, -1, 0});
            run_case(fwd, dt, n, (layout){off, off, off, -3, 3, 1});
        }
        /* above the streaming threshold: every array off by a different amount, and in place */
        if (es > 1) {
            run_case(fwd, dt, BIG, (layout){1, es - 1, 1, 1, 1, 0});
            run_case(fwd, dt, BIG, (layout){1, 1, 0, 1, 1, 1});
        }
    }
}

static void test_backward_any_address(void **state) {
    (void)state;
    run_op(0);
}

static void test_forward_any_address(void **state) {
    (void)state;
    run_op(1);
}

/* aclnn: shape {rows, cols} over data at an odd address, row-major or (transposed) column-major
   view; a column-major view is packed through the workspace, which is given at an odd address
   too. */
static aclTensor *odd_tensor(aclDataType dt, int64_t rows, int64_t cols, int transposed,
                             void *data) {
    int64_t dims[2] = {rows, cols};
    int64_t strides[2] = {transposed ? 1 : cols, transposed ? rows : 1};
    int64_t storage = rows * cols;
    return aclCreateTensor(dims, 2, dt, strides, 0, ACL_FORMAT_ND, &storage, 1, data);
}

/* Phase 2 with a workspace at an odd address, then a sync. */
static int run_odd_ws(int rc, uint64_t ws, aclOpExecutor *ex, sgt_phase2 run) {
    if (rc != ACLNN_SUCCESS) return rc;
    unsigned char *w = malloc(ws + 1);
    assert_non_null(w);
    rc = run(ws ? w + 1 : NULL, ws, ex, NULL);
    if (rc == ACLNN_SUCCESS) rc = aclrtSynchronizeStream(NULL);
    free(w);
    return rc;
}

/* op 0 aclnnSeluBackward, 1 aclnnSelu, 2 aclnnInplaceSelu over row-major rows x cols tensors at
   odd addresses; with y_transposed the output (of ops 0 and 1) is a column-major view, which the
   executor writes through the workspace: its element (r, c) is at storage index r + c * rows. */
static void aclnn_case(int op, aclDataType dt, int64_t rows, int64_t cols, int y_transposed) {
    size_t es = selugrad_dtype_size((selugrad_dtype)dt), n = (size_t)(rows * cols);
    size_t bytes = n * es + 2 * PAD;
    unsigned char *gbuf = malloc(bytes), *obuf = malloc(bytes), *ybuf = malloc(bytes);
    unsigned char *g0 = malloc(n * es), *o0 = malloc(n * es), *expect = malloc(n * es);
    assert_non_null(gbuf);
    assert_non_null(obuf);
    assert_non_null(ybuf);
    assert_non_null(g0);
    assert_non_null(o0);
    assert_non_null(expect);
    fill(g0, n, es);
    fill(o0, n, es);
    /* malloc gives 16-byte alignment: + 1 is odd */
    unsigned char *g = gbuf + PAD + 1, *o = obuf + PAD + es - 1, *y = ybuf + PAD + 1;
    if (es == 1) o = obuf + PAD + 3;
    memcpy(g, g0, n * es);
    memcpy(o, o0, n * es);
    memset(ybuf, 0x5A, bytes);
    unsigned char *flat = malloc(n * es);
    assert_non_null(flat);
    golden(op != 0, (selugrad_dtype)dt, n, g0, 1, o0, 1, flat);
    int ytr = y_transposed && op != 2;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            memcpy(expect + (size_t)(ytr ? r + c * rows : r * cols + c) * es,
                   flat + (size_t)(r * cols + c) * es, es);
    free(flat);
    aclTensor *tg = odd_tensor(dt, rows, cols, 0, g);
    aclTensor *to = odd_tensor(dt, rows, cols, 0, o);
    aclTensor *ty = odd_tensor(dt, rows, cols, ytr, y);
    assert_non_null(tg);
    assert_non_null(to);
    assert_non_null(ty);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    unsigned char *result = y;
    int rc;
    sgt_phase2 run = aclnnSeluBackward;
    if (op == 0) {
        rc = aclnnSeluBackwardGetWorkspaceSize(tg, to, ty, &ws, &ex);
    } else if (op == 1) {
        rc = aclnnSeluGetWorkspaceSize(tg, ty, &ws, &ex);
        run = aclnnSelu;
    } else {
        rc = aclnnInplaceSeluGetWorkspaceSize(tg, &ws, &ex);
        run = aclnnInplaceSelu;
        result = g;
    }
    if (rc == ACLNN_SUCCESS && ytr) assert_true(ws > 0); /* y goes through the workspace */
    rc = run_odd_ws(rc, ws, ex, run);
    if (rc != ACLNN_SUCCESS) fail_msg("aclnn op %d: %d: %s", op, rc, aclGetRecentErrMsg());
    if (memcmp(result, expect, n * es) != 0)
        fail_msg("aclnn op %d dtype %d %lldx%lld%s: differs from the golden", op, (int)dt,
                 (long long)rows, (long long)cols, ytr ? " y transposed" : "");
    if (op != 2) { /* nothing written around y */
        for (size_t i = 0; i < PAD + 1; i++) assert_int_equal(ybuf[i], 0x5A);
        for (size_t i = PAD + 1 + n * es; i < bytes; i++) assert_int_equal(ybuf[i], 0x5A);
    }
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyTensor(ty);
    free(gbuf);
    free(obuf);
    free(ybuf);
    free(g0);
    free(o0);
    free(expect);
}

static void test_aclnn_any_address(void **state) {
    (void)state;
    const aclDataType dts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
        for (int op = 0; op < 3; op++)
            for (int tr = 0; tr < 2; tr++) {
                aclnn_case(op, dts[d], 3, 5, tr);
                aclnn_case(op, dts[d], 301, 233, tr);
            }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backward_any_address),
        cmocka_unit_test(test_forward_any_address),
        cmocka_unit_test_setup_teardown(test_aclnn_any_address, sgt_setup, sgt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
