/*
 * Where a job's tasks run: on the host's parallel-for when the program set one
 * (selugrad_set_parallel_for), else on the library's own pool (pool.h).
 */
#ifndef SELUGRAD_CORE_PARALLEL_H
#define SELUGRAD_CORE_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "pool.h"

/* Runs fn over ranges covering [0, n_tasks) exactly once and returns when all are done: with
   nth > 1 and more than one task, through the host's parallel-for if one is set (one task per
   range; ctx as given, size ignored), else as sg_pool_for(nth, n_tasks, fn, ctx, size, cost). */
selugrad_status sg_parallel_for(unsigned nth, size_t n_tasks, sg_range_fn fn, void *ctx,
                                size_t size, size_t cost);

/* Whether a host parallel-for is set. */
bool sg_parallel_hooked(void);

#endif /* SELUGRAD_CORE_PARALLEL_H */
