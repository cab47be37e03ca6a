/* aclInit / aclFinalize, the device calls and the SoC name. There is one device, the CPU. */
#include <pthread.h>
#include <stdio.h>

#include "acl/acl.h"
#include "acl_error.h"
#include "runtime.h"
#include "stream.h"

static pthread_mutex_t sg_rt_lock = PTHREAD_MUTEX_INITIALIZER;
static bool sg_rt_inited;
static const sg_soc *sg_rt_soc_sel;
static _Thread_local int32_t sg_rt_device = -1; /* this thread's current device; -1: none */
static _Thread_local void *sg_rt_context;       /* its current context; NULL: the default */

enum { SG_DEVICE_COUNT = 1 };

bool sg_rt_initialized(void) {
    pthread_mutex_lock(&sg_rt_lock);
    bool v = sg_rt_inited;
    pthread_mutex_unlock(&sg_rt_lock);
    return v;
}

const sg_soc *sg_rt_soc(void) {
    pthread_mutex_lock(&sg_rt_lock);
    const sg_soc *s = sg_rt_inited ? sg_rt_soc_sel : NULL;
    pthread_mutex_unlock(&sg_rt_lock);
    /* before aclInit (or after aclFinalize): the environment's SoC, NULL when it names none */
    if (s == NULL) s = sg_soc_find(sg_soc_env_name());
    return s;
}

void *sg_rt_context_get(void) {
    return sg_rt_context;
}

void sg_rt_context_set(void *context) {
    sg_rt_context = context;
}

bool sg_config_path_ok(const char *path) {
    if (path == NULL || path[0] == '\0') return true;
    FILE *f = fopen(path, "rb");
    if (f == NULL) return false;
    fclose(f);
    return true;
}

aclError aclInit(const char *configPath) {
    if (!sg_config_path_ok(configPath))
        return sg_acl_fail(ACL_ERROR_INVALID_FILE,
                           "aclInit: configPath \"%s\" cannot be opened (expected NULL, \"\" or "
                           "a readable file)",
                           configPath);
    const char *name = sg_soc_env_name();
    const sg_soc *soc = sg_soc_find(name);
    if (soc == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclInit: SELUGRAD_SOC=\"%s\" is not a known SoC (expected Ascend910, "
                           "Ascend910B, Ascend910_93, Ascend950, Ascend910E or Ascend310P)",
                           name);
    pthread_mutex_lock(&sg_rt_lock);
    bool again = sg_rt_inited;
    if (!again) {
        sg_rt_inited = true;
        sg_rt_soc_sel = soc;
    }
    pthread_mutex_unlock(&sg_rt_lock);
    if (again)
        return sg_acl_fail(ACL_ERROR_REPEAT_INITIALIZE,
                           "aclInit: already initialised (call aclFinalize first)");
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    pthread_mutex_lock(&sg_rt_lock);
    bool was = sg_rt_inited;
    sg_rt_inited = false;
    pthread_mutex_unlock(&sg_rt_lock);
    if (!was)
        return sg_acl_fail(ACL_ERROR_REPEAT_FINALIZE,
                           "aclFinalize: not initialised (aclInit not called, or already "
                           "finalised)");
    sg_stream_reset_default();
    sg_rt_device = -1;
    sg_rt_context = NULL;
    return ACL_SUCCESS;
}

static aclError sg_check_device(const char *fn, int32_t deviceId) {
    if (!sg_rt_initialized())
        return sg_acl_fail(ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called", fn);
    if (deviceId < 0 || deviceId >= SG_DEVICE_COUNT)
        return sg_acl_fail(ACL_ERROR_RT_INVALID_DEVICEID,
                           "%s: deviceId %d is invalid (expected 0..%d: the CPU is the only "
                           "device)",
                           fn, (int)deviceId, SG_DEVICE_COUNT - 1);
    return ACL_SUCCESS;
}

aclError sg_rt_set_device(const char *fn, int32_t deviceId) {
    aclError rc = sg_check_device(fn, deviceId);
    if (rc != ACL_SUCCESS) return rc;
    sg_rt_device = deviceId;
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
    return sg_rt_set_device("aclrtSetDevice", deviceId);
}

aclError aclrtResetDevice(int32_t deviceId) {
    aclError rc = sg_check_device("aclrtResetDevice", deviceId);
    if (rc != ACL_SUCCESS) return rc;
    sg_stream_drain_default();
    if (sg_rt_device == deviceId) {
        sg_rt_device = -1;
        sg_rt_context = NULL;
    }
    return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t *deviceId) {
    if (deviceId == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtGetDevice: deviceId is NULL (expected the address of an int32_t)");
    if (sg_rt_device < 0)
        return sg_acl_fail(ACL_ERROR_RT_CONTEXT_NULL,
                           "aclrtGetDevice: no current device on this thread (call "
                           "aclrtSetDevice first)");
    *deviceId = sg_rt_device;
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
    if (count == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtGetDeviceCount: count is NULL (expected the address of a "
                           "uint32_t)");
    *count = SG_DEVICE_COUNT;
    return ACL_SUCCESS;
}

const char *aclrtGetSocName(void) {
    pthread_mutex_lock(&sg_rt_lock);
    const char *name = sg_rt_inited ? sg_rt_soc_sel->name : NULL;
    pthread_mutex_unlock(&sg_rt_lock);
    if (name == NULL)
        sg_acl_fail(ACL_ERROR_UNINITIALIZE, "aclrtGetSocName: aclInit has not been called");
    return name;
}
