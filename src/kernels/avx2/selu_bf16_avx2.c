/*
 * bfloat16 SELU forward, AVX2 + FMA: 48 elements per step, 32 of them by vectors: widened
 * exactly by interleaving them with zero words (VPUNPCKLWD / VPUNPCKHWD: each bf16 becomes the
 * high half of an fp32 lane), sg256_selu16_f32 (the short exponential of selu16_exp.h) on the two
 * halves, rounded to bf16 with ties away from zero (sg256_bf16_away) and packed back by
 * VPACKUSDW, which undoes the interleave's order within each 128-bit lane; and 16 through the
 * table of every input's result (selu16_table.h, which says why), which that vector step fills
 * once. Peel and tail: the table.
 */
#include "selu_avx2.h"

static sg_selu16_table sg_bf16_tab = {.once = PTHREAD_ONCE_INIT};

/* 16 elements by vectors. */
static inline __m256i sg_bf16_vec16(__m256i b) {
    const __m256i zero = _mm256_setzero_si256();
    __m256 lo = _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, b));
    __m256 hi = _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, b));
    /* values below 2^16: the unsigned pack keeps them */
    return _mm256_packus_epi32(sg256_bf16_away(sg256_selu16_f32(lo, 0)),
                               sg256_bf16_away(sg256_selu16_f32(hi, 0)));
}

static void sg_bf16_tab_fill(void) {
    const __m256i step = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (uint32_t v = 0; v < 65536; v += 16)
        _mm256_storeu_si256((__m256i *)(sg_bf16_tab.y + v),
                            sg_bf16_vec16(_mm256_add_epi16(_mm256_set1_epi16((short)v), step)));
}

static inline void sg_bf16_step(const void *xv, void *yv, int stream) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    for (int h = 0; h < 32; h += 16) {
        __m256i r = sg_bf16_vec16(_mm256_loadu_si256((const __m256i *)(x + h)));
        if (stream)
            _mm256_stream_si256((__m256i *)(y + h), r);
        else
            _mm256_storeu_si256((__m256i *)(y + h), r);
    }
    sg_selu16_lut16(sg_bf16_tab.y, x + 32, y + 32, stream);
}

static inline void sg_bf16_rest(size_t m, const void *x, void *y) {
    sg_selu16_lut_rest(sg_bf16_tab.y, m, x, y);
}

void sg_bf16_selu__avx2(size_t n, const void *x, void *y) {
    pthread_once(&sg_bf16_tab.once, sg_bf16_tab_fill);
    sg_selu_loop(x, y, n, sizeof(uint16_t), 48, sg_bf16_step, sg_bf16_rest, 0);
}
