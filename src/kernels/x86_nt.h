/*
 * The x86 kernels' shared main loops: plain or non-temporal (streaming) stores, as the size of
 * the kernel call says (SG_NT_MIN_BYTES, nt_bytes.h), and the prefetches of their inputs.
 */
#ifndef SELUGRAD_KERNELS_X86_NT_H
#define SELUGRAD_KERNELS_X86_NT_H

#include <stddef.h>
#include <stdint.h>

#include "nt_bytes.h"

/* The rest is x86 code; tests on any architecture read the threshold (nt_bytes.h). */
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "kernel.h"

/* The AVX-512 streaming loops of the compute-heavy kernels (all but f32, int32 and uint8) also
   prefetch their inputs this far ahead (the AVX2 int8, f16 and bf16 kernels store plainly and
   prefetch SG256_PLAIN_PF_BYTES, 2 KiB, ahead: sg_avx2.h): with many instructions per element, the
   out-of-order window alone keeps too few cache misses in flight (`selugrad_bench --size=16M,128M
   --threads=2`, a -DSG_PF_BYTES=0 build against the default; 16M elements, ratio to the bound
   without -> with 4 KiB: AVX-512 bf16 0.80-0.86 -> 0.96-1.02, AVX512-FP16 int8 0.88 ->
   0.98-1.00; docs/dispatch.md). 0 turns it off. A prefetch never faults. The helpers are always
   inlined: GCC finds a function that only prefetches free of side effects and drops the calls. */
#ifndef SG_PF_BYTES
#define SG_PF_BYTES 4096
#endif
SG_ALWAYS_INLINE void sg_prefetch(const void *p) {
    if (SG_PF_BYTES) _mm_prefetch((const char *)p + SG_PF_BYTES, _MM_HINT_T0);
}

/* The plain (cache-resident) loop of sg512_stream_loop, when pf is 1, prefetches its inputs
   this far ahead: inputs in L2 rather than L1 (fresh data, or a call bigger than L1) otherwise
   make the light int8 step wait at every line. Measured with the benchmark's rotating inputs
   (`selugrad_bench --threads=1,2`, builds with -DSG_PF_PLAIN_BYTES=0 and 512 alternated;
   docs/dispatch.md): int8 4K 0.45-0.47 -> 0.50-0.52 of the bound, 64K 0.47-0.57 -> 0.56-0.70;
   f16, bf16 and int32 unchanged within noise; uint8 lost (it passes pf = 0). 0 turns it off. */
#ifndef SG_PF_PLAIN_BYTES
#define SG_PF_PLAIN_BYTES 512
#endif
SG_ALWAYS_INLINE void sg_prefetch_plain(const void *p) {
    if (SG_PF_PLAIN_BYTES) {
        _mm_prefetch((const char *)p + SG_PF_PLAIN_BYTES, _MM_HINT_T0);
        _mm_prefetch((const char *)p + SG_PF_PLAIN_BYTES + 64, _MM_HINT_T0);
    }
}

/* Streaming loops run as sub-streams: the span they stream is cut into SG_STREAMS parts of whole
   blocks (SG_SELU_STREAMS in the forward's loop), and each iteration does one block of every
   part, so every input and the output are read or written at that many places a part apart. On
   the Zen 5 VM one stream per array left 5-25 % of the memory bound unused in the kernels with
   more than a few instructions per element, where the out-of-order window reaches fewer lines
   ahead than the triad's; more streams keep more of the hardware prefetchers' streams running
   (docs/dispatch.md, "Stores and prefetch (x86)"): two for SeluGrad, four for the forward's
   int8 and int32 kernels (the floating-point ones store plainly, sg_selu_loop). Each element is
   computed by the same step either way: the results are the same bits. Only spans whose parts
   hold at least SG_PART_MIN_BYTES of y split, and none where y partly overlaps an input (the API
   refuses that; a direct caller keeps the element order). */
#define SG_STREAMS      2 /* the loops write their parts out, two or four, by name: */
#define SG_SELU_STREAMS 4 /* GCC keeps named values in registers, an array in memory */
_Static_assert(SG_STREAMS == 2 && SG_SELU_STREAMS == 4, "the loops name each part");
#ifndef SG_PART_MIN_BYTES
#define SG_PART_MIN_BYTES 4096
#endif

/* Elements in each part when a streaming loop over m elements of es bytes, in blocks of b
   elements, runs as `parts` sub-streams: whole blocks, 0 when a part would be shorter than
   SG_PART_MIN_BYTES. */
static inline size_t sg_part_elems(size_t m, size_t es, size_t b, size_t parts) {
    size_t len = m / (parts * b) * b;
    return len * es >= SG_PART_MIN_BYTES ? len : 0;
}

/* The loop of the SELU forward kernels (AVX2 and AVX-512): step(x, y, stream) does one block of
   b elements of es bytes, rest(m, x, y) m elements that no whole block covers (the peel to a
   64-byte aligned y and the tail: the scalar kernel of the dtype, or masked steps). When nt is 1,
   calls that move SG_NT_MIN_BYTES or more, with y aligned to its element, peel and stream their
   stores in SG_SELU_STREAMS sub-streams (then SFENCE); with nt 0 every call stores plainly. The
   floating-point kernels pass 0: their exponential takes about as long per byte as DRAM does,
   and streaming stores then cost them time that plain ones do not (SELU f32 16M from DRAM on
   the Zen 5 VM, 2 threads, ratio to the streaming scale: AVX-512 0.73 streaming, 0.85 plain,
   AVX2 0.46 and 0.56; docs/dispatch.md). y == x is fine: each block is read before it is
   written. */
