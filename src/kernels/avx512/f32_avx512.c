/*
 * float32 SeluGrad, AVX-512F, 16 lanes x 2 per step.
 * Roundings: a = g * scale, t = o + SA, b = g * t, each one fp32 operation (RNE, no FMA); then
 * select on o < 0 and canonicalise NaN. Tail: one masked load/store step.
 * Calls that move at least SG_NT_MIN_BYTES peel to a 64-byte aligned y and use streaming stores
 * (then SFENCE), which write the same values.
 */
#include "sg_avx512.h"

static inline __m512 sg_f32_step(__m512 g, __m512 o) {
    const __m512 scale = sg512_bits(SG_F32_SCALE_BITS), sa = sg512_bits(SG_F32_SA_BITS);
    return sg512_canon_nan(sg512_select(g, o, _mm512_add_ps(o, sa), scale, _mm512_setzero_ps()));
}

static inline void sg_f32_masked(const float *g, const float *o, float *y, size_t m) {
    __mmask16 k = sg512_mask16(m);
    __m512 r = sg_f32_step(_mm512_maskz_loadu_ps(k, g), _mm512_maskz_loadu_ps(k, o));
    _mm512_mask_storeu_ps(y, k, r);
}

void sg_f32_selugrad__avx512(size_t n, const void *gv, const void *ov, void *yv) {
    const float *g = (const float *)gv, *o = (const float *)ov;
    float *y = (float *)yv;
    size_t i = 0;
    if (n * 12 >= SG_NT_MIN_BYTES && ((uintptr_t)y & 3) == 0) { /* y aligned: the peel ends */
        size_t peel = ((64 - ((uintptr_t)y & 63)) & 63) / 4;
        if (peel) sg_f32_masked(g, o, y, peel);
        for (i = peel; i + 16 <= n; i += 16)
            _mm512_stream_ps(y + i, sg_f32_step(_mm512_loadu_ps(g + i), _mm512_loadu_ps(o + i)));
        _mm_sfence();
    } else {
        for (; i + 32 <= n; i += 32) {
            __m512 r0 = sg_f32_step(_mm512_loadu_ps(g + i), _mm512_loadu_ps(o + i));
            __m512 r1 = sg_f32_step(_mm512_loadu_ps(g + i + 16), _mm512_loadu_ps(o + i + 16));
            _mm512_storeu_ps(y + i, r0);
            _mm512_storeu_ps(y + i + 16, r1);
        }
        if (i + 16 <= n) {
            _mm512_storeu_ps(y + i, sg_f32_step(_mm512_loadu_ps(g + i), _mm512_loadu_ps(o + i)));
            i += 16;
        }
    }
    if (i < n) sg_f32_masked(g + i, o + i, y + i, n - i);
}
