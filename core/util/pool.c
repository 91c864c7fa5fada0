/* pool.c - see pool.h. */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KP_MAX_THREADS 16   /* kube-scheduler's default parallelism */
#define LINE 64             /* a cache line: what one thread writes alone */
/*
 * How an idle thread waits for the next run, and the caller for the
 * workers still in a run: a few polls (SPIN, some 40 us), then polls
 * that give the core away (sched_yield) until YIELD_NS have passed, then
 * sleep.  The yields matter when the machine has fewer free cores than
 * the pool has threads: a thread that only spun would keep the core the
 * thread it waits for needs.  YIELD_NS is more than the serial work
 * between two runs of one cycle or two pods, far less than a pod's
 * analysis.
 */
#define SPIN 1024
#define YIELD_NS 200000

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif

/* Each thread's own state on lines of its own (no false sharing). */
struct worker {
    _Alignas(LINE) struct kp_arena arena;
    struct kp_pool *pool;
    pthread_t thread;
    int index;
};

struct kp_pool {
    /* set up once */
    int nthreads;
    struct worker *w;               /* w[0] is the caller's */
    void *mem, *wmem;               /* what p and w were carved from */
    pthread_mutex_t mu;
    pthread_cond_t start, done;
    /* the current run: written by the caller before generation moves */
    kp_pool_fn fn;
    void *ctx;
    size_t n, grain;
    /* what the caller publishes (workers poll it) */
    _Alignas(LINE) atomic_ulong generation;     /* one per kp_pool_run */
    atomic_ulong open;              /* the run workers may join; 0: none */
    atomic_bool quit;
    atomic_int sleepers;            /* workers asleep on start */
    /* what every thread writes */
    _Alignas(LINE) atomic_size_t next;          /* first unclaimed item */
    atomic_bool enough;             /* fn said so: claim no more */
    _Alignas(LINE) atomic_int active;           /* workers in the run */
    atomic_bool caller_waits;       /* the caller sleeps on done */
};

static long long
now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Poll done(x) as above (without the sleep); true once it holds. */
static bool
poll_until(bool (*done)(struct kp_pool *, void *), struct kp_pool *p,
           void *x)
{
    long long until = 0;
    int i;

    for (i = 0; i < SPIN; i++) {
        if (done(p, x))
            return true;
        cpu_relax();
    }
    for (;;) {
        if (done(p, x))
            return true;
        if (!until)
            until = now_ns() + YIELD_NS;
        else if (now_ns() > until)
            return false;
        sched_yield();
    }
}

/* Claim chunks until none are left or fn has had enough. */
static void
work(struct kp_pool *p, struct worker *w)
{
    kp_pool_fn fn = p->fn;
    void *ctx = p->ctx;
    size_t n = p->n, grain = p->grain;

    while (!atomic_load_explicit(&p->enough, memory_order_relaxed)) {
        size_t i = atomic_fetch_add(&p->next, grain), end;
        bool stop = false;

        if (i >= n)
            return;
        end = n - i > grain ? i + grain : n;
        for (; i < end; i++)
            if (fn(ctx, i, &w->arena))
                stop = true;
        if (stop)
            atomic_store(&p->enough, true);
    }
}

static bool
run_started(struct kp_pool *p, void *seen)
{
    return atomic_load_explicit(&p->generation, memory_order_acquire) !=
           *(unsigned long *)seen || atomic_load(&p->quit);
}

static bool
workers_out(struct kp_pool *p, void *unused)
{
    (void)unused;
    return atomic_load(&p->active) == 0;
}

/* Wait for a run after seen (or quit); returns false on quit. */
static bool
wait_start(struct kp_pool *p, unsigned long *seen)
{
    unsigned long g;

    if (!poll_until(run_started, p, seen)) {
        pthread_mutex_lock(&p->mu);
        atomic_fetch_add(&p->sleepers, 1);
        while (atomic_load(&p->generation) == *seen &&
               !atomic_load(&p->quit))
            pthread_cond_wait(&p->start, &p->mu);
        atomic_fetch_sub(&p->sleepers, 1);
        pthread_mutex_unlock(&p->mu);
    }
    g = atomic_load(&p->generation);
    *seen = g;
    return !atomic_load(&p->quit);
}

/*
 * A worker joins a run only while it is open: one that comes late (it
 * slept, or the machine gave its core to another process) finds the run
 * closed and the caller not waiting for it.  active counts the workers
 * that may still touch the run; the caller closes the run once every
 * item is claimed, then waits for active to drop to 0.
 */
