/* CANN's aclnn/aclnn_base.h: the meta types (acl_meta.h) and aclnnInit/aclnnFinalize. */
#ifndef OP_API_INC_ACLNN_BASE_H_
#define OP_API_INC_ACLNN_BASE_H_

#include "acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The aclnn layer needs no set-up here: both succeed, any number of times; aclnnInit refuses a
   configPath that cannot be opened (161002; NULL or "" is none). */
ACLNN_API aclnnStatus aclnnInit(const char *configPath);
ACLNN_API aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_ACLNN_BASE_H_ */
