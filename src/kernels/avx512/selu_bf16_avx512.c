/*
 * bfloat16 SELU forward, AVX-512F/BW: 32 elements per step, widened exactly by interleaving them
 * with zero words (VPUNPCKLWD / VPUNPCKHWD: each bf16 becomes the high half of an fp32 lane),
 * sg512_selu16_f32_fix (the short exponential of selu16_exp.h) on the two halves, rounded to
 * bf16 with ties away from zero (sg512_bf16_away) and packed back by VPACKUSDW, which undoes the
 * interleave's order within each 128-bit lane. Calls below SG_NT_MIN_BYTES take steps of 112: 96
 * elements by vectors and 16 through the table of every input's result (selu16_table.h, which
 * says why), which this vector step fills once; larger calls, whose data stream from DRAM, take
 * vectors alone. Tail: the vector step under a mask.
 */
#include "../selu16_table.h"
#include "selu_avx512.h"

static sg_selu16_table sg_bf16_tab = {.once = PTHREAD_ONCE_INIT};

static inline __m512i sg_bf16_vec(__m512i b) {
    const __m512i zero = _mm512_setzero_si512();
    __m512 lo = _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, b));
    __m512 hi = _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, b));
    return _mm512_packus_epi32(sg512_bf16_away(sg512_selu16_f32_fix(lo, SG512_FIX_F32)),
                               sg512_bf16_away(sg512_selu16_f32_fix(hi, SG512_FIX_F32)));
}

static inline void sg_bf16_masked(size_t m, const void *xv, void *yv) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    for (size_t j = 0; j < m; j += 32) {
        __mmask32 k = m - j >= 32 ? ~(__mmask32)0 : (((__mmask32)1 << (m - j)) - 1);
        _mm512_mask_storeu_epi16(y + j, k, sg_bf16_vec(_mm512_maskz_loadu_epi16(k, x + j)));
    }
}

static inline void sg_bf16_step(const void *xv, void *yv, int stream) {
    __m512i r = sg_bf16_vec(_mm512_loadu_si512(xv));
    if (stream)
        _mm512_stream_si512(yv, r);
    else
        _mm512_storeu_si512(yv, r);
}

static void sg_bf16_tab_fill(void) {
    const __m512i step =
        _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
                         12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    for (uint32_t v = 0; v < 65536; v += 32)
        _mm512_storeu_si512(sg_bf16_tab.y + v,
                            sg_bf16_vec(_mm512_add_epi16(_mm512_set1_epi16((short)v), step)));
}

/* 112 elements: 96 by vectors, 16 through the table (calls below SG_NT_MIN_BYTES). */
static inline void sg_bf16_step_tab(const void *xv, void *yv, int stream) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    sg_bf16_step(x, y, stream);
    sg_bf16_step(x + 32, y + 32, stream);
    sg_bf16_step(x + 64, y + 64, stream);
    sg_selu16_lut16(sg_bf16_tab.y, x + 96, y + 96, stream);
}

void sg_bf16_selu__avx512(size_t n, const void *x, void *y) {
    if (sg_selu16_large(n)) {
        sg_selu_loop(x, y, n, sizeof(uint16_t), 32, sg_bf16_step, sg_bf16_masked, 0);
    } else {
        pthread_once(&sg_bf16_tab.once, sg_bf16_tab_fill);
        sg_selu_loop(x, y, n, sizeof(uint16_t), 112, sg_bf16_step_tab, sg_bf16_masked, 0);
    }
}
