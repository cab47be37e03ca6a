/*
 * float16 SeluGrad, AVX-512F (+VL/BW for the masked tail), 16 lanes x 2 per step.
 * Roundings: g and o widen exactly to fp32. a = g * scale and b = g * t are exact in fp32 (two
 * 11-bit significands), so rounding after the select is the per-op fp16 rounding of the chosen
 * branch: one VCVTPS2PH (RNE) for the result instead of two. t = o + SA is rounded to fp16
 * before the multiply (round trip through VCVTPS2PH/VCVTPH2PS). NaN canonicalised in fp32.
 * Tail: one masked 16-bit load/store step.
 */
#include "sg_avx512.h"

static inline __m256i sg_f16_step(__m256i gh, __m256i oh) {
    const __m512 scale = _mm512_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m512 sa = _mm512_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m512 g = _mm512_cvtph_ps(gh), o = _mm512_cvtph_ps(oh);
    __m512 t = sg512_round_f16(_mm512_add_ps(o, sa));
    __m512 r = sg512_canon_nan(sg512_select(g, o, t, scale));
    return _mm512_cvtps_ph(r, SG512_RNE);
}

void sg_f16_selugrad__avx512(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i r0 = sg_f16_step(_mm256_loadu_si256((const __m256i *)(g + i)),
                                 _mm256_loadu_si256((const __m256i *)(o + i)));
        __m256i r1 = sg_f16_step(_mm256_loadu_si256((const __m256i *)(g + i + 16)),
                                 _mm256_loadu_si256((const __m256i *)(o + i + 16)));
        _mm256_storeu_si256((__m256i *)(y + i), r0);
        _mm256_storeu_si256((__m256i *)(y + i + 16), r1);
    }
    for (; i < n; i += 16) {
        size_t m = n - i < 16 ? n - i : 16;
        __mmask16 k = sg512_mask16(m);
        __m256i r =
            sg_f16_step(_mm256_maskz_loadu_epi16(k, g + i), _mm256_maskz_loadu_epi16(k, o + i));
        _mm256_mask_storeu_epi16(y + i, k, r);
    }
}
