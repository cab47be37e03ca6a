/*
 * The thread pool and the plan: every part of a job runs exactly once for any part count
 * (including a first job with more parts than workers exist yet), concurrent callers never
 * wait on each other's results, plans keep small calls on the calling thread, and results are
 * bit-identical for 1, 2, 3 and 7 threads.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/dispatch.h"
#include "core/exec.h"
#include "core/pool.h"
#include "isa/cpu.h"

enum { MAX_PARTS = 64 };

typedef struct counts {
    int hits[MAX_PARTS];
    unsigned nth_seen[MAX_PARTS];
} counts;

static void count_part(void *ctx, unsigned ith, unsigned nth) {
    counts *c = (counts *)ctx;
    c->hits[ith]++; /* each part is written by one thread only */
    c->nth_seen[ith] = nth;
}

static void check_job(unsigned nth) {
    counts c;
    memset(&c, 0, sizeof c);
    assert_int_equal(sg_pool_run(nth, count_part, &c, 0), SELUGRAD_OK);
    unsigned parts = c.nth_seen[0];
    assert_true(parts >= 1 && parts <= (nth ? nth : 1));
    for (unsigned i = 0; i < MAX_PARTS; i++) {
        assert_int_equal(c.hits[i], i < parts ? 1 : 0);
        if (i < parts) assert_int_equal(c.nth_seen[i], parts);
    }
}

static void test_parts_once(void **state) {
    (void)state;
    const unsigned seq[] = {7, 1, 2, 3, 0, 7, 5, 2, 2, 9, 1, 4};
    for (int r = 0; r < 50; r++)
        for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) check_job(seq[i]);
}

static void *caller_main(void *arg) {
    (void)arg;
    for (int r = 0; r < 300; r++) check_job((unsigned)(r % 5) + 1);
    return NULL;
}

static void test_concurrent_callers(void **state) {
    (void)state;
    pthread_t t[3];
    for (int i = 0; i < 3; i++) assert_int_equal(pthread_create(&t[i], NULL, caller_main, NULL), 0);
    caller_main(NULL);
    for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
}

/* A job passed by value (size > 0): every part sees the job as it was when the call began, the
   workers through the pool's copy (part 0 changes the caller's own struct as soon as it runs). */
typedef struct value_job {
    counts *c;
    unsigned tag;
} value_job;

static void value_part(void *ctx, unsigned ith, unsigned nth) {
    value_job *v = (value_job *)ctx;
    v->c->hits[ith]++;
    v->c->nth_seen[ith] = nth + v->tag;
    if (ith == 0) v->tag = 0; /* the caller's struct: the workers' copy keeps the tag */
}

static void test_job_by_value(void **state) {
    (void)state;
    const unsigned seq[] = {2, 7, 1, 3, 2, 5, 2};
    for (unsigned r = 0; r < 200; r++) {
        unsigned nth = seq[r % (sizeof seq / sizeof seq[0])];
        counts c;
        memset(&c, 0, sizeof c);
        value_job v = {&c, 1000u + r};
        assert_int_equal(sg_pool_run(nth, value_part, &v, sizeof v), SELUGRAD_OK);
        unsigned parts = c.nth_seen[0] - (1000u + r);
        assert_true(parts >= 1 && parts <= nth);
        for (unsigned i = 0; i < MAX_PARTS; i++) {
            assert_int_equal(c.hits[i], i < parts ? 1 : 0);
            if (i < parts) assert_int_equal(c.nth_seen[i], parts + 1000u + r);
        }
    }
    /* a job too large to copy: an internal error, and no part runs */
    unsigned char big[SG_POOL_JOB_BYTES + 1];
    counts c;
    memset(&c, 0, sizeof c);
    value_job v = {&c, 1};
    memset(big, 0, sizeof big);
    memcpy(big, &v, sizeof v);
    assert_int_equal(sg_pool_run(2, value_part, big, sizeof big), SELUGRAD_ERR_INTERNAL);
    for (unsigned i = 0; i < MAX_PARTS; i++) assert_int_equal(c.hits[i], 0);
}

/* The same while another caller's job holds the pool: this call runs its parts itself, and parts
   after the first still get the copy. The other job's first part waits until this call is done
   (holder_go), so the pool is busy for the whole call. */
static atomic_int holder_started, holder_go;

static void holder_part(void *ctx, unsigned ith, unsigned nth) {
    (void)ctx, (void)nth;
    if (ith != 0) return;
    atomic_store(&holder_started, 1);
    while (!atomic_load(&holder_go)) sched_yield();
}

