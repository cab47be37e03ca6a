/*
 * float16 SeluGrad, AVX2 + F16C, 8 lanes x 2 per step.
 * Roundings: g and o widen exactly to fp32 (VCVTPH2PS). a = g * scale and b = g * t are exact in
 * fp32, so one VCVTPS2PH (RNE) after the select is the per-op fp16 rounding of the chosen branch;
 * t = o + SA is rounded to fp16 before the multiply, in fp32 arithmetic (sg256_round_f16_sum: four
 * single-uop operations instead of a VCVTPS2PH/VCVTPH2PS pair, 4-5 % faster in L1, docs/
 * PERFORMANCE.md session 11). NaNs are made canonical on the 16 packed results
 * (sg256_canon_nan_f16: 12-14 % faster in L1 than a compare and a blend per 8 lanes in fp32,
 * docs/PERFORMANCE.md session 12).
 * Tail: the reference, element by element. Calls that move at least SG_NT_MIN_BYTES peel to a
 * 32-byte aligned y (the reference) and use streaming stores, then SFENCE.
 */
#include "sg_avx2.h"

static inline __m128i sg_f16_step(__m128i gh, __m128i oh, __m256 zero) {
    const __m256 scale = _mm256_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m256 sa = _mm256_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m256 g = _mm256_cvtph_ps(gh), o = _mm256_cvtph_ps(oh);
    __m256 t = sg256_round_f16_sum(_mm256_add_ps(o, sa));
    return _mm256_cvtps_ph(sg256_select(g, o, t, scale, zero), SG256_RNE);
}

/* 16 results for the elements at g and o; zero: +0.0 from sg_opaque_zero (kernel.h). */
static inline __m256i sg_f16_step16(const uint16_t *g, const uint16_t *o, __m256 zero) {
    __m128i r0 =
        sg_f16_step(_mm_loadu_si128((const __m128i *)g), _mm_loadu_si128((const __m128i *)o), zero);
    __m128i r1 = sg_f16_step(_mm_loadu_si128((const __m128i *)(g + 8)),
                             _mm_loadu_si128((const __m128i *)(o + 8)), zero);
    return sg256_canon_nan_f16(_mm256_inserti128_si256(_mm256_castsi128_si256(r0), r1, 1));
}

void sg_f16_selugrad__avx2(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    const __m256 zero = _mm256_set1_ps(sg_opaque_zero());
#define SG_F16_STEP16(gp, op) sg_f16_step16(gp, op, zero)
    SG256_STREAM_LOOP(uint16_t, 16, g, o, y, n, SG_F16_STEP16, sg_ref_f16, 1);
#undef SG_F16_STEP16
}
