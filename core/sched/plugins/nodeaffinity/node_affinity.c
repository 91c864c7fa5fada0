/*
 * node_affinity.c - mirrors pkg/scheduler/framework/plugins/nodeaffinity/
 * node_affinity.go: Filter checks spec.nodeSelector and the required
 * node affinity terms; PreFilter returns a PreFilterResult (the framework
 * narrows the nodes) when every term names nodes with a metadata.name In
 * field requirement.  Score sums the weights of the preferred terms a
 * node matches (component-helpers scheduling/corev1/nodeaffinity
 * PreferredSchedulingTerms.Score), with NodeAffinityArgs addedAffinity's.
 *
 * A preferred node affinity term that does not parse makes upstream's
 * PreScore fail (the cycle errors); here it scores nothing.
 */
#include <string.h>

#include "corev1.h"
#include "config.h"
#include "plugins.h"
#include "score.h"

#define KP_REASON_ENFORCED_AFFINITY \
    "node(s) didn't match scheduler-enforced node affinity"

static bool
term_names(const struct kp_node_selector_term *t, struct kp_arena *a,
           size_t *n, const char ***out)
{
    size_t i, j, k;
    bool found = false;

    for (i = 0; i < t->nfields; i++) {
        const struct kp_requirement *r = &t->fields[i];

        if (strcmp(r->key, "metadata.name") != 0 || r->op != KP_OP_IN)
            continue;
        if (!found) {
            *out = kp_arena_memdup(a, r->values, r->nvalues * sizeof(char *));
            *n = r->nvalues;
            found = true;
            continue;
        }
        /* several In requirements in one term: intersection */
        for (j = 0, k = 0; j < *n; j++) {
            size_t m;

            for (m = 0; m < r->nvalues; m++)
                if (strcmp((*out)[j], r->values[m]) == 0)
                    break;
            if (m < r->nvalues)
                (*out)[k++] = (*out)[j];
        }
        *n = k;
    }
    return found;
}

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    const struct kp_node_selector *ns = &c->pod->required_node_affinity;
    const char **names;
    size_t i, total = 0, n = 0;
    const char ***per;
    size_t *nper;

    if (ns->is_null || ns->nterms == 0)
        return kp_status_ok();
    per = kp_arena_alloc(c->scratch, ns->nterms * sizeof(*per));
    nper = kp_arena_alloc(c->scratch, ns->nterms * sizeof(*nper));
    for (i = 0; i < ns->nterms; i++) {
        if (!term_names(&ns->terms[i], c->scratch, &nper[i], &per[i]))
            return kp_status_ok();
        total += nper[i];
    }
    names = kp_arena_alloc(c->scratch, (total + 1) * sizeof(char *));
    for (i = 0; i < ns->nterms; i++) {
        if (nper[i])
            memcpy(names + n, per[i], nper[i] * sizeof(char *));
        n += nper[i];
    }
    if (n == 0)
        return kp_status_new(KP_UNRESOLVABLE, KP_REASON_AFFINITY_CONFLICT);
    /* PreFilterResult{NodeNames}: the framework filters the others out */
    kp_cycle_restrict_nodes(c, idx, names, n);
    return kp_status_ok();
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    (void)idx;
    /* NodeAffinityArgs addedAffinity (the profile's), checked first */
    if (c->profile && !c->profile->added_required.is_null &&
        !kp_node_selector_matches(&c->profile->added_required,
                                  &ni->node->labels, ni->node->name))
        return kp_status_new(KP_UNRESOLVABLE, KP_REASON_ENFORCED_AFFINITY);
    if (!kp_pod_matches_node_affinity(c->pod, ni->node))
        return kp_status_new(KP_UNRESOLVABLE, KP_REASON_NODE_AFFINITY);
    return kp_status_ok();
}

const struct kp_plugin kp_plugin_node_affinity = {
    .name = "NodeAffinity",
    .node_static = true,
    .pre_filter = pre_filter,
    .filter = filter,
};

/* ---- Score ---- */

static bool
na_pre_score(const struct kp_score_nodes *f, void **state)
{
    *state = NULL;
    return f->n > 0 && (f->c->pod->npreferred_node_affinity > 0 ||
                        (f->c->profile && f->c->profile->nadded_pref > 0));
}

static int64_t
na_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    const struct kp_pod *p = f->c->pod;
    int64_t score = 0;
    size_t i;

    (void)state;
    for (i = 0; i < p->npreferred_node_affinity; i++)
        if (p->preferred_node_affinity_weight[i] != 0 &&
            kp_node_selector_term_matches(&p->preferred_node_affinity[i],
                                          &ni->node->labels,
                                          ni->node->name))
            score += p->preferred_node_affinity_weight[i];
    /* NodeAffinityArgs addedAffinity's preferred terms */
    for (i = 0; f->c->profile && i < f->c->profile->nadded_pref; i++)
        if (kp_node_selector_term_matches(&f->c->profile->added_pref[i],
                                          &ni->node->labels, ni->node->name))
            score += f->c->profile->added_pref_weight[i];
    return score;
}

static void
na_normalize(const struct kp_score_nodes *f, void *state, int64_t *scores)
{
    (void)state;
    kp_default_normalize_score(KP_MAX_NODE_SCORE, false, scores, f->n);
}

const struct kp_score_plugin kp_score_node_affinity = {
    .name = "NodeAffinity",
    .weight = 2,
    .pre_score = na_pre_score,
    .score = na_score,
    .normalize = na_normalize,
};
