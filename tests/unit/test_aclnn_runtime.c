/* The aclnn runtime: init, devices, SoC, memory and streams, each status code and message. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkstemp, fdopen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aclnn_test_util.h"

static void test_init_finalize(void **state) {
    (void)state;
    unsetenv("SELUGRAD_SOC");
    assert_int_equal(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    assert_msg_has("aclrtSetDevice", "aclInit");
    assert_int_equal(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    assert_msg_has("aclFinalize", "not initialised");
    assert_null(aclrtGetSocName());
    assert_int_equal(aclInit("/nonexistent/selugrad.json"), ACL_ERROR_INVALID_FILE);
    assert_msg_has("aclInit", "/nonexistent/selugrad.json");
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_int_equal(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    assert_msg_has("aclInit", "already");
    assert_string_equal(aclrtGetSocName(), "Ascend910B");
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    /* A readable config file is accepted; its content is not interpreted. */
    char path[] = "/tmp/selugrad_acl_cfgXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("{}\n", f);
    fclose(f);
    assert_int_equal(aclInit(path), ACL_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    remove(path);
    assert_int_equal(aclInit(""), ACL_SUCCESS);
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
}

static void test_soc_env(void **state) {
    (void)state;
    const char *names[] = {"Ascend910", "Ascend910B", "Ascend910_93",
                           "Ascend950", "Ascend910E", "Ascend310P"};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(sgt_init_soc(names[i]), ACL_SUCCESS);
        assert_string_equal(aclrtGetSocName(), names[i]);
        assert_int_equal(aclFinalize(), ACL_SUCCESS);
    }
    setenv("SELUGRAD_SOC", "Ascend999", 1);
    assert_int_equal(aclInit(NULL), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclInit", "Ascend999");
    setenv("SELUGRAD_SOC", "", 1); /* empty: the default */
    assert_int_equal(aclInit(NULL), ACL_SUCCESS);
    assert_string_equal(aclrtGetSocName(), "Ascend910B");
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    unsetenv("SELUGRAD_SOC");
}

