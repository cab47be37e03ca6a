/* The dtype list's tables and switches, each expanded from dtypes.inc. */
#include "dtype.h"

#include <stdio.h>
#include <string.h>

const selugrad_dtype sg_dtype_list[SG_DTYPE_COUNT] = {
#define SG_DTYPE(tag, dtype, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases) dtype,
#include "dtypes.inc"
#undef SG_DTYPE
};

/* Switches, not loops: selugrad_dtype_size runs in every call's checks. */
size_t selugrad_dtype_size(selugrad_dtype dtype) {
    switch (dtype) {
#define SG_DTYPE(tag, dt, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases)                         \
    case dt:                                                                                       \
        return size;
#include "dtypes.inc"
#undef SG_DTYPE
    }
    return 0;
}

int sg_dtype_index(selugrad_dtype dtype) {
    switch (dtype) {
#define SG_DTYPE(tag, dt, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases)                         \
    case dt:                                                                                       \
        return SG_DTYPE_INDEX_##tag;
#include "dtypes.inc"
#undef SG_DTYPE
    }
    return -1;
}

/* One row per dtype of the columns the lookups below return (size and index, which every call's
   checks use, keep their switches above). */
typedef struct {
    const char *name, *acl_name;
    int fp;
    int64_t ub_bpe, selu_bpe;
    sg_aclnn_accept aclnn;
} sg_dtype_row;

static const sg_dtype_row sg_dtype_rows[SG_DTYPE_COUNT] = {
#define SG_DTYPE(tag, dt, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases)                         \
    {#tag, #acl, fp, ub_bpe, selu_bpe, aclnn},
#include "dtypes.inc"
#undef SG_DTYPE
};

static const sg_dtype_row *sg_row(selugrad_dtype dtype) {
    int i = sg_dtype_index(dtype);
    return i < 0 ? NULL : &sg_dtype_rows[i];
}

const char *selugrad_dtype_name(selugrad_dtype dtype) {
    const sg_dtype_row *r = sg_row(dtype);
    return r ? r->name : NULL;
}

int sg_dtype_is_float(selugrad_dtype dtype) {
    const sg_dtype_row *r = sg_row(dtype);
    return r ? r->fp : 0;
}

int64_t sg_dtype_ub_bpe(selugrad_dtype dtype) {
    const sg_dtype_row *r = sg_row(dtype);
    return r ? r->ub_bpe : 0;
}

int64_t sg_dtype_selu_bpe(selugrad_dtype dtype) {
    const sg_dtype_row *r = sg_row(dtype);
    return r ? r->selu_bpe : 0;
}

sg_aclnn_accept sg_dtype_aclnn(selugrad_dtype dtype) {
    const sg_dtype_row *r = sg_row(dtype);
    return r ? r->aclnn : SG_ACLNN_NEVER;
}

const char *sg_dtype_acl_name(selugrad_dtype dtype) {
    const sg_dtype_row *r = sg_row(dtype);
    return r ? r->acl_name : NULL;
}

/* Whether name is one of the space-separated words of list. */
static int sg_word_in(const char *name, const char *list) {
    size_t len = strlen(name);
    while (len > 0 && *list != '\0') {
        size_t w = strcspn(list, " ");
        if (w == len && strncmp(list, name, len) == 0) return 1;
        list += w;
        list += strspn(list, " ");
    }
    return 0;
}

int sg_dtype_parse(const char *name, selugrad_dtype *dtype) {
    if (name == NULL) return -1;
    static const struct {
        const char *tag, *aliases;
        selugrad_dtype dtype;
    } names[] = {
#define SG_DTYPE(tag, dt, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases) {#tag, aliases, dt},
#include "dtypes.inc"
#undef SG_DTYPE
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].tag) == 0 || sg_word_in(name, names[i].aliases)) {
            *dtype = names[i].dtype;
            return 0;
        }
    }
    return -1;
}

static const char *const sg_dtype_enum_names[] = {
#define SG_DTYPE(tag, dt, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases) #dt,
#include "dtypes.inc"
#undef SG_DTYPE
};

const char *sg_dtype_enum_name(selugrad_dtype dtype) {
    for (int i = 0; i < SG_DTYPE_COUNT; i++)
        if (sg_dtype_list[i] == dtype) return sg_dtype_enum_names[i];
    return NULL;
}

void sg_dtype_list_text(char *buf, size_t cap, int selu) {
    const char *const *names = sg_dtype_enum_names;
    size_t at = 0;
    if (cap > 0) buf[0] = '\0';
    for (int i = 0; i < SG_DTYPE_COUNT && at < cap; i++) {
        if (selu && sg_dtype_selu_bpe(sg_dtype_list[i]) == 0) continue;
        int w = snprintf(buf + at, cap - at, "%s%s (%d)", at ? ", " : "", names[i],
                         (int)sg_dtype_list[i]);
        if (w < 0) break;
        at += (size_t)w;
    }
}
