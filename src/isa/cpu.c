#include "cpu.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sg_cpu_features sg_features;
static pthread_once_t sg_features_once = PTHREAD_ONCE_INIT;

static void sg_features_init(void) {
    sg_cpu_detect(&sg_features);
}

const sg_cpu_features *sg_cpu_features_get(void) {
    pthread_once(&sg_features_once, sg_features_init);
    return &sg_features;
}

bool sg_isa_supported(sg_isa isa) {
    const sg_cpu_features *f = sg_cpu_features_get();
    switch (isa) {
    case SG_ISA_SCALAR:
        return true;
    case SG_ISA_AVX2: /* every CPU with AVX2 so far also has FMA */
        return f->os_avx && f->avx2 && f->f16c && f->fma;
    case SG_ISA_AVX512:
        return f->os_avx512 && f->avx512f && f->avx512bw && f->avx512vl && f->avx512dq;
    case SG_ISA_AVX512FP16: /* every CPU with AVX512-FP16 so far also has VBMI */
        return sg_isa_supported(SG_ISA_AVX512) && f->avx512fp16 && f->avx512vbmi;
    case SG_ISA_NEON:
        return f->neon;
    }
    return false;
}

static const char *const sg_isa_names[] = {"scalar", "avx2", "avx512", "avx512fp16", "neon"};

const char *sg_isa_name(sg_isa isa) {
    if ((unsigned)isa < sizeof sg_isa_names / sizeof sg_isa_names[0]) return sg_isa_names[isa];
    return "unknown";
}

bool sg_isa_from_name(const char *name, sg_isa *isa) {
    if (name == NULL) return false;
    for (unsigned i = 0; i < sizeof sg_isa_names / sizeof sg_isa_names[0]; i++) {
        if (strcmp(name, sg_isa_names[i]) == 0) {
            *isa = (sg_isa)i;
            return true;
        }
    }
    return false;
}

bool sg_isa_allowed(sg_isa isa, sg_isa cap) {
    if (isa == SG_ISA_SCALAR) return true;
    if (isa == SG_ISA_NEON) return cap == SG_ISA_NEON;
    return cap != SG_ISA_NEON && isa <= cap;
}

static sg_isa sg_cap;
static pthread_once_t sg_cap_once = PTHREAD_ONCE_INIT;

static void sg_cap_init(void) {
#if defined(__aarch64__)
    sg_cap = SG_ISA_NEON;
#else
    sg_cap = SG_ISA_AVX512FP16;
#endif
    const char *env = getenv("SELUGRAD_MAX_ISA");
    if (env == NULL || env[0] == '\0') return;
    sg_isa parsed;
    if (sg_isa_from_name(env, &parsed)) {
        sg_cap = parsed;
    } else {
        fprintf(stderr,
                "selugrad: SELUGRAD_MAX_ISA=\"%s\" is not one of scalar, avx2, avx512, "
                "avx512fp16, neon; ignored\n",
                env);
    }
}

sg_isa sg_isa_cap_from_env(void) {
    pthread_once(&sg_cap_once, sg_cap_init);
    return sg_cap;
}
