#define _GNU_SOURCE /* syscall (the futex) */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include "../common/error.h"

/* ---- thread count ---- */

static atomic_int sg_threads_override; /* 0: none */
static unsigned sg_threads_env;
static pthread_once_t sg_threads_once = PTHREAD_ONCE_INIT;
static atomic_uint sg_pool_cap_override; /* 0: none (sg_pool_set_cap) */

unsigned sg_threads_capped(unsigned asked, unsigned cpus) {
    if (cpus == 0) cpus = 1;
    if (asked == 0) asked = 1;
    return asked < cpus ? asked : cpus;
}

void sg_pool_set_cap(unsigned n) {
    atomic_store_explicit(&sg_pool_cap_override, n, memory_order_relaxed);
}

/* The most threads a job of the pool runs on, the caller included. */
static unsigned sg_pool_cap(void) {
    unsigned o = atomic_load_explicit(&sg_pool_cap_override, memory_order_relaxed);
    return o ? o : sg_cpus_available();
}

static void sg_threads_init(void) {
    unsigned n = sg_cpus_available();
    const char *env = getenv("SELUGRAD_NUM_THREADS");
    if (env != NULL && env[0] != '\0') {
        char *end;
        long v = strtol(env, &end, 10);
        /* digits only: strtol would also take leading spaces and a sign */
        if (env[0] >= '0' && env[0] <= '9' && *end == '\0' && v >= 1 && v <= SG_MAX_THREADS)
            n = (unsigned)v;
        else
            fprintf(stderr,
                    "selugrad: SELUGRAD_NUM_THREADS=\"%s\" is not a whole number from 1 to %d; "
                    "using %u\n",
                    env, SG_MAX_THREADS, n);
    }
    sg_threads_env = n > SG_MAX_THREADS ? SG_MAX_THREADS : n;
}

unsigned sg_threads_default(void) {
    int o = atomic_load(&sg_threads_override);
    if (o > 0) return (unsigned)o;
    pthread_once(&sg_threads_once, sg_threads_init);
    return sg_threads_env;
}

selugrad_status selugrad_set_num_threads(int n) {
    if (n < 0 || n > SG_MAX_THREADS)
        return sg_fail(SELUGRAD_ERR_BAD_ARGUMENT,
                       "selugrad_set_num_threads: n must be 0 (default) to %d, got %d",
                       SG_MAX_THREADS, n);
    atomic_store(&sg_threads_override, n);
    return SELUGRAD_OK;
}

int selugrad_get_num_threads(void) {
    return (int)sg_threads_default();
}

/* ---- the pool ----
 * A job is published by bumping `word`, which packs the job's generation (high 32 bits) with its
 * participant count and its task count (16 bits each), so a worker reads all three at once.
 * Participant s (0: the caller; 1 and up: workers) owns tasks [s * tasks / parts,
 * (s + 1) * tasks / parts): slot s holds (generation, begin, end) of what is left of them in one
 * word, and a slot still tagged with an older generation holds its whole share, so publishing
 * writes no slot (but every 2^30 jobs, so that no tag lives to wrap around). A claim is a
 * compare-and-swap on a slot that keeps the tag: the owner takes half of what is left from the
 * front, another participant half from the back, and each claim runs as one range. A claim fails
 * once the slot carries a newer generation, so a worker that wakes late never runs a finished job;
 * and a job cannot finish while a claimed range runs, so a participant that holds a claim reads the
 * job (fn, ctx, the copy) as it was published. `remaining` counts the tasks not finished in
 * its low 32 bits: a worker subtracts what it ran of its own share once that share is empty, then
 * what it took from the others' when none is left; the caller subtracts all it ran when none is
 * left, and returns when they reach zero; a worker that ran tasks adds one to the high 32 bits in
 * its first subtraction (sg_pool_counts' thread count), so a worker's end of its share is one
 * locked instruction on the line the caller waits on. Waiting: a worker spins on `word` for up to
 * SG_POOL_SPIN_NS when spinning is allowed (the rule of sg_pool_spin_rule, sampled every
 * SG_POOL_SAMPLE_NS), then sleeps (sg_wait_word); the caller spins for the ranges others still run,
 * then sleeps on `done`. On Linux a caller wakes sleeping workers with a futex and takes no lock,
 * so a worker descheduled on its way to sleep cannot hold up the caller's job (a condition
 * variable would make the caller wait for the `mu` that worker holds). Cache lines: a waiting
 * worker polls the line of `word`, which also holds `remaining` and the copy of a small job, so one
 * transfer from the caller's core brings it the job too; `fn` and `ctx` sit in a line that a steady
 * stream of calls does not write (written only when they change; what the caller writes on every
 * call sits with `job_lock`); each slot has a line of its own, which stays in its owner's cache
 * unless someone steals from it or looks for tasks there, and which its owner takes back for
 * writing while it waits for the next job (PREFETCHW), so that its first claim does not wait for
 * another core. */

