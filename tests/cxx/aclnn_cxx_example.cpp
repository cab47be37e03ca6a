// The canonical aclnn example (docs/contract.md, "The canonical example") as CANN's own C++
// samples write it: every public header, scoped enum names (aclDataType::ACL_FLOAT), nullptr,
// std::vector. Built and run by CTest, and compiled again against the installed headers with
// pkg-config flags.
#include "acl/acl.h"
#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnn_selu_backward.h"
#include "aclnnop/aclnn_selu_backward.h"

#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK_RET(cond, expr)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::printf("%s failed: %s\n", #expr, aclGetRecentErrMsg());                           \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static int64_t GetShapeSize(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

template <typename T>
static int CreateAclTensor(const std::vector<T> &hostData, const std::vector<int64_t> &shape,
                           void **deviceAddr, aclDataType dataType, aclTensor **tensor) {
    auto size = GetShapeSize(shape) * static_cast<int64_t>(sizeof(T));
    auto ret = aclrtMalloc(deviceAddr, static_cast<size_t>(size), ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, aclrtMalloc);
    ret = aclrtMemcpy(*deviceAddr, static_cast<size_t>(size), hostData.data(),
                      static_cast<size_t>(size), ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, aclrtMemcpy);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--)
        strides[static_cast<size_t>(i)] =
            shape[static_cast<size_t>(i + 1)] * strides[static_cast<size_t>(i + 1)];
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0,
                              aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), *deviceAddr);
    return *tensor == nullptr;
}

int main() {
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, aclInit);
    CHECK_RET(aclrtSetDevice(deviceId) == ACL_SUCCESS, aclrtSetDevice);
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, aclrtCreateStream);

    std::vector<int64_t> shape = {4, 2};
    std::vector<float> gradOutputHost(8, 1.0f);
    std::vector<float> resultHost = {-2, -1, 0, 1, 2, 3, -0.5f, 0.5f};
    std::vector<float> gradInputHost(8, 0.0f);
    const float expect[8] = {-0.241901f, 0.758099f, 1.050701f, 1.050701f,
                             1.050701f,  1.050701f, 1.258099f, 1.050701f};
    void *gradOutputDev = nullptr, *resultDev = nullptr, *gradInputDev = nullptr;
    aclTensor *gradOutput = nullptr, *result = nullptr, *gradInput = nullptr;
    CHECK_RET(CreateAclTensor(gradOutputHost, shape, &gradOutputDev, aclDataType::ACL_FLOAT,
                              &gradOutput) == 0,
              CreateAclTensor);
    CHECK_RET(CreateAclTensor(resultHost, shape, &resultDev, aclDataType::ACL_FLOAT, &result) == 0,
              CreateAclTensor);
    CHECK_RET(CreateAclTensor(gradInputHost, shape, &gradInputDev, aclDataType::ACL_FLOAT,
                              &gradInput) == 0,
              CreateAclTensor);

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    auto ret =
        aclnnSeluBackwardGetWorkspaceSize(gradOutput, result, gradInput, &workspaceSize, &executor);
    CHECK_RET(ret == ACLNN_SUCCESS, aclnnSeluBackwardGetWorkspaceSize);
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, aclrtMalloc);
    }
    ret = aclnnSeluBackward(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACLNN_SUCCESS, aclnnSeluBackward);
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, aclrtSynchronizeStream);

    std::vector<float> out(8, 0.0f);
    ret = aclrtMemcpy(out.data(), out.size() * sizeof(float), gradInputDev,
                      out.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, aclrtMemcpy);
    int fails = 0;
    for (size_t i = 0; i < out.size(); i++) {
        bool ok = std::fabs(out[i] - expect[i]) < 1e-6f;
        fails += !ok;
        std::printf("result[%zu] is: %f %s\n", i, static_cast<double>(out[i]),
                    ok ? "PASS" : "FAIL");
    }

    aclDestroyTensor(gradOutput);
    aclDestroyTensor(result);
    aclDestroyTensor(gradInput);
    aclrtFree(gradOutputDev);
    aclrtFree(resultDev);
    aclrtFree(gradInputDev);
    if (workspaceSize > 0) aclrtFree(workspaceAddr);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return fails != 0;
}
