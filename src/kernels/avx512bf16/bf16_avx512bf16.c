/*
 * bfloat16 SeluGrad for the avx512bf16 level: the same code and roundings as the avx512 variant
 * (avx512/bf16_avx512.h; t and the products are rounded with fp32 and integer operations, never
 * VCVTNE2PS2BF16, which treats fp32 subnormals as zero).
 * AVX512_BF16 was measured not to help: on the development machine a stream of independent
 * VCVTNE2PS2BF16 took about 5 times as long per instruction as 512-bit adds (2 per cycle), and
 * the VPERMW it needs to restore element order competed with the shifts (2 uops), so rounding t or
 * the products with it was slower than the fp32 arithmetic and packed-integer rounding used here.
 * The variant stays so that dispatch on such CPUs runs the fast code.
 */
#include "../avx512/bf16_avx512.h"

void sg_bf16_selugrad__avx512bf16(size_t n, const void *g, const void *o, void *y) {
    sg512_bf16_run(n, g, o, y);
}
