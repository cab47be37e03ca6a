/*
 * UB bytes per element of the forward. A chunk of the NPU kernel holds its input and its output,
 * each double-buffered (4 * es), and the work buffers of the computation: fp32 keeps two (e and
 * t in one, p in the other; min and max go in place), fp16, bf16 and int32 one more for x
 * widened to fp32, int8 three fp16 buffers (x widened, P, N). So fp32 4 * 4 + 2 * 4 = 24,
 * fp16 and bf16 4 * 2 + 3 * 4 = 20, int32 4 * 4 + 3 * 4 = 28, int8 4 * 1 + 3 * 2 = 10.
 */
#include "tiling.h"

#include "../../core/error.h"

int64_t sg_selu_tiling_bytes_per_element(selugrad_dtype dtype) {
    switch (dtype) {
    case SELUGRAD_FLOAT:
        return 24;
    case SELUGRAD_FLOAT16:
    case SELUGRAD_BF16:
        return 20;
    case SELUGRAD_INT32:
        return 28;
    case SELUGRAD_INT8:
        return 10;
    case SELUGRAD_UINT8:
        break;
    }
    return 0;
}

selugrad_status sg_selu_tiling_compute(int64_t total, int64_t cores, int64_t ub,
                                       selugrad_dtype dtype, sg_tiling *out) {
    int64_t bpe = sg_selu_tiling_bytes_per_element(dtype);
    if (bpe == 0)
        return sg_fail(SELUGRAD_ERR_BAD_DTYPE, "tiling: dtype %d has no SELU forward", (int)dtype);
    return sg_tiling_compute_bpe(total, cores, ub, bpe, out);
}
