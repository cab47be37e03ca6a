/*
 * float16 SELU forward, AVX2 + FMA + F16C: 48 elements per step, 32 of them as 8 lanes widened
 * exactly by VCVTPH2PS, sg256_selu16_f32 (the short exponential of selu16_exp.h), then rounded to
 * fp16 with ties away from zero (sg256_f16_away_pos), and 16 through the table of every input's
 * result (selu16_table.h, which says why), which those vector steps fill once. Peel and tail: the
 * table.
 */
#include "selu_avx2.h"

static sg_selu16_table sg_f16_tab = {.once = PTHREAD_ONCE_INIT};

static inline __m128i sg_f16_vec(__m128i h) {
    return sg256_f16_away_pos(sg256_selu16_f32(_mm256_cvtph_ps(h), 1));
}

/* 16 elements by vectors (VCVTPH2PS from memory: fewer micro-operations than from a register). */
static inline __m256i sg_f16_vec16(const uint16_t *x) {
    __m128i r0 = sg_f16_vec(_mm_loadu_si128((const __m128i *)x));
    __m128i r1 = sg_f16_vec(_mm_loadu_si128((const __m128i *)(x + 8)));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(r0), r1, 1);
}

static void sg_f16_tab_fill(void) {
    const __m128i step = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
    for (uint32_t v = 0; v < 65536; v += 8)
        _mm_storeu_si128((__m128i *)(sg_f16_tab.y + v),
                         sg_f16_vec(_mm_add_epi16(_mm_set1_epi16((short)v), step)));
}

static inline void sg_f16_step(const void *xv, void *yv, int stream) {
    const uint16_t *x = (const uint16_t *)xv;
    uint16_t *y = (uint16_t *)yv;
    for (int h = 0; h < 32; h += 16) {
        __m256i r = sg_f16_vec16(x + h);
        if (stream)
            _mm256_stream_si256((__m256i *)(y + h), r);
        else
            _mm256_storeu_si256((__m256i *)(y + h), r);
    }
    sg_selu16_lut16(sg_f16_tab.y, x + 32, y + 32, stream);
}

static inline void sg_f16_rest(size_t m, const void *x, void *y) {
    sg_selu16_lut_rest(sg_f16_tab.y, m, x, y);
}

void sg_f16_selu__avx2(size_t n, const void *x, void *y) {
    pthread_once(&sg_f16_tab.once, sg_f16_tab_fill);
    sg_selu_loop(x, y, n, sizeof(uint16_t), 48, sg_f16_step, sg_f16_rest, 0);
}
