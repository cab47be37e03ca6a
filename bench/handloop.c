/*
 * The baseline: the loop a competent user writes by hand, one per dtype. Both sides of the select
 * are computed and one is picked, y = g * (o < 0 ? o + SA : scale), so the compiler can turn the
 * select into a vector blend instead of a branch. This file alone is built with the flags in
 * SGB_LOOP_FLAGS (bench/CMakeLists.txt: -O3 -march=native -fno-trapping-math where the compiler
 * takes them). GCC needs -fno-trapping-math, clang's default, to if-convert the int8 loop: with
 * GCC 12's default -ftrapping-math it sinks o + SA into a branch and keeps that loop scalar.
 * run.c splits a call over the same threads as the library call it is compared with.
 *
 * fp16 uses the compiler's half type (_Float16, or clang's __fp16 where it lacks _Float16) and,
 * on x86, the F16C conversions (below: what each compiler needs), bf16 shifts bits and rounds to
 * nearest even by integer arithmetic, integer types compute in float and saturate. A speed baseline
 * only: fp16/bf16 skip the contract's rounding of o + SA to 16 bits, int32 saturates at the largest
 * float below 2^31, and no NaN is made canonical.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__F16C__) && defined(__AVX__)
#include <immintrin.h>
#endif

#include "bench_internal.h"

#if !defined(SGB_LOOP_FLAGS)
#error "bench/CMakeLists.txt defines SGB_LOOP_FLAGS for this file"
#endif

#define SGB_SCALE 1.0507009873554804934193349852946f
#define SGB_SA    1.7580993408473768599402175208123f

/* The factor g is multiplied by: o + SA where o < 0, else scale; both computed, one picked. */
static inline float sgb_factor(float o) {
    float t = o + SGB_SA;
    return o < 0.0f ? t : SGB_SCALE;
}

static void sgb_loop_f32(size_t n, const void *gv, const void *ov, void *yv) {
    const float *restrict g = gv, *restrict o = ov;
    float *restrict y = yv;
    for (size_t i = 0; i < n; i++) y[i] = g[i] * sgb_factor(o[i]);
}

#if defined(__FLT16_MAX__)
__extension__ typedef _Float16 sgb_half;
#elif defined(__clang__)
__extension__ typedef __fp16 sgb_half;
#endif

#if defined(__F16C__) && defined(__AVX__) && defined(__FLT16_MAX__) && !defined(__clang__)
/* GCC on x86 with F16C: GCC 12 vectorizes no loop over _Float16 without AVX512-FP16 (it converts
   one element at a time and branches on the select), so eight halves at a time are converted by
   the F16C instructions and the formula runs on the floats in plain C. */
static void sgb_loop_f16(size_t n, const void *gv, const void *ov, void *yv) {
    const sgb_half *restrict g = gv, *restrict o = ov;
    sgb_half *restrict y = yv;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float gf[8], of[8], yf[8];
        _mm256_storeu_ps(gf, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(g + i))));
        _mm256_storeu_ps(of, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(o + i))));
        for (int j = 0; j < 8; j++) yf[j] = gf[j] * sgb_factor(of[j]);
        _mm_storeu_si128((__m128i *)(y + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(yf), _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < n; i++) y[i] = (sgb_half)((float)g[i] * sgb_factor((float)o[i]));
}
#elif defined(__F16C__) && defined(__AVX__) && defined(__clang__)
/* clang on x86 with F16C: clang 14 converts vectors of __fp16 lane by lane, and its SLP
   vectorizer makes the select of the eight-lane form above scalar compares; blocks of halves
   converted by F16C and run through the fp32 loop are the fastest form found (selugrad_bench
   --dtype=f16 --size=64K --threads=1 built with clang 14: 28-46 GB/s, the plain loop 6, the
   eight-lane form 7). */
enum { SGB_HALF_BLOCK = 256 };

