/*
 * int8 SeluGrad, native AVX512-FP16 + AVX512_VBMI.
 * Small calls: the computing step of small_int_avx512fp16.h (VPMOVSWB saturation).
 * Larger calls, 64 elements per step: the factor f = o < 0 ? round16(o + SA) : scale depends on
 * o alone; its fp16 bits come from two per-call byte tables (low and high bytes, 128 entries
 * each for o = -128..-1, index o & 127) looked up with VPERMI2B, and scale where o >= 0 (o's sign
 * bit). The tables hold f / 256 (exact: the exponent minus 8, all normal), so that g can widen
 * to 16 bits as g * 256 by an unpack with zero (exact in fp16: 8 significant bits, at most 2^15)
 * and the one fp16 multiply (g * 256) * (f / 256) rounds the same exact product g * f.
 * Then VCVTPH2W (RNE) and a signed saturating pack (VPACKSSWB undoes the unpack order).
 */
#include "small_int_avx512fp16.h"

SG_SMALL_INT_STEP(s8, int8_t, _mm512_cvtepi8_epi16, _mm512_cvtsepi16_epi8)

/* fp16 bits of round16(o + SA) / 256 for o = v0 .. v0 + 31 (all negative). */
static inline __m512i sg_s8_factor(int v0) {
    __m512h t = _mm512_add_ph(_mm512_cvtepi16_ph(sgh_iota16(v0)), sgh_bits(SG_F16_SA_BITS));
    return _mm512_sub_epi16(_mm512_castph_si512(t), _mm512_set1_epi16(8 << 10));
}

/* 32 results (int16) for g and f in 16-bit lanes: g * 256 in the high byte, f / 256 as fp16. */
static inline __m512i sg_s8_mul(__m512i g256, __m512i f) {
    __m512h p = _mm512_mul_ph(_mm512_cvtepi16_ph(g256), _mm512_castsi512_ph(f));
    return _mm512_cvt_roundph_epi16(p, SGH_RNE);
}

/* 64 results from the tables: lo0/lo1 and hi0/hi1 the factor's low and high bytes. */
static inline __m512i sg_s8_step64(__m512i gx, __m512i ox, __m512i lo0, __m512i lo1, __m512i hi0,
                                   __m512i hi1, __m512i sc_lo, __m512i sc_hi) {
    const __m512i zero = _mm512_setzero_si512();
    __mmask64 neg = _mm512_movepi8_mask(ox);
    __m512i fl = _mm512_mask_blend_epi8(neg, sc_lo, _mm512_permutex2var_epi8(lo0, ox, lo1));
    __m512i fh = _mm512_mask_blend_epi8(neg, sc_hi, _mm512_permutex2var_epi8(hi0, ox, hi1));
    __m512i r0 = sg_s8_mul(_mm512_unpacklo_epi8(zero, gx), _mm512_unpacklo_epi8(fl, fh));
    __m512i r1 = sg_s8_mul(_mm512_unpackhi_epi8(zero, gx), _mm512_unpackhi_epi8(fl, fh));
    return _mm512_packs_epi16(r0, r1);
}

void sg_s8_selugrad__avx512fp16(size_t n, const void *gv, const void *ov, void *yv) {
    const int8_t *g = (const int8_t *)gv, *o = (const int8_t *)ov;
    int8_t *y = (int8_t *)yv;
    if (n < SG_SMALL_INT_TABLE_MIN) {
        sg_s8_masked(g, o, y, n);
        return;
    }
    /* index o & 127 is o + 128 for negative o: entries 0..63 are o = -128..-65 */
    __m512i f0 = sg_s8_factor(-128), f1 = sg_s8_factor(-96), f2 = sg_s8_factor(-64),
            f3 = sg_s8_factor(-32);
    const __m512i lo0 = sgh_low_bytes(f0, f1), lo1 = sgh_low_bytes(f2, f3);
    const __m512i hi0 = sgh_low_bytes(_mm512_srli_epi16(f0, 8), _mm512_srli_epi16(f1, 8));
    const __m512i hi1 = sgh_low_bytes(_mm512_srli_epi16(f2, 8), _mm512_srli_epi16(f3, 8));
    const uint16_t sc = (uint16_t)(SG_F16_SCALE_BITS - (8u << 10));
    const __m512i sc_lo = _mm512_set1_epi8((char)(sc & 0xFF)),
                  sc_hi = _mm512_set1_epi8((char)(sc >> 8));
#define SG_S8_STEP64(gx, ox) sg_s8_step64(gx, ox, lo0, lo1, hi0, hi1, sc_lo, sc_hi)
    SG512_STREAM_LOOP(int8_t, g, o, y, n, SG_S8_STEP64, sg_s8_masked, 1);
#undef SG_S8_STEP64
}
