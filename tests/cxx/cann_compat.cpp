// CANN host-code idioms that must compile and run unchanged (C++): ACLNN_* status macros that the
// program defines itself before and after the includes (as CANN's samples do), ACL_* codes used
// as CANN's `static const int` (auto, std::max, switch), the older sample template with
// aclrtCreateContext / aclrtSetCurrentContext, aclFloatToFloat16 / aclFloat16ToFloat for printing
// fp16 results, aclnnInit, and aclDestroyTensor(nullptr).
// clang-format off
#define ACLNN_SUCCESS  0  // before the include, with another spacing: the same definition
// clang-format on
#include <algorithm>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_selu_backward.h"

#define ACLNN_ERR_PARAM_NULLPTR 161001 // after it, unguarded (ops-math's aclnnRange sample)

#define CHECK_RET(cond, return_expr)                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            return_expr;                                                                           \
        }                                                                                          \
    } while (0)

static int Init(int32_t deviceId, aclrtContext *context, aclrtStream *stream) {
    auto ret = ACL_SUCCESS; // an int, as in CANN: the calls' aclError results assign to it
    ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = aclrtCreateContext(context, deviceId);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = aclrtSetCurrentContext(*context);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    return std::max(ret, ACL_SUCCESS);
}

int main() {
    aclrtContext context = nullptr;
    aclrtStream stream = nullptr;
    int ret = Init(0, &context, &stream);
    switch (ret) { // constant expressions in C++
    case ACL_SUCCESS:
        break;
    case ACL_ERROR_INVALID_PARAM:
    default:
        std::printf("Init failed: %d\n", ret);
        return 1;
    }
    CHECK_RET(aclnnInit(nullptr) == ACLNN_SUCCESS, return 2);
    // float16 through the aclFloat16 helpers, as CANN's fp16 samples fill and print data
    std::vector<int64_t> shape = {2, 2};
    std::vector<aclFloat16> g(4), o(4), y(4);
    const float ov[4] = {-2.0f, -1.0f, 0.0f, 1.0f};
    for (int i = 0; i < 4; i++) {
        g[i] = aclFloatToFloat16(1.0f);
        o[i] = aclFloatToFloat16(ov[i]);
    }
    std::vector<int64_t> strides = {2, 1};
    aclTensor *tg = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT16, strides.data(), 0,
                                    ACL_FORMAT_ND, shape.data(), shape.size(), g.data());
    aclTensor *to = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT16, strides.data(), 0,
                                    ACL_FORMAT_ND, shape.data(), shape.size(), o.data());
    aclTensor *ty = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT16, strides.data(), 0,
                                    ACL_FORMAT_ND, shape.data(), shape.size(), y.data());
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    aclnnStatus st = ACLNN_SUCCESS;
    st = aclnnSeluBackwardGetWorkspaceSize(tg, to, ty, &ws, &ex);
    CHECK_RET(st == ACLNN_SUCCESS, return 3);
    st = aclnnSeluBackward(nullptr, ws, ex, stream);
    CHECK_RET(st == ACLNN_SUCCESS, return 4);
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, return 5);
    // docs/contract.md, "Reference values": fp16, g = 1, o = -2, -1, 0, 1 -> -0.2421875,
    // 0.7578125, 1.05078125 x2
    const float want[4] = {-0.2421875f, 0.7578125f, 1.05078125f, 1.05078125f};
    for (int i = 0; i < 4; i++) {
        float got = aclFloat16ToFloat(y[i]);
        std::printf("result[%d] is: %f\n", i, static_cast<double>(got));
        CHECK_RET(got == want[i], return 6);
    }
    CHECK_RET(aclnnSeluBackward(nullptr, ws, nullptr, stream) == ACLNN_ERR_PARAM_NULLPTR, return 7);
    aclDestroyTensor(tg);
    aclDestroyTensor(to);
    aclDestroyTensor(ty);
    CHECK_RET(aclDestroyTensor(nullptr) == ACLNN_SUCCESS, return 8);
    CHECK_RET(aclnnFinalize() == ACLNN_SUCCESS, return 9);
    aclrtDestroyStream(stream);
    aclrtDestroyContext(context);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("cann_compat: OK\n");
    return 0;
}
