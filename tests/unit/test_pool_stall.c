/*
 * A caller never waits for a worker that has not started on its job. In a process of its own:
 * the pool's one worker is held in a signal handler (as a descheduled thread would be, but
 * for as long as the test wants) while the caller runs jobs of 2 threads, long and short ones:
 * each must finish, every task run once, all on the calling thread. The worker is held again
 * and again, each time a different while after a job it took part in, so that it stops at
 * different points of its way from the end of a job to sleep (spinning, taking the pool's
 * locks, asleep): a pool whose caller waited for anything such a worker holds would hang, and
 * the alarm turns a hang into a failure. Then the same with the worker stopped as it starts to
 * sleep on a condition variable, if it sleeps on one (this program wraps pthread_cond_wait,
 * tests/CMakeLists.txt): it holds the variable's lock there, counted as a sleeper, and a caller
 * that took that lock to wake it would hang every time, where a hold at a random moment lands in
 * those few instructions only now and then. Then the worker is let go and takes part again.
 * Waits for the worker (to wake, to stop, to take part) are bounded by the clock, and the
 * rounds by a time budget, so that a slow machine (an emulator, a loaded host) runs fewer
 * rounds rather than running out of time.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction, pthread_kill, clock_gettime */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/pool.h"

enum { TASKS = 64, HOLDS = 400 };
/* How long the worker may take to wake and run a range, or to stop on the signal: far more than
   a scheduler's delay, even under an emulator on a loaded host. */
static const int64_t PATIENCE_NS = 10000000000;
/* The time budgets of the rounds of holds and of the jobs run while the worker is held. */
static const int64_t HOLDS_NS = 1000000000, HELD_JOBS_NS = 300000000;
/* The holds land up to this long after a job: past the worker's spin (SG_POOL_SPIN_NS, 200 us)
   into its way to sleep. */
static const int64_t HOLD_SPREAD_NS = 300000;
/* How long the worker is given to start to sleep after a job: its spin and its way to sleep. */
static const int64_t SLEEP_WAIT_NS = 50000000;

typedef struct job {
    atomic_int hits[TASKS];
    atomic_int foreign; /* ranges run by another thread than the caller */
    pthread_t caller;
    atomic_int worker_known;
    pthread_t worker;
    atomic_llong await_until; /* the caller's ranges wait until then for the worker to run one */
} job;

static job the_job;
static atomic_int held, release_worker;
static atomic_int stop_at_wait; /* the worker stops where it next waits on a condition variable */

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void hold(int sig) {
    (void)sig;
    atomic_store(&held, 1);
    while (!atomic_load(&release_worker)) sched_yield();
    atomic_store(&held, 0);
}

/* The pool's pthread_cond_wait (linked with --wrap=pthread_cond_wait): holds the worker, with
   the lock m taken, while stop_at_wait is set. */
int __real_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int __wrap_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    if (atomic_load(&stop_at_wait) && atomic_load(&the_job.worker_known) &&
        pthread_equal(pthread_self(), the_job.worker) && atomic_exchange(&stop_at_wait, 0))
        hold(0);
    return __real_pthread_cond_wait(c, m);
}

static void job_range(void *ctx, size_t begin, size_t end) {
    job *j = (job *)ctx;
    if (!pthread_equal(pthread_self(), j->caller)) {
        if (!atomic_load(&j->worker_known)) {
            j->worker = pthread_self();
            atomic_store(&j->worker_known, 1);
        }
        atomic_fetch_add(&j->foreign, 1);
    } else {
        /* give the worker time to wake and claim a range, so that finding it does not depend
           on how fast a sleeping worker wakes (slow under a sanitizer or an emulator) */
        int64_t until = atomic_load(&j->await_until);
        while (atomic_load(&j->foreign) == 0 && now_ns() < until) sched_yield();
    }
    for (size_t i = begin; i < end; i++) atomic_fetch_add(&j->hits[i], 1);
}

/* Runs a job of TASKS tasks on 2 threads; returns the ranges the worker ran. */
static int run_job(size_t cost) {
    job *j = &the_job;
    for (int i = 0; i < TASKS; i++) atomic_store(&j->hits[i], 0);
    atomic_store(&j->foreign, 0);
    assert_int_equal(sg_pool_for(2, TASKS, job_range, j, 0, cost), SELUGRAD_OK);
    for (int i = 0; i < TASKS; i++) assert_int_equal(atomic_load(&j->hits[i]), 1);
    return atomic_load(&j->foreign);
}

/* Runs a job whose caller ranges wait (up to PATIENCE_NS) for the worker to take part in it;
   returns whether it did. */
static int run_job_with_worker(void) {
    atomic_store(&the_job.await_until, now_ns() + PATIENCE_NS);
    int foreign = run_job(SIZE_MAX);
    atomic_store(&the_job.await_until, 0);
    return foreign != 0;
}

/* Signals the worker and waits until it is held. */
static void hold_worker(void) {
    atomic_store(&release_worker, 0);
    assert_int_equal(pthread_kill(the_job.worker, SIGUSR1), 0);
    int64_t until = now_ns() + PATIENCE_NS;
    while (!atomic_load(&held) && now_ns() < until) sched_yield();
    assert_true(atomic_load(&held));
}

/* Lets the held worker go and waits until it has left the signal handler. */
static void release(void) {
    atomic_store(&release_worker, 1);
    int64_t until = now_ns() + PATIENCE_NS;
    while (atomic_load(&held) && now_ns() < until) sched_yield();
    assert_false(atomic_load(&held));
}

static uint32_t rng = 2024u;
static uint32_t rnd(void) {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

static void test_held_worker(void **state) {
    (void)state;
    alarm(120);
    job *j = &the_job;
    j->caller = pthread_self();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = hold;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    /* find the worker (started by the first job): a job it takes part in */
    run_job_with_worker();
    if (!atomic_load(&j->worker_known)) skip(); /* no worker could be started: nothing to hold */
    /* hold it a different while after a job it took part in, round after round; between jobs
       it holds no claim */
    int64_t end = now_ns() + HOLDS_NS;
    for (int k = 0; k < HOLDS && now_ns() < end; k++) {
        run_job_with_worker();
        int64_t at = now_ns() + (int64_t)(rnd() % (uint32_t)HOLD_SPREAD_NS);
        while (now_ns() < at) {
        }
        hold_worker();
        assert_int_equal(run_job(SIZE_MAX), 0);
        assert_int_equal(run_job(0), 0);
        release();
    }
    /* hold it where it starts to sleep on a condition variable after a job, if it does */
    atomic_store(&release_worker, 0);
    atomic_store(&stop_at_wait, 1);
    run_job_with_worker();
    int64_t until = now_ns() + SLEEP_WAIT_NS;
    while (!atomic_load(&held) && now_ns() < until) sched_yield();
    if (!atomic_exchange(&stop_at_wait, 0)) {
        until = now_ns() + PATIENCE_NS;
        while (!atomic_load(&held) && now_ns() < until) sched_yield();
        assert_true(atomic_load(&held));
        assert_int_equal(run_job(SIZE_MAX), 0);
        assert_int_equal(run_job(0), 0);
        release();
    }
    hold_worker();
    end = now_ns() + HELD_JOBS_NS;
    for (int r = 0; r < 2000 && now_ns() < end; r++)
        assert_int_equal(run_job(r & 1 ? SIZE_MAX : 0), 0);
    release();
    /* let go, the worker takes part again */
    assert_true(run_job_with_worker());
    alarm(0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_worker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
