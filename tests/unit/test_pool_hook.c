/*
 * The host parallel-for hook (selugrad_set_parallel_for): calls that split hand their tasks to
 * the hook, calls too small to split do not, NULL restores the own pool, and results are the
 * same bits whatever runs the tasks (in reverse order on the calling thread, or spread over
 * three threads of the hook's own), for every dtype, contiguous, strided and in place, through
 * the native API and through aclnn on a stream.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, in aclnn_test_util.h */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"
#include "core/cache.h"
#include "core/dispatch.h"
#include "core/exec.h"
#include "core/parallel.h"
#include "kernels/kernel.h"
#include "selugrad/selugrad.h"

static atomic_int hook_calls;
static atomic_long hook_tasks;
static void *seen_ctx;

/* Every task on the calling thread, last first. */
static void reverse_for(void *ctx, size_t n_tasks, selugrad_task_fn task, void *task_ctx) {
    seen_ctx = ctx;
    atomic_fetch_add(&hook_calls, 1);
    atomic_fetch_add(&hook_tasks, (long)n_tasks);
    for (size_t i = n_tasks; i-- > 0;) task(task_ctx, i);
}

/* Three threads of the hook's own, task i on thread i % 3. */
typedef struct spread {
    size_t n_tasks, first;
    selugrad_task_fn task;
    void *task_ctx;
} spread;

static void *spread_main(void *arg) {
    const spread *s = arg;
    for (size_t i = s->first; i < s->n_tasks; i += 3) s->task(s->task_ctx, i);
    return NULL;
}

static void spread_for(void *ctx, size_t n_tasks, selugrad_task_fn task, void *task_ctx) {
    (void)ctx;
    atomic_fetch_add(&hook_calls, 1);
    atomic_fetch_add(&hook_tasks, (long)n_tasks);
    spread s[3];
    pthread_t t[3];
    for (int k = 0; k < 3; k++) {
        s[k] = (spread){n_tasks, (size_t)k, task, task_ctx};
        assert_int_equal(pthread_create(&t[k], NULL, spread_main, &s[k]), 0);
    }
    for (int k = 0; k < 3; k++) pthread_join(t[k], NULL);
}

static uint32_t rng = 777u;
static unsigned char rnd_byte(void) {
    rng = rng * 1664525u + 1013904223u;
    return (unsigned char)(rng >> 24);
}

static void test_hook_native(void **state) {
    (void)state;
    const selugrad_dtype dts[6] = {SELUGRAD_FLOAT, SELUGRAD_FLOAT16, SELUGRAD_BF16,
                                   SELUGRAD_INT8,  SELUGRAD_UINT8,   SELUGRAD_INT32};
    const selugrad_parallel_for_fn hooks[2] = {reverse_for, spread_for};
    size_t big = ((size_t)1 << 20) + 13, small = 100;
    int marker;
    for (int d = 0; d < 6; d++) {
        size_t es = selugrad_dtype_size(dts[d]);
        unsigned char *g = malloc(big * es), *o = malloc(big * es), *want = malloc(big * es),
                      *wants = malloc(big * es), *y = malloc(big * es);
        assert_true(g && o && want && wants && y);
        for (size_t i = 0; i < big * es; i++) {
            g[i] = rnd_byte();
            o[i] = rnd_byte();
        }
        /* the own pool on one thread */
        assert_int_equal(selugrad_set_parallel_for(NULL, NULL), SELUGRAD_OK);
        assert_int_equal(selugrad_set_num_threads(1), SELUGRAD_OK);
        assert_int_equal(selugrad_backward(dts[d], big, g, o, want), SELUGRAD_OK);
        assert_int_equal(selugrad_backward_strided(dts[d], big / 2, g, 2, o, 2, wants, 1),
                         SELUGRAD_OK);
        assert_int_equal(selugrad_set_num_threads(4), SELUGRAD_OK);
        for (int h = 0; h < 2; h++) {
            assert_int_equal(selugrad_set_parallel_for(hooks[h], &marker), SELUGRAD_OK);
            atomic_store(&hook_calls, 0);
            atomic_store(&hook_tasks, 0);
            memset(y, 0, big * es);
            assert_int_equal(selugrad_backward(dts[d], big, g, o, y), SELUGRAD_OK);
            assert_memory_equal(y, want, big * es);
            assert_int_equal(atomic_load(&hook_calls), 1);
            assert_true(atomic_load(&hook_tasks) >= 2);
            if (h == 0) assert_ptr_equal(seen_ctx, &marker);
            /* strided */
            memset(y, 0, big * es);
            assert_int_equal(selugrad_backward_strided(dts[d], big / 2, g, 2, o, 2, y, 1),
                             SELUGRAD_OK);
            assert_memory_equal(y, wants, big / 2 * es);
            assert_int_equal(atomic_load(&hook_calls), 2);
            /* in place */
            memcpy(y, g, big * es);
            assert_int_equal(selugrad_backward(dts[d], big, y, o, y), SELUGRAD_OK);
            assert_memory_equal(y, want, big * es);
            assert_int_equal(atomic_load(&hook_calls), 3);
            /* too small to split: on the calling thread, no hook */
            assert_int_equal(selugrad_backward(dts[d], small, g, o, y), SELUGRAD_OK);
            assert_memory_equal(y, want, small * es);
            assert_int_equal(atomic_load(&hook_calls), 3);
            /* one thread: no split, no hook */
            assert_int_equal(selugrad_set_num_threads(1), SELUGRAD_OK);
            assert_int_equal(selugrad_backward(dts[d], big, g, o, y), SELUGRAD_OK);
            assert_int_equal(atomic_load(&hook_calls), 3);
            assert_int_equal(selugrad_set_num_threads(4), SELUGRAD_OK);
        }
        /* NULL restores the own pool */
        assert_int_equal(selugrad_set_parallel_for(NULL, &marker), SELUGRAD_OK);
        memset(y, 0, big * es);
        assert_int_equal(selugrad_backward(dts[d], big, g, o, y), SELUGRAD_OK);
        assert_memory_equal(y, want, big * es);
        assert_int_equal(atomic_load(&hook_calls), 3);
        free(g), free(o), free(want), free(wants), free(y);
    }
    assert_int_equal(selugrad_set_num_threads(0), SELUGRAD_OK);
}

