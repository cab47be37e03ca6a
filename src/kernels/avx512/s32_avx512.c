/*
 * int32 SeluGrad, AVX-512F, 16 lanes per step.
 * Roundings: g, o converted to fp32 (VCVTDQ2PS, RNE under the default MXCSR); then the float32
 * row (a = g * scale, t = o + SA, b = g * t, select); the result truncated toward zero
 * (VCVTTPS2DQ), whose out-of-range value 0x80000000 is right for the negative side and replaced
 * by INT32_MAX where r >= 2^31. No NaN or inf can arise from integer inputs.
 * Tail: one masked load/store step. Large calls use streaming stores (see x86_nt.h), without
 * software prefetch (pf 0), as the AVX2 int32 kernel: from L3 the prefetches 4 KiB ahead in both
 * sub-streams cost time (1M elements, 2 threads, 64K-element tasks: `selugrad_bench --threads=2
 * --size=1M --dtype=s32 --isa=avx512` on the Zen 5 VM, 9 alternated runs at load 2.6, ratio to
 * the bound 0.91-0.95 with, 0.96-0.99 without), and from DRAM they did not clearly pay (16M,
 * 7 and 6 runs: 0.87-1.04 with, 0.90-1.03 without; 128M, 5 runs: 0.96-1.28, median 1.08, with,
 * 0.87-1.17, median 1.00, without; docs/dispatch.md "Stores and prefetch").
 */
#include "sg_avx512.h"

static inline __m512i sg_s32_step(__m512i gi, __m512i oi, const void *ctx) {
    (void)ctx;
    const __m512 scale = sg512_bits(SG_F32_SCALE_BITS), sa = sg512_bits(SG_F32_SA_BITS);
    __m512 g = _mm512_cvtepi32_ps(gi), o = _mm512_cvtepi32_ps(oi);
    __m512 r = sg512_select(g, o, _mm512_add_ps(o, sa), scale, _mm512_setzero_ps());
    __m512i q = _mm512_cvttps_epi32(r);
    __mmask16 hi = _mm512_cmp_ps_mask(r, _mm512_set1_ps(2147483648.0f), _CMP_GE_OQ);
    return _mm512_mask_mov_epi32(q, hi, _mm512_set1_epi32(INT32_MAX));
}

/* Elements [0, m) with m < 16, by masked loads and stores. */
static inline void sg_s32_masked(const void *g, const void *o, void *y, size_t m, const void *ctx) {
    __mmask16 k = sg512_mask16(m);
    __m512i r = sg_s32_step(_mm512_maskz_loadu_epi32(k, g), _mm512_maskz_loadu_epi32(k, o), ctx);
    _mm512_mask_storeu_epi32(y, k, r);
}

void sg_s32_selugrad__avx512(size_t n, const void *g, const void *o, void *y) {
    sg512_stream_loop(g, o, y, n, sizeof(int32_t), sg_s32_step, sg_s32_masked, 0, NULL);
}
