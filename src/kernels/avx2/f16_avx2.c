/*
 * float16 SeluGrad, AVX2 + F16C (+ FMA for the fast path's detector), 8 lanes x 2 per step.
 * Roundings: g and o widen exactly to fp32 (VCVTPH2PS). a = g * scale and b = g * t are exact in
 * fp32, so one VCVTPS2PH (RNE) after the select is the per-op fp16 rounding of the chosen branch;
 * t = o + SA is rounded to fp16 before the multiply, in fp32 arithmetic (sg256_round_f16_sum: four
 * single-uop operations instead of a VCVTPS2PH/VCVTPH2PS pair of two uops each). NaNs are made
 * canonical on the 16 packed results (sg256_canon_nan_f16: half the operations of a compare and
 * a blend per 8 lanes in fp32).
 * Fast path (sg256_fast_loop, sg_avx2.h): blocks of 64 elements skip the NaN fix-up, which
 * changes a word only where the fp32 product was NaN, and round t by a multiply and an FMA
 * (sg_f16_product); one FMA per 16 elements (acc += p0 * p1) flags a block with a product that
 * was not finite, which is then computed again with the full step.
 * Tail: the reference, element by element. Calls that move at least SG_NT_MIN_BYTES peel to a
 * 32-byte aligned y (the reference) and run in two sub-streams with prefetched inputs and plain
 * stores (sg256_fast_loop, sg_avx2.h).
 */
#include "sg_avx2.h"

/* The fp32 product g * (o < 0 ? t : scale) of 8 elements; zero: +0.0 from sg_opaque_zero
   (kernel.h). The full step (fast == 0) rounds t with sg256_round_f16_sum and picks the factor
   with three bitwise operations; the fast one rounds t by a multiply and an FMA (two operations
   where sg256_round_f16_sum takes four; Veltkamp's split at 11 bits: t * 8192 - fl(t * 8191),
   exact here because o + SA is 0 or at least 2^-10 in magnitude and below 2^17, and NaN for
   o = -inf, which the detector then flags) and picks the factor with one VBLENDVPS. Both give
   the same product wherever it is finite. */
static inline __m256 sg_f16_product(const uint16_t *g, const uint16_t *o, __m256 zero, int fast) {
    const __m256 scale = _mm256_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m256 sa = _mm256_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m256 gf = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)g));
    __m256 of = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)o));
    __m256 s = _mm256_add_ps(of, sa);
    if (!fast) return sg256_select(gf, of, sg256_round_f16_sum(s), scale, zero);
    __m256 t =
        _mm256_fmadd_ps(s, _mm256_set1_ps(8192.0f), _mm256_mul_ps(s, _mm256_set1_ps(-8191.0f)));
    return _mm256_mul_ps(gf, _mm256_blendv_ps(scale, t, sg256_neg(of, zero)));
}

/* The fp16 words of 16 products, in element order, NaNs not yet canonical. */
static inline __m256i sg_f16_pack16(__m256 p0, __m256 p1) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm256_cvtps_ph(p0, SG256_RNE)),
                                   _mm256_cvtps_ph(p1, SG256_RNE), 1);
}

/* 16 results for the elements at g and o, the fast step: NaN words not yet canonical;
 *acc += p0 * p1 flags a product that was not finite. */
static inline __m256i sg_f16_fast16(const uint16_t *g, const uint16_t *o, __m256 zero,
                                    __m256 *acc) {
    __m256 p0 = sg_f16_product(g, o, zero, 1), p1 = sg_f16_product(g + 8, o + 8, zero, 1);
    *acc = _mm256_fmadd_ps(p0, p1, *acc);
    return sg_f16_pack16(p0, p1);
}

/* 16 results for the elements at g and o, the full step. */
static inline __m256i sg_f16_step16(const uint16_t *g, const uint16_t *o, __m256 zero) {
    return sg256_canon_nan_f16(
        sg_f16_pack16(sg_f16_product(g, o, zero, 0), sg_f16_product(g + 8, o + 8, zero, 0)));
}

/* Elements [0, m) by the reference. */
static inline void sg_f16_rest(const void *g, const void *o, void *y, size_t m) {
    const uint16_t *gp = (const uint16_t *)g, *op = (const uint16_t *)o;
    uint16_t *yp = (uint16_t *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_f16(gp[i], op[i]);
}

void sg_f16_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_fast_loop((const uint16_t *)g, (const uint16_t *)o, (uint16_t *)y, n,
                    _mm256_set1_ps(sg_opaque_zero()), sg_f16_fast16, sg_f16_step16, sg_f16_rest);
}
