#include "registry.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct sg_entry {
    const void *p;
    size_t size;
    sg_handle_tag tag;
    struct sg_entry *next;
} sg_entry;

enum { SG_REG_BUCKETS = 4096 };

static pthread_mutex_t sg_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static sg_entry *sg_reg_table[SG_REG_BUCKETS];

/* The memory blocks (SG_H_DEVICE_MEM, SG_H_HOST_MEM) again, sorted by address, for
   sg_reg_block_of; under sg_reg_lock. Blocks never overlap (each is a live allocation). */
typedef struct sg_block {
    uintptr_t start;
    size_t size;
    sg_handle_tag tag;
    size_t pins; /* queued or running work that uses the block (sg_reg_pin) */
    bool dying;  /* a free waits for the pins to go; no new pin is taken */
} sg_block;
static sg_block *sg_blocks;
static size_t sg_block_count, sg_block_cap;
/* Signalled when the last pin of a dying block goes. */
static pthread_cond_t sg_pin_cv = PTHREAD_COND_INITIALIZER;

static bool sg_is_block(sg_handle_tag tag) {
    return tag == SG_H_DEVICE_MEM || tag == SG_H_HOST_MEM;
}

/* Index of the first block whose start is above a (sg_block_count if none). */
static size_t sg_block_upper(uintptr_t a) {
    size_t lo = 0, hi = sg_block_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sg_blocks[mid].start <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Makes room for one more block; false when out of memory. */
static bool sg_block_reserve(void) {
    if (sg_block_count < sg_block_cap) return true;
    size_t cap = sg_block_cap ? 2 * sg_block_cap : 64;
    sg_block *b = realloc(sg_blocks, cap * sizeof *b);
    if (b == NULL) return false;
    sg_blocks = b;
    sg_block_cap = cap;
    return true;
}

static void sg_block_insert(const void *p, size_t size, sg_handle_tag tag) {
    uintptr_t a = (uintptr_t)p;
    size_t i = sg_block_upper(a);
    memmove(&sg_blocks[i + 1], &sg_blocks[i], (sg_block_count - i) * sizeof *sg_blocks);
    sg_blocks[i] = (sg_block){a, size, tag, 0, false};
    sg_block_count++;
}

static void sg_block_erase(const void *p) {
    uintptr_t a = (uintptr_t)p;
    size_t i = sg_block_upper(a);
    if (i == 0 || sg_blocks[i - 1].start != a) return;
    i--;
    memmove(&sg_blocks[i], &sg_blocks[i + 1], (sg_block_count - i - 1) * sizeof *sg_blocks);
    sg_block_count--;
}

/* The block that starts exactly at p, or NULL. Under sg_reg_lock. */
static sg_block *sg_block_at(const void *p) {
    uintptr_t a = (uintptr_t)p;
    size_t i = sg_block_upper(a);
    return i > 0 && sg_blocks[i - 1].start == a ? &sg_blocks[i - 1] : NULL;
}

static size_t sg_reg_hash(const void *p) {
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 17;
    v *= (uintptr_t)0x9E3779B97F4A7C15ull;
    v ^= v >> 29;
    return (size_t)(v % SG_REG_BUCKETS);
}

bool sg_reg_add(const void *p, sg_handle_tag tag, size_t size) {
    sg_entry *e = malloc(sizeof *e);
    if (e == NULL) return false;
    e->p = p;
    e->size = size;
    e->tag = tag;
    size_t h = sg_reg_hash(p);
    pthread_mutex_lock(&sg_reg_lock);
    if (sg_is_block(tag)) {
        if (!sg_block_reserve()) {
            pthread_mutex_unlock(&sg_reg_lock);
            free(e);
            return false;
        }
        sg_block_insert(p, size, tag);
    }
    e->next = sg_reg_table[h];
    sg_reg_table[h] = e;
    pthread_mutex_unlock(&sg_reg_lock);
    return true;
}

bool sg_reg_remove(const void *p, sg_handle_tag tag, size_t *size) {
    size_t h = sg_reg_hash(p);
    sg_entry *found = NULL;
    pthread_mutex_lock(&sg_reg_lock);
    if (sg_is_block(tag)) {
        /* A block still used by queued or running work is freed once that work is done; a
           second free meanwhile finds it gone. */
        sg_block *b = sg_block_at(p);
        if (b == NULL || b->tag != tag || b->dying) {
            pthread_mutex_unlock(&sg_reg_lock);
            return false;
        }
        b->dying = true;
        while ((b = sg_block_at(p))->pins > 0) pthread_cond_wait(&sg_pin_cv, &sg_reg_lock);
    }
    for (sg_entry **pp = &sg_reg_table[h]; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->p == p && (*pp)->tag == tag) {
            found = *pp;
            *pp = found->next;
            break;
        }
    }
    if (found != NULL && sg_is_block(tag)) sg_block_erase(p);
    pthread_mutex_unlock(&sg_reg_lock);
    if (found == NULL) return false;
    if (size) *size = found->size;
    free(found);
    return true;
}

