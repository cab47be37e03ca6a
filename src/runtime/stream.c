#include "stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl_error.h"
#include "registry.h"

typedef struct sg_work {
    sg_work_fn fn;
    sg_work_free free_fn;
    void *ctx;
    struct sg_work *next;
} sg_work;

struct sg_stream {
    pthread_mutex_t mu;
    pthread_cond_t cv_work; /* the worker waits for work or stop */
    pthread_cond_t cv_idle; /* synchronisers wait for an empty queue */
    sg_work *head, *tail;
    bool busy; /* an item runs (on the worker or inline) */
    bool stop;
    int32_t err;
    char err_msg[SG_ACL_MSG_CAP];
    pthread_t thread;
};

static pthread_mutex_t sg_default_lock = PTHREAD_MUTEX_INITIALIZER;
static sg_stream *sg_default_stream;

/* Runs one item outside the lock and records its outcome under it. */
static void sg_stream_run_item(sg_stream *s, sg_work_fn fn, sg_work_free free_fn, void *ctx) {
    int32_t rc = fn(ctx);
    if (free_fn) free_fn(ctx);
    pthread_mutex_lock(&s->mu);
    s->busy = false;
    if (rc != 0 && s->err == 0) {
        s->err = rc;
        memcpy(s->err_msg, sg_acl_msg(), sizeof s->err_msg);
    }
    if (s->head == NULL) pthread_cond_broadcast(&s->cv_idle);
    pthread_cond_signal(&s->cv_work);
}

static void *sg_stream_worker(void *arg) {
    sg_stream *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while ((s->head == NULL && !s->stop) || s->busy) pthread_cond_wait(&s->cv_work, &s->mu);
        if (s->head == NULL) break; /* stop requested and drained */
        sg_work *w = s->head;
        s->head = w->next;
        if (s->head == NULL) s->tail = NULL;
        s->busy = true;
        pthread_mutex_unlock(&s->mu);
        sg_stream_run_item(s, w->fn, w->free_fn, w->ctx); /* returns with the lock held */
        free(w);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static sg_stream *sg_stream_new(void) {
    sg_stream *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv_work, NULL);
    pthread_cond_init(&s->cv_idle, NULL);
    if (pthread_create(&s->thread, NULL, sg_stream_worker, s) != 0) {
        pthread_cond_destroy(&s->cv_idle);
        pthread_cond_destroy(&s->cv_work);
        pthread_mutex_destroy(&s->mu);
        free(s);
        return NULL;
    }
    return s;
}

/* Waits for the queue to drain; returns and clears the first error (its message goes to the
   caller's thread). */
static int32_t sg_stream_sync(sg_stream *s) {
    pthread_mutex_lock(&s->mu);
    while (s->head != NULL || s->busy) pthread_cond_wait(&s->cv_idle, &s->mu);
    int32_t rc = s->err;
    if (rc != 0) sg_acl_set_msg(s->err_msg);
    s->err = 0;
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static void sg_stream_delete(sg_stream *s) {
    sg_stream_sync(s);
    pthread_mutex_lock(&s->mu);
    s->stop = true;
    pthread_cond_signal(&s->cv_work);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    pthread_cond_destroy(&s->cv_idle);
    pthread_cond_destroy(&s->cv_work);
    pthread_mutex_destroy(&s->mu);
    /* Retired, not freed at once: a new stream then cannot soon get the address of one just
       destroyed, so the stale handle keeps failing as not live instead of reaching it. */
    sg_reg_retire(s, sizeof *s);
}

sg_stream *sg_stream_resolve(aclrtStream handle, const char *fn, int32_t *err) {
    if (handle != NULL) {
        if (sg_reg_has(handle, SG_H_STREAM)) return (sg_stream *)handle;
        *err = sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: stream %p is not a live stream (expected NULL for the default "
                           "stream or a handle from aclrtCreateStream not yet destroyed)",
                           fn, handle);
        return NULL;
    }
    pthread_mutex_lock(&sg_default_lock);
    if (sg_default_stream == NULL) sg_default_stream = sg_stream_new();
    sg_stream *s = sg_default_stream;
    pthread_mutex_unlock(&sg_default_lock);
    if (s == NULL)
        *err = sg_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: could not create the default stream", fn);
    return s;
}

int32_t sg_stream_submit(sg_stream *s, sg_work_fn fn, sg_work_free free_fn, void *ctx, bool small) {
    pthread_mutex_lock(&s->mu);
    if (small && s->head == NULL && !s->busy) {
        s->busy = true;
        pthread_mutex_unlock(&s->mu);
        sg_stream_run_item(s, fn, free_fn, ctx);
        pthread_mutex_unlock(&s->mu);
        return 0;
    }
    sg_work *w = malloc(sizeof *w);
    if (w == NULL) {
        pthread_mutex_unlock(&s->mu);
        if (free_fn) free_fn(ctx);
        return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "stream: out of memory queueing work");
    }
    *w = (sg_work){fn, free_fn, ctx, NULL};
    if (s->tail)
        s->tail->next = w;
    else
        s->head = w;
    s->tail = w;
    pthread_cond_signal(&s->cv_work);
    pthread_mutex_unlock(&s->mu);
    return 0;
}

void sg_stream_drain_default(void) {
    /* Not destroyed here: other threads may still hold the device and its default stream. */
    pthread_mutex_lock(&sg_default_lock);
    sg_stream *s = sg_default_stream;
    if (s) {
        pthread_mutex_lock(&s->mu);
        while (s->head != NULL || s->busy) pthread_cond_wait(&s->cv_idle, &s->mu);
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&sg_default_lock);
}

void sg_stream_reset_default(void) {
    pthread_mutex_lock(&sg_default_lock);
    sg_stream *s = sg_default_stream;
    sg_default_stream = NULL;
    pthread_mutex_unlock(&sg_default_lock);
    if (s) sg_stream_delete(s);
}

aclError aclrtCreateStream(aclrtStream *stream) {
    if (stream == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtCreateStream: stream is NULL (expected the address of an "
                           "aclrtStream)");
    sg_stream *s = sg_stream_new();
    if (s == NULL)
        return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateStream: could not start a worker");
    if (!sg_reg_add(s, SG_H_STREAM, 0)) {
        sg_stream_delete(s);
        return sg_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateStream: out of memory");
    }
    *stream = s;
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    if (stream == NULL)
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtDestroyStream: stream is NULL (expected a handle from "
                           "aclrtCreateStream; the default stream is not destroyed)");
    if (!sg_reg_remove(stream, SG_H_STREAM, NULL))
        return sg_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtDestroyStream: stream %p is not a live stream (unknown or "
                           "already destroyed)",
                           stream);
    sg_stream_delete((sg_stream *)stream); /* drains queued work first */
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    int32_t err = 0;
    sg_stream *s = sg_stream_resolve(stream, "aclrtSynchronizeStream", &err);
    if (s == NULL) return err;
    return sg_stream_sync(s);
}
