#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/cpu.h"

const int bt_threads[BT_NTHREADS] = {1, 2, 3, 7};

/* The battery programs are single-threaded; these counters are only touched by their thread. */
static size_t bt_total;
static unsigned char bt_skip_printed[256];

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
        if (k->dtype != dt || !bt_kernel_runs(k)) continue;
        memset(y, 0xA5, n * es);
        k->fn(n, g, o, y);
        bad += bt_compare(dt, n, g, o, expect, y, k->name, what);
    }
    free(y);
    return bad;
}

size_t bt_check_dispatched(selugrad_dtype dt, size_t n, const void *g, const void *o,
                           const void *expect, const char *what, int large) {
    size_t es = selugrad_dtype_size(dt), bad = 0;
    void *y = bt_output(n, es);
    char who[96];
    for (int t = 0; t < (large ? BT_NTHREADS : 1); t++) {
        int nth = large ? bt_threads[t] : 0;
        if (selugrad_set_num_threads(nth) != SELUGRAD_OK) {
            printf("FAIL selugrad_set_num_threads(%d): %s\n", nth, selugrad_last_error());
            bad++;
            continue;
        }
        memset(y, 0xA5, n * es);
        selugrad_status st = selugrad_backward(dt, n, g, o, y);
        snprintf(who, sizeof who, "selugrad_backward(%s, %d threads)", selugrad_kernel_name(dt),
                 selugrad_get_num_threads());
        if (st != SELUGRAD_OK) {
            printf("FAIL %s [%s]: status %s: %s\n", who, what, selugrad_status_name(st),
                   selugrad_last_error());
            bad++;
            continue;
        }
        bad += bt_compare(dt, n, g, o, expect, y, who, what);
    }
    selugrad_set_num_threads(0);
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
