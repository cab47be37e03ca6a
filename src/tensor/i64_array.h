/* int64_t arrays allocated with C++ new[] (i64_array.cpp), for the tensor getters: CANN's
   callers free them with delete[], which only memory from new[] may meet. */
#ifndef SELUGRAD_TENSOR_I64_ARRAY_H
#define SELUGRAD_TENSOR_I64_ARRAY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* new (std::nothrow) int64_t[n]: NULL when out of memory; not NULL for n == 0. */
int64_t *sg_i64_array_new(uint64_t n);

/* delete[] array (NULL allowed). */
void sg_i64_array_delete(int64_t *array);

#ifdef __cplusplus
}
#endif

#endif /* SELUGRAD_TENSOR_I64_ARRAY_H */