typedef void (*sg_selu_step_fn)(const void *x, void *y, int stream);
typedef void (*sg_selu_rest_fn)(size_t m, const void *x, void *y);

SG_ALWAYS_INLINE void sg_selu_loop(const void *xv, void *yv, size_t n, size_t es, size_t b,
                                   sg_selu_step_fn step, sg_selu_rest_fn rest, int nt) {
    const char *x = (const char *)xv;
    char *y = (char *)yv;
    size_t i = 0;
    int stream = nt && n * es * 2 >= SG_NT_MIN_BYTES && (uintptr_t)y % es == 0;
    if (stream) {
        i = ((64 - ((uintptr_t)y & 63)) & 63) / es;
        if (i > n) i = n;
        if (i) rest(i, x, y);
        size_t part =
            sg_partial_overlap(x, x, y, n, es) ? 0 : sg_part_elems(n - i, es, b, SG_SELU_STREAMS);
        for (size_t e = i; e < i + part; e += b) {
            step(x + e * es, y + e * es, stream);
            step(x + (e + part) * es, y + (e + part) * es, stream);
            step(x + (e + 2 * part) * es, y + (e + 2 * part) * es, stream);
            step(x + (e + 3 * part) * es, y + (e + 3 * part) * es, stream);
        }
        i += SG_SELU_STREAMS * part;
    }
    for (; n - i >= b; i += b) step(x + i * es, y + i * es, stream);
    if (stream) _mm_sfence();
    if (i < n) rest(n - i, x + i * es, y + i * es);
}

#ifdef __AVX512F__
/* step(g, o, ctx): 64 bytes of g and o elements -> 64 bytes of results; rest(g, o, y, m, ctx):
   m elements the vector step does not cover (the peel to an aligned y and the tail), by masked
   loads and stores. ctx: the kernel's own constant data (or NULL), passed through. */
typedef __m512i (*sg512_step_fn)(__m512i g, __m512i o, const void *ctx);
typedef void (*sg512_rest_fn)(const void *g, const void *o, void *y, size_t m, const void *ctx);

/* The main loop of an AVX-512 kernel whose step handles 64 bytes of elements of es bytes each;
   rest does m < 64 / es elements. Calls that move SG_NT_MIN_BYTES or more, with y aligned to its
   element, peel to a 64-byte aligned y, stream their stores in SG_STREAMS sub-streams (prefetching
   the inputs SG_PF_BYTES ahead when pf is 1) and SFENCE; the others store plainly, two steps per
   iteration
   (prefetching SG_PF_PLAIN_BYTES ahead when pf is 1). The rest, if any, goes to rest. Used by
   the AVX-512 and the AVX512-FP16 kernels. */
SG_ALWAYS_INLINE void sg512_stream_loop(const void *gv, const void *ov, void *yv, size_t n,
                                        size_t es, sg512_step_fn step, sg512_rest_fn rest, int pf,
                                        const void *ctx) {
    const char *g = (const char *)gv, *o = (const char *)ov;
    char *y = (char *)yv;
    size_t nb = n * es, b = 0; /* bytes */
    if (nb * 3 >= SG_NT_MIN_BYTES && (uintptr_t)y % es == 0) {
        b = (64 - ((uintptr_t)y & 63)) & 63;
        if (b) rest(g, o, y, b / es, ctx);
        size_t part =
            sg_partial_overlap(g, o, y, n, es) ? 0 : sg_part_elems(nb - b, 1, 64, SG_STREAMS);
        for (size_t e = b; e < b + part; e += 64) { /* two sub-streams (SG_STREAMS) */
            if (pf) {
                sg_prefetch(g + e);
                sg_prefetch(o + e);
                sg_prefetch(g + e + part);
                sg_prefetch(o + e + part);
            }
            __m512i r0 = step(_mm512_loadu_si512(g + e), _mm512_loadu_si512(o + e), ctx);
            __m512i r1 =
                step(_mm512_loadu_si512(g + e + part), _mm512_loadu_si512(o + e + part), ctx);
            _mm512_stream_si512((void *)(y + e), r0);
            _mm512_stream_si512((void *)(y + e + part), r1);
        }
        b += SG_STREAMS * part;
        for (; b + 64 <= nb; b += 64) {
            if (pf) {
                sg_prefetch(g + b);
                sg_prefetch(o + b);
            }
            _mm512_stream_si512((void *)(y + b),
                                step(_mm512_loadu_si512(g + b), _mm512_loadu_si512(o + b), ctx));
        }
        _mm_sfence();
    } else {
        for (; b + 128 <= nb; b += 128) {
            if (pf) {
                sg_prefetch_plain(g + b);
                sg_prefetch_plain(o + b);
            }
            __m512i r0 = step(_mm512_loadu_si512(g + b), _mm512_loadu_si512(o + b), ctx);
            __m512i r1 = step(_mm512_loadu_si512(g + b + 64), _mm512_loadu_si512(o + b + 64), ctx);
            _mm512_storeu_si512(y + b, r0);
            _mm512_storeu_si512(y + b + 64, r1);
        }
        if (b + 64 <= nb) {
            _mm512_storeu_si512(y + b,
                                step(_mm512_loadu_si512(g + b), _mm512_loadu_si512(o + b), ctx));
            b += 64;
        }
    }
    if (b < nb) rest(g + b, o + b, y + b, (nb - b) / es, ctx);
}
#endif /* __AVX512F__ */
#endif /* x86 */

#endif /* SELUGRAD_KERNELS_X86_NT_H */
