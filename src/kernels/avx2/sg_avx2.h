/*
 * Helpers shared by the AVX2 (+F16C) kernels. Every operation is one IEEE fp32 operation with
 * round-to-nearest-even (the library runs kernels under the default MXCSR); fp16 rounding uses
 * VCVTPS2PH with an explicit RNE immediate or, where the range allows, fp32 arithmetic
 * (sg256_round_f16_arith, sg256_round_f16_sum); bf16 rounding uses integer operations. Tails
 * run the reference functions element by element.
 */
#ifndef SELUGRAD_KERNELS_AVX2_SG_AVX2_H
#define SELUGRAD_KERNELS_AVX2_SG_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel.h"
#include "../ref/selugrad_ref.h"
#include "../x86_nt.h"

#define SG256_RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

static inline __m256 sg256_bits(uint32_t u) {
    return _mm256_castsi256_ps(_mm256_set1_epi32((int)u));
}

/* All-ones in the lanes where o < 0 (false for -0 and NaN); zero is +0.0 in every lane (from
   sg_opaque_zero where o comes from VCVTPH2PS, see kernel.h). */
static inline __m256 sg256_neg(__m256 o, __m256 zero) {
    return _mm256_cmp_ps(o, zero, _CMP_LT_OQ);
}

/* y = o < 0 ? g * t : g * scale, each product rounded once to fp32: selecting the factor first
   is the same as selecting the product, and saves a multiply. The factor is chosen with three
   single-uop bitwise operations, which run on any vector ALU port, where VBLENDVPS is a
   multi-uop instruction on Intel cores. */
static inline __m256 sg256_select(__m256 g, __m256 o, __m256 t, __m256 scale, __m256 zero) {
    __m256 m = sg256_neg(o, zero);
    return _mm256_mul_ps(g, _mm256_or_ps(_mm256_and_ps(m, t), _mm256_andnot_ps(m, scale)));
}

/* Any NaN becomes the canonical fp32 quiet NaN (which converts to the fp16/bf16 ones). */
static inline __m256 sg256_canon_nan(__m256 r) {
    return _mm256_blendv_ps(r, sg256_bits(SG_F32_QNAN_BITS), _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
}

/* Packed fp16 words with every NaN made the canonical 0x7E00 (SG_F16_QNAN_BITS), 16 lanes at a
   time after VCVTPS2PH, where a compare and a blend on each 8-lane fp32 half took twice the
   operations. A NaN word from VCVTPS2PH is quiet, s 11111 1xxxxxxxxx, so clearing its sign and
   its low nine bits leaves 0x7E00: one AND-NOT with the mask's 0x81FF. */
static inline __m256i sg256_canon_nan_f16(__m256i h) {
    __m256i nan = _mm256_cmpgt_epi16(_mm256_and_si256(h, _mm256_set1_epi16(0x7FFF)),
                                     _mm256_set1_epi16(0x7C00));
    return _mm256_andnot_si256(_mm256_and_si256(nan, _mm256_set1_epi16((short)0x81FF)), h);
}

/* The same rounding in fp32 arithmetic (see sg512_round_f16_arith in avx512/sg_avx512.h for why
   it is exact): x + c - c, c = +-max(2^(e+13), 2^-1). For |x| < 2^115 whose fp16 rounding does
   not overflow, and +-inf; -0 and tiny negatives come out +0. */
static inline __m256 sg256_round_f16_arith(__m256 x) {
    __m256i xb = _mm256_castps_si256(x);
    __m256i e = _mm256_and_si256(xb, _mm256_set1_epi32(0x7F800000));
    __m256i cb = _mm256_max_epi32(_mm256_add_epi32(e, _mm256_set1_epi32(13 << 23)),
                                  _mm256_set1_epi32(0x3F000000)); /* inf: wraps negative, 2^-1 */
    cb = _mm256_or_si256(cb, _mm256_and_si256(xb, _mm256_set1_epi32((int)0x80000000u)));
    __m256 c = _mm256_castsi256_ps(cb);
    return _mm256_sub_ps(_mm256_add_ps(x, c), c);
}

/* x = o + SA (o < 0 an fp16 value, or an integer of int8 made fp16) rounded to fp16, nearest
   even: x + c - c with c = +-2^(e+13) of x's own sign and exponent, whose binade has fp16's
   spacing at x. Exact for such x because it is 0, +-inf or at least 2^-10 in magnitude (o and SA
   are multiples of 2^-10 wherever they can cancel), so never an fp16 subnormal, and at most
   65504 + SA, so the rounding never overflows (for -inf, e + 13 wraps to a tiny c). Lanes with
   o >= 0 or NaN get garbage, which the select drops. Four single-uop operations where
   a VCVTPS2PH/VCVTPH2PS round trip takes two conversions of two uops each. Checked for every
   o. */
static inline __m256 sg256_round_f16_sum(__m256 x) {
    __m256i se = _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32((int)0xFF800000u));
    __m256 c = _mm256_castsi256_ps(_mm256_add_epi32(se, _mm256_set1_epi32(13 << 23)));
    return _mm256_sub_ps(_mm256_add_ps(x, c), c);
}