static void test_devices(void **state) {
    (void)state;
    int32_t dev = 7;
    uint32_t count = 0;
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS); /* the fixture set it */
    assert_int_equal(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    assert_msg_has("aclrtGetDevice", "aclrtSetDevice");
    assert_int_equal(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_msg_has("aclrtSetDevice", "deviceId 1");
    assert_int_equal(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtResetDevice(3), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetDevice(&dev), ACL_SUCCESS);
    assert_int_equal(dev, 0);
    assert_int_equal(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    assert_int_equal(count, 1);
    assert_int_equal(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtGetDeviceCount", "count");
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
}

static void test_malloc_free(void **state) {
    (void)state;
    void *p = NULL;
    assert_int_equal(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMalloc", "devPtr");
    assert_int_equal(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMalloc", "size");
    assert_int_equal(aclrtMalloc(&p, 16, (aclrtMemMallocPolicy)9), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMalloc", "policy 9");
    assert_int_equal(aclrtMalloc(&p, (size_t)-1, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_BAD_ALLOC);
    assert_msg_has("aclrtMalloc", "allocate");
    const aclrtMemMallocPolicy pols[3] = {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_NORMAL_ONLY,
                                          ACL_MEM_MALLOC_HUGE_FIRST_P2P};
    const size_t sizes[3] = {1, 1000, (size_t)5 << 20};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(aclrtMalloc(&p, sizes[i], pols[i]), ACL_SUCCESS);
        assert_int_equal((uintptr_t)p % 64, 0);
        memset(p, 0xAB, sizes[i]);
        assert_int_equal(aclrtFree(p), ACL_SUCCESS);
        assert_int_equal(aclrtFree(p), ACL_ERROR_INVALID_PARAM); /* double free */
        assert_msg_has("aclrtFree", "already freed");
    }
    int local;
    assert_int_equal(aclrtFree(&local), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    /* Host blocks and device blocks are separate kinds. */
    assert_int_equal(aclrtMallocHost(&p, 100), ACL_SUCCESS);
    assert_int_equal((uintptr_t)p % 64, 0);
    assert_int_equal(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFreeHost(p), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(p), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtFreeHost", "already freed");
    assert_int_equal(aclrtMallocHost(NULL, 100), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
}

/* aclGetRecentErrMsg() as CANN documents it: it returns and clears this thread's messages; the
   failures not read in between come together, the newest first, one per line; a success clears
   nothing; the oldest give way when they no longer fit. */
static void test_recent_err_msg_read_clears(void **state) {
    (void)state;
    void *p = NULL;
    (void)aclGetRecentErrMsg(); /* whatever the tests before left unread */
    assert_string_equal(aclGetRecentErrMsg(), "");
    assert_int_equal(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(strstr(m, "aclrtMalloc"));
    assert_null(strchr(m, '\n'));
    assert_string_equal(aclGetRecentErrMsg(), ""); /* read once */

    assert_int_equal(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    m = aclGetRecentErrMsg();
    const char *nl = strchr(m, '\n');
    assert_non_null(nl);
    assert_null(strchr(nl + 1, '\n'));
    assert_non_null(strstr(m, "size")); /* the newest, aclrtMalloc(&p, 0, ...) */
    assert_true(strstr(m, "size") < nl);
    assert_non_null(strstr(nl + 1, "devPtr")); /* the older one */
    assert_string_equal(aclGetRecentErrMsg(), "");

    /* 1,000 unread failures: whole lines, the newest first, at most 512 + 4,096 characters */
    for (int i = 0; i < 1000; i++) assert_int_equal(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    assert_int_equal(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    m = aclGetRecentErrMsg();
    size_t len = strlen(m);
    assert_true(len > 4000 && len < 512 + 4096);
    assert_ptr_equal(strstr(m, "ACL_ERROR_INVALID_PARAM(100000): aclrtMalloc"), m);
    size_t lines = 1;
    for (const char *c = m; *c; c++) lines += *c == '\n';
    assert_true(lines > 10 && lines < 1000);
    const char *last = strrchr(m, '\n') + 1; /* the oldest kept is a whole message */
    assert_ptr_equal(strstr(last, "ACL_ERROR_REPEAT_INITIALIZE(100002): aclInit"), last);
    assert_string_equal(aclGetRecentErrMsg(), "");
}

static void test_malloc_needs_init(void **state) {
    (void)state;
    void *p = NULL;
    assert_int_equal(aclFinalize(), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    assert_msg_has("aclrtMalloc", "aclInit");
    assert_int_equal(aclrtMallocHost(&p, 16), ACL_ERROR_UNINITIALIZE);
    assert_int_equal(sgt_init_soc(NULL), ACL_SUCCESS);
}

static void test_memset_memcpy(void **state) {
    (void)state;
    unsigned char *d = NULL;
    unsigned char h[32];
    assert_int_equal(aclrtMalloc((void **)&d, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(d, 32, 0x5A, 32), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(d, 16, 0, 17), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMemset", "maxCount");
    assert_int_equal(aclrtMemset(NULL, 16, 0, 1), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy(h, 32, d, 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < 32; i++) assert_int_equal(h[i], 0x5A);
    assert_int_equal(aclrtMemcpy(h, 16, d, 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMemcpy", "destMax");
    assert_int_equal(aclrtMemcpy(h, 32, d, 32, (aclrtMemcpyKind)8), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMemcpy", "kind 8");
    assert_int_equal(aclrtMemcpy(h, 32, d, 32, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM);
    /* CANN's other kinds (5..7) copy like the rest */
    memset(h, 0, 32);
    assert_int_equal(aclrtMemcpy(h, 32, d, 32, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_SUCCESS);
    for (int i = 0; i < 32; i++) assert_int_equal(h[i], 0x5A);
    assert_int_equal(aclrtMemcpy(NULL, 32, d, 32, ACL_MEMCPY_DEVICE_TO_HOST),
                     ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy(h, 32, NULL, 32, ACL_MEMCPY_DEVICE_TO_HOST),
                     ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMemcpy", "src");
    for (int i = 0; i < 32; i++) h[i] = (unsigned char)i;
    assert_int_equal(aclrtMemcpy(d, 32, h, 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(d, 32, d + 8, 8, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    assert_int_equal(d[0], 8);
    assert_int_equal(aclrtMemcpy(d, 32, h, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
}

/* A copy or fill that would run past the end of the aclrtMalloc / aclrtMallocHost block its
   pointer points into is refused (100000, nothing written), whatever destMax or maxCount say;
   one that ends exactly at the end, or one in memory the runtime does not know, is not limited
   (a pointer just past a block's end is not the block's: another allocation may begin there,
   test_aclnn_bounds).
   Each row: which call, the offsets of dst and src into their blocks (-1: the program's own
   buffer), the count, and whether it succeeds. */
static void test_copies_held_to_blocks(void **state) {
    (void)state;
    enum { DEV = 100, HOST = 40, OWN = 256 };
    static const struct {
        int call;    /* 0 aclrtMemcpy, 1 aclrtMemcpyAsync, 2 aclrtMemset (dst only) */
        int dst_blk; /* 0 the device block, 1 the host block, 2 the program's buffer */
        size_t dst_at;
        int src_blk;
        size_t src_at;
        size_t count;
        int ok;
        const char *what; /* the pointer the message names */
    } rows[] = {
        {0, 0, 0, 2, 0, 100, 1, NULL},  /* the whole device block */
        {0, 0, 0, 2, 0, 101, 0, "dst"}, /* one byte past its end */
        {0, 0, 60, 2, 0, 40, 1, NULL},  /* ends exactly at the end */
        {0, 0, 60, 2, 0, 41, 0, "dst"},
        {0, 2, 0, 0, 99, 1, 1, NULL}, /* the last byte of the block */
        {0, 2, 0, 0, 99, 2, 0, "src"},
        {0, 2, 0, 1, 0, 41, 0, "src"}, /* a host block as source */
        {0, 1, 8, 0, 0, 32, 1, NULL},  /* device to host, inside both */
        {0, 1, 8, 0, 0, 33, 0, "dst"},
        {0, 2, 0, 2, 0, OWN, 1, NULL}, /* the program's own memory */
        {1, 0, 96, 2, 0, 4, 1, NULL},
        {1, 0, 96, 2, 0, 5, 0, "dst"},
        {1, 2, 0, 1, 39, 2, 0, "src"},
        {2, 0, 0, 2, 0, 100, 1, NULL},
        {2, 0, 50, 2, 0, 51, 0, "devPtr"},
        {2, 1, 1, 2, 0, 40, 0, "devPtr"},
        {2, 1, 1, 2, 0, 39, 1, NULL},
    };
    unsigned char *dev = NULL, *host = NULL;
    static unsigned char own[OWN + 200];
    assert_int_equal(aclrtMalloc((void **)&dev, DEV, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost((void **)&host, HOST), ACL_SUCCESS);
    unsigned char *base[3] = {dev, host, own};
    const char *names[3] = {"aclrtMemcpy", "aclrtMemcpyAsync", "aclrtMemset"};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        memset(dev, 0x11, DEV);
        memset(host, 0x22, HOST);
        memset(own, 0x33, sizeof own);
        unsigned char *dst = base[rows[r].dst_blk] + rows[r].dst_at;
        const unsigned char *src = base[rows[r].src_blk] + rows[r].src_at;
        size_t n = rows[r].count, big = (size_t)1 << 20; /* destMax / maxCount never limit */
        int rc;
        if (rows[r].call == 0)
            rc = aclrtMemcpy(dst, big, src, n, ACL_MEMCPY_DEVICE_TO_DEVICE);
        else if (rows[r].call == 1)
            rc = aclrtMemcpyAsync(dst, big, src, n, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL);
        else
            rc = aclrtMemset(dst, big, 0x44, n);
        if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(NULL);
        if (rc != (rows[r].ok ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM))
            print_error("row %zu: %d\n", r, rc);
        assert_int_equal(rc, rows[r].ok ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM);
        if (!rows[r].ok) {
            assert_msg_has2(names[rows[r].call], rows[r].what, "runs past its end");
            /* nothing written */
            for (int i = 0; i < DEV; i++) assert_int_equal(dev[i], 0x11);
            for (int i = 0; i < HOST; i++) assert_int_equal(host[i], 0x22);
            for (size_t i = 0; i < sizeof own; i++) assert_int_equal(own[i], 0x33);
        } else {
            const unsigned char fill[3] = {0x11, 0x22, 0x33};
            unsigned char want = rows[r].call == 2 ? 0x44 : fill[rows[r].src_blk];
            for (size_t i = 0; i < n; i++) assert_int_equal(dst[i], want);
        }
    }
    assert_int_equal(aclrtFree(dev), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(host), ACL_SUCCESS);
}

static void test_memcpy_async(void **state) {
    (void)state;
    aclrtStream s = NULL;
    enum { BIG = 1 << 20 };
    unsigned char *a = malloc(BIG), *b = malloc(BIG), *c = malloc(BIG);
    for (int i = 0; i < BIG; i++) a[i] = (unsigned char)(i * 7);
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    /* Two ordered copies: the second reads what the first wrote. */
    assert_int_equal(aclrtMemcpyAsync(b, BIG, a, BIG, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(c, BIG, b, BIG, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_memory_equal(a, c, BIG);
    assert_int_equal(aclrtMemcpyAsync(c, 1, a, 2, ACL_MEMCPY_HOST_TO_DEVICE, s),
                     ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMemcpyAsync", "destMax");
    assert_int_equal(aclrtMemcpyAsync(c, 4, a, 2, (aclrtMemcpyKind)-1, s), ACL_ERROR_INVALID_PARAM);
    /* The default stream. */
    assert_int_equal(aclrtMemcpyAsync(c, 4, a + 4, 4, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
                     ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_memory_equal(c, a + 4, 4);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(c, 4, a, 4, ACL_MEMCPY_HOST_TO_DEVICE, s),
                     ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtMemcpyAsync", "not a live stream");
    free(a);
    free(b);
    free(c);
}

static void test_streams(void **state) {
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtCreateStream", "stream");
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_non_null(s);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtDestroyStream", "already destroyed");
    assert_int_equal(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtSynchronizeStream", "not a live stream");
    assert_int_equal(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
    int bogus;
    assert_int_equal(aclrtSynchronizeStream(&bogus), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    /* Destroyed streams' handles stay dead while new streams are made: none of these takes
       one's address (docs/aclnn.md, "Stale handles"). 32 of each, more than the allocator's
       per-size caches hold, so that a freed stream's memory would be handed out again. */
    enum { K = 32 };
    aclrtStream gone[K], fresh[K];
    for (int i = 0; i < K; i++) assert_int_equal(aclrtCreateStream(&gone[i]), ACL_SUCCESS);
    for (int i = 0; i < K; i++) assert_int_equal(aclrtDestroyStream(gone[i]), ACL_SUCCESS);
    for (int i = 0; i < K; i++) {
        assert_int_equal(aclrtCreateStream(&fresh[i]), ACL_SUCCESS);
        for (int k = 0; k < K; k++) assert_ptr_not_equal(fresh[i], gone[k]);
    }
    for (int k = 0; k < K; k++) {
        assert_int_equal(aclrtSynchronizeStream(gone[k]), ACL_ERROR_INVALID_PARAM);
        assert_int_equal(aclrtDestroyStream(gone[k]), ACL_ERROR_INVALID_PARAM);
    }
    for (int i = 0; i < K; i++) assert_int_equal(aclrtDestroyStream(fresh[i]), ACL_SUCCESS);
}

static void test_mem_info_and_dtype_size(void **state) {
    (void)state;
    size_t fr = 0, tot = 0;
    assert_int_equal(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot), ACL_SUCCESS);
    assert_true(tot > 0 && fr <= tot);
    assert_int_equal(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &tot), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetMemInfo((aclrtMemAttr)99, &fr, &tot), ACL_ERROR_INVALID_PARAM);
    assert_msg_has("aclrtGetMemInfo", "attr 99");
    assert_int_equal(aclDataTypeSize(ACL_FLOAT), 4);
    assert_int_equal(aclDataTypeSize(ACL_BF16), 2);
    assert_int_equal(aclDataTypeSize(ACL_INT8), 1);
    assert_int_equal(aclDataTypeSize(ACL_COMPLEX128), 16);
    assert_int_equal(aclDataTypeSize(ACL_DT_UNDEFINED), 0);
    assert_int_equal(aclDataTypeSize((aclDataType)5), 0);
}

static void test_enum_values(void **state) {
    (void)state;
    /* CANN's public values (docs/contract.md, "aclnn API"). */
    assert_int_equal(ACL_FLOAT, 0);
    assert_int_equal(ACL_FLOAT16, 1);
    assert_int_equal(ACL_INT8, 2);
    assert_int_equal(ACL_INT32, 3);
    assert_int_equal(ACL_UINT8, 4);
    assert_int_equal(ACL_INT16, 6);
    assert_int_equal(ACL_UINT16, 7);
    assert_int_equal(ACL_UINT32, 8);
    assert_int_equal(ACL_INT64, 9);
    assert_int_equal(ACL_UINT64, 10);
    assert_int_equal(ACL_DOUBLE, 11);
    assert_int_equal(ACL_BOOL, 12);
    assert_int_equal(ACL_STRING, 13);
    assert_int_equal(ACL_COMPLEX64, 16);
    assert_int_equal(ACL_COMPLEX128, 17);
    assert_int_equal(ACL_BF16, 27);
    assert_int_equal(ACL_DT_UNDEFINED, -1);
    assert_int_equal(ACL_FORMAT_ND, 2);
    assert_int_equal(ACL_FORMAT_NCHW, 0);
    assert_int_equal(ACL_FORMAT_NHWC, 1);
    assert_int_equal(ACL_MEMCPY_HOST_TO_HOST, 0);
    assert_int_equal(ACL_MEMCPY_HOST_TO_DEVICE, 1);
    assert_int_equal(ACL_MEMCPY_DEVICE_TO_HOST, 2);
    assert_int_equal(ACL_MEMCPY_DEVICE_TO_DEVICE, 3);
    assert_int_equal(ACL_MEM_MALLOC_HUGE_FIRST, 0);
    assert_int_equal(ACL_MEM_MALLOC_HUGE_ONLY, 1);
    assert_int_equal(ACL_MEM_MALLOC_NORMAL_ONLY, 2);
    assert_int_equal(ACL_SUCCESS, 0);
    assert_int_equal(ACL_ERROR_INVALID_PARAM, 100000);
    assert_int_equal(ACL_ERROR_UNINITIALIZE, 100001);
    assert_int_equal(ACL_ERROR_REPEAT_INITIALIZE, 100002);
    assert_int_equal(ACL_ERROR_BAD_ALLOC, 200000);
    assert_int_equal(ACLNN_ERR_PARAM_NULLPTR, 161001);
    assert_int_equal(ACLNN_ERR_PARAM_INVALID, 161002);
    assert_int_equal(ACLNN_ERR_RUNTIME_ERROR, 361001);
    assert_int_equal(ACLNN_ERR_INNER, 561000);
    assert_int_equal(ACLNN_ERR_INNER_NULLPTR, 561103);
    assert_int_equal(ACLNN_ERR_INNER_CREATE_EXECUTOR, 561101);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_finalize),
        cmocka_unit_test(test_soc_env),
        cmocka_unit_test_setup_teardown(test_devices, sgt_setup, sgt_teardown),
        cmocka_unit_test_setup_teardown(test_malloc_free, sgt_setup, sgt_teardown),
        cmocka_unit_test_setup_teardown(test_recent_err_msg_read_clears, sgt_setup, sgt_teardown),
        cmocka_unit_test_setup_teardown(test_malloc_needs_init, sgt_setup, sgt_teardown),
        cmocka_unit_test_setup_teardown(test_memset_memcpy, sgt_setup, sgt_teardown),
        cmocka_unit_test_setup_teardown(test_copies_held_to_blocks, sgt_setup, sgt_teardown),
        cmocka_unit_test_setup_teardown(test_memcpy_async, sgt_setup, sgt_teardown),
        cmocka_unit_test_setup_teardown(test_streams, sgt_setup, sgt_teardown),
        cmocka_unit_test(test_mem_info_and_dtype_size),
        cmocka_unit_test(test_enum_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
