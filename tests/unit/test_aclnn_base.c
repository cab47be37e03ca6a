/* The smaller CANN calls: fp16 conversions with CANN's saturating conventions, contexts (the old
   sample template's aclrtCreateContext / aclrtSetCurrentContext), aclnnInit / aclnnFinalize,
   CANN's further memory policies, attributes and copy kinds, and aclAppLog. */
#define _POSIX_C_SOURCE 200809L /* setenv, dup, fileno */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "aclnn_test_util.h"

static void test_fp16_conversions(void **state) {
    (void)state;
    /* Finite values round to nearest even (values chosen by hand: 2049 lies halfway between
       2048 and 2050, whose even neighbour is 2048; 2051 between 2050 and 2052 goes to 2052). */
    const struct {
        float f;
        uint16_t h;
    } to[] = {{1.0f, 0x3C00},     {-2.0f, 0xC000},     {0.5f, 0x3800},     {65504.0f, 0x7BFF},
              {2049.0f, 0x6800},  {2051.0f, 0x6802},   {0x1p-24f, 0x0001}, {0x1p-26f, 0x0000},
              {-0.0f, 0x8000},    {65519.0f, 0x7BFF},                   /* rounds down to 65504 */
              {65520.0f, 0x7BFF}, {1e9f, 0x7BFF},      {-1e9f, 0xFBFF}, /* saturate, not inf */
              {INFINITY, 0x7BFF}, {-INFINITY, 0xFBFF}, {NAN, 0x7BFF},      {-NAN, 0x7BFF}};
    for (size_t i = 0; i < sizeof to / sizeof to[0]; i++) {
        if (aclFloatToFloat16(to[i].f) != to[i].h)
            fail_msg("aclFloatToFloat16(%a) = 0x%04X, expected 0x%04X", (double)to[i].f,
                     aclFloatToFloat16(to[i].f), to[i].h);
    }
    /* Back: exact for finite values; the all-ones exponent reads as 2^16 * (1 + m / 1024). */
    const struct {
        uint16_t h;
        float f;
    } from[] = {{0x3C00, 1.0f},      {0x0001, 0x1p-24f}, {0x03FF, 1023 * 0x1p-24f},
                {0x7BFF, 65504.0f},  {0x8000, -0.0f},    {0x7C00, 65536.0f},
                {0xFC00, -65536.0f}, {0x7E00, 98304.0f}, {0x7FFF, 131008.0f}};
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
        float got = aclFloat16ToFloat(from[i].h);
        if (memcmp(&got, &from[i].f, sizeof got) != 0)
            fail_msg("aclFloat16ToFloat(0x%04X) = %a, expected %a", from[i].h, (double)got,
                     (double)from[i].f);
    }
    /* every finite fp16 value goes there and back unchanged */
    for (uint32_t h = 0; h < 0x10000; h++)
        if ((h & 0x7C00) != 0x7C00) assert_int_equal(aclFloatToFloat16(aclFloat16ToFloat(h)), h);
}

static void *other_thread_context(void *arg) {
    (void)arg;
    aclrtContext c = NULL;
    /* a new thread has no current device, so no context */
    return (void *)(intptr_t)aclrtGetCurrentContext(&c);
}

