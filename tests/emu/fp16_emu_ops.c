/* The emulated intrinsics over arrays; see fp16_emu_ops.h. */
#include "fp16_emu_ops.h"

#include "fp16_emu.h"

static __m512h ld(const uint16_t *p) {
    return _mm512_castsi512_ph(_mm512_loadu_si512(p));
}

static void st(uint16_t *p, __m512h v) {
    _mm512_storeu_si512(p, _mm512_castph_si512(v));
}

static void st_mask(uint8_t *r, __mmask32 k) {
    for (int i = 0; i < 32; i++) r[i] = (uint8_t)((k >> i) & 1u);
}

void sge_ops_add(size_t n, const uint16_t *a, const uint16_t *b, uint16_t *r) {
    for (size_t i = 0; i < n; i += 32) st(r + i, _mm512_add_ph(ld(a + i), ld(b + i)));
}

void sge_ops_mul(size_t n, const uint16_t *a, const uint16_t *b, uint16_t *r) {
    for (size_t i = 0; i < n; i += 32) st(r + i, _mm512_mul_ph(ld(a + i), ld(b + i)));
}

void sge_ops_fmadd(size_t n, const uint16_t *a, const uint16_t *b, const uint16_t *c, uint16_t *r) {
    for (size_t i = 0; i < n; i += 32) st(r + i, _mm512_fmadd_ph(ld(a + i), ld(b + i), ld(c + i)));
}

void sge_ops_cvtepi16_ph(size_t n, const int16_t *a, uint16_t *r) {
    for (size_t i = 0; i < n; i += 32) st(r + i, _mm512_cvtepi16_ph(_mm512_loadu_si512(a + i)));
}

void sge_ops_cvt_rne_ph_epi16(size_t n, const uint16_t *a, int16_t *r) {
    for (size_t i = 0; i < n; i += 32)
        _mm512_storeu_si512(r + i, _mm512_cvt_roundph_epi16(ld(a + i), _MM_FROUND_TO_NEAREST_INT |
                                                                           _MM_FROUND_NO_EXC));
}

void sge_ops_cmp_lt_oq(size_t n, const uint16_t *a, const uint16_t *b, uint8_t *r) {
    for (size_t i = 0; i < n; i += 32)
        st_mask(r + i, _mm512_cmp_ph_mask(ld(a + i), ld(b + i), _CMP_LT_OQ));
}

void sge_ops_cmp_unord_q(size_t n, const uint16_t *a, const uint16_t *b, uint8_t *r) {
    for (size_t i = 0; i < n; i += 32)
        st_mask(r + i, _mm512_cmp_ph_mask(ld(a + i), ld(b + i), _CMP_UNORD_Q));
}

void sge_ops_mask_blend(size_t n, const uint32_t *k, const uint16_t *a, const uint16_t *b,
                        uint16_t *r) {
    for (size_t i = 0; i < n; i += 32)
        st(r + i, _mm512_mask_blend_ph((__mmask32)k[i / 32], ld(a + i), ld(b + i)));
}

void sge_ops_setzero_cast(size_t n, const uint16_t *a, uint16_t *zero, uint16_t *r) {
    for (size_t i = 0; i < n; i += 32) {
        st(zero + i, _mm512_setzero_ph());
        st(r + i, ld(a + i));
    }
}
