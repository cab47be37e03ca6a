/*
 * int32 SeluGrad, AVX2, 8 lanes per step (two per iteration in cache, sg256_stream_loop).
 * Roundings: VCVTDQ2PS (RNE) of g and o, the float32 row, then VCVTTPS2DQ (toward zero); its
 * out-of-range value 0x80000000 is right below -2^31 and replaced by INT32_MAX where r >= 2^31.
 * Tail: the reference, element by element. Large calls use streaming stores (x86_nt.h).
 */
#include "sg_avx2.h"

static inline __m256i sg_s32_step(__m256i gi, __m256i oi) {
    const __m256 scale = sg256_bits(SG_F32_SCALE_BITS), sa = sg256_bits(SG_F32_SA_BITS);
    __m256 g = _mm256_cvtepi32_ps(gi), o = _mm256_cvtepi32_ps(oi);
    __m256 r = sg256_select(g, o, _mm256_add_ps(o, sa), scale, _mm256_setzero_ps());
    __m256i q = _mm256_cvttps_epi32(r);
    __m256 hi = _mm256_cmp_ps(r, _mm256_set1_ps(2147483648.0f), _CMP_GE_OQ);
    return _mm256_blendv_epi8(q, _mm256_set1_epi32(INT32_MAX), _mm256_castps_si256(hi));
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
    sg256_stream_loop(g, o, y, n, sizeof(int32_t), sg_s32_step_at, sg_s32_rest);
}
