/*
 * pool.h - worker threads for the per-node work of one scheduling cycle
 * (the Filter pass, DryRunPreemption), as kube-scheduler's parallelizer.
 *
 * kp_pool_run() calls fn(ctx, i, arena) once for every i < n, spread over
 * the pool's threads (the caller is one of them), and returns when all
 * are done.  Each thread has its own arena for what fn allocates; the
 * arenas live until kp_pool_reset().  Callers fold the results in index
 * order afterwards, so what is reported never depends on the threads.
 */
#ifndef KP_POOL_H
#define KP_POOL_H

#include <stddef.h>

#include "arena.h"

struct kp_pool;

typedef void (*kp_pool_fn)(void *ctx, size_t i, struct kp_arena *a);

/*
 * A pool of nthreads threads, the caller included (nthreads - 1 are
 * started).  nthreads <= 1 returns NULL: callers then work alone.
 */
struct kp_pool *kp_pool_new(int nthreads);
/* Threads to use: $KUBECTL_PREEMPT_PARALLELISM, else online CPUs; 1..16. */
int kp_pool_default_threads(void);
int kp_pool_threads(const struct kp_pool *p);
void kp_pool_run(struct kp_pool *p, size_t n, kp_pool_fn fn, void *ctx);
/* Forget what the threads allocated (their arenas keep their chunks). */
void kp_pool_reset(struct kp_pool *p);
void kp_pool_free(struct kp_pool *p);

#endif
