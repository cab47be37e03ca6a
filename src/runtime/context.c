/* Contexts (aclrtCreateContext ...): a context names a device; making one current makes its
   device this thread's current device. There is one device, so a context carries nothing else;
   streams and memory belong to the device. */
#include <stdlib.h>

#include "acl/acl.h"
#include "acl_error.h"
#include "registry.h"
#include "runtime.h"

struct sg_context {
    int32_t device;
};

/* The device's default context, what aclrtGetCurrentContext gives after only aclrtSetDevice. */
static struct sg_context sg_default_context = {0};

static bool sg_context_live(const struct sg_context *c) {
    return c == &sg_default_context || sg_reg_has(c, SG_H_CONTEXT);
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
    if (context == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtCreateContext: context is NULL (expected the address of an "
                           "aclrtContext)");
    /* checks aclInit and deviceId, with messages naming this call */
    aclError rc = sg_rt_set_device("aclrtCreateContext", deviceId);
    if (rc != ACL_SUCCESS) return rc;
    struct sg_context *c = malloc(sizeof *c);
    if (c == NULL || !sg_reg_add(c, SG_H_CONTEXT, sizeof *c)) {
        free(c);
        return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateContext: out of memory");
    }
    c->device = deviceId;
    sg_rt_context_set(c);
    *context = c;
    return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
    struct sg_context *c = (struct sg_context *)context;
    if (c == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: context is NULL");
    if (c == &sg_default_context || !sg_reg_remove(c, SG_H_CONTEXT, NULL))
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtDestroyContext: %p is not a context made by aclrtCreateContext "
                           "(unknown, already destroyed, or the device's default context)",
                           context);
    if (sg_rt_context_get() == c) sg_rt_context_set(NULL);
    sg_reg_retire(c, sizeof *c);
    return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
    struct sg_context *c = (struct sg_context *)context;
    if (c == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: context is NULL");
    if (!sg_context_live(c))
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtSetCurrentContext: %p is not a live context", context);
    aclError rc = sg_rt_set_device("aclrtSetCurrentContext", c->device);
    if (rc != ACL_SUCCESS) return rc;
    sg_rt_context_set(c);
    return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
    if (context == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtGetCurrentContext: context is NULL (expected the address of an "
                           "aclrtContext)");
    /* no device (never set, reset, or finalised): no context either */
    int32_t dev;
    if (aclrtGetDevice(&dev) != ACL_SUCCESS) {
        sg_rt_context_set(NULL);
        return sg_acl_fail(ACL_ERROR_RT_CONTEXT_NULL,
                           "aclrtGetCurrentContext: no current context on this thread (call "
                           "aclrtSetDevice or aclrtCreateContext first)");
    }
    /* the current one, unless destroyed meanwhile (on any thread): then the device's default */
    struct sg_context *c = sg_rt_context_get();
    *context = c != NULL && sg_context_live(c) ? (aclrtContext)c : &sg_default_context;
    return ACL_SUCCESS;
}
