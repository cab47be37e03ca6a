/*
 * selugrad_isa_rates: how many cycles this x86-64 core takes per instruction (reciprocal
 * throughput, independent instructions) for the vector instruction forms the AVX2 and AVX-512
 * kernels are made of, and how many cycles each SeluGrad kernel takes per 16 elements with its
 * data in L1 (4K elements of the benchmark's values, in buffers of the kernel's element size);
 * the same for every SELU forward kernel, and for the forward's exponential alone per ISA (x in
 * [-8, 0)). scripts/cost_model.py sets these beside llvm-mca's predictions. A kernel that is
 * bound by its instructions takes about the sum of its instructions' costs; docs/PERFORMANCE.md
 * ("Known limits and their measured reasons") does that sum for the AVX2 kernels.
 *
 * Cycles are counted with a chain of dependent 64-bit multiplies (latency 3 on the x86-64 cores
 * of the last decade, Intel and AMD), run before and after each figure, so the figures hold under
 * turbo and on a virtual machine whose clock is not known. A form whose instruction set the CPU
 * (or the OS) lacks is reported as skipped. GNU C inline assembly: x86-64 with GCC or Clang only.
 *
 * Usage: selugrad_isa_rates [--quick] [--help]. --quick runs 1/50 of the loops and 3 samples:
 * every line printed, the figures rough (the suite's smoke run). Exit status 0, or 2 for an
 * unknown argument.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "isa/cpu.h"
#include "kernels/kernel.h"
#include "kernels/ref/selu_exp.h"

enum { SGR_LOOPS = 2000000, SGR_SAMPLES = 7, SGR_QUICK = 50 };

/* Rounds per loop and samples per figure (and sgr_calls below): full, or --quick. */
static long sgr_loops = SGR_LOOPS;
static int sgr_samples = SGR_SAMPLES;

/* A buffer the memory forms read (and the store form writes). */
static _Alignas(64) unsigned char sgr_buf[4096];
/* The value the register forms read (normal, so that no form meets a subnormal assist). */
static const float sgr_one = 1.0f;

/* 24 instructions per round: 4 x (ins applied to destinations 0..5 of the register kind). */
#define SGR_6(ins, r)                                                                              \
    ins "%%" r "0\n\t" ins "%%" r "1\n\t" ins "%%" r "2\n\t" ins "%%" r "3\n\t" ins "%%" r         \
        "4\n\t" ins "%%" r "5\n\t"
#define SGR_24(ins, r) SGR_6(ins, r) SGR_6(ins, r) SGR_6(ins, r) SGR_6(ins, r)

/* One loop of sgr_loops rounds of `body`, whose sources are ymm8-10 = 1.0f (zmm8-10: 1.0f in the
   low half, 0 above); sets secs. */
