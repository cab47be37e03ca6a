/*
 * float16 SeluGrad, AVX-512F (+VL/BW for the masked tail), 16 lanes x 2 per step.
 * Roundings: g and o widen exactly to fp32. a = g * scale and b = g * t are exact in fp32 (two
 * 11-bit significands), so rounding after the select is the per-op fp16 rounding of the chosen
 * branch: one VCVTPS2PH (RNE) for the result instead of two. t = o + SA is rounded to fp16
 * before the multiply, in fp32 arithmetic (sg512_round_f16_sum; 4-8 % faster than a
 * VCVTPS2PH/VCVTPH2PS round trip). NaN canonicalised in fp32.
 * Tail: masked 16-bit load/store steps. Large calls peel to a 64-byte aligned y and use
 * streaming stores (x86_nt.h), then SFENCE.
 */
#include "sg_avx512.h"

/* zero: +0.0 from sg_opaque_zero (kernel.h), in every function below. */
static inline __m256i sg_f16_step(__m256i gh, __m256i oh, __m512 zero) {
    const __m512 scale = _mm512_set1_ps(sg_half_to_float(SG_F16_SCALE_BITS));
    const __m512 sa = _mm512_set1_ps(sg_half_to_float(SG_F16_SA_BITS));
    __m512 g = _mm512_cvtph_ps(gh), o = _mm512_cvtph_ps(oh);
    __m512 t = sg512_round_f16_sum(_mm512_add_ps(o, sa));
    __m512 r = sg512_canon_nan(sg512_select(g, o, t, scale, zero));
    return _mm512_cvtps_ph(r, SG512_RNE);
}

/* Elements [0, m) with m <= 16, by masked loads and stores. */
static inline void sg_f16_masked(const uint16_t *g, const uint16_t *o, uint16_t *y, size_t m,
                                 __m512 zero) {
    __mmask16 k = sg512_mask16(m);
    __m256i r = sg_f16_step(_mm256_maskz_loadu_epi16(k, g), _mm256_maskz_loadu_epi16(k, o), zero);
    _mm256_mask_storeu_epi16(y, k, r);
}

static inline __m512i sg_f16_step32(const uint16_t *g, const uint16_t *o, __m512 zero) {
    __m256i r0 = sg_f16_step(_mm256_loadu_si256((const __m256i *)g),
                             _mm256_loadu_si256((const __m256i *)o), zero);
    __m256i r1 = sg_f16_step(_mm256_loadu_si256((const __m256i *)(g + 16)),
                             _mm256_loadu_si256((const __m256i *)(o + 16)), zero);
    return _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
}

void sg_f16_selugrad__avx512(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *g = (const uint16_t *)gv, *o = (const uint16_t *)ov;
    uint16_t *y = (uint16_t *)yv;
    const __m512 zero = _mm512_set1_ps(sg_opaque_zero());
    size_t i = 0;
    if (n * 6 >= SG_NT_MIN_BYTES && ((uintptr_t)y & 1) == 0) { /* y aligned: the peel ends */
        /* peel (at most 31 elements) to a 64-byte aligned y, then stream */
        size_t peel = ((64 - ((uintptr_t)y & 63)) & 63) / 2;
        for (; i < peel; i += 16)
            sg_f16_masked(g + i, o + i, y + i, peel - i < 16 ? peel - i : 16, zero);
        i = peel;
        for (; i + 32 <= n; i += 32) {
            SG_PREFETCH(g + i);
            SG_PREFETCH(o + i);
            _mm512_stream_si512((void *)(y + i), sg_f16_step32(g + i, o + i, zero));
        }
        _mm_sfence();
    } else {
        for (; i + 32 <= n; i += 32) _mm512_storeu_si512(y + i, sg_f16_step32(g + i, o + i, zero));
    }
    for (; i < n; i += 16) sg_f16_masked(g + i, o + i, y + i, n - i < 16 ? n - i : 16, zero);
}
