/*
 * bfloat16 SeluGrad, AVX-512F/BW, 32 lanes per step as two fp32 halves: a 32-bit lane holds an
 * even element (low 16 bits, widened by a shift) and an odd one (high 16 bits, widened by a
 * mask), so no cross-lane conversion is needed.
 * Roundings: the factor f = o < 0 ? t : scale is chosen before rounding: s = o < 0 ? o + SA :
 * scale (one masked fp32 add), then s is rounded to bf16 in fp32 arithmetic
 * (sg512_bf16_round_arith: a multiply and an FMA), which leaves scale unchanged and gives t. Lanes
 * with |s| >= 2^112 (o <= -2^112 or -inf, where o + SA rounds to o) keep s
 * (sg512_bf16_keep_big). One fp32 multiply g * f then gives a or b exactly; NaN results are
 * canonicalised in fp32, and the 32 products are rounded to bf16 (integer RNE) and packed in one
 * pass on 16-bit words (sg512_bf16_pack_rne). Never VCVTNEPS2BF16 (it flushes subnormals).
 * Tail: one masked 16-bit load/store step. Large calls peel to a 64-byte aligned y and use
 * streaming stores (x86_nt.h), then SFENCE.
 */
#include "bf16_avx512.h"

void sg_bf16_selugrad__avx512(size_t n, const void *g, const void *o, void *y) {
    sg512_bf16_run(n, g, o, y);
}
