/*
 * Running one case: the only place the command calls the operator. It follows CANN's canonical
 * aclnn flow: aclInit before the first case (the SoC comes from SELUGRAD_SOC; cli_exec_use_soc
 * sets it and starts acl again), one device and stream, then per
 * case aclrtMalloc + copy in, aclCreateTensor with the view's strides, GetWorkspaceSize,
 * aclnnSeluBackward, aclrtSynchronizeStream, copy out. UINT8, which the kernel has but
 * aclnnSeluBackward rejects on every SoC (docs/contract.md, "Phase 1 checks"), runs through the
 * native API instead.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "cli.h"
#include "common/dtype.h"

/* The command runs its cases on one thread: this state is only that thread's. */
static aclrtStream cli_stream;
static int cli_acl_state; /* 0: not started, 1: up, -1: its start failed (cli_acl_msg) */
static char cli_acl_msg[256];

static void cli_acl_stop(void) {
    if (cli_acl_state == 1) {
        aclrtDestroyStream(cli_stream);
        aclrtResetDevice(0);
        aclFinalize();
    }
    cli_acl_state = 0;
}

static int cli_acl_start(void) {
    if (cli_acl_state != 0) return cli_acl_state == 1 ? 0 : -1;
    static int stop_at_exit;
    if (!stop_at_exit) stop_at_exit = atexit(cli_acl_stop) == 0;
    aclError rc = aclInit(NULL);
    int inited = rc == ACL_SUCCESS;
    if (rc == ACL_SUCCESS) rc = aclrtSetDevice(0);
    if (rc == ACL_SUCCESS) rc = aclrtCreateStream(&cli_stream);
    if (rc != ACL_SUCCESS) {
        snprintf(cli_acl_msg, sizeof cli_acl_msg, "acl setup failed (%d): %s", (int)rc,
                 aclGetRecentErrMsg());
        if (inited) aclFinalize();
        cli_acl_state = -1;
        return -1;
    }
    cli_acl_state = 1;
    return 0;
}

int cli_exec_use_soc(const char *soc) {
    cli_acl_stop();
    return setenv("SELUGRAD_SOC", soc, 1);
}

int cli_acl_ready(char *err, size_t errlen) {
    if (cli_acl_start() != 0) return snprintf(err, errlen, "%s", cli_acl_msg), -1;
    return 0;
}

void *cli_acl_stream(void) {
    return cli_stream;
}

const char *cli_exec_api(selugrad_dtype dt) {
    return sg_dtype_aclnn(dt) == SG_ACLNN_NEVER ? "native" : "aclnn";
}

static aclDataType cli_acl_dtype(selugrad_dtype dt) {
    return (aclDataType)(int)dt;
}

/* Native path (UINT8), strided row by row over the last dim. */
static int cli_exec_native(selugrad_dtype dt, size_t rank, const int64_t *dims,
                           const int64_t *strides, const void *g, const void *o, void *y) {
    size_t n = cli_shape_count(rank, dims);
    if (strides == NULL || rank == 0) return (int)selugrad_backward(dt, n, g, o, y);
    if (n == 0) return 0;
    size_t es = selugrad_dtype_size(dt), rows = n / (size_t)dims[rank - 1];
    int64_t idx[CLI_MAX_RANK] = {0};
    for (size_t r = 0; r < rows; r++) {
        int64_t off = 0;
        for (size_t d = 0; d + 1 < rank; d++) off += idx[d] * strides[d];
        size_t b = (size_t)off * es;
        ptrdiff_t s = (ptrdiff_t)strides[rank - 1];
        selugrad_status st =
            selugrad_backward_strided(dt, (size_t)dims[rank - 1], (const char *)g + b, s,
                                      (const char *)o + b, s, (char *)y + b, s);
        if (st != SELUGRAD_OK) return (int)st;
        for (size_t d = rank - 1; d-- > 0;) {
            if (++idx[d] < dims[d]) break;
            idx[d] = 0;
        }
    }
    return 0;
}

