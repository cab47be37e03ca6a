/*
 * uint8 SeluGrad, AVX2 + F16C: see small_int_avx2.h. o is never negative, so the result is
 * round16(g * scale) (exact product, fp16 rounding in fp32 arithmetic: the value is below 2^9),
 * then RNE (VCVTPS2DQ) and saturating packs; every value is non-negative. o is unused, so the
 * compiler drops its load.
 */
#include "small_int_avx2.h"

static inline __m256i sg_u8_math(__m256 g, __m256 o) {
    const __m256 scale = _mm256_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    (void)o; /* o >= 0: always the scale branch */
    return _mm256_cvtps_epi32(sg256_round_f16_arith(_mm256_mul_ps(g, scale)));
}

/* Elements [0, m) by the reference. */
static inline void sg_u8_rest(const void *g, const void *o, void *y, size_t m) {
    const uint8_t *gp = (const uint8_t *)g, *op = (const uint8_t *)o;
    uint8_t *yp = (uint8_t *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_u8(gp[i], op[i]);
}

void sg_u8_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_small_int_loop(g, o, y, n, 0, sg_u8_math, sg_u8_rest);
}
