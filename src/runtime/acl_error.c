#include "acl_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

static _Thread_local char sg_acl_msg_buf[SG_ACL_MSG_CAP];
static _Thread_local size_t sg_acl_msg_head; /* length of the "NAME(code): " head, 0 if none */

const char *sg_acl_code_name(int32_t code) {
    /* ACL_* are static const ints (as in CANN), not constant expressions: a table, not a switch */
    const struct {
        int code;
        const char *name;
    } names[] = {
        {ACL_SUCCESS, "ACL_SUCCESS"},
        {ACL_ERROR_INVALID_PARAM, "ACL_ERROR_INVALID_PARAM"},
        {ACL_ERROR_UNINITIALIZE, "ACL_ERROR_UNINITIALIZE"},
        {ACL_ERROR_REPEAT_INITIALIZE, "ACL_ERROR_REPEAT_INITIALIZE"},
        {ACL_ERROR_INVALID_FILE, "ACL_ERROR_INVALID_FILE"},
        {ACL_ERROR_REPEAT_FINALIZE, "ACL_ERROR_REPEAT_FINALIZE"},
        {ACL_ERROR_BAD_ALLOC, "ACL_ERROR_BAD_ALLOC"},
        {ACL_ERROR_API_NOT_SUPPORT, "ACL_ERROR_API_NOT_SUPPORT"},
        {ACL_ERROR_INVALID_DEVICE, "ACL_ERROR_INVALID_DEVICE"},
        {ACL_ERROR_INTERNAL_ERROR, "ACL_ERROR_INTERNAL_ERROR"},
        {ACL_ERROR_FAILURE, "ACL_ERROR_FAILURE"},
        {ACL_ERROR_RT_PARAM_INVALID, "ACL_ERROR_RT_PARAM_INVALID"},
        {ACL_ERROR_RT_INVALID_DEVICEID, "ACL_ERROR_RT_INVALID_DEVICEID"},
        {ACL_ERROR_RT_CONTEXT_NULL, "ACL_ERROR_RT_CONTEXT_NULL"},
        {ACLNN_ERR_PARAM_NULLPTR, "ACLNN_ERR_PARAM_NULLPTR"},
        {ACLNN_ERR_PARAM_INVALID, "ACLNN_ERR_PARAM_INVALID"},
        {ACLNN_ERR_RUNTIME_ERROR, "ACLNN_ERR_RUNTIME_ERROR"},
        {ACLNN_ERR_INNER, "ACLNN_ERR_INNER"},
        {ACLNN_ERR_INNER_CREATE_EXECUTOR, "ACLNN_ERR_INNER_CREATE_EXECUTOR"},
        {ACLNN_ERR_INNER_NULLPTR, "ACLNN_ERR_INNER_NULLPTR"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == code) return names[i].name;
    return "unknown code";
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
