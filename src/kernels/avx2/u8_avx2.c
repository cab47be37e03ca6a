/*
 * uint8 SeluGrad, AVX2. o is never negative, so y = sat(rne(round16(g * scale))) is a function
 * of g alone (o is never loaded). The 16-bit fixed-point form (small_int_fixed.h,
 * small_int_avx2.h) with K = 269, 32 elements per step; VPACKUSWB saturates (n + up is at most
 * 268).
 */
#include "small_int_avx2.h"

static inline __m256i sg_u8_step(const void *g, const void *o) {
    (void)o; /* o >= 0: always the scale branch */
    const __m256i zero = _mm256_setzero_si256(), k = _mm256_set1_epi16(SG_SMALL_K_SCALE);
    const __m256i tab = _mm256_setr_epi8(SG_ADJ32(SG_U8_ADJ256));
    __m256i gx = _mm256_loadu_si256((const __m256i *)g);
    __m256i y0 = sg256_fixed_half(_mm256_unpacklo_epi8(zero, gx), k, 0, tab);
    __m256i y1 = sg256_fixed_half(_mm256_unpackhi_epi8(zero, gx), k, 0, tab);
    return _mm256_packus_epi16(y0, y1);
}

/* Elements [0, m) by the reference. */
static inline void sg_u8_rest(const void *g, const void *o, void *y, size_t m) {
    const uint8_t *gp = (const uint8_t *)g, *op = (const uint8_t *)o;
    uint8_t *yp = (uint8_t *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_u8(gp[i], op[i]);
}

void sg_u8_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_stream_loop(g, o, y, n, sizeof(uint8_t), sg_u8_step, sg_u8_rest);
}
