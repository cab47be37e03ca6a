/*
 * The AVX512-FP16 intrinsics of the SeluGrad kernels (src/kernels/avx512fp16), emulated with
 * AVX-512F/BW and the integer binary16 arithmetic of fp16_emu_scalar.h, so that the kernels' own
 * source runs on a CPU without AVX512-FP16. Force-included (-include) before a kernel file that
 * is compiled with the AVX-512 flags but without -mavx512fp16: <immintrin.h> comes first, then
 * each intrinsic's name is #defined to its emulation, and __m512h to a struct holding the 32
 * lanes' bits (a type of its own, so that the kernels cannot mix it with __m512i unseen; GCC's
 * __m512h exists without -mavx512fp16, clang 14's does not). The kernels include <immintrin.h>
 * again, which its guard makes a no-op.
 * Only the forms the kernels use exist: _mm512_cmp_ph_mask with _CMP_LT_OQ or _CMP_UNORD_Q, and
 * _mm512_cvt_roundph_epi16 with _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC; any other
 * predicate or rounding fails to compile, and so does a kernel calling an FP16 intrinsic not
 * defined here (GCC's takes the compiler's __m512h, not sge_m512h; clang 14 declares none without
 * -mavx512fp16). tests/emu/refused.c holds one of each.
 */
#ifndef SELUGRAD_TESTS_EMU_FP16_EMU_H
#define SELUGRAD_TESTS_EMU_FP16_EMU_H

#ifdef __AVX512FP16__
#error "fp16_emu.h stands in for AVX512-FP16: compile without -mavx512fp16"
#endif
#if !defined(__AVX512F__) || !defined(__AVX512BW__)
#error "fp16_emu.h needs AVX-512F and AVX-512BW (-mavx512f -mavx512bw)"
#endif

#include <immintrin.h>
#include <stdint.h>

#include "fp16_emu_scalar.h"

typedef struct sge_m512h {
    __m512i v;
} sge_m512h;

#define SGE_EMU_INLINE static inline __attribute__((always_inline))

/* r[i] = op(a[i], b[i]) for the 32 lanes. */
#define SGE_LANES2(a, b, expr)                                                                     \
    uint16_t x_[32], y_[32], r_[32];                                                               \
    _mm512_storeu_si512(x_, (a).v);                                                                \
    _mm512_storeu_si512(y_, (b).v);                                                                \
    for (int i_ = 0; i_ < 32; i_++) r_[i_] = expr;                                                 \
    sge_m512h res_ = {_mm512_loadu_si512(r_)};                                                     \
    return res_

SGE_EMU_INLINE sge_m512h sge_add_ph(sge_m512h a, sge_m512h b) {
    SGE_LANES2(a, b, sge_add(x_[i_], y_[i_]));
}

SGE_EMU_INLINE sge_m512h sge_mul_ph(sge_m512h a, sge_m512h b) {
    SGE_LANES2(a, b, sge_mul(x_[i_], y_[i_]));
}

SGE_EMU_INLINE sge_m512h sge_fmadd_ph(sge_m512h a, sge_m512h b, sge_m512h c) {
    uint16_t z[32];
    _mm512_storeu_si512(z, c.v);
    SGE_LANES2(a, b, sge_fma(x_[i_], y_[i_], z[i_]));
}

/* VCVTW2PH: 32 int16 lanes to binary16. */
SGE_EMU_INLINE sge_m512h sge_cvtepi16_ph(__m512i a) {
    int16_t x[32];
    uint16_t r[32];
    _mm512_storeu_si512(x, a);
    for (int i = 0; i < 32; i++) r[i] = sge_cvtw2ph(x[i]);
    sge_m512h res = {_mm512_loadu_si512(r)};
    return res;
}

/* VCVTPH2W, round to nearest even (the one rounding argument the macro below admits). */
SGE_EMU_INLINE __m512i sge_cvt_rne_ph_epi16(sge_m512h a) {
    uint16_t x[32];
    int16_t r[32];
    _mm512_storeu_si512(x, a.v);
    for (int i = 0; i < 32; i++) r[i] = sge_cvtph2w(x[i]);
    return _mm512_loadu_si512(r);
}

/* VCMPPH: bit i of the mask is the predicate on lane i (unord: 1 for _CMP_UNORD_Q, 0 for
   _CMP_LT_OQ). */
SGE_EMU_INLINE __mmask32 sge_cmp_ph_mask(sge_m512h a, sge_m512h b, int unord) {
    uint16_t x[32], y[32];
    _mm512_storeu_si512(x, a.v);
    _mm512_storeu_si512(y, b.v);
    uint32_t k = 0;
    for (int i = 0; i < 32; i++)
        k |= (uint32_t)(unord ? sge_unord_q(x[i], y[i]) : sge_lt_oq(x[i], y[i])) << i;
    return (__mmask32)k;
}

/* VPBLENDMW's selection: lane i from b where bit i of k is set, else from a. */
SGE_EMU_INLINE sge_m512h sge_mask_blend_ph(__mmask32 k, sge_m512h a, sge_m512h b) {
    sge_m512h r = {_mm512_mask_blend_epi16(k, a.v, b.v)};
    return r;
}

SGE_EMU_INLINE sge_m512h sge_setzero_ph(void) {
    sge_m512h r = {_mm512_setzero_si512()};
    return r;
}

SGE_EMU_INLINE sge_m512h sge_castsi512_ph(__m512i a) {
    sge_m512h r = {a};
    return r;
}

SGE_EMU_INLINE __m512i sge_castph_si512(sge_m512h a) {
    return a.v;
}

/* A constant argument that must be one of the values listed: its value, or a compile error. */
#define SGE_ONE_OF(x, cond, msg)                                                                   \
    ((x) + 0 * (int)sizeof(struct {                                                                \
               _Static_assert(cond, msg);                                                          \
               int ok_;                                                                            \
           }))

#undef __m512h
#define __m512h sge_m512h
#undef _mm512_add_ph
#define _mm512_add_ph sge_add_ph
#undef _mm512_mul_ph
#define _mm512_mul_ph sge_mul_ph
#undef _mm512_fmadd_ph
#define _mm512_fmadd_ph sge_fmadd_ph
#undef _mm512_cvtepi16_ph
#define _mm512_cvtepi16_ph sge_cvtepi16_ph
#undef _mm512_cvt_roundph_epi16
#define _mm512_cvt_roundph_epi16(a, r)                                                             \
    ((void)SGE_ONE_OF(r, (r) == (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC),                   \
                      "only round to nearest even is emulated"),                                   \
     sge_cvt_rne_ph_epi16(a))
#undef _mm512_cmp_ph_mask
#define _mm512_cmp_ph_mask(a, b, p)                                                                \
    sge_cmp_ph_mask(a, b,                                                                          \
                    SGE_ONE_OF(p, (p) == _CMP_LT_OQ || (p) == _CMP_UNORD_Q,                        \
                               "only _CMP_LT_OQ and _CMP_UNORD_Q are emulated") == _CMP_UNORD_Q)
#undef _mm512_mask_blend_ph
#define _mm512_mask_blend_ph sge_mask_blend_ph
#undef _mm512_setzero_ph
#define _mm512_setzero_ph sge_setzero_ph
#undef _mm512_castsi512_ph
#define _mm512_castsi512_ph sge_castsi512_ph
#undef _mm512_castph_si512
#define _mm512_castph_si512 sge_castph_si512

#endif /* SELUGRAD_TESTS_EMU_FP16_EMU_H */
