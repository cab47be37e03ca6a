/*
 * The pool's sleep and wake-up paths, in a process of its own so that the pool has one worker
 * and (on two or more CPUs) spins: jobs arrive after pauses around the worker's spin time
 * (SG_POOL_SPIN_NS, 200 us), so some land while the worker is just falling asleep. Every task
 * must run exactly once and every job must end: a lost wake-up would hang, and the alarm turns
 * a hang into a failure.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/pool.h"

typedef struct hits {
    _Atomic int task[2];
} hits;

static void hit_range(void *ctx, size_t begin, size_t end) {
    hits *h = (hits *)ctx;
    for (size_t i = begin; i < end && i < 2; i++) atomic_fetch_add(&h->task[i], 1);
}

static uint32_t rng = 2024u;
static uint32_t rnd(void) {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

static void pause_us(long us) {
    struct timespec ts = {0, us * 1000L};
    nanosleep(&ts, NULL);
}

static void test_jobs_around_the_spin_time(void **state) {
    (void)state;
    alarm(120);
    for (int r = 0; r < 1500; r++) {
        /* 0-60 us (worker spinning), else 150-260 us (around the end of its spin), now and
           then 1 ms (asleep for a while) */
        long gap = r % 5 == 0 ? (long)(rnd() % 60u) : 150 + (long)(rnd() % 111u);
        if (r % 97 == 0) gap = 1000;
        pause_us(gap);
        hits h;
        atomic_init(&h.task[0], 0);
        atomic_init(&h.task[1], 0);
        /* a long job: sleeping workers are woken for it */
        assert_int_equal(sg_pool_for(2, 2, hit_range, &h, 0, SIZE_MAX), SELUGRAD_OK);
        assert_int_equal(atomic_load(&h.task[0]), 1);
        assert_int_equal(atomic_load(&h.task[1]), 1);
    }
    alarm(0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_around_the_spin_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