enum { SG_FIELD_BITS = 16 };
#define SG_FIELD_MASK 0xFFFFu
#define SG_SWEEP_MASK 0x3FFFFFFFu

/* How long a worker spins waiting for the next job (and the caller for ranges other threads run)
   before sleeping on a condition variable. A futex wake-up costs tens of microseconds on a VM,
   more than a whole in-cache call; measured in docs/dispatch.md. Checked by the clock because
   the duration of PAUSE varies tenfold between CPUs. */
#ifndef SG_POOL_YIELD_NS
#define SG_POOL_YIELD_NS 20000
#endif
#ifndef SG_POOL_SPIN_NS
#define SG_POOL_SPIN_NS 200000
#endif
/* The sampling schedule of the spin rule is sg_pool_caller_sample_ns's (pool.h); a worker samples
   when it finishes a job, at most every SG_POOL_SAMPLE_NS (a sample reads /proc/loadavg, 10-20 us
   on a VM, time the worker would spend waiting anyway). */
_Static_assert(
    SG_POOL_RECHECK_NS <= SG_POOL_SAMPLE_NS,
    "the caller's re-sampling interval grows from SG_POOL_RECHECK_NS to SG_POOL_SAMPLE_NS");

typedef struct sg_slot {
    _Alignas(64) _Atomic uint64_t range; /* generation << 32 | begin << 16 | end */
} sg_slot;

typedef struct sg_pool {
    _Alignas(64) _Atomic uint64_t word; /* generation << 32 | parts << 16 | tasks */
    _Atomic uint64_t remaining;         /* workers that ran tasks << 32 | tasks not yet finished */
    _Alignas(16) unsigned char job[SG_POOL_JOB_BYTES]; /* the copy of a job passed by value */
    _Alignas(64) sg_range_fn fn;
    void *ctx;                  /* what the workers get: the caller's ctx, or `job` */
    atomic_uint claim_most;     /* the most tasks one claim takes (sg_pool_claim_most) */
    atomic_uint sleepers;       /* workers asleep or on their way to sleep (sg_wait_word) */
    atomic_uint nworkers;       /* threads started so far */
    atomic_uint cpus;           /* sg_cpus_affinity(): the CPUs a spinning worker may find */
    atomic_int spin;            /* whether workers may spin (sg_pool_spin_rule) */
    _Atomic int64_t sampled_ns; /* when the rule was last sampled */
    _Atomic int64_t denied_ns;  /* when the rule last turned spinning off */
    uint64_t start_word;        /* `word` when the newest worker was started (under mu) */
    _Alignas(64) pthread_mutex_t job_lock; /* held by the caller whose job the pool runs */
    int64_t last_job_ns; /* when the last job was published (under job_lock; written by every
                            call, so away from what the workers read in a job) */
    /* the sleeping side, away from job_lock: a worker that signals `done` does not take the
       caller's line from it just before the caller unlocks job_lock */
    _Alignas(64) pthread_mutex_t mu; /* guards the condition variables, start_word, starting
                                        workers */
    pthread_cond_t wake;             /* where there is no futex (sg_wait_word) */
    pthread_cond_t done;
    atomic_uint caller_waits; /* the caller sleeps, or is about to, on `done` */
    atomic_uint wake_seq;     /* bumped by a caller that wakes sleeping workers (a futex) */
} sg_pool;

_Static_assert(offsetof(sg_pool, job) + SG_POOL_JOB_BYTES <= 64,
               "the job copy shares the cache line of the job word");
_Static_assert(SG_MAX_THREADS <= SG_FIELD_MASK && SG_POOL_MAX_TASKS <= SG_FIELD_MASK,
               "parts and tasks fit their fields");

