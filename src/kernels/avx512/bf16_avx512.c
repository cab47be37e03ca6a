/*
 * bfloat16 SeluGrad, AVX-512F/BW, 32 lanes per step as two fp32 halves: a 32-bit lane holds an
 * even element (low 16 bits, widened by a shift) and an odd one (high 16 bits, widened by a
 * mask), so no cross-lane conversion is needed.
 * Roundings: the factor f = o < 0 ? t : scale is chosen before rounding: s = o < 0 ? o + SA :
 * scale (one masked fp32 add), then s is rounded to bf16 in fp32 arithmetic
 * (sg512_bf16_round_arith: a multiply and an FMA), which leaves scale unchanged and gives t. Lanes
 * with |s| >= 2^112 (o <= -2^112 or -inf, where o + SA rounds to o) keep s
 * (sg512_bf16_keep_big). One fp32 multiply g * f then gives a or b exactly; NaN results are
 * canonicalised in fp32, and the 32 products are rounded to bf16 (integer RNE) and packed in one
 * pass on 16-bit words gathered by byte shuffles (sg512_bf16_pack_rne). Never VCVTNEPS2BF16 (it
 * flushes subnormals). Tail: one masked 16-bit load/store step. Large calls peel to a 64-byte
 * aligned y and use streaming stores (x86_nt.h), then SFENCE.
 * Fast path (unless y partly overlaps g or o; in place is fine): blocks of 128 elements run
 * without the two fix-ups only special inputs need (sg512_bf16_step_fast: 20 instructions per
 * 32 elements instead of 23; docs/PERFORMANCE.md session 12) while an FMA accumulator tracks
 * whether any product was not finite, which every case the fix-ups would change has; such a
 * block is computed again with the full step before anything is stored. Checked on all 2^32
 * (g, o) pairs, where most blocks hold special values.
 */
#include "sg_avx512.h"

/* The fast path (sg_bf16_selugrad__avx512) works in blocks of four steps, 128 elements, whose
   results stay in registers until the block is known to need no second pass (eight steps per
   block were 5-11 % slower: too many live registers); after a block that needed one, the next
   SG_BF16_FULL_AFTER blocks take the full step directly. */
#define SG_BF16_FULL_AFTER 32

/* The factor o < 0 ? bf16(o + SA) : scale, in fp32 (NaN and -0 o take scale). Without the
   fix-up (full == 0: the fast step below), o <= -2^112 and -inf give +-inf or NaN instead. */
static inline __m512 sg512_bf16_factor(__m512 o, int full) {
    const __m512 scale = sg512_bits((uint32_t)SG_BF16_SCALE_BITS << 16);
    const __m512 sa = sg512_bits((uint32_t)SG_BF16_SA_BITS << 16);
    __m512 s = _mm512_mask_add_ps(scale, sg512_neg(o, _mm512_setzero_ps()), o, sa);
    __m512 r = sg512_bf16_round_arith(s);
    return full ? sg512_bf16_keep_big(s, r) : r;
}

/* The fp32 products g * f of a step's even (*re) and odd (*ro) elements. */
static inline void sg512_bf16_products(__m512i gx, __m512i ox, int full, __m512 *re, __m512 *ro) {
    const __m512i hi = _mm512_set1_epi32((int)0xFFFF0000u);
    __m512 fe = sg512_bf16_factor(_mm512_castsi512_ps(_mm512_slli_epi32(ox, 16)), full);
    __m512 fo = sg512_bf16_factor(_mm512_castsi512_ps(_mm512_and_si512(ox, hi)), full);
    *re = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_slli_epi32(gx, 16)), fe);
    *ro = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_and_si512(gx, hi)), fo);
}

static inline __m512i sg512_bf16_step(__m512i gx, __m512i ox) {
    __m512 re, ro;
    sg512_bf16_products(gx, ox, 1, &re, &ro);
    return sg512_bf16_pack_rne(_mm512_castps_si512(sg512_canon_nan(re)),
                               _mm512_castps_si512(sg512_canon_nan(ro)));
}

/* Elements [0, m) with m < 32, by masked loads and stores. */
static inline void sg512_bf16_masked(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t m) {
    __mmask32 k = sg512_mask32(m);
    __m512i r = sg512_bf16_step(_mm512_maskz_loadu_epi16(k, g), _mm512_maskz_loadu_epi16(k, o));
    _mm512_mask_storeu_epi16(y, k, r);
}

/* The step without the two fix-ups that only special inputs need (sg512_bf16_keep_big for o <=
   -2^112 or -inf, sg512_canon_nan for NaN products), four of its 23 vector instructions: for
   other inputs it gives the same words. Where it would not, a product is not finite (g NaN or
   +-inf, or the factor of a huge o rounded to +-inf or NaN). *acc += re * ro (one FMA, only a
   detector: no result depends on it) then becomes and stays NaN or inf; finite products keep it
   finite unless the sum overflows, which only costs a needless second pass. */
