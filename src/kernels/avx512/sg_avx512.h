/*
 * Helpers shared by the AVX-512 (F/BW/VL/DQ) kernels. Every operation is one IEEE operation in
 * fp32 with round-to-nearest-even (the library runs kernels under the default MXCSR); fp16
 * rounding uses VCVTPS2PH with an explicit RNE immediate or, where the range allows, fp32
 * arithmetic (sg512_round_f16_arith); bf16 rounding uses integer operations or, where the range
 * allows, fp32 arithmetic (sg512_bf16_round_arith), never VCVTNEPS2BF16 (it flushes subnormals).
 */
#ifndef SELUGRAD_KERNELS_AVX512_SG_AVX512_H
#define SELUGRAD_KERNELS_AVX512_SG_AVX512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel.h"
#include "../ref/selugrad_ref.h"
#include "../x86_nt.h"

#define SG512_RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

static inline __m512 sg512_bits(uint32_t u) {
    return _mm512_castsi512_ps(_mm512_set1_epi32((int)u));
}

/* Lanes where o < 0 (false for -0 and NaN); zero is +0.0 in every lane (from sg_opaque_zero
   where o comes from VCVTPH2PS, see kernel.h). */
static inline __mmask16 sg512_neg(__m512 o, __m512 zero) {
    return _mm512_cmp_ps_mask(o, zero, _CMP_LT_OQ);
}

/* y = o < 0 ? g * t : g * scale, each product rounded once to fp32: selecting the factor first
   is the same as selecting the product, and saves a multiply. */
static inline __m512 sg512_select(__m512 g, __m512 o, __m512 t, __m512 scale, __m512 zero) {
    return _mm512_mul_ps(g, _mm512_mask_mov_ps(scale, sg512_neg(o, zero), t));
}

/* Any NaN becomes the canonical fp32 quiet NaN (which also converts to the canonical fp16 and
   bf16 ones). */
static inline __m512 sg512_canon_nan(__m512 r) {
    /* One VFIXUPIMMPS instead of a compare and a masked move: the table (one nibble per input
       class: QNaN, SNaN, 0, +1, -inf, +inf, <0, >0) answers 0 (keep the first operand, the
       canonical NaN) for NaNs and 1 (r itself, unchanged) for everything else. */
    return _mm512_fixupimm_ps(sg512_bits(SG_F32_QNAN_BITS), r, _mm512_set1_epi32(0x11111100), 0);
}

/* Rounds fp32 to the nearest fp16 value (ties to even, subnormals kept), held in fp32. */
static inline __m512 sg512_round_f16(__m512 x) {
    return _mm512_cvtph_ps(_mm512_cvtps_ph(x, SG512_RNE));
}

/* The same rounding without the conversion round trip (VCVTPS2PH/VCVTPH2PS are multi-uop):
   x + c - c with c = +-2^(e+13) (x's sign, e its exponent, at least 2^-1 so that fp16 subnormals
   round to multiples of 2^-24) rounds x to 11 significant bits, RNE, in the default rounding
   mode: x + c lies in c's binade, whose fp32 ulp is x's fp16 ulp. Valid for |x| < 2^115 whose
   fp16 rounding does not overflow, and for +-inf; -0 and tiny negatives come out +0 (callers
   either cannot produce them or do not care about the sign of zero). */
static inline __m512 sg512_round_f16_arith(__m512 x) {
    __m512i xb = _mm512_castps_si512(x);
    __m512i e = _mm512_and_si512(xb, _mm512_set1_epi32(0x7F800000));
    __m512i cb = _mm512_max_epi32(_mm512_add_epi32(e, _mm512_set1_epi32(13 << 23)),
                                  _mm512_set1_epi32(0x3F000000)); /* inf: wraps negative, 2^-1 */
    /* cb | (xb & sign) */
    cb = _mm512_ternarylogic_epi32(cb, xb, _mm512_set1_epi32((int)0x80000000u), 0xF8);
    __m512 c = _mm512_castsi512_ps(cb);
    return _mm512_sub_ps(_mm512_add_ps(x, c), c);
}

/* x = o + SA (o < 0 an fp16 value, or an int8 made fp16) rounded to fp16, nearest even: the
   rounding above without its guards, x + c - c with c = +-2^(e+13) from x's own sign and
   exponent bits. Exact for such x, which is 0, +-inf or at least 2^-10 in magnitude (never an
   fp16 subnormal) and at most 65504 + SA (never an overflow; for -inf, e + 13 wraps to a tiny
   c). Lanes with o >= 0 or NaN get garbage that the select drops. Checked for every o. */
static inline __m512 sg512_round_f16_sum(__m512 x) {
    __m512i se = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32((int)0xFF800000u));
    __m512 c = _mm512_castsi512_ps(_mm512_add_epi32(se, _mm512_set1_epi32(13 << 23)));
    return _mm512_sub_ps(_mm512_add_ps(x, c), c);
}

/* bf16 rounding of non-NaN fp32 bits, ties to even: the result's bits are in the high half
   (the low half is garbage; callers mask or shift it away). */