static void test_contexts(void **state) {
    (void)state;
    aclrtContext ctx = NULL, cur = NULL, def = NULL;
    assert_int_equal(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCreateContext(&ctx, 1), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_msg_has("aclrtCreateContext", "deviceId 1 is invalid");
    /* the old CANN sample template: set device, create a context, make it current, a stream */
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&def), ACL_SUCCESS); /* the device's default */
    assert_non_null(def);
    assert_int_equal(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
    assert_non_null(ctx);
    assert_ptr_not_equal(ctx, def);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, ctx); /* a new context is current */
    assert_int_equal(aclrtSetCurrentContext(def), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, def);
    assert_int_equal(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    int32_t dev = -1;
    assert_int_equal(aclrtGetDevice(&dev), ACL_SUCCESS);
    assert_int_equal(dev, 0);
    /* an op runs on that stream */
    float gb[2] = {1.0f, 1.0f}, ob[2] = {-1.0f, 1.0f}, yb[2] = {0};
    const int64_t d[1] = {2};
    aclTensor *g = sgt_tensor(ACL_FLOAT, d, 1, gb), *o = sgt_tensor(ACL_FLOAT, d, 1, ob),
              *y = sgt_tensor(ACL_FLOAT, d, 1, yb);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    assert_int_equal(aclnnSeluBackwardGetWorkspaceSize(g, o, y, &ws, &ex), ACLNN_SUCCESS);
    assert_int_equal(aclnnSeluBackward(NULL, ws, ex, s), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_true(sgt_same_f32(yb[0], sgt_ref_f32(1.0f, -1.0f)));
    assert_true(sgt_same_f32(yb[1], sgt_ref_f32(1.0f, 1.0f)));
    aclDestroyTensor(g), aclDestroyTensor(o), aclDestroyTensor(y);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    /* destroy: once; not the default one; after it, the current context is the default again */
    assert_int_equal(aclrtDestroyContext(ctx), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtDestroyContext", "not a context");
    assert_int_equal(aclrtSetCurrentContext(ctx), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtSetCurrentContext", "not a live context");
    assert_int_equal(aclrtDestroyContext(def), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, def);
    pthread_t t;
    void *rc = NULL;
    assert_int_equal(pthread_create(&t, NULL, other_thread_context, NULL), 0);
    assert_int_equal(pthread_join(t, &rc), 0);
    assert_int_equal((int)(intptr_t)rc, ACL_ERROR_RT_CONTEXT_NULL);
    /* a context does not outlive its device on this thread: after aclrtResetDevice there is no
       current context, and none comes back with the next aclrtSetDevice but the default */
    assert_int_equal(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
    assert_msg_has("aclrtGetCurrentContext", "no current context");
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
    assert_ptr_equal(cur, def);
    assert_int_equal(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
    /* without aclInit the calls that need it say so under their own names (100001) */
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    assert_int_equal(aclrtSetCurrentContext(ctx), ACL_ERROR_UNINITIALIZE);
    assert_msg_has("aclrtSetCurrentContext", "aclInit has not been called");
    aclrtContext late = NULL;
    assert_int_equal(aclrtCreateContext(&late, 0), ACL_ERROR_UNINITIALIZE);
    assert_msg_has("aclrtCreateContext", "aclInit has not been called");
    assert_null(late);
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_SUCCESS);
}

static void test_aclnn_init(void **state) {
    (void)state;
    assert_int_equal(aclnnInit(NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnInit(""), ACLNN_SUCCESS);
    assert_int_equal(aclnnInit("/nonexistent/aclnn.json"), ACLNN_ERR_PARAM_INVALID);
    assert_msg_has("aclnnInit", "/nonexistent/aclnn.json");
    assert_int_equal(aclnnFinalize(), ACLNN_SUCCESS);
}

static void test_memory_policies(void **state) {
    (void)state;
    const int ok[] = {ACL_MEM_MALLOC_HUGE1G_ONLY,
                      ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
                      ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_LOW_BAND_WIDTH,
                      ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_HIGH_BAND_WIDTH,
                      ACL_MEM_TYPE_HIGH_BAND_WIDTH,
                      ACL_MEM_ACCESS_USER_SPACE_READONLY | 2};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        void *p = NULL;
        assert_int_equal(aclrtMalloc(&p, 100, (aclrtMemMallocPolicy)ok[i]), ACL_SUCCESS);
        assert_int_equal((uintptr_t)p % 64, 0);
        assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    }
    const int bad[] = {8, 0x200, -1, 0x100 | 9};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        void *p = NULL;
        assert_int_equal(aclrtMalloc(&p, 100, (aclrtMemMallocPolicy)bad[i]),
                         ACL_ERROR_INVALID_PARAM);
        assert_msg_has("aclrtMalloc", "is unknown");
        assert_null(p);
    }
    size_t free_b = 0, total = 0;
    assert_int_equal(aclrtGetMemInfo(ACL_HBM_MEM_P2P_NORMAL, &free_b, &total), ACL_SUCCESS);
    assert_true(total > 0 && free_b <= total);
    assert_int_equal(aclrtGetMemInfo(ACL_MEM_P2P_HUGE1G, &free_b, &total), ACL_SUCCESS);
    assert_int_equal(aclrtGetMemInfo((aclrtMemAttr)18, &free_b, &total), ACL_ERROR_INVALID_PARAM);
    /* CANN's values for the attributes the old header had wrong */
    assert_int_equal(ACL_DDR_MEM_P2P_HUGE, 6);
    assert_int_equal(ACL_HBM_MEM_P2P_HUGE, 8);
    assert_int_equal(ACL_HBM_MEM_P2P_NORMAL, 9);
}

/* aclAppLog writes one line on stderr, at ERROR by default; ASCEND_GLOBAL_LOG_LEVEL lowers it. */
static void test_app_log(void **state) {
    (void)state;
    char path[] = "/tmp/sg_applog_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(fileno(stderr));
    assert_true(saved >= 0);
    assert_true(dup2(fd, fileno(stderr)) >= 0);
    unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
    ACL_APP_LOG(ACL_ERROR, "value %d", 42);
    ACL_APP_LOG(ACL_INFO, "hidden %d", 1);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
    ACL_APP_LOG(ACL_INFO, "shown %s", "too");
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1); /* none */
    ACL_APP_LOG(ACL_ERROR, "silenced %d", 4);
    unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
    fflush(stderr);
    assert_true(dup2(saved, fileno(stderr)) >= 0);
    close(saved);
    char buf[512] = {0};
    assert_true(pread(fd, buf, sizeof buf - 1, 0) > 0);
    close(fd);
    unlink(path);
    assert_non_null(strstr(buf, "[ERROR] "));
    assert_non_null(strstr(buf, "test_aclnn_base.c:"));
    assert_non_null(strstr(buf, "test_app_log: value 42\n"));
    assert_null(strstr(buf, "hidden"));
    assert_non_null(strstr(buf, "[INFO] "));
    assert_non_null(strstr(buf, "test_app_log: shown too\n"));
    assert_null(strstr(buf, "silenced"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp16_conversions), cmocka_unit_test(test_contexts),
        cmocka_unit_test(test_aclnn_init),       cmocka_unit_test(test_memory_policies),
        cmocka_unit_test(test_app_log),
    };
    return cmocka_run_group_tests(tests, sgt_setup, sgt_teardown);
}
