#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/cpu.h"

const int bt_threads[BT_NTHREADS] = {1, 2, 3, 7};

/* The battery programs are single-threaded; these counters are only touched by their thread. */
static size_t bt_total;
static unsigned char bt_skip_printed[256];
static unsigned bt_skipped; /* bit per ISA level whose kernels or cap did not run here */
static int bt_level = -1;   /* the one level tested (--isa=LEVEL), or -1: all */

int bt_parse_args(int argc, char **argv) {
    if (argc < 2) return 0;
    sg_isa level;
    if (argc > 2 || strncmp(argv[1], "--isa=", 6) != 0 || !sg_isa_from_name(argv[1] + 6, &level) ||
        level == SG_ISA_ALL) {
        fprintf(stderr, "usage: %s [--isa=scalar|avx2|avx512|avx512fp16|neon]\n", argv[0]);
        return 2;
    }
    if (!sg_isa_supported(level)) {
        printf("SKIPPED: %s not on this CPU\n", sg_isa_name(level));
        return 77;
    }
    printf("testing the kernels of %s and dispatch under cap %s only\n", sg_isa_name(level),
           sg_isa_name(level));
    bt_level = (int)level;
    return 0;
}

enum { BT_MAX_REPORTED = 6 };

static void bt_print_elem(selugrad_dtype dt, const void *base, size_t i, char *buf, size_t len) {
    const char *p = (const char *)base + i * selugrad_dtype_size(dt);
    switch (dt) {
    case SELUGRAD_FLOAT: {
        uint32_t u;
        float f;
        memcpy(&u, p, 4);
        memcpy(&f, p, 4);
        snprintf(buf, len, "0x%08X (%.9g)", (unsigned)u, (double)f);
        break;
    }
    case SELUGRAD_FLOAT16:
    case SELUGRAD_BF16: {
        uint16_t u;
        memcpy(&u, p, 2);
        snprintf(buf, len, "0x%04X", (unsigned)u);
        break;
    }
    case SELUGRAD_INT8:
        snprintf(buf, len, "%d", (int)*(const int8_t *)p);
        break;
    case SELUGRAD_UINT8:
        snprintf(buf, len, "%u", (unsigned)*(const uint8_t *)p);
        break;
    case SELUGRAD_INT32: {
        int32_t v;
        memcpy(&v, p, 4);
        snprintf(buf, len, "%ld", (long)v);
        break;
    }
    }
}

size_t bt_compare(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *expect,
                  const void *y, const char *who, const char *what) {
    size_t es = selugrad_dtype_size(dt), bad = 0;
    bt_total += n;
    if (n == 0 || memcmp(expect, y, n * es) == 0) return 0; /* the usual case, fast */
    for (size_t i = 0; i < n; i++) {
        if (memcmp((const char *)expect + i * es, (const char *)y + i * es, es) == 0) continue;
        if (bad++ < BT_MAX_REPORTED) {
            char sg[48], so[48], se[48], sy[48];
            bt_print_elem(dt, g, i, sg, sizeof sg);
            bt_print_elem(dt, o, i, so, sizeof so);
            bt_print_elem(dt, expect, i, se, sizeof se);
            bt_print_elem(dt, y, i, sy, sizeof sy);
            printf("MISMATCH %s [%s] n=%zu i=%zu: g=%s o=%s expected %s got %s\n", who, what, n, i,
                   sg, so, se, sy);
        }
    }
    if (bad > BT_MAX_REPORTED) printf("MISMATCH %s [%s]: %zu mismatches in all\n", who, what, bad);
    return bad;
}

int bt_kernel_runs(const sg_kernel *k) {
    if (sg_isa_supported(k->isa)) return 1;
    bt_skipped |= 1u << (unsigned)k->isa;
    size_t idx = (size_t)(k - sg_kernels);
    if (idx >= sizeof bt_skip_printed || !bt_skip_printed[idx]) {
        printf("SKIPPED %s: CPU lacks %s\n", k->name, sg_isa_name(k->isa));
        fflush(stdout);
        if (idx < sizeof bt_skip_printed) bt_skip_printed[idx] = 1;
    }
    return 0;
}

/* An output buffer of exactly n elements (so ASan sees overruns), filled with a marker. */
static void *bt_output(size_t n, size_t es) {
    void *y = bt_alloc(n * es);
    memset(y, 0xA5, n * es);
    return y;
}

