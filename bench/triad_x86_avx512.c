/* STREAM triad, AVX-512F (this file alone is built with -mavx512f): a plain loop the compiler
   vectorizes, and one with non-temporal stores. Called only when the CPU has AVX-512. */
#include <immintrin.h>
#include <stdint.h>

#include "bench_internal.h"

void sgb_triad_plain_avx512(float *a, const float *b, const float *c, float s, size_t n) {
    for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

void sgb_triad_nt_avx512(float *a, const float *b, const float *c, float s, size_t n) {
    size_t i = 0;
    for (; i < n && ((uintptr_t)(a + i) & 63u) != 0; i++) a[i] = b[i] + s * c[i];
    __m512 vs = _mm512_set1_ps(s);
    for (; i + 16 <= n; i += 16)
        _mm512_stream_ps(a + i, _mm512_add_ps(_mm512_loadu_ps(b + i),
                                              _mm512_mul_ps(vs, _mm512_loadu_ps(c + i))));
    for (; i < n; i++) a[i] = b[i] + s * c[i];
    _mm_sfence();
}

void sgb_scale_plain_avx512(float *a, const float *b, const float *c, float s, size_t n) {
    (void)c;
    for (size_t i = 0; i < n; i++) a[i] = s * b[i];
}

void sgb_scale_nt_avx512(float *a, const float *b, const float *c, float s, size_t n) {
    (void)c;
    size_t i = 0;
    for (; i < n && ((uintptr_t)(a + i) & 63u) != 0; i++) a[i] = s * b[i];
    __m512 vs = _mm512_set1_ps(s);
    for (; i + 16 <= n; i += 16) _mm512_stream_ps(a + i, _mm512_mul_ps(vs, _mm512_loadu_ps(b + i)));
    for (; i < n; i++) a[i] = s * b[i];
    _mm_sfence();
}