/* bf16 rounding of non-NaN fp32 bits, ties to even; result bits in the high half. */
static inline __m256i sg256_bf16_round_hi(__m256i x) {
    __m256i odd = _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1));
    return _mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7FFF)), odd);
}

/* x where m is all-ones, y elsewhere (16-bit masks), without VPBLENDVB. */
static inline __m256i sg256_select16(__m256i m, __m256i x, __m256i y) {
    return _mm256_xor_si256(y, _mm256_and_si256(_mm256_xor_si256(x, y), m));
}

/* The bf16 results of fp32 values re (even elements) and ro (odd elements), ties to even, packed
   in element order: the high halves p and low halves l are packed as 16-bit words, p rounds up
   where (l | (p & 1)) >= 0x8001 (unsigned: max(l', 0x8001) == l'). NaN inputs give a NaN word
   that need not be the canonical one. */
static inline __m256i sg256_bf16_pack(__m256i re, __m256i ro) {
    __m256i p = _mm256_blend_epi16(_mm256_srli_epi32(re, 16), ro, 0xAA);
    __m256i l = _mm256_blend_epi16(re, _mm256_slli_epi32(ro, 16), 0xAA);
    l = _mm256_or_si256(l, _mm256_and_si256(p, _mm256_set1_epi16(1)));
    __m256i up = _mm256_cmpeq_epi16(_mm256_max_epu16(l, _mm256_set1_epi16((short)0x8001)), l);
    return _mm256_sub_epi16(p, up); /* up is -1 where p rounds up */
}

/* The same with NaN words made the canonical 0x7FC0: the low half of an fp32 NaN product is 0,
   so its word is the NaN's high half, quiet (s 11111111 1xxxxxx), and clearing its sign and low
   six bits leaves 0x7FC0. */
static inline __m256i sg256_bf16_pack_rne(__m256i re, __m256i ro) {
    __m256i p = sg256_bf16_pack(re, ro);
    __m256i nan = _mm256_cmpgt_epi16(_mm256_and_si256(p, _mm256_set1_epi16(0x7FFF)),
                                     _mm256_set1_epi16(0x7F80));
    return _mm256_andnot_si256(_mm256_and_si256(nan, _mm256_set1_epi16((short)0x803F)), p);
}

/* Whether any lane of acc is +-inf or NaN (acc - acc is 0 exactly in the finite lanes). */
static inline int sg256_nonfinite(__m256 acc) {
    return _mm256_movemask_ps(
               _mm256_cmp_ps(_mm256_sub_ps(acc, acc), _mm256_setzero_ps(), _CMP_NEQ_UQ)) != 0;
}

/* Stores one result vector at y (32-byte aligned when streaming). */
static inline void sg256_store(void *y, __m256i r, int stream) {
    if (stream)
        _mm256_stream_si256((__m256i *)y, r);
    else
        _mm256_storeu_si256((__m256i *)y, r);
}

/* Stores four result vectors at y, plainly. */
static inline void sg256_store4(uint16_t *y, __m256i r0, __m256i r1, __m256i r2, __m256i r3) {
    _mm256_storeu_si256((__m256i *)y, r0);
    _mm256_storeu_si256((__m256i *)(y + 16), r1);
    _mm256_storeu_si256((__m256i *)(y + 32), r2);
    _mm256_storeu_si256((__m256i *)(y + 48), r3);
}

/* The number of es-byte elements from y to the next 32-byte boundary, at most n. */
static inline size_t sg256_peel(const void *y, size_t n, size_t es) {
    size_t peel = ((32 - ((uintptr_t)y & 31)) & 31) / es;
    return peel < n ? peel : n;
}

/* The main loop of an AVX2 kernel whose step computes 32 bytes of results: step(g, o) the
   elements at g and o, rest(g, o, y, m) m elements the vector step does not cover (the peel to
   an aligned y and the tail: the reference, element by element), es the element size. Calls that
   move SG_NT_MIN_BYTES or more, with y aligned to its element, peel to a 32-byte aligned y and
   run in two sub-streams (x86_nt.h). With nt 1 they stream their stores, then SFENCE. With nt 0
   (the int8 kernel) they store plainly, two steps (one 64-byte line) of each sub-stream per
   iteration, prefetching the inputs SG256_PLAIN_PF_BYTES ahead: that kernel's step takes about
   as many cycles per byte as DRAM does on the Zen 5 VM, and with streaming stores, prefetched
   inputs or not, it ran at about 0.6 of the triad there, with plain stores at about 0.8 and with
   the prefetch too about 0.9; the prefetch 4 KiB ahead cost time when the data were in the L3,
   2 KiB did not (docs/dispatch.md, "Stores and prefetch (x86)"). The others store plainly, two
   steps per iteration. */
