/* The forward's exponential alone, AVX2 + FMA (this file alone is built with -mavx2 -mfma): the
   AVX2 kernels' sg256_selu_exp over n floats, for isa_rates.c's cycles per 16 elements. */
#include "bench_internal.h"
#include "kernels/avx2/selu_avx2.h"

void sgb_exp_avx2(size_t n, const float *x, float *y) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, sg256_selu_exp(_mm256_loadu_ps(x + i)));
    for (; i < n; i++) y[i] = sg_selu_expf(x[i]);
}
