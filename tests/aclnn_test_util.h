/* Shared helpers of the aclnn tests: message checks and a per-test runtime. */
#ifndef SELUGRAD_TESTS_ACLNN_TEST_UTIL_H
#define SELUGRAD_TESTS_ACLNN_TEST_UTIL_H

#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200112L
#error "define _POSIX_C_SOURCE 200809L before any include (setenv)"
#endif

#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "model/golden.h"
#include "selugrad/selugrad.h"

/* The message of the last failure names the call and contains both fragments (e.g. an argument
   name). It reads the message once: aclGetRecentErrMsg() clears what it returns. */
#define assert_msg_has2(call, fragment, fragment2)                                                 \
    do {                                                                                           \
        const char *m_ = aclGetRecentErrMsg();                                                     \
        assert_non_null(m_);                                                                       \
        if (strstr(m_, call) == NULL || strstr(m_, fragment) == NULL ||                            \
            strstr(m_, fragment2) == NULL) {                                                       \
            print_error("message \"%s\" lacks \"%s\", \"%s\" or \"%s\"\n", m_, call, fragment,     \
                        fragment2);                                                                \
            fail();                                                                                \
        }                                                                                          \
    } while (0)

/* The message of the last failure names the call and contains the fragment. */
#define assert_msg_has(call, fragment) assert_msg_has2(call, fragment, "")

/* Runs aclInit with SELUGRAD_SOC set to soc (NULL: unset). */
static inline int sgt_init_soc(const char *soc) {
    if (soc)
        setenv("SELUGRAD_SOC", soc, 1);
    else
        unsetenv("SELUGRAD_SOC");
    int rc = aclInit(NULL);
    if (rc == ACL_SUCCESS) rc = aclrtSetDevice(0);
    return rc;
}

/* Ends the runtime of the test before (device, aclInit) and starts it again with soc. */
static inline int sgt_restart_soc(const char *soc) {
    aclrtResetDevice(0);
    aclFinalize();
    return sgt_init_soc(soc);
}

static inline int sgt_setup(void **state) {
    (void)state;
    return sgt_init_soc(NULL) == ACL_SUCCESS ? 0 : -1;
}

static inline int sgt_teardown(void **state) {
    (void)state;
    aclrtResetDevice(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

/* A row-major tensor of the given shape over data. */
static inline aclTensor *sgt_tensor(aclDataType dt, const int64_t *dims, uint64_t rank,
                                    void *data) {
    int64_t strides[16];
    int64_t run = 1;
    for (uint64_t i = rank; i-- > 0;) {
        strides[i] = run;
        run *= dims[i];
    }
    return aclCreateTensor(dims, rank, dt, strides, 0, ACL_FORMAT_ND, dims, rank, data);
}

/* An aclnn operator's phase 2 (aclnnSeluBackward, aclnnSelu, aclnnInplaceSelu). */
typedef aclnnStatus (*sgt_phase2)(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                  aclrtStream stream);

/* The rest of a call whose phase 1 returned rc with ws and ex: phase 2 with a workspace of ws
   bytes, then a sync of stream s; returns the first failure. */
static inline int sgt_finish(int rc, uint64_t ws, aclOpExecutor *ex, sgt_phase2 run,
                             aclrtStream s) {
    if (rc != ACLNN_SUCCESS) return rc;
    void *w = ws ? malloc(ws) : NULL;
    rc = run(w, ws, ex, s);
    if (rc == ACLNN_SUCCESS) rc = aclrtSynchronizeStream(s);
    free(w);
    return rc;
}

/* The float32 SeluGrad of the golden model (tests/model). */
static inline float sgt_ref_f32(float g, float o) {
    float y;
    gm_selugrad_element(SELUGRAD_FLOAT, &g, &o, &y);
    return y;
}

static inline int sgt_same_f32(float a, float b) {
    return memcmp(&a, &b, 4) == 0 || (a != a && b != b);
}

#endif /* SELUGRAD_TESTS_ACLNN_TEST_UTIL_H */
