/*
 * float16 SeluGrad, AVX2 + F16C (+ FMA for the fast path's detector), 8 lanes x 2 per step.
 * Roundings: g and o widen exactly to fp32 (VCVTPH2PS). a = g * scale and b = g * t are exact in
 * fp32, so one VCVTPS2PH (RNE) after the select is the per-op fp16 rounding of the chosen branch;
 * t = o + SA is rounded to fp16 before the multiply, in fp32 arithmetic (sg256_round_f16_sum: four
 * single-uop operations instead of a VCVTPS2PH/VCVTPH2PS pair, 4-5 % faster in L1, docs/
 * PERFORMANCE.md session 11). NaNs are made canonical on the 16 packed results
 * (sg256_canon_nan_f16: 12-14 % faster in L1 than a compare and a blend per 8 lanes in fp32,
 * docs/PERFORMANCE.md session 12).
 * Fast path (SG256_FAST_LOOP): blocks of 64 elements skip the NaN fix-up, which changes a word
 * only where the fp32 product was NaN, and one FMA per 16 elements (acc += p0 * p1) flags such a
 * block, which is then computed again with the fix-up (docs/PERFORMANCE.md session 14).
 * Tail: the reference, element by element. Calls that move at least SG_NT_MIN_BYTES peel to a
 * 32-byte aligned y (the reference) and use streaming stores, then SFENCE.
 */
#include "sg_avx2.h"

/* The fp32 product g * (o < 0 ? t : scale) of 8 elements; zero: +0.0 from sg_opaque_zero
   (kernel.h). */
static inline __m256 sg_f16_product(const uint16_t *g, const uint16_t *o, __m256 zero) {
    const __m256 scale = _mm256_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m256 sa = _mm256_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m256 gf = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)g));
    __m256 of = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)o));
    __m256 t = sg256_round_f16_sum(_mm256_add_ps(of, sa));
    return sg256_select(gf, of, t, scale, zero);
}

/* 16 results for the elements at g and o, NaN words not yet canonical; *acc += p0 * p1. */
static inline __m256i sg_f16_fast16(const uint16_t *g, const uint16_t *o, __m256 zero,
                                    __m256 *acc) {
    __m256 p0 = sg_f16_product(g, o, zero), p1 = sg_f16_product(g + 8, o + 8, zero);
    *acc = _mm256_fmadd_ps(p0, p1, *acc);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm256_cvtps_ph(p0, SG256_RNE)),
                                   _mm256_cvtps_ph(p1, SG256_RNE), 1);
}

/* 16 results for the elements at g and o, the full step. */
static inline __m256i sg_f16_step16(const uint16_t *g, const uint16_t *o, __m256 zero) {
    __m256 acc = _mm256_setzero_ps();
    return sg256_canon_nan_f16(sg_f16_fast16(g, o, zero, &acc));
}

void sg_f16_selugrad__avx2(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    const __m256 zero = _mm256_set1_ps(sg_opaque_zero());
#define SG_F16_FAST(gp, op, acc) sg_f16_fast16(gp, op, zero, acc)
#define SG_F16_STEP16(gp, op)    sg_f16_step16(gp, op, zero)
    SG256_FAST_LOOP(g, o, y, n, SG_F16_FAST, SG_F16_STEP16, sg_ref_f16);
#undef SG_F16_STEP16
#undef SG_F16_FAST
}
