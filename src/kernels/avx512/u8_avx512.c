/*
 * uint8 SeluGrad, AVX-512F/BW/VL. o is never negative, so y = sat(rne(round16(g * scale))) is a
 * function of g alone (o is never loaded).
 * Small calls compute it (see small_int_avx512.h): the exact product, the fp16 rounding in fp32
 * arithmetic (the value is below 2^9), RNE (VCVTPS2DQ) and unsigned saturation (VPMOVUSDB).
 * Calls of at least SG_U8_TABLE_MIN elements first compute all 256 results that way into a
 * 16-bit table on the stack (eight registers), then look each g up: 64 bytes per step with four
 * VPERMT2W (64 words each) and a select on bits 6 and 7 of g; the words (all <= 255) narrow
 * with VPACKUSWB and one VPERMQ to restore the order. Tail: the computing path.
 */
#include "small_int_avx512.h"

/* Below this, building the table (16 vector steps) costs more than it saves. */
#define SG_U8_TABLE_MIN 2048

static inline __m512i sg_u8_math(__m512 g, __m512 o) {
    const __m512 scale = _mm512_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    (void)o; /* o >= 0: always the scale branch */
    return _mm512_cvt_roundps_epi32(sg512_round_f16_arith(_mm512_mul_ps(g, scale)), SG512_RNE);
}

/* y for 32 values of g held in 16-bit lanes; tb[j] holds the results for g = 32 j .. 32 j + 31. */
static inline __m512i sg_u8_lookup(__m512i gw, const __m512i tb[8]) {
    __mmask32 b6 = _mm512_test_epi16_mask(gw, _mm512_set1_epi16(64));
    __mmask32 b7 = _mm512_test_epi16_mask(gw, _mm512_set1_epi16(128));
    __m512i r0 = _mm512_permutex2var_epi16(tb[0], gw, tb[1]); /* index: the low 6 bits */
    __m512i r1 = _mm512_permutex2var_epi16(tb[2], gw, tb[3]);
    __m512i r2 = _mm512_permutex2var_epi16(tb[4], gw, tb[5]);
    __m512i r3 = _mm512_permutex2var_epi16(tb[6], gw, tb[7]);
    __m512i lo = _mm512_mask_mov_epi16(r0, b6, r1), hi = _mm512_mask_mov_epi16(r2, b6, r3);
    return _mm512_mask_mov_epi16(lo, b7, hi);
}

void sg_u8_selugrad__avx512(size_t n, const void *gv, const void *ov, void *yv) {
    const uint8_t *g = (const uint8_t *)gv;
    uint8_t *y = (uint8_t *)yv;
    size_t i = 0;
    if (n >= SG_U8_TABLE_MIN) {
        uint16_t tab[256];
        __m512i tb[8];
        for (int k = 0; k < 256; k += 16) {
            __m512 gk = _mm512_cvtepi32_ps(_mm512_add_epi32(
                _mm512_set1_epi32(k),
                _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
            __m512i q = _mm512_min_epi32(sg_u8_math(gk, gk), _mm512_set1_epi32(255));
            _mm256_storeu_si256((__m256i *)(tab + k), _mm512_cvtepi32_epi16(q));
        }
        for (int j = 0; j < 8; j++) tb[j] = _mm512_loadu_si512(tab + 32 * j);
        const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
        for (; i + 64 <= n; i += 64) {
            __m512i g0 = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(g + i)));
            __m512i g1 = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(g + i + 32)));
            __m512i r = _mm512_packus_epi16(sg_u8_lookup(g0, tb), sg_u8_lookup(g1, tb));
            _mm512_storeu_si512(y + i, _mm512_permutexvar_epi64(order, r));
        }
    }
    if (i < n) sg512_small_int_loop(g + i, (const uint8_t *)ov + i, y + i, n - i, 0, sg_u8_math);
}
