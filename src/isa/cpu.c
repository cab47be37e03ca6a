#include "cpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"

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
    case SG_ISA_ALL:
        return false;
    }
    return false;
}

/* Indexed by level; SG_ISA_ALL is "all". */
static const char *const sg_isa_names[SG_ISA_LEVELS] = {"scalar", "avx2", "avx512", "avx512fp16",
                                                        "neon"};

bool sg_isa_valid(int v) {
    return (v >= 0 && v < SG_ISA_LEVELS) || v == SG_ISA_ALL;
}

const char *sg_isa_name(sg_isa isa) {
    if (isa == SG_ISA_ALL) return "all";
    if ((unsigned)isa < SG_ISA_LEVELS) return sg_isa_names[isa];
    return "unknown";
}

bool sg_isa_from_name(const char *name, sg_isa *isa) {
    if (name == NULL) return false;
    if (strcmp(name, "all") == 0) {
        *isa = SG_ISA_ALL;
        return true;
    }
    for (unsigned i = 0; i < SG_ISA_LEVELS; i++) {
        if (strcmp(name, sg_isa_names[i]) == 0) {
            *isa = (sg_isa)i;
            return true;
        }
    }
    return false;
}

bool sg_isa_allowed(sg_isa isa, sg_isa cap) {
    if (isa == SG_ISA_SCALAR || cap == SG_ISA_ALL) return true;
    if (isa == SG_ISA_NEON || cap == SG_ISA_NEON) return isa == cap;
    return isa <= cap; /* x86 levels */
}

/* The cap: SG_CAP_UNSET until the environment's default is read or selugrad_set_max_isa sets
   one, whichever comes first (the default never replaces a cap that was set). */
enum { SG_CAP_UNSET = -1 };
static atomic_int sg_cap = SG_CAP_UNSET;
static pthread_once_t sg_cap_once = PTHREAD_ONCE_INIT;

static void sg_cap_init(void) {
    sg_isa cap = SG_ISA_ALL;
    const char *env = getenv("SELUGRAD_MAX_ISA");
    if (env != NULL && env[0] != '\0' && !sg_isa_from_name(env, &cap)) {
        cap = SG_ISA_ALL;
        fprintf(stderr,
                "selugrad: SELUGRAD_MAX_ISA=\"%s\" is not one of scalar, avx2, avx512, "
                "avx512fp16, neon, all; ignored\n",
                env);
    }
    int unset = SG_CAP_UNSET;
    atomic_compare_exchange_strong(&sg_cap, &unset, (int)cap);
}

sg_isa sg_isa_cap(void) {
    int cap = atomic_load_explicit(&sg_cap, memory_order_relaxed);
    if (cap == SG_CAP_UNSET) {
        pthread_once(&sg_cap_once, sg_cap_init);
        cap = atomic_load_explicit(&sg_cap, memory_order_relaxed);
    }
    return (sg_isa)cap;
}

selugrad_status selugrad_set_max_isa(selugrad_isa isa) {
    if (!sg_isa_valid((int)isa))
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "selugrad_set_max_isa: %d is not a selugrad_isa (expected "
                       "SELUGRAD_ISA_SCALAR (0) to SELUGRAD_ISA_NEON (4), or SELUGRAD_ISA_ALL "
                       "(255))",
                       (int)isa);
    atomic_store_explicit(&sg_cap, (int)isa, memory_order_relaxed);
    return SELUGRAD_OK;
}

selugrad_isa selugrad_get_max_isa(void) {
    return sg_isa_cap();
}

const char *selugrad_isa_name(selugrad_isa isa) {
    return sg_isa_valid((int)isa) ? sg_isa_name(isa) : NULL;
}

int selugrad_isa_supported(selugrad_isa isa) {
    return sg_isa_valid((int)isa) && sg_isa_supported(isa);
}
