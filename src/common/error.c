#include "error.h"

#include <stdarg.h>
#include <stdio.h>

enum { SG_ERR_CAP = 512 };

static _Thread_local char sg_err_msg[SG_ERR_CAP];

selugrad_status sg_fail(selugrad_status status, const char *fmt, ...) {
    int head = snprintf(sg_err_msg, sizeof sg_err_msg, "%s: ", selugrad_status_name(status));
    if (head < 0) head = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sg_err_msg + head, sizeof sg_err_msg - (size_t)head, fmt, ap);
    va_end(ap);
    return status;
}

const char *selugrad_last_error(void) {
    return sg_err_msg;
}

const char *selugrad_status_name(selugrad_status status) {
    switch (status) {
    case SELUGRAD_OK:
        return "SELUGRAD_OK";
    case SELUGRAD_ERR_NULL_POINTER:
        return "SELUGRAD_ERR_NULL_POINTER";
    case SELUGRAD_ERR_BAD_DTYPE:
        return "SELUGRAD_ERR_BAD_DTYPE";
    case SELUGRAD_ERR_OVERLAP:
        return "SELUGRAD_ERR_OVERLAP";
    case SELUGRAD_ERR_BAD_ARGUMENT:
        return "SELUGRAD_ERR_BAD_ARGUMENT";
    case SELUGRAD_ERR_NO_MEMORY:
        return "SELUGRAD_ERR_NO_MEMORY";
    case SELUGRAD_ERR_INTERNAL:
        return "SELUGRAD_ERR_INTERNAL";
    }
    return "unknown status";
}
