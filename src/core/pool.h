/*
 * A persistent pool of worker threads that runs a job of n tasks, claimed dynamically: each
 * participant starts on its own share of the tasks and, when it runs out, takes what is left of
 * the others' shares. The caller takes part and keeps claiming until no task is left, then waits
 * only for tasks other threads are running, never for a worker that has not started: a
 * descheduled or slow worker costs the caller its tasks' time, not a scheduler's time slice.
 * One job runs at a time; a caller that finds the pool busy runs its job itself, so concurrent
 * callers never wait on each other. Results never depend on who ran which task. In a child of
 * fork() the pool is as before its first start, whatever the parent's threads were doing: the
 * child's calls start workers of its own (pool.c, "fork").
 */
#ifndef SELUGRAD_CORE_POOL_H
#define SELUGRAD_CORE_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpus.h"
#include "selugrad/selugrad.h"

/* Runs tasks [begin, end) of a job (begin < end). */
typedef void (*sg_range_fn)(void *ctx, size_t begin, size_t end);

/* The largest job the pool copies (sg_pool_for with size > 0), and the most tasks per job. */
enum { SG_POOL_JOB_BYTES = 48, SG_POOL_MAX_TASKS = 65535 };

/* Runs fn over ranges that cover [0, n_tasks) exactly once, on the calling thread and up to
   nth - 1 workers, but on no more threads than sg_cpus_available() (the caller included; or
   sg_pool_set_cap's count), and returns when all are done. size 0: every range gets ctx itself;
   size 1 .. SG_POOL_JOB_BYTES: workers get a copy of the size bytes at ctx, aligned to 16 bytes and
   made before any task starts, which reaches a waiting worker with the job word itself (pool.c);
   the caller gets ctx. cost: the job's time on one thread, in microseconds roughly (SIZE_MAX:
   long), which decides whether to wake sleeping workers (sg_pool_should_wake). Fails with
   SELUGRAD_ERR_INTERNAL, running nothing, when size > SG_POOL_JOB_BYTES or n_tasks >
   SG_POOL_MAX_TASKS. nth <= 1, one task, or a pool busy with another caller's job: all on the
   calling thread, with no wake-up. */
selugrad_status sg_pool_for(unsigned nth, size_t n_tasks, sg_range_fn fn, void *ctx, size_t size,
                            size_t cost);

/* Costs (microseconds on one thread) from which a job wakes sleeping workers: a worker wakes
   tens of microseconds after the call that wakes it, so a shorter job would be over before it
   arrives; with more runnable threads than CPUs a woken worker takes a CPU from another thread,
   which pays only for jobs long against the scheduler's time slices. */
enum { SG_POOL_WAKE_COST = 16, SG_POOL_WAKE_COST_CROWDED = 1000 };

/* The most tasks one claim takes: half of what is left of a share, but no more than about
   SG_POOL_CLAIM_US microseconds of work (from the job's cost over its tasks; at least one task).
   A participant that is descheduled while it runs a claim holds up the call by what is left of
   that claim at most, so long jobs are claimed a task or a few at a time, short ones in halves
   (fewer claims). A pure function: the rule sg_pool_for applies. */
enum { SG_POOL_CLAIM_US = 100 };
unsigned sg_pool_claim_most(size_t cost, size_t n_tasks);

/* Whether a job of the given cost wakes sleeping workers: from SG_POOL_WAKE_COST when workers
   may spin (the machine is not crowded), and then also for any job in a burst (one published
   within a spin time of the last: the woken workers will spin into the next ones); from
   SG_POOL_WAKE_COST_CROWDED when they may not. A pure function: the rule sg_pool_for applies. */
bool sg_pool_should_wake(size_t cost, bool may_spin, bool burst);

