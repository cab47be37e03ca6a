/*
 * A thread-safe set of live handles (pointer -> tag, size): device and host memory blocks,
 * tensors, executors, streams and contexts. It turns a double free or a stale handle into an error
 * instead of a crash.
 */
#ifndef SELUGRAD_RUNTIME_REGISTRY_H
#define SELUGRAD_RUNTIME_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum sg_handle_tag {
    SG_H_DEVICE_MEM = 1,
    SG_H_HOST_MEM = 2,
    SG_H_TENSOR = 3,
    SG_H_EXECUTOR = 4,
    SG_H_STREAM = 5,
    SG_H_CONTEXT = 6
} sg_handle_tag;

/* Adds p; false when out of memory. */
bool sg_reg_add(const void *p, sg_handle_tag tag, size_t size);

/* Removes p if it is live with this tag; false (nothing removed) otherwise. *size gets its size. */
bool sg_reg_remove(const void *p, sg_handle_tag tag, size_t *size);

/* Whether p is live with this tag. */
bool sg_reg_has(const void *p, sg_handle_tag tag);

/* A live memory block (aclrtMalloc or aclrtMallocHost): its start, the size asked for, its tag. */
typedef struct sg_reg_block {
    const void *start;
    size_t size;
    sg_handle_tag tag;
} sg_reg_block;

/* The live memory block that address p points into (start <= p < start + size): false for
   none, e.g. host memory the program allocated itself. A pointer just past a block's end is not
   the block's: another allocation may begin there (allocators without headers between blocks,
   as the sanitizers' and size-class allocators, place one block right after another), so a
   workspace or a copy there is memory the program vouches for, not an overrun of the block. */
bool sg_reg_block_of(const void *p, sg_reg_block *block);

/* The call that made the block, for messages: "aclrtMalloc" or "aclrtMallocHost". */
static inline const char *sg_reg_block_origin(const sg_reg_block *block) {
    return block->tag == SG_H_HOST_MEM ? "aclrtMallocHost" : "aclrtMalloc";
}

/* Whether p, in no known block or in one with count bytes or more from p to its end, may be
   given count bytes from p; else false with *block the block and *at p's offset into it (the
   bytes it holds from p are block->size - *at). The check of copies, fills and workspaces. */
bool sg_reg_block_holds(const void *p, uint64_t count, sg_reg_block *block, uint64_t *at);

/* Pins the n live blocks that start exactly at start[i] and hold at least size[i] bytes (a NULL
   start is skipped), all or none: false, with nothing pinned, when one is gone, smaller, or
   being freed. A pinned block stays allocated: aclrtFree / aclrtFreeHost of it waits until
   every pin is gone (sg_reg_unpin), as queued work that reads or writes it must finish first. */
bool sg_reg_pin(const void *const start[], const size_t size[], int n);

/* Drops one pin of each block start[i] pinned by sg_reg_pin (NULL skipped). */
void sg_reg_unpin(const void *const start[], int n);

/* Runs fn(ctx) under the registry's lock if p is live with this tag, so that nobody removes p
   meanwhile (e.g. takes a reference before a concurrent destroy can drop the last one); returns
   whether it ran. fn must not call the registry. */
bool sg_reg_if_live(const void *p, sg_handle_tag tag, void (*fn)(void *ctx), void *ctx);

/* Frees p, an object of size bytes whose handle was just removed, only later: the newest
   SG_RETIRE_MAX retired objects (SG_RETIRE_BYTES at most) stay allocated, so a new tensor or
   executor cannot soon get the address of one just destroyed, and a stale handle keeps failing
   as not live instead of reaching the new object. */
void sg_reg_retire(void *p, size_t size);

#endif /* SELUGRAD_RUNTIME_REGISTRY_H */