/* sg_hook_worth: to the host from SG_HOOK_MIN_COST, or above three quarters of the L2. */
static void test_hook_worth(void **state) {
    (void)state;
    const size_t mib = (size_t)1 << 20;
    assert_false(sg_hook_worth(SG_HOOK_MIN_COST - 1, 0, mib));
    assert_true(sg_hook_worth(SG_HOOK_MIN_COST, 0, mib));
    assert_false(sg_hook_worth(SG_HOOK_MIN_COST - 1, 768 << 10, mib));
    assert_true(sg_hook_worth(SG_HOOK_MIN_COST - 1, (768 << 10) + 1, mib));
    assert_false(sg_hook_worth(2, 3 * (size_t)400 << 10, 2 * mib)); /* 1.2 MB in 2 MiB */
    assert_true(sg_hook_worth(2, (3 * (size_t)512 << 10) + 1, 2 * mib));
    assert_false(sg_hook_worth(SG_HOOK_MIN_COST - 1, SIZE_MAX, 0)); /* L2 unknown */
    assert_true(sg_hook_worth(SIZE_MAX, 0, 0));
}

/* Calls that split: the largest below both of sg_hook_worth's bounds runs on the calling thread
   without the hook, one element more goes to the hook; both give the own pool's bits, contiguous
   and strided. Cost: traffic over the kernel's sg_part_bytes (docs/dispatch.md). */
