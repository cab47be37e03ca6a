/* The operator header by its short name (-I include/aclnnop, as CANN's build lines give it). */
#include "acl/acl.h"
#include "aclnn_selu_backward.h"
int main(void) {
    return aclnnSeluBackward(NULL, 0, NULL, NULL) == ACLNN_ERR_PARAM_NULLPTR ? 0 : 1;
}
