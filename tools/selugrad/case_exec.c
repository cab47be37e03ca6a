/*
 * Running one case: the only place the command calls the operator. Native path: the public
 * selugrad_backward for contiguous views, and selugrad_backward_strided row by row (the last
 * dim) for strided ones.
 */
#include <string.h>

#include "cli.h"

const char *cli_exec_api(void) {
    return "native";
}

int cli_exec_case(selugrad_dtype dt, size_t rank, const int64_t *dims, const int64_t *strides,
                  const void *g, const void *o, void *y, char *err, size_t errlen) {
    size_t n = cli_shape_count(rank, dims);
    selugrad_status st = SELUGRAD_OK;
    if (strides == NULL || rank == 0) {
        st = selugrad_backward(dt, n, g, o, y);
    } else if (n > 0) {
        size_t es = selugrad_dtype_size(dt);
        size_t rows = n / (size_t)dims[rank - 1];
        int64_t idx[CLI_MAX_RANK] = {0};
        for (size_t r = 0; r < rows && st == SELUGRAD_OK; r++) {
            int64_t off = 0;
            for (size_t d = 0; d + 1 < rank; d++) off += idx[d] * strides[d];
            size_t b = (size_t)off * es;
            ptrdiff_t s = (ptrdiff_t)strides[rank - 1];
            st = selugrad_backward_strided(dt, (size_t)dims[rank - 1], (const char *)g + b, s,
                                           (const char *)o + b, s, (char *)y + b, s);
            for (size_t d = rank - 1; d-- > 0;) { /* next row index, last dims fastest */
                if (++idx[d] < dims[d]) break;
                idx[d] = 0;
            }
        }
    }
    if (st != SELUGRAD_OK) {
        snprintf(err, errlen, "%s: %s", selugrad_status_name(st), selugrad_last_error());
        return (int)st;
    }
    return 0;
}
