/* int8 SeluGrad, AVX2 + F16C: see small_int_avx2.h (fp16 row, RNE, signed saturating packs). */
#include "small_int_avx2.h"

/* Elements [0, m) by the reference. */
static inline void sg_s8_rest(const void *g, const void *o, void *y, size_t m) {
    const int8_t *gp = (const int8_t *)g, *op = (const int8_t *)o;
    int8_t *yp = (int8_t *)y;
    for (size_t i = 0; i < m; i++) yp[i] = sg_ref_s8(gp[i], op[i]);
}

void sg_s8_selugrad__avx2(size_t n, const void *g, const void *o, void *y) {
    sg256_small_int_loop(g, o, y, n, 1, sg_small_int_step, sg_s8_rest);
}
