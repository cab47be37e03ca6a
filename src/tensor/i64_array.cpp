// The one C++ translation unit of the library: CANN hands out the getters' arrays from
// `new int64_t[]` and its users free them with `delete[]`, so these must come from new[] too
// (malloc'd memory under delete[] is undefined, and sanitizers report it). No exceptions leave:
// the nothrow form returns NULL instead.
#include "i64_array.h"

#include <cstddef>
#include <cstdint>
#include <new>

extern "C" int64_t *sg_i64_array_new(uint64_t n) {
    if (n > static_cast<uint64_t>(PTRDIFF_MAX) / sizeof(int64_t)) return nullptr;
    return new (std::nothrow) int64_t[static_cast<std::size_t>(n)];
}

extern "C" void sg_i64_array_delete(int64_t *array) {
    delete[] array;
}
