/* CANN's aclnn/aclnn_base.h: here simply the meta types (some CANN sources include this name). */
#ifndef OP_API_INC_ACLNN_BASE_H_
#define OP_API_INC_ACLNN_BASE_H_

#include "acl_meta.h"

#endif /* OP_API_INC_ACLNN_BASE_H_ */
