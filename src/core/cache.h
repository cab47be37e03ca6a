/*
 * This CPU's identity and data caches, read once at run time, and the store policy derived from
 * the cache sizes: from how much traffic a call writes its output with non-temporal stores.
 */
#ifndef SELUGRAD_CORE_CACHE_H
#define SELUGRAD_CORE_CACHE_H

#include <stddef.h>

typedef struct sg_caches {
    size_t l1d, l2, l3;              /* bytes of one instance; 0: none or unknown */
    unsigned l2_threads, l3_threads; /* CPUs of this system that share one instance, counted in
                                        sysfs' shared_cpu_list (CPUID has no count); 0: unknown.
                                        Shown by `selugrad info`; no policy reads them
                                        (sg_caches_get_shared) */
    const char *source; /* "cpuid leaf 4", "cpuid 0x8000001d", "cpuid 0x80000006", "sysfs",
                           "fallback" */
} sg_caches;

/* The caches of the CPU this process runs on, detected once: on x86 from CPUID (leaf 4 on
   Intel, 0x8000001D on AMD and Hygon, 0x80000005/6 on older AMD), elsewhere from
   /sys/devices/system/cpu/cpu0/cache; where none of these answers, SG_CACHE_FALLBACK. What the
   calls' policy reads: the sharing counts are 0 where CPUID gave the sizes (sysfs is not read). */
const sg_caches *sg_caches_get(void);

/* The same caches with the sharing counts from sysfs as well (sg_caches_detect with both
   sources), detected once on first use: for reports (`selugrad info`, the bench's header), off
   the calls' path. */
const sg_caches *sg_caches_get_shared(void);

/* The fallback: L1d 32 KiB, L2 1 MiB per core, no L3 known, sharing unknown. */
extern const sg_caches SG_CACHE_FALLBACK;

/* CPUID as detection reads it: leaf and subleaf in, EAX, EBX, ECX, EDX out in r. */
typedef void (*sg_cpuid_fn)(unsigned leaf, unsigned sub, unsigned r[4]);

/* The detection behind sg_caches_get, from given sources (tests give their own): CPUID through
   cpuid (NULL: none) on an Intel, AMD or Hygon vendor string, else the cache directory of a CPU
   in sysfs' layout (index<i>/level, type, size, shared_cpu_list; NULL: none), when either names
   an L2; else SG_CACHE_FALLBACK. The sharing counts come from the sysfs directory whichever
   source gave the sizes (0 where it does not name an L2). */
sg_caches sg_caches_detect(sg_cpuid_fn cpuid, const char *sysfs_dir);

/* Traffic (bytes of inputs and output) from which a call on `threads` threads streams its
   stores, given caches c. A pure function of its arguments (rule in cache.c and
   docs/dispatch.md). */
size_t sg_stream_bytes(const sg_caches *c, unsigned threads);

typedef struct sg_cpu_id {
    char vendor[16]; /* "GenuineIntel", "AuthenticAMD", ...; "" where unknown */
    char model[64];  /* the brand string, or "" */
    unsigned family, model_number, stepping; /* x86: family and model with their extensions */
} sg_cpu_id;

/* This CPU's identity, read once. */
const sg_cpu_id *sg_cpu_id_get(void);

#endif /* SELUGRAD_CORE_CACHE_H */
