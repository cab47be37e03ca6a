/* CANN's acl/acl.h: initialisation, the recent error message, and the runtime (acl_rt.h). */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 0
#define ACL_PATCH_VERSION 0

/* configPath: NULL or "" for none, else a readable file (its content is not interpreted). */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/* Returns and clears this thread's failure messages (call, argument, expected, given), as CANN's
   runtime does: one line per failure not read yet, the newest first; "" when none. Never NULL;
   the text stays valid until this thread's next call of it. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
