/* Streams under the operator: ordered dependent work, draining on destroy, and 8 threads each
   with its own stream doing 1,000 calls of random shapes, every result exact. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "aclnn_test_util.h"
#include "runtime/acl_error.h"
#include "runtime/stream.h"

/* Phase 1 and 2 of y = SeluGrad(g, o) on stream s, without waiting. */
static int enqueue(aclTensor *g, aclTensor *o, aclTensor *y, aclrtStream s, void **ws_out) {
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int rc = aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &ex);
    if (rc != ACLNN_SUCCESS) return rc;
    *ws_out = ws ? malloc(ws) : NULL;
    return aclnnSeluBackward(*ws_out, ws, ex, s);
}

static void test_dependent_calls(void **state) {
    (void)state;
    enum { N = 1 << 20 };
    float *g = malloc(N * sizeof(float)), *o = malloc(N * sizeof(float));
    float *y1 = malloc(N * sizeof(float)), *y2 = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        g[i] = (float)(i % 17) * 0.125f - 1.0f;
        o[i] = (float)(i % 29) * 0.25f - 3.5f;
        y1[i] = y2[i] = 0;
    }
    const int64_t d[2] = {1024, 1024};
    aclTensor *tg = sgt_tensor(ACL_FLOAT, d, 2, g), *to = sgt_tensor(ACL_FLOAT, d, 2, o);
    aclTensor *t1 = sgt_tensor(ACL_FLOAT, d, 2, y1), *t2 = sgt_tensor(ACL_FLOAT, d, 2, y2);
    aclrtStream s;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    void *w1 = NULL, *w2 = NULL;
    /* The second call consumes the first one's output, with no sync in between. */
    assert_int_equal(enqueue(tg, to, t1, s, &w1), ACLNN_SUCCESS);
    assert_int_equal(enqueue(t1, to, t2, s, &w2), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    for (int i = 0; i < N; i++) {
        float e1 = sgt_ref_f32(g[i], o[i]);
        if (!sgt_same_f32(y1[i], e1) || !sgt_same_f32(y2[i], sgt_ref_f32(e1, o[i]))) {
            print_error("element %d: %g %g\n", i, (double)y1[i], (double)y2[i]);
            fail();
        }
    }
    /* Destroying a stream with queued work drains it first. */
    memset(y1, 0, N * sizeof(float));
    free(w1);
    free(w2);
    assert_int_equal(enqueue(tg, to, t1, s, &w1), ACLNN_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    for (int i = 0; i < N; i += 997) assert_true(sgt_same_f32(y1[i], sgt_ref_f32(g[i], o[i])));
    free(w1);
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyTensor(t1);
    aclDestroyTensor(t2);
    free(g), free(o), free(y1), free(y2);
}

typedef struct worker {
    uint64_t seed;
    int failures;
    int calls;
} worker;

static uint32_t next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 16);
}

/* One call of a random shape: contiguous or transposed output, sometimes two chained. */
static int one_call(worker *w, aclrtStream s, float *g, float *o, float *y, float *y2) {
    int64_t rows = 1 + next(&w->seed) % 40, cols = 1 + next(&w->seed) % 60;
    if (next(&w->seed) % 50 == 0) rows *= 64; /* now and then big enough to queue */
    int64_t n = rows * cols;
    for (int64_t i = 0; i < n; i++) {
        g[i] = (float)((int)(next(&w->seed) % 2001) - 1000) / 256.0f;
        o[i] = (float)((int)(next(&w->seed) % 2001) - 1000) / 128.0f;
        y[i] = y2[i] = 0;
    }
    const int64_t d[2] = {rows, cols}, st_t[2] = {1, rows};
    int transposed = (int)(next(&w->seed) % 3 == 0);
    aclTensor *tg = sgt_tensor(ACL_FLOAT, d, 2, g), *to = sgt_tensor(ACL_FLOAT, d, 2, o);
    aclTensor *ty = transposed ? aclCreateTensor(d, 2, ACL_FLOAT, st_t, 0, ACL_FORMAT_ND, d, 2, y)
                               : sgt_tensor(ACL_FLOAT, d, 2, y);
    aclTensor *ty2 = sgt_tensor(ACL_FLOAT, d, 2, y2);
    void *w1 = NULL, *w2 = NULL;
    int bad = enqueue(tg, to, ty, s, &w1) != ACLNN_SUCCESS;
    /* Chained: y2 = SeluGrad(y viewed as y was written, o). */
    bad |= enqueue(ty, to, ty2, s, &w2) != ACLNN_SUCCESS;
    bad |= aclrtSynchronizeStream(s) != ACL_SUCCESS;
    for (int64_t r = 0; r < rows && !bad; r++)
        for (int64_t c = 0; c < cols; c++) {
            int64_t i = r * cols + c, yi = transposed ? c * rows + r : i;
            float e = sgt_ref_f32(g[i], o[i]);
            if (!sgt_same_f32(y[yi], e) || !sgt_same_f32(y2[i], sgt_ref_f32(e, o[i]))) {
                bad = 1;
                break;
            }
        }
    free(w1), free(w2);
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyTensor(ty);
    aclDestroyTensor(ty2);
    return bad;
}

