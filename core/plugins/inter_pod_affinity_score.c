/*
 * inter_pod_affinity_score.c - mirrors pkg/scheduler/framework/plugins/
 * interpodaffinity/scoring.go (PreScore, processExistingPod, Score,
 * NormalizeScore) with the default InterPodAffinityArgs
 * (hardPodAffinityWeight 1, ignorePreferredTermsOfExistingPods false).
 *
 * For every pod q on a labelled node, in the domain of q's node:
 * + weight of each preferred affinity term of the incoming pod that q
 *   matches, - weight of each such anti-affinity term;
 * + 1 for each required affinity term of q that the incoming pod
 *   matches; + / - weight of each preferred (anti-)affinity term of q
 *   that the incoming pod matches.  A node scores the sum over its
 *   domains, normalized to 0..100 between the lowest and highest score.
 * A pod whose terms do not parse fails upstream's PreFilter first; a
 * parse error here skips the plugin.
 */
#include "../score.h"
#include "podinfo.h"
#include "tpcount.h"

#define HARD_POD_AFFINITY_WEIGHT 1

/* scoreMap.processTerm */
static void
process_term(struct kp_arena *a, struct kp_tpcount *m,
             const struct kp_affinity_term *t, const char *owner_ns,
             const struct kp_pod *q, const struct kp_node *node,
             int64_t weight)
{
    const char *v;

    if (!kp_affinity_term_matches(t, owner_ns, q))
        return;
    v = kp_labels_get(&node->labels, t->topology_key);
    if (v)
        kp_tpcount_add(a, m, t->topology_key, v, weight);
}

/* scoreMap.processTerms over a weighted list; sign is +1 or -1. */
static void
process_terms(struct kp_arena *a, struct kp_tpcount *m,
              const struct kp_affinity_term *t, size_t n,
              const char *owner_ns, const struct kp_pod *q,
              const struct kp_node *node, int64_t sign)
{
    size_t i;

    n = kp_affinity_terms_usable(t, n);
    for (i = 0; i < n; i++)
        process_term(a, m, &t[i], owner_ns, q, node, t[i].weight * sign);
}

/* processExistingPod */
static void
process_existing_pod(struct kp_arena *a, struct kp_tpcount *m,
                     const struct kp_pod *p, const struct kp_pod *q,
                     const struct kp_node *node)
{
    size_t i, n;

    if (node->labels.n == 0)
        return;
    process_terms(a, m, p->pref_affinity, p->npref_affinity, p->ns, q,
                  node, 1);
    process_terms(a, m, p->pref_anti_affinity, p->npref_anti_affinity,
                  p->ns, q, node, -1);
    n = kp_affinity_terms_usable(q->affinity, q->naffinity);
    for (i = 0; i < n; i++)
        process_term(a, m, &q->affinity[i], q->ns, p, node,
                     HARD_POD_AFFINITY_WEIGHT);
    process_terms(a, m, q->pref_affinity, q->npref_affinity, q->ns, p,
                  node, 1);
    process_terms(a, m, q->pref_anti_affinity, q->npref_anti_affinity,
                  q->ns, p, node, -1);
}

static bool
ipa_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_cycle *c = f->c;
    struct kp_tpcount *m;
    size_t i, j;

    if (kp_pod_info_parse_error(c->scratch, c->pod))
        return false;
    m = kp_arena_alloc(c->scratch, sizeof(*m));
    kp_tpcount_init(m);
    for (i = 0; i < c->cl->snap->nnodes; i++) {
        const struct kp_node_info *ni = &c->cl->nodes[i];

        for (j = 0; j < ni->npods; j++)
            process_existing_pod(c->scratch, m, c->pod, ni->pods[j],
                                 ni->node);
    }
    *state = m;
    return m->used > 0;
}

static int64_t
ipa_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_node_info *ni = kp_score_node_info(f, idx);

    return kp_tpcount_sum_labels(state, &ni->node->labels);
}

static void
ipa_normalize(const struct kp_score_nodes *f, void *state, int64_t *scores)
{
    int64_t min = INT64_MAX, max = INT64_MIN, diff;
    size_t i;

    (void)state;
    for (i = 0; i < f->n; i++) {
        if (scores[i] > max)
            max = scores[i];
        if (scores[i] < min)
            min = scores[i];
    }
    diff = max - min;
    for (i = 0; i < f->n; i++) {
        double fs = 0;

        if (diff > 0)
            fs = (double)KP_MAX_NODE_SCORE *
                 ((double)(scores[i] - min) / (double)diff);
        scores[i] = (int64_t)fs;
    }
}

const struct kp_score_plugin kp_score_inter_pod_affinity = {
    .name = "InterPodAffinity",
    .weight = 2,
    .pre_score = ipa_pre_score,
    .score = ipa_score,
    .normalize = ipa_normalize,
};