static sg_pool sg_the_pool = {.job_lock = PTHREAD_MUTEX_INITIALIZER,
                              .mu = PTHREAD_MUTEX_INITIALIZER,
                              .wake = PTHREAD_COND_INITIALIZER,
                              .done = PTHREAD_COND_INITIALIZER};
static sg_slot sg_slots[SG_MAX_THREADS];

/* sg_pool_counts: written by the caller that holds job_lock, read by anyone. */
typedef struct sg_pool_tally {
    _Alignas(64) _Atomic uint64_t jobs, threads;
} sg_pool_tally;
static sg_pool_tally sg_tally;

void sg_pool_counts(uint64_t *jobs, uint64_t *threads) {
    *jobs = atomic_load_explicit(&sg_tally.jobs, memory_order_relaxed);
    *threads = atomic_load_explicit(&sg_tally.threads, memory_order_relaxed);
}

/* Asks for the line at a in this core's cache for writing, without waiting for it: the next
   compare-and-swap there then finds it owned instead of fetching it from another core. A hint
   (PREFETCHW; an older x86 without it runs it as a no-op). */
static inline void sg_prefetch_own(_Atomic uint64_t *a) {
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("prefetchw %0" : : "m"(*(const volatile char *)a));
#else
    (void)a;
#endif
}

static inline void sg_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("pause");
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static int64_t sg_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- when to spin ---- */

bool sg_pool_spin_rule(unsigned runnable, unsigned sleepers, unsigned cpus) {
    return runnable == 0 || (size_t)runnable + sleepers <= cpus;
}

/* Runnable threads of the machine now, the caller included (the fourth field of /proc/loadavg,
   "runnable/total"); 0 where unknown. */
static unsigned sg_runnable_threads(void) {
#if defined(__linux__)
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[128];
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0) return 0;
    buf[got] = '\0';
    char *s = buf;
    for (int field = 0; field < 3; field++) {
        s = strchr(s, ' ');
        if (s == NULL) return 0;
        s++;
    }
    unsigned long r = strtoul(s, NULL, 10);
    return r < 65536 ? (unsigned)r : 65535u;
#else
    return 0;
#endif
}

int64_t sg_pool_caller_sample_ns(bool spin, int64_t denied_ns) {
    if (spin) return SG_POOL_CALLER_SAMPLE_NS;
    if (denied_ns < SG_POOL_RECHECK_NS) return SG_POOL_RECHECK_NS;
    return denied_ns < SG_POOL_SAMPLE_NS ? denied_ns : SG_POOL_SAMPLE_NS;
}

/* Samples the spin rule if the last sample is old enough (one thread at a time): for a worker
   (caller false) SG_POOL_SAMPLE_NS, for a caller sg_pool_caller_sample_ns with spinning denied
   for as long as it had been at the last sample. With no count of runnable threads, workers
   spin while there are fewer of them than CPUs. */
static void sg_pool_sample(sg_pool *p, int64_t now, bool caller) {
    int64_t last = atomic_load_explicit(&p->sampled_ns, memory_order_relaxed);
    bool was = atomic_load_explicit(&p->spin, memory_order_relaxed);
    int64_t age = caller
                      ? sg_pool_caller_sample_ns(
                            was, last - atomic_load_explicit(&p->denied_ns, memory_order_relaxed))
                      : SG_POOL_SAMPLE_NS;
    if (now - last < age ||
        !atomic_compare_exchange_strong_explicit(&p->sampled_ns, &last, now, memory_order_relaxed,
                                                 memory_order_relaxed))
        return;
    unsigned cpus = atomic_load_explicit(&p->cpus, memory_order_relaxed);
    bool ok = atomic_load_explicit(&p->nworkers, memory_order_relaxed) < cpus &&
              sg_pool_spin_rule(sg_runnable_threads(), atomic_load(&p->sleepers), cpus);
    /* the flag read again after the claim: another sampler may have stored it meanwhile (`was`
       only chose how old a sample had to be) */
    if (!ok && atomic_load_explicit(&p->spin, memory_order_relaxed))
        atomic_store_explicit(&p->denied_ns, now, memory_order_relaxed);
    atomic_store_explicit(&p->spin, ok, memory_order_relaxed);
}