static void *worker_main(void *arg) {
    worker *w = arg;
    enum { CAP = 40 * 64 * 60 };
    float *g = malloc(CAP * sizeof(float)), *o = malloc(CAP * sizeof(float));
    float *y = malloc(CAP * sizeof(float)), *y2 = malloc(CAP * sizeof(float));
    aclrtStream s = NULL;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS) {
        w->failures = 1;
    } else {
        for (int k = 0; k < 1000; k++, w->calls++) w->failures += one_call(w, s, g, o, y, y2);
        if (aclrtDestroyStream(s) != ACL_SUCCESS) w->failures++;
    }
    free(g), free(o), free(y), free(y2);
    return NULL;
}

static void test_threads(void **state) {
    (void)state;
    pthread_t th[8];
    worker w[8];
    for (int i = 0; i < 8; i++) {
        w[i] = (worker){0x1234567ull * (uint64_t)(i + 1) + 99, 0, 0};
        assert_int_equal(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < 8; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(w[i].failures, 0);
        assert_int_equal(w[i].calls, 1000);
    }
}

static void test_default_stream_shared(void **state) {
    (void)state;
    /* Work on the NULL stream from the main thread, synchronised through NULL. */
    float g[3] = {1, 2, 3}, o[3] = {-1, 0, 1}, y[3] = {0};
    const int64_t d[1] = {3};
    aclTensor *tg = sgt_tensor(ACL_FLOAT, d, 1, g), *to = sgt_tensor(ACL_FLOAT, d, 1, o);
    aclTensor *ty = sgt_tensor(ACL_FLOAT, d, 1, y);
    void *w = NULL;
    assert_int_equal(enqueue(tg, to, ty, NULL, &w), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    for (int i = 0; i < 3; i++) assert_true(sgt_same_f32(y[i], sgt_ref_f32(g[i], o[i])));
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyTensor(ty);
}

static int32_t work_fail_a(void *ctx) {
    (void)ctx;
    return sg_acl_fail(ACLNN_ERR_INNER, "work A failed");
}

static int32_t work_fail_b(void *ctx) {
    (void)ctx;
    return sg_acl_fail(ACL_ERROR_FAILURE, "work B failed");
}

static int32_t work_count(void *ctx) {
    ++*(int *)ctx;
    return 0;
}

static void test_sync_reports_first_error(void **state) {
    (void)state;
    aclrtStream h;
    int32_t err = 0;
    int count = 0;
    assert_int_equal(aclrtCreateStream(&h), ACL_SUCCESS);
    sg_stream *s = sg_stream_resolve(h, "test", &err);
    assert_non_null(s);
    /* Queued (not inline): the first failure wins, later work still runs. */
    assert_int_equal(sg_stream_submit(s, work_fail_a, NULL, NULL, false), 0);
    assert_int_equal(sg_stream_submit(s, work_fail_b, NULL, NULL, false), 0);
    assert_int_equal(sg_stream_submit(s, work_count, NULL, &count, false), 0);
    assert_int_equal(aclrtSynchronizeStream(h), ACLNN_ERR_INNER);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(strstr(m, "work A failed")); /* moved to this thread */
    assert_null(strchr(m, '\n'));                /* one failure reported: one line */
    assert_int_equal(count, 1);
    assert_int_equal(aclrtSynchronizeStream(h), ACL_SUCCESS); /* reported once */
    /* Inline on an idle stream: the same reporting. The failure's message is this thread's
       already (the work ran here); the synchronisation hands the same one on, which
       aclGetRecentErrMsg() gives once, not as a second unread failure. */
    assert_int_equal(sg_stream_submit(s, work_fail_b, NULL, NULL, true), 0);
    assert_int_equal(aclrtSynchronizeStream(h), ACL_ERROR_FAILURE);
    m = aclGetRecentErrMsg();
    assert_non_null(strstr(m, "work B failed"));
    assert_null(strchr(m, '\n'));
    /* ... also when a later failure on this thread came between: two lines, that one first */
    assert_int_equal(sg_stream_submit(s, work_fail_b, NULL, NULL, true), 0);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS); /* another stream: no failure */
    assert_int_equal(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSynchronizeStream(h), ACL_ERROR_FAILURE);
    m = aclGetRecentErrMsg();
    const char *nl = strchr(m, '\n');
    assert_non_null(nl);
    assert_non_null(strstr(m, "aclrtDestroyStream"));
    assert_true(strstr(m, "aclrtDestroyStream") < nl);
    assert_non_null(strstr(nl + 1, "work B failed"));
    assert_null(strchr(nl + 1, '\n'));
    assert_int_equal(aclrtDestroyStream(h), ACL_SUCCESS);
}

static int32_t work_sleep(void *ctx) {
    (void)ctx;
    struct timespec t = {0, 100 * 1000 * 1000}; /* 100 ms: the frees below come meanwhile */
    nanosleep(&t, NULL);
    return 0;
}

/* aclrtFree of blocks that queued work still reads or writes waits until that work is done:
   the run and the copy queued behind a sleeping item see their memory intact. Without the
   wait the worker reads unmapped memory (blocks of 16 MiB are mmapped: SIGSEGV). */
static void test_free_waits_for_queued_work(void **state) {
    (void)state;
    enum { N = 1 << 22 };
    const size_t bytes = N * sizeof(float);
    float *g, *o, *y, *src, *dst;
    assert_int_equal(aclrtMalloc((void **)&g, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc((void **)&o, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc((void **)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost((void **)&src, bytes), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc((void **)&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    float *want = malloc(bytes);
    assert_non_null(want);
    for (int i = 0; i < N; i++) {
        g[i] = (float)(i % 19) * 0.25f - 2.0f;
        o[i] = (float)(i % 23) * 0.25f - 3.0f;
        src[i] = (float)i;
        want[i] = sgt_ref_f32(g[i], o[i]);
    }
    const int64_t d[1] = {N};
    aclTensor *tg = sgt_tensor(ACL_FLOAT, d, 1, g), *to = sgt_tensor(ACL_FLOAT, d, 1, o);
    aclTensor *ty = sgt_tensor(ACL_FLOAT, d, 1, y);
    aclrtStream h;
    int32_t err = 0;
    assert_int_equal(aclrtCreateStream(&h), ACL_SUCCESS);
    sg_stream *s = sg_stream_resolve(h, "test", &err);
    assert_non_null(s);
    assert_int_equal(sg_stream_submit(s, work_sleep, NULL, NULL, false), 0);
    void *ws = NULL;
    assert_int_equal(enqueue(tg, to, ty, h, &ws), ACLNN_SUCCESS);
    assert_null(ws);
    assert_int_equal(aclrtMemcpyAsync(dst, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE, h),
                     ACL_SUCCESS);
    assert_int_equal(aclDestroyTensor(tg), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyTensor(to), ACLNN_SUCCESS);
    assert_int_equal(aclDestroyTensor(ty), ACLNN_SUCCESS);
    /* while the stream sleeps: the inputs and the copy's source go */
    assert_int_equal(aclrtFree(g), ACL_SUCCESS);
    assert_int_equal(aclrtFree(o), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(src), ACL_SUCCESS);
    assert_int_equal(aclrtFree(g), ACL_ERROR_INVALID_PARAM); /* gone once freed */
    assert_int_equal(aclrtSynchronizeStream(h), ACL_SUCCESS);
    assert_memory_equal(y, want, bytes);
    for (int i = 0; i < N; i++)
        if (dst[i] != (float)i) fail_msg("dst[%d] = %g, expected %d", i, (double)dst[i], i);
    assert_int_equal(aclrtDestroyStream(h), ACL_SUCCESS);
    assert_int_equal(aclrtFree(y), ACL_SUCCESS);
    assert_int_equal(aclrtFree(dst), ACL_SUCCESS);
    free(want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependent_calls),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_default_stream_shared),
        cmocka_unit_test(test_sync_reports_first_error),
        cmocka_unit_test(test_free_waits_for_queued_work),
    };
    return cmocka_run_group_tests(tests, sgt_setup, sgt_teardown);
}