static void test_hook_short_calls(void **state) {
    (void)state;
    const selugrad_dtype dts[6] = {SELUGRAD_FLOAT, SELUGRAD_FLOAT16, SELUGRAD_BF16,
                                   SELUGRAD_INT8,  SELUGRAD_UINT8,   SELUGRAD_INT32};
    size_t l2 = sg_caches_get()->l2;
    for (int d = 0; d < 6; d++) {
        const sg_kernel *k = sg_kernel_for(dts[d]);
        assert_non_null(k);
        size_t es = selugrad_dtype_size(dts[d]), per = (sg_kernel_inputs(k) + 1) * es;
        size_t part = sg_part_bytes(k);
        size_t below = ((size_t)SG_HOOK_MIN_COST * part - 1) / per; /* cost SG_HOOK_MIN_COST-1 */
        if (l2 != 0 && below > (l2 - l2 / 4) / per) below = (l2 - l2 / 4) / per;
        size_t above = below + 1;
        if (below * per < 2 * part) continue; /* would not split on the own pool either */
        unsigned char *g = malloc(above * es), *o = malloc(above * es), *want = malloc(above * es),
                      *wants = malloc(above * es), *y = malloc(above * es);
        assert_true(g && o && want && wants && y);
        for (size_t i = 0; i < above * es; i++) {
            g[i] = rnd_byte();
            o[i] = rnd_byte();
        }
        assert_int_equal(selugrad_set_parallel_for(NULL, NULL), SELUGRAD_OK);
        assert_int_equal(selugrad_set_num_threads(1), SELUGRAD_OK);
        assert_int_equal(selugrad_backward(dts[d], above, g, o, want), SELUGRAD_OK);
        assert_int_equal(selugrad_backward_strided(dts[d], below / 2, g, 2, o, 2, wants, 1),
                         SELUGRAD_OK);
        assert_int_equal(selugrad_set_num_threads(4), SELUGRAD_OK);
        assert_int_equal(selugrad_set_parallel_for(spread_for, NULL), SELUGRAD_OK);
        atomic_store(&hook_calls, 0);
        memset(y, 0, above * es);
        assert_int_equal(selugrad_backward(dts[d], below, g, o, y), SELUGRAD_OK);
        assert_memory_equal(y, want, below * es);
        assert_int_equal(atomic_load(&hook_calls), 0);
        memset(y, 0, above * es);
        assert_int_equal(selugrad_backward_strided(dts[d], below / 2, g, 2, o, 2, y, 1),
                         SELUGRAD_OK);
        assert_memory_equal(y, wants, below / 2 * es);
        assert_int_equal(atomic_load(&hook_calls), 0);
        memset(y, 0, above * es);
        assert_int_equal(selugrad_backward(dts[d], above, g, o, y), SELUGRAD_OK);
        assert_memory_equal(y, want, above * es);
        assert_int_equal(atomic_load(&hook_calls), 1);
        assert_int_equal(selugrad_set_parallel_for(NULL, NULL), SELUGRAD_OK);
        free(g), free(o), free(want), free(wants), free(y);
    }
    assert_int_equal(selugrad_set_num_threads(0), SELUGRAD_OK);
}

/* Nested calls (docs/api.md, selugrad_set_parallel_for): a call made inside the hook, on the
   hook's thread before its tasks and on a second thread while the tasks run, is an ordinary
   call that reaches the hook again; a hook that resets the hook and the thread count while it
   runs finishes its call. Every result is the own pool's. */
static const float *nest_g, *nest_o, *nest_want;
static float *nest_y, *nest_y2;
static size_t nest_n;
static atomic_int nest_depth, nest_bad;

static void nest_call(float *y) {
    if (selugrad_backward(SELUGRAD_FLOAT, nest_n, nest_g, nest_o, y) != SELUGRAD_OK ||
        memcmp(y, nest_want, nest_n * sizeof *y) != 0)
        atomic_fetch_add(&nest_bad, 1);
}

static void *nest_thread(void *arg) {
    (void)arg;
    nest_call(nest_y2);
    return NULL;
}

static void nest_for(void *ctx, size_t n_tasks, selugrad_task_fn task, void *task_ctx) {
    (void)ctx;
    atomic_fetch_add(&hook_calls, 1);
    int outer = atomic_fetch_add(&nest_depth, 1) == 0;
    pthread_t t;
    if (outer) {
        nest_call(nest_y); /* on this thread, inside the hook */
        assert_int_equal(pthread_create(&t, NULL, nest_thread, NULL), 0);
    }
    for (size_t i = n_tasks; i-- > 0;) task(task_ctx, i);
    if (outer) pthread_join(t, NULL);
    atomic_fetch_sub(&nest_depth, 1);
}

static void reset_for(void *ctx, size_t n_tasks, selugrad_task_fn task, void *task_ctx) {
    (void)ctx;
    atomic_fetch_add(&hook_calls, 1);
    assert_int_equal(selugrad_set_parallel_for(NULL, NULL), SELUGRAD_OK);
    assert_int_equal(selugrad_set_num_threads(1), SELUGRAD_OK);
    for (size_t i = 0; i < n_tasks; i++) task(task_ctx, i);
}