/* One spin-wait's deadline and next yield. Yielding now and then lets a waited-for thread
   that shares this CPU run; yielding often hands the CPU to unrelated processes for a whole
   time slice. */
typedef struct sg_spin {
    int64_t until, next_yield;
    bool obey; /* stop at once when spinning is not allowed */
} sg_spin;

/* Called every 64 rounds of a spin; false when the spin should stop. */
static bool sg_spin_go_on(sg_spin *s) {
    if (s->obey && !atomic_load_explicit(&sg_the_pool.spin, memory_order_relaxed)) return false;
    int64_t t = sg_now_ns();
    if (s->until == 0) {
        s->until = t + SG_POOL_SPIN_NS;
        s->next_yield = t + SG_POOL_YIELD_NS;
    }
    if (t >= s->next_yield) {
        sched_yield();
        s->next_yield = t + SG_POOL_YIELD_NS;
    }
    return t < s->until;
}

/* Spins until the low 32 bits of *a are zero or the spin ends; returns them as last read. The
   caller waits so for ranges that other threads are running, whatever the spin rule says: they
   end soon. */
static uint32_t sg_spin_until_zero(_Atomic uint64_t *a) {
    sg_spin s = {0, 0, false};
    for (unsigned i = 1;; i++) {
        uint32_t v = (uint32_t)atomic_load_explicit(a, memory_order_acquire);
        if (v == 0 || ((i & 63u) == 0 && !sg_spin_go_on(&s))) return v;
        sg_cpu_relax();
    }
}

/* Spins until the job word differs from old or the spin ends; returns the last value read.
   On its first round and every 64 after it takes the line of the worker's slot (`own`) back for
   writing, so that its first claim of the next job does not wait for another core's copy (the
   caller reads the slot when it looks for tasks to take after its own share). */
static uint64_t sg_spin_word(sg_pool *p, uint64_t old, _Atomic uint64_t *own) {
    sg_spin s = {0, 0, true};
    for (unsigned i = 1;; i++) {
        uint64_t w = atomic_load_explicit(&p->word, memory_order_acquire);
        if (w != old) return w;
        if ((i & 63u) == 1) sg_prefetch_own(own);
        if ((i & 63u) == 0 && !sg_spin_go_on(&s)) return w;
        sg_cpu_relax();
    }
}

/* Waits until the job word differs from old: spins, then sleeps until a caller wakes it
   (sg_wake_workers). On Linux the sleep is a futex on wake_seq, read before the worker counts
   itself a sleeper and reads `word` (all sequentially consistent): a caller that published after
   that read of `word` sees the sleeper and bumps wake_seq, so the futex does not sleep on the old
   value or is woken. Elsewhere a condition variable, which the caller signals holding `mu`. */
static uint64_t sg_wait_word(sg_pool *p, uint64_t old, _Atomic uint64_t *own) {
    uint64_t w = sg_spin_word(p, old, own);
    if (w != old) return w;
#if defined(__linux__)
    for (;;) {
        unsigned seq = atomic_load(&p->wake_seq);
        atomic_fetch_add(&p->sleepers, 1);
        w = atomic_load(&p->word);
        if (w == old)
            syscall(SYS_futex, (void *)&p->wake_seq, FUTEX_WAIT_PRIVATE, seq, NULL, NULL, 0);
        atomic_fetch_sub(&p->sleepers, 1);
        if (w != old || (w = atomic_load(&p->word)) != old) return w;
    }
#else
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->sleepers, 1);
    while ((w = atomic_load(&p->word)) == old) pthread_cond_wait(&p->wake, &p->mu);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mu);
    return w;
#endif
}

