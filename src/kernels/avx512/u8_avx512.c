/*
 * uint8 SeluGrad, AVX-512F/BW. o is never negative, so y = sat(rne(round16(g * scale))) is a
 * function of g alone (o is never loaded: the step ignores it). The 16-bit fixed-point form
 * (small_int_fixed.h, small_int_avx512.h) with K = 269, 64 elements per step; VPACKUSWB
 * saturates (n + up is at most 268).
 */
#include "small_int_avx512.h"

static const uint16_t sg_u8_thr[64] = {SG_THR64(SG_U8_THR512)};

static inline __m512i sg_u8_step(__m512i gx, __m512i ox, const void *ctx) {
    (void)ox; /* o >= 0: always the scale branch */
    (void)ctx;
    const __m512i zero = _mm512_setzero_si512(), k = _mm512_set1_epi16(SG_SMALL_K_SCALE);
    const __m512i t0 = _mm512_loadu_si512(sg_u8_thr), t1 = _mm512_loadu_si512(sg_u8_thr + 32);
    __m512i y0 = sg512_fixed_half(_mm512_unpacklo_epi8(zero, gx), k, 0, t0, t1);
    __m512i y1 = sg512_fixed_half(_mm512_unpackhi_epi8(zero, gx), k, 0, t0, t1);
    return _mm512_packus_epi16(y0, y1);
}

/* Elements [0, m), m < 64: o is not read. */
static inline void sg_u8_masked(const void *g, const void *o, void *y, size_t m, const void *ctx) {
    (void)o;
    __mmask64 k = (__mmask64)((1ull << m) - 1u);
    __m512i r = sg_u8_step(_mm512_maskz_loadu_epi8(k, g), _mm512_setzero_si512(), ctx);
    _mm512_mask_storeu_epi8(y, k, r);
}

void sg_u8_selugrad__avx512(size_t n, const void *g, const void *o, void *y) {
    sg512_stream_loop(g, o, y, n, sizeof(uint8_t), sg_u8_step, sg_u8_masked, 0, NULL);
}
