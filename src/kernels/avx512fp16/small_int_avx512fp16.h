/*
 * int8 / uint8 SeluGrad on native AVX512-FP16 (+ AVX512_VBMI), shared by s8_ and u8_.
 * The computing step (small calls, tails, and the tables of large calls): inputs widen to int16
 * and convert exactly to fp16 (VCVTW2PH, |x| <= 255); the float16 row in native fp16; then
 * VCVTPH2W with an explicit RNE rounding (half to even) and a saturating narrow (VPMOVSWB /
 * VPMOVUSWB). Integer inputs give no NaN or overflow.
 * Large calls (SG_SMALL_INT_TABLE_MIN elements and more) look up per-call byte tables with
 * VPERMI2B instead, 64 elements per step (see s8_ and u8_avx512fp16.c), and stream their stores
 * above SG_NT_MIN_BYTES (x86_nt.h).
 */
#ifndef SELUGRAD_KERNELS_AVX512FP16_SMALL_INT_AVX512FP16_H
#define SELUGRAD_KERNELS_AVX512FP16_SMALL_INT_AVX512FP16_H

#include "../x86_nt.h"
#include "sg_avx512fp16.h"

/* Below this many elements, building the tables costs more than they save. */
#define SG_SMALL_INT_TABLE_MIN 256

/* The computing path. WIDEN: __m256i of 32 bytes -> __m512i of int16; NARROW: int16 -> bytes
   with saturation. Defines sg_<name>_step (32 lanes) and sg_<name>_masked (any m elements, in
   masked steps of 32). */
#define SG_SMALL_INT_STEP(name, T, WIDEN, NARROW)                                                  \
    static inline __m256i sg_##name##_step(__m256i gb, __m256i ob) {                               \
        __m512h g = _mm512_cvtepi16_ph(WIDEN(gb)), o = _mm512_cvtepi16_ph(WIDEN(ob));              \
        return NARROW(_mm512_cvt_roundph_epi16(sgh_selugrad(g, o), SGH_RNE));                      \
    }                                                                                              \
    static inline void sg_##name##_masked(const T *g, const T *o, T *y, size_t m) {                \
        for (size_t j = 0; j < m; j += 32) {                                                       \
            __mmask32 k = sgh_mask32(m - j < 32 ? m - j : 32);                                     \
            __m256i r = sg_##name##_step(_mm256_maskz_loadu_epi8(k, g + j),                        \
                                         _mm256_maskz_loadu_epi8(k, o + j));                       \
            _mm256_mask_storeu_epi8(y + j, k, r);                                                  \
        }                                                                                          \
    }

/* The 16-bit values v0 + 0 .. v0 + 31. */
static inline __m512i sgh_iota16(int v0) {
    const __m512i lo = _mm512_setr_epi32(0x10000, 0x30002, 0x50004, 0x70006, 0x90008, 0xB000A,
                                         0xD000C, 0xF000E, 0x110010, 0x130012, 0x150014, 0x170016,
                                         0x190018, 0x1B001A, 0x1D001C, 0x1F001E);
    return _mm512_add_epi16(lo, _mm512_set1_epi16((short)v0));
}

/* The low bytes of 64 16-bit values (a: values 0..31, b: 32..63), in order. */
static inline __m512i sgh_low_bytes(__m512i a, __m512i b) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(a)),
                              _mm512_cvtepi16_epi8(b), 1);
}

#endif /* SELUGRAD_KERNELS_AVX512FP16_SMALL_INT_AVX512FP16_H */