#ifndef SG256_PLAIN_PF_BYTES
#define SG256_PLAIN_PF_BYTES 2048
#endif
/* The line SG256_PLAIN_PF_BYTES after p, into L1 (the plain-store loops' prefetch; always
   inlined, as x86_nt.h's sg_prefetch). */
SG_ALWAYS_INLINE void sg256_prefetch_ahead(const void *p) {
    _mm_prefetch((const char *)p + SG256_PLAIN_PF_BYTES, _MM_HINT_T0);
}
typedef __m256i (*sg256_step_fn)(const void *g, const void *o);
typedef void (*sg256_rest_fn)(const void *g, const void *o, void *y, size_t m);

SG_ALWAYS_INLINE void sg256_stream_loop(const void *gv, const void *ov, void *yv, size_t n,
                                        size_t es, sg256_step_fn step, sg256_rest_fn rest, int nt) {
    const char *g = (const char *)gv, *o = (const char *)ov;
    char *y = (char *)yv;
    size_t nb = n * es, b = 0; /* bytes */
    if (nb * 3 >= SG_NT_MIN_BYTES && (uintptr_t)y % es == 0) {
        size_t peel = sg256_peel(y, n, es);
        rest(g, o, y, peel);
        b = peel * es;
        size_t part =
            sg_partial_overlap(g, o, y, n, es) ? 0 : sg_part_elems(nb - b, 1, 64, SG_STREAMS);
        if (nt) {
            for (size_t e = b; e < b + part; e += 32) { /* two sub-streams (SG_STREAMS) */
                __m256i r0 = step(g + e, o + e), r1 = step(g + e + part, o + e + part);
                _mm256_stream_si256((__m256i *)(y + e), r0);
                _mm256_stream_si256((__m256i *)(y + e + part), r1);
            }
        } else {
            for (size_t e = b; e < b + part; e += 64) { /* two sub-streams, a line of each */
                sg256_prefetch_ahead(g + e);
                sg256_prefetch_ahead(o + e);
                sg256_prefetch_ahead(g + e + part);
                sg256_prefetch_ahead(o + e + part);
                __m256i r0 = step(g + e, o + e), r1 = step(g + e + 32, o + e + 32);
                _mm256_storeu_si256((__m256i *)(y + e), r0);
                _mm256_storeu_si256((__m256i *)(y + e + 32), r1);
                __m256i r2 = step(g + e + part, o + e + part);
                __m256i r3 = step(g + e + part + 32, o + e + part + 32);
                _mm256_storeu_si256((__m256i *)(y + e + part), r2);
                _mm256_storeu_si256((__m256i *)(y + e + part + 32), r3);
            }
        }
        b += SG_STREAMS * part;
        for (; nb - b >= 32; b += 32) sg256_store(y + b, step(g + b, o + b), nt);
        if (nt) _mm_sfence();
    } else {
        for (; nb - b >= 64; b += 64) {
            __m256i r0 = step(g + b, o + b), r1 = step(g + b + 32, o + b + 32);
            _mm256_storeu_si256((__m256i *)(y + b), r0);
            _mm256_storeu_si256((__m256i *)(y + b + 32), r1);
        }
        if (nb - b >= 32) {
            _mm256_storeu_si256((__m256i *)(y + b), step(g + b, o + b));
            b += 32;
        }
    }
    rest(g + b, o + b, y + b, (nb - b) / es);
}

/* Blocks without special values skip the fix-ups only special values need. */
#define SG256_BLOCK      64 /* elements per block: four 16-lane steps, results in registers */
#define SG256_FULL_AFTER 32 /* blocks after a flagged one that take the full step directly */

/* The steps of a 16-bit kernel with a fast path: fast(g, o, zero, &acc) computes the 16
   results at g and o without the fix-ups and folds its fp32 products into acc with one FMA (acc
   += p * q): acc ends non-finite exactly when some product was not finite (or, harmlessly, when
   the sum overflowed), which every input that needs a fix-up makes. step(g, o, zero) is the full
   step, rest(g, o, y, m) the reference for m elements. zero is the kernel's +0.0 for compares
   (sg_opaque_zero, kernel.h), passed through. */
