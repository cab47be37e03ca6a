/*
 * bfloat16 SeluGrad, AVX-512 + AVX512_BF16, 32 lanes per step as two fp32 halves (even elements
 * widened by a shift, odd ones by a mask, as in avx512/bf16_avx512.c).
 * Roundings: VCVTNE2PS2BF16 rounds to nearest even but treats fp32 subnormals as zero, so it may
 * only round values that are zero or normal:
 * - t = o + SA: never subnormal (o is a multiple of SA's ulp near -SA, so o + SA is 0 or at least
 *   2^-7 in magnitude; elsewhere |o + SA| is larger still). One VCVTNE2PS2BF16 rounds both
 *   halves; VPERMW puts the packed words back in element order, and a shift and a mask widen
 *   them to the two halves again (bf16 values are exact in fp32).
 * - the result g * f (f = o < 0 ? t : scale, exact in fp32: two 8-bit significands): rounded by
 *   VCVTNE2PS2BF16 + VPERMW when no lane of the step is an fp32 subnormal (VFPCLASSPS); a step
 *   with one is rounded with integer RNE (sg512_bf16_round_hi), as the avx512 kernel does.
 * NaN results canonicalised in fp32 first (VFIXUPIMMPS), so the instruction's NaN handling never
 * matters. Tail: one masked step. Large calls peel to a 64-byte aligned y and stream (x86_nt.h).
 */
#include "../avx512/sg_avx512.h"

/* VCVTNE2PS2BF16(odd, even) holds the even elements in words 0..15 and the odd ones in words
   16..31; this index puts word k of the element order in place. */
static inline __m512i sg_bf16_interleave(__m512i packed) {
    /* dword j holds the word indexes j (element 2j) and 16 + j (element 2j + 1) */
    const __m512i idx = _mm512_add_epi32(
        _mm512_set1_epi32(16 << 16),
        _mm512_setr_epi32(0, 0x10001, 0x20002, 0x30003, 0x40004, 0x50005, 0x60006, 0x70007, 0x80008,
                          0x90009, 0xA000A, 0xB000B, 0xC000C, 0xD000D, 0xE000E, 0xF000F));
    return _mm512_permutexvar_epi16(idx, packed);
}

/* Rounds two fp32 halves (zero or normal, no NaN) to bf16, packed in element order. */
static inline __m512i sg_bf16_pack(__m512 odd, __m512 even) {
    return sg_bf16_interleave((__m512i)_mm512_cvtne2ps_pbh(odd, even));
}

/* The factor o < 0 ? t : scale for one half, t = bf16(o + SA) taken from tw (the element's
   bf16 in the same 32-bit position as o). */
static inline __m512 sg_bf16_factor(__m512 o, __m512 tw) {
    const __m512 scale = sg512_bits((uint32_t)SG_BF16_SCALE_BITS << 16);
    return _mm512_mask_mov_ps(scale, sg512_neg(o), tw);
}

static inline __m512i sg_bf16_step(__m512i gx, __m512i ox) {
    const __m512i hi = _mm512_set1_epi32((int)0xFFFF0000u);
    const __m512 sa = sg512_bits((uint32_t)SG_BF16_SA_BITS << 16);
    __m512 ge = _mm512_castsi512_ps(_mm512_slli_epi32(gx, 16));
    __m512 go = _mm512_castsi512_ps(_mm512_and_si512(gx, hi));
    __m512 oe = _mm512_castsi512_ps(_mm512_slli_epi32(ox, 16));
    __m512 oo = _mm512_castsi512_ps(_mm512_and_si512(ox, hi));
    /* NaN o gives a NaN sum; the instruction quietens it and the select never takes it */
    __m512i tx = sg_bf16_pack(_mm512_add_ps(oo, sa), _mm512_add_ps(oe, sa));
    __m512 te = _mm512_castsi512_ps(_mm512_slli_epi32(tx, 16));
    __m512 to = _mm512_castsi512_ps(_mm512_and_si512(tx, hi));
    __m512 re = sg512_canon_nan(_mm512_mul_ps(ge, sg_bf16_factor(oe, te)));
    __m512 ro = sg512_canon_nan(_mm512_mul_ps(go, sg_bf16_factor(oo, to)));
    __mmask16 sub = _mm512_fpclass_ps_mask(re, 0x20) | _mm512_fpclass_ps_mask(ro, 0x20);
    if (sub == 0) return sg_bf16_pack(ro, re);
    /* a subnormal product: integer RNE; odd results keep their high words, even ones move down */
    __m512i ye = _mm512_srli_epi32(sg512_bf16_round_hi(_mm512_castps_si512(re)), 16);
    __m512i yo = sg512_bf16_round_hi(_mm512_castps_si512(ro));
    return _mm512_mask_blend_epi16((__mmask32)0xAAAAAAAAu, ye, yo);
}

/* Elements [0, m) with m < 32, by masked loads and stores. */
static inline void sg_bf16_masked(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t m) {
    __mmask32 k = sg512_mask32(m);
    __m512i r = sg_bf16_step(_mm512_maskz_loadu_epi16(k, g), _mm512_maskz_loadu_epi16(k, o));
    _mm512_mask_storeu_epi16(y, k, r);
}

void sg_bf16_selugrad__avx512bf16(size_t n, const void *gv, const void *ov, void *yv) {
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
