/*
 * int8 SeluGrad, AVX2: the 16-bit fixed-point form (small_int_fixed.h, small_int_avx2.h), 32
 * elements per step. K's bytes come from o in 32 byte lanes: the high byte min(o, 0) + 1, the low
 * byte by a compare and two VPBLENDVB (single-uop on Zen; the second takes o's sign bit as its
 * mask). Large calls run in two sub-streams with plain stores and their inputs prefetched
 * SG256_PLAIN_PF_BYTES (2 KiB) ahead (sg256_stream_loop with nt 0, sg_avx2.h).
 */
#include "small_int_avx2.h"

static inline __m256i sg_s8_step(const void *g, const void *o) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i tab = _mm256_setr_epi8(SG_ADJ32(SG_S8_H256));
    __m256i gx = _mm256_loadu_si256((const __m256i *)g);
    __m256i ox = _mm256_loadu_si256((const __m256i *)o);
    __m256i khi = _mm256_add_epi8(_mm256_min_epi8(ox, zero), _mm256_set1_epi8(1));
    __m256i klo = _mm256_blendv_epi8(_mm256_set1_epi8((char)SG_SMALL_K_LO_FAR),
                                     _mm256_set1_epi8((char)SG_SMALL_K_LO_NEAR),
                                     _mm256_cmpgt_epi8(ox, _mm256_set1_epi8(-18)));
    klo = _mm256_blendv_epi8(_mm256_set1_epi8(SG_SMALL_K_LO_SCALE), klo, ox); /* o's sign bit */
    __m256i y0 =
        sg256_fixed_half(_mm256_unpacklo_epi8(zero, gx), _mm256_unpacklo_epi8(klo, khi), tab);
    __m256i y1 =
        sg256_fixed_half(_mm256_unpackhi_epi8(zero, gx), _mm256_unpackhi_epi8(klo, khi), tab);
    return _mm256_packs_epi16(y0, y1);
}

/* Elements [0, m) by the reference. */
static inline void sg_s8_rest(const void *g, const void *o, void *y, size_t m) {
    const int8_t *gp = (const int8_t *)g, *op = (const int8_t *)o;
    int8_t *yp = (int8_t *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_s8(gp[i], op[i]);
}

void sg_s8_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_stream_loop(g, o, y, n, sizeof(int8_t), sg_s8_step, sg_s8_rest, 0);
}
