/*
 * The pool in a child of fork(): after the parent's pool has a worker, a forked child's pool
 * starts workers of its own and runs jobs on the threads asked (a job of two tasks that wait for
 * each other runs on two threads), and its calls give the golden model's bits and the
 * contract's constants; forks while another thread of the parent runs calls, or changes the
 * host parallel-for hook, give children that finish (alarm) with right results; and a child of
 * a child does too. A child reports to the parent through its exit status, never through cmocka
 * (its asserts would jump into the parent's copy of the runner).
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/parallel.h"
#include "core/pool.h"
#include "model/golden.h"
#include "selugrad/selugrad.h"
#include "test_rng.h"

/* What a child exits with: 0, or the first check that failed. */
enum {
    CHILD_OK = 0,
    CHILD_MEET_ONE_THREAD = 10, /* the two-task job ran on the calling thread alone */
    CHILD_MEET_COUNTS = 11,     /* sg_pool_counts did not count it as one job on two threads */
    CHILD_CALL_FAILED = 12,     /* selugrad_backward returned an error */
    CHILD_CALL_BITS = 13,       /* its results differ from the expected bits */
    CHILD_FORK_FAILED = 14,
    CHILD_GRANDCHILD_KILLED = 99, /* a child's child did not exit */
    CHILD_GRANDCHILD = 100,       /* plus what a child's child exited with, where not 0 */
};

static const int64_t MEET_WAIT_NS = 2000000000; /* how long a task waits for the other */
static const unsigned CHILD_ALARM_S = 10;       /* a child that runs longer is hung */

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- a job that runs on two threads or fails ----
   Two tasks, one per participant: each waits, up to MEET_WAIT_NS, until both have started. With
   a worker the worker runs task 1 while the caller runs task 0; with none the caller runs both,
   task 1 after task 0 has waited in vain. */
typedef struct meet {
    atomic_int arrived, by_others;
    pthread_t caller;
} meet;

static void meet_range(void *ctx, size_t begin, size_t end) {
    meet *m = (meet *)ctx;
    if (!pthread_equal(pthread_self(), m->caller))
        atomic_fetch_add(&m->by_others, (int)(end - begin));
    atomic_fetch_add(&m->arrived, (int)(end - begin));
    int64_t until = now_ns() + MEET_WAIT_NS;
    while (atomic_load(&m->arrived) < 2 && now_ns() < until) sched_yield();
}

/* 0, or the check that failed. */
static int meet_on_two_threads(void) {
    meet m;
    atomic_init(&m.arrived, 0);
    atomic_init(&m.by_others, 0);
    m.caller = pthread_self();
    uint64_t j0, t0, j1, t1;
    sg_pool_counts(&j0, &t0);
    if (sg_pool_for(2, 2, meet_range, &m, 0, SIZE_MAX) != SELUGRAD_OK) return CHILD_CALL_FAILED;
    sg_pool_counts(&j1, &t1);
    if (atomic_load(&m.by_others) != 1) return CHILD_MEET_ONE_THREAD;
    if (j1 - j0 != 1 || t1 - t0 != 2) return CHILD_MEET_COUNTS;
    return CHILD_OK;
}

/* ---- a call and its expected bits ----
   f32, large enough to split over two threads: first pairs whose results the contract gives
   (g = 1: o = 0.5 gives scale, o = -0.5 gives -0.5 + SA rounded to f32), then random bits, whose
   results the golden model gives. */
enum { N = (1 << 16) + 13, FIXED = 1024 }; /* 768 KiB: above 2 x 64 KiB, any kernel's part_kib */
static uint32_t *in_g, *in_o, *want, *out;

static float f32_of(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static uint32_t bits_of(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static int setup_data(void **state) {
    (void)state;
    in_g = malloc(N * sizeof *in_g);
    in_o = malloc(N * sizeof *in_o);
    want = malloc(N * sizeof *want);
    out = malloc(N * sizeof *out);
    if (!in_g || !in_o || !want || !out) return -1;
    /* the contract's SA in f32 (0x3FE10966); one f32 addition, as the contract orders it */
    volatile float sa = f32_of(0x3FE10966u), minus_half = -0.5f;
    uint32_t below = bits_of(minus_half + sa); /* g = 1: g * t is t */
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < N; i++) {
        if (i < FIXED) {
            in_g[i] = 0x3F800000u; /* 1 */
            in_o[i] = (i & 1) ? 0xBF000000u : 0x3F000000u;
            want[i] = (i & 1) ? below : 0x3F867D5Fu; /* the contract's scale */
        } else {
            uint64_t r = sgt_xorshift64s(&rng);
            in_g[i] = (uint32_t)r;
            in_o[i] = (uint32_t)(r >> 32);
            want[i] = gm_selugrad_f32(in_g[i], in_o[i]);
        }
    }
    /* the contract's decimal value of -0.5 + SA in f32 (1.2580993) */
    if (below != bits_of(1.2580993f)) return -1;
    if (selugrad_set_num_threads(2) != SELUGRAD_OK) return -1;
    /* jobs of two participants also on one CPU (the meeting tasks yield to each other) */
    sg_pool_set_cap(2);
    return 0;
}

static int teardown_data(void **state) {
    (void)state;
    free(in_g);
    free(in_o);
    free(want);
    free(out);
    sg_pool_set_cap(0);
    selugrad_set_num_threads(0);
    return 0;
}

/* One call on two threads (as planned: sg_threads_call), its bits checked. */
static int call_checked(void) {
    memset(out, 0, N * sizeof *out);
    if (selugrad_backward(SELUGRAD_FLOAT, N, in_g, in_o, out) != SELUGRAD_OK)
        return CHILD_CALL_FAILED;
    return memcmp(out, want, N * sizeof *out) == 0 ? CHILD_OK : CHILD_CALL_BITS;
}

/* What a child checks: the two-task job on two threads, a call with the expected bits, and the
   job again. Whether the call itself runs on two threads is the spin rule's choice (pool.c): on
   a machine with more runnable threads than CPUs, such as while another thread of the parent
   runs calls, a call shorter than SG_POOL_WAKE_COST_CROWDED runs on the calling thread; the job
   wakes its worker whatever the load. */
static int child_checks(void) {
    int rc = meet_on_two_threads();
    if (rc != CHILD_OK) return rc;
    rc = call_checked();
    if (rc != CHILD_OK) return rc;
    return meet_on_two_threads();
}

/* Forks a child that runs body under an alarm and exits with its result; the child's wait
   status. */
static int run_child(int (*body)(void)) {
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid == 0) {
        alarm(CHILD_ALARM_S);
        _exit(body());
    }
    assert_true(pid > 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void assert_child_ok(int status) {
    if (WIFSIGNALED(status)) fail_msg("the child was killed by signal %d", WTERMSIG(status));
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) != CHILD_OK) fail_msg("the child exited with %d", WEXITSTATUS(status));
}