/* Wakes the workers that sleep in sg_wait_word; called after a new `word` is stored. */
static void sg_wake_workers(sg_pool *p) {
#if defined(__linux__)
    atomic_fetch_add(&p->wake_seq, 1);
    syscall(SYS_futex, (void *)&p->wake_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
#endif
}

/* ---- claiming ---- */

/* Claims tasks of generation gen from slot s: up to half of what is left (at least one), from
   the front (the owner) or the back (anyone else). False when none is left, or when the slot
   belongs to a newer job (then this one is finished). */
static bool sg_claim(unsigned s, uint32_t gen, unsigned parts, unsigned tasks, unsigned most,
                     bool front, size_t *begin, size_t *end) {
    _Atomic uint64_t *r = &sg_slots[s].range;
    uint64_t cur = atomic_load_explicit(r, memory_order_acquire);
    for (;;) {
        uint32_t tag = (uint32_t)(cur >> 32);
        unsigned lo, hi;
        if (tag == gen) {
            lo = (unsigned)(cur >> SG_FIELD_BITS) & SG_FIELD_MASK;
            hi = (unsigned)cur & SG_FIELD_MASK;
        } else {
            /* Another tag: untouched in this job, unless the job is over (the slot had to be
               claimed for it to end). `word` is read after the slot, so if it still names this
               job the tag is older; a claim made since then fails the exchange below. */
            if ((uint32_t)(atomic_load_explicit(&sg_the_pool.word, memory_order_acquire) >> 32) !=
                gen)
                return false;
            lo = s * tasks / parts;
            hi = (s + 1) * tasks / parts;
        }
        if (lo >= hi) return false;
        unsigned take = (hi - lo + 1) / 2;
        if (take > most) take = most;
        if (front) {
            *begin = lo;
            lo += take;
            *end = lo;
        } else {
            *end = hi;
            hi -= take;
            *begin = hi;
        }
        uint64_t next = (uint64_t)gen << 32 | (uint64_t)lo << SG_FIELD_BITS | hi;
        if (atomic_compare_exchange_weak_explicit(r, &cur, next, memory_order_acq_rel,
                                                  memory_order_relaxed))
            return true;
    }
}

/* A worker's report of ran finished tasks: subtracts them from the tasks left and, the first
   time in a job, adds one to the threads that ran tasks (sg_pool_counts), in one locked
   instruction on the line the caller waits on; wakes the caller if they were the last. */
static void sg_worker_report(sg_pool *p, unsigned ran, bool first) {
    /* ran <= the tasks left: no borrow from the high 32 bits */
    uint64_t add = (first ? (uint64_t)1 << 32 : 0) - ran;
    /* the fetch-and-add and the caller's of caller_waits are both locked instructions, so either
       the caller sees no task left or this sees it waiting (sg_pool_go) */
    if ((uint32_t)atomic_fetch_add(&p->remaining, add) == ran && atomic_load(&p->caller_waits)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

/* Runs tasks of the job in word w as participant s (its own share first, then the others'),
   until none is left to claim. fn and ctx: the caller's own; NULL for a worker, which reads the
   pool's once it holds a claim. A worker reports what it ran of its own share as soon as that is
   done, before it looks at the others' shares (a read of another core's line each, which the
   caller, usually done first, would otherwise wait for), and what it takes from them after.
   Returns the tasks it ran and did not report: all of the caller's, none of a worker's. */
static unsigned sg_participate(sg_pool *p, unsigned s, uint64_t w, sg_range_fn fn, void *ctx) {
    uint32_t gen = (uint32_t)(w >> 32);
    unsigned parts = (unsigned)(w >> SG_FIELD_BITS) & SG_FIELD_MASK;
    unsigned tasks = (unsigned)w & SG_FIELD_MASK;
    unsigned ran = 0;
    bool counted = false; /* a worker: its thread counted in `remaining` */
    /* any value read is safe: it only sets how much each claim takes */
    unsigned most = atomic_load_explicit(&p->claim_most, memory_order_relaxed);
    size_t b, e;
    for (unsigned k = 0; k < parts; k++) {
        unsigned v = s + k < parts ? s + k : s + k - parts;
        while (sg_claim(v, gen, parts, tasks, most, k == 0, &b, &e)) {
            if (fn == NULL) {
                fn = p->fn;
                ctx = p->ctx;
            }
            fn(ctx, b, e);
            ran += (unsigned)(e - b);
        }
        if (s != 0 && ran != 0 && (k == 0 || k + 1 == parts)) {
            sg_worker_report(p, ran, !counted);
            counted = true;
            ran = 0;
        }
    }
    return ran;
}

static void *sg_worker_main(void *arg) {
    sg_pool *p = &sg_the_pool;
    unsigned index = (unsigned)(size_t)arg;
    /* The job that made this worker is published after its creation: start from the word as it
       was then, not as it is now, or that first job would be missed. */
    pthread_mutex_lock(&p->mu);
    uint64_t seen = p->start_word;
    pthread_mutex_unlock(&p->mu);
    for (;;) {
        seen = sg_wait_word(p, seen, &sg_slots[index].range);
        unsigned parts = (unsigned)(seen >> SG_FIELD_BITS) & SG_FIELD_MASK;
        if (index >= parts) continue;
        sg_participate(p, index, seen, NULL, NULL);
        sg_pool_sample(p, sg_now_ns(), false);
    }
    return NULL;
}

/* ---- fork ----
 * fork() copies only the thread that calls it: the child of a process whose pool has workers
 * has none, while its copy of the pool counts them, and its copies of job_lock, mu and the
 * condition variables are in whatever state the parent's threads had them (a lock held by a
 * caller or worker that the child lacks stays held). In the child (sg_pool_fork_child) the pool
 * is as before its first start: no workers, no job, no sleeper, fresh locks and condition
 * variables, the spin rule unsampled and the tallies at zero, so the child's first call that
 * splits starts workers of its own and runs on the threads asked, as in a new process. A call
 * running in another thread of the parent at the fork is not the child's: it has no thread
 * there, and nothing of it is kept but its generation (below). So the handler takes no lock before
 * the fork (a prepare handler that took job_lock would make fork() wait for a whole call in another
 * thread) and writes every word and lock the pool has, whatever state they were copied in. Kept as
 * copied: the generation in `word` and the slots, whose tags are then all older than the child's
 * jobs, as in the parent (a job that was being published gets the same generation again, and so the
 * same sweep of the slots where it had one); rewriting the slots would write 64 KiB in every
 * child, also one that only execs. Kept too: the settings (sg_threads_override, the cap) and the
 * CPU count read once (cpus.c), which the child shares with the parent unless it changes its own
 * mask. */

static pthread_once_t sg_pool_fork_once = PTHREAD_ONCE_INIT;
static bool sg_pool_fork_handled; /* written by sg_pool_fork_register, under sg_pool_fork_once */

static void sg_pool_fork_child(void) {
    sg_pool *p = &sg_the_pool;
    atomic_store_explicit(&p->remaining, 0, memory_order_relaxed);
    p->fn = NULL;
    p->ctx = NULL;
    atomic_store_explicit(&p->claim_most, 0, memory_order_relaxed);
    atomic_store_explicit(&p->sleepers, 0, memory_order_relaxed);
    atomic_store_explicit(&p->nworkers, 0, memory_order_relaxed);
    atomic_store_explicit(&p->cpus, 0, memory_order_relaxed);
    atomic_store_explicit(&p->spin, 0, memory_order_relaxed);
    atomic_store_explicit(&p->sampled_ns, 0, memory_order_relaxed);
    atomic_store_explicit(&p->denied_ns, 0, memory_order_relaxed);
    p->start_word = 0;
    p->last_job_ns = 0;
    atomic_store_explicit(&p->caller_waits, 0, memory_order_relaxed);
    atomic_store_explicit(&p->wake_seq, 0, memory_order_relaxed);
    pthread_mutex_init(&p->job_lock, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_store_explicit(&sg_tally.jobs, 0, memory_order_relaxed);
    atomic_store_explicit(&sg_tally.threads, 0, memory_order_relaxed);
}

/* Registers sg_pool_fork_child, once per process and its children (a child inherits both the
   registration and this once). sg_pool_for runs it before a call can hold job_lock with no
   worker started, so a fork at any moment after a pool's first start finds it registered. */
static void sg_pool_fork_register(void) {
    sg_pool_fork_handled = pthread_atfork(NULL, NULL, sg_pool_fork_child) == 0;
}

/* Starts workers up to want (called with job_lock and mu held); returns how many exist. No
   worker is started where the fork handler could not be registered (pthread_atfork out of
   memory): a child would count workers it lacks. */
static unsigned sg_pool_grow(sg_pool *p, unsigned want) {
    p->start_word = atomic_load(&p->word);
    unsigned have = atomic_load_explicit(&p->nworkers, memory_order_relaxed);
    if (!sg_pool_fork_handled) want = 0;
    unsigned cpus = sg_cpus_affinity();
    atomic_store_explicit(&p->cpus, cpus, memory_order_relaxed);
    while (have < want) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &attr, sg_worker_main, (void *)(size_t)(have + 1));
        pthread_attr_destroy(&attr);
        if (rc != 0) break;
        have++;
        atomic_store_explicit(&p->nworkers, have, memory_order_relaxed);
    }
    /* Spinning threads would steal the CPUs the others need when there are more than CPUs; the
       caller's sample right after (sg_pool_for: none was taken yet) and the workers' refine
       this, so that a worker started on a crowded machine does not spin on its caller's CPU. */
    if (have >= cpus && atomic_load(&p->spin))
        atomic_store_explicit(&p->denied_ns, sg_now_ns(), memory_order_relaxed);
    atomic_store(&p->spin, have < cpus);
    return have;
}

/* Publishes a job of n_tasks over parts participants and runs the caller's share (job_lock
   held); returns when every task is done. */
static void sg_pool_go(sg_pool *p, unsigned parts, unsigned n_tasks, sg_range_fn fn, void *ctx,
                       size_t size, size_t cost, bool wake) {
    /* written only when they change, so that the workers' copies of their line stay valid */
    if (p->fn != fn) p->fn = fn;
    void *given = size ? (void *)p->job : ctx;
    if (p->ctx != given) p->ctx = given;
    sg_prefetch_own(&sg_slots[0].range); /* its first claim: see sg_spin_word */
    if (size) memcpy(p->job, ctx, size);
    unsigned most = sg_pool_claim_most(cost, n_tasks);
    if (atomic_load_explicit(&p->claim_most, memory_order_relaxed) != most)
        atomic_store_explicit(&p->claim_most, most, memory_order_relaxed);
    /* ordered before the workers see the job by the seq_cst store of `word` below */
    atomic_store_explicit(&p->remaining, n_tasks, memory_order_relaxed);
    uint64_t gen =
        ((atomic_load_explicit(&p->word, memory_order_relaxed) >> 32) + 1u) & 0xFFFFFFFFu;
    if ((gen & SG_SWEEP_MASK) == 0) {
        /* A slot's tag must never age by 2^32 jobs, when it would name a job again: every 2^30
           jobs each slot is marked as claimed to the end in the previous one, which is over. */
        uint64_t over = (uint64_t)((gen - 1u) & 0xFFFFFFFFu) << 32;
        for (unsigned s = 0; s < SG_MAX_THREADS; s++)
            atomic_store_explicit(&sg_slots[s].range, over, memory_order_relaxed);
    }
    uint64_t w = gen << 32 | (uint64_t)parts << SG_FIELD_BITS | n_tasks;
    atomic_store(&p->word, w);
    if (wake && atomic_load(&p->sleepers) != 0) sg_wake_workers(p);
    unsigned ran = sg_participate(p, 0, w, fn, ctx);
    if ((uint32_t)atomic_fetch_sub_explicit(&p->remaining, ran, memory_order_acq_rel) != ran &&
        sg_spin_until_zero(&p->remaining) != 0) {
        pthread_mutex_lock(&p->mu);
        atomic_fetch_add(&p->caller_waits, 1);
        while ((uint32_t)atomic_load(&p->remaining) != 0) pthread_cond_wait(&p->done, &p->mu);
        atomic_fetch_sub(&p->caller_waits, 1);
        pthread_mutex_unlock(&p->mu);
    }
    /* the tasks left read as zero: every worker that ran tasks has counted itself */
    unsigned threads =
        (ran != 0) + (unsigned)(atomic_load_explicit(&p->remaining, memory_order_relaxed) >> 32);
    atomic_store_explicit(&sg_tally.jobs,
                          atomic_load_explicit(&sg_tally.jobs, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    atomic_store_explicit(&sg_tally.threads,
                          atomic_load_explicit(&sg_tally.threads, memory_order_relaxed) + threads,
                          memory_order_relaxed);
}

unsigned sg_pool_claim_most(size_t cost, size_t n_tasks) {
    size_t per = n_tasks ? cost / n_tasks : 0; /* microseconds per task */
    if (per == 0) return SG_POOL_MAX_TASKS;
    size_t most = SG_POOL_CLAIM_US / per;
    return most == 0                   ? 1u
           : most >= SG_POOL_MAX_TASKS ? (unsigned)SG_POOL_MAX_TASKS
                                       : (unsigned)most;
}

bool sg_pool_should_wake(size_t cost, bool may_spin, bool burst) {
    if (may_spin) return burst || cost >= SG_POOL_WAKE_COST;
    return cost >= SG_POOL_WAKE_COST_CROWDED;
}

selugrad_status sg_pool_for(unsigned nth, size_t n_tasks, sg_range_fn fn, void *ctx, size_t size,
                            size_t cost) {
    sg_pool *p = &sg_the_pool;
    if (size > SG_POOL_JOB_BYTES)
        return sg_fail(SELUGRAD_ERR_INTERNAL, "sg_pool_for: a job of %zu bytes (at most %d)", size,
                       (int)SG_POOL_JOB_BYTES);
    if (n_tasks > SG_POOL_MAX_TASKS)
        return sg_fail(SELUGRAD_ERR_INTERNAL, "sg_pool_for: %zu tasks (at most %d)", n_tasks,
                       (int)SG_POOL_MAX_TASKS);
    if (n_tasks == 0) return SELUGRAD_OK;
    /* More threads than CPUs would take turns on them: a descheduled participant holds up the
       call by what is left of its claim, and workers that outnumber the CPUs never spin
       (sg_pool_sample), so every job would pay their wake-up. */
    unsigned cap = sg_pool_cap();
    if (nth > cap) nth = cap;
    if (nth > n_tasks) nth = (unsigned)n_tasks;
    if (nth > SG_MAX_THREADS) nth = SG_MAX_THREADS;
    /* Before the pool's first start: no worker exists. A relaxed read of a line the calls read
       anyway; sg_pool_fork_register. */
    if (nth > 1 && atomic_load_explicit(&p->nworkers, memory_order_relaxed) == 0)
        pthread_once(&sg_pool_fork_once, sg_pool_fork_register);
    if (nth <= 1 || pthread_mutex_trylock(&p->job_lock) != 0) {
        fn(ctx, 0, n_tasks);
        return SELUGRAD_OK;
    }
    unsigned have = atomic_load_explicit(&p->nworkers, memory_order_relaxed);
    if (have < nth - 1) { /* workers are started only by the holder of job_lock */
        pthread_mutex_lock(&p->mu);
        have = sg_pool_grow(p, nth - 1);
        pthread_mutex_unlock(&p->mu);
    }
    /* If fewer workers could be started than asked, the job has fewer participants; tasks give
       the same results whoever runs them. */
    unsigned helpers = have < nth - 1 ? have : nth - 1;
    int64_t now = sg_now_ns();
    bool burst = now - p->last_job_ns < SG_POOL_SPIN_NS;
    p->last_job_ns = now;
    sg_pool_sample(p, now, true);
    /* A job that does not wake sleeping workers, with every worker asleep, runs here at once. */
    bool wake =
        sg_pool_should_wake(cost, atomic_load_explicit(&p->spin, memory_order_relaxed), burst);
    if (helpers == 0 || (!wake && atomic_load(&p->sleepers) >= have))
        fn(ctx, 0, n_tasks);
    else
        sg_pool_go(p, helpers + 1, (unsigned)n_tasks, fn, ctx, size, cost, wake);
    pthread_mutex_unlock(&p->job_lock);
    return SELUGRAD_OK;
}

typedef struct sg_parts_job {
    sg_task_fn fn;
    void *ctx, *copy;
    unsigned nth;
} sg_parts_job;

static void sg_parts_range(void *ctx, size_t begin, size_t end) {
    const sg_parts_job *j = (const sg_parts_job *)ctx;
    for (size_t i = begin; i < end; i++) j->fn(i == 0 ? j->ctx : j->copy, (unsigned)i, j->nth);
}

selugrad_status sg_pool_run(unsigned nth, sg_task_fn fn, void *ctx, size_t size) {
    if (size > SG_POOL_JOB_BYTES)
        return sg_fail(SELUGRAD_ERR_INTERNAL, "sg_pool_run: a job of %zu bytes (at most %d)", size,
                       (int)SG_POOL_JOB_BYTES);
    _Alignas(16) unsigned char copy[SG_POOL_JOB_BYTES];
    if (size) memcpy(copy, ctx, size);
    if (nth == 0) nth = 1;
    if (nth > SG_MAX_THREADS) nth = SG_MAX_THREADS;
    sg_parts_job j = {fn, ctx, size ? (void *)copy : ctx, nth};
    return sg_pool_for(nth, nth, sg_parts_range, &j, 0, SIZE_MAX);
}
