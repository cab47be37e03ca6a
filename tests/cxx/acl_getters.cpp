// The tensor getters as CANN's C++ users call them: the arrays freed with delete[], unchanged
// from code written for CANN (sanitizer builds check that new[] and delete[] meet). Exits non-zero
// on any difference from the values given to aclCreateTensor.
#include "acl/acl.h"
#include "aclnn/acl_meta.h"

#include <cstdio>
#include <vector>

#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::printf("line %d: %s failed (%s)\n", __LINE__, #cond, aclGetRecentErrMsg());       \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static bool Same(const int64_t *got, uint64_t n, const std::vector<int64_t> &want) {
    if (n != want.size()) return false;
    for (uint64_t i = 0; i < n; i++)
        if (got[i] != want[static_cast<size_t>(i)]) return false;
    return true;
}

int main() {
    std::vector<int64_t> shape = {3, 1, 5}, strides = {10, 99, 2}, storage = {32};
    std::vector<float> data(32, 0.0f);
    aclTensor *t =
        aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT16, strides.data(), 1,
                        aclFormat::ACL_FORMAT_NCL, storage.data(), storage.size(), data.data());
    EXPECT(t != nullptr);

    int64_t *viewDims = nullptr;
    uint64_t viewDimsNum = 0;
    EXPECT(aclGetViewShape(t, &viewDims, &viewDimsNum) == ACLNN_SUCCESS);
    EXPECT(Same(viewDims, viewDimsNum, shape));
    delete[] viewDims;

    int64_t *stridesValue = nullptr;
    uint64_t stridesNum = 0;
    EXPECT(aclGetViewStrides(t, &stridesValue, &stridesNum) == ACLNN_SUCCESS);
    EXPECT(Same(stridesValue, stridesNum, strides));
    delete[] stridesValue;

    int64_t *storageDims = nullptr;
    uint64_t storageDimsNum = 0;
    EXPECT(aclGetStorageShape(t, &storageDims, &storageDimsNum) == ACLNN_SUCCESS);
    EXPECT(Same(storageDims, storageDimsNum, storage));
    delete[] storageDims;

    int64_t offset = -1;
    EXPECT(aclGetViewOffset(t, &offset) == ACLNN_SUCCESS && offset == 1);
    aclFormat format = aclFormat::ACL_FORMAT_UNDEFINED;
    EXPECT(aclGetFormat(t, &format) == ACLNN_SUCCESS && format == aclFormat::ACL_FORMAT_NCL);
    aclDataType dataType = aclDataType::ACL_DT_UNDEFINED;
    EXPECT(aclGetDataType(t, &dataType) == ACLNN_SUCCESS && dataType == aclDataType::ACL_FLOAT16);

    EXPECT(aclGetViewShape(nullptr, &viewDims, &viewDimsNum) == ACLNN_ERR_PARAM_NULLPTR);
    EXPECT(aclGetViewOffset(t, nullptr) == ACLNN_ERR_PARAM_NULLPTR);

    // A rank-0 tensor still gets an array to delete[], like CANN's new int64_t[0].
    float x = 0.0f;
    aclTensor *s = aclCreateTensor(nullptr, 0, aclDataType::ACL_FLOAT, nullptr, 0,
                                   aclFormat::ACL_FORMAT_ND, nullptr, 0, &x);
    EXPECT(s != nullptr);
    EXPECT(aclGetViewShape(s, &viewDims, &viewDimsNum) == ACLNN_SUCCESS);
    EXPECT(viewDims != nullptr && viewDimsNum == 0);
    delete[] viewDims;

    aclDestroyTensor(s);
    aclDestroyTensor(t);
    std::printf("aclTensor getters: OK\n");
    return 0;
}
