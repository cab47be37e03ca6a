/*
 * selugrad_loop_trace: the instructions one kernel executes in its steady-state loop, in the
 * order it executes them, for llvm-mca (scripts/cost_model.py). The kernel runs as built into
 * the library, on the benchmark's values in L1 (the case selugrad_isa_rates times), under the x86
 * trap flag: every instruction raises SIGTRAP and the handler records its address. The kernel
 * runs twice, on N1 and on N2 elements; the steady loop's head is the target of a backward jump
 * that runs (N2 - N1) / E times more often on the second run, E (its elements per iteration) the
 * largest such (see main); the output is the addresses of ITER consecutive iterations from the
 * middle of the second run (ITER: enough to cover 64 elements, so that the paths of a scalar
 * loop's data-dependent branches appear in their proportions).
 *
 * Usage: selugrad_loop_trace KERNEL, a name from selugrad.inc or selu.inc (f32_selugrad__avx512,
 * s8_selu__avx2, ...), or exp__avx2 or exp__avx512 (the exponential alone, see sgt_exps). Prints
 * "elements E", "iterations ITER", then one line "M ADDR" per executed instruction: ADDR its
 * link-time address (hex) in module M, which a line "module M PATH" names before its first use.
 * Exit status 0; 2 for a bad argument or an unknown kernel; 3 when this CPU lacks the kernel's ISA;
 * 1 when no steady loop is found. x86-64 Linux, GNU C (the trap flag is set with inline assembly).
 */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "bench_internal.h"
#include "isa/cpu.h"
#include "kernels/kernel.h"

/* N2 - N1 = 10752 = 2^9 * 3 * 7: a whole number of steps of every kernel (16 to 512 elements,
   the AVX2 16-bit forward's 48, the AVX-512 bf16 forward's 112 in calls that stay in cache). */
enum { SGT_N1 = 1024, SGT_N2 = 11776, SGT_MIN_ELEMENTS = 64, SGT_MAX = 1 << 24 };

static uintptr_t *sgt_rip;
static volatile size_t sgt_len;

static void sgt_trap(int sig, siginfo_t *si, void *uctx) {
    (void)sig;
    (void)si;
    const ucontext_t *uc = uctx;
    if (sgt_len < SGT_MAX) sgt_rip[sgt_len++] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

/* Not inlined: the flags are pushed below the stack pointer, where an inlined copy could find
   the caller's red zone. */
__attribute__((noinline)) static void sgt_trace_on(void) {
    __asm__ volatile("pushfq\n\torq $0x100, (%%rsp)\n\tpopfq" ::: "cc", "memory");
}
__attribute__((noinline)) static void sgt_trace_off(void) {
    __asm__ volatile("pushfq\n\tandq $-257, (%%rsp)\n\tpopfq" ::: "cc", "memory");
}

/* Runs k on n elements under the trap flag; returns the number of addresses recorded into out
   (a copy of sgt_rip's first entries). */
static size_t sgt_run(const sg_kernel *k, const sgb_bufs *b, size_t n, uintptr_t *out) {
    sgt_len = 0;
    sgt_trace_on();
    sg_kernel_call(k, n, sgb_buf(b, 0, 0), sgb_buf(b, 0, 1), sgb_buf(b, 0, 2));
    sgt_trace_off();
    size_t len = sgt_len;
    memcpy(out, sgt_rip, len * sizeof *out);
    return len;
}

static int sgt_cmp(const void *a, const void *b) {
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return (x > y) - (x < y);
}

/* How often a occurs in the sorted array s[0, n). */
static size_t sgt_count(const uintptr_t *s, size_t n, uintptr_t a) {
    size_t lo = 0, hi = n;
    while (lo < hi) { /* first index with s[i] >= a */
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t c = 0;
    while (lo + c < n && s[lo + c] == a) c++;
    return c;
}

/* The load bias of the module holding the kernel, and its path. */
typedef struct sgt_module {
    uintptr_t addr, bias;
    const char *path;
} sgt_module;

static int sgt_find_module(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    sgt_module *m = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && m->addr >= lo && m->addr < lo + ph->p_memsz) {
            m->bias = info->dlpi_addr;
            m->path = info->dlpi_name;
            return 1;
        }
    }
    return 0;
}

/* The forward's exponential alone (bench/exp_x86_*.c, as selugrad_isa_rates times it), traced
   as kernels named exp__avx2 and exp__avx512 (on the benchmark's float values: x >= 0 saturates
   nothing, the loop is branch-free). */
#if defined(SGB_HAVE_AVX2)
static void sgt_exp_avx2(size_t n, const void *x, void *y) {
    sgb_exp_avx2(n, x, y);
}
#endif
#if defined(SGB_HAVE_AVX512)
static void sgt_exp_avx512(size_t n, const void *x, void *y) {
    sgb_exp_avx512(n, x, y);
}
#endif
static const sg_kernel sgt_exps[] = {
#if defined(SGB_HAVE_AVX2)
    {"exp__avx2", SELUGRAD_FLOAT, SG_ISA_AVX2, 0, NULL, SG_OP_SELU, sgt_exp_avx2},
#endif
#if defined(SGB_HAVE_AVX512)
    {"exp__avx512", SELUGRAD_FLOAT, SG_ISA_AVX512, 0, NULL, SG_OP_SELU, sgt_exp_avx512},
#endif
    {NULL, SELUGRAD_FLOAT, SG_ISA_SCALAR, 0, NULL, SG_OP_SELU, NULL},
};

