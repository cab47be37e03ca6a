/*
 * int8 SeluGrad, AVX-512F/BW/VL/DQ: the float16 row of small_int_avx512.h, 64 elements per step.
 * Per 16 lanes: g and o widen exactly to fp32; t = o + SA rounded to fp16 (VCVTPS2PH/VCVTPH2PS
 * round trip, RNE); the factor o < 0 ? t : scale (o's sign bit) is chosen before one multiply
 * (exact in fp32); the product is rounded to fp16 (round trip) and converted with RNE
 * (VCVTPS2DQ, half to even). 64 results narrow with signed saturating packs (VPACKSSDW,
 * VPACKSSWB) and one VPERMD restores their order. Integer inputs give no NaN, inf or fp16
 * overflow. Tail: the 16-lane path of small_int_avx512.h (VPMOVSDB).
 */
#include "small_int_avx512.h"

/* 16 int32 results (unsaturated) for the bytes at g and o. */
static inline __m512i sg_s8_q(const int8_t *g, const int8_t *o) {
    const __m512 scale = _mm512_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m512 sa = _mm512_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m512i oi = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)o));
    __m512 gf = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)g)));
    __m512 t = sg512_round_f16_sum(_mm512_add_ps(_mm512_cvtepi32_ps(oi), sa));
    __m512 f = _mm512_mask_mov_ps(scale, _mm512_movepi32_mask(oi), t); /* o < 0: the sign bit */
    return _mm512_cvt_roundps_epi32(sg512_round_f16(_mm512_mul_ps(gf, f)), SG512_RNE);
}

void sg_s8_selugrad__avx512(size_t n, const void *gv, const void *ov, void *yv) {
    const int8_t *g = (const int8_t *)gv, *o = (const int8_t *)ov;
    int8_t *y = (int8_t *)yv;
    size_t i = 0;
    /* VPACKSSDW/VPACKSSWB interleave 128-bit lanes: dword k of the packed result holds bytes
       of source (k % 4) lane (k / 4) */
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    for (; i + 64 <= n; i += 64) {
        __m512i w0 = _mm512_packs_epi32(sg_s8_q(g + i, o + i), sg_s8_q(g + i + 16, o + i + 16));
        __m512i w1 =
            _mm512_packs_epi32(sg_s8_q(g + i + 32, o + i + 32), sg_s8_q(g + i + 48, o + i + 48));
        _mm512_storeu_si512(y + i, _mm512_permutexvar_epi32(order, _mm512_packs_epi16(w0, w1)));
    }
    if (i < n) sg512_small_int_loop(g + i, o + i, y + i, n - i, 1, sg_small_int_step);
}
