/*
 * bfloat16 SeluGrad, AVX2, 16 lanes per step as two fp32 halves (even elements widened by a
 * shift, odd ones by a mask; no cross-lane conversion).
 * Roundings: the branch is chosen on the packed 16-bit o first: lanes that do not take o < 0
 * (o >= 0, -0, NaN) get o' = C = scale - SA (0xBF36, exact), the others keep o, so that t =
 * bf16(o' + SA) is t where o < 0 and exactly scale elsewhere (bf16 rounding is integer RNE:
 * x + 0x7FFF + lsb). One fp32 multiply g * t then gives a or b exactly; the 16 products are rounded
 * to bf16 (integer RNE) and packed in one pass on 16-bit words, NaN words canonicalised there
 * (sg256_bf16_pack_rne). Tail: the reference, element by element. Large calls peel to a 32-byte
 * aligned y and stream their stores with prefetched inputs (x86_nt.h), then SFENCE.
 */
#include "sg_avx2.h"

/* o' = o < 0 ? o : C on packed bf16 bits: o < 0 (not -0, not NaN) is o in [0x8001, 0xFF80],
   that is o - 1 in [0x8000, 0xFF7F], the signed 16-bit values below -128 (one subtraction and
   one signed compare; -0 becomes 0x7FFF and the negative NaNs -128 .. -2). */
static inline __m256i sg_bf16_branch_o(__m256i ox) {
    __m256i v = _mm256_sub_epi16(ox, _mm256_set1_epi16(1));
    __m256i neg = _mm256_cmpgt_epi16(_mm256_set1_epi16(-128), v);
    return sg256_select16(neg, ox, _mm256_set1_epi16((short)0xBF36));
}

/* bf16(o' + SA) for fp32 o' (an element's bf16 value), in fp32. */
static inline __m256 sg_bf16_factor(__m256 o) {
    const __m256 sa = sg256_bits((uint32_t)SG_BF16_SA_BITS << 16);
    __m256i tx = sg256_bf16_round_hi(_mm256_castps_si256(_mm256_add_ps(o, sa)));
    return _mm256_castsi256_ps(_mm256_and_si256(tx, _mm256_set1_epi32((int)0xFFFF0000u)));
}

static inline __m256i sg_bf16_step(__m256i gx, __m256i ox) {
    const __m256i hi = _mm256_set1_epi32((int)0xFFFF0000u);
    __m256i oc = sg_bf16_branch_o(ox);
    __m256 fe = sg_bf16_factor(_mm256_castsi256_ps(_mm256_slli_epi32(oc, 16)));
    __m256 fo = sg_bf16_factor(_mm256_castsi256_ps(_mm256_and_si256(oc, hi)));
    __m256 re = _mm256_mul_ps(_mm256_castsi256_ps(_mm256_slli_epi32(gx, 16)), fe);
    __m256 ro = _mm256_mul_ps(_mm256_castsi256_ps(_mm256_and_si256(gx, hi)), fo);
    return sg256_bf16_pack_rne(_mm256_castps_si256(re), _mm256_castps_si256(ro));
}

/* 16 results for the elements at g and o. */
static inline __m256i sg_bf16_step_at(const uint16_t *g, const uint16_t *o) {
    return sg_bf16_step(_mm256_loadu_si256((const __m256i *)g),
                        _mm256_loadu_si256((const __m256i *)o));
}

void sg_bf16_selugrad__avx2(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    SG256_STREAM_LOOP(uint16_t, 16, g, o, y, n, sg_bf16_step_at, sg_ref_bf16, 1);
}
