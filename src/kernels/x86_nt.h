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

/* The plain (cache-resident) loop of SG512_STREAM_LOOP, when PF is 1, prefetches its inputs
   this far ahead: inputs in L2 rather than L1 (fresh data, or a call bigger than L1) otherwise
   make the light int8 step wait at every line. Measured with the benchmark's rotating inputs
   (docs/dispatch.md, session 9): int8 4K 0.45-0.47 -> 0.50-0.52 of the bound, 64K 0.47-0.57 ->
   0.56-0.70; f16, bf16 and int32 unchanged within noise; uint8 lost (it passes PF = 0). 0 turns
   it off. */
#ifndef SG_PF_PLAIN_BYTES
#define SG_PF_PLAIN_BYTES 512
#endif
#define SG_PREFETCH_PLAIN(p)                                                                       \
    do {                                                                                           \
        if (SG_PF_PLAIN_BYTES) {                                                                   \
            _mm_prefetch((const char *)(p) + SG_PF_PLAIN_BYTES, _MM_HINT_T0);                      \
            _mm_prefetch((const char *)(p) + SG_PF_PLAIN_BYTES + 64, _MM_HINT_T0);                 \
        }                                                                                          \
    } while (0)

/* The main loop of an AVX-512 kernel whose step handles 64 bytes of elements of type T: STEP maps
   the g and o vectors (__m512i) to the result vector, MASKED(g, o, y, m) does m < 64 / sizeof(T)
   elements. Calls that move SG_NT_MIN_BYTES or more, with y aligned to its element, peel to a
   64-byte aligned y, stream their stores (prefetching the inputs SG_PF_BYTES ahead when PF is 1)
   and SFENCE; the others store plainly (prefetching SG_PF_PLAIN_BYTES ahead when PF is 1). The
   rest, if any, goes to MASKED. Expanded in per-ISA files only. */
#define SG512_STREAM_LOOP(T, g, o, y, n, STEP, MASKED, PF)                                         \
    do {                                                                                           \
        const size_t lanes_ = 64 / sizeof(T);                                                      \
        size_t i_ = 0;                                                                             \
        if ((n)*3 * sizeof(T) >= SG_NT_MIN_BYTES && (uintptr_t)(y) % sizeof(T) == 0) {             \
            size_t peel_ = ((64 - ((uintptr_t)(y)&63)) & 63) / sizeof(T);                          \
            if (peel_) MASKED(g, o, y, peel_);                                                     \
            for (i_ = peel_; i_ + lanes_ <= (n); i_ += lanes_) {                                   \
                if (PF) {                                                                          \
                    SG_PREFETCH((g) + i_);                                                         \
                    SG_PREFETCH((o) + i_);                                                         \
                }                                                                                  \
                _mm512_stream_si512((void *)((y) + i_), STEP(_mm512_loadu_si512((g) + i_),         \
                                                             _mm512_loadu_si512((o) + i_)));       \
            }                                                                                      \
            _mm_sfence();                                                                          \
        } else {                                                                                   \
            for (; i_ + 2 * lanes_ <= (n); i_ += 2 * lanes_) {                                     \
                if (PF) {                                                                          \
                    SG_PREFETCH_PLAIN((g) + i_);                                                   \
                    SG_PREFETCH_PLAIN((o) + i_);                                                   \
                }                                                                                  \
                __m512i r0_ = STEP(_mm512_loadu_si512((g) + i_), _mm512_loadu_si512((o) + i_));    \
                __m512i r1_ = STEP(_mm512_loadu_si512((g) + i_ + lanes_),                          \
                                   _mm512_loadu_si512((o) + i_ + lanes_));                         \
                _mm512_storeu_si512((y) + i_, r0_);                                                \
                _mm512_storeu_si512((y) + i_ + lanes_, r1_);                                       \
            }                                                                                      \
            if (i_ + lanes_ <= (n)) {                                                              \
                _mm512_storeu_si512(                                                               \
                    (y) + i_, STEP(_mm512_loadu_si512((g) + i_), _mm512_loadu_si512((o) + i_)));   \
                i_ += lanes_;                                                                      \
            }                                                                                      \
        }                                                                                          \
        if (i_ < (n)) MASKED((g) + i_, (o) + i_, (y) + i_, (n)-i_);                                \
    } while (0)

/* The same for an AVX2 kernel whose step STEP_AT(g + i, o + i) computes LANES elements of type
   T (32 bytes of results, __m256i) and whose reference REF(g, o) computes one: the peel to a
   32-byte aligned y and the rest run the reference element by element. */
#define SG256_STREAM_LOOP(T, LANES, g, o, y, n, STEP_AT, REF, PF)                                  \
    do {                                                                                           \
        size_t i_ = 0;                                                                             \
        if ((n)*3 * sizeof(T) >= SG_NT_MIN_BYTES && (uintptr_t)(y) % sizeof(T) == 0) {             \
            for (; i_ < (n) && ((uintptr_t)((y) + i_) & 31) != 0; i_++)                            \
                (y)[i_] = REF((g)[i_], (o)[i_]);                                                   \
            for (; i_ + (LANES) <= (n); i_ += (LANES)) {                                           \
                if (PF) {                                                                          \
                    SG_PREFETCH((g) + i_);                                                         \
                    SG_PREFETCH((o) + i_);                                                         \
                }                                                                                  \
                _mm256_stream_si256((__m256i *)((y) + i_), STEP_AT((g) + i_, (o) + i_));           \
            }                                                                                      \
            _mm_sfence();                                                                          \
        } else {                                                                                   \
            for (; i_ + (LANES) <= (n); i_ += (LANES))                                             \
                _mm256_storeu_si256((__m256i *)((y) + i_), STEP_AT((g) + i_, (o) + i_));           \
        }                                                                                          \
        for (; i_ < (n); i_++) (y)[i_] = REF((g)[i_], (o)[i_]);                                    \
    } while (0)

#endif /* SELUGRAD_KERNELS_X86_NT_H */
