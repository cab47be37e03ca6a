/*
 * A caller never waits for a worker that has not started on its job. In a process of its own:
 * the pool's one worker is held in a signal handler (as a descheduled thread would be, but
 * for as long as the test wants) while the caller runs jobs of 2 threads, long and short ones:
 * each must finish, every task run once, all on the calling thread. A pool that waited for the
 * worker would hang, and the alarm turns a hang into a failure. Then the worker is let go and
 * takes part again.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction, pthread_kill */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/pool.h"

enum { TASKS = 64 };

typedef struct job {
    atomic_int hits[TASKS];
    atomic_int foreign; /* ranges run by another thread than the caller */
    pthread_t caller;
    atomic_int worker_known;
    atomic_int await_worker; /* the caller's ranges wait (a while) for the worker to run one */
    pthread_t worker;
} job;

static job the_job;
static atomic_int held, release_worker;

static void hold(int sig) {
    (void)sig;
    atomic_store(&held, 1);
    while (!atomic_load(&release_worker)) sched_yield();
}

static void job_range(void *ctx, size_t begin, size_t end) {
    job *j = (job *)ctx;
    if (!pthread_equal(pthread_self(), j->caller)) {
        atomic_fetch_add(&j->foreign, 1);
        if (!atomic_load(&j->worker_known)) {
            j->worker = pthread_self();
            atomic_store(&j->worker_known, 1);
        }
    }
    /* while the worker is being found: give it time to wake and claim a range, so that the
       search does not depend on how fast a sleeping worker wakes (slow under a sanitizer) */
    else if (atomic_load(&j->await_worker))
        for (int y = 0; y < 100000 && !atomic_load(&j->worker_known); y++) sched_yield();
    for (size_t i = begin; i < end; i++) atomic_fetch_add(&j->hits[i], 1);
}

static int run_job(size_t cost) {
    job *j = &the_job;
    for (int i = 0; i < TASKS; i++) atomic_store(&j->hits[i], 0);
    atomic_store(&j->foreign, 0);
    assert_int_equal(sg_pool_for(2, TASKS, job_range, j, 0, cost), SELUGRAD_OK);
    for (int i = 0; i < TASKS; i++) assert_int_equal(atomic_load(&j->hits[i]), 1);
    return atomic_load(&j->foreign);
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
    /* find the worker: jobs until one of its ranges ran (it is started by the first one) */
    atomic_store(&j->await_worker, 1);
    for (int r = 0; r < 100000 && !atomic_load(&j->worker_known); r++) run_job(SIZE_MAX);
    atomic_store(&j->await_worker, 0);
    if (!atomic_load(&j->worker_known)) skip(); /* a worker that never ran: nothing to hold */
    /* between jobs the worker holds no claim; hold it there */
    assert_int_equal(pthread_kill(j->worker, SIGUSR1), 0);
    while (!atomic_load(&held)) sched_yield();
    for (int r = 0; r < 2000; r++) assert_int_equal(run_job(r & 1 ? SIZE_MAX : 0), 0);
    atomic_store(&release_worker, 1);
    alarm(0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_worker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
