/*
 * int32 SeluGrad, AVX2, 8 lanes per step (two per iteration in cache, sg256_stream_loop).
 * Roundings: VCVTDQ2PS (RNE) of g and o, the float32 row, then VCVTTPS2DQ (toward zero); its
 * out-of-range value 0x80000000 is right below -2^31 and made INT32_MAX where r >= 2^31.
 * Tail: the reference, element by element. Large calls use streaming stores (x86_nt.h).
 *
 * On Zen 3/4/5 the conversions and FP adds (on Zen 5 also the FP compares) share two of the four
 * FP pipes (the conversions alone take 3 of the 4 cycles per 16 elements), so the step keeps
 * everything else off them: the factor o < 0 ? t : scale is one VBLENDVPS on the sign bit of the
 * integer o (o < 0 exactly when its conversion is), and r >= 2^31 is a signed integer compare of
 * r's bits (r is never NaN) whose all-ones mask turns 0x80000000 into 0x7FFFFFFF by an XOR. 16
 * vector operations per 16 elements where an FP compare per select and per saturation took 22
 * (llvm-mca port bounds and measured cycles: docs/dispatch.md, "Cost model").
 */
#include "sg_avx2.h"

static inline __m256i sg_s32_step(__m256i gi, __m256i oi) {
    const __m256 scale = sg256_bits(SG_F32_SCALE_BITS), sa = sg256_bits(SG_F32_SA_BITS);
    __m256 g = _mm256_cvtepi32_ps(gi), o = _mm256_cvtepi32_ps(oi);
    __m256 f = _mm256_blendv_ps(scale, _mm256_add_ps(o, sa), _mm256_castsi256_ps(oi));
    __m256 r = _mm256_mul_ps(g, f);
    __m256i hi = _mm256_cmpgt_epi32(_mm256_castps_si256(r), _mm256_set1_epi32(0x4EFFFFFF));
    return _mm256_xor_si256(_mm256_cvttps_epi32(r), hi);
}

/* 8 results for the elements at g and o. */
static inline __m256i sg_s32_step_at(const void *g, const void *o) {
    return sg_s32_step(_mm256_loadu_si256((const __m256i *)g),
                       _mm256_loadu_si256((const __m256i *)o));
}

/* Elements [0, m) by the reference. */
static inline void sg_s32_rest(const void *g, const void *o, void *y, size_t m) {
    const int32_t *gp = (const int32_t *)g, *op = (const int32_t *)o;
    int32_t *yp = (int32_t *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_s32(gp[i], op[i]);
}

void sg_s32_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_stream_loop(g, o, y, n, sizeof(int32_t), sg_s32_step_at, sg_s32_rest, 1);
}
