/*
 * A persistent pool of worker threads with a plain static split (ith / nth). One job runs at a
 * time; a caller that finds the pool busy runs its job's parts itself, in order, so concurrent
 * callers never wait on each other and results never depend on who ran which part.
 */
#ifndef SELUGRAD_CORE_POOL_H
#define SELUGRAD_CORE_POOL_H

#include "selugrad/selugrad.h"

typedef void (*sg_task_fn)(void *ctx, unsigned ith, unsigned nth);

/* Runs fn(ctx, i, nth) for every i < nth, part 0 on the calling thread, and returns when all are
   done. nth == 1 runs inline with no wake-up. */
selugrad_status sg_pool_run(unsigned nth, sg_task_fn fn, void *ctx);

/* Threads per call: the override if set, else SELUGRAD_NUM_THREADS, else the CPUs available. */
unsigned sg_threads_default(void);

enum { SG_MAX_THREADS = 1024 };

#endif /* SELUGRAD_CORE_POOL_H */
