/*
 * Input buffers. Values are mixed-sign (except uint8), never zero, from a fixed pseudo-random
 * sequence: float types log-uniform in magnitude 0.01..4 (fp16/bf16 rounded from those),
 * int8 in +-[1,100], uint8 in [1,255], int32 in +-[1,30000] (no int32 overflow in g * o).
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and MAP_POPULATE */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "bench_internal.h"

void sgb_bufs_plan(sgb_bufs *b, size_t n, size_t es) {
    memset(b, 0, sizeof *b);
    b->n = n;
    b->es = es;
    b->array_bytes = n * es;
    b->stride = (b->array_bytes + 63) / 64 * 64;
    b->cold = n > SGB_HOT_MAX_N;
    b->nsets = 1;
    size_t set = 3 * b->stride;
    if (b->cold && set < SGB_COLD_SPAN) b->nsets = (SGB_COLD_SPAN + set - 1) / set;
    if (b->cold && b->nsets < 2) b->nsets = 2; /* the next call never takes the set just used */
    if (!b->cold && set < SGB_HOT_SPAN) b->nsets = SGB_HOT_SPAN / set;
    if (!b->cold && b->nsets > SGB_HOT_MAX_SETS) b->nsets = SGB_HOT_MAX_SETS;
}

static size_t sgb_bufs_bytes(const sgb_bufs *b) {
    return b->nsets * 3 * b->stride;
}

size_t sgb_bufs_plan_bytes(size_t n, size_t es) {
    sgb_bufs b;
    sgb_bufs_plan(&b, n, es);
    return sgb_bufs_bytes(&b);
}

/* On Linux the pages are mapped and faulted in by one mmap (MAP_POPULATE): 4 KiB pages as
   aligned_alloc's (no madvise, so no transparent huge pages where they are on `madvise`), but
   without a page fault per page, which on the Zen 5 VM took 7.4-8.5 s per 1.5 GiB against 0.4 s
   (load 4). Elsewhere aligned_alloc, and the fill faults them in. */
int sgb_bufs_alloc(sgb_bufs *b, size_t n, size_t es) {
    sgb_bufs_plan(b, n, es);
#if defined(__linux__) && defined(MAP_POPULATE)
    void *m = mmap(NULL, sgb_bufs_bytes(b), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    b->mem = m == MAP_FAILED ? NULL : m;
#else
    b->mem = aligned_alloc(64, sgb_bufs_bytes(b));
#endif
    return b->mem ? 0 : -1;
}

void sgb_bufs_free(sgb_bufs *b) {
#if defined(__linux__) && defined(MAP_POPULATE)
    if (b->mem) munmap(b->mem, sgb_bufs_bytes(b)); /* sgb_bufs_alloc's mmap */
#else
    free(b->mem);
#endif
    b->mem = NULL;
}

void *sgb_buf(const sgb_bufs *b, size_t set, int which) {
    return b->mem + (set % b->nsets * 3 + (size_t)which) * b->stride;
}

size_t sgb_bufs_take(sgb_bufs *b) {
    return b->next++ % b->nsets;
}

static uint64_t sgb_next(uint64_t *s) { /* xorshift64* */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

enum { SGB_POOL = 4096 };

/* One random value of dtype at dst. */
static void sgb_value(selugrad_dtype dtype, uint64_t *s, unsigned char *dst) {
    uint64_t r = sgb_next(s);
    int neg = (int)(r >> 63);
    double u = (double)((r >> 11) & 0xFFFFFu) / 1048576.0; /* [0, 1) */
    float f = (float)(0.01 * pow(400.0, u)) * (neg ? -1.0f : 1.0f);
    uint32_t k = (uint32_t)(r >> 20);
    switch (dtype) {
    case SELUGRAD_FLOAT:
        memcpy(dst, &f, 4);
        break;
    case SELUGRAD_FLOAT16: {
        uint16_t h = selugrad_f32_to_f16(f);
        memcpy(dst, &h, 2);
        break;
    }
    case SELUGRAD_BF16: {
        uint16_t h = selugrad_f32_to_bf16(f);
        memcpy(dst, &h, 2);
        break;
    }
    case SELUGRAD_INT8: {
        int8_t v = (int8_t)(1 + (int)(k % 100u));
        *(int8_t *)(void *)dst = neg ? (int8_t)-v : v;
        break;
    }
    case SELUGRAD_UINT8:
        *dst = (unsigned char)(1u + k % 255u);
        break;
    case SELUGRAD_INT32: {
        int32_t v = 1 + (int32_t)(k % 30000u);
        if (neg) v = -v;
        memcpy(dst, &v, 4);
        break;
    }
    }
}

/* Fills n elements from a pool of random values, picked by a second random sequence so the
   sign pattern has no period a branch predictor could learn. */
static void sgb_fill_array(unsigned char *dst, size_t n, size_t es, const unsigned char *pool,
                           uint64_t seed) {
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        size_t idx = (size_t)(sgb_next(&s) >> 52); /* 12 bits: SGB_POOL entries */
        memcpy(dst + i * es, pool + idx * es, es);
    }
}

void sgb_bufs_fill(sgb_bufs *b, selugrad_dtype dtype) {
    unsigned char gp[SGB_POOL * 4], op[SGB_POOL * 4];
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < SGB_POOL; i++) {
        sgb_value(dtype, &s, gp + i * b->es);
        sgb_value(dtype, &s, op + i * b->es);
    }
    /* Hot sets get values of their own; cold sets only separate the calls in memory (nothing
       learns a pattern of 16M signs), so copies do and are faster to make. */
    size_t fresh = b->cold ? 1 : b->nsets;
    for (size_t k = 0; k < b->nsets; k++) {
        if (k < fresh) {
            sgb_fill_array(sgb_buf(b, k, 0), b->n, b->es, gp, 12345 + 2 * k);
            sgb_fill_array(sgb_buf(b, k, 1), b->n, b->es, op, 67890 + 2 * k);
            memset(sgb_buf(b, k, 2), 0, b->array_bytes);
        } else {
            for (int w = 0; w < 3; w++) memcpy(sgb_buf(b, k, w), sgb_buf(b, 0, w), b->array_bytes);
        }
    }
}

void sgb_bufs_fill_float(sgb_bufs *b) {
    size_t nf = b->array_bytes / 4;
    for (size_t k = 0; k < b->nsets; k++) {
        float *g = sgb_buf(b, k, 0), *o = sgb_buf(b, k, 1);
        for (size_t i = 0; i < nf; i++) {
            g[i] = 1.0f;
            o[i] = 2.0f;
        }
        memset(sgb_buf(b, k, 2), 0, b->array_bytes);
    }
}
