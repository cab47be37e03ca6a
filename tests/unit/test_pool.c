/*
 * The thread pool and the plan: every task of a job runs exactly once for any thread and task
 * count (including a first job with more threads than workers exist yet), concurrent callers
 * never wait on each other's results, plans keep small calls on the calling thread, split larger
 * ones into aligned tasks, and results are bit-identical for 1, 2, 3 and 7 threads.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/dispatch.h"
#include "core/exec.h"
#include "core/pool.h"
#include "isa/cpu.h"

enum { MAX_TASKS = 70000 };

/* Per task: how often it ran; per job: whether a range was empty or out of bounds. */
typedef struct counts {
    atomic_int hits[MAX_TASKS];
    atomic_int bad;
    size_t n_tasks;
} counts;

static void count_range(void *ctx, size_t begin, size_t end) {
    counts *c = (counts *)ctx;
    if (begin >= end || end > c->n_tasks) atomic_store(&c->bad, 1);
    for (size_t i = begin; i < end && i < c->n_tasks; i++) atomic_fetch_add(&c->hits[i], 1);
}

static void check_job(counts *c, unsigned nth, size_t n_tasks) {
    for (size_t i = 0; i < n_tasks; i++) atomic_store(&c->hits[i], 0);
    atomic_store(&c->bad, 0);
    c->n_tasks = n_tasks;
    assert_int_equal(sg_pool_for(nth, n_tasks, count_range, c, 0, (n_tasks & 1) ? SIZE_MAX : 0),
                     SELUGRAD_OK);
    assert_int_equal(atomic_load(&c->bad), 0);
    for (size_t i = 0; i < n_tasks; i++) assert_int_equal(atomic_load(&c->hits[i]), 1);
}

static void test_tasks_once(void **state) {
    (void)state;
    counts *c = malloc(sizeof *c);
    assert_non_null(c);
    const unsigned nths[] = {7, 1, 2, 3, 0, 7, 5, 2, 2, 9, 1, 4};
    const size_t tasks[] = {1, 2, 3, 7, 16, 17, 100, 1000, 65535, 0};
    for (int r = 0; r < 20; r++)
        for (size_t i = 0; i < sizeof nths / sizeof nths[0]; i++)
            check_job(c, nths[i], tasks[(i + (size_t)r) % (sizeof tasks / sizeof tasks[0])]);
    free(c);
}

static void *caller_main(void *arg) {
    (void)arg;
    counts *c = malloc(sizeof *c);
    assert_non_null(c);
    for (int r = 0; r < 300; r++) check_job(c, (unsigned)(r % 5) + 1, (size_t)(r % 37) + 1);
    free(c);
    return NULL;
}

static void test_concurrent_callers(void **state) {
    (void)state;
    pthread_t t[3];
    for (int i = 0; i < 3; i++) assert_int_equal(pthread_create(&t[i], NULL, caller_main, NULL), 0);
    caller_main(NULL);
    for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
}

/* A job passed by value (size > 0): ranges run by workers get a copy made before any task
   starts, equal to the job; the caller's ranges get the job itself. */
typedef struct value_job {
    counts *c;
    const void *orig;
    unsigned tag;
} value_job;

static atomic_int copies_seen, bad_copies;

static void value_range(void *ctx, size_t begin, size_t end) {
    const value_job *v = (const value_job *)ctx;
    if (ctx != v->orig) atomic_fetch_add(&copies_seen, 1);
    if (v->tag != 1000u + (unsigned)v->c->n_tasks) atomic_fetch_add(&bad_copies, 1);
    count_range(v->c, begin, end);
}