static const sg_kernel *sgt_kernel(const char *name) {
    for (size_t i = 0; sgt_exps[i].name != NULL; i++)
        if (strcmp(sgt_exps[i].name, name) == 0) return &sgt_exps[i];
    for (size_t i = 0; i < sg_kernel_count; i++)
        if (strcmp(sg_kernels[i].name, name) == 0) return &sg_kernels[i];
    for (size_t i = 0; i < sg_selu_kernel_count; i++)
        if (strcmp(sg_selu_kernels[i].name, name) == 0) return &sg_selu_kernels[i];
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        int help = argc == 2;
        fprintf(help ? stdout : stderr,
                "usage: %s KERNEL\nPrints the addresses of the instructions of KERNEL's steady "
                "loop (a name from\nselugrad.inc or selu.inc), as executed on the benchmark's "
                "values in L1.\n",
                argv[0]);
        return help ? 0 : 2;
    }
    const sg_kernel *k = sgt_kernel(argv[1]);
    if (k == NULL) {
        fprintf(stderr, "%s: no kernel named \"%s\"\n", argv[0], argv[1]);
        return 2;
    }
    if (!sg_isa_supported(k->isa)) {
        fprintf(stderr, "%s: %s needs %s, which this CPU lacks\n", argv[0], k->name,
                sg_isa_name(k->isa));
        return 3;
    }
    sgb_bufs b;
    uintptr_t *t1 = malloc(SGT_MAX * sizeof *t1), *t2 = malloc(SGT_MAX * sizeof *t2);
    sgt_rip = malloc(SGT_MAX * sizeof *sgt_rip);
    if (!t1 || !t2 || !sgt_rip || sgb_bufs_alloc(&b, SGT_N2, selugrad_dtype_size(k->dtype)) != 0) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    sgb_bufs_fill(&b, k->dtype);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = sgt_trap;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTRAP, &sa, NULL);
    sg_kernel_call(k, SGT_N2, sgb_buf(&b, 0, 0), sgb_buf(&b, 0, 1), sgb_buf(&b, 0, 2)); /* warm */
    size_t n1 = sgt_run(k, &b, SGT_N1, t1);
    size_t n2 = sgt_run(k, &b, SGT_N2, t2);
    if (n2 >= SGT_MAX) {
        fprintf(stderr, "%s: more than %d instructions on %d elements\n", argv[0], SGT_MAX, SGT_N2);
        return 1;
    }
    uintptr_t *s1 = sgt_rip, *s2 = malloc(n2 * sizeof *s2);
    if (!s2) return 1;
    memcpy(s1, t1, n1 * sizeof *s1);
    qsort(s1, n1, sizeof *s1, sgt_cmp);
    memcpy(s2, t2, n2 * sizeof *s2);
    qsort(s2, n2, sizeof *s2, sgt_cmp);
    /* The steady loop's head: an address that a jump from a higher one lands on, run d more
       times on N2 elements than on N1 with d >= 4 (per-call and per-chunk code runs a fixed
       number of times more) dividing N2 - N1, the fewest such d (an inner loop runs a multiple
       of its outer loop's count; the join points of a scalar loop's data-dependent branches run
       counts that depend on the data); of equals, the lowest address. */
    uintptr_t head = 0;
    size_t dmin = 0;
    for (size_t i = 1; i < n2; i++) {
        uintptr_t a = t2[i];
        if (t2[i - 1] <= a) continue;
        size_t c2 = sgt_count(s2, n2, a), c1 = sgt_count(s1, n1, a);
        if (c2 < c1 + 4 || (SGT_N2 - SGT_N1) % (c2 - c1) != 0) continue;
        size_t d = c2 - c1;
        if (dmin == 0 || d < dmin || (d == dmin && a < head)) {
            dmin = d;
            head = a;
        }
    }
    if (head == 0) {
        fprintf(stderr, "%s: no steady loop found in %s\n", argv[0], k->name);
        return 1;
    }
    size_t elements = (SGT_N2 - SGT_N1) / dmin;
    size_t iters = (SGT_MIN_ELEMENTS + elements - 1) / elements;
    size_t nocc = sgt_count(s2, n2, head);
    if (nocc < iters + 1) {
        fprintf(stderr, "%s: too few iterations of %s's loop\n", argv[0], k->name);
        return 1;
    }
    size_t first = (nocc - iters) / 2, occ = 0, from = 0, to = 0;
    for (size_t i = 0; i < n2; i++) {
        if (t2[i] != head) continue;
        if (occ == first) from = i;
        if (occ == first + iters) {
            to = i;
            break;
        }
        occ++;
    }
    /* Each address as its module's link-time address (the module numbered in order of first
       appearance: the kernel's own, and a library it calls such as libm's fmaf). */
    enum { SGT_MODULES = 8 };
    sgt_module mods[SGT_MODULES];
    size_t nmods = 0;
    char exe[4096];
    ssize_t elen = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[elen > 0 ? elen : 0] = '\0';
    printf("elements %zu\niterations %zu\n", elements, iters);
    for (size_t i = from; i < to; i++) {
        sgt_module m = {t2[i], 0, NULL};
        if (dl_iterate_phdr(sgt_find_module, &m) == 0) {
            fprintf(stderr, "%s: address %lx is in no module\n", argv[0], (unsigned long)t2[i]);
            return 1;
        }
        size_t mi = 0;
        while (mi < nmods && mods[mi].bias != m.bias) mi++;
        if (mi == nmods) {
            if (nmods == SGT_MODULES) return 1;
            mods[nmods++] = m;
            printf("module %zu %s\n", mi, m.path && m.path[0] ? m.path : exe);
        }
        printf("%zu %lx\n", mi, (unsigned long)(t2[i] - m.bias));
    }
    free(s2);
    free(t1);
    free(t2);
    free(sgt_rip);
    sgb_bufs_free(&b);
    return 0;
}