static void *holder_main(void *arg) {
    (void)arg;
    assert_int_equal(sg_pool_run(2, holder_part, NULL, 0), SELUGRAD_OK);
    return NULL;
}

static void test_job_by_value_busy(void **state) {
    (void)state;
    atomic_store(&holder_started, 0);
    atomic_store(&holder_go, 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, holder_main, NULL), 0);
    while (!atomic_load(&holder_started)) sched_yield();
    for (unsigned nth = 2; nth <= 5; nth++) {
        counts c;
        memset(&c, 0, sizeof c);
        value_job v = {&c, 77u};
        assert_int_equal(sg_pool_run(nth, value_part, &v, sizeof v), SELUGRAD_OK);
        for (unsigned i = 0; i < nth; i++) {
            assert_int_equal(c.hits[i], 1);
            assert_int_equal(c.nth_seen[i], nth + 77u); /* part 0 had set the tag to 0 */
        }
    }
    atomic_store(&holder_go, 1);
    pthread_join(t, NULL);
}

/* By reference, every part gets ctx as given, NULL included. */
static atomic_int null_parts, nonnull_parts;

static void null_part(void *ctx, unsigned ith, unsigned nth) {
    (void)ith, (void)nth;
    atomic_fetch_add(ctx == NULL ? &null_parts : &nonnull_parts, 1);
}

static void test_job_null_ctx(void **state) {
    (void)state;
    for (unsigned nth = 1; nth <= 7; nth++) {
        atomic_store(&null_parts, 0);
        atomic_store(&nonnull_parts, 0);
        assert_int_equal(sg_pool_run(nth, null_part, NULL, 0), SELUGRAD_OK);
        assert_int_equal(atomic_load(&nonnull_parts), 0);
        assert_true(atomic_load(&null_parts) >= 1 && (unsigned)atomic_load(&null_parts) <= nth);
    }
}

static void test_plan_split(void **state) {
    (void)state;
#ifdef SG_INLINE_BYTES
    skip(); /* a measuring build (docs/dispatch.md): every kernel splits at SG_INLINE_BYTES */
#else
    const sg_kernel *k = sg_kernel_select(SELUGRAD_FLOAT, SG_ISA_SCALAR);
    size_t part = sg_part_bytes(k); /* traffic each thread must get */
    assert_int_equal(part, (size_t)k->part_kib << 10);
    sg_plan p;
    sg_plan_make(&p, k, part / 12, 8); /* under two threads' worth: the calling thread only */
    assert_int_equal(p.nth, 1);
    sg_plan_make(&p, k, 2 * part / 12 - 1, 8);
    assert_int_equal(p.nth, 1);
    sg_plan_make(&p, k, (size_t)1 << 24, 8);
    assert_int_equal(p.nth, 8);
    assert_true(p.block * p.nth >= p.n && p.block % 32 == 0);
    /* a middling call wakes only as many threads as have sg_part_bytes of work each */
    sg_plan_make(&p, k, 3 * part / 12, 8);
    assert_int_equal(p.nth, 3);
    /* every kernel splits at its own part_kib (KiB of traffic per thread) */
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *v = &sg_kernels[i];
        assert_true(v->part_kib >= 1 && v->part_kib <= 1024);
        assert_int_equal(sg_part_bytes(v), (size_t)v->part_kib << 10);
        size_t es = selugrad_dtype_size(v->dtype), per = sg_part_bytes(v) / 3 / es;
        sg_plan_make(&p, v, 2 * per - 1, 8);
        assert_int_equal(p.nth, 1);
        sg_plan_make(&p, v, 2 * per + 64, 8);
        assert_int_equal(p.nth, 2);
    }
    /* two variants of one dtype with different part_kib: a size between them splits for one */
    int found = 0;
    for (size_t i = 0; i < sg_kernel_count && !found; i++)
        for (size_t j = 0; j < sg_kernel_count && !found; j++) {
            const sg_kernel *a = &sg_kernels[i], *b = &sg_kernels[j];
            if (a->dtype != b->dtype || a->part_kib >= b->part_kib) continue;
            size_t es = selugrad_dtype_size(a->dtype);
            size_t n = 2 * ((size_t)b->part_kib << 10) / 3 / es - 1; /* b: one part */
            sg_plan pa, pb;
            sg_plan_make(&pa, a, n, 8);
            sg_plan_make(&pb, b, n, 8);
            assert_int_equal(pb.nth, 1);
            assert_true(pa.nth >= 2);
            found = 1;
        }
    assert_true(found);
