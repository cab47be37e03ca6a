/* The small calls of acl_base.h and aclnn_base.h: fp16 conversions with CANN's saturating
   conventions, the application log, aclnnInit / aclnnFinalize. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../kernels/ref/half.h"
#include "acl/acl.h"
#include "acl_error.h"
#include "aclnn/aclnn_base.h"
#include "runtime.h"

float aclFloat16ToFloat(aclFloat16 value) {
    if ((value & 0x7C00u) != 0x7C00u) return sg_half_to_float(value);
    /* the all-ones exponent read as an ordinary one: (1 + m / 1024) * 2^16 */
    float v = (1.0f + (float)(value & 0x3FFu) / 1024.0f) * 65536.0f;
    return (value & 0x8000u) ? -v : v;
}

aclFloat16 aclFloatToFloat16(float value) {
    if (isnan(value)) return 0x7BFF;
    uint16_t h = sg_float_to_half(value); /* nearest even; overflow gives inf */
    if ((h & 0x7C00u) == 0x7C00u) h = (uint16_t)((h & 0x8000u) | 0x7BFFu);
    return h;
}

void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
               const char *fmt, ...) {
    /* ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, 4 none) filters, as in CANN; default: error */
    const char *env = getenv("ASCEND_GLOBAL_LOG_LEVEL");
    int min = env != NULL && env[0] >= '0' && env[0] <= '4' && env[1] == '\0' ? env[0] - '0' : 3;
    if ((int)logLevel < min || fmt == NULL) return;
    static const char *const names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    const char *name = (int)logLevel >= 0 && (int)logLevel <= 3 ? names[logLevel] : "LOG";
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* one call, so lines from several threads do not interleave */
    fprintf(stderr, "[%s] %s:%u %s: %s\n", name, file ? file : "?", (unsigned)line,
            func ? func : "?", msg);
}

aclnnStatus aclnnInit(const char *configPath) {
    if (!sg_config_path_ok(configPath))
        return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "aclnnInit: configPath \"%s\" cannot be opened (expected NULL, \"\" or "
                           "a readable file)",
                           configPath);
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void) {
    return ACLNN_SUCCESS;
}
