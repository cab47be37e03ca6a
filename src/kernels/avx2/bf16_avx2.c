/*
 * bfloat16 SeluGrad, AVX2, 16 lanes per step as two fp32 halves (even elements widened by a
 * shift, odd ones by a mask; no cross-lane conversion).
 * Roundings: t = o + SA rounded to bf16 before the multiply; the factor (o < 0 ? t : scale) is
 * selected first, so one fp32 multiply gives a or b, rounded to bf16 once (as the reference). bf16
 * rounding is integer RNE (x + 0x7FFF + lsb). NaN canonicalised in fp32. Tail: the reference,
 * element by element.
 */
#include "sg_avx2.h"

/* SeluGrad on fp32 values; the bf16 result is in the high 16 bits of each lane. */
static inline __m256i sg_bf16_half(__m256 g, __m256 o) {
    const __m256i hi = _mm256_set1_epi32((int)0xFFFF0000u);
    const __m256 scale = sg256_bits((uint32_t)SG_BF16_SCALE_BITS << 16);
    const __m256 sa = sg256_bits((uint32_t)SG_BF16_SA_BITS << 16);
    __m256i tx = sg256_bf16_round_hi(_mm256_castps_si256(_mm256_add_ps(o, sa)));
    __m256 t = _mm256_castsi256_ps(_mm256_and_si256(tx, hi)); /* NaN t is never selected */
    __m256 r = sg256_canon_nan(sg256_select(g, o, t, scale));
    return sg256_bf16_round_hi(_mm256_castps_si256(r));
}

static inline __m256i sg_bf16_step(__m256i gx, __m256i ox) {
    const __m256i hi = _mm256_set1_epi32((int)0xFFFF0000u);
    __m256i even = sg_bf16_half(_mm256_castsi256_ps(_mm256_slli_epi32(gx, 16)),
                                _mm256_castsi256_ps(_mm256_slli_epi32(ox, 16)));
    __m256i odd = sg_bf16_half(_mm256_castsi256_ps(_mm256_and_si256(gx, hi)),
                               _mm256_castsi256_ps(_mm256_and_si256(ox, hi)));
    /* odd results keep their high 16-bit words, even ones move down into the low words */
    return _mm256_blend_epi16(_mm256_srli_epi32(even, 16), odd, 0xAA);
}

void sg_bf16_selugrad__avx2(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm256_storeu_si256((__m256i *)(y + i),
                            sg_bf16_step(_mm256_loadu_si256((const __m256i *)(g + i)),
                                         _mm256_loadu_si256((const __m256i *)(o + i))));
    for (; i < n; i++) y[i] = sg_ref_bf16(g[i], o[i]);
}
