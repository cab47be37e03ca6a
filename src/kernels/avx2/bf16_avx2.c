/*
 * bfloat16 SeluGrad, AVX2 + FMA, 16 lanes per step as two fp32 halves (even elements widened by a
 * shift, odd ones by a mask; no cross-lane conversion).
 * Roundings: the branch is chosen on the packed 16-bit o first: lanes that do not take o < 0
 * (o >= 0, -0, NaN) get o' = C = scale - SA (0xBF36, exact), the others keep o, so that t =
 * bf16(o' + SA) is t where o < 0 and exactly scale elsewhere. One fp32 multiply g * t then gives a
 * or b exactly; the 16 products are rounded to bf16 (integer RNE) and packed in one pass on
 * 16-bit words (sg256_bf16_pack_rne, which also makes NaN words canonical).
 * Fast path (sg256_fast_loop, sg_avx2.h): blocks of 64 elements round t in fp32 arithmetic (a
 * multiply and an FMA, as sg512_bf16_round_arith: exact for |o' + SA| < 2^112) and pack without
 * the NaN fix-up, 27 vector operations per 16 elements instead of 36. Where either differs from the
 * full step (o <= -2^112 or -inf, whose t overflows to +-inf or NaN; NaN products), a product is
 * not finite, the block's FMA detector flags it and the block is computed again with the full step,
 * which rounds t with integer RNE (x + 0x7FFF + lsb). Tail: the reference, element by element.
 * Large calls peel to a 32-byte aligned y and run in two sub-streams with prefetched inputs and
 * plain stores (sg256_fast_loop, sg_avx2.h).
 */
#include "sg_avx2.h"

/* o' = o < 0 ? o : C on packed bf16 bits: o < 0 (not -0, not NaN) is o in [0x8001, 0xFF80],
   that is o - 1 in [0x8000, 0xFF7F], the signed 16-bit values below -128 (one subtraction and
   one signed compare; -0 becomes 0x7FFF and the negative NaNs -128 .. -2), then one VPBLENDVB. */
static inline __m256i sg_bf16_branch_o(__m256i ox) {
    __m256i v = _mm256_sub_epi16(ox, _mm256_set1_epi16(1));
    __m256i neg = _mm256_cmpgt_epi16(_mm256_set1_epi16(-128), v);
    return _mm256_blendv_epi8(_mm256_set1_epi16((short)0xBF36), ox, neg);
}

/* bf16(o' + SA) for fp32 o' (an element's bf16 value), in fp32: integer RNE (fast == 0), or a
   multiply and an FMA (fast == 1; +-inf or NaN where |o' + SA| >= 2^112). */
static inline __m256 sg_bf16_factor(__m256 o, int fast) {
    const __m256 sa = sg256_bits((uint32_t)SG_BF16_SA_BITS << 16);
    __m256 s = _mm256_add_ps(o, sa);
    if (fast)
        return _mm256_fmadd_ps(s, _mm256_set1_ps(65536.0f),
                               _mm256_mul_ps(s, _mm256_set1_ps(-65535.0f)));
    __m256i tx = sg256_bf16_round_hi(_mm256_castps_si256(s));
    return _mm256_castsi256_ps(_mm256_and_si256(tx, _mm256_set1_epi32((int)0xFFFF0000u)));
}

/* The fp32 products g * t of the 16 elements at g and o: even elements in *re, odd in *ro. */
static inline void sg_bf16_products(const uint16_t *g, const uint16_t *o, int fast, __m256 *re,
                                    __m256 *ro) {
    const __m256i hi = _mm256_set1_epi32((int)0xFFFF0000u);
    __m256i gx = _mm256_loadu_si256((const __m256i *)g);
    __m256i oc = sg_bf16_branch_o(_mm256_loadu_si256((const __m256i *)o));
    __m256 fe = sg_bf16_factor(_mm256_castsi256_ps(_mm256_slli_epi32(oc, 16)), fast);
    __m256 fo = sg_bf16_factor(_mm256_castsi256_ps(_mm256_and_si256(oc, hi)), fast);
    *re = _mm256_mul_ps(_mm256_castsi256_ps(_mm256_slli_epi32(gx, 16)), fe);
    *ro = _mm256_mul_ps(_mm256_castsi256_ps(_mm256_and_si256(gx, hi)), fo);
}

/* 16 results for the elements at g and o, the full step (zero: unused, the loop's interface). */
static inline __m256i sg_bf16_step_at(const uint16_t *g, const uint16_t *o, __m256 zero) {
    (void)zero;
    __m256 re, ro;
    sg_bf16_products(g, o, 0, &re, &ro);
    return sg256_bf16_pack_rne(_mm256_castps_si256(re), _mm256_castps_si256(ro));
}

/* The same without the fix-ups; *acc += re * ro flags a product that was not finite. */
static inline __m256i sg_bf16_fast_at(const uint16_t *g, const uint16_t *o, __m256 zero,
                                      __m256 *acc) {
    (void)zero;
    __m256 re, ro;
    sg_bf16_products(g, o, 1, &re, &ro);
    *acc = _mm256_fmadd_ps(re, ro, *acc);
    return sg256_bf16_pack(_mm256_castps_si256(re), _mm256_castps_si256(ro));
}

/* Elements [0, m) by the reference. */
static inline void sg_bf16_rest(const void *g, const void *o, void *y, size_t m) {
    const uint16_t *gp = (const uint16_t *)g, *op = (const uint16_t *)o;
    uint16_t *yp = (uint16_t *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_bf16(gp[i], op[i]);
}

void sg_bf16_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_fast_loop((const uint16_t *)g, (const uint16_t *)o, (uint16_t *)y, n, _mm256_setzero_ps(),
                    sg_bf16_fast_at, sg_bf16_step_at, sg_bf16_rest);
}
