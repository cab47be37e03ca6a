/*
 * uint8 SeluGrad, AVX2. o is never negative, so y = sat(rne(round16(g * scale))) is a function
 * of g alone (o is never loaded): y = min(255, g + d) with d read from three 16-byte rows tables
 * by g / 16 and compared with g mod 16 (SG_U8_ROW_*, small_int_fixed.h), 32 elements per step in
 * 11 single-uop byte operations (three VPSHUFB), where the 16-bit fixed-point form took 23.
 * Large calls stream their stores (sg256_stream_loop, sg_avx2.h); the rest runs the reference
 * element by element.
 */
#include "small_int_avx2.h"

static inline __m256i sg_u8_step(const void *g, const void *o) {
    (void)o; /* o >= 0: always the scale branch */
    const __m256i base = _mm256_setr_epi8(SG_ADJ32(SG_U8_ROW_BASE));
    const __m256i up = _mm256_setr_epi8(SG_ADJ32(SG_U8_ROW_UP));
    const __m256i dip = _mm256_setr_epi8(SG_ADJ32(SG_U8_ROW_DIP));
    const __m256i nib = _mm256_set1_epi8(0x0F);
    __m256i gx = _mm256_loadu_si256((const __m256i *)g);
    __m256i h = _mm256_and_si256(_mm256_srli_epi16(gx, 4), nib), l = _mm256_and_si256(gx, nib);
    /* d = base + (l > up) - (l == dip): a compare's true is -1 */
    __m256i d = _mm256_sub_epi8(_mm256_shuffle_epi8(base, h),
                                _mm256_cmpgt_epi8(l, _mm256_shuffle_epi8(up, h)));
    d = _mm256_add_epi8(d, _mm256_cmpeq_epi8(l, _mm256_shuffle_epi8(dip, h)));
    return _mm256_adds_epu8(gx, d);
}

/* Elements [0, m) by the reference. */
static inline void sg_u8_rest(const void *g, const void *o, void *y, size_t m) {
    const uint8_t *gp = (const uint8_t *)g, *op = (const uint8_t *)o;
    uint8_t *yp = (uint8_t *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_u8(gp[i], op[i]);
}

void sg_u8_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_stream_loop(g, o, y, n, sizeof(uint8_t), sg_u8_step, sg_u8_rest, 1);
}
