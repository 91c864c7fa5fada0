/*
 * test_pool.c - the worker pool of the Filter pass, DryRunPreemption,
 * scoring and the independent analysis: every item done exactly once,
 * on any number of threads; a run that has had enough stops claiming and
 * says how many items were done, always a prefix holding the stopping
 * point; each thread allocates in its own arena, which an owner can adopt.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "arena.h"
#include "pool.h"

#define N 10000

struct count {
    atomic_int done[N];
    size_t stop_at;             /* fn says enough at this item (N: never) */
    atomic_int arenas_ok;
};

static bool
count_one(void *ctx, size_t i, struct kp_arena *a)
{
    struct count *c = ctx;
    int *mine = kp_arena_alloc(a, sizeof(int));

    /* an arena no other thread writes: what was written stays */
    *mine = (int)i;
    atomic_fetch_add(&c->done[i], 1);
    if (*mine == (int)i)
        atomic_fetch_add(&c->arenas_ok, 1);
    return i == c->stop_at;
}

/* every item once, with 1 (no pool), 2, 3 and 16 threads, many runs */
static void
test_pool__every_item_once(void)
{
    static struct count c;
    int threads[] = {1, 2, 3, 16}, t, run;

    for (t = 0; t < 4; t++) {
        struct kp_pool *p = kp_pool_new(threads[t]);
        struct kp_arena alone;

        kp_arena_init(&alone);
        CHECK(threads[t] == 1 ? p == NULL : p != NULL);
        CHECK_EQ_INT(kp_pool_threads(p), threads[t]);
        for (run = 0; run < 50; run++) {
            size_t n = (size_t)(run * 197) % N + 1, i, done;
            bool once = true;

            memset(&c, 0, sizeof(c));
            c.stop_at = N;
            done = kp_pool_run(p, n, (size_t)run % 5, count_one, &c, &alone);
            CHECK_EQ_INT(done, n);
            for (i = 0; i < N; i++)
                if (atomic_load(&c.done[i]) != (i < n ? 1 : 0))
                    once = false;
            CHECK(once);
            CHECK_EQ_INT(atomic_load(&c.arenas_ok), (int)n);
            kp_pool_reset(p);
        }
        kp_arena_release(&alone);
        kp_pool_free(p);
    }
}

/*
 * Enough: the items done are [0, returned), each once, the stopping item
 * among them; without threads exactly up to it.
 */
static void
test_pool__enough_leaves_a_prefix(void)
{
    static struct count c;
    int threads[] = {1, 2, 16}, t, run;

    for (t = 0; t < 3; t++) {
        struct kp_pool *p = kp_pool_new(threads[t]);
        struct kp_arena alone;

        kp_arena_init(&alone);
        for (run = 0; run < 50; run++) {
            size_t i, done;
            bool prefix = true;

            memset(&c, 0, sizeof(c));
            c.stop_at = (size_t)(run * 131) % 3000;
            done = kp_pool_run(p, 3000, (size_t)run % 9, count_one, &c,
                               &alone);
            CHECK(done > c.stop_at && done <= 3000);
            if (!p)
                CHECK_EQ_INT(done, c.stop_at + 1);
            for (i = 0; i < 3000; i++)
                if (atomic_load(&c.done[i]) != (i < done ? 1 : 0))
                    prefix = false;
            CHECK(prefix);
        }
        kp_arena_release(&alone);
        kp_pool_free(p);
    }
}

/* a parallelism that is not a number, or out of range */
static void
test_pool__default_threads(void)
{
    setenv("KUBECTL_PREEMPT_PARALLELISM", "3", 1);
    CHECK_EQ_INT(kp_pool_default_threads(), 3);
    setenv("KUBECTL_PREEMPT_PARALLELISM", "99", 1);
    CHECK_EQ_INT(kp_pool_default_threads(), 16);
    setenv("KUBECTL_PREEMPT_PARALLELISM", "lots", 1);
    CHECK(kp_pool_default_threads() >= 1);
    unsetenv("KUBECTL_PREEMPT_PARALLELISM");
}

/* what the threads allocated outlives the pool once adopted */
static bool
keep_one(void *ctx, size_t i, struct kp_arena *a)
{
    char **out = ctx;

    out[i] = kp_arena_alloc(a, 300 * 1024);     /* a block of its own */
    out[i][0] = (char)('a' + i % 26);
    return false;
}

