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

bool sg_reg_has(const void *p, sg_handle_tag tag) {
    size_t h = sg_reg_hash(p);
    bool live = false;
    pthread_mutex_lock(&sg_reg_lock);
    for (sg_entry *e = sg_reg_table[h]; e != NULL; e = e->next)
        if (e->p == p && e->tag == tag) {
            live = true;
            break;
        }
    pthread_mutex_unlock(&sg_reg_lock);
    return live;
}
