// aclnnSeluBackward in the form of ops-nn's arch35 SeluGrad example: the operator header by its
// plain name ("aclnn_selu_backward.h", found through include/aclnn or include/aclnnop), each
// result beside the value of the formula and PASS or FAIL, and a non-zero exit on any FAIL.
// Built by examples/cann/CMakeLists.txt (CANN's sample form) or ops-nn's g++ line; the output
// is checked in CTest (cann_layout).
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnn_selu_backward.h"

#define CHECK_RET(cond, return_expr)                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            return_expr;                                                                           \
        }                                                                                          \
    } while (0)

#define LOG_PRINT(message, ...)                                                                    \
    do {                                                                                           \
        printf(message, ##__VA_ARGS__);                                                            \
    } while (0)

int64_t GetShapeSize(const std::vector<int64_t> &shape) {
    int64_t size = 1;
    for (auto dim : shape) size *= dim;
    return size;
}

int Init(int32_t deviceId, aclrtStream *stream) {
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret);
              return ret);
    return 0;
}

template <typename T>
int CreateAclTensor(const std::vector<T> &hostData, const std::vector<int64_t> &shape,
                    void **deviceAddr, aclDataType dataType, aclTensor **tensor) {
    auto size = GetShapeSize(shape) * sizeof(T);
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--)
        strides[i] = shape[i + 1] * strides[i + 1];
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0,
                              aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), *deviceAddr);
    return 0;
}

int main() {
    int32_t deviceId = 0;
    aclrtStream stream;
    auto ret = Init(deviceId, &stream);
    CHECK_RET(ret == 0, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

    // SELU's constants, float32
    const float scale = 1.0507009873554804f;
    const float alpha = 1.6732632423543772f;
    const float scaleAlpha = scale * alpha;

    std::vector<int64_t> shape = {4, 2};
    std::vector<float> gradHostData = {1, 1, 1, 1, 1, 1, 1, 1};
    std::vector<float> outHostData = {-2, -1, 0, 1, 2, 3, -0.5, 0.5};
    std::vector<float> yHostData(8, 0);
    void *gradDeviceAddr = nullptr;
    void *outDeviceAddr = nullptr;
    void *yDeviceAddr = nullptr;
    aclTensor *gradients = nullptr;
    aclTensor *outputs = nullptr;
    aclTensor *y = nullptr;
    ret = CreateAclTensor(gradHostData, shape, &gradDeviceAddr, aclDataType::ACL_FLOAT, &gradients);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(outHostData, shape, &outDeviceAddr, aclDataType::ACL_FLOAT, &outputs);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(yHostData, shape, &yDeviceAddr, aclDataType::ACL_FLOAT, &y);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor;
    ret = aclnnSeluBackwardGetWorkspaceSize(gradients, outputs, y, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSeluBackwardGetWorkspaceSize failed. ERROR: %d\n", ret);
              return ret);
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
                  return ret);
    }
    ret = aclnnSeluBackward(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSeluBackward failed. ERROR: %d\n", ret);
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
              return ret);

    auto size = GetShapeSize(shape);
    std::vector<float> resultData(size, 0);
    ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(float), yDeviceAddr,
                      size * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result failed. ERROR: %d\n", ret); return ret);

    LOG_PRINT("SeluGrad, float32 {4, 2}\n");
    LOG_PRINT("outputs >= 0: y = grad * %.6f (scale)\n", scale);
    LOG_PRINT("outputs <  0: y = grad * (outputs + %.6f) (scale * alpha)\n", scaleAlpha);
    int pass = 0, fail = 0;
    for (int64_t i = 0; i < size; i++) {
        // outputs == 0 takes the scale branch: SELU's derivative is scale for x >= 0
        float expected = outHostData[i] < 0 ? gradHostData[i] * (outHostData[i] + scaleAlpha)
                                            : scale * gradHostData[i];
        bool ok = std::fabs(resultData[i] - expected) < 0.01f;
        ok ? pass++ : fail++;
        LOG_PRINT("  [%ld] out=%.2f grad=%.2f => y=%.6f  expected=%.6f  %s\n", (long)i,
                  outHostData[i], gradHostData[i], resultData[i], expected, ok ? "PASS" : "FAIL");
    }
    LOG_PRINT("Total: %d PASS, %d FAIL\n", pass, fail);

    aclDestroyTensor(gradients);
    aclDestroyTensor(outputs);
    aclDestroyTensor(y);
    aclrtFree(gradDeviceAddr);
    aclrtFree(outDeviceAddr);
    aclrtFree(yDeviceAddr);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return fail > 0 ? 1 : 0;
}
