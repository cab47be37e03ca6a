/*
 * int32 SeluGrad, aarch64 Advanced SIMD (baseline ARMv8-A).
 * Steps: 16 elements (4 x int32x4_t) per iteration, then 4, then the scalar model (sg_ref_s32)
 * for the last 0..3 elements.
 * Roundings: g and o to fp32 with SCVTF (vcvtq_f32_s32, nearest even above 2^24 under FPCR);
 * then the float32 row (FMUL, FADD, FMUL, one rounding each); then FCVTZS (vcvtq_s32_f32), which
 * truncates toward zero and saturates to [INT32_MIN, INT32_MAX], exactly the contract. Integer
 * inputs never make a NaN or an inf.
 * In place: each block loads g and o before it stores y.
 */
#include "neon_math.h"
#include "../kernel.h"

static inline int32x4_t sg_s32_block(const int32_t *g, const int32_t *o) {
    float32x4_t r = sg_neon_f32_math(vcvtq_f32_s32(vld1q_s32(g)), vcvtq_f32_s32(vld1q_s32(o)));
    return vcvtq_s32_f32(r);
}

void sg_s32_selugrad__neon(size_t n, const void *g, const void *o, void *y) {
    const int32_t *gp = (const int32_t *)g;
    const int32_t *op = (const int32_t *)o;
    int32_t *yp = (int32_t *)y;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        int32x4_t r[4];
        for (int j = 0; j < 4; j++) r[j] = sg_s32_block(gp + i + 4 * j, op + i + 4 * j);
        for (int j = 0; j < 4; j++) vst1q_s32(yp + i + 4 * j, r[j]);
    }
    for (; i + 4 <= n; i += 4) vst1q_s32(yp + i, sg_s32_block(gp + i, op + i));
    for (; i < n; i++) yp[i] = sg_ref_s32(gp[i], op[i]);
}
