/*
 * A persistent pool of worker threads with a plain static split (ith / nth). One job runs at a
 * time; a caller that finds the pool busy runs its job's parts itself, in order, so concurrent
 * callers never wait on each other and results never depend on who ran which part.
 */
#ifndef SELUGRAD_CORE_POOL_H
#define SELUGRAD_CORE_POOL_H

#include <stddef.h>

#include "selugrad/selugrad.h"

typedef void (*sg_task_fn)(void *ctx, unsigned ith, unsigned nth);

/* The largest job the pool copies (sg_pool_run with size > 0). */
enum { SG_POOL_JOB_BYTES = 48 };

/* Runs fn(job, i, nth) for every i < nth, part 0 on the calling thread (job = ctx), and returns
   when all are done. size 0: every part gets ctx itself; size 1 .. SG_POOL_JOB_BYTES: parts 1 and
   up get a copy of the size bytes at ctx, aligned to 16 bytes and made before any part starts,
   which reaches a waiting worker with the job word itself (pool.c); larger:
   SELUGRAD_ERR_INTERNAL, nothing runs. nth == 1 runs inline with no wake-up, and so does a call
   that finds the pool busy with another caller's job (with the same copies). */
selugrad_status sg_pool_run(unsigned nth, sg_task_fn fn, void *ctx, size_t size);

/* Threads per call: the override if set, else SELUGRAD_NUM_THREADS, else the CPUs available. */
unsigned sg_threads_default(void);

enum { SG_MAX_THREADS = 1024 };

#endif /* SELUGRAD_CORE_POOL_H */