size_t bt_check_kernels(selugrad_dtype dt, size_t n, const void *g, const void *o,
                        const void *expect, const char *what) {
    size_t es = selugrad_dtype_size(dt), bad = 0;
    void *y = bt_output(n, es);
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *k = &sg_kernels[i];
        if (k->dtype != dt || (bt_level >= 0 && (int)k->isa != bt_level) || !bt_kernel_runs(k))
            continue;
        memset(y, 0xA5, n * es);
        k->fn(n, g, o, y);
        bad += bt_compare(dt, n, g, o, expect, y, k->name, what);
    }
    free(y);
    return bad;
}

size_t bt_caps(const selugrad_isa **caps) {
    static selugrad_isa list[SG_ISA_LEVELS];
    static size_t count;
    if (count == 0) {
        printf("dispatch runs under the caps:");
        for (int level = 0; level < SG_ISA_LEVELS; level++) {
            selugrad_isa isa = (selugrad_isa)level;
            if (sg_isa_supported(isa) && (bt_level < 0 || level == bt_level)) {
                list[count++] = isa;
                printf(" %s", sg_isa_name(isa));
            }
        }
        printf("\n");
        for (int level = 0; level < SG_ISA_LEVELS; level++) {
            int built = 0;
            for (size_t i = 0; i < sg_kernel_count; i++) built |= (int)sg_kernels[i].isa == level;
            if (built && !sg_isa_supported((selugrad_isa)level)) {
                printf("SKIPPED cap %s: this CPU lacks it\n", sg_isa_name((selugrad_isa)level));
                bt_skipped |= 1u << (unsigned)level;
            }
        }
        fflush(stdout);
    }
    *caps = list;
    return count;
}

bt_setting bt_settings(int large) {
    bt_setting s = {0, large != 0, selugrad_get_max_isa(), ""};
    return s;
}

int bt_setting_next(bt_setting *s) {
    const selugrad_isa *caps;
    size_t ncaps = bt_caps(&caps);
    size_t total = s->large ? ncaps * BT_NTHREADS : ncaps + BT_NTHREADS;
    size_t i = (size_t)s->step++;
    if (i >= total) {
        selugrad_set_max_isa(s->cap_before);
        selugrad_set_num_threads(0);
        return 0;
    }
    selugrad_isa cap;
    int threads;
    if (s->large) {
        cap = caps[i / BT_NTHREADS];
        threads = bt_threads[i % BT_NTHREADS];
    } else if (i < ncaps) {
        cap = caps[i];
        threads = 0;
    } else {
        cap = s->cap_before;
        threads = bt_threads[i - ncaps];
    }
    if (selugrad_set_max_isa(cap) != SELUGRAD_OK ||
        selugrad_set_num_threads(threads) != SELUGRAD_OK) {
        printf("FAIL: setting cap %s and %d threads: %s\n", sg_isa_name(cap), threads,
               selugrad_last_error());
        exit(1);
    }
    snprintf(s->label, sizeof s->label, "cap %s, %d threads", sg_isa_name(cap),
             selugrad_get_num_threads());
    return 1;
}

size_t bt_check_dispatched(selugrad_dtype dt, size_t n, const void *g, const void *o,
                           const void *expect, const char *what, int large) {
    size_t es = selugrad_dtype_size(dt), bad = 0;
    void *y = bt_output(n, es);
    char who[112];
    for (bt_setting s = bt_settings(large); bt_setting_next(&s);) {
        memset(y, 0xA5, n * es);
        selugrad_status st = selugrad_backward(dt, n, g, o, y);
        snprintf(who, sizeof who, "selugrad_backward(%s; %s)", selugrad_kernel_name(dt), s.label);
        if (st != SELUGRAD_OK) {
            printf("FAIL %s [%s]: status %s: %s\n", who, what, selugrad_status_name(st),
                   selugrad_last_error());
            bad++;
            continue;
        }
        bad += bt_compare(dt, n, g, o, expect, y, who, what);
    }
    free(y);
    return bad;
}

size_t bt_check_all(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *expect,
                    const char *what, int large) {
    return bt_check_kernels(dt, n, g, o, expect, what) +
           bt_check_dispatched(dt, n, g, o, expect, what, large);
}

size_t bt_compared(void) {
    return bt_total;
}

void bt_print_summary(const char *program) {
    printf("%s: %zu elements compared bit for bit\n", program, bt_total);
    if (bt_skipped == 0) return;
    printf("%s: skipped:", program);
    for (int level = 0; level < SG_ISA_LEVELS; level++)
        if (bt_skipped & (1u << (unsigned)level)) printf(" %s", sg_isa_name((selugrad_isa)level));
    printf(" not on this CPU (its kernels and cap untested here)\n");
}

uint64_t bt_rand(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void *bt_alloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        printf("FAIL: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}