/* Storage elements a view reaches (0 for an empty view). */
static size_t cli_span(size_t rank, const int64_t *dims, const int64_t *strides) {
    size_t span = 1;
    for (size_t d = 0; d < rank; d++) {
        if (dims[d] == 0) return 0;
        if (strides) span += (size_t)(dims[d] - 1) * (size_t)strides[d];
    }
    return strides ? span : cli_shape_count(rank, dims);
}

int cli_exec_case(selugrad_dtype dt, size_t rank, const int64_t *dims, const int64_t *strides,
                  const void *g, const void *o, void *y, char *err, size_t errlen) {
    if (sg_dtype_aclnn(dt) == SG_ACLNN_NEVER) {
        int rc = cli_exec_native(dt, rank, dims, strides, g, o, y);
        if (rc != 0)
            snprintf(err, errlen, "%s: %s", selugrad_status_name((selugrad_status)rc),
                     selugrad_last_error());
        return rc;
    }
    if (cli_acl_start() != 0) return snprintf(err, errlen, "%s", cli_acl_msg), -1;
    int64_t st[CLI_MAX_RANK];
    for (size_t d = rank; d-- > 0;) /* row-major strides when none given */
        st[d] = strides ? strides[d] : (d + 1 == rank ? 1 : st[d + 1] * dims[d + 1]);
    size_t span = cli_span(rank, dims, strides), es = selugrad_dtype_size(dt);
    size_t bytes = (span ? span : 1) * es;
    int64_t storage = (int64_t)(span ? span : 1);
    void *dg = NULL, *dout = NULL, *dy = NULL, *ws = NULL;
    aclTensor *tg = NULL, *to = NULL, *ty = NULL;
    aclOpExecutor *ex = NULL;
    uint64_t wsz = 0;
    const char *step = "aclrtMalloc";
    int rc = aclrtMalloc(&dg, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!rc) rc = aclrtMalloc(&dout, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!rc) rc = aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!rc && span) {
        step = "aclrtMemcpy";
        rc = aclrtMemcpy(dg, bytes, g, span * es, ACL_MEMCPY_HOST_TO_DEVICE);
        if (!rc) rc = aclrtMemcpy(dout, bytes, o, span * es, ACL_MEMCPY_HOST_TO_DEVICE);
        if (!rc) rc = aclrtMemcpy(dy, bytes, y, span * es, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    if (!rc) {
        step = "aclCreateTensor";
        aclDataType adt = cli_acl_dtype(dt);
        tg = aclCreateTensor(dims, rank, adt, st, 0, ACL_FORMAT_ND, &storage, 1, dg);
        to = aclCreateTensor(dims, rank, adt, st, 0, ACL_FORMAT_ND, &storage, 1, dout);
        ty = aclCreateTensor(dims, rank, adt, st, 0, ACL_FORMAT_ND, &storage, 1, dy);
        rc = tg && to && ty ? 0 : -1;
    }
    if (!rc) {
        step = "aclnnSeluBackwardGetWorkspaceSize";
        rc = aclnnSeluBackwardGetWorkspaceSize(tg, to, ty, &wsz, &ex);
    }
    if (!rc && wsz > 0) step = "aclrtMalloc(workspace)", rc = aclrtMalloc(&ws, wsz, 0);
    if (!rc) step = "aclnnSeluBackward", rc = aclnnSeluBackward(ws, wsz, ex, cli_stream);
    if (!rc) step = "aclrtSynchronizeStream", rc = aclrtSynchronizeStream(cli_stream);
    if (!rc && span)
        step = "aclrtMemcpy", rc = aclrtMemcpy(y, bytes, dy, span * es, ACL_MEMCPY_DEVICE_TO_HOST);
    if (rc) snprintf(err, errlen, "%s returned %d: %s", step, rc, aclGetRecentErrMsg());
    if (tg) aclDestroyTensor(tg);
    if (to) aclDestroyTensor(to);
    if (ty) aclDestroyTensor(ty);
    if (ws) aclrtFree(ws);
    if (dg) aclrtFree(dg);
    if (dout) aclrtFree(dout);
    if (dy) aclrtFree(dy);
    return rc;
}
