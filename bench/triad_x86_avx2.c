/* STREAM triad, AVX2 (this file alone is built with -mavx2): a plain loop the compiler
   vectorizes, and one with non-temporal stores. Called only when the CPU has AVX2. */
#include <immintrin.h>
#include <stdint.h>

#include "bench_internal.h"

void sgb_triad_plain_avx2(float *a, const float *b, const float *c, float s, size_t n) {
    for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

void sgb_triad_nt_avx2(float *a, const float *b, const float *c, float s, size_t n) {
    size_t i = 0;
    for (; i < n && ((uintptr_t)(a + i) & 31u) != 0; i++) a[i] = b[i] + s * c[i];
    __m256 vs = _mm256_set1_ps(s);
    for (; i + 8 <= n; i += 8)
        _mm256_stream_ps(a + i, _mm256_add_ps(_mm256_loadu_ps(b + i),
                                              _mm256_mul_ps(vs, _mm256_loadu_ps(c + i))));
    for (; i < n; i++) a[i] = b[i] + s * c[i];
    _mm_sfence();
}

void sgb_scale_plain_avx2(float *a, const float *b, const float *c, float s, size_t n) {
    (void)c;
    for (size_t i = 0; i < n; i++) a[i] = s * b[i];
}

void sgb_scale_nt_avx2(float *a, const float *b, const float *c, float s, size_t n) {
    (void)c;
    size_t i = 0;
    for (; i < n && ((uintptr_t)(a + i) & 63u) != 0; i++) a[i] = s * b[i];
    __m256 vs = _mm256_set1_ps(s);
    for (; i + 8 <= n; i += 8) _mm256_stream_ps(a + i, _mm256_mul_ps(vs, _mm256_loadu_ps(b + i)));
    for (; i < n; i++) a[i] = s * b[i];
    _mm_sfence();
}
