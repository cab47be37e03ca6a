/*
 * uint8 SeluGrad, native AVX512-FP16 + AVX512_VBMI. o is never negative, so the result
 * sat(rne(round16(g * scale))) depends on g alone.
 * Small calls (below SG_U8_TABLE_MIN elements) and the table itself compute it: g widens to
 * int16 and converts exactly to fp16 (VCVTW2PH), one VMULPH by scale, VCVTPH2W with an explicit
 * RNE (half to even), then an unsigned saturating narrow (negative int16 values, which unsigned
 * inputs never give, are clamped to 0 first). Larger calls compute all 256 results that way into
 * four registers, then look each g up: 64 bytes per step with two VPERMI2B (128 entries each,
 * index g & 127) and a byte select on bit 7 of g, streaming their stores above SG_NT_MIN_BYTES.
 */
#include "../x86_nt.h"
#include "sg_avx512fp16.h"

/* Below this many elements, building the table costs more than it saves. */
#define SG_U8_TABLE_MIN 256

/* 32 results (int16, unsaturated) for the 16-bit values g. */
static inline __m512i sg_u8_compute(__m512i g16) {
    __m512h p = _mm512_mul_ph(_mm512_cvtepi16_ph(g16), sgh_bits(SG_F16_SCALE_BITS));
    return _mm512_cvt_roundph_epi16(p, SGH_RNE);
}

/* Elements [0, m) by computing, in masked steps of 32 (o and ctx: unused, the loop's
   interface). */
static inline void sg_u8_masked(const void *g, const void *o, void *y, size_t m, const void *ctx) {
    const uint8_t *gp = (const uint8_t *)g;
    uint8_t *yp = (uint8_t *)y;
    (void)o, (void)ctx;
    for (size_t j = 0; j < m; j += 32) {
        __mmask32 k = sgh_mask32(m - j < 32 ? m - j : 32);
        __m512i q = sg_u8_compute(_mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(k, gp + j)));
        __m256i r = _mm512_cvtusepi16_epi8(_mm512_max_epi16(q, _mm512_setzero_si512()));
        _mm256_mask_storeu_epi8(yp + j, k, r);
    }
}

/* The results for g = 64 j .. 64 j + 63, in order. */
static inline __m512i sg_u8_table(int j) {
    const __m512i iota = _mm512_setr_epi32(0x10000, 0x30002, 0x50004, 0x70006, 0x90008, 0xB000A,
                                           0xD000C, 0xF000E, 0x110010, 0x130012, 0x150014, 0x170016,
                                           0x190018, 0x1B001A, 0x1D001C, 0x1F001E);
    const __m512i lo = _mm512_setzero_si512(), hi = _mm512_set1_epi16(255);
    __m512i q0 = sg_u8_compute(_mm512_add_epi16(iota, _mm512_set1_epi16((short)(64 * j))));
    __m512i q1 = sg_u8_compute(_mm512_add_epi16(iota, _mm512_set1_epi16((short)(64 * j + 32))));
    q0 = _mm512_min_epi16(_mm512_max_epi16(q0, lo), hi);
    q1 = _mm512_min_epi16(_mm512_max_epi16(q1, lo), hi);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(q0)),
                              _mm512_cvtepi16_epi8(q1), 1);
}

/* The 64 results for the bytes gx, by the table t (four vectors, sg_u8_table): bit 7 of g
   picks t[0..1] or t[2..3], its low 7 bits the byte in them. */
static inline __m512i sg_u8_lookup(__m512i gx, __m512i ox, const void *t) {
    const __m512i *tb = (const __m512i *)t;
    (void)ox;
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(gx),
                                  _mm512_permutex2var_epi8(tb[0], gx, tb[1]),
                                  _mm512_permutex2var_epi8(tb[2], gx, tb[3]));
}

void sg_u8_selugrad__avx512fp16(size_t n, const void *g, const void *o, void *y) {
    if (n < SG_U8_TABLE_MIN) {
        sg_u8_masked(g, o, y, n, NULL);
        return;
    }
    const __m512i t[4] = {sg_u8_table(0), sg_u8_table(1), sg_u8_table(2), sg_u8_table(3)};
    sg512_stream_loop(g, o, y, n, sizeof(uint8_t), sg_u8_lookup, sg_u8_masked, 0, t);
}
