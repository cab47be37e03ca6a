#define _GNU_SOURCE /* sysfs reading helpers need nothing more; kept for pthread_once */
#include "cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfile.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define SG_CACHE_X86 1
#endif

const sg_caches SG_CACHE_FALLBACK = {32u << 10, 1u << 20, 0, 0, 0, "fallback"};

/* Leaf 4 (Intel) and 0x8000001D (AMD) share one layout: subleaf i describes one cache. Its
   EAX[25:14] is not read: it is the most logical-processor IDs that could share the cache, which
   a hypervisor fills with a cap (254 on the Zen 5 VM, whose L3 two CPUs share), not a count. */
static int sg_cache_leaf(sg_cpuid_fn cpuid, unsigned leaf, sg_caches *c) {
    int found = 0;
    for (unsigned i = 0; i < 16; i++) {
        unsigned r[4];
        cpuid(leaf, i, r);
        unsigned a = r[0], b = r[1], cx = r[2];
        unsigned type = a & 31u, level = (a >> 5) & 7u;
        if (type == 0) break;
        if (type == 2) continue; /* instructions */
        size_t size = (size_t)((b >> 22) + 1) * (((b >> 12) & 1023u) + 1) * ((b & 4095u) + 1) *
                      ((size_t)cx + 1);
        if (level == 1) c->l1d = size;
        if (level == 2) c->l2 = size;
        if (level == 3) c->l3 = size;
        found = 1;
    }
    return found && c->l2 != 0;
}

static int sg_caches_cpuid(sg_cpuid_fn cpuid, sg_caches *c) {
    unsigned r[4];
    cpuid(0, 0, r);
    unsigned max = r[0], b = r[1];
    int intel = b == 0x756e6547u;                   /* "Genu" */
    int amd = b == 0x68747541u || b == 0x6f677948u; /* "Auth", "Hygo" */
    if (intel && max >= 4 && sg_cache_leaf(cpuid, 4, c)) {
        c->source = "cpuid leaf 4";
        return 1;
    }
    if (!amd) return 0;
    cpuid(0x80000000u, 0, r);
    unsigned ext = r[0];
    /* 0x8000001D is tried even without the TOPOEXT bit (some hypervisors hide the bit and
       answer the leaf), and trusted when it names an L2 */
    if (ext >= 0x8000001Du && sg_cache_leaf(cpuid, 0x8000001Du, c)) {
        c->source = "cpuid 0x8000001d";
        return 1;
    }
    *c = (sg_caches){0, 0, 0, 0, 0, NULL};
    if (ext >= 0x80000006u) { /* sizes only */
        cpuid(0x80000005u, 0, r);
        c->l1d = (size_t)(r[2] >> 24) << 10;
        cpuid(0x80000006u, 0, r);
        c->l2 = (size_t)(r[2] >> 16) << 10;
        c->l3 = (size_t)(r[3] >> 18) << 19;
        c->source = "cpuid 0x80000006";
        return c->l2 != 0;
    }
    return 0;
}

#if defined(SG_CACHE_X86)
static void sg_cpuid_hw(unsigned leaf, unsigned sub, unsigned r[4]) {
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}
#endif

/* CPUs in a list such as "0-3,8-11". */
static unsigned sg_count_cpus(const char *list) {
    unsigned n = 0;
    const char *p = list;
    while (*p) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p) break;
        if (*end == '-') b = strtoul(end + 1, &end, 10);
        if (b >= a) n += (unsigned)(b - a + 1);
        p = *end == ',' ? end + 1 : end;
        if (*end != ',') break;
    }
    return n;
}

/* dir/index<i>/<name>'s first line, or "" (also where the path does not fit). */
static void sg_read_index(const char *dir, int i, const char *name, char *buf, size_t len) {
    char path[512];
    int n = snprintf(path, sizeof path, "%s/index%d/%s", dir, i, name);
    if (n < 0 || (size_t)n >= sizeof path) {
        buf[0] = '\0';
        return;
    }
    sg_sysfile_line(path, buf, len);
}

static int sg_caches_sysfs(const char *dir, sg_caches *c) {
    int found = 0;
    for (int i = 0; i < 8; i++) {
        char level[16], type[32], size[32], shared[256];
        sg_read_index(dir, i, "level", level, sizeof level);
        if (level[0] == '\0') break;
        sg_read_index(dir, i, "type", type, sizeof type);
        if (strcmp(type, "Instruction") == 0) continue;
        sg_read_index(dir, i, "size", size, sizeof size);
        sg_read_index(dir, i, "shared_cpu_list", shared, sizeof shared);
        char *unit;
        size_t bytes = (size_t)strtoull(size, &unit, 10);
        if (*unit == 'K') bytes <<= 10;
        if (*unit == 'M') bytes <<= 20;
        unsigned lv = (unsigned)atoi(level), sharing = sg_count_cpus(shared);
        if (lv == 1) c->l1d = bytes;
        if (lv == 2) c->l2 = bytes, c->l2_threads = sharing;
        if (lv == 3) c->l3 = bytes, c->l3_threads = sharing;
        found = 1;
    }
    if (found && c->l2 != 0) c->source = "sysfs";
    return found && c->l2 != 0;
}