typedef __m256i (*sg256_fast16_fn)(const uint16_t *g, const uint16_t *o, __m256 zero, __m256 *acc);
typedef __m256i (*sg256_step16_fn)(const uint16_t *g, const uint16_t *o, __m256 zero);

/* One block of sg256_fast_loop: the SG256_BLOCK elements at i (prefetching its inputs
   SG256_PLAIN_PF_BYTES ahead when pf is 1); *full counts the blocks that still take the full
   step. */
SG_ALWAYS_INLINE void sg256_fast_block(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t i,
                                       __m256 zero, sg256_fast16_fn fast, sg256_step16_fn step,
                                       int pf, unsigned *full) {
    const uint16_t *gb = g + i, *ob = o + i;
    if (pf) { /* the block's two lines of each input */
        sg256_prefetch_ahead(gb);
        sg256_prefetch_ahead(gb + 32);
        sg256_prefetch_ahead(ob);
        sg256_prefetch_ahead(ob + 32);
    }
    if (*full == 0) {
        __m256 acc = _mm256_set1_ps(1.0f);
        __m256i r0 = fast(gb, ob, zero, &acc);
        __m256i r1 = fast(gb + 16, ob + 16, zero, &acc);
        __m256i r2 = fast(gb + 32, ob + 32, zero, &acc);
        __m256i r3 = fast(gb + 48, ob + 48, zero, &acc);
        if (!sg256_nonfinite(acc)) {
            sg256_store4(y + i, r0, r1, r2, r3);
            return;
        }
        *full = SG256_FULL_AFTER + 1;
    }
    --*full;
    gb = sg_launder16(gb);
    ob = sg_launder16(ob);
    sg256_store4(y + i, step(gb, ob, zero), step(gb + 16, ob + 16, zero),
                 step(gb + 32, ob + 32, zero), step(gb + 48, ob + 48, zero));
}

/* The loop of a 16-bit kernel with a fast path (f16_avx2.c, bf16_avx2.c). A block's four
   results stay in registers until acc is checked; a flagged block is computed again with step
   before anything is stored (so every input is read before y is written, even when y and an
   input are one memory under two addresses), reading its inputs again through sg_launder16
   (kernel.h: so the compiler keeps nothing of the fast step for it), and so are the next
   SG256_FULL_AFTER blocks, so inputs dense in special values cost about one pass. When y partly
   overlaps g or o (the API refuses that), only the plain step loop runs, which keeps the element
   order. Calls that move SG_NT_MIN_BYTES or more peel to a 32-byte aligned y and run in two
   sub-streams (x86_nt.h), prefetching the inputs SG256_PLAIN_PF_BYTES ahead. Every call stores
   plainly: on the Zen 5 VM the two kernels, whose steps take about as many cycles per byte as
   DRAM does, ran 16M-element calls from DRAM 1.15-1.21 (bf16) and 1.18-1.20 (f16) times as fast
   with plain stores and the 2 KiB prefetch as with streaming stores and a 4 KiB prefetch; from
   64M up bf16 kept its gain (1.22-1.27) and f16 ran even (0.97-1.05) (docs/dispatch.md, "Stores
   and prefetch (x86)"). */
SG_ALWAYS_INLINE void sg256_fast_loop(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t n,
                                      __m256 zero, sg256_fast16_fn fast, sg256_step16_fn step,
                                      sg256_rest_fn rest) {
    int overlap = sg_partial_overlap(g, o, y, n, 2);
    int big = !overlap && n * 6 >= SG_NT_MIN_BYTES && ((uintptr_t)y & 1) == 0;
    size_t i = 0;
    if (big) {
        i = sg256_peel(y, n, 2);
        rest(g, o, y, i);
    }
    unsigned full = 0, full2 = 0;
    /* two sub-streams (SG_STREAMS, x86_nt.h), each with its own count of full blocks, written
       out with named counters as in sg512_fast_loop */
    size_t part = big ? sg_part_elems(n - i, 2, SG256_BLOCK, SG_STREAMS) : 0;
    for (size_t e = i; e < i + part; e += SG256_BLOCK) {
        sg256_fast_block(g, o, y, e, zero, fast, step, big, &full);
        sg256_fast_block(g, o, y, e + part, zero, fast, step, big, &full2);
    }
    i += SG_STREAMS * part;
    for (; !overlap && n - i >= SG256_BLOCK; i += SG256_BLOCK)
        sg256_fast_block(g, o, y, i, zero, fast, step, big, &full);
    for (; n - i >= 16; i += 16) sg256_store(y + i, step(g + i, o + i, zero), 0);
    rest(g + i, o + i, y + i, n - i);
}

#endif /* SELUGRAD_KERNELS_AVX2_SG_AVX2_H */