static void *
worker_main(void *arg)
{
    struct worker *w = arg;
    struct kp_pool *p = w->pool;
    unsigned long seen = 0;

    while (wait_start(p, &seen)) {
        atomic_fetch_add(&p->active, 1);
        if (atomic_load(&p->open) == seen)
            work(p, w);
        if (atomic_fetch_sub(&p->active, 1) == 1 &&
            atomic_load(&p->caller_waits)) {
            /* the last one out wakes the caller (it holds mu to wait) */
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
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

/* n zeroed bytes on a line of their own; *block is what to free */
static void *
line_alloc(size_t n, void **block)
{
    char *m = kp_xcalloc(1, n + LINE);

    *block = m;
    return m + (LINE - (uintptr_t)m % LINE) % LINE;
}

struct kp_pool *
kp_pool_new(int nthreads)
{
    struct kp_pool *p;
    void *mem;
    int i;

    if (nthreads <= 1)
        return NULL;
    if (nthreads > KP_MAX_THREADS)
        nthreads = KP_MAX_THREADS;
    /* _Alignas is not honoured by malloc: align the blocks by hand */
    p = line_alloc(sizeof(*p), &mem);
    p->mem = mem;
    p->w = line_alloc((size_t)nthreads * sizeof(*p->w), &p->wmem);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->start, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->generation, 0);
    atomic_init(&p->quit, false);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->next, 0);
    atomic_init(&p->enough, false);
    atomic_init(&p->open, 0);
    atomic_init(&p->active, 0);
    atomic_init(&p->caller_waits, false);
    p->nthreads = 1;
    p->w[0].pool = p;
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

struct kp_arena *
kp_pool_arena(struct kp_pool *p, int i)
{
    return &p->w[i].arena;
}

int
kp_pool_thread_of(const struct kp_pool *p, const struct kp_arena *a)
{
    int i;

    for (i = 0; p && i < p->nthreads; i++)
        if (&p->w[i].arena == a)
            return i;
    return 0;
}

size_t
kp_pool_run(struct kp_pool *p, size_t n, size_t grain, kp_pool_fn fn,
            void *ctx, struct kp_arena *alone)
{
    return kp_pool_run_side(p, n, grain, fn, ctx, alone, NULL, NULL);
}

size_t
kp_pool_run_side(struct kp_pool *p, size_t n, size_t grain, kp_pool_fn fn,
                 void *ctx, struct kp_arena *alone, void (*side)(void *),
                 void *side_ctx)
{
    size_t i, done;
    unsigned long gen;

    if (!p || n <= 1) {
        struct kp_arena *a = p ? &p->w[0].arena : alone;

        if (side)
            side(side_ctx);
        for (i = 0; i < n; i++)
            if (fn(ctx, i, a))
                return i + 1;
        return n;
    }
    if (grain == 0) {
        /* eight chunks a thread: the last ones even out the ends */
        grain = n / ((size_t)p->nthreads * 8);
        if (grain == 0)
            grain = 1;
    }
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->grain = grain;
    atomic_store(&p->next, 0);
    atomic_store(&p->enough, false);
    gen = atomic_load(&p->generation) + 1;
    if (gen == 0)
        gen = 1;                /* 0 is "no run open" */
    atomic_store(&p->open, gen);
    /* seq_cst: either a sleeper is seen here or it sees the generation */
    atomic_store(&p->generation, gen);
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->start);
        pthread_mutex_unlock(&p->mu);
    }
    /* the others have started on the items: the caller's own task first */
    if (side)
        side(side_ctx);
    work(p, &p->w[0]);
    /* every item is claimed (or enough): no one else may join */
    atomic_store(&p->open, 0);
    if (!poll_until(workers_out, p, NULL)) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->caller_waits, true);
        while (atomic_load(&p->active) > 0)
            pthread_cond_wait(&p->done, &p->mu);
        atomic_store(&p->caller_waits, false);
        pthread_mutex_unlock(&p->mu);
    }
    /* every chunk below next was claimed, and every claimed one is done */
    done = atomic_load(&p->next);
    return done < n ? done : n;
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
    atomic_store(&p->quit, true);
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->mu);
    for (i = 1; i < p->nthreads; i++)
        pthread_join(p->w[i].thread, NULL);
    for (i = 0; i < p->nthreads; i++)
        kp_arena_release(&p->w[i].arena);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->start);
    pthread_cond_destroy(&p->done);
    free(p->wmem);
    free(p->mem);
}