static void sgb_loop_f16(size_t n, const void *gv, const void *ov, void *yv) {
    const sgb_half *g = gv, *o = ov;
    sgb_half *y = yv;
    for (size_t i = 0; i < n; i += SGB_HALF_BLOCK) {
        size_t m = n - i < SGB_HALF_BLOCK ? n - i : SGB_HALF_BLOCK, j = 0;
        float gf[SGB_HALF_BLOCK], of[SGB_HALF_BLOCK], yf[SGB_HALF_BLOCK];
        for (; j + 8 <= m; j += 8) {
            _mm256_storeu_ps(gf + j,
                             _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(g + i + j))));
            _mm256_storeu_ps(of + j,
                             _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(o + i + j))));
        }
        for (; j < m; j++) {
            gf[j] = (float)g[i + j];
            of[j] = (float)o[i + j];
        }
        sgb_loop_f32(m, gf, of, yf);
        for (j = 0; j + 8 <= m; j += 8)
            _mm_storeu_si128((__m128i *)(y + i + j),
                             _mm256_cvtps_ph(_mm256_loadu_ps(yf + j), _MM_FROUND_TO_NEAREST_INT));
        for (; j < m; j++) y[i + j] = (sgb_half)yf[j];
    }
}
#elif defined(__FLT16_MAX__) || defined(__clang__)
static void sgb_loop_f16(size_t n, const void *gv, const void *ov, void *yv) {
    const sgb_half *restrict g = gv, *restrict o = ov;
    sgb_half *restrict y = yv;
    for (size_t i = 0; i < n; i++) y[i] = (sgb_half)((float)g[i] * sgb_factor((float)o[i]));
}
#else
static void sgb_loop_f16(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *restrict g = gv, *restrict o = ov;
    uint16_t *restrict y = yv;
    for (size_t i = 0; i < n; i++)
        y[i] =
            selugrad_f32_to_f16(selugrad_f16_to_f32(g[i]) * sgb_factor(selugrad_f16_to_f32(o[i])));
}
#endif

static inline float sgb_from_bf16(uint16_t h) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t sgb_to_bf16(float f) { /* nearest even; NaN not made quiet */
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

static void sgb_loop_bf16(size_t n, const void *gv, const void *ov, void *yv) {
    const uint16_t *restrict g = gv, *restrict o = ov;
    uint16_t *restrict y = yv;
    for (size_t i = 0; i < n; i++)
        y[i] = sgb_to_bf16(sgb_from_bf16(g[i]) * sgb_factor(sgb_from_bf16(o[i])));
}

static void sgb_loop_s8(size_t n, const void *gv, const void *ov, void *yv) {
    const int8_t *restrict g = gv, *restrict o = ov;
    int8_t *restrict y = yv;
    for (size_t i = 0; i < n; i++) {
        int32_t q = (int32_t)rintf((float)g[i] * sgb_factor((float)o[i]));
        q = q < -128 ? -128 : q;
        y[i] = (int8_t)(q > 127 ? 127 : q);
    }
}

static void sgb_loop_u8(size_t n, const void *gv, const void *ov, void *yv) {
    const uint8_t *restrict g = gv, *restrict o = ov;
    uint8_t *restrict y = yv;
    for (size_t i = 0; i < n; i++) {
        int32_t q = (int32_t)rintf((float)g[i] * sgb_factor((float)o[i]));
        q = q < 0 ? 0 : q;
        y[i] = (uint8_t)(q > 255 ? 255 : q);
    }
}

static void sgb_loop_s32(size_t n, const void *gv, const void *ov, void *yv) {
    const int32_t *restrict g = gv, *restrict o = ov;
    int32_t *restrict y = yv;
    for (size_t i = 0; i < n; i++) {
        float r = (float)g[i] * sgb_factor((float)o[i]);
        r = r < -2147483648.0f ? -2147483648.0f : r;
        y[i] = (int32_t)(r > 2147483520.0f ? 2147483520.0f : r);
    }
}

sgb_loop_fn sgb_hand_loop(selugrad_dtype dtype) {
    switch (dtype) { /* sgb_loop_<tag> for every dtype of the list */
#define SG_DTYPE(tag, dt, acl, size, fp, ub_bpe, selu_bpe, aclnn, aliases)                         \
    case dt:                                                                                       \
        return sgb_loop_##tag;
#include "common/dtypes.inc"
#undef SG_DTYPE
    }
    return NULL;
}

/* How this file was built, for the report; data only, so that reading it runs no code built for
   another CPU. */
#if defined(__clang__)
#define SGB_LOOP_STR_(x) #x
#define SGB_LOOP_STR(x)  SGB_LOOP_STR_(x)
#define SGB_LOOP_CC                                                                                \
    "clang " SGB_LOOP_STR(__clang_major__) "." SGB_LOOP_STR(__clang_minor__) "." SGB_LOOP_STR(     \
        __clang_patchlevel__)
#elif defined(__GNUC__)
#define SGB_LOOP_CC "gcc " __VERSION__
#else
#define SGB_LOOP_CC "cc"
#endif
const char sgb_loop_build[] = SGB_LOOP_CC " " SGB_LOOP_FLAGS;

/* The highest ISA level the compiler was allowed to use here (by the predefined macros): run.c
   runs these loops only where the library's CPU check says that level runs. */
const sg_isa sgb_loop_isa =
#if defined(__AVX512FP16__) && defined(__AVX512VBMI__)
    SG_ISA_AVX512FP16
#elif defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) &&                    \
    defined(__AVX512DQ__)
    SG_ISA_AVX512
#elif defined(__AVX2__) && defined(__F16C__) && defined(__FMA__)
    SG_ISA_AVX2
#elif defined(__aarch64__) && defined(__ARM_NEON)
    SG_ISA_NEON
#else
    SG_ISA_SCALAR
#endif
    ;
