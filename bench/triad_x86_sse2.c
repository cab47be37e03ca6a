/* STREAM triad with non-temporal stores, SSE2 (the x86-64 baseline; no extra flags). */
#include <emmintrin.h>
#include <stdint.h>

#include "bench_internal.h"

void sgb_triad_nt_sse2(float *a, const float *b, const float *c, float s, size_t n) {
    size_t i = 0;
    for (; i < n && ((uintptr_t)(a + i) & 15u) != 0; i++) a[i] = b[i] + s * c[i];
    __m128 vs = _mm_set1_ps(s);
    for (; i + 4 <= n; i += 4)
        _mm_stream_ps(a + i, _mm_add_ps(_mm_loadu_ps(b + i), _mm_mul_ps(vs, _mm_loadu_ps(c + i))));
    for (; i < n; i++) a[i] = b[i] + s * c[i];
    _mm_sfence(); /* streaming stores are weakly ordered: publish before the pool's join */
}

void sgb_scale_nt_sse2(float *a, const float *b, const float *c, float s, size_t n) {
    (void)c;
    size_t i = 0;
    for (; i < n && ((uintptr_t)(a + i) & 15u) != 0; i++) a[i] = s * b[i];
    __m128 vs = _mm_set1_ps(s);
    for (; i + 4 <= n; i += 4) _mm_stream_ps(a + i, _mm_mul_ps(vs, _mm_loadu_ps(b + i)));
    for (; i < n; i++) a[i] = s * b[i];
    _mm_sfence();
}
