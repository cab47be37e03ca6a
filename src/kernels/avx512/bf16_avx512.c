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
 */
#include "sg_avx512.h"

/* The factor o < 0 ? bf16(o + SA) : scale, in fp32 (NaN and -0 o take scale). */
static inline __m512 sg512_bf16_factor(__m512 o) {
    const __m512 scale = sg512_bits((uint32_t)SG_BF16_SCALE_BITS << 16);
    const __m512 sa = sg512_bits((uint32_t)SG_BF16_SA_BITS << 16);
    __m512 s = _mm512_mask_add_ps(scale, sg512_neg(o), o, sa);
    return sg512_bf16_keep_big(s, sg512_bf16_round_arith(s));
}

static inline __m512i sg512_bf16_step(__m512i gx, __m512i ox) {
    const __m512i hi = _mm512_set1_epi32((int)0xFFFF0000u);
    __m512 fe = sg512_bf16_factor(_mm512_castsi512_ps(_mm512_slli_epi32(ox, 16)));
    __m512 fo = sg512_bf16_factor(_mm512_castsi512_ps(_mm512_and_si512(ox, hi)));
    __m512 re = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_slli_epi32(gx, 16)), fe);
    __m512 ro = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_and_si512(gx, hi)), fo);
    return sg512_bf16_pack_rne(_mm512_castps_si512(sg512_canon_nan(re)),
                               _mm512_castps_si512(sg512_canon_nan(ro)));
}

/* Elements [0, m) with m < 32, by masked loads and stores. */
static inline void sg512_bf16_masked(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t m) {
    __mmask32 k = sg512_mask32(m);
    __m512i r = sg512_bf16_step(_mm512_maskz_loadu_epi16(k, g), _mm512_maskz_loadu_epi16(k, o));
    _mm512_mask_storeu_epi16(y, k, r);
}

void sg_bf16_selugrad__avx512(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    SG512_STREAM_LOOP(uint16_t, g, o, y, n, sg512_bf16_step, sg512_bf16_masked, 1);
}