static void test_job_by_value(void **state) {
    (void)state;
    counts *c = malloc(sizeof *c);
    assert_non_null(c);
    atomic_store(&copies_seen, 0);
    atomic_store(&bad_copies, 0);
    const unsigned seq[] = {2, 7, 1, 3, 2, 5, 2};
    for (unsigned r = 0; r < 200; r++) {
        unsigned nth = seq[r % (sizeof seq / sizeof seq[0])];
        size_t n_tasks = 1 + r % 64;
        for (size_t i = 0; i < n_tasks; i++) atomic_store(&c->hits[i], 0);
        atomic_store(&c->bad, 0);
        c->n_tasks = n_tasks;
        value_job v = {c, NULL, 1000u + (unsigned)n_tasks};
        v.orig = &v;
        assert_int_equal(sg_pool_for(nth, n_tasks, value_range, &v, sizeof v, SIZE_MAX),
                         SELUGRAD_OK);
        assert_int_equal(atomic_load(&c->bad), 0);
        for (size_t i = 0; i < n_tasks; i++) assert_int_equal(atomic_load(&c->hits[i]), 1);
    }
    assert_int_equal(atomic_load(&bad_copies), 0);
    /* a job too large to copy, or with too many tasks: an internal error, and nothing runs */
    unsigned char big[SG_POOL_JOB_BYTES + 1];
    c->n_tasks = 4;
    for (size_t i = 0; i < 4; i++) atomic_store(&c->hits[i], 0);
    value_job v = {c, NULL, 1004u};
    v.orig = big;
    memset(big, 0, sizeof big);
    memcpy(big, &v, sizeof v);
    assert_int_equal(sg_pool_for(2, 4, value_range, big, sizeof big, SIZE_MAX),
                     SELUGRAD_ERR_INTERNAL);
    assert_int_equal(sg_pool_for(2, (size_t)SG_POOL_MAX_TASKS + 1, count_range, c, 0, SIZE_MAX),
                     SELUGRAD_ERR_INTERNAL);
    for (size_t i = 0; i < 4; i++) assert_int_equal(atomic_load(&c->hits[i]), 0);
    free(c);
}

/* While another caller's job holds the pool, a call runs all its tasks on its own thread. The
   other job's task waits until this call is done (holder_go), so the pool is busy throughout. */
static atomic_int holder_started, holder_go;
static pthread_t busy_caller;
static atomic_int foreign_ranges;

static void holder_range(void *ctx, size_t begin, size_t end) {
    (void)ctx, (void)end;
    if (begin != 0) return;
    atomic_store(&holder_started, 1);
    while (!atomic_load(&holder_go)) sched_yield();
}

static void *holder_main(void *arg) {
    (void)arg;
    assert_int_equal(sg_pool_for(2, 2, holder_range, NULL, 0, SIZE_MAX), SELUGRAD_OK);
    return NULL;
}

static void own_range(void *ctx, size_t begin, size_t end) {
    if (!pthread_equal(pthread_self(), busy_caller)) atomic_fetch_add(&foreign_ranges, 1);
    count_range(ctx, begin, end);
}

static void test_busy_pool_runs_inline(void **state) {
    (void)state;
    counts *c = malloc(sizeof *c);
    assert_non_null(c);
    atomic_store(&holder_started, 0);
    atomic_store(&holder_go, 0);
    atomic_store(&foreign_ranges, 0);
    busy_caller = pthread_self();
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, holder_main, NULL), 0);
    while (!atomic_load(&holder_started)) sched_yield();
    for (unsigned nth = 2; nth <= 5; nth++) {
        c->n_tasks = 40;
        for (size_t i = 0; i < 40; i++) atomic_store(&c->hits[i], 0);
        assert_int_equal(sg_pool_for(nth, 40, own_range, c, 0, SIZE_MAX), SELUGRAD_OK);
        for (size_t i = 0; i < 40; i++) assert_int_equal(atomic_load(&c->hits[i]), 1);
    }
    assert_int_equal(atomic_load(&foreign_ranges), 0);
    atomic_store(&holder_go, 1);
    pthread_join(t, NULL);
    free(c);
}

/* By reference, every range gets ctx as given, NULL included. */
static atomic_int null_ranges, nonnull_ranges;

static void null_range(void *ctx, size_t begin, size_t end) {
    (void)begin, (void)end;
    atomic_fetch_add(ctx == NULL ? &null_ranges : &nonnull_ranges, 1);
}

static void test_job_null_ctx(void **state) {
    (void)state;
    for (unsigned nth = 1; nth <= 7; nth++) {
        atomic_store(&null_ranges, 0);
        atomic_store(&nonnull_ranges, 0);
        assert_int_equal(sg_pool_for(nth, 9, null_range, NULL, 0, SIZE_MAX), SELUGRAD_OK);
        assert_int_equal(atomic_load(&nonnull_ranges), 0);
        assert_true(atomic_load(&null_ranges) >= 1 && atomic_load(&null_ranges) <= 9);
    }
}

/* The static split: every part once, each told the part count; parts after the first of a job
   passed by value get a copy. */
typedef struct parts_job {
    atomic_int *hits;
    unsigned tag;
} parts_job;

static atomic_int parts_bad;

static void parts_part(void *ctx, unsigned ith, unsigned nth) {
    const parts_job *j = (const parts_job *)ctx;
    if (j->tag != nth) atomic_store(&parts_bad, 1);
    atomic_fetch_add(&j->hits[ith], 1);
}

