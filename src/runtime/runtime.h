/* Process state of the aclnn runtime: initialisation and the SoC it selected. */
#ifndef SELUGRAD_RUNTIME_RUNTIME_H
#define SELUGRAD_RUNTIME_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl.h"

#include "soc.h"

/* Whether aclInit succeeded and aclFinalize has not run since. */
bool sg_rt_initialized(void);

/* The SoC selected at aclInit; before aclInit (or after aclFinalize), the one SELUGRAD_SOC names
   (Ascend910B when unset), or NULL when it names no known SoC. */
const sg_soc *sg_rt_soc(void);

/* Whether a config path is none (NULL or "") or a file that can be opened (aclInit, aclnnInit:
   the content is not read). */
bool sg_config_path_ok(const char *path);

/* aclrtSetDevice for the call fn (named in the messages): checks aclInit (100001) and deviceId
   (107001), then makes deviceId this thread's current device. */
aclError sg_rt_set_device(const char *fn, int32_t deviceId);

/* This thread's current context as aclrtSetCurrentContext / aclrtCreateContext made it (NULL:
   none, or the device's default). It lives with this thread's current device, which init.c
   keeps: resetting the device or aclFinalize drops both. */
void *sg_rt_context_get(void);
void sg_rt_context_set(void *context);

#endif /* SELUGRAD_RUNTIME_RUNTIME_H */
