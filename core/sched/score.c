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
#include "shortcut.h"

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

/*
 * Every plugin's Score on the feasible nodes in one pass over them, a
 * chunk of nodes per item (one copy of the cycle per chunk, each plugin's
 * reads of a node while its lines are fresh).
 */
#define SCORE_CHUNK 16

struct score_all {
    const struct kp_score_nodes *f;
    size_t np;
    const struct kp_score_plugin **pl;
    void **state;
    int64_t **scores;
};

static bool
score_chunk(void *ctx, size_t k, struct kp_arena *a)
{
    const struct score_all *b = ctx;
    struct kp_cycle c = *b->f->c;
    struct kp_score_nodes f = *b->f;
    size_t i, p, end = (k + 1) * SCORE_CHUNK;

    c.scratch = a;              /* the thread's own */
    f.c = &c;
    if (end > f.n)
        end = f.n;
    for (i = k * SCORE_CHUNK; i < end; i++)
        for (p = 0; p < b->np; p++)
            b->scores[p][i] = b->pl[p]->score(&f, b->state[p], i);
    return false;
}

/*
 * prioritizeNodes as RunPreScorePlugins, RunScorePlugins (each plugin's
 * Score on every node, then NormalizeScore, then the weight) and the sum:
 * the PreScores first, in the profile's order, then the Scores of all
 * the plugins not skipped in one pass over the nodes.  Each plugin's
 * PreScore reads the cluster only (no plugin reads another's state), so
 * the answers are those of running each plugin whole in turn
 * (kp_score_plugin_run), which KP_NO_SCORE_PASS=1 does.  The selcount
 * entries a PreScore holds in its state stay valid through the others'
 * (PodTopologySpread and InterPodAffinity hold at most KP_SELCOUNT_HOLD
 * each, far fewer than the KP_SELCOUNT_MAX lookups an entry outlives).
 */
void
kp_prioritize_nodes(const struct kp_score_nodes *f, int64_t *totals)
{
    struct kp_arena *a = f->c->scratch;
    const struct kp_score_plugin *pl[KP_MAX_PLUGINS];
    void *state[KP_MAX_PLUGINS];
    int64_t *scores[KP_MAX_PLUGINS], w[KP_MAX_PLUGINS];
    struct score_all b = {f, 0, pl, state, scores};
    size_t p, i, np = 0;
    bool one_pass = kp_nscore_plugins <= KP_MAX_PLUGINS &&
                    !kp_shortcut_off("KP_NO_SCORE_PASS");

    memset(totals, 0, f->n * sizeof(*totals));
    for (p = 0; p < kp_nscore_plugins; p++) {
        /* a profile's weight; 0: the plugin is not a Score plugin there */
        int64_t wt = f->c->profile ? f->c->profile->score_weight[p] :
                     kp_score_plugins[p]->weight;
        int64_t *sc;

        if (wt == 0)
            continue;
        sc = kp_arena_alloc(a, (f->n + 1) * sizeof(*sc));
        if (!one_pass) {
            kp_score_plugin_run(kp_score_plugins[p], f, sc);
            for (i = 0; i < f->n; i++)
                totals[i] += sc[i] * wt;
            continue;
        }
        /* PreScore's Skip: the plugin adds nothing */
        state[np] = NULL;
        if (kp_score_plugins[p]->pre_score &&
            !kp_score_plugins[p]->pre_score(f, &state[np]))
            continue;
        pl[np] = kp_score_plugins[p];
        scores[np] = sc;
        w[np++] = wt;
    }
    if (!one_pass || np == 0)
        return;
    b.np = np;
    if (f->c->pool)
        kp_pool_run(f->c->pool, (f->n + SCORE_CHUNK - 1) / SCORE_CHUNK, 1,
                    score_chunk, &b, NULL);
    else
        for (i = 0; i < (f->n + SCORE_CHUNK - 1) / SCORE_CHUNK; i++)
            score_chunk(&b, i, a);
    for (p = 0; p < np; p++) {
        if (pl[p]->normalize)
            pl[p]->normalize(f, state[p], scores[p]);
        for (i = 0; i < f->n; i++)
            totals[i] += scores[p][i] * w[p];
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
