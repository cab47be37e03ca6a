#include "acl_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

static _Thread_local char sg_acl_msg_buf[SG_ACL_MSG_CAP];
static _Thread_local size_t sg_acl_msg_head; /* length of the "NAME(code): " head, 0 if none */

const char *sg_acl_code_name(int32_t code) {
    switch (code) {
    case ACL_SUCCESS:
        return "ACL_SUCCESS";
    case ACL_ERROR_INVALID_PARAM:
        return "ACL_ERROR_INVALID_PARAM";
    case ACL_ERROR_UNINITIALIZE:
        return "ACL_ERROR_UNINITIALIZE";
    case ACL_ERROR_REPEAT_INITIALIZE:
        return "ACL_ERROR_REPEAT_INITIALIZE";
    case ACL_ERROR_INVALID_FILE:
        return "ACL_ERROR_INVALID_FILE";
    case ACL_ERROR_REPEAT_FINALIZE:
        return "ACL_ERROR_REPEAT_FINALIZE";
    case ACL_ERROR_BAD_ALLOC:
        return "ACL_ERROR_BAD_ALLOC";
    case ACL_ERROR_API_NOT_SUPPORT:
        return "ACL_ERROR_API_NOT_SUPPORT";
    case ACL_ERROR_INVALID_DEVICE:
        return "ACL_ERROR_INVALID_DEVICE";
    case ACL_ERROR_INTERNAL_ERROR:
        return "ACL_ERROR_INTERNAL_ERROR";
    case ACL_ERROR_FAILURE:
        return "ACL_ERROR_FAILURE";
    case ACL_ERROR_RT_PARAM_INVALID:
        return "ACL_ERROR_RT_PARAM_INVALID";
    case ACL_ERROR_RT_INVALID_DEVICEID:
        return "ACL_ERROR_RT_INVALID_DEVICEID";
    case ACL_ERROR_RT_CONTEXT_NULL:
        return "ACL_ERROR_RT_CONTEXT_NULL";
    case ACLNN_ERR_PARAM_NULLPTR:
        return "ACLNN_ERR_PARAM_NULLPTR";
    case ACLNN_ERR_PARAM_INVALID:
        return "ACLNN_ERR_PARAM_INVALID";
    case ACLNN_ERR_RUNTIME_ERROR:
        return "ACLNN_ERR_RUNTIME_ERROR";
    case ACLNN_ERR_INNER:
        return "ACLNN_ERR_INNER";
    case ACLNN_ERR_INNER_CREATE_EXECUTOR:
        return "ACLNN_ERR_INNER_CREATE_EXECUTOR";
    case ACLNN_ERR_INNER_NULLPTR:
        return "ACLNN_ERR_INNER_NULLPTR";
    default:
        return "unknown code";
    }
}

int32_t sg_acl_fail(int32_t code, const char *fmt, ...) {
    int head = snprintf(sg_acl_msg_buf, sizeof sg_acl_msg_buf, "%s(%d): ", sg_acl_code_name(code),
                        (int)code);
    if (head < 0) head = 0;
    if ((size_t)head >= sizeof sg_acl_msg_buf) head = (int)sizeof sg_acl_msg_buf - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sg_acl_msg_buf + head, sizeof sg_acl_msg_buf - (size_t)head, fmt, ap);
    va_end(ap);
    sg_acl_msg_head = (size_t)head;
    return code;
}

int32_t sg_acl_recode(int32_t code) {
    char body[SG_ACL_MSG_CAP];
    memcpy(body, sg_acl_msg_buf + sg_acl_msg_head, sizeof body - sg_acl_msg_head);
    return sg_acl_fail(code, "%s", body);
}

void sg_acl_set_msg(const char *msg) {
    snprintf(sg_acl_msg_buf, sizeof sg_acl_msg_buf, "%s", msg ? msg : "");
    sg_acl_msg_head = 0;
}

const char *sg_acl_msg(void) {
    return sg_acl_msg_buf;
}

const char *aclGetRecentErrMsg(void) {
    return sg_acl_msg_buf;
}
