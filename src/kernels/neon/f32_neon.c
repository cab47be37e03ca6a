/*
 * float32 SeluGrad, aarch64 Advanced SIMD (baseline ARMv8-A).
 * Steps: 16 elements (4 x float32x4_t) per iteration, then 4, then the scalar model
 * (sg_ref_f32) for the last 0..3 elements.
 * Roundings: a = g*scale (FMUL), t = o+SA (FADD), b = g*t (FMUL), each rounded once to fp32 under
 * FPCR's round to nearest even; then the o < 0 select and NaN -> 0x7FC00000.
 * In place: each block loads g and o before it stores y.
 */
#include "neon_math.h"
#include "../kernel.h"

static inline float32x4_t sg_f32_block(const float *g, const float *o) {
    return sg_neon_canon_nan(sg_neon_f32_math(vld1q_f32(g), vld1q_f32(o)));
}

void sg_f32_selugrad__neon(size_t n, const void *g, const void *o, void *y) {
    const float *gp = (const float *)g;
    const float *op = (const float *)o;
    float *yp = (float *)y;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        float32x4_t r[4];
        for (int j = 0; j < 4; j++) r[j] = sg_f32_block(gp + i + 4 * j, op + i + 4 * j);
        for (int j = 0; j < 4; j++) vst1q_f32(yp + i + 4 * j, r[j]);
    }
    for (; i + 4 <= n; i += 4) vst1q_f32(yp + i, sg_f32_block(gp + i, op + i));
    for (; i < n; i++) yp[i] = sg_ref_f32(gp[i], op[i]);
}