static void test_hook_nested(void **state) {
    (void)state;
    size_t n = ((size_t)1 << 20) + 5;
    float *g = malloc(n * 4), *o = malloc(n * 4), *want = malloc(n * 4), *y = malloc(n * 4);
    float *y1 = malloc(n * 4), *y2 = malloc(n * 4);
    assert_true(g && o && want && y && y1 && y2);
    for (size_t i = 0; i < n; i++) {
        g[i] = (float)(int)(i % 2001 - 1000) / 256.0f;
        o[i] = (float)(int)(i % 1999 - 900) / 128.0f;
    }
    assert_int_equal(selugrad_set_parallel_for(NULL, NULL), SELUGRAD_OK);
    assert_int_equal(selugrad_set_num_threads(2), SELUGRAD_OK);
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, n, g, o, want), SELUGRAD_OK);
    nest_g = g, nest_o = o, nest_want = want, nest_y = y1, nest_y2 = y2, nest_n = n;
    atomic_store(&nest_bad, 0);
    atomic_store(&hook_calls, 0);
    assert_int_equal(selugrad_set_parallel_for(nest_for, NULL), SELUGRAD_OK);
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, n, g, o, y), SELUGRAD_OK);
    assert_memory_equal(y, want, n * 4);
    assert_int_equal(atomic_load(&nest_bad), 0);
    assert_int_equal(atomic_load(&hook_calls), 3); /* the call and the two nested in it */
    /* a hook that resets the hook and the thread count inside its call */
    atomic_store(&hook_calls, 0);
    assert_int_equal(selugrad_set_parallel_for(reset_for, NULL), SELUGRAD_OK);
    memset(y, 0, n * 4);
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, n, g, o, y), SELUGRAD_OK);
    assert_memory_equal(y, want, n * 4);
    assert_int_equal(selugrad_get_num_threads(), 1);
    assert_int_equal(selugrad_set_num_threads(2), SELUGRAD_OK);
    memset(y, 0, n * 4);
    assert_int_equal(selugrad_backward(SELUGRAD_FLOAT, n, g, o, y), SELUGRAD_OK); /* own pool */
    assert_memory_equal(y, want, n * 4);
    assert_int_equal(atomic_load(&hook_calls), 1);
    assert_int_equal(selugrad_set_num_threads(0), SELUGRAD_OK);
    free(g), free(o), free(want), free(y), free(y1), free(y2);
}

/* aclnn on a stream: the stream's thread runs the call, through the hook. */
static void test_hook_aclnn_stream(void **state) {
    (void)state;
    enum { N = 1 << 20 };
    float *g = malloc(N * sizeof(float)), *o = malloc(N * sizeof(float));
    float *y = malloc(N * sizeof(float));
    assert_true(g && o && y);
    for (int i = 0; i < N; i++) {
        g[i] = (float)(i % 17) * 0.125f - 1.0f;
        o[i] = (float)(i % 29) * 0.25f - 3.5f;
        y[i] = 0;
    }
    const int64_t d[2] = {1024, 1024};
    aclTensor *tg = sgt_tensor(ACL_FLOAT, d, 2, g), *to = sgt_tensor(ACL_FLOAT, d, 2, o);
    aclTensor *ty = sgt_tensor(ACL_FLOAT, d, 2, y);
    assert_int_equal(selugrad_set_num_threads(2), SELUGRAD_OK);
    assert_int_equal(selugrad_set_parallel_for(spread_for, NULL), SELUGRAD_OK);
    atomic_store(&hook_calls, 0);
    aclrtStream s;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(tg, to, ty, &ws, &ex), ACLNN_SUCCESS);
    void *w = ws ? malloc(ws) : NULL;
    assert_int_equal(aclnnSeluBackward(w, ws, ex, s), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(atomic_load(&hook_calls), 1);
    for (int i = 0; i < N; i++)
        if (!sgt_same_f32(y[i], sgt_ref_f32(g[i], o[i]))) {
            print_error("element %d: %g\n", i, (double)y[i]);
            fail();
        }
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(selugrad_set_parallel_for(NULL, NULL), SELUGRAD_OK);
    assert_int_equal(selugrad_set_num_threads(0), SELUGRAD_OK);
    free(w);
    aclDestroyTensor(tg), aclDestroyTensor(to), aclDestroyTensor(ty);
    free(g), free(o), free(y);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_native),
        cmocka_unit_test(test_hook_worth),
        cmocka_unit_test(test_hook_short_calls),
        cmocka_unit_test(test_hook_nested),
        cmocka_unit_test_setup_teardown(test_hook_aclnn_stream, sgt_setup, sgt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