static inline __m512i sg512_bf16_step_fast(__m512i gx, __m512i ox, __m512 *acc) {
    __m512 re, ro;
    sg512_bf16_products(gx, ox, 0, &re, &ro);
    *acc = _mm512_fmadd_ps(re, ro, *acc);
    return sg512_bf16_pack_rne(_mm512_castps_si512(re), _mm512_castps_si512(ro));
}

/* Stores r at y, streaming or not. */
static inline void sg512_bf16_store(uint16_t *y, __m512i r, int stream) {
    if (stream)
        _mm512_stream_si512((void *)y, r);
    else
        _mm512_storeu_si512(y, r);
}

void sg_bf16_selugrad__avx512(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    if (sg_partial_overlap(g, o, y, n, 2)) {
        /* A partial overlap (the API refuses it; a direct caller keeps the old element order). */
        SG512_STREAM_LOOP(uint16_t, g, o, y, n, sg512_bf16_step, sg512_bf16_masked, 1);
        return;
    }
    size_t i = 0;
    int stream = n * 6 >= SG_NT_MIN_BYTES && ((uintptr_t)y & 1) == 0;
    if (stream) { /* peel (at most 31 elements) to a 64-byte aligned y */
        i = ((64 - ((uintptr_t)y & 63)) & 63) / 2;
        if (i > n) i = n;
        if (i) sg512_bf16_masked(g, o, y, i);
    }
    unsigned full = 0; /* blocks left to take the full step directly */
    /* prefetch distances as SG512_STREAM_LOOP's: into L1 from far for streaming calls, from L2 */
    size_t pf = stream ? SG_PF_BYTES : SG_PF_PLAIN_BYTES;
    for (; n - i >= 128; i += 128) {
        for (size_t l = 0; l < 256; l += 64) { /* the block's four lines of each input, ahead */
            _mm_prefetch((const char *)(g + i) + pf + l, _MM_HINT_T0);
            _mm_prefetch((const char *)(o + i) + pf + l, _MM_HINT_T0);
        }
        /* The block's four results stay in registers (written out step by step: a loop over an
           array of them is kept in memory at -O2, 20 % slower) until it is known which step
           gives them, so every input is read before y is written (kernel.h), even when y and an
           input are one memory under two addresses. */
        const uint16_t *gb = g + i, *ob = o + i;
        __m512i r0, r1, r2, r3;
        if (full == 0) {
            __m512 acc = _mm512_set1_ps(1.0f);
            r0 = sg512_bf16_step_fast(_mm512_loadu_si512(gb), _mm512_loadu_si512(ob), &acc);
            r1 = sg512_bf16_step_fast(_mm512_loadu_si512(gb + 32), _mm512_loadu_si512(ob + 32),
                                      &acc);
            r2 = sg512_bf16_step_fast(_mm512_loadu_si512(gb + 64), _mm512_loadu_si512(ob + 64),
                                      &acc);
            r3 = sg512_bf16_step_fast(_mm512_loadu_si512(gb + 96), _mm512_loadu_si512(ob + 96),
                                      &acc);
            /* a product that was not finite (QNaN, SNaN, +inf, -inf): this block and the next
               SG_BF16_FULL_AFTER take the full step, so inputs dense with special values cost
               about one pass, not two */
            if (_mm512_fpclass_ps_mask(acc, 0x99) != 0) full = SG_BF16_FULL_AFTER + 1;
        }
        if (full != 0) {
            full--;
            r0 = sg512_bf16_step(_mm512_loadu_si512(gb), _mm512_loadu_si512(ob));
            r1 = sg512_bf16_step(_mm512_loadu_si512(gb + 32), _mm512_loadu_si512(ob + 32));
            r2 = sg512_bf16_step(_mm512_loadu_si512(gb + 64), _mm512_loadu_si512(ob + 64));
            r3 = sg512_bf16_step(_mm512_loadu_si512(gb + 96), _mm512_loadu_si512(ob + 96));
        }
        sg512_bf16_store(y + i, r0, stream);
        sg512_bf16_store(y + i + 32, r1, stream);
        sg512_bf16_store(y + i + 64, r2, stream);
        sg512_bf16_store(y + i + 96, r3, stream);
    }
    for (; n - i >= 32; i += 32)
        sg512_bf16_store(
            y + i, sg512_bf16_step(_mm512_loadu_si512(g + i), _mm512_loadu_si512(o + i)), stream);
    if (stream) _mm_sfence();
    if (i < n) sg512_bf16_masked(g + i, o + i, y + i, n - i);
}
