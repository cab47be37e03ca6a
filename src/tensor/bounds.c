/*
 * A view held to its allocation: every element of a tensor whose data pointer lies inside a block
 * from aclrtMalloc or aclrtMallocHost must lie inside that block, whatever its storage dims say
 * (aclCreateTensor only checks the view against the storage dims the caller gives).
 */
#include <inttypes.h>
#include <stdint.h>

#include "../runtime/acl_error.h"
#include "../runtime/registry.h"
#include "tensor.h"

void sg_tensor_span(const aclTensor *t, int64_t *lo, int64_t *hi) {
    int64_t a = t->offset, b = t->offset;
    for (uint64_t i = 0; i < t->rank; i++) {
        int64_t ext = (t->dims[i] - 1) * t->strides[i];
        if (ext < 0)
            a += ext;
        else
            b += ext;
    }
    *lo = a;
    *hi = b;
}

aclnnStatus sg_tensor_check_block(const aclTensor *t, const char *fn, const char *name) {
    if (t->numel == 0 || t->data == NULL) return ACLNN_SUCCESS;
    sg_reg_block blk;
    if (!sg_reg_block_of(t->data, &blk)) return ACLNN_SUCCESS; /* memory the program owns */
    uint64_t es = aclDataTypeSize(t->dtype);
    if (es == 0) es = 1;
    int64_t lo, hi;
    sg_tensor_span(t, &lo, &hi);
    /* at: the pointer's place in the block (<= its size); first and end: the first byte and one
       past the last byte of the elements, from the pointer (aclCreateTensor keeps (hi + 1) * es
       below 2^63, and negative strides out). */
    uint64_t at = (uint64_t)((uintptr_t)t->data - (uintptr_t)blk.start);
    int64_t first = lo * (int64_t)es, end = (hi + 1) * (int64_t)es;
    bool inside = (first >= 0 || (uint64_t)(-first) <= at) && (uint64_t)end <= blk.size - at;
    if (inside) return ACLNN_SUCCESS;
    return sg_acl_fail(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s reaches bytes [%" PRId64 ", %" PRId64 ") from its data pointer %p, "
                       "which is %" PRIu64 " bytes into a block of %zu bytes from %s (expected "
                       "every element inside the block, whatever storageDims say)",
                       fn, name, first, end, t->data, at, blk.size, sg_reg_block_origin(&blk));
}
