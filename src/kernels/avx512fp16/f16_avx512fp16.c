/*
 * float16 SeluGrad, native AVX512-FP16, 32 lanes per step.
 * Roundings: a = g * scale, t = o + SA, b = g * t, each one native fp16 operation (RNE, no FMA,
 * subnormals kept); select on o < 0; NaN results become 0x7E00. Tail: one masked step. Large
 * calls peel to a 64-byte aligned y and use streaming stores (x86_nt.h), then SFENCE.
 */
#include "../x86_nt.h"
#include "sg_avx512fp16.h"

static inline __m512i sg_f16_step(__m512i gx, __m512i ox, const void *ctx) {
    (void)ctx;
    __m512h r = sgh_selugrad(_mm512_castsi512_ph(gx), _mm512_castsi512_ph(ox));
    __mmask32 nan = _mm512_cmp_ph_mask(r, r, _CMP_UNORD_Q);
    return _mm512_castph_si512(_mm512_mask_blend_ph(nan, r, sgh_bits(SG_F16_QNAN_BITS)));
}

/* Elements [0, m) with m < 32, by masked loads and stores. */
static inline void sg_f16_masked(const void *g, const void *o, void *y, size_t m, const void *ctx) {
    __mmask32 k = sgh_mask32(m);
    __m512i r = sg_f16_step(_mm512_maskz_loadu_epi16(k, g), _mm512_maskz_loadu_epi16(k, o), ctx);
    _mm512_mask_storeu_epi16(y, k, r);
}

void sg_f16_selugrad__avx512fp16(size_t n, const void *g, const void *o, void *y) {
    sg512_stream_loop(g, o, y, n, sizeof(uint16_t), sg_f16_step, sg_f16_masked, 1, NULL);
}
