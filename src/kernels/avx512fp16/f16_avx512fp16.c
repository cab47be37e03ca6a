/*
 * float16 SeluGrad, native AVX512-FP16, 32 lanes per step.
 * Roundings: a = g * scale, t = o + SA, b = g * t, each one native fp16 operation (RNE, no FMA,
 * subnormals kept); select on o < 0; NaN results become 0x7E00. Tail: one masked step.
 * Untested on the development machine (no AVX512-FP16 there); the tests skip it by name.
 */
#include "sg_avx512fp16.h"

static inline __m512h sg_f16_step(__m512h g, __m512h o) {
    __m512h r = sgh_selugrad(g, o);
    __mmask32 nan = _mm512_cmp_ph_mask(r, r, _CMP_UNORD_Q);
    return _mm512_mask_blend_ph(nan, r, sgh_bits(SG_F16_QNAN_BITS));
}

void sg_f16_selugrad__avx512fp16(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        _mm512_storeu_ph(y + i, sg_f16_step(_mm512_loadu_ph(g + i), _mm512_loadu_ph(o + i)));
    if (i < n) {
        __mmask32 k = sgh_mask32(n - i);
        __m512h gh = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(k, g + i));
        __m512h oh = _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(k, o + i));
        _mm512_mask_storeu_epi16(y + i, k, _mm512_castph_si512(sg_f16_step(gh, oh)));
    }
}
