/*
 * The pool's sleep and wake-up paths, in a process of its own so that the pool has one worker
 * and (on two or more CPUs) spins: jobs arrive after pauses around the worker's spin time
 * (SG_POOL_SPIN_NS, 200 us), so some land while the worker is just falling asleep. Every part
 * must run exactly once and every job must end: a lost wake-up would hang, and the alarm turns
 * a hang into a failure.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/pool.h"

typedef struct hits {
    int part[2];
    unsigned nth[2];
} hits;

static void hit_part(void *ctx, unsigned ith, unsigned nth) {
    hits *h = (hits *)ctx;
    if (ith < 2) {
        h->part[ith]++;
        h->nth[ith] = nth;
    }
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
        memset(&h, 0, sizeof h);
        assert_int_equal(sg_pool_run(2, hit_part, &h, 0), SELUGRAD_OK);
        assert_int_equal(h.part[0], 1);
        assert_int_equal(h.nth[0], 2);
        assert_int_equal(h.part[1], 1);
        assert_int_equal(h.nth[1], 2);
    }
    alarm(0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_around_the_spin_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
