/*
 * sg_f16_away_all: the SIMD pieces of the x86 SELU forward kernels against the scalar model on
 * every fp32 value, on the ISA levels this CPU runs:
 *   - the roundings with ties away from zero to fp16 (sg512_f16_away, sg256_f16_away; and
 *     sg512_f16_away_finite on every value but the infinities) and to bf16
 *     (sg512_bf16_away, sg256_bf16_away) against sg_f32_to_f16_away / sg_f32_to_bf16_away, on
 *     every fp32 value (NaNs as the canonical one, the only NaN the kernels round);
 *   - the exponential (sg512_selu_exp, sg256_selu_exp) against sg_selu_expf, bit for bit, on every
 *     fp32 x in [-20, 0], where the kernels' form of it gives the model's bits.
 * Not part of the CTest suite at full size (about 30 s per level); the suite runs every 4099th
 * block.
 *
 *     sg_f16_away_all [--step=N]     every N-th block of 16 values (default 1: all)
 *
 * Exit status: 0 no mismatch, 1 a mismatch, 2 bad arguments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_arg.h"
#include "isa/cpu.h"
#include "kernels/avx2/selu_avx2.h"
#include "kernels/avx512/selu_avx512.h"

static void block(uint64_t base, uint32_t v[16]) {
    for (int i = 0; i < 16; i++) {
        uint32_t u = (uint32_t)(base + (uint64_t)i);
        v[i] = (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : u;
    }
}

/* The lanes of a block where the exponential is compared: x in [-20, 0], where the kernels'
   form gives the model's bits (kernels/ref/selu_exp.h; sg_selu_f32_all checks the outputs on
   every x). */
static int exp_lane(uint32_t u) {
    return u >= 0x80000000u && u <= SG_EXP_KERNEL_MIN_BITS;
}

static uint64_t check512(uint64_t step) {
    uint64_t bad = 0;
    for (uint64_t base = 0; base < (1ull << 32); base += 16 * step) {
        uint32_t v[16], e[16], b[16];
        uint16_t h[16], hf[16];
        block(base, v);
        __m512 y = _mm512_loadu_ps((const float *)v);
        _mm256_storeu_si256((__m256i *)h, sg512_f16_away(y));
        _mm256_storeu_si256((__m256i *)hf, sg512_f16_away_finite(y));
        _mm512_storeu_si512(b, sg512_bf16_away(y));
        _mm512_storeu_ps((float *)e, sg512_selu_exp(y));
        for (int i = 0; i < 16; i++) {
            float f = sg_bits_f32(v[i]);
            if (h[i] != sg_f32_to_f16_away(f) && bad++ < 5)
                printf("avx512 fp16: 0x%08X gives 0x%04X\n", v[i], h[i]);
            if ((v[i] & 0x7FFFFFFFu) != 0x7F800000u && hf[i] != sg_f32_to_f16_away(f) && bad++ < 5)
                printf("avx512 fp16 (finite): 0x%08X gives 0x%04X\n", v[i], hf[i]);
            if (b[i] != sg_f32_to_bf16_away(f) && bad++ < 5)
                printf("avx512 bf16: 0x%08X gives 0x%08X\n", v[i], b[i]);
            if (exp_lane(v[i]) && e[i] != sg_f32_bits(sg_selu_expf(f)) && bad++ < 5)
                printf("avx512 exp: 0x%08X gives 0x%08X\n", v[i], e[i]);
        }
    }
    return bad;
}

static uint64_t check256(uint64_t step) {
    uint64_t bad = 0;
    for (uint64_t base = 0; base < (1ull << 32); base += 16 * step) {
        uint32_t v[16], e[16], b[16];
        uint16_t h[16];
        block(base, v);
        for (int j = 0; j < 16; j += 8) {
            __m256 y = _mm256_loadu_ps((const float *)v + j);
            _mm_storeu_si128((__m128i *)(h + j), sg256_f16_away(y));
            _mm256_storeu_si256((__m256i *)(b + j), sg256_bf16_away(y));
            _mm256_storeu_ps((float *)e + j, sg256_selu_exp(y));
        }
        for (int i = 0; i < 16; i++) {
            float f = sg_bits_f32(v[i]);
            if (h[i] != sg_f32_to_f16_away(f) && bad++ < 5)
                printf("avx2 fp16: 0x%08X gives 0x%04X\n", v[i], h[i]);
            if (b[i] != sg_f32_to_bf16_away(f) && bad++ < 5)
                printf("avx2 bf16: 0x%08X gives 0x%08X\n", v[i], b[i]);
            if (exp_lane(v[i]) && e[i] != sg_f32_bits(sg_selu_expf(f)) && bad++ < 5)
                printf("avx2 exp: 0x%08X gives 0x%08X\n", v[i], e[i]);
        }
    }
    return bad;
}

int main(int argc, char **argv) {
    uint64_t step = 1;
    if (sg_count_arg(argc, argv, "step", UINT32_MAX, &step) != 0) return 2;
    uint64_t bad = 0;
    if (sg_isa_supported(SG_ISA_AVX512)) {
        uint64_t b = check512(step);
        printf("avx512: %llu mismatches\n", (unsigned long long)b);
        bad += b;
    } else {
        printf("SKIPPED avx512: this CPU lacks it\n");
    }
    if (sg_isa_supported(SG_ISA_AVX2)) {
        uint64_t b = check256(step);
        printf("avx2: %llu mismatches\n", (unsigned long long)b);
        bad += b;
    } else {
        printf("SKIPPED avx2: this CPU lacks it\n");
    }
    return bad ? 1 : 0;
}
