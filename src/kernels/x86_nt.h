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

/* The streaming loops of the compute-heavy kernels (all but f32 and the uint8 lookup) also
   prefetch their inputs this far ahead: with many instructions per element, the out-of-order
   window alone keeps too few cache misses in flight (2 threads, 16M elements, ratio to the
   bound without -> with 4 KiB: AVX-512 bf16 0.80-0.86 -> 0.96-1.02, AVX512-FP16 int8
   0.88 -> 0.98-1.00, AVX2 f16 0.57 -> 0.76-0.80, AVX2 bf16 0.65-0.67 -> 0.71-0.75;
   docs/dispatch.md). 0 turns it off. A prefetch never faults. */
#ifndef SG_PF_BYTES
#define SG_PF_BYTES 4096
#endif
#define SG_PREFETCH(p)                                                                             \
    do {                                                                                           \
        if (SG_PF_BYTES) _mm_prefetch((const char *)(p) + SG_PF_BYTES, _MM_HINT_T0);               \
    } while (0)

#endif /* SELUGRAD_KERNELS_X86_NT_H */
