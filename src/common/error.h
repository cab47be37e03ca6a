/* Per-thread error messages of the native API (selugrad_last_error), shared by every layer. */
#ifndef SELUGRAD_COMMON_ERROR_H
#define SELUGRAD_COMMON_ERROR_H

#include "selugrad/selugrad.h"

/* Formats the message of this thread's last failure and returns status, for `return sg_fail(...)`.
 */
selugrad_status sg_fail(selugrad_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif /* SELUGRAD_COMMON_ERROR_H */
