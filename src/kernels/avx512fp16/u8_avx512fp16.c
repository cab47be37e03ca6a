/*
 * uint8 SeluGrad, native AVX512-FP16 + AVX512_VBMI. o is never negative, so the result
 * sat(rne(round16(g * scale))) depends on g alone.
 * Small calls compute it (small_int_avx512fp16.h; negative int16 values, which unsigned inputs
 * never give, are clamped to 0 before the unsigned saturating narrow). Larger calls compute all
 * 256 results that way into four registers, then look each g up: 64 bytes per step with two
 * VPERMI2B (128 entries each, index g & 127) and a byte select on bit 7 of g.
 */
#include "small_int_avx512fp16.h"

static inline __m256i sg_u8_narrow(__m512i q) {
    return _mm512_cvtusepi16_epi8(_mm512_max_epi16(q, _mm512_setzero_si512()));
}

SG_SMALL_INT_STEP(u8, uint8_t, _mm512_cvtepu8_epi16, sg_u8_narrow)

/* The results for g = 64 j .. 64 j + 63. */
static inline __m512i sg_u8_table(int j) {
    __m512i g0 = sgh_iota16(64 * j), g1 = sgh_iota16(64 * j + 32);
    __m512h s = sgh_bits(SG_F16_SCALE_BITS);
    __m512i q0 = _mm512_cvt_roundph_epi16(_mm512_mul_ph(_mm512_cvtepi16_ph(g0), s), SGH_RNE);
    __m512i q1 = _mm512_cvt_roundph_epi16(_mm512_mul_ph(_mm512_cvtepi16_ph(g1), s), SGH_RNE);
    const __m512i lo = _mm512_setzero_si512(), hi = _mm512_set1_epi16(255);
    return sgh_low_bytes(_mm512_min_epi16(_mm512_max_epi16(q0, lo), hi),
                         _mm512_min_epi16(_mm512_max_epi16(q1, lo), hi));
}

void sg_u8_selugrad__avx512fp16(size_t n, const void *gv, const void *ov, void *yv) {
    const uint8_t *g = (const uint8_t *)gv, *o = (const uint8_t *)ov;
    uint8_t *y = (uint8_t *)yv;
    if (n < SG_SMALL_INT_TABLE_MIN) {
        sg_u8_masked(g, o, y, n);
        return;
    }
    const __m512i t0 = sg_u8_table(0), t1 = sg_u8_table(1), t2 = sg_u8_table(2),
                  t3 = sg_u8_table(3);
#define SG_U8_STEP64(gx, ox)                                                                       \
    _mm512_mask_blend_epi8(_mm512_movepi8_mask(gx), _mm512_permutex2var_epi8(t0, gx, t1),          \
                           _mm512_permutex2var_epi8(t2, gx, t3))
    SG512_STREAM_LOOP(uint8_t, g, o, y, n, SG_U8_STEP64, sg_u8_masked, 0);
#undef SG_U8_STEP64
}
