/*
 * Plan once, then run: a plan fixes the kernel, the thread split (the OneDim tiling with a CPU
 * profile) and the chunk size; running it only executes. Both the native API and the aclnn
 * executor use it.
 */
#ifndef SELUGRAD_CORE_EXEC_H
#define SELUGRAD_CORE_EXEC_H

#include <stddef.h>

#include "../kernels/kernel.h"

typedef struct sg_plan {
    const sg_kernel *kernel;
    size_t n;         /* elements */
    size_t elem_size; /* bytes per element */
    unsigned nth;     /* threads that take part (the tiling's blockDim) */
    size_t block;     /* elements per task (a multiple of SG_TASK_ALIGN but the last) */
    size_t tasks;     /* tasks: n / block rounded up, claimed dynamically by the threads */
    size_t chunk;     /* elements per gather/scatter chunk of the strided path (ubFormer) */
    int stream;       /* the contiguous path writes y with non-temporal stores */
} sg_plan;

/* Elements per task are a multiple of this: 64 bytes or more of every dtype, so that tasks
   split y at cache-line boundaries when y is 64-byte aligned. */
enum { SG_TASK_ALIGN = 64 };

/* Tasks per thread a split call aims at: enough that a thread which starts late or is
   descheduled leaves only small pieces to the others, few enough that the claims (an atomic
   each) and the kernel's per-call costs stay small. */
enum { SG_TASKS_PER_THREAD = 8 };

/* The most traffic of one task, in the kernel's sg_part_bytes (about a microsecond of work on
   one thread each): a long call has many tasks, which the pool claims one or a few at a time
   (sg_pool_claim_most), so that a thread descheduled in the middle of a claim holds up the
   call by a task's time at most, not by a share's. */
enum { SG_TASK_MOST_PARTS = 64 };

/* The most traffic of one task of a call that streams, when the kernel's SG_TASK_MOST_PARTS
   allow less: from DRAM every kernel moves its bytes at the memory's pace (about 20 GB/s per
   thread on the Zen 5 VM), not at the in-cache pace its part_kib measures, so this much is about
   200 us of work for any kernel; and longer kernel calls keep each of the loop's sub-streams
   (kernels/x86_nt.h) running longer between restarts. */
#define SG_STREAM_TASK_MOST ((size_t)4 << 20)

/* Traffic (bytes of both inputs and the output) each thread must get: a call below two threads'
   worth runs on the calling thread only, with no wake-up. Each kernel carries its own, measured
   where a second thread starts to pay (sg_kernel.part_kib, kernels/selugrad.inc, docs/dispatch.md);
   defining SG_INLINE_BYTES at build time overrides them all (how the crossovers are measured). */
size_t sg_part_bytes(const sg_kernel *k);

/* The CPU's "UB": bytes one thread handles per chunk when gathering strided data. */
enum { SG_CPU_UB_BYTES = 48 * 1024 };

/* Plans a call of n elements with the kernel k on up to max_threads threads. */
void sg_plan_make(sg_plan *plan, const sg_kernel *k, size_t n, unsigned max_threads);

/* Runs a contiguous call on the calling thread, without planning, when its plan would be that
   anyway (less traffic than two threads' sg_part_bytes: one part, [0, n)) and
   SELUGRAD_VERBOSE is off; returns 1 if it ran, 0 if the caller should plan and run. */
int sg_run_small(const sg_kernel *k, size_t n, const void *g, const void *o, void *y);

/* The run functions take the inputs g and o of a two-input kernel (SeluGrad), or the input x as
   g with o NULL (and os 0) for a one-input kernel (the SELU forward). */

/* Runs a plan over contiguous arrays (y may equal g or o). */
selugrad_status sg_plan_run(const sg_plan *plan, const void *g, const void *o, void *y);

/* Runs a plan over strided arrays (strides in elements; y may equal g or o with the same stride).
 */
selugrad_status sg_plan_run_strided(const sg_plan *plan, const void *g, ptrdiff_t gs, const void *o,
                                    ptrdiff_t os, void *y, ptrdiff_t ys);

/* Runs the kernel over [0, n) of strided arrays on this thread, chunk elements at a time. */
void sg_run_strided_range(const sg_kernel *k, size_t chunk, size_t n, const void *g, ptrdiff_t gs,
                          const void *o, ptrdiff_t os, void *y, ptrdiff_t ys);

/* Makes calls stream their stores from `bytes` of traffic on (0: the rule of the CPU's caches,
   sg_stream_bytes), for measurements and tests. */
void sg_exec_set_stream_bytes(size_t bytes);

/* Whether SELUGRAD_VERBOSE asks for one line per call on stderr (read once). */
int sg_verbose(void);

/* Prints a plan's line: dtype, n, kernel, threads, block (elements per task), chunk, layout
   (contiguous > 0 "contiguous", 0 "strided", < 0 "misaligned": contiguous arrays copied through
   aligned buffers as the strided path does), tasks, stores, and " on=host" when a split call
   runs on the host's parallel-for. */
void sg_plan_print(const sg_plan *plan, int contiguous);

#endif /* SELUGRAD_CORE_EXEC_H */
