/*
 * float16 SeluGrad, AVX-512F (+VL/BW for the masked tail), 16 lanes x 2 per step.
 * Roundings: g and o widen exactly to fp32. a = g * scale and b = g * t are exact in fp32 (two
 * 11-bit significands), so rounding after the select is the per-op fp16 rounding of the chosen
 * branch: one VCVTPS2PH (RNE) for the result instead of two. t = o + SA is rounded to fp16
 * before the multiply, in fp32 arithmetic (sg512_round_f16_sum: four single-uop operations
 * where a VCVTPS2PH/VCVTPH2PS round trip takes two multi-uop conversions). NaN canonicalised in
 * fp32.
 * Fast path (sg512_fast_loop, sg_avx512.h): blocks of 128 elements round t by a multiply and an
 * FMA (Veltkamp's split at 11 bits, as the AVX2 kernel: exact for every o + SA that occurs, NaN
 * for o = -inf) and skip the NaN fix-up; one FMA per 32 elements flags a block with a product
 * that was not finite, which is computed again with the full step.
 * Tail: masked 16-bit load/store steps. Large calls peel to a 64-byte aligned y and use
 * streaming stores (x86_nt.h), then SFENCE.
 */
#include "sg_avx512.h"

/* The fp32 product g * (o < 0 ? t : scale) of 16 elements, t rounded by sg512_round_f16_sum
   (fast == 0) or by the split (fast == 1). zero: +0.0 from sg_opaque_zero (kernel.h), in every
   function below. */
static inline __m512 sg_f16_product(__m256i gh, __m256i oh, __m512 zero, int fast) {
    const __m512 scale = _mm512_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m512 sa = _mm512_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m512 g = _mm512_cvtph_ps(gh), o = _mm512_cvtph_ps(oh);
    __m512 s = _mm512_add_ps(o, sa);
    __m512 t = fast ? _mm512_fmadd_ps(s, _mm512_set1_ps(8192.0f),
                                      _mm512_mul_ps(s, _mm512_set1_ps(-8191.0f)))
                    : sg512_round_f16_sum(s);
    return sg512_select(g, o, t, scale, zero);
}

static inline __m256i sg_f16_step(__m256i gh, __m256i oh, __m512 zero) {
    return _mm512_cvtps_ph(sg512_canon_nan(sg_f16_product(gh, oh, zero, 0)), SG512_RNE);
}

/* Elements [0, m) with m < 32, by masked loads and stores (16 at a time). */
static inline void sg_f16_masked(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t m,
                                 __m512 zero) {
    for (size_t i = 0; i < m; i += 16) {
        __mmask16 k = sg512_mask16(m - i < 16 ? m - i : 16);
        __m256i r = sg_f16_step(_mm256_maskz_loadu_epi16(k, g + i),
                                _mm256_maskz_loadu_epi16(k, o + i), zero);
        _mm256_mask_storeu_epi16(y + i, k, r);
    }
}

/* 32 results for the elements at g and o: the full step. */
static inline __m512i sg_f16_step32(const uint16_t *g, const uint16_t *o, __m512 zero) {
    __m256i r0 = sg_f16_step(_mm256_loadu_si256((const __m256i *)g),
                             _mm256_loadu_si256((const __m256i *)o), zero);
    __m256i r1 = sg_f16_step(_mm256_loadu_si256((const __m256i *)(g + 16)),
                             _mm256_loadu_si256((const __m256i *)(o + 16)), zero);
    return _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
}

/* The fast step: NaN words not yet canonical; *acc += p0 * p1 flags a product that was not
   finite. */
static inline __m512i sg_f16_fast32(const uint16_t *g, const uint16_t *o, __m512 zero,
                                    __m512 *acc) {
    __m512 p0 = sg_f16_product(_mm256_loadu_si256((const __m256i *)g),
                               _mm256_loadu_si256((const __m256i *)o), zero, 1);
    __m512 p1 = sg_f16_product(_mm256_loadu_si256((const __m256i *)(g + 16)),
                               _mm256_loadu_si256((const __m256i *)(o + 16)), zero, 1);
    *acc = _mm512_fmadd_ps(p0, p1, *acc);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtps_ph(p0, SG512_RNE)),
                              _mm512_cvtps_ph(p1, SG512_RNE), 1);
}

void sg_f16_selugrad__avx512(size_t n, const void *g, const void *o, void *y) {
    sg512_fast_loop((const uint16_t *)g, (const uint16_t *)o, (uint16_t *)y, n,
                    _mm512_set1_ps(sg_opaque_zero()), sg_f16_fast32, sg_f16_step32, sg_f16_masked);
}
