/*
 * int8 SeluGrad, AVX-512F/BW: the 16-bit fixed-point form (small_int_fixed.h,
 * small_int_avx512.h), 64 elements per step. K is assembled as for o < 0 in every lane, from
 * bytes of o in 64 byte lanes: the high byte o + 1 (saturated), the low byte by one compare
 * (o > -18); a 16-bit VPMINSW with 269 then gives K = 269 where o >= 0, as the assembled word is at
 * most 194 for o < 0 (o = -1: 0x00C2) and at least 256 + 0xC2 for o >= 0 (test_small_int_fixed
 * checks every o). Five operations per 64 elements where a second compare and a masked move for
 * o >= 0 take six; measured in docs/dispatch.md, "Per-microarchitecture choices".
 */
#include "small_int_avx512.h"

static const uint16_t sg_s8_thr[64] = {SG_THR64(SG_S8_THR512)};

static inline __m512i sg_s8_step(__m512i gx, __m512i ox, const void *ctx) {
    (void)ctx;
    const __m512i zero = _mm512_setzero_si512();
    const __m512i t0 = _mm512_loadu_si512(sg_s8_thr), t1 = _mm512_loadu_si512(sg_s8_thr + 32);
    const __m512i kscale = _mm512_set1_epi16(SG_SMALL_K_SCALE);
    __m512i khi = _mm512_adds_epi8(ox, _mm512_set1_epi8(1));
    __m512i klo = _mm512_mask_blend_epi8(_mm512_cmpgt_epi8_mask(ox, _mm512_set1_epi8(-18)),
                                         _mm512_set1_epi8((char)SG_SMALL_K_LO_FAR),
                                         _mm512_set1_epi8((char)SG_SMALL_K_LO_NEAR));
    __m512i k0 = _mm512_min_epi16(_mm512_unpacklo_epi8(klo, khi), kscale);
    __m512i k1 = _mm512_min_epi16(_mm512_unpackhi_epi8(klo, khi), kscale);
    __m512i y0 = sg512_fixed_half(_mm512_unpacklo_epi8(zero, gx), k0, 1, t0, t1);
    __m512i y1 = sg512_fixed_half(_mm512_unpackhi_epi8(zero, gx), k1, 1, t0, t1);
    return _mm512_packs_epi16(y0, y1);
}

static inline void sg_s8_masked(const void *g, const void *o, void *y, size_t m, const void *ctx) {
    sg512_fixed_masked(g, o, y, m, ctx, sg_s8_step);
}

void sg_s8_selugrad__avx512(size_t n, const void *g, const void *o, void *y) {
    sg512_stream_loop(g, o, y, n, sizeof(int8_t), sg_s8_step, sg_s8_masked, 1, NULL);
}
