/* Per-thread messages of the aclnn API, read back (and cleared) by aclGetRecentErrMsg(). */
#ifndef SELUGRAD_RUNTIME_ACL_ERROR_H
#define SELUGRAD_RUNTIME_ACL_ERROR_H

#include <stdint.h>

/* Formats this thread's message ("<code>: <text>") and returns code, for `return sg_acl_fail(...)`.
 */
int32_t sg_acl_fail(int32_t code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Gives this thread's message the head of another code (its text stays) and returns code: a
   runtime failure passed on as an aclnn status carries one head, the aclnn one. */
int32_t sg_acl_recode(int32_t code);

/* Sets this thread's message verbatim (a message carried over from a stream's worker); the
   newest message, if unread, joins the older ones; nothing changes where the text is one of this
   thread's unread messages already (the work ran inline on this thread and left it here). */
void sg_acl_set_msg(const char *msg);

/* This thread's newest message ("" when none, or once aclGetRecentErrMsg() has read it). */
const char *sg_acl_msg(void);

/* CANN's name of an aclError or aclnnStatus value, e.g. "ACLNN_ERR_PARAM_INVALID". */
const char *sg_acl_code_name(int32_t code);

enum { SG_ACL_MSG_CAP = 512, SG_ACL_OLDER_CAP = 4096 };

#endif /* SELUGRAD_RUNTIME_ACL_ERROR_H */
