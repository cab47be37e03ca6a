/*
 * Streams: one worker thread per stream runs its work items in FIFO order. Small work on an idle
 * stream runs inline on the caller (same order, lower latency). The first failure since the last
 * synchronisation is kept, with its message, for aclrtSynchronizeStream.
 */
#ifndef SELUGRAD_RUNTIME_STREAM_H
#define SELUGRAD_RUNTIME_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_base.h"

typedef struct sg_stream sg_stream;

/* A work item: returns 0 or an error code (and leaves a message with sg_acl_fail). */
typedef int32_t (*sg_work_fn)(void *ctx);
/* Releases ctx after the item ran (may be NULL). */
typedef void (*sg_work_free)(void *ctx);

/* The stream of a handle: NULL is the default stream (created on first use). NULL with a message
   and *err set when the handle is not a live stream. */
sg_stream *sg_stream_resolve(aclrtStream handle, const char *fn, int32_t *err);

/* Queues fn(ctx) (or runs it inline when small and the stream is idle). free_fn(ctx) follows. */
int32_t sg_stream_submit(sg_stream *s, sg_work_fn fn, sg_work_free free_fn, void *ctx, bool small);

/* Waits for the default stream's queued work (aclrtResetDevice); its errors stay for the next
   synchronisation. */
void sg_stream_drain_default(void);

/* Drains and destroys the default stream (aclFinalize). */
void sg_stream_reset_default(void);

#endif /* SELUGRAD_RUNTIME_STREAM_H */
