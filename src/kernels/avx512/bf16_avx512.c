/*
 * bfloat16 SeluGrad, AVX-512F/BW, 32 lanes per step as two fp32 halves: a 32-bit lane holds an
 * even element (low 16 bits, widened by a shift) and an odd one (high 16 bits, widened by a
 * mask), so no cross-lane conversion is needed.
 * Roundings: t = o + SA rounded to bf16 before the multiply; the factor (o < 0 ? t : scale) is
 * selected first, so one fp32 multiply gives a or b, rounded to bf16 once (as the reference). bf16
 * rounding is integer RNE (x + 0x7FFF + lsb), never VCVTNEPS2BF16 (it flushes subnormals). NaN
 * canonicalised in fp32. Tail: one masked 16-bit load/store step. Large calls peel to a 64-byte
 * aligned y and use streaming stores (x86_nt.h), then SFENCE.
 */
#include "sg_avx512.h"

/* SeluGrad on fp32 values whose bf16 result is returned in the high 16 bits of each lane. */
static inline __m512i sg_bf16_half(__m512 g, __m512 o) {
    const __m512i hi = _mm512_set1_epi32((int)0xFFFF0000u);
    const __m512 scale = sg512_bits((uint32_t)SG_BF16_SCALE_BITS << 16);
    const __m512 sa = sg512_bits((uint32_t)SG_BF16_SA_BITS << 16);
    __m512i tx = sg512_bf16_round_hi(_mm512_castps_si512(_mm512_add_ps(o, sa)));
    /* the factor: o < 0 ? t (tx's high half) : scale, in one masked AND; NaN o takes scale */
    __m512i f = _mm512_mask_and_epi32(_mm512_castps_si512(scale), sg512_neg(o), tx, hi);
    __m512 r = sg512_canon_nan(_mm512_mul_ps(g, _mm512_castsi512_ps(f)));
    return sg512_bf16_round_hi(_mm512_castps_si512(r));
}

static inline __m512i sg_bf16_step(__m512i gx, __m512i ox) {
    const __m512i hi = _mm512_set1_epi32((int)0xFFFF0000u);
    __m512i even = sg_bf16_half(_mm512_castsi512_ps(_mm512_slli_epi32(gx, 16)),
                                _mm512_castsi512_ps(_mm512_slli_epi32(ox, 16)));
    __m512i odd = sg_bf16_half(_mm512_castsi512_ps(_mm512_and_si512(gx, hi)),
                               _mm512_castsi512_ps(_mm512_and_si512(ox, hi)));
    /* odd results keep their high 16-bit words, even ones move down into the low words */
    return _mm512_mask_blend_epi16((__mmask32)0xAAAAAAAAu, _mm512_srli_epi32(even, 16), odd);
}

/* Elements [0, m) with m < 32, by masked loads and stores. */
static inline void sg_bf16_masked(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t m) {
    __mmask32 k = sg512_mask32(m);
    __m512i r = sg_bf16_step(_mm512_maskz_loadu_epi16(k, g), _mm512_maskz_loadu_epi16(k, o));
    _mm512_mask_storeu_epi16(y, k, r);
}

void sg_bf16_selugrad__avx512(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    size_t i = 0;
    if (n * 6 >= SG_NT_MIN_BYTES && ((uintptr_t)y & 1) == 0) { /* y aligned: the peel ends */
        size_t peel = ((64 - ((uintptr_t)y & 63)) & 63) / 2;   /* at most 31 */
        if (peel) sg_bf16_masked(g, o, y, peel);
        for (i = peel; i + 32 <= n; i += 32)
            _mm512_stream_si512((void *)(y + i),
                                sg_bf16_step(_mm512_loadu_si512(g + i), _mm512_loadu_si512(o + i)));
        _mm_sfence();
    } else {
        for (; i + 32 <= n; i += 32)
            _mm512_storeu_si512(y + i,
                                sg_bf16_step(_mm512_loadu_si512(g + i), _mm512_loadu_si512(o + i)));
    }
    if (i < n) sg_bf16_masked(g + i, o + i, y + i, n - i);
}
