/*
 * The canonical aclnn flow (docs/contract.md, "The canonical example"), as a CANN host program
 * would write it: SeluGrad of g = 1 over 8 SELU outputs in a {4, 2} float32 tensor. Exit status 0
 * only if every call succeeds and every element matches.
 */
#include <math.h>
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_selu_backward.h"

#define CHECK_RET(cond, call)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("%s failed: %s\n", call, aclGetRecentErrMsg());                                 \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

enum { N = 8 };

int main(void) {
    const int64_t shape[2] = {4, 2};
    const int64_t strides[2] = {2, 1};
    const float g[N] = {1, 1, 1, 1, 1, 1, 1, 1};
    const float o[N] = {-2, -1, 0, 1, 2, 3, -0.5f, 0.5f};
    const float expect[N] = {-0.241901f, 0.758099f, 1.050701f, 1.050701f,
                             1.050701f,  1.050701f, 1.258099f, 1.050701f};
    float y[N] = {0};
    const size_t bytes = sizeof g;

    CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    aclrtStream stream = NULL;
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

    void *gDev = NULL, *oDev = NULL, *yDev = NULL;
    CHECK_RET(aclrtMalloc(&gDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    CHECK_RET(aclrtMalloc(&oDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    CHECK_RET(aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    CHECK_RET(aclrtMemcpy(gDev, bytes, g, bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
              "aclrtMemcpy");
    CHECK_RET(aclrtMemcpy(oDev, bytes, o, bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
              "aclrtMemcpy");

    aclTensor *gradOutput =
        aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, gDev);
    aclTensor *result =
        aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, oDev);
    aclTensor *gradInput =
        aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, yDev);
    CHECK_RET(gradOutput && result && gradInput, "aclCreateTensor");

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = NULL;
    CHECK_RET(aclnnSeluBackwardGetWorkspaceSize(gradOutput, result, gradInput, &workspaceSize,
                                                &executor) == ACLNN_SUCCESS,
              "aclnnSeluBackwardGetWorkspaceSize");
    void *workspace = NULL;
    if (workspaceSize > 0)
        CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
                  "aclrtMalloc(workspace)");
    CHECK_RET(aclnnSeluBackward(workspace, workspaceSize, executor, stream) == ACLNN_SUCCESS,
              "aclnnSeluBackward");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    CHECK_RET(aclrtMemcpy(y, bytes, yDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "aclrtMemcpy");

    int fails = 0;
    for (int i = 0; i < N; i++) {
        int ok = fabsf(y[i] - expect[i]) < 1e-6f;
        fails += !ok;
        printf("[%d] gradOutput=%g result=%g gradInput=%.6f expected=%.6f %s\n", i, g[i], o[i],
               y[i], expect[i], ok ? "PASS" : "FAIL");
    }
    printf("%d passed, %d failed\n", N - fails, fails);

    CHECK_RET(aclDestroyTensor(gradOutput) == ACLNN_SUCCESS, "aclDestroyTensor");
    CHECK_RET(aclDestroyTensor(result) == ACLNN_SUCCESS, "aclDestroyTensor");
    CHECK_RET(aclDestroyTensor(gradInput) == ACLNN_SUCCESS, "aclDestroyTensor");
    if (workspace) CHECK_RET(aclrtFree(workspace) == ACL_SUCCESS, "aclrtFree");
    CHECK_RET(aclrtFree(gDev) == ACL_SUCCESS, "aclrtFree");
    CHECK_RET(aclrtFree(oDev) == ACL_SUCCESS, "aclrtFree");
    CHECK_RET(aclrtFree(yDev) == ACL_SUCCESS, "aclrtFree");
    CHECK_RET(aclrtDestroyStream(stream) == ACL_SUCCESS, "aclrtDestroyStream");
    CHECK_RET(aclrtResetDevice(0) == ACL_SUCCESS, "aclrtResetDevice");
    CHECK_RET(aclFinalize() == ACL_SUCCESS, "aclFinalize");
    return fails != 0;
}
