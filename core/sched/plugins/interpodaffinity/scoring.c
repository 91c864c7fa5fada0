/*
 * scoring.c - mirrors pkg/scheduler/framework/plugins/
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
 * The incoming pod's namespaceSelectors are resolved once in PreScore
 * (mergeAffinityTermNamespacesIfNotEmpty); existing pods' terms see the
 * incoming pod's namespace labels.  A pod whose terms do not parse fails
 * upstream's PreFilter first; a parse error here skips the plugin.
 */
#include "config.h"
#include "score.h"
#include "podinfo.h"
#include "tpcount.h"

#define HARD_POD_AFFINITY_WEIGHT 1

/* The incoming pod's preferred terms after the namespaceSelector merge. */
struct ipa_score_state {
    struct kp_tpcount m;                /* topologyScore */
    const unsigned char **aff_sel, **anti_sel;
    const struct kp_labels *ns_labels;  /* namespaceLabels */
    int64_t hard_weight;                /* args.HardPodAffinityWeight */
};

/* scoreMap.processTerm, once the term is known to match. */
static void
add_term(struct kp_arena *a, struct kp_tpcount *m,
         const struct kp_affinity_term *t, const struct kp_node *node,
         int64_t weight)
{
    const char *v = kp_labels_get(&node->labels, t->topology_key);

    if (v)
        kp_tpcount_add(a, m, t->topology_key, v, weight);
}

/* processTerms over the incoming pod's weighted terms; sign is +1 or -1. */
static void
process_incoming_terms(struct kp_arena *a, struct kp_tpcount *m,
                       const struct kp_affinity_term *t,
                       const unsigned char *const *sel, size_t n,
                       const char *owner_ns, const struct kp_pod *q,
                       const struct kp_node *node, int64_t sign)
{
    size_t i;

    n = kp_affinity_terms_usable(t, n);
    for (i = 0; i < n; i++)
        if (kp_incoming_term_matches(&t[i], sel ? sel[i] : NULL, owner_ns,
                                     q))
            add_term(a, m, &t[i], node, t[i].weight * sign);
}

/*
 * processTerm(s) over an existing pod's terms against the incoming pod p;
 * weight 0 takes each term's own weight (times sign).
 */
static void
process_existing_terms(struct kp_arena *a, struct kp_tpcount *m,
                       const struct kp_affinity_term *t, size_t n,
                       const char *owner_ns, const struct kp_pod *p,
                       const struct kp_labels *ns_labels,
                       const struct kp_node *node, int64_t weight,
                       int64_t sign)
{
    size_t i;

    n = kp_affinity_terms_usable(t, n);
    for (i = 0; i < n; i++)
        if (kp_existing_term_matches(&t[i], owner_ns, p, ns_labels))
            add_term(a, m, &t[i], node,
                     (weight ? weight : t[i].weight) * sign);
}

/* processExistingPod */
static void
process_existing_pod(struct kp_arena *a, struct ipa_score_state *st,
                     const struct kp_pod *p, const struct kp_pod *q,
                     const struct kp_node *node)
{
    struct kp_tpcount *m = &st->m;

    if (node->labels.n == 0)
        return;
    process_incoming_terms(a, m, p->pref_affinity, st->aff_sel,
                           p->npref_affinity, p->ns, q, node, 1);
    process_incoming_terms(a, m, p->pref_anti_affinity, st->anti_sel,
                           p->npref_anti_affinity, p->ns, q, node, -1);
    if (st->hard_weight > 0)
        process_existing_terms(a, m, q->affinity, q->naffinity, q->ns, p,
                               st->ns_labels, node, st->hard_weight, 1);
    process_existing_terms(a, m, q->pref_affinity, q->npref_affinity, q->ns,
                           p, st->ns_labels, node, 0, 1);
    process_existing_terms(a, m, q->pref_anti_affinity,
                           q->npref_anti_affinity, q->ns, p, st->ns_labels,
                           node, 0, -1);
}

static bool
ipa_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_cycle *c = f->c;
    const struct kp_snapshot *snap = c->cl->snap;
    struct ipa_score_state *st;
    size_t i, j;

    if (kp_pod_info_parse_error(c->scratch, c->pod))
        return false;
    /* args.IgnorePreferredTermsOfExistingPods: Skip without own terms */
    if (c->profile && c->profile->ignore_preferred_terms_of_existing_pods &&
        c->pod->npref_affinity == 0 && c->pod->npref_anti_affinity == 0)
        return false;
    st = kp_arena_alloc(c->scratch, sizeof(*st));
    kp_tpcount_init(&st->m);
    st->hard_weight = c->profile ? c->profile->hard_pod_affinity_weight :
                      HARD_POD_AFFINITY_WEIGHT;
    st->aff_sel = kp_affinity_terms_merge_namespaces(
        c->scratch, snap, c->pod->pref_affinity, c->pod->npref_affinity);
    st->anti_sel = kp_affinity_terms_merge_namespaces(
        c->scratch, snap, c->pod->pref_anti_affinity,
        c->pod->npref_anti_affinity);
    st->ns_labels = kp_pod_namespace_labels(snap, c->pod);
    for (i = 0; i < snap->nnodes; i++) {
        const struct kp_node_info *ni = &c->cl->nodes[i];

        for (j = 0; j < ni->npods; j++)
            process_existing_pod(c->scratch, st, c->pod, ni->pods[j],
                                 ni->node);
    }
    *state = &st->m;
    return st->m.used > 0;
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