static sg_caches sg_the_caches, sg_the_caches_shared;
static pthread_once_t sg_caches_once = PTHREAD_ONCE_INIT, sg_caches_shared_once = PTHREAD_ONCE_INIT;

sg_caches sg_caches_detect(sg_cpuid_fn cpuid, const char *sysfs_dir) {
    sg_caches c = {0, 0, 0, 0, 0, NULL}, fs = {0, 0, 0, 0, 0, NULL};
    int have_fs = sysfs_dir != NULL && sg_caches_sysfs(sysfs_dir, &fs);
    if (cpuid != NULL && sg_caches_cpuid(cpuid, &c)) {
        /* the sizes from CPUID, the sharing counts from sysfs (0 without it): CPUID has none */
        c.l2_threads = have_fs ? fs.l2_threads : 0;
        c.l3_threads = have_fs && c.l3 ? fs.l3_threads : 0;
        return c;
    }
    return have_fs ? fs : SG_CACHE_FALLBACK;
}

static sg_cpuid_fn sg_cpuid_here(void) {
#if defined(SG_CACHE_X86)
    return __get_cpuid_max(0, NULL) != 0 ? sg_cpuid_hw : NULL; /* 0: no CPUID */
#else
    return NULL;
#endif
}

static const char sg_sysfs_cache_dir[] = "/sys/devices/system/cpu/cpu0/cache";

/* The sizes alone, on the first call's path: sysfs only where CPUID names no L2 (its dozen or
   more files cost the first call of a process about a quarter of a millisecond on the Zen 5 VM,
   where each open of a sysfs file is a hypervisor round trip). */
static void sg_caches_init(void) {
    sg_caches c = sg_caches_detect(sg_cpuid_here(), NULL);
    if (c.source == SG_CACHE_FALLBACK.source) c = sg_caches_detect(NULL, sg_sysfs_cache_dir);
    sg_the_caches = c;
}

static void sg_caches_shared_init(void) {
    sg_the_caches_shared = sg_caches_detect(sg_cpuid_here(), sg_sysfs_cache_dir);
}

const sg_caches *sg_caches_get(void) {
    pthread_once(&sg_caches_once, sg_caches_init);
    return &sg_the_caches;
}

const sg_caches *sg_caches_get_shared(void) {
    pthread_once(&sg_caches_shared_once, sg_caches_shared_init);
    return &sg_the_caches_shared;
}

/* ---- identity ---- */

static sg_cpu_id sg_the_id;
static pthread_once_t sg_id_once = PTHREAD_ONCE_INIT;

static void sg_id_init(void) {
    sg_cpu_id id;
    memset(&id, 0, sizeof id);
#if defined(SG_CACHE_X86)
    unsigned a, b, c, d;
    if (__get_cpuid(0, &a, &b, &c, &d)) {
        memcpy(id.vendor, &b, 4);
        memcpy(id.vendor + 4, &d, 4);
        memcpy(id.vendor + 8, &c, 4);
    }
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        unsigned fam = (a >> 8) & 15u, mod = (a >> 4) & 15u;
        if (fam == 15) fam += (a >> 20) & 255u;
        if (fam == 6 || fam >= 15) mod |= ((a >> 16) & 15u) << 4;
        id.family = fam;
        id.model_number = mod;
        id.stepping = a & 15u;
    }
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
        unsigned r[12];
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002u + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
        memcpy(id.model, r, 48);
        id.model[48] = '\0';
        /* brand strings are padded with spaces at either end */
        size_t len = strlen(id.model);
        while (len && id.model[len - 1] == ' ') id.model[--len] = '\0';
        size_t lead = strspn(id.model, " ");
        memmove(id.model, id.model + lead, len - lead + 1);
    }
#else
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            char *colon = strchr(line, ':');
            if (colon == NULL) continue;
            char *v = colon + 1 + strspn(colon + 1, " \t");
            v[strcspn(v, "\n")] = '\0';
            if (strncmp(line, "CPU implementer", 15) == 0 && id.vendor[0] == '\0')
                snprintf(id.vendor, sizeof id.vendor, "implementer %s", v);
            else if (strncmp(line, "CPU part", 8) == 0 && id.model_number == 0)
                id.model_number = (unsigned)strtoul(v, NULL, 0);
            else if ((strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0) &&
                     id.model[0] == '\0')
                snprintf(id.model, sizeof id.model, "%s", v);
        }
        fclose(f);
    }
#endif
    sg_the_id = id;
}

const sg_cpu_id *sg_cpu_id_get(void) {
    pthread_once(&sg_id_once, sg_id_init);
    return &sg_the_id;
}

/* ---- the store policy ---- */

size_t sg_stream_bytes(const sg_caches *c, unsigned threads) {
    size_t l2 = c->l2 ? c->l2 : SG_CACHE_FALLBACK.l2;
    return (size_t)(threads ? threads : 1) * (l2 + l2 / 2);
}