static void test_static_parts(void **state) {
    (void)state;
    atomic_int hits[9];
    for (unsigned nth = 1; nth <= 9; nth++)
        for (size_t size = 0; size <= sizeof(parts_job); size += sizeof(parts_job)) {
            for (unsigned i = 0; i < 9; i++) atomic_store(&hits[i], 0);
            atomic_store(&parts_bad, 0);
            parts_job j = {hits, nth};
            assert_int_equal(sg_pool_run(nth, parts_part, &j, size), SELUGRAD_OK);
            assert_int_equal(atomic_load(&parts_bad), 0);
            for (unsigned i = 0; i < 9; i++) assert_int_equal(atomic_load(&hits[i]), i < nth);
        }
    unsigned char big[SG_POOL_JOB_BYTES + 1] = {0};
    assert_int_equal(sg_pool_run(2, parts_part, big, sizeof big), SELUGRAD_ERR_INTERNAL);
}

/* The spin rule: spin only if, with every sleeping worker awake, each runnable thread has a
   CPU; an unknown count (0) allows it. And the wake rule. */
static void test_spin_rule(void **state) {
    (void)state;
    assert_true(sg_pool_spin_rule(2, 0, 2));  /* caller + spinning worker on 2 CPUs */
    assert_true(sg_pool_spin_rule(1, 1, 2));  /* caller alone, the worker asleep */
    assert_false(sg_pool_spin_rule(3, 0, 2)); /* + a busy process or a host's spinning thread */
    assert_false(sg_pool_spin_rule(2, 1, 2)); /* the same with the worker asleep */
    assert_true(sg_pool_spin_rule(0, 5, 2));  /* unknown */
    assert_true(sg_pool_spin_rule(5, 3, 8));
    assert_false(sg_pool_spin_rule(6, 3, 8));
    /* waking sleeping workers: long jobs, or a burst when they may spin; crowded: very long */
    assert_true(sg_pool_should_wake(SG_POOL_WAKE_COST, true, false));
    assert_false(sg_pool_should_wake(SG_POOL_WAKE_COST - 1, true, false));
    assert_true(sg_pool_should_wake(0, true, true));
    assert_false(sg_pool_should_wake(0, false, true));
    assert_false(sg_pool_should_wake(SG_POOL_WAKE_COST_CROWDED - 1, false, false));
    assert_true(sg_pool_should_wake(SG_POOL_WAKE_COST_CROWDED, false, true));
    assert_true(SG_POOL_WAKE_COST < SG_POOL_WAKE_COST_CROWDED);
}

/* When a caller samples the spin rule again (docs/dispatch.md, "Threads"): while spinning is
   allowed, 100 ms after the last sample; while it is denied, after as long as it had been denied
   at the last sample, from 1 ms up to 10 ms, so re-samples fall 1, 2, 4, 8, 16, 26 ... ms after
   the rule said no. */
