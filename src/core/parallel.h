/*
 * Where a job's tasks run: on the host's parallel-for when the program set one
 * (selugrad_set_parallel_for), else on the library's own pool (pool.h).
 */
#ifndef SELUGRAD_CORE_PARALLEL_H
#define SELUGRAD_CORE_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "pool.h"

/* When a job goes to the host's parallel-for rather than running on the calling thread: when
   one thread would take clearly longer than the host's fork and join plus half the work. A
   host's fork and join cost about as much as a short job (an empty `omp parallel for` of two
   threads right after a region, libgomp's workers spinning: about 3 us on the Zen 5 VM, more
   than half a 64K f32 call on one thread), and its threads may be asleep. So a job goes to the
   host if its cost (sg_pool_for's: microseconds on one thread by the kernel's part_kib) is
   SG_HOOK_MIN_COST or more, as the own pool wakes sleeping workers from SG_POOL_WAKE_COST; or if
   its traffic exceeds three quarters of the calling core's L2 (l2 bytes; 0: unknown, no such
   bound), where one thread leaves its L2 and two cores' caches pay. Measured in
   docs/dispatch.md, "Host threads". A pure function: the rule sg_parallel_for applies. A build
   with -DSG_HOOK_MIN_COST=0 hands every call that splits to the host (for measuring the rule). */
#ifndef SG_HOOK_MIN_COST
#define SG_HOOK_MIN_COST 16
#endif
bool sg_hook_worth(size_t cost, size_t traffic, size_t l2);

/* Runs fn over ranges covering [0, n_tasks) exactly once and returns when all are done. With a
   host parallel-for set, nth > 1, more than one task and sg_hook_worth(cost, traffic, this
   CPU's L2): through the host's parallel-for (runs of whole tasks, one range each; ctx as given,
   size ignored); with one set and any of these false, all on the calling thread; with none
   set, as sg_pool_for(nth, n_tasks, fn, ctx, size, cost). cost: as sg_pool_for's; traffic: the
   bytes the job reads and writes. */
selugrad_status sg_parallel_for(unsigned nth, size_t n_tasks, sg_range_fn fn, void *ctx,
                                size_t size, size_t cost, size_t traffic);

/* The threads a call plans for, given the count asked (selugrad_set_num_threads), the CPUs
   available and whether a host parallel-for is set: with one set, the count asked, as the
   host's threads run the tasks on CPUs of the host's choosing, which the calling thread's
   affinity mask need not show (an OpenMP team whose initial thread is bound to one CPU spans
   them all); with none, sg_threads_capped(asked, cpus), the most the own pool runs a job on.
   A pure function: the rule sg_threads_call applies. */
unsigned sg_threads_for(unsigned asked, unsigned cpus, bool hooked);

/* sg_threads_for of this process now: sg_threads_default(), sg_cpus_available(),
   sg_parallel_hooked(). What the native API and aclnn's phase 1 plan with. */
unsigned sg_threads_call(void);

/* Whether a host parallel-for is set. */
bool sg_parallel_hooked(void);

/* Whether sg_parallel_for hands a job of these to the host's parallel-for. */
bool sg_parallel_on_host(unsigned nth, size_t n_tasks, size_t cost, size_t traffic);

#endif /* SELUGRAD_CORE_PARALLEL_H */