#endif
}

/* The small-call shortcut runs exactly the calls the plan would give one part, and computes
   them. */
static void test_run_small_boundary(void **state) {
    (void)state;
#ifdef SG_INLINE_BYTES
    skip();
#else
    enum { CAP = 1 << 18 };
    unsigned char *g = calloc(CAP, 1), *o = calloc(CAP, 1), *y = calloc(CAP, 1);
    assert_true(g && o && y);
    for (size_t i = 0; i < sg_kernel_count; i++) {
        const sg_kernel *v = &sg_kernels[i];
        size_t es = selugrad_dtype_size(v->dtype);
        size_t need = 2 * (sg_part_bytes(v) / 3); /* bytes of g at which two threads pay */
        size_t n0 = (need + es - 1) / es;         /* the first size that splits */
        assert_true(n0 * es <= CAP);
        sg_plan p;
        sg_plan_make(&p, v, n0 - 1, 8);
        assert_int_equal(p.nth, 1);
        sg_plan_make(&p, v, n0, 8);
        assert_int_equal(p.nth, 2);
        if (!sg_isa_supported(v->isa)) continue; /* planned above; not run on this CPU */
        memset(y, 0xA5, n0 * es);
        assert_int_equal(sg_run_small(v, n0 - 1, g, o, y), 1);
        /* g = o = 0 everywhere: every result is +0 (g * scale), whatever the dtype */
        for (size_t b = 0; b < (n0 - 1) * es; b++) assert_int_equal(y[b], 0);
        assert_int_equal(y[(n0 - 1) * es], 0xA5); /* and nothing past n0 - 1 elements */
        assert_int_equal(sg_run_small(v, n0, g, o, y), 0);
    }
    free(g), free(o), free(y);
#endif
}

static uint32_t rng = 12345u;
static uint32_t rnd(void) {
    rng = rng * 1664525u + 1013904223u;
    return rng;
}

static void test_threads_identical(void **state) {
    (void)state;
    const selugrad_dtype dts[3] = {SELUGRAD_FLOAT, SELUGRAD_BF16, SELUGRAD_INT8};
    size_t n = ((size_t)1 << 20) + 13;
    for (int d = 0; d < 3; d++) {
        size_t es = selugrad_dtype_size(dts[d]);
        unsigned char *g = malloc(n * es), *o = malloc(n * es), *y1 = malloc(n * es),
                      *y = malloc(n * es);
        assert_true(g && o && y1 && y);
        for (size_t i = 0; i < n * es; i++) {
            g[i] = (unsigned char)(rnd() >> 24);
            o[i] = (unsigned char)(rnd() >> 24);
        }
        assert_int_equal(selugrad_set_num_threads(1), SELUGRAD_OK);
        assert_int_equal(selugrad_backward(dts[d], n, g, o, y1), SELUGRAD_OK);
        const int threads[3] = {2, 3, 7};
        for (int t = 0; t < 3; t++) {
            assert_int_equal(selugrad_set_num_threads(threads[t]), SELUGRAD_OK);
            memset(y, 0, n * es);
            assert_int_equal(selugrad_backward(dts[d], n, g, o, y), SELUGRAD_OK);
            assert_memory_equal(y, y1, n * es);
            /* strided path: every other element of a twice-as-long view */
            assert_int_equal(selugrad_backward_strided(dts[d], n / 2, g, 2, o, 2, y, 1),
                             SELUGRAD_OK);
            assert_int_equal(selugrad_set_num_threads(1), SELUGRAD_OK);
            unsigned char *ys = malloc(n * es);
            assert_non_null(ys);
            assert_int_equal(selugrad_backward_strided(dts[d], n / 2, g, 2, o, 2, ys, 1),
                             SELUGRAD_OK);
            assert_memory_equal(y, ys, n / 2 * es);
            free(ys);
            assert_int_equal(selugrad_set_num_threads(threads[t]), SELUGRAD_OK);
        }
        free(g);
        free(o);
        free(y1);
        free(y);
    }
    assert_int_equal(selugrad_set_num_threads(0), SELUGRAD_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_once),         cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_job_by_value),       cmocka_unit_test(test_job_by_value_busy),
        cmocka_unit_test(test_job_null_ctx),       cmocka_unit_test(test_plan_split),
        cmocka_unit_test(test_run_small_boundary), cmocka_unit_test(test_threads_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
