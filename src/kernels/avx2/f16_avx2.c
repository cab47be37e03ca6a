/*
 * float16 SeluGrad, AVX2 + F16C, 8 lanes x 2 per step.
 * Roundings: g and o widen exactly to fp32 (VCVTPH2PS). a = g * scale and b = g * t are exact in
 * fp32, so one VCVTPS2PH (RNE) after the select is the per-op fp16 rounding of the chosen branch;
 * t = o + SA is rounded to fp16 before the multiply. NaN canonicalised in fp32.
 * Tail: the reference, element by element.
 */
#include "sg_avx2.h"

static inline __m128i sg_f16_step(__m128i gh, __m128i oh) {
    const __m256 scale = _mm256_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m256 sa = _mm256_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m256 g = _mm256_cvtph_ps(gh), o = _mm256_cvtph_ps(oh);
    __m256 t = sg256_round_f16(_mm256_add_ps(o, sa));
    __m256 r = sg256_canon_nan(sg256_select(g, o, t, scale));
    return _mm256_cvtps_ph(r, SG256_RNE);
}

void sg_f16_selugrad__avx2(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i r0 = sg_f16_step(_mm_loadu_si128((const __m128i *)(g + i)),
                                 _mm_loadu_si128((const __m128i *)(o + i)));
        __m128i r1 = sg_f16_step(_mm_loadu_si128((const __m128i *)(g + i + 8)),
                                 _mm_loadu_si128((const __m128i *)(o + i + 8)));
        _mm_storeu_si128((__m128i *)(y + i), r0);
        _mm_storeu_si128((__m128i *)(y + i + 8), r1);
    }
    for (; i < n; i++) y[i] = sg_ref_f16(g[i], o[i]);
}
