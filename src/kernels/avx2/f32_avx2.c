/*
 * float32 SeluGrad, AVX2, 8 lanes x 2 per step.
 * Roundings: a = g * scale, t = o + SA, b = g * t, each one fp32 operation (RNE, no FMA); then
 * select on o < 0 and canonicalise NaN. Tail: the reference, element by element.
 * Calls that move at least SG_NT_MIN_BYTES peel to a 32-byte aligned y and use streaming stores.
 */
#include "sg_avx2.h"

static inline __m256 sg_f32_step(__m256 g, __m256 o) {
    const __m256 scale = sg256_bits(SG_F32_SCALE_BITS), sa = sg256_bits(SG_F32_SA_BITS);
    return sg256_canon_nan(sg256_select(g, o, _mm256_add_ps(o, sa), scale, _mm256_setzero_ps()));
}

void sg_f32_selugrad__avx2(size_t n, const void *gv, const void *ov, void *yv) {
    const float *g = (const float *)gv, *o = (const float *)ov;
    float *y = (float *)yv;
    size_t i = 0;
    if (n * 12 >= SG_NT_MIN_BYTES && ((uintptr_t)y & 3) == 0) { /* y aligned: the peel ends */
        for (; ((uintptr_t)(y + i) & 31) != 0; i++) y[i] = sg_ref_f32(g[i], o[i]);
        for (; i + 8 <= n; i += 8)
            _mm256_stream_ps(y + i, sg_f32_step(_mm256_loadu_ps(g + i), _mm256_loadu_ps(o + i)));
        _mm_sfence();
    } else {
        for (; i + 16 <= n; i += 16) {
            __m256 r0 = sg_f32_step(_mm256_loadu_ps(g + i), _mm256_loadu_ps(o + i));
            __m256 r1 = sg_f32_step(_mm256_loadu_ps(g + i + 8), _mm256_loadu_ps(o + i + 8));
            _mm256_storeu_ps(y + i, r0);
            _mm256_storeu_ps(y + i + 8, r1);
        }
        if (i + 8 <= n) {
            _mm256_storeu_ps(y + i, sg_f32_step(_mm256_loadu_ps(g + i), _mm256_loadu_ps(o + i)));
            i += 8;
        }
    }
    for (; i < n; i++) y[i] = sg_ref_f32(g[i], o[i]);
}
