/* x86-64 feature detection: cpuid for the instruction sets, xgetbv for the OS-saved state. */
#include "features.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stddef.h>
#include <stdint.h>

static uint64_t sg_xgetbv0(void) {
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

void sg_cpu_detect(sg_cpu_features *f) {
    unsigned a, b, c, d;
    *f = (sg_cpu_features){0};
    if (!__get_cpuid(1, &a, &b, &c, &d)) return;
    f->sse2 = (d >> 26) & 1u;
    f->fma = (c >> 12) & 1u;
    f->avx = (c >> 28) & 1u;
    f->f16c = (c >> 29) & 1u;
    bool osxsave = (c >> 27) & 1u;
    if (osxsave) {
        uint64_t xcr0 = sg_xgetbv0();
        f->os_avx = (xcr0 & 0x6u) == 0x6u;                   /* SSE and AVX state */
        f->os_avx512 = f->os_avx && (xcr0 & 0xE0u) == 0xE0u; /* opmask, ZMM0-15 high, ZMM16-31 */
    }
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        f->avx2 = (b >> 5) & 1u;
        f->avx512f = (b >> 16) & 1u;
        f->avx512dq = (b >> 17) & 1u;
        f->avx512bw = (b >> 30) & 1u;
        f->avx512vl = (b >> 31) & 1u;
        f->avx512vbmi = (c >> 1) & 1u;
        f->avx512fp16 = (d >> 23) & 1u;
    }
}
#else
typedef int sg_isa_x86_unused; /* ISO C forbids an empty translation unit */
#endif
