/* The same idioms in C: ACLNN_* defined by the program before the includes (the same
   definitions), the ACL_* codes as CANN's static const ints (no warning for the unused ones
   under -Wall -Wextra -Wpedantic), aclFloat16 helpers, the context calls. */
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_selu_backward.h"

int main(void) {
    aclrtContext ctx = NULL;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateContext(&ctx, 0) != ACL_SUCCESS)
        return 1;
    if (aclnnSeluBackward(NULL, 0, NULL, NULL) != ACLNN_ERR_PARAM_NULLPTR) return 2;
    if (aclFloat16ToFloat(aclFloatToFloat16(0.5f)) != 0.5f) return 3;
    if (aclrtDestroyContext(ctx) != ACL_SUCCESS) return 4;
    aclrtResetDevice(0);
    aclFinalize();
    printf("cann_compat_c: OK\n");
    return 0;
}
