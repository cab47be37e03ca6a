/*
 * More threads asked than CPUs available: a call on the library's own pool runs on at most the
 * CPUs (docs/dispatch.md, "Threads"). The rule from given counts, the plans it gives for given
 * CPU counts (worked out by hand from the tiling and task rules that docs/dispatch.md writes
 * down), and calls with 64 threads asked: bit for bit the golden model's results, on no more
 * threads than this process's CPUs. CTest runs it also under `taskset -c 0` (one CPU).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/dispatch.h"
#include "core/exec.h"
#include "core/parallel.h"
#include "core/pool.h"
#include "model/golden.h"

/* The rule: min(asked, cpus), at least 1; with a host parallel-for, the count asked. */
static void test_cap_rule(void **state) {
    (void)state;
    static const struct {
        unsigned asked, cpus, capped;
    } rows[] = {{1, 2, 1},    {2, 2, 2},  {4, 2, 2},     {8, 2, 2},  {64, 2, 2},
                {1024, 2, 2}, {64, 1, 1}, {2, 1, 1},     {3, 64, 3}, {64, 64, 64},
                {96, 64, 64}, {0, 2, 1},  {5, 0, 1},     {0, 0, 1},  {1024, 1024, 1024},
                {7, 3, 3},    {3, 7, 3},  {1024, 96, 96}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_int_equal(sg_threads_capped(rows[i].asked, rows[i].cpus), rows[i].capped);
        assert_int_equal(sg_threads_for(rows[i].asked, rows[i].cpus, false), rows[i].capped);
    }
    /* the host's threads run the tasks: the count asked, whatever the calling thread's mask */
    assert_int_equal(sg_threads_for(64, 2, true), 64);
    assert_int_equal(sg_threads_for(8, 1, true), 8);
    assert_int_equal(sg_threads_for(2, 64, true), 2);
    assert_int_equal(sg_threads_for(0, 2, true), 1);
}

/* Plans of a 1M-element f32 call (the scalar kernel: part_kib 4, so any thread count up to
   3072 has its part_kib of traffic) that streams, for given counts asked and CPUs. By hand,
   from docs/dispatch.md: the tiling's blockDim is ceil(n / (ceil(ceil(n / cores) / 32) * 32));
   a task is 12 MiB / (threads * 8) of traffic, at least the 256 KiB from which a kernel call
   streams (x86), rounded up to 64 elements and, at 64 KiB of y or more, to a 4 KiB page. */
static void test_plans_for_cpus(void **state) {
    (void)state;
#ifdef SG_INLINE_BYTES
    skip(); /* a measuring build: every kernel splits at SG_INLINE_BYTES */
#else
    const sg_kernel *k = sg_kernel_select(SELUGRAD_FLOAT, SG_ISA_SCALAR);
    assert_int_equal(k->part_kib, 4);
    const size_t n = (size_t)1 << 20;
    static const struct {
        unsigned asked, cpus, nth;
        size_t block, tasks; /* x86, where the call streams */
    } rows[] = {
        /* 2 threads: 786432 bytes a task = 65536 elements (a whole number of pages) */
        {2, 2, 2, 65536, 16},
        {4, 2, 2, 65536, 16},
        {8, 2, 2, 65536, 16},
        {64, 2, 2, 65536, 16},
        {1024, 2, 2, 65536, 16},
        /* one CPU: one task, the whole call */
        {1, 2, 1, n, 1},
        {64, 1, 1, n, 1},
        /* 3 threads: 524288 bytes a task = 43690.7 elements, 43712 by 64, 44032 by pages */
        {3, 64, 3, 44032, 24},
        {8, 3, 3, 44032, 24},
        /* 64 threads: 24576 bytes a task, raised to 262144 = 21845.3 elements, 21888 by 64,
           22528 by pages: 47 tasks */
        {64, 64, 64, 22528, 47},
        {1024, 64, 64, 22528, 47},
    };
    sg_exec_set_stream_bytes(1); /* every call streams, whatever this CPU's caches */
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        sg_plan p;
        sg_plan_make(&p, k, n, sg_threads_for(rows[i].asked, rows[i].cpus, false));
        assert_int_equal(p.nth, rows[i].nth);
#if defined(__x86_64__) || defined(_M_X64)
        assert_int_equal(p.stream, 1);
        assert_int_equal(p.block, rows[i].block);
        assert_int_equal(p.tasks, rows[i].tasks);
#endif
    }
    sg_exec_set_stream_bytes(0);
#endif
}

/* The CPUs of this process's affinity mask, counted here. */
static unsigned cpus_of_mask(void) {
    cpu_set_t set;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    return (unsigned)CPU_COUNT(&set);
}

static uint32_t rng = 2463534242u;
static uint32_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* 64 threads asked: every result is the golden model's, contiguous, strided and in place, and
   no call runs on more threads than the CPUs available. */
