/*
 * sg_selu_f32_all: every float32 SELU forward kernel of selu.inc that this CPU runs against the
 * model (sg_selu_ref_f32, kernels/ref/selu_ref.h) bit for bit, on every fp32 bit pattern: the
 * check that the SIMD kernels' form of the exponential (the clamp at -20, the integer 2^k;
 * kernels/ref/selu_exp.h) changes no output. Each block of 4096 consecutive patterns goes through
 * each kernel in two calls split 1 to 127 values before the block's end (moving with the block),
 * so the vector steps meet every value and the tails (AVX2's 8-lane steps and scalar rest,
 * AVX-512's masked step, NEON's rest) meet values of every sign and exponent.
 * Not part of the CTest suite at full size (a few minutes); the suite runs a sample.
 *
 *     sg_selu_f32_all [--step=N]     every N-th block (default 1: all 2^20 blocks)
 *
 * Prints, per kernel, the values checked and the mismatches (the first few with their inputs);
 * kernels this CPU lacks are reported SKIPPED by name. Exit status: 0 no mismatch, 1 a mismatch,
 * 2 bad arguments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_arg.h"
#include "isa/cpu.h"
#include "kernels/kernel.h"
#include "kernels/ref/selu_ref.h"

enum { BLOCK = 4096, MAX_KERNELS = 16 };

int main(int argc, char **argv) {
    uint64_t step = 1;
    if (sg_count_arg(argc, argv, "step", 1u << 20, &step) != 0) return 2;
    const sg_kernel *ks[MAX_KERNELS];
    uint64_t bad[MAX_KERNELS] = {0};
    size_t nk = 0;
    for (size_t i = 0; i < sg_selu_kernel_count; i++) {
        const sg_kernel *k = &sg_selu_kernels[i];
        if (k->dtype != SELUGRAD_FLOAT) continue;
        if (!sg_isa_supported(k->isa)) {
            printf("SKIPPED %s: this CPU lacks it\n", k->name);
            continue;
        }
        if (nk < MAX_KERNELS) ks[nk++] = k;
    }
    static uint32_t x[BLOCK], want[BLOCK], got[BLOCK];
    uint64_t checked = 0;
    for (uint64_t base = 0; base < (1ull << 32); base += (uint64_t)BLOCK * step) {
        for (uint32_t i = 0; i < BLOCK; i++) {
            x[i] = (uint32_t)(base + i);
            want[i] = sg_f32_bits(sg_selu_ref_f32(sg_bits_f32(x[i])));
        }
        uint32_t split = BLOCK - 1 - (uint32_t)((base / BLOCK) % 127);
        for (size_t j = 0; j < nk; j++) {
            ks[j]->fn1(split, x, got);
            ks[j]->fn1(BLOCK - split, x + split, got + split);
            if (memcmp(got, want, sizeof got) == 0) continue;
            for (uint32_t i = 0; i < BLOCK; i++)
                if (got[i] != want[i] && bad[j]++ < 5)
                    printf("%s: x 0x%08X gives 0x%08X, want 0x%08X\n", ks[j]->name, x[i], got[i],
                           want[i]);
        }
        checked += BLOCK;
    }
    uint64_t total = 0;
    for (size_t j = 0; j < nk; j++) {
        printf("%s: %llu values (step %llu), %llu mismatches\n", ks[j]->name,
               (unsigned long long)checked, (unsigned long long)step, (unsigned long long)bad[j]);
        total += bad[j];
    }
    return total ? 1 : 0;
}
