/* The forward's exponential alone, AVX-512F (this file alone is built with the AVX-512 kernels'
   flags): sg512_selu_exp over n floats, for isa_rates.c's cycles per 16 elements. */
#include "bench_internal.h"
#include "kernels/avx512/selu_avx512.h"

void sgb_exp_avx512(size_t n, const float *x, float *y) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, sg512_selu_exp(_mm512_loadu_ps(x + i)));
    for (; i < n; i++) y[i] = sg_selu_expf(x[i]);
}
