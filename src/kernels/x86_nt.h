/*
 * When x86 kernels switch to non-temporal (streaming) stores. A kernel sees only its own part,
 * so the test is on the bytes one call moves (both inputs plus the output): above this size the
 * output cannot stay in the caches anyway, and writing around them saves the read-for-ownership.
 * Measured on the development machine (docs/dispatch.md): plain and streaming stores tie up to
 * 12 MB per call and streaming wins by 1.5x from 25 MB. Streaming stores write the same bits.
 */
#ifndef SELUGRAD_KERNELS_X86_NT_H
#define SELUGRAD_KERNELS_X86_NT_H

#ifndef SG_NT_MIN_BYTES
#define SG_NT_MIN_BYTES ((size_t)16 << 20)
#endif

#endif /* SELUGRAD_KERNELS_X86_NT_H */