bool sg_reg_if_live(const void *p, sg_handle_tag tag, void (*fn)(void *ctx), void *ctx) {
    size_t h = sg_reg_hash(p);
    bool live = false;
    pthread_mutex_lock(&sg_reg_lock);
    for (sg_entry *e = sg_reg_table[h]; e != NULL; e = e->next)
        if (e->p == p && e->tag == tag) {
            live = true;
            fn(ctx);
            break;
        }
    pthread_mutex_unlock(&sg_reg_lock);
    return live;
}

bool sg_reg_block_of(const void *p, sg_reg_block *block) {
    uintptr_t a = (uintptr_t)p;
    bool found = false;
    pthread_mutex_lock(&sg_reg_lock);
    size_t i = sg_block_upper(a);
    if (i > 0 && a - sg_blocks[i - 1].start < sg_blocks[i - 1].size) {
        block->start = (const void *)sg_blocks[i - 1].start;
        block->size = sg_blocks[i - 1].size;
        block->tag = sg_blocks[i - 1].tag;
        found = true;
    }
    pthread_mutex_unlock(&sg_reg_lock);
    return found;
}

bool sg_reg_block_holds(const void *p, uint64_t count, sg_reg_block *block, uint64_t *at) {
    if (count == 0 || !sg_reg_block_of(p, block)) return true;
    *at = (uint64_t)((uintptr_t)p - (uintptr_t)block->start);
    return count <= block->size - *at;
}

bool sg_reg_pin(const void *const start[], const size_t size[], int n) {
    bool ok = true;
    pthread_mutex_lock(&sg_reg_lock);
    for (int i = 0; i < n && ok; i++) {
        sg_block *b = start[i] ? sg_block_at(start[i]) : NULL;
        ok = start[i] == NULL || (b != NULL && !b->dying && b->size >= size[i]);
    }
    for (int i = 0; i < n && ok; i++)
        if (start[i]) sg_block_at(start[i])->pins++;
    pthread_mutex_unlock(&sg_reg_lock);
    return ok;
}

void sg_reg_unpin(const void *const start[], int n) {
    bool wake = false;
    pthread_mutex_lock(&sg_reg_lock);
    for (int i = 0; i < n; i++) {
        sg_block *b = start[i] ? sg_block_at(start[i]) : NULL;
        if (b == NULL) continue;
        b->pins--;
        wake |= b->dying && b->pins == 0;
    }
    if (wake) pthread_cond_broadcast(&sg_pin_cv);
    pthread_mutex_unlock(&sg_reg_lock);
}

static void sg_reg_nothing(void *ctx) {
    (void)ctx;
}

bool sg_reg_has(const void *p, sg_handle_tag tag) {
    return sg_reg_if_live(p, tag, sg_reg_nothing, NULL);
}

/* The quarantine of sg_reg_retire: a ring of the newest retired objects. Pointers to them stay
   in this static array, so leak checkers see them as reachable. */
enum { SG_RETIRE_MAX = 1024 };
#define SG_RETIRE_BYTES ((size_t)4 << 20)

static pthread_mutex_t sg_retire_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *p;
    size_t size;
} sg_retired[SG_RETIRE_MAX];
static size_t sg_retire_head, sg_retire_count, sg_retire_bytes;

void sg_reg_retire(void *p, size_t size) {
    if (p == NULL) return;
    if (size > SG_RETIRE_BYTES) {
        free(p);
        return;
    }
    pthread_mutex_lock(&sg_retire_lock);
    while (sg_retire_count == SG_RETIRE_MAX || sg_retire_bytes + size > SG_RETIRE_BYTES) {
        free(sg_retired[sg_retire_head].p);
        sg_retire_bytes -= sg_retired[sg_retire_head].size;
        sg_retire_head = (sg_retire_head + 1) % SG_RETIRE_MAX;
        sg_retire_count--;
    }
    size_t i = (sg_retire_head + sg_retire_count) % SG_RETIRE_MAX;
    sg_retired[i].p = p;
    sg_retired[i].size = size;
    sg_retire_count++;
    sg_retire_bytes += size;
    pthread_mutex_unlock(&sg_retire_lock);
}
