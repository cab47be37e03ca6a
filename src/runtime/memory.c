/* Device and host memory: aligned blocks in a registry, so a bad free is an error, not a crash. */
#define _DEFAULT_SOURCE /* madvise, posix_memalign */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl_error.h"
#include "registry.h"
#include "runtime.h"
#include "stream.h"

enum { SG_ALIGN = 64 };
#define SG_HUGE_PAGE ((size_t)2 << 20)

static void *sg_alloc(size_t size, size_t align) {
    void *p = NULL;
    if (size > SIZE_MAX - align) return NULL;
    size_t rounded = (size + align - 1) / align * align;
    if (posix_memalign(&p, align, rounded) != 0) return NULL;
    return p;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    if (devPtr == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtMalloc: devPtr is NULL (expected the address of a pointer)");
    if (size == 0)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size is 0 (expected > 0)");
    /* a base policy 0..7, with any of the three flags or-ed in (memory type, read-only access:
       one kind of memory here, so they change nothing) */
    const unsigned flags = ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                           ACL_MEM_ACCESS_USER_SPACE_READONLY;
    unsigned base = (unsigned)policy & ~flags;
    if ((int)policy < 0 || base > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtMalloc: policy %d is unknown (expected 0..7, e.g. "
                           "ACL_MEM_MALLOC_HUGE_FIRST 0, optionally or-ed with "
                           "ACL_MEM_TYPE_LOW_BAND_WIDTH, ACL_MEM_TYPE_HIGH_BAND_WIDTH or "
                           "ACL_MEM_ACCESS_USER_SPACE_READONLY)",
                           (int)policy);
    if (!sg_rt_initialized())
        return sg_acl_fail(ACL_ERROR_UNINITIALIZE, "aclrtMalloc: aclInit has not been called");
    /* the 1G policies get the same transparent huge pages (2 MiB) as the others */
    bool huge_only = base == ACL_MEM_MALLOC_HUGE_ONLY || base == ACL_MEM_MALLOC_HUGE_ONLY_P2P ||
                     base == ACL_MEM_MALLOC_HUGE1G_ONLY || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
    bool huge =
        huge_only || base == ACL_MEM_MALLOC_HUGE_FIRST || base == ACL_MEM_MALLOC_HUGE_FIRST_P2P;
    /* Huge pages only pay off for blocks of at least one huge page. */
    bool big = size >= SG_HUGE_PAGE;
    void *p = sg_alloc(size, huge && big ? SG_HUGE_PAGE : SG_ALIGN);
    if (p == NULL)
        return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: cannot allocate %zu bytes", size);
    if (huge && big) {
        size_t len = (size + SG_HUGE_PAGE - 1) / SG_HUGE_PAGE * SG_HUGE_PAGE;
        int rc = madvise(p, len, MADV_HUGEPAGE);
        if (rc != 0 && huge_only) {
            free(p);
            return sg_acl_fail(ACL_ERROR_BAD_ALLOC,
                               "aclrtMalloc: ACL_MEM_MALLOC_HUGE_ONLY but the kernel refused "
                               "transparent huge pages for %zu bytes",
                               size);
        }
    }
    if (!sg_reg_add(p, SG_H_DEVICE_MEM, size)) {
        free(p);
        return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: out of memory");
    }
    *devPtr = p;
    return ACL_SUCCESS;
}

aclError aclrtFree(void *devPtr) {
    if (devPtr == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtFree: devPtr is NULL (expected a pointer from aclrtMalloc)");
    if (!sg_reg_remove(devPtr, SG_H_DEVICE_MEM, NULL))
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtFree: %p is not a live block from aclrtMalloc (unknown or "
                           "already freed)",
                           devPtr);
    free(devPtr);
    return ACL_SUCCESS;
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
    if (hostPtr == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtMallocHost: hostPtr is NULL (expected the address of a pointer)");
    if (size == 0)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size is 0 (expected > 0)");
    if (!sg_rt_initialized())
        return sg_acl_fail(ACL_ERROR_UNINITIALIZE, "aclrtMallocHost: aclInit has not been called");
    void *p = sg_alloc(size, SG_ALIGN);
    if (p == NULL)
        return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: cannot allocate %zu bytes", size);
    if (!sg_reg_add(p, SG_H_HOST_MEM, size)) {
        free(p);
        return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: out of memory");
    }
    *hostPtr = p;
    return ACL_SUCCESS;
}

aclError aclrtFreeHost(void *hostPtr) {
    if (hostPtr == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtFreeHost: hostPtr is NULL (expected a pointer from "
                           "aclrtMallocHost)");
    if (!sg_reg_remove(hostPtr, SG_H_HOST_MEM, NULL))
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtFreeHost: %p is not a live block from aclrtMallocHost (unknown "
                           "or already freed)",
                           hostPtr);
    free(hostPtr);
    return ACL_SUCCESS;
}

/* count bytes from p must not run past the end of the aclrtMalloc / aclrtMallocHost block p
   points into, whatever maxCount or destMax claim; a pointer into no known block (or just past
   one's end: sg_reg_block_of) is memory the program vouches for. */
static aclError sg_check_in_block(const char *fn, const char *what, const void *p, size_t count) {
    sg_reg_block blk;
    uint64_t at;
    if (sg_reg_block_holds(p, count, &blk, &at)) return ACL_SUCCESS;
    return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                       "%s: %s %p is %zu bytes into a block of %zu bytes from %s, so count %zu "
                       "runs past its end (expected count <= %zu)",
                       fn, what, p, (size_t)at, blk.size, sg_reg_block_origin(&blk), count,
                       blk.size - (size_t)at);
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    if (devPtr == NULL) return sg_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is NULL");
    if (count > maxCount)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtMemset: count %zu is above maxCount %zu (expected count <= "
                           "maxCount)",
                           count, maxCount);
    aclError rc = sg_check_in_block("aclrtMemset", "devPtr", devPtr, count);
    if (rc != ACL_SUCCESS) return rc;
    memset(devPtr, value, count);
    return ACL_SUCCESS;
}

static aclError sg_check_copy(const char *fn, void *dst, size_t destMax, const void *src,
                              size_t count, aclrtMemcpyKind kind) {
    if (dst == NULL) return sg_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: dst is NULL", fn);
    if (src == NULL) return sg_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: src is NULL", fn);
    if (count > destMax)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: count %zu is above destMax %zu (expected count <= destMax)", fn,
                           count, destMax);
    /* every kind copies the same way here: host and device memory are one */
    if ((int)kind < ACL_MEMCPY_HOST_TO_HOST || (int)kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: kind %d is unknown (expected ACL_MEMCPY_HOST_TO_HOST 0 .. "
                           "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE 7)",
                           fn, (int)kind);
    aclError rc = sg_check_in_block(fn, "dst", dst, count);
    if (rc == ACL_SUCCESS) rc = sg_check_in_block(fn, "src", src, count);
    return rc;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                     aclrtMemcpyKind kind) {
    aclError rc = sg_check_copy("aclrtMemcpy", dst, destMax, src, count, kind);
    if (rc != ACL_SUCCESS) return rc;
    if (count) memmove(dst, src, count);
    return ACL_SUCCESS;
}

typedef struct sg_copy_job {
    void *dst;
    const void *src;
    size_t count;
    const void *pinned[2]; /* the blocks of dst and src, pinned until the copy is done */
} sg_copy_job;

static int32_t sg_copy_run(void *ctx) {
    sg_copy_job *j = ctx;
    if (j->count) memmove(j->dst, j->src, j->count);
    return 0;
}

static void sg_copy_free(void *ctx) {
    sg_copy_job *j = ctx;
    sg_reg_unpin(j->pinned, 2);
    free(j);
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
    aclError rc = sg_check_copy("aclrtMemcpyAsync", dst, destMax, src, count, kind);
    if (rc != ACL_SUCCESS) return rc;
    int32_t err = 0;
    sg_stream *s = sg_stream_resolve(stream, "aclrtMemcpyAsync", &err);
    if (s == NULL) return err;
    sg_copy_job *j = malloc(sizeof *j);
    if (j == NULL) return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMemcpyAsync: out of memory");
    *j = (sg_copy_job){dst, src, count, {NULL, NULL}};
    /* The blocks stay allocated until the copy is done: an aclrtFree meanwhile waits for it. */
    sg_reg_block blk[2];
    size_t sizes[2] = {0, 0};
    const void *ends[2] = {dst, src};
    for (int i = 0; i < 2; i++)
        if (count > 0 && sg_reg_block_of(ends[i], &blk[i])) {
            j->pinned[i] = blk[i].start;
            sizes[i] = blk[i].size;
        }
    if (!sg_reg_pin(j->pinned, sizes, 2)) {
        free(j);
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtMemcpyAsync: a block of dst or src is being freed by another "
                           "thread (expected it to live until the copy is done)");
    }
    return sg_stream_submit(s, sg_copy_run, sg_copy_free, j, count <= 64 * 1024);
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free_bytes, size_t *total) {
    if (free_bytes == NULL || total == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: free or total is NULL");
    if ((int)attr < ACL_DDR_MEM || (int)attr > ACL_MEM_P2P_HUGE1G)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtGetMemInfo: attr %d is unknown (expected ACL_DDR_MEM 0 .. "
                           "ACL_MEM_P2P_HUGE1G 17)",
                           (int)attr);
    long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || avail < 0 || page <= 0)
        return sg_acl_fail(ACL_ERROR_INTERNAL_ERROR, "aclrtGetMemInfo: sysconf failed");
    *total = (size_t)pages * (size_t)page;
    *free_bytes = (size_t)avail * (size_t)page;
    return ACL_SUCCESS;
}
