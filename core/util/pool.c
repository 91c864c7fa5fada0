/* pool.c - see pool.h. */
#include "pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KP_MAX_THREADS 16   /* kube-scheduler's default parallelism */

struct worker {
    struct kp_pool *pool;
    pthread_t thread;
    struct kp_arena arena;
    int index;
};

struct kp_pool {
    int nthreads;
    struct worker *w;               /* w[0] is the caller's */
    pthread_mutex_t mu;
    pthread_cond_t start, done;
    unsigned long generation;       /* one per kp_pool_run */
    int busy;                       /* workers still in this run */
    bool stop;
    /* the current run */
    kp_pool_fn fn;
    void *ctx;
    size_t n, grain;
    atomic_size_t next;
};

/*
 * Items are claimed a few at a time: one shared counter touched per item
 * would bounce between the cores more than a Filter call costs.
 */
static void
work(struct kp_pool *p, struct worker *w)
{
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, p->grain), end;

        if (i >= p->n)
            return;
        end = i + p->grain < p->n ? i + p->grain : p->n;
        for (; i < end; i++)
            p->fn(p->ctx, i, &w->arena);
    }
}

static void *
worker_main(void *arg)
{
    struct worker *w = arg;
    struct kp_pool *p = w->pool;
    unsigned long seen = 0;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == seen)
            pthread_cond_wait(&p->start, &p->mu);
        if (p->stop)
            break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        work(p, w);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int
kp_pool_default_threads(void)
{
    const char *env = getenv("KUBECTL_PREEMPT_PARALLELISM");
    long n = 0;

    if (env && *env) {
        char *end;

        n = strtol(env, &end, 10);
        if (*end)
            n = 0;
    }
    if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > KP_MAX_THREADS ? KP_MAX_THREADS : (int)n;
}

struct kp_pool *
kp_pool_new(int nthreads)
{
    struct kp_pool *p;
    int i;

    if (nthreads <= 1)
        return NULL;
    p = kp_xcalloc(1, sizeof(*p));
    p->w = kp_xcalloc((size_t)nthreads, sizeof(*p->w));
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->start, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next, 0);
    p->nthreads = 1;
    kp_arena_init(&p->w[0].arena);
    for (i = 1; i < nthreads; i++) {
        struct worker *w = &p->w[i];

        w->pool = p;
        w->index = i;
        kp_arena_init(&w->arena);
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
            break;              /* fewer threads: still correct */
        p->nthreads++;
    }
    if (p->nthreads == 1) {
        kp_pool_free(p);
        return NULL;
    }
    return p;
}

int
kp_pool_threads(const struct kp_pool *p)
{
    return p ? p->nthreads : 1;
}

void
kp_pool_run(struct kp_pool *p, size_t n, kp_pool_fn fn, void *ctx)
{
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->grain = n / ((size_t)p->nthreads * 8);
    if (p->grain == 0)
        p->grain = 1;
    atomic_store(&p->next, 0);
    p->busy = p->nthreads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->mu);
    work(p, &p->w[0]);
    pthread_mutex_lock(&p->mu);
    while (p->busy > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void
kp_pool_reset(struct kp_pool *p)
{
    int i;

    for (i = 0; p && i < p->nthreads; i++)
        kp_arena_reset(&p->w[i].arena);
}

void
kp_pool_free(struct kp_pool *p)
{
    int i;

    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->mu);
    for (i = 1; i < p->nthreads; i++)
        pthread_join(p->w[i].thread, NULL);
    for (i = 0; i < p->nthreads; i++)
        kp_arena_release(&p->w[i].arena);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->start);
    pthread_cond_destroy(&p->done);
    free(p->w);
    free(p);
}
