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

static inline __m512i sg_f32_step_si(__m512i g, __m512i o, const void *ctx) {
    (void)ctx;
    return _mm512_castps_si512(sg_f32_step(_mm512_castsi512_ps(g), _mm512_castsi512_ps(o)));
}

/* Elements [0, m) with m < 16, by masked loads and stores. */
static inline void sg_f32_masked(const void *g, const void *o, void *y, size_t m, const void *ctx) {
    (void)ctx;
    __mmask16 k = sg512_mask16(m);
    __m512 r = sg_f32_step(_mm512_maskz_loadu_ps(k, g), _mm512_maskz_loadu_ps(k, o));
    _mm512_mask_storeu_ps(y, k, r);
}

void sg_f32_selugrad__avx512(size_t n, const void *g, const void *o, void *y) {
    sg512_stream_loop(g, o, y, n, sizeof(float), sg_f32_step_si, sg_f32_masked, 0, NULL);
}
