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
 * Fast path (sg512_fast_loop, sg_avx512.h): blocks of 128 elements run without the two fix-ups
 * only special inputs need (sg512_bf16_step_fast: 20 instructions per 32 elements instead of 23)
 * while an FMA accumulator tracks whether any product was not
 * finite, which every case the fix-ups would change has; such a block is computed again with the
 * full step before anything is stored. Checked on all 2^32 (g, o) pairs, every pair with a
 * finite result also through the fast step (tests/exhaustive/all_pairs16.c).
 */
#include "sg_avx512.h"

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

/* Elements [0, m) with m < 32, by masked loads and stores (zero: unused, the loops' interface). */
static inline void sg512_bf16_masked(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t m,
                                     __m512 zero) {
    (void)zero;
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

/* The full and the fast step on the 32 elements at g and o (zero: unused). */
static inline __m512i sg512_bf16_step_at(const uint16_t *g, const uint16_t *o, __m512 zero) {
    (void)zero;
    return sg512_bf16_step(_mm512_loadu_si512(g), _mm512_loadu_si512(o));
}
static inline __m512i sg512_bf16_fast_at(const uint16_t *g, const uint16_t *o, __m512 zero,
                                         __m512 *acc) {
    (void)zero;
    return sg512_bf16_step_fast(_mm512_loadu_si512(g), _mm512_loadu_si512(o), acc);
}

void sg_bf16_selugrad__avx512(size_t n, const void *g, const void *o, void *y) {
    sg512_fast_loop((const uint16_t *)g, (const uint16_t *)o, (uint16_t *)y, n, _mm512_setzero_ps(),
                    sg512_bf16_fast_at, sg512_bf16_step_at, sg512_bf16_masked);
}