static void
test_pool__adopted_arenas_outlive_the_pool(void)
{
    struct kp_pool *p = kp_pool_new(4);
    struct kp_arena owner;
    char *out[64];
    size_t i, total;
    int t;
    bool kept = true;

    kp_arena_init(&owner);
    (void)kp_arena_strdup(&owner, "first");
    total = owner.total;
    CHECK_EQ_INT(kp_pool_run(p, 64, 1, keep_one, out, NULL), 64);
    for (t = 0; t < kp_pool_threads(p); t++)
        kp_arena_adopt(&owner, kp_pool_arena(p, t));
    kp_pool_free(p);
    for (i = 0; i < 64; i++)
        if (out[i][0] != (char)('a' + i % 26))
            kept = false;
    CHECK(kept);
    CHECK(owner.total >= total + 64 * 300 * 1024);
    /* the owner keeps allocating in its own chunk */
    CHECK_EQ_STR(kp_arena_strdup(&owner, "after"), "after");
    kp_arena_release(&owner);
}

/* the caller's own task: once, on the calling thread, items all done */
struct side {
    pthread_t caller;
    int runs;
    bool on_caller;
    struct count *c;
    size_t done_before;         /* items the caller had done before it */
};

static void
side_task(void *x)
{
    struct side *s = x;
    size_t i;

    s->runs++;
    s->on_caller = pthread_equal(pthread_self(), s->caller) != 0;
    for (i = 0; i < N; i++)
        s->done_before += (size_t)atomic_load(&s->c->done[i]);
}

static void
test_pool__side_task_runs_once_on_the_caller(void)
{
    static struct count c;
    int threads[] = {1, 2, 4}, t, run;

    for (t = 0; t < 3; t++) {
        struct kp_pool *p = kp_pool_new(threads[t]);
        struct kp_arena alone;

        kp_arena_init(&alone);
        for (run = 0; run < 30; run++) {
            struct side s = {pthread_self(), 0, false, &c, 0};
            size_t n = (size_t)run % 4 == 0 ? 1 : (size_t)(run * 97) % N + 2;
            size_t i, done;
            bool once = true;

            memset(&c, 0, sizeof(c));
            c.stop_at = N;
            done = kp_pool_run_side(p, n, 0, count_one, &c, &alone,
                                    side_task, &s);
            CHECK_EQ_INT(done, n);
            CHECK_EQ_INT(s.runs, 1);
            CHECK(s.on_caller);
            /* alone (or one item), the side task comes first */
            if (!p || n <= 1)
                CHECK_EQ_INT(s.done_before, 0);
            for (i = 0; i < n; i++)
                if (atomic_load(&c.done[i]) != 1)
                    once = false;
            CHECK(once);
        }
        /* no side task: kp_pool_run */
        memset(&c, 0, sizeof(c));
        c.stop_at = N;
        CHECK_EQ_INT(kp_pool_run_side(p, 100, 0, count_one, &c, &alone, NULL,
                                      NULL), 100);
        kp_arena_release(&alone);
        kp_pool_free(p);
    }
}

/*
 * kp_pool_thread_of: each item's thread found by its arena, the same for
 * every item a thread does (what a fn keeps per thread: pdbBlocks'
 * tallies, the render's names, the dry run's cycle copies); 0 without a
 * pool and for the alone arena
 */
struct whose {
    const struct kp_pool *p;
    int thread[N];
    struct kp_arena *arena[N];
};

static bool
whose_one(void *ctx, size_t i, struct kp_arena *a)
{
    struct whose *w = ctx;

    w->thread[i] = kp_pool_thread_of(w->p, a);
    w->arena[i] = a;
    return false;
}

static void
test_pool__thread_of_arena(void)
{
    static const int threads[] = {1, 2, 3, 16};
    static struct whose w;
    struct kp_arena alone;
    size_t t, i;

    for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
        struct kp_pool *p = kp_pool_new(threads[t]);

        w.p = p;
        kp_arena_init(&alone);
        kp_pool_run(p, N, 0, whose_one, &w, &alone);
        for (i = 0; i < N; i++) {
            CHECK(w.thread[i] >= 0 && w.thread[i] < kp_pool_threads(p));
            if (p)
                CHECK(kp_pool_arena((struct kp_pool *)p, w.thread[i]) ==
                      w.arena[i]);
            else
                CHECK(w.thread[i] == 0 && w.arena[i] == &alone);
        }
        CHECK_EQ_INT(kp_pool_thread_of(p, &alone), 0);
        kp_arena_release(&alone);
        kp_pool_free(p);
    }
}

int
main(void)
{
    RUN(test_pool__every_item_once);
    RUN(test_pool__enough_leaves_a_prefix);
    RUN(test_pool__default_threads);
    RUN(test_pool__adopted_arenas_outlive_the_pool);
    RUN(test_pool__side_task_runs_once_on_the_caller);
    RUN(test_pool__thread_of_arena);
    return check_done();
}
