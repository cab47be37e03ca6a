/*
 * int8 SeluGrad, AVX-512F/BW: the 16-bit fixed-point form (small_int_fixed.h,
 * small_int_avx512.h), 64 elements per step. K's bytes come from o in 64 byte lanes: the high
 * byte min(o, 0) + 1, the low byte chosen by two compares (o > -18, o >= 0). Measured on Zen 5 in
 * docs/PERFORMANCE.md.
 */
#include "small_int_avx512.h"

static const uint16_t sg_s8_thr[64] = {SG_THR64(SG_S8_THR512)};

static inline __m512i sg_s8_step(__m512i gx, __m512i ox, const void *ctx) {
    (void)ctx;
    const __m512i zero = _mm512_setzero_si512();
    const __m512i t0 = _mm512_loadu_si512(sg_s8_thr), t1 = _mm512_loadu_si512(sg_s8_thr + 32);
    __m512i khi = _mm512_add_epi8(_mm512_min_epi8(ox, zero), _mm512_set1_epi8(1));
    __m512i klo = _mm512_mask_blend_epi8(_mm512_cmpgt_epi8_mask(ox, _mm512_set1_epi8(-18)),
                                         _mm512_set1_epi8((char)SG_SMALL_K_LO_FAR),
                                         _mm512_set1_epi8((char)SG_SMALL_K_LO_NEAR));
    klo = _mm512_mask_mov_epi8(klo, _mm512_cmpgt_epi8_mask(ox, _mm512_set1_epi8(-1)),
                               _mm512_set1_epi8(SG_SMALL_K_LO_SCALE));
    __m512i y0 =
        sg512_fixed_half(_mm512_unpacklo_epi8(zero, gx), _mm512_unpacklo_epi8(klo, khi), 1, t0, t1);
    __m512i y1 =
        sg512_fixed_half(_mm512_unpackhi_epi8(zero, gx), _mm512_unpackhi_epi8(klo, khi), 1, t0, t1);
    return _mm512_packs_epi16(y0, y1);
}

static inline void sg_s8_masked(const void *g, const void *o, void *y, size_t m, const void *ctx) {
    sg512_fixed_masked(g, o, y, m, ctx, sg_s8_step);
}

void sg_s8_selugrad__avx512(size_t n, const void *g, const void *o, void *y) {
    sg512_stream_loop(g, o, y, n, sizeof(int8_t), sg_s8_step, sg_s8_masked, 1, NULL);
}