/* A static split on top of sg_pool_for: runs fn(ctx', i, nth) for every i < nth, each part one
   task (so a part that no worker has started is run by the caller), and returns when all are
   done. size 0: every part gets ctx; 1 .. SG_POOL_JOB_BYTES: parts 1 and up get a copy of the
   size bytes at ctx made before any part starts (larger: SELUGRAD_ERR_INTERNAL, nothing runs).
   nth 0 counts as 1. For loops whose parts must be few and whole, such as the benchmark's. */
typedef void (*sg_task_fn)(void *ctx, unsigned ith, unsigned nth);
selugrad_status sg_pool_run(unsigned nth, sg_task_fn fn, void *ctx, size_t size);

/* Jobs the pool has handed to its workers so far (calls run wholly on the calling thread are
   not counted), and the sum over those jobs of the threads that ran at least one of their tasks
   (the caller included when it ran one). Where a caller reads them before and after its own
   call with no other caller in between, the differences say whether the call was handed to the
   pool and on how many threads it ran. */
void sg_pool_counts(uint64_t *jobs, uint64_t *threads);

/* Threads asked per call: the override if set, else SELUGRAD_NUM_THREADS, else the CPUs
   available. selugrad_get_num_threads reports it; a call runs on sg_threads_capped of it. */
unsigned sg_threads_default(void);

/* The threads a call on the library's own pool runs on when asked for `asked` with `cpus`
   CPUs available: min(asked, cpus), at least 1 (0 counts as 1 in both). More threads than CPUs
   only take turns on them, each turn a scheduler's time slice that the call waits for (pool.c).
   A pure function: the rule that plans (sg_threads_call, parallel.h) and sg_pool_for apply. */
unsigned sg_threads_capped(unsigned asked, unsigned cpus);

/* For tests: makes sg_pool_for run jobs on up to n threads whatever the CPUs (0: up to
   sg_cpus_available(), the default), so that jobs of many participants can be tested on a
   machine with few CPUs. */
void sg_pool_set_cap(unsigned n);

/* Whether workers may spin waiting for work, given the runnable threads of the machine
   (/proc/loadavg's count, the sampling thread included), the pool's workers that sleep, and
   the CPUs: only if, with every sleeping worker woken, no runnable thread would lack a CPU.
   runnable 0 (unknown) allows it. A pure function: the rule the pool samples (pool.c). */
bool sg_pool_spin_rule(unsigned runnable, unsigned sleepers, unsigned cpus);

/* When a caller samples the spin rule again (workers sample it after their jobs, at most every
   SG_POOL_SAMPLE_NS): the nanoseconds after the last sample, given whether spinning is allowed
   and, if not, for how long it had been denied at the last sample (denied_ns). Allowed: after
   SG_POOL_CALLER_SAMPLE_NS, only when no worker has sampled for that long (all asleep). Denied:
   the workers sleep and no worker samples, so the caller does, after as long as spinning had
   been denied, at least SG_POOL_RECHECK_NS and at most SG_POOL_SAMPLE_NS (samples 1, 2, 4, 8,
   16, 26, 36 ... ms after the rule said no): a pool that a moment of crowding turned off is
   back at most as long again as the moment lasted (from SG_POOL_RECHECK_NS to
   SG_POOL_SAMPLE_NS) after it ends, and a machine that stays crowded costs a sample (10-20 us on a
   VM) per 10 ms of calls. A pure function: the rule sg_pool_for applies. */
#ifndef SG_POOL_SAMPLE_NS
#define SG_POOL_SAMPLE_NS 10000000
#endif
#ifndef SG_POOL_CALLER_SAMPLE_NS
#define SG_POOL_CALLER_SAMPLE_NS 100000000
#endif
#ifndef SG_POOL_RECHECK_NS
#define SG_POOL_RECHECK_NS 1000000
#endif
int64_t sg_pool_caller_sample_ns(bool spin, int64_t denied_ns);

enum { SG_MAX_THREADS = 1024 };

#endif /* SELUGRAD_CORE_POOL_H */
