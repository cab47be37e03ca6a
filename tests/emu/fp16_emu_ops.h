/*
 * Each emulated AVX512-FP16 intrinsic of fp16_emu.h applied over arrays, called by its intrinsic
 * name (fp16_emu_ops.c, compiled like the emulated kernels), so that test_fp16_emu checks the
 * names the kernels call, lane by lane, against its own model. n: a multiple of 32. Callers
 * must first check that the CPU runs them (sge_cpu_runs_emulation).
 */
#ifndef SELUGRAD_TESTS_EMU_FP16_EMU_OPS_H
#define SELUGRAD_TESTS_EMU_FP16_EMU_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "isa/cpu.h"

/* AVX-512F/BW/VL/DQ and VBMI, with the OS saving their state: what the emulated kernels and
   fp16_emu_ops.c are compiled for. */
static inline int sge_cpu_runs_emulation(void) {
    const sg_cpu_features *f = sg_cpu_features_get();
    return sg_isa_supported(SG_ISA_AVX512) && f->avx512vl && f->avx512dq && f->avx512vbmi;
}

void sge_ops_add(size_t n, const uint16_t *a, const uint16_t *b, uint16_t *r);
void sge_ops_mul(size_t n, const uint16_t *a, const uint16_t *b, uint16_t *r);
void sge_ops_fmadd(size_t n, const uint16_t *a, const uint16_t *b, const uint16_t *c, uint16_t *r);
void sge_ops_cvtepi16_ph(size_t n, const int16_t *a, uint16_t *r);
void sge_ops_cvt_rne_ph_epi16(size_t n, const uint16_t *a, int16_t *r);
/* r[i]: 1 where the predicate holds on (a[i], b[i]), else 0 */
void sge_ops_cmp_lt_oq(size_t n, const uint16_t *a, const uint16_t *b, uint8_t *r);
void sge_ops_cmp_unord_q(size_t n, const uint16_t *a, const uint16_t *b, uint8_t *r);
/* r[i] = bit i % 32 of k[i / 32] ? b[i] : a[i] */
void sge_ops_mask_blend(size_t n, const uint32_t *k, const uint16_t *a, const uint16_t *b,
                        uint16_t *r);
/* r[i] = the bits of _mm512_setzero_ph() and of _mm512_castph_si512(_mm512_castsi512_ph(a)) */
void sge_ops_setzero_cast(size_t n, const uint16_t *a, uint16_t *zero, uint16_t *r);

#endif /* SELUGRAD_TESTS_EMU_FP16_EMU_OPS_H */
