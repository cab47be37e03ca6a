/*
 * When x86 kernels switch to non-temporal (streaming) stores. A kernel sees only its own part,
 * so the test is on the bytes one call moves (both inputs plus the output): above this size the
 * output cannot stay in the caches anyway, and writing around them saves the read-for-ownership.
 * Measured (docs/dispatch.md): on an AMD Zen 5 VM (1 MiB L2 per core) streaming wins from 1.6 MB
 * per call and loses at 0.8 MB; on an Intel Sapphire-Rapids-class VM (2 MiB L2 per core, slow
 * L3) it wins from 3 MB (f32 1M elements on 2 threads: 0.80 of the bound plain, 1.00 streaming).
 * Hence 2 MiB per call (per thread part). Streaming stores write the same bits.
 */
#ifndef SELUGRAD_KERNELS_X86_NT_H
#define SELUGRAD_KERNELS_X86_NT_H

#ifndef SG_NT_MIN_BYTES
#define SG_NT_MIN_BYTES ((size_t)2 << 20)
#endif

/* Streaming loops of compute-heavy kernels (16- and 8-bit types) also prefetch their inputs this
   far ahead: with many instructions per element, the out-of-order window alone keeps too few
   cache misses in flight (AVX2 f16 at 16M elements on 2 threads: 0.57-0.65 of the bound
   without, 0.72-0.83 with 4 KiB; docs/dispatch.md). 0 turns it off. A prefetch never faults. */
#ifndef SG_PF_BYTES
#define SG_PF_BYTES 4096
#endif
#define SG_PREFETCH(p)                                                                             \
    do {                                                                                           \
        if (SG_PF_BYTES) _mm_prefetch((const char *)(p) + SG_PF_BYTES, _MM_HINT_T0);               \
    } while (0)

#endif /* SELUGRAD_KERNELS_X86_NT_H */
