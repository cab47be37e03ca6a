/*
 * Where a job's tasks run: on the host's parallel-for when the program set one
 * (selugrad_set_parallel_for), else on the library's own pool (pool.h).
 */
#ifndef SELUGRAD_CORE_PARALLEL_H
#define SELUGRAD_CORE_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "pool.h"

/* The least cost (sg_pool_for's: microseconds on one thread, roughly) of a job handed to the
   host's parallel-for. A host's fork and join cost about what a shorter job takes on one thread
   (an empty `omp parallel for` of two threads with libgomp's spinning workers: 2.5-3.1 us on the
   Zen 5 VM, the whole of a 64K f32 call on two threads), and its threads may be asleep, so such
   a job runs on the calling thread, as the own pool runs one that would have to wake its workers
   (SG_POOL_WAKE_COST). */
enum { SG_HOOK_MIN_COST = 16 };

/* Runs fn over ranges covering [0, n_tasks) exactly once and returns when all are done: with
   nth > 1, more than one task and cost >= SG_HOOK_MIN_COST, through the host's parallel-for if
   one is set (runs of whole tasks, one range each; ctx as given, size ignored); a shorter job
   while one is set, all on the calling thread; with no host parallel-for, as
   sg_pool_for(nth, n_tasks, fn, ctx, size, cost). */
selugrad_status sg_parallel_for(unsigned nth, size_t n_tasks, sg_range_fn fn, void *ctx,
                                size_t size, size_t cost);

/* Whether a host parallel-for is set. */
bool sg_parallel_hooked(void);

/* Whether a job of nth threads, n_tasks tasks and this cost goes to the host's parallel-for. */
bool sg_parallel_on_host(unsigned nth, size_t n_tasks, size_t cost);

#endif /* SELUGRAD_CORE_PARALLEL_H */