/* After a parent job on two threads (its pool has a worker), a child's jobs run on two. */
static void test_child_runs_on_two_threads(void **state) {
    (void)state;
    assert_int_equal(meet_on_two_threads(), CHILD_OK);
    assert_int_equal(call_checked(), CHILD_OK);
    assert_child_ok(run_child(child_checks));
    /* and the parent's pool is as it was */
    assert_int_equal(meet_on_two_threads(), CHILD_OK);
}

/* A child that checks, forks a child that checks, and reports both. */
static int child_of_child(void) {
    int rc = child_checks();
    if (rc != CHILD_OK) return rc;
    pid_t pid = fork();
    if (pid == 0) {
        alarm(CHILD_ALARM_S);
        _exit(child_checks());
    }
    if (pid < 0) return CHILD_FORK_FAILED;
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return CHILD_GRANDCHILD_KILLED;
    if (WEXITSTATUS(status) != CHILD_OK) return CHILD_GRANDCHILD + WEXITSTATUS(status);
    return child_checks(); /* the child's own pool goes on working after its fork */
}

static void test_child_of_a_child(void **state) {
    (void)state;
    assert_int_equal(meet_on_two_threads(), CHILD_OK);
    assert_child_ok(run_child(child_of_child));
}

/* ---- forks while another thread works ---- */

static atomic_bool stop;
static atomic_long loops;

/* Two-thread calls and pool jobs, smaller than the checked call, until told to stop. */
static void *caller_loop(void *arg) {
    (void)arg;
    enum { M = N - FIXED };
    float *y = malloc(M * sizeof *y);
    if (y == NULL) abort(); /* not a cmocka assert: this is not the runner's thread */
    while (!atomic_load(&stop)) {
        selugrad_backward(SELUGRAD_FLOAT, M, in_g + FIXED, in_o + FIXED, y);
        meet_on_two_threads();
        atomic_fetch_add(&loops, 1);
        struct timespec d = {0, 20000};
        nanosleep(&d, NULL); /* a CPU for the children now and then */
    }
    free(y);
    return NULL;
}

/* Runs the host's tasks in order on the calling thread. */
static void serial_for(void *ctx, size_t n_tasks, selugrad_task_fn task, void *task_ctx) {
    (void)ctx;
    for (size_t i = 0; i < n_tasks; i++) task(task_ctx, i);
}

/* Sets and clears the host parallel-for until told to stop. */
static void *hook_loop(void *arg) {
    (void)arg;
    while (!atomic_load(&stop)) {
        selugrad_set_parallel_for(serial_for, NULL);
        selugrad_set_parallel_for(NULL, NULL);
        atomic_fetch_add(&loops, 1);
    }
    return NULL;
}

/* A child forked while the hook may be set: calls with the expected bits, whoever runs them. */
static int child_hooked_calls(void) {
    int rc = call_checked();
    if (rc != CHILD_OK) return rc;
    selugrad_set_parallel_for(NULL, NULL);
    return child_checks();
}

/* Forks `forks` children at spread moments while `loop` runs in another thread; each child runs
   body and must finish in time with CHILD_OK. */
static void forks_beside(void *(*loop)(void *), int (*body)(void), int forks) {
    atomic_store(&stop, false);
    atomic_store(&loops, 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, loop, NULL), 0);
    while (atomic_load(&loops) == 0) sched_yield();
    for (int k = 0; k < forks; k++) {
        struct timespec d = {0, 100000 + 37000 * (k % 11)};
        nanosleep(&d, NULL);
        int status = run_child(body);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != CHILD_OK) {
            atomic_store(&stop, true);
            pthread_join(t, NULL);
            fprintf(stderr, "fork %d of %d:\n", k + 1, forks);
            assert_child_ok(status);
        }
    }
    atomic_store(&stop, true);
    pthread_join(t, NULL);
}

static void test_forks_beside_calls(void **state) {
    (void)state;
    forks_beside(caller_loop, child_checks, 16);
}

static void test_forks_beside_hook_changes(void **state) {
    (void)state;
    forks_beside(hook_loop, child_hooked_calls, 24);
    selugrad_set_parallel_for(NULL, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_child_runs_on_two_threads),
        cmocka_unit_test(test_child_of_a_child),
        cmocka_unit_test(test_forks_beside_calls),
        cmocka_unit_test(test_forks_beside_hook_changes),
    };
    return cmocka_run_group_tests(tests, setup_data, teardown_data);
}