#define SGR_LOOP(body)                                                                             \
    do {                                                                                           \
        long n_ = sgr_loops;                                                                       \
        double t0_ = sgb_now();                                                                    \
        __asm__ volatile("vbroadcastss (%2), %%ymm8\n\tvmovaps %%ymm8, %%ymm9\n\t"                 \
                         "vmovaps %%ymm8, %%ymm10\n\t1:\n\t" body "sub $1, %0\n\tjnz 1b"           \
                         : "+r"(n_)                                                                \
                         : "r"(sgr_buf), "r"(&sgr_one)                                             \
                         : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm8", "xmm9",         \
                           "xmm10", "memory", "cc");                                               \
        secs = sgb_now() - t0_;                                                                    \
    } while (0)

/* Seconds per cycle: 4 dependent IMULs (3 cycles each) per round; the best of three. */
static double sgr_cycle_s(void) {
    double best = 1.0;
    for (int k = 0; k < 3; k++) {
        long n = sgr_loops / 2;
        uint64_t x = 3;
        double t0 = sgb_now();
        __asm__ volatile("1:\n\timul %1, %1\n\timul %1, %1\n\timul %1, %1\n\timul %1, %1\n\t"
                         "sub $1, %0\n\tjnz 1b"
                         : "+r"(n), "+r"(x)
                         :
                         : "cc");
        double s = (sgb_now() - t0) / ((double)(sgr_loops / 2) * 12.0);
        if (s < best) best = s;
    }
    return best;
}

typedef struct sgr_form {
    const char *name;
    sg_isa isa; /* the level whose features it needs */
    int id;
    int per; /* what one round counts: instructions, or 16-element groups */
} sgr_form;

/* Memory forms: six different addresses of sgr_buf. */
#define SGR_M6(ins, tail)                                                                          \
    ins "(%1)" tail "0\n\t" ins "32(%1)" tail "1\n\t" ins "64(%1)" tail "2\n\t" ins "96(%1)" tail  \
        "3\n\t" ins "128(%1)" tail "4\n\t" ins "160(%1)" tail "5\n\t"
#define SGR_4(x)           x x x x
#define SGR_M24(ins, tail) SGR_4(SGR_M6(ins, tail))
#define SGR_STORE6                                                                                 \
    "vmovdqu %%ymm8, (%1)\n\tvmovdqu %%ymm8, 32(%1)\n\tvmovdqu %%ymm8, 64(%1)\n\t"                 \
    "vmovdqu %%ymm8, 96(%1)\n\tvmovdqu %%ymm8, 128(%1)\n\tvmovdqu %%ymm8, 160(%1)\n\t"

/* The forms, by id. */
static double sgr_run_form(int id) {
    double secs = 0;
    switch (id) {
    case 0:
        SGR_LOOP(SGR_24("vpand %%ymm8, %%ymm9, ", "ymm"));
        break;
    case 1:
        SGR_LOOP(SGR_24("vaddps %%ymm8, %%ymm9, ", "ymm"));
        break;
    case 2:
        SGR_LOOP(SGR_24("vmulps %%ymm8, %%ymm9, ", "ymm"));
        break;
    case 3:
        SGR_LOOP(SGR_24("vcmpltps %%ymm8, %%ymm9, ", "ymm"));
        break;
    case 4:
        SGR_LOOP(SGR_24("vpsrld $16, %%ymm8, ", "ymm"));
        break;
    case 5:
        SGR_LOOP(SGR_24("vpblendw $0xAA, %%ymm8, %%ymm9, ", "ymm"));
        break;
    case 6:
        SGR_LOOP(SGR_24("vblendvps %%ymm10, %%ymm8, %%ymm9, ", "ymm"));
        break;
    case 7:
        SGR_LOOP(SGR_24("vinserti128 $1, %%xmm8, %%ymm9, ", "ymm"));
        break;
    case 8:
        SGR_LOOP(SGR_M24("vcvtph2ps ", ", %%ymm"));
        break;
    case 9:
        SGR_LOOP(SGR_24("vcvtph2ps %%xmm8, ", "ymm"));
        break;
    case 10:
        SGR_LOOP(SGR_24("vcvtps2ph $8, %%ymm8, ", "xmm"));
        break;
    case 11:
        SGR_LOOP(SGR_4(SGR_STORE6));
        break;
    case 12:
        SGR_LOOP(SGR_24("vpandd %%zmm8, %%zmm9, ", "zmm"));
        break;
    case 13:
        SGR_LOOP(SGR_24("vmulps %%zmm8, %%zmm9, ", "zmm"));
        break;
    case 14:
        SGR_LOOP(SGR_24("vpshufb %%zmm8, %%zmm9, ", "zmm"));
        break;
    case 16:
        SGR_LOOP(SGR_M24("vcvtph2ps ", ", %%zmm"));
        break;
    case 17:
        SGR_LOOP(SGR_24("vcvtph2ps %%ymm8, ", "zmm"));
        break;
    case 18:
        SGR_LOOP(SGR_24("vcvtps2ph $8, %%zmm8, ", "ymm"));
        break;
    case 15: /* four 16-element groups */
        SGR_LOOP(SGR_4("vcvtph2ps (%1), %%ymm0\n\tvcvtph2ps 16(%1), %%ymm1\n\t"
                       "vcvtph2ps 32(%1), %%ymm2\n\tvcvtph2ps 48(%1), %%ymm3\n\t"
                       "vmulps %%ymm0, %%ymm1, %%ymm0\n\tvmulps %%ymm2, %%ymm3, %%ymm2\n\t"
                       "vcvtps2ph $8, %%ymm0, %%xmm0\n\tvcvtps2ph $8, %%ymm2, %%xmm2\n\t"
                       "vinserti128 $1, %%xmm2, %%ymm0, %%ymm0\n\tvmovdqu %%ymm0, 256(%1)\n\t"));
        break;
    default:
        break;
    }
    return secs;
}

static const sgr_form sgr_forms[] = {
    {"vpand ymm (and/andn/or/xor)", SG_ISA_AVX2, 0, 24},
    {"vaddps ymm (add/sub)", SG_ISA_AVX2, 1, 24},
    {"vmulps ymm", SG_ISA_AVX2, 2, 24},
    {"vcmpps ymm", SG_ISA_AVX2, 3, 24},
    {"vpsrld ymm, imm (shifts)", SG_ISA_AVX2, 4, 24},
    {"vpblendw ymm", SG_ISA_AVX2, 5, 24},
    {"vblendvps ymm", SG_ISA_AVX2, 6, 24},
    {"vinserti128 ymm", SG_ISA_AVX2, 7, 24},
    {"vcvtph2ps ymm, m128", SG_ISA_AVX2, 8, 24},
    {"vcvtph2ps ymm, xmm", SG_ISA_AVX2, 9, 24},
    {"vcvtps2ph xmm, ymm", SG_ISA_AVX2, 10, 24},
    {"vmovdqu m256, ymm (store)", SG_ISA_AVX2, 11, 24},
    {"vpandd zmm", SG_ISA_AVX512, 12, 24},
    {"vmulps zmm", SG_ISA_AVX512, 13, 24},
    {"vpshufb zmm", SG_ISA_AVX512, 14, 24},
    {"vcvtph2ps zmm, m256", SG_ISA_AVX512, 16, 24},
    {"vcvtph2ps zmm, ymm", SG_ISA_AVX512, 17, 24},
    {"vcvtps2ph ymm, zmm", SG_ISA_AVX512, 18, 24},
    /* What any F16C kernel does per 16 elements at least: convert 16 g and 16 o, multiply,
       convert 16 results back, join the halves, store; cycles per 16 elements. */
    {"F16C floor per 16 elements", SG_ISA_AVX2, 15, 4},
};

/* x() in cycles: its shortest time over sgr_samples runs over the shortest cycle measured beside
   them. Each minimum is the run that nothing preempted; a median of per-sample ratios is not, on
   a shared machine: a preempted clock sample makes its ratio too small, a preempted run too
   large, and with more runnable threads than cores either can be the middle one. */
static double sgr_best_cycles(double (*x)(int), int arg, double per) {
    double best_s = 0, best_cyc = 0;
    for (int k = 0; k < sgr_samples; k++) {
        double cyc = sgr_cycle_s(), s = x(arg);
        if (k == 0 || cyc < best_cyc) best_cyc = cyc;
        if (k == 0 || s < best_s) best_s = s;
    }
    return best_s / best_cyc / per;
}

static sgb_bufs sgr_bufs;
static const sg_kernel *sgr_kernel;

enum { SGR_N = 4096, SGR_CALLS = 2000 };
static int sgr_calls = SGR_CALLS;

/* Seconds for sgr_calls calls of sgr_kernel on SGR_N elements in L1 (the argument is unused). */
static double sgr_run_kernel(int unused) {
    (void)unused;
    const void *g = sgb_buf(&sgr_bufs, 0, 0), *o = sgb_buf(&sgr_bufs, 0, 1);
    void *y = sgb_buf(&sgr_bufs, 0, 2);
    sg_kernel_call(sgr_kernel, SGR_N, g, o, y);
    double t0 = sgb_now();
    for (int k = 0; k < sgr_calls; k++) sg_kernel_call(sgr_kernel, SGR_N, g, o, y);
    return sgb_now() - t0;
}

/* sgr_bufs: SGR_N elements of dtype per array (its element size: an array of narrower elements
   would make a 4-byte kernel read values pieced from two, subnormals and NaNs among them, and
   overrun into the next array), filled with the benchmark's values. Returns 0, or -1 when out of
   memory. */
static int sgr_fill(selugrad_dtype dtype) {
    sgb_bufs_free(&sgr_bufs);
    if (sgb_bufs_alloc(&sgr_bufs, SGR_N, selugrad_dtype_size(dtype)) != 0) return -1;
    sgb_bufs_fill(&sgr_bufs, dtype);
    return 0;
}

static int sgr_oom(const char *prog) {
    fprintf(stderr, "%s: out of memory\n", prog);
    return 1;
}

/* The forward's exponential alone on SGR_N floats: scalar (fmaf), AVX2, AVX-512. */
static void sgr_exp_scalar(size_t n, const float *x, float *y) {
    for (size_t i = 0; i < n; i++) y[i] = sg_selu_expf(x[i]);
}

typedef void (*sgr_exp_fn)(size_t n, const float *x, float *y);
static sgr_exp_fn sgr_exp;

static double sgr_run_exp(int unused) {
    (void)unused;
    const float *x = sgb_buf(&sgr_bufs, 0, 0);
    float *y = sgb_buf(&sgr_bufs, 0, 2);
    sgr_exp(SGR_N, x, y);
    double t0 = sgb_now();
    for (int k = 0; k < sgr_calls; k++) sgr_exp(SGR_N, x, y);
    return sgb_now() - t0;
}

int main(int argc, char **argv) {
    int arg = 1;
    if (arg < argc && strcmp(argv[arg], "--quick") == 0) {
        sgr_loops = SGR_LOOPS / SGR_QUICK;
        sgr_calls = SGR_CALLS / SGR_QUICK;
        sgr_samples = 3;
        arg++;
    }
    if (arg < argc) {
        int help = strcmp(argv[arg], "--help") == 0 || strcmp(argv[arg], "-h") == 0;
        FILE *f = help ? stdout : stderr;
        if (!help) fprintf(f, "%s: unknown argument \"%s\"\n", argv[0], argv[arg]);
        fprintf(f,
                "usage: %s [--quick]\nPrints cycles per instruction (independent instructions) "
                "for the vector forms the\nAVX2 and AVX-512 kernels use, and cycles per 16 "
                "elements of every SeluGrad and SELU\nkernel in L1. Cycles from a chain of "
                "dependent IMULs. --quick: 1/%d of the loops, 3 samples.\n",
                argv[0], SGR_QUICK);
        return help ? 0 : 2;
    }
    memset(sgr_buf, 0, sizeof sgr_buf);
    double cyc = sgr_cycle_s(); /* the shortest of several: for the clock and the GB/s columns */
    for (int k = 1; k < sgr_samples; k++) {
        double c = sgr_cycle_s();
        if (c < cyc) cyc = c;
    }
    printf("# selugrad_isa_rates: clock %.2f GHz (dependent IMUL chain); best of %d samples\n",
           1e-9 / cyc, sgr_samples);
    printf("%-32s %8s\n", "instruction", "cycles");
    for (size_t i = 0; i < sizeof sgr_forms / sizeof sgr_forms[0]; i++) {
        const sgr_form *f = &sgr_forms[i];
        if (!sg_isa_supported(f->isa)) {
            printf("%-32s %8s (no %s here)\n", f->name, "skipped", sg_isa_name(f->isa));
            continue;
        }
        printf("%-32s %8.3f\n", f->name,
               sgr_best_cycles(sgr_run_form, f->id, (double)sgr_loops * f->per));
    }
    printf("%-32s %8s\n", "kernel (4K elements in L1)", "cyc/16");
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *k = &sg_kernels[i];
        if (!sg_isa_supported(k->isa)) {
            printf("%-32s %8s (no %s here)\n", k->name, "skipped", sg_isa_name(k->isa));
            continue;
        }
        if (sgr_fill(k->dtype) != 0) return sgr_oom(argv[0]);
        sgr_kernel = k;
        printf("%-32s %8.2f\n", k->name,
               sgr_best_cycles(sgr_run_kernel, 0, (double)sgr_calls * SGR_N / 16.0));
    }
    printf("%-32s %8s %8s\n", "SELU forward (4K in L1)", "cyc/16", "GB/s/core");
    for (size_t i = 0; i < sg_selu_kernel_count; i++) {
        const sg_kernel *k = &sg_selu_kernels[i];
        if (!sg_isa_supported(k->isa)) {
            printf("%-32s %8s (no %s here)\n", k->name, "skipped", sg_isa_name(k->isa));
            continue;
        }
        if (sgr_fill(k->dtype) != 0) return sgr_oom(argv[0]);
        sgr_kernel = k;
        double c16 = sgr_best_cycles(sgr_run_kernel, 0, (double)sgr_calls * SGR_N / 16.0);
        /* what one core moves at that cost: 16 elements read and written per c16 cycles */
        double gbs = 16.0 * 2.0 * (double)selugrad_dtype_size(k->dtype) / c16 * 1e-9 / cyc;
        printf("%-32s %8.2f %8.1f\n", k->name, c16, gbs);
    }
    /* x in [-8, 0): the exponential's domain in the forward */
    if (sgr_fill(SELUGRAD_FLOAT) != 0) return sgr_oom(argv[0]);
    float *xs = sgb_buf(&sgr_bufs, 0, 0);
    for (size_t i = 0; i < SGR_N; i++) xs[i] = -8.0f * (float)(i + 1) / (float)SGR_N;
    struct {
        const char *name;
        sg_isa isa;
        sgr_exp_fn fn;
    } exps[] = {
        {"exp scalar (fmaf)", SG_ISA_SCALAR, sgr_exp_scalar},
#if defined(SGB_HAVE_AVX2)
        {"exp avx2 (8 lanes)", SG_ISA_AVX2, sgb_exp_avx2},
#endif
#if defined(SGB_HAVE_AVX512)
        {"exp avx512 (16 lanes)", SG_ISA_AVX512, sgb_exp_avx512},
#endif
    };
    printf("%-32s %8s %8s\n", "exponential alone (4K in L1)", "cyc/16", "Gexp/s/core");
    for (size_t i = 0; i < sizeof exps / sizeof exps[0]; i++) {
        if (!sg_isa_supported(exps[i].isa)) {
            printf("%-32s %8s (no %s here)\n", exps[i].name, "skipped", sg_isa_name(exps[i].isa));
            continue;
        }
        sgr_exp = exps[i].fn;
        double c16 = sgr_best_cycles(sgr_run_exp, 0, (double)sgr_calls * SGR_N / 16.0);
        printf("%-32s %8.2f %8.2f\n", exps[i].name, c16, 16.0 / c16 * 1e-9 / cyc);
    }
    sgb_bufs_free(&sgr_bufs);
    return 0;
}
