/*
 * score.c - which feasible node a pod that fits is placed on.  Mirrors
 * pkg/scheduler/schedule_one.go (numFeasibleNodesToFind, prioritizeNodes,
 * selectHost), pkg/scheduler/framework/runtime/framework.go
 * (RunScorePlugins: score, normalize, weight) and
 * pkg/scheduler/framework/plugins/helper/normalize_score.go.
 *
 * Two fixed rules replace kube-scheduler's randomness (README,
 * "Reproducible where kube-scheduler is random"):
 * - upstream runs the filter pass in parallel from a round-robin index
 *   kept across cycles and stops after numFeasibleNodesToFind feasible
 *   nodes; simulate.c walks the nodes sequentially from that index;
 * - upstream picks at random among the nodes with the highest total
 *   score; here the first of them in input order.
 */
#include "score.h"

#include <string.h>

#include "config.h"
#include "pool.h"
#include "report.h"

#define MIN_FEASIBLE_NODES_TO_FIND 100
#define MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND 5

/* One plugin's Score on the feasible nodes, on the cycle's threads. */
struct score_batch {
    const struct kp_score_plugin *pl;
    const struct kp_score_nodes *f;
    void *state;
    int64_t *scores;
};

static bool
score_one(void *ctx, size_t i, struct kp_arena *a)
{
    const struct score_batch *b = ctx;
    struct kp_cycle c = *b->f->c;
    struct kp_score_nodes f = *b->f;

    c.scratch = a;              /* the thread's own */
    f.c = &c;
    b->scores[i] = b->pl->score(&f, b->state, i);
    return false;
}

void
kp_score_plugin_run(const struct kp_score_plugin *pl,
                    const struct kp_score_nodes *f, int64_t *scores)
{
    struct score_batch b = {pl, f, NULL, scores};
    size_t i;

    memset(scores, 0, f->n * sizeof(*scores));
    if (pl->pre_score && !pl->pre_score(f, &b.state))
        return;
    if (f->c->pool)
        kp_pool_run(f->c->pool, f->n, 0, score_one, &b, NULL);
    else
        for (i = 0; i < f->n; i++)
            scores[i] = pl->score(f, b.state, i);
    if (pl->normalize)
        pl->normalize(f, b.state, scores);
}

size_t
kp_num_feasible_nodes_to_find(size_t nall)
{
    int64_t n = (int64_t)nall, percentage, k;

    if (n < MIN_FEASIBLE_NODES_TO_FIND)
        return nall;
    percentage = 50 - n / 125;
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
        percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
    k = n * percentage / 100;
    if (k < MIN_FEASIBLE_NODES_TO_FIND)
        return MIN_FEASIBLE_NODES_TO_FIND;
    return (size_t)k;
}

void
kp_prioritize_nodes(const struct kp_score_nodes *f, int64_t *totals)
{
    int64_t *scores = kp_arena_alloc(f->c->scratch,
                                     (f->n + 1) * sizeof(*scores));
    size_t p, i;

    memset(totals, 0, f->n * sizeof(*totals));
    for (p = 0; p < kp_nscore_plugins; p++) {
        /* a profile's weight; 0: the plugin is not a Score plugin there */
        int64_t w = f->c->profile ? f->c->profile->score_weight[p] :
                    kp_score_plugins[p]->weight;

        if (w == 0)
            continue;
        kp_score_plugin_run(kp_score_plugins[p], f, scores);
        for (i = 0; i < f->n; i++)
            totals[i] += scores[i] * w;
    }
}

/* selectHost, first highest in input order instead of a random tie. */
int
kp_select_host(struct kp_cycle *c, const int *feasible, size_t n)
{
    struct kp_score_nodes f = {c, feasible, n};
    size_t k = kp_num_feasible_nodes_pct(c->cl->snap->nnodes, c->profile ?
        c->profile->percentage_of_nodes_to_score : 0), i, best;
    int64_t *totals;

    if (f.n > k)
        f.n = k;
    if (f.n <= 1)
        return feasible[0];
    totals = kp_arena_alloc(c->scratch, f.n * sizeof(*totals));
    kp_prioritize_nodes(&f, totals);
    for (i = 1, best = 0; i < f.n; i++)
        if (totals[i] > totals[best])
            best = i;
    return feasible[best];
}
