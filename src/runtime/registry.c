#include "registry.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct sg_entry {
    const void *p;
    size_t size;
    sg_handle_tag tag;
    struct sg_entry *next;
} sg_entry;

enum { SG_REG_BUCKETS = 4096 };

static pthread_mutex_t sg_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static sg_entry *sg_reg_table[SG_REG_BUCKETS];

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
    e->next = sg_reg_table[h];
    sg_reg_table[h] = e;
    pthread_mutex_unlock(&sg_reg_lock);
    return true;
}

bool sg_reg_remove(const void *p, sg_handle_tag tag, size_t *size) {
    size_t h = sg_reg_hash(p);
    sg_entry *found = NULL;
    pthread_mutex_lock(&sg_reg_lock);
    for (sg_entry **pp = &sg_reg_table[h]; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->p == p && (*pp)->tag == tag) {
            found = *pp;
            *pp = found->next;
            break;
        }
    }
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
