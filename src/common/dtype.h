/*
 * Lookups over the dtype list (dtypes.inc): what each layer asks of an element type. The
 * public selugrad_dtype_size() and selugrad_dtype_name() are defined here too, so that every
 * layer above can call them.
 */
#ifndef SELUGRAD_COMMON_DTYPE_H
#define SELUGRAD_COMMON_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "selugrad/selugrad.h"

/* Where aclnnSeluBackward accepts a dtype (the aclnn column of dtypes.inc). */
typedef enum sg_aclnn_accept {
    SG_ACLNN_NEVER = 0,     /* the kernel has it; the aclnn layer rejects it */
    SG_ACLNN_ALL = 1,       /* on every SoC */
    SG_ACLNN_BF16_SOCS = 2, /* on the SoCs whose profile has bf16 */
} sg_aclnn_accept;

/* How many dtypes the list has, and each in list order. */
enum {
#define SG_DTYPE(tag, dtype, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases) SG_DTYPE_INDEX_##tag,
#include "dtypes.inc"
#undef SG_DTYPE
    SG_DTYPE_COUNT
};
extern const selugrad_dtype sg_dtype_list[SG_DTYPE_COUNT];

/* Position of dtype in the list, or -1 for a value not in it. */
int sg_dtype_index(selugrad_dtype dtype);

/* 1 for a floating-point dtype of the list, 0 for an integer one or a value not in the list. */
int sg_dtype_is_float(selugrad_dtype dtype);

/* UB bytes per element of the OneDim tiling of SeluGrad, and the CPU planner's for the SELU
   forward (common/dtypes.inc); 0 for a value not in the list, and for the forward where it does
   not have the dtype. */
int64_t sg_dtype_ub_bpe(selugrad_dtype dtype);
int64_t sg_dtype_selu_bpe(selugrad_dtype dtype);

/* Where aclnnSeluBackward accepts dtype (SG_ACLNN_NEVER for a value not in the list). */
sg_aclnn_accept sg_dtype_aclnn(selugrad_dtype dtype);

/* The aclDataType name of a dtype in the list ("ACL_FLOAT16"), or NULL. */
const char *sg_dtype_acl_name(selugrad_dtype dtype);

/* "SELUGRAD_FLOAT16 (1), SELUGRAD_FLOAT (0), ..." into buf (cap bytes), for messages: every
   dtype of the list, or (selu != 0) those the SELU forward has. */
void sg_dtype_list_text(char *buf, size_t cap, int selu);
/* The enum's name of a dtype of the list ("SELUGRAD_UINT8"), NULL for another value. */
const char *sg_dtype_enum_name(selugrad_dtype dtype);

/* Parses a dtype's tag or one of its aliases ("f16", "fp16", "half", ...); 0 on success, -1 for
   a name not in the list (*dtype untouched). */
int sg_dtype_parse(const char *name, selugrad_dtype *dtype);

#endif /* SELUGRAD_COMMON_DTYPE_H */
