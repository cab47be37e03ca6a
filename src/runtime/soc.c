#include "soc.h"

#include <stdlib.h>
#include <string.h>

#include "../common/dtype.h"

/* Vector cores and UB bytes per chip (docs/soc.md gives where each number comes from). */
static const sg_soc sg_socs[] = {
    {"Ascend910", 32, 262144, false},   {"Ascend910B", 48, 196608, true},
    {"Ascend910_93", 48, 196608, true}, {"Ascend950", 64, 245760, true},
    {"Ascend910E", 48, 196608, true},   {"Ascend310P", 8, 262144, false},
};

const sg_soc *sg_soc_table(int *count) {
    if (count) *count = (int)(sizeof sg_socs / sizeof sg_socs[0]);
    return sg_socs;
}

const sg_soc *sg_soc_find(const char *name) {
    if (name == NULL) return NULL;
    for (size_t i = 0; i < sizeof sg_socs / sizeof sg_socs[0]; i++)
        if (strcmp(sg_socs[i].name, name) == 0) return &sg_socs[i];
    return NULL;
}

const char *sg_soc_env_name(void) {
    const char *env = getenv("SELUGRAD_SOC");
    return env != NULL && env[0] != '\0' ? env : SG_SOC_DEFAULT;
}

bool sg_soc_accepts(const sg_soc *soc, selugrad_dtype dtype) {
    switch (sg_dtype_aclnn(dtype)) {
    case SG_ACLNN_ALL:
        return true;
    case SG_ACLNN_BF16_SOCS:
        return soc->bf16;
    case SG_ACLNN_NEVER:
        return false;
    }
    return false;
}
