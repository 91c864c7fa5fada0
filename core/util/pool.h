/*
 * pool.h - worker threads for the per-node work of one scheduling cycle
 * (the Filter pass, DryRunPreemption, scoring) and for the pods of an
 * independent analysis, as kube-scheduler's parallelizer.
 *
 * kp_pool_run() calls fn(ctx, i, arena) for the items i < n, spread over
 * the pool's threads (the caller is one of them), and returns when all
 * the threads are done.  Items are claimed a chunk at a time in index
 * order and a claimed chunk is always finished: when fn returns true
 * ("enough"), no more chunks are claimed, and the items done are exactly
 * [0, returned count).  Each thread has its own arena for what fn
 * allocates; the arenas live until kp_pool_reset().  Callers fold the
 * results in index order afterwards, so what is reported never depends
 * on the threads.
 *
 * The pool's threads are started once and wait for work spinning a
 * little before they sleep: a cycle hands them a few runs a
 * millisecond, and waking a sleeping thread costs about as much as a
 * run (and much more on a busy machine).
 */
#ifndef KP_POOL_H
#define KP_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

struct kp_pool;

/* Evaluate item i; true: the caller has what it needs, claim no more. */
typedef bool (*kp_pool_fn)(void *ctx, size_t i, struct kp_arena *a);

/*
 * A pool of nthreads threads, the caller included (nthreads - 1 are
 * started).  nthreads <= 1 returns NULL: callers then work alone.
 */
struct kp_pool *kp_pool_new(int nthreads);
/* Threads to use: $KUBECTL_PREEMPT_PARALLELISM, else online CPUs; 1..16. */
int kp_pool_default_threads(void);
int kp_pool_threads(const struct kp_pool *p);
/*
 * Run fn over [0, n) (see above); grain is the most items claimed at
 * once (0: the pool picks, for items of similar cost).  With p NULL the
 * caller runs them alone, in order, in alone.  Returns how many items
 * were done: all n, or fewer when fn said enough.
 */
size_t kp_pool_run(struct kp_pool *p, size_t n, size_t grain, kp_pool_fn fn,
                   void *ctx, struct kp_arena *alone);
/*
 * kp_pool_run, the caller first running side(side_ctx) (when not NULL)
 * while the other threads start on the items, then joining them: work
 * of its own that reads nothing fn writes and writes nothing fn reads.
 * Alone (p NULL or n <= 1), side runs first, then the items.
 */
size_t kp_pool_run_side(struct kp_pool *p, size_t n, size_t grain,
                        kp_pool_fn fn, void *ctx, struct kp_arena *alone,
                        void (*side)(void *), void *side_ctx);
/* Thread i's arena (i < kp_pool_threads; 0 is the caller's). */
struct kp_arena *kp_pool_arena(struct kp_pool *p, int i);
/*
 * The thread whose arena fn was given (i with kp_pool_arena(p, i) == a):
 * what a fn keeps per thread is found by it; 0 without a pool, or for
 * an arena none of the pool's (the alone arena of kp_pool_run).
 */
int kp_pool_thread_of(const struct kp_pool *p, const struct kp_arena *a);
/* Forget what the threads allocated (their arenas keep their chunks). */
void kp_pool_reset(struct kp_pool *p);
void kp_pool_free(struct kp_pool *p);

#endif