static void test_calls_64_threads(void **state) {
    (void)state;
    /* the mask's count, or this machine's cgroup quota where lower (a container's --cpus):
       test_cpus checks the quota itself */
    unsigned cpus = sg_cpus_available(), mask = cpus_of_mask(), quota = sg_cpus_quota();
    assert_int_equal(cpus, quota != 0 && quota < mask ? quota : mask);
    const selugrad_dtype dts[3] = {SELUGRAD_FLOAT, SELUGRAD_BF16, SELUGRAD_FLOAT16};
    const size_t n = ((size_t)1 << 20) + 13;
    assert_int_equal(selugrad_set_num_threads(64), SELUGRAD_OK);
    assert_int_equal(selugrad_get_num_threads(), 64); /* the count asked */
    for (int d = 0; d < 3; d++) {
        size_t es = selugrad_dtype_size(dts[d]);
        unsigned char *g = malloc(n * es), *o = malloc(n * es), *y = malloc(n * es),
                      *want = malloc(n * es), *wants = malloc(n / 2 * es);
        assert_true(g && o && y && want && wants);
        for (size_t i = 0; i < n * es; i++) {
            g[i] = (unsigned char)(rnd() >> 24);
            o[i] = (unsigned char)(rnd() >> 24);
        }
        gm_selugrad_array((int)dts[d], n, g, o, want);
        /* every other element of g and o */
        unsigned char *gs = malloc(n / 2 * es), *os = malloc(n / 2 * es);
        assert_true(gs && os);
        for (size_t i = 0; i < n / 2; i++) {
            memcpy(gs + i * es, g + 2 * i * es, es);
            memcpy(os + i * es, o + 2 * i * es, es);
        }
        gm_selugrad_array((int)dts[d], n / 2, gs, os, wants);
        for (int rep = 0; rep < 3; rep++) {
            uint64_t j0, t0, j1, t1;
            sg_pool_counts(&j0, &t0);
            memset(y, 0, n * es);
            assert_int_equal(selugrad_backward(dts[d], n, g, o, y), SELUGRAD_OK);
            sg_pool_counts(&j1, &t1);
            assert_memory_equal(y, want, n * es);
            /* this test's calls are the only ones: a call handed to the pool ran on at most the
               CPUs; with one CPU none is handed to it */
            assert_true(j1 - j0 <= 1);
            assert_true(t1 - t0 <= (uint64_t)cpus);
            if (cpus == 1) assert_int_equal(j1 - j0, 0);
            memset(y, 0, n * es);
            assert_int_equal(selugrad_backward_strided(dts[d], n / 2, g, 2, o, 2, y, 1),
                             SELUGRAD_OK);
            assert_memory_equal(y, wants, n / 2 * es);
            memcpy(y, g, n * es); /* in place over g */
            assert_int_equal(selugrad_backward(dts[d], n, y, o, y), SELUGRAD_OK);
            assert_memory_equal(y, want, n * es);
        }
        free(g), free(o), free(y), free(want), free(wants), free(gs), free(os);
    }
    assert_int_equal(selugrad_set_num_threads(0), SELUGRAD_OK);
}

/* The pool itself: a job of 64 threads and 64 tasks runs every task once, on at most the CPUs
   available (sg_pool_counts counts the threads that ran tasks), though its tasks sleep and more
   threads would find CPUs free to run them. */
typedef struct hits_job {
    atomic_int hits[64];
} hits_job;

/* Each task sleeps 200 us: long enough that every thread a job has gets tasks. */
static void hits_range(void *ctx, size_t begin, size_t end) {
    hits_job *j = (hits_job *)ctx;
    for (size_t i = begin; i < end; i++) {
        atomic_fetch_add(&j->hits[i], 1);
        struct timespec t = {0, 200000};
        nanosleep(&t, NULL);
    }
}

static void test_pool_job_64(void **state) {
    (void)state;
    unsigned cpus = sg_cpus_available();
    for (int rep = 0; rep < 20; rep++) {
        hits_job j;
        for (int i = 0; i < 64; i++) atomic_store(&j.hits[i], 0);
        uint64_t j0, t0, j1, t1;
        sg_pool_counts(&j0, &t0);
        assert_int_equal(sg_pool_for(64, 64, hits_range, &j, 0, SIZE_MAX), SELUGRAD_OK);
        sg_pool_counts(&j1, &t1);
        for (int i = 0; i < 64; i++) assert_int_equal(atomic_load(&j.hits[i]), 1);
        assert_true(t1 - t0 <= (uint64_t)cpus);
        if (cpus == 1) assert_int_equal(j1 - j0, 0); /* all on the calling thread */
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cap_rule),
        cmocka_unit_test(test_plans_for_cpus),
        cmocka_unit_test(test_calls_64_threads),
        cmocka_unit_test(test_pool_job_64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