static inline __m512i sg512_bf16_round_hi(__m512i x) {
    __m512i odd = _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1));
    return _mm512_add_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(0x7FFF)), odd);
}

/* bf16 rounding in fp32 arithmetic, ties to even, the result held in fp32: b = s * (1 - 2^16)
   rounds once to a value whose binade is that of s * 2^16, where the fp32 ulp is s's bf16 ulp;
   b + s * 2^16 (one FMA, the product exact inside it) takes back the exact s * 2^16 and leaves s
   rounded. Checked against integer RNE for every fp32 value: exact for +0 and normal |s| < 2^112;
   -0 gives +0, subnormals are wrong, finite |s| >= 2^112 gives the infinity of -s's sign (except
   for the 128 values of each sign just above 2^112, which come out exact) and +-inf gives NaN
   (callers keep s in those lanes, see sg512_bf16_keep_big). */
static inline __m512 sg512_bf16_round_arith(__m512 s) {
    __m512 b = _mm512_mul_ps(s, _mm512_set1_ps(-65535.0f));
    return _mm512_fmadd_ps(s, _mm512_set1_ps(65536.0f), b);
}

/* r where it is finite, or -inf, else s: one VFIXUPIMMPS whose table (see sg512_canon_nan)
   answers 0 (keep s) for NaN and +inf, 1 (r) for the other classes. */
static inline __m512 sg512_bf16_keep_big(__m512 s, __m512 r) {
    return _mm512_fixupimm_ps(s, r, _mm512_set1_epi32(0x11011100), 0);
}

/* The bf16 results of fp32 values re (even elements) and ro (odd elements), ties to even, packed
   in element order. The values' high halves p and low halves l are first gathered as 16-bit
   words by two merge-masked byte shuffles (p: ro with each dword's low word replaced by re's
   high word; l: re with each high word replaced by ro's low word), one instruction each where a
   shift and a blend take two; p rounds up
   where l > 0x8000, or l == 0x8000 and p is odd, that is where (l | (p & 1)) >= 0x8001: one
   compare and one masked add for all 32 lanes. NaN inputs must be the canonical one (its low
   half is 0: it stays 0x7FC0). */
static inline __m512i sg512_bf16_pack_rne(__m512i re, __m512i ro) {
    const __m512i one = _mm512_set1_epi16(1);
    /* VPSHUFB indexes bytes within each 128-bit lane: dword j's bytes are 4j .. 4j + 3. */
    const __m512i hi_to_lo =
        _mm512_broadcast_i32x4(_mm_set_epi32(0x0F0E0F0E, 0x0B0A0B0A, 0x07060706, 0x03020302));
    const __m512i lo_to_hi =
        _mm512_broadcast_i32x4(_mm_set_epi32(0x0D0C0D0C, 0x09080908, 0x05040504, 0x01000100));
    __m512i p = _mm512_mask_shuffle_epi8(ro, (__mmask64)0x3333333333333333ull, re, hi_to_lo);
    __m512i l = _mm512_mask_shuffle_epi8(re, (__mmask64)0xCCCCCCCCCCCCCCCCull, ro, lo_to_hi);
    l = _mm512_ternarylogic_epi32(l, p, one, 0xF8); /* l | (p & 1) */
    __mmask32 up = _mm512_cmpge_epu16_mask(l, _mm512_set1_epi16((short)0x8001));
    return _mm512_mask_add_epi16(p, up, p, one);
}

/* Mask of the first m (< 64) lanes. */
static inline __mmask16 sg512_mask16(size_t m) {
    return (__mmask16)((1u << m) - 1u);
}
static inline __mmask32 sg512_mask32(size_t m) {
    return (__mmask32)((1ull << m) - 1u);
}

/* Blocks of 128 16-bit elements (four 32-lane steps) for the fast paths below. */
#define SG512_BLOCK      128
#define SG512_FULL_AFTER 32 /* blocks after a flagged one that take the full step directly */

/* Stores four result vectors at y (64-byte aligned when streaming). */
static inline void sg512_store4(uint16_t *y, __m512i r0, __m512i r1, __m512i r2, __m512i r3,
                                int stream) {
    if (stream) {
        _mm512_stream_si512((void *)y, r0);
        _mm512_stream_si512((void *)(y + 32), r1);
        _mm512_stream_si512((void *)(y + 64), r2);
        _mm512_stream_si512((void *)(y + 96), r3);
    } else {
        _mm512_storeu_si512(y, r0);
        _mm512_storeu_si512(y + 32, r1);
        _mm512_storeu_si512(y + 64, r2);
        _mm512_storeu_si512(y + 96, r3);
    }
}

/* The steps of a 16-bit kernel with a fast path: fast(g, o, zero, &acc) computes the 32
   results at g and o without the fix-ups only special inputs need and folds its fp32 products
   into acc (one FMA per step), which ends non-finite exactly when some product was not finite
   (or, harmlessly, when the sum overflowed); step(g, o, zero) is the full step; rest(g, o, y, m,
   zero) does m < 32 elements by masked loads and stores. zero is the kernel's +0.0 for compares
   (sg_opaque_zero, kernel.h), passed through. */
