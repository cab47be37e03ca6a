/*
 * Exact fp16 / bf16 <-> fp32 conversions in portable C (no hardware half type needed).
 * float -> half rounds to nearest, ties to even, keeps subnormals, overflows to inf and keeps
 * NaN a NaN (quiet bit set, sign and top payload bits kept). half -> float is exact, except
 * that a signalling NaN comes out quiet (sign and payload kept), as the hardware conversions do.
 */
#ifndef SELUGRAD_KERNELS_REF_HALF_H
#define SELUGRAD_KERNELS_REF_HALF_H

#include <stdint.h>
#include <string.h>

static inline uint32_t sg_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float sg_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float sg_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    if (exp == 0x1F) /* inf, or NaN made quiet as F16C and FCVTL do */
        return sg_bits_f32(sign | 0x7F800000u | (man ? 0x400000u | (man << 13) : 0u));
    if (exp == 0) {
        /* zero or subnormal: man * 2^-24, exact in float */
        float v = (float)man * 0x1p-24f;
        return sg_bits_f32(sign | sg_f32_bits(v));
    }
    return sg_bits_f32(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint16_t sg_float_to_half(float f) {
    uint32_t x = sg_f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7FFFFFFFu;
    if (ax > 0x7F800000u) return (uint16_t)(sign | 0x7E00u | ((ax >> 13) & 0x3FFu));
    if (ax >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u); /* >= 65520 rounds to inf */
    if (ax >= 0x38800000u) {                                  /* normal half: >= 2^-14 */
        ax += 0xFFFu + ((ax >> 13) & 1u);
        return (uint16_t)(sign | ((ax - 0x38000000u) >> 13));
    }
    uint32_t e = ax >> 23;
    if (e < 102) return sign; /* below 2^-25: rounds to zero */
    /* subnormal half: count units of 2^-24, rounding the dropped bits to nearest even */
    uint32_t m = (ax & 0x7FFFFFu) | 0x800000u;
    uint32_t shift = 126u - e; /* 14 .. 24 */
    uint32_t q = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u))) q++;
    return (uint16_t)(sign | q);
}

static inline float sg_bf16_to_float(uint16_t b) {
    return sg_bits_f32((uint32_t)b << 16);
}

/* bf16 rounding of fp32 bits x that are not a NaN, ties to even, in the high half. */
static inline uint32_t sg_bf16_rne_hi(uint32_t x) {
    return x + 0x7FFFu + ((x >> 16) & 1u);
}

static inline uint16_t sg_float_to_bf16(float f) {
    uint32_t x = sg_f32_bits(f);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)(sg_bf16_rne_hi(x) >> 16);
}

#endif /* SELUGRAD_KERNELS_REF_HALF_H */
