/*
 * libFuzzer target for the aclnn path: random view descriptors (rank 0..9, dims 0..4, strides
 * 0..5, offsets, storage sizes) for gradOutput, result and gradInput over one arena, so that the
 * views may alias, interleave or overlap. aclCreateTensor may refuse a descriptor; phase 1 may
 * refuse a call; neither may crash. An accepted call must give, at every gradInput element, the
 * golden model's value for the inputs as they were before the call (out-of-place semantics), and
 * must leave every other byte of the arena unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "model/golden.h"

enum { ARENA = 2048, MAXR = 9 };

typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

static unsigned fz_u8(fz_in *r) {
    if (r->n == 0) return 0;
    r->n--;
    return *r->p++;
}

typedef struct fz_view {
    uint64_t rank;
    int64_t dims[MAXR], strides[MAXR], offset, storage;
    size_t base; /* byte offset of the storage in the arena */
} fz_view;

/* A descriptor from the input; its storage is placed in the arena where it fits. */
static int fz_view_make(fz_in *r, fz_view *v, const uint64_t rank, const int64_t *dims, size_t es) {
    v->rank = rank;
    int64_t reach = 0;
    for (uint64_t i = 0; i < rank; i++) {
        v->dims[i] = dims[i];
        v->strides[i] = (int64_t)(fz_u8(r) % 6);
        reach += (dims[i] > 0 ? dims[i] - 1 : 0) * v->strides[i];
    }
    v->offset = (int64_t)(fz_u8(r) % 8);
    v->storage = v->offset + reach + 1 + (int64_t)(fz_u8(r) % 3) - 1; /* sometimes 1 too small */
    if (v->storage < 1) v->storage = 1;
    size_t bytes = (size_t)v->storage * es;
    if (bytes > ARENA) return -1;
    /* any byte address, as the API takes (docs/aclnn.md, "Views and the workspace") */
    v->base = ((size_t)fz_u8(r) * 8u + (size_t)fz_u8(r) % 8u) % (ARENA - bytes + 1);
    return 0;
}

/* Element offset (in elements from the storage start) of multi-index idx in view v. */
static int64_t fz_at(const fz_view *v, const int64_t *idx) {
    int64_t at = v->offset;
    for (uint64_t i = 0; i < v->rank; i++) at += idx[i] * v->strides[i];
    return at;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned char arena[ARENA], before[ARENA], expect[ARENA];
    static int inited;
    if (!inited) {
        if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) abort();
        inited = 1;
    }
    static const aclDataType dts[8] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_INT8,
                                       ACL_INT32, ACL_UINT8,   ACL_DOUBLE, ACL_INT16};
    fz_in r = {data, size};
    aclDataType dt = dts[fz_u8(&r) % 8];
    size_t es = dt == ACL_DOUBLE                     ? 8
                : dt == ACL_FLOAT || dt == ACL_INT32 ? 4
                : dt == ACL_INT8 || dt == ACL_UINT8  ? 1
                                                     : 2;
    uint64_t rank = fz_u8(&r) % (MAXR + 1);
    int64_t dims[MAXR];
    for (uint64_t i = 0; i < rank; i++) dims[i] = (int64_t)(fz_u8(&r) % 5);
    fz_view v[3];
    for (int t = 0; t < 3; t++)
        if (fz_view_make(&r, &v[t], rank, dims, es) != 0) return 0;
    unsigned alias = fz_u8(&r) % 4; /* 1: y is g's view, 2: y is o's view */
    if (alias == 1) v[2] = v[0];
    if (alias == 2) v[2] = v[1];
    for (size_t i = 0; i < ARENA; i++) arena[i] = (unsigned char)fz_u8(&r);
    memcpy(before, arena, ARENA);

    aclTensor *t[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++)
        t[k] = aclCreateTensor(v[k].dims, v[k].rank, dt, v[k].strides, v[k].offset, ACL_FORMAT_ND,
                               &v[k].storage, 1, arena + v[k].base);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int rc = aclnnSeluBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &ex);
    if (rc == ACLNN_SUCCESS) {
        void *w = ws ? malloc(ws) : NULL;
        if (ws && !w) abort();
        if (aclnnSeluBackward(w, ws, ex, NULL) != ACLNN_SUCCESS) abort();
        if (aclrtSynchronizeStream(NULL) != ACL_SUCCESS) abort();
        free(w);
        memcpy(expect, before, ARENA);
        int64_t n = 1;
        for (uint64_t i = 0; i < rank; i++) n *= dims[i];
        int64_t idx[MAXR] = {0};
        for (int64_t e = 0; e < n; e++) {
            /* UINT8 and unknown dtypes must have been refused by phase 1 */
            if (dt == ACL_UINT8 ||
                !gm_selugrad_element((int)dt, before + v[0].base + (size_t)fz_at(&v[0], idx) * es,
                                     before + v[1].base + (size_t)fz_at(&v[1], idx) * es,
                                     expect + v[2].base + (size_t)fz_at(&v[2], idx) * es))
                abort();
            for (uint64_t i = rank; i-- > 0;) {
                if (++idx[i] < dims[i]) break;
                idx[i] = 0;
            }
        }
        if (memcmp(arena, expect, ARENA) != 0) abort();
    } else {
        if (memcmp(arena, before, ARENA) != 0) abort();
        const char *m = aclGetRecentErrMsg();
        if (m == NULL || m[0] == '\0') abort();
    }
    for (int k = 0; k < 3; k++)
        if (t[k]) aclDestroyTensor(t[k]);
    return 0;
}