typedef __m512i (*sg512_fast16_fn)(const uint16_t *g, const uint16_t *o, __m512 zero, __m512 *acc);
typedef __m512i (*sg512_step16_fn)(const uint16_t *g, const uint16_t *o, __m512 zero);
typedef void (*sg512_rest16_fn)(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t m,
                                __m512 zero);

/* One block of sg512_fast_loop: the SG512_BLOCK elements at i, after prefetching its inputs pf
   bytes ahead; *full counts the blocks that still take the full step. */
SG_ALWAYS_INLINE void sg512_fast_block(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t i,
                                       __m512 zero, sg512_fast16_fn fast, sg512_step16_fn step,
                                       size_t pf, int stream, unsigned *full) {
    const uint16_t *gb = g + i, *ob = o + i;
    for (size_t l = 0; l < 256; l += 64) { /* the block's four lines, ahead */
        _mm_prefetch((const char *)gb + pf + l, _MM_HINT_T0);
        _mm_prefetch((const char *)ob + pf + l, _MM_HINT_T0);
    }
    if (*full == 0) {
        __m512 acc = _mm512_set1_ps(1.0f);
        __m512i r0 = fast(gb, ob, zero, &acc);
        __m512i r1 = fast(gb + 32, ob + 32, zero, &acc);
        __m512i r2 = fast(gb + 64, ob + 64, zero, &acc);
        __m512i r3 = fast(gb + 96, ob + 96, zero, &acc);
        if (_mm512_fpclass_ps_mask(acc, 0x99) == 0) { /* QNaN, SNaN, +inf, -inf */
            sg512_store4(y + i, r0, r1, r2, r3, stream);
            return;
        }
        *full = SG512_FULL_AFTER + 1;
    }
    --*full;
    gb = sg_launder16(gb);
    ob = sg_launder16(ob);
    sg512_store4(y + i, step(gb, ob, zero), step(gb + 32, ob + 32, zero),
                 step(gb + 64, ob + 64, zero), step(gb + 96, ob + 96, zero), stream);
}

/* The loop of a 16-bit AVX-512 kernel with a fast path (f16_avx512.c, bf16_avx512.c), as
   sg256_fast_loop (avx2/sg_avx2.h) with 32 lanes per step. A block's four results stay in
   registers until acc is checked; a flagged block is computed again with step before anything
   is stored (every input is read before y is written, even when y and an input are one memory
   under two addresses; its inputs are read again through sg_launder16, kernel.h), and so are the
   next SG512_FULL_AFTER blocks. The four results are four named variables, not an array (GCC
   keeps an array of them in memory), and a block is four steps, so that the results, acc and the
   steps' constants stay in registers. When y partly overlaps g or o (the API refuses that), only
   the plain step loop runs, which keeps the element order. Calls that move SG_NT_MIN_BYTES or more
   peel to a 64-byte aligned y and stream their stores in two sub-streams (x86_nt.h),
   prefetching the inputs SG_PF_BYTES ahead (SG_PF_PLAIN_BYTES otherwise), then SFENCE. */
SG_ALWAYS_INLINE void sg512_fast_loop(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t n,
                                      __m512 zero, sg512_fast16_fn fast, sg512_step16_fn step,
                                      sg512_rest16_fn rest) {
    int overlap = sg_partial_overlap(g, o, y, n, 2);
    int stream = !overlap && n * 6 >= SG_NT_MIN_BYTES && ((uintptr_t)y & 1) == 0;
    size_t i = 0;
    if (stream) { /* peel (at most 31 elements) to a 64-byte aligned y */
        i = ((64 - ((uintptr_t)y & 63)) & 63) / 2;
        if (i > n) i = n;
        if (i) rest(g, o, y, i, zero);
    }
    size_t pf = stream ? SG_PF_BYTES : SG_PF_PLAIN_BYTES;
    unsigned full = 0, full2 = 0;
    /* streaming: two sub-streams (SG_STREAMS, x86_nt.h), each with its own count of full blocks;
       written out with named counters, which GCC keeps in registers (an array of them and a loop
       over the parts measured 15-30 % slower from DRAM) */
    size_t part = stream ? sg_part_elems(n - i, 2, SG512_BLOCK, SG_STREAMS) : 0;
    for (size_t e = i; e < i + part; e += SG512_BLOCK) {
        sg512_fast_block(g, o, y, e, zero, fast, step, pf, stream, &full);
        sg512_fast_block(g, o, y, e + part, zero, fast, step, pf, stream, &full2);
    }
    i += SG_STREAMS * part;
    for (; !overlap && n - i >= SG512_BLOCK; i += SG512_BLOCK)
        sg512_fast_block(g, o, y, i, zero, fast, step, pf, stream, &full);
    for (; n - i >= 32; i += 32) {
        __m512i r = step(g + i, o + i, zero);
        if (stream)
            _mm512_stream_si512((void *)(y + i), r);
        else
            _mm512_storeu_si512(y + i, r);
    }
    if (stream) _mm_sfence();
    if (i < n) rest(g + i, o + i, y + i, n - i, zero);
}

#endif /* SELUGRAD_KERNELS_AVX512_SG_AVX512_H */