static void test_spin_sample_schedule(void **state) {
    (void)state;
    const int64_t ms = 1000000;
    assert_int_equal(sg_pool_caller_sample_ns(true, 0), 100 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(true, 50 * ms), 100 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(false, 0), 1 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(false, 300000), 1 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(false, -5 * ms), 1 * ms); /* a racing sample */
    assert_int_equal(sg_pool_caller_sample_ns(false, 1 * ms), 1 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(false, 2 * ms), 2 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(false, 3500000), 3500000);
    assert_int_equal(sg_pool_caller_sample_ns(false, 8 * ms), 8 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(false, 10 * ms), 10 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(false, 16 * ms), 10 * ms);
    assert_int_equal(sg_pool_caller_sample_ns(false, 3600 * 1000 * ms), 10 * ms);
    /* the schedule from the moment the rule said no: each sample at the last plus the interval
       for the time denied at the last */
    const int64_t want[] = {1, 2, 4, 8, 16, 26, 36};
    int64_t last = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        last += sg_pool_caller_sample_ns(false, last);
        assert_int_equal(last, want[i] * ms);
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
    /* tasks of whole multiples of SG_TASK_ALIGN covering n, several per thread */
    assert_true(p.block % SG_TASK_ALIGN == 0 && p.block * p.tasks >= p.n &&
                p.block * (p.tasks - 1) < p.n);
    assert_true(p.tasks >= (size_t)p.nth * SG_TASKS_PER_THREAD / 2);
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

/* The variant of one list for dtype and isa, or NULL where this build has none. */
static const sg_kernel *find_variant(const sg_kernel *list, size_t count, selugrad_dtype dtype,
                                     sg_isa isa) {
    for (size_t i = 0; i < count; i++)
        if (list[i].dtype == dtype && list[i].isa == isa) return &list[i];
    return NULL;
}

/* Threads for 64K-element calls and their neighbours, from the documented rule (docs/dispatch.md,
   "Threads": every thread gets at least its kernel's part_kib of traffic, both inputs and the
   output for SeluGrad, the input and the output for the forward) and the documented values: int8
   forward 128 KiB (AVX-512) and 96 KiB (AVX2), so a 64K call (128 KiB of traffic) runs alone and
   a 128K one (256 KiB) splits; int32 forward 64 KiB, so a 64K call (512 KiB) has 8 threads'
   worth; int8 SeluGrad on AVX-512 8 KiB, so a 64K call (192 KiB) has 24 threads' worth. */
typedef struct {
    int forward; /* the forward's list, else SeluGrad's */
    selugrad_dtype dtype;
    sg_isa isa;
    unsigned part_kib;
    struct {
        size_t n;
        unsigned max_threads, nth;
    } calls[3];
} split_case;

static const split_case split_cases[] = {
    {1, SELUGRAD_INT8, SG_ISA_AVX512, 128, {{65536, 8, 1}, {131072, 8, 2} /* 256 KiB */}},
    {1,
     SELUGRAD_INT8,
     SG_ISA_AVX2,
     96,
     {{65536, 8, 1}, {96 * 1024 - 64, 8, 1} /* 192 KiB - 128 bytes */, {131072, 8, 2}}},
    {1,
     SELUGRAD_INT32,
     SG_ISA_AVX2,
     64,
     {{65536, 2, 2}, {65536, 16, 8}, {16384 - 64, 2, 1} /* 128 KiB - 512 bytes */}},
    {1, SELUGRAD_INT32, SG_ISA_AVX512, 64, {{65536, 2, 2}, {65536, 16, 8}, {16384 - 64, 2, 1}}},
    {0,
     SELUGRAD_INT8,
     SG_ISA_AVX512,
     8,
     {{65536, 2, 2}, {65536, 32, 24}, {4096, 2, 1} /* 12 KiB */}},
};

static void test_plan_split_64k(void **state) {
    (void)state;
#ifdef SG_INLINE_BYTES
    skip();
#else
    int checked = 0;
    for (size_t c = 0; c < sizeof split_cases / sizeof split_cases[0]; c++) {
        const split_case *t = &split_cases[c];
        const sg_kernel *v =
            t->forward ? find_variant(sg_selu_kernels, sg_selu_kernel_count, t->dtype, t->isa)
                       : find_variant(sg_kernels, sg_kernel_count, t->dtype, t->isa);
        if (!v) continue;
        assert_int_equal(v->part_kib, t->part_kib);
        for (size_t i = 0; i < 3 && t->calls[i].n; i++) {
            sg_plan p;
            sg_plan_make(&p, v, t->calls[i].n, t->calls[i].max_threads);
            assert_int_equal(p.nth, t->calls[i].nth);
        }
        checked++;
    }
#if defined(__x86_64__) || defined(_M_X64)
    assert_true(checked > 0);
#else
    (void)checked;
#endif
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

/* sg_pool_counts: a job handed to the pool adds one job and the threads that ran its tasks,
   counted here independently by thread identity; a call run wholly on the caller adds nothing.
   Each task waits until every task has started, and a claim of one task per participant's share
   is one task, so a job of nth tasks on nth threads runs on exactly nth threads (or times out). */
typedef struct seen_job {
    pthread_mutex_t mu;
    pthread_t who[8];
    unsigned nwho, started, n_tasks;
} seen_job;

static void seen_range(void *ctx, size_t begin, size_t end) {
    seen_job *j = (seen_job *)ctx;
    for (size_t i = begin; i < end; i++) {
        pthread_mutex_lock(&j->mu);
        pthread_t self = pthread_self();
        unsigned w = 0;
        while (w < j->nwho && !pthread_equal(j->who[w], self)) w++;
        if (w == j->nwho && w < 8) j->who[j->nwho++] = self;
        j->started++;
        pthread_mutex_unlock(&j->mu);
        /* up to 20 s, then the count below fails */
        for (int wait = 0; wait < 20000; wait++) {
            pthread_mutex_lock(&j->mu);
            unsigned started = j->started;
            pthread_mutex_unlock(&j->mu);
            if (started == j->n_tasks) break;
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
}

static void test_pool_counts(void **state) {
    (void)state;
    const unsigned nths[] = {2, 3, 2, 4};
    for (size_t r = 0; r < sizeof nths / sizeof nths[0]; r++) {
        seen_job j = {.mu = PTHREAD_MUTEX_INITIALIZER, .nwho = 0, .started = 0};
        j.n_tasks = nths[r];
        uint64_t j0, t0, j1, t1;
        sg_pool_counts(&j0, &t0);
        assert_int_equal(sg_pool_for(nths[r], j.n_tasks, seen_range, &j, 0, SIZE_MAX), SELUGRAD_OK);
        sg_pool_counts(&j1, &t1);
        assert_int_equal(j.started, j.n_tasks);
        assert_int_equal(j.nwho, nths[r]);
        assert_int_equal(j1 - j0, 1);
        assert_int_equal(t1 - t0, j.nwho);
    }
    /* on the calling thread alone: not handed to the pool */
    seen_job one = {.mu = PTHREAD_MUTEX_INITIALIZER, .nwho = 0, .started = 0, .n_tasks = 1};
    uint64_t j0, t0, j1, t1;
    sg_pool_counts(&j0, &t0);
    assert_int_equal(sg_pool_for(4, 1, seen_range, &one, 0, SIZE_MAX), SELUGRAD_OK);
    sg_pool_counts(&j1, &t1);
    assert_int_equal(j1 - j0, 0);
    assert_int_equal(t1 - t0, 0);
    assert_int_equal(one.nwho, 1);
}

/* The claim rule from given costs, against its definition in pool.h: half a share, but about
   SG_POOL_CLAIM_US (100 us) of work at most, and at least one task. */
static void test_claim_most(void **state) {
    (void)state;
    assert_int_equal(SG_POOL_CLAIM_US, 100);
    assert_int_equal(sg_pool_claim_most(12, 16), SG_POOL_MAX_TASKS); /* under 1 us a task */
    assert_int_equal(sg_pool_claim_most(192, 16), 8);                /* 12 us a task */
    assert_int_equal(sg_pool_claim_most(3072, 48), 1);               /* 64 us a task */
    assert_int_equal(sg_pool_claim_most(100000, 16), 1);
    assert_int_equal(sg_pool_claim_most(SIZE_MAX, 2), 1);
    assert_int_equal(sg_pool_claim_most(50, 0), SG_POOL_MAX_TASKS);
}

/* Long calls: tasks of at most SG_TASK_MOST_PARTS parts of traffic (so many tasks), or of
   SG_STREAM_TASK_MOST when the call streams and that is more (the scalar f32 kernel's 64 parts
   are 256 KiB), and tasks of 64 KiB of y or more start on 4 KiB boundaries. */
static void test_task_pages(void **state) {
    (void)state;
    const sg_kernel *k = sg_kernel_select(SELUGRAD_FLOAT, SG_ISA_SCALAR);
    const size_t sizes[] = {(size_t)1 << 20, (size_t)3 << 20, (size_t)16 << 20, 40000000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (unsigned nth = 2; nth <= 4; nth++) {
            sg_plan p;
            sg_plan_make(&p, k, sizes[i], nth);
            size_t task_bytes = 3 * 4 * p.block, most = SG_TASK_MOST_PARTS * sg_part_bytes(k);
            if (p.stream && most < SG_STREAM_TASK_MOST) most = SG_STREAM_TASK_MOST;
            /* the cap, rounded up to a whole page of y, or the streaming floor */
            assert_true(task_bytes <= most + 3 * 4096 ||
                        task_bytes <= ((size_t)256 << 10) + 3 * 4096);
            /* a streaming call with SG_TASKS_PER_THREAD caps of traffic per thread: tasks of the
             * cap */
            if (p.stream && 3 * 4 * sizes[i] / (nth * SG_TASKS_PER_THREAD) >= most)
                assert_true(task_bytes + 3 * 4096 >= most);
            if (4 * p.block >= ((size_t)64 << 10)) assert_int_equal(4 * p.block % 4096, 0);
            assert_true(p.block * p.tasks >= sizes[i] && p.block * (p.tasks - 1) < sizes[i]);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tasks_once),         cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_job_by_value),       cmocka_unit_test(test_busy_pool_runs_inline),
        cmocka_unit_test(test_job_null_ctx),       cmocka_unit_test(test_static_parts),
        cmocka_unit_test(test_spin_rule),          cmocka_unit_test(test_spin_sample_schedule),
        cmocka_unit_test(test_plan_split),         cmocka_unit_test(test_plan_split_64k),
        cmocka_unit_test(test_run_small_boundary), cmocka_unit_test(test_threads_identical),
        cmocka_unit_test(test_pool_counts),        cmocka_unit_test(test_claim_most),
        cmocka_unit_test(test_task_pages),
    };
    /* The pool's mechanism with more participants than this machine may have CPUs (jobs of up
       to 9 threads): the cap at the CPUs available is test_threads_cap's. */
    sg_pool_set_cap(SG_MAX_THREADS);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
