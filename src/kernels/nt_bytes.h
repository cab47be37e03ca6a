/*
 * When the x86 kernels switch to non-temporal (streaming) stores: a kernel call whose traffic
 * (its inputs plus its output) reaches SG_NT_MIN_BYTES streams its stores, peeled to an aligned
 * y and ended with SFENCE; a smaller one stores plainly. Streaming writes the same bits and
 * saves the read-for-ownership of y's lines, but evicts them from the caches. Whether a whole
 * call streams is decided by the executor (core/exec.c) from this CPU's cache sizes
 * (sg_stream_bytes, core/cache.h); it then cuts the call into kernel calls on the matching side
 * of this size, which is only the boundary between the two: small enough for streaming tasks to
 * balance across threads, large enough that a streaming call's peel and SFENCE cost nothing
 * against its 256 KiB. No intrinsics here: the executor includes it too.
 */
#ifndef SELUGRAD_KERNELS_NT_BYTES_H
#define SELUGRAD_KERNELS_NT_BYTES_H

#include <stddef.h>

#ifndef SG_NT_MIN_BYTES
#define SG_NT_MIN_BYTES ((size_t)256 << 10)
#endif

#endif /* SELUGRAD_KERNELS_NT_BYTES_H */
