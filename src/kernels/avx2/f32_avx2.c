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

/* 8 results for the elements at g and o. */
static inline __m256i sg_f32_step_at(const void *g, const void *o) {
    return _mm256_castps_si256(
        sg_f32_step(_mm256_loadu_ps((const float *)g), _mm256_loadu_ps((const float *)o)));
}

/* Elements [0, m) by the reference. */
static inline void sg_f32_rest(const void *g, const void *o, void *y, size_t m) {
    const float *gp = (const float *)g, *op = (const float *)o;
    float *yp = (float *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_f32(gp[i], op[i]);
}

void sg_f32_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_stream_loop(g, o, y, n, sizeof(float), sg_f32_step_at, sg_f32_rest, 1);
}
