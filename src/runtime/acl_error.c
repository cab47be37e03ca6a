#include "acl_error.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

/* Per thread, as CANN keeps them by default (err_msg_mode thread): the newest failure's message
   (sg_acl_msg_buf: sg_acl_recode rewrites its head, a stream's worker hands it on), the older ones
   not read yet (sg_acl_older, newest first, one per line; the oldest give way when it is full),
   and the text the last aclGetRecentErrMsg() returned, which stays valid until the next read. */
static _Thread_local char sg_acl_msg_buf[SG_ACL_MSG_CAP];
static _Thread_local size_t sg_acl_msg_head; /* length of the "NAME(code): " head, 0 if none */
static _Thread_local char sg_acl_older[SG_ACL_OLDER_CAP];
static _Thread_local char sg_acl_read[SG_ACL_MSG_CAP + SG_ACL_OLDER_CAP];

/* A new failure arrives: the newest message so far, if unread, joins the older ones. */
static void sg_acl_push_newest(void) {
    if (sg_acl_msg_buf[0] == '\0') return;
    size_t a = strlen(sg_acl_msg_buf), b = strlen(sg_acl_older);
    size_t keep = b;
    if (a + 1 + keep >= sizeof sg_acl_older) { /* drop the oldest lines that no longer fit */
        keep = sizeof sg_acl_older - a - 2;
        while (keep > 0 && sg_acl_older[keep] != '\n') keep--;
    }
    memmove(sg_acl_older + a + 1, sg_acl_older, keep);
    sg_acl_older[a + 1 + keep] = '\0';
    if (keep == 0)
        sg_acl_older[a] = '\0';
    else
        sg_acl_older[a] = '\n';
    memcpy(sg_acl_older, sg_acl_msg_buf, a);
}

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
    sg_acl_push_newest();
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
    sg_acl_msg_buf[0] = '\0'; /* the same failure under its new head, not a second one */
    return sg_acl_fail(code, "%s", body);
}

/* Whether msg is one of this thread's unread messages: the newest or a line of the older ones. */
static bool sg_acl_unread_has(const char *msg) {
    if (strcmp(msg, sg_acl_msg_buf) == 0) return true;
    size_t len = strlen(msg);
    for (const char *line = sg_acl_older; *line != '\0';) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        if (n == len && memcmp(line, msg, len) == 0) return true;
        if (nl == NULL) break;
        line = nl + 1;
    }
    return false;
}

void sg_acl_set_msg(const char *msg) {
    /* a stream's work that ran inline on this thread left this very message here already, still
       unread, perhaps under a later failure's: the same failure handed on, not a second one */
    if (msg != NULL && sg_acl_unread_has(msg)) return;
    sg_acl_push_newest();
    snprintf(sg_acl_msg_buf, sizeof sg_acl_msg_buf, "%s", msg ? msg : "");
    sg_acl_msg_head = 0;
}

const char *sg_acl_msg(void) {
    return sg_acl_msg_buf;
}

const char *aclGetRecentErrMsg(void) {
    if (sg_acl_older[0] != '\0')
        snprintf(sg_acl_read, sizeof sg_acl_read, "%s\n%s", sg_acl_msg_buf, sg_acl_older);
    else
        snprintf(sg_acl_read, sizeof sg_acl_read, "%s", sg_acl_msg_buf);
    sg_acl_msg_buf[0] = '\0';
    sg_acl_msg_head = 0;
    sg_acl_older[0] = '\0';
    return sg_acl_read;
}
