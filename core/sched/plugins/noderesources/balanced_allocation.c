/*
 * balanced_allocation.c - mirrors pkg/scheduler/framework/plugins/
 * noderesources/balanced_allocation.go (PreScore, Score,
 * balancedResourceScorer) with the default resources, cpu and memory;
 * a profile with other resources scores in resource_allocation.c.
 * BalancedAllocation counts the real requests (NodeInfo.Requested) and
 * skips best-effort pods.
 *
 * From v1.36 (kubernetes/kubernetes#135573, kube_version.c
 * KP_RULE_BA_BALANCE_CHANGE) the score is the change of the node's
 * balance, the balance with the pod against the balance without it
 * (kp_balanced_change_score); before, the balance with the pod alone.
 */
#include <math.h>

#include "config.h"
#include "kube_version.h"
#include "resource_allocation.h"
#include "score.h"

#define NRES 2

static const int res_ids[NRES] = {KP_RES_CPU, KP_RES_MEMORY};

struct res_state {
    int64_t pod[NRES];          /* podRequests */
};

static bool
ba_pre_score(const struct kp_score_nodes *f, void **state)
{
    struct res_state *s;
    int i;

    if (f->c->profile && !f->c->profile->ba_default)
        return kp_ba_profile_pre_score(f, state);
    s = kp_arena_alloc(f->c->scratch, sizeof(*s));
    for (i = 0; i < NRES; i++)
        s->pod[i] = kp_resvec_get(&f->c->pod->req, res_ids[i]);
    *state = s;
    /* isBestEffortPod: skip pods that request neither resource */
    return s->pod[0] != 0 || s->pod[1] != 0;
}

/* balancedResourceScorer */
int64_t
kp_balanced_resource_scorer(const double *fractions, size_t n)
{
    double std = 0, total = 0, mean, sum = 0;
    size_t i;

    for (i = 0; i < n; i++)
        total += fractions[i];
    if (n == 2) {
        std = fabs((fractions[0] - fractions[1]) / 2);
    } else if (n > 2) {
        mean = total / (double)n;
        for (i = 0; i < n; i++)
            sum = sum + (fractions[i] - mean) * (fractions[i] - mean);
        std = sqrt(sum / (double)n);
    }
    return (int64_t)((1 - std) * (double)KP_MAX_NODE_SCORE);
}

/*
 * balancedResourceScorer from v1.36 (#135573): MaxNodeScore/2 +
 * (MaxNodeScore/2 + withPod - withoutPod)/2, in int64 (75: no change,
 * 50: balanced to unbalanced, 100: unbalanced to balanced).
 */
int64_t
kp_balanced_change_score(int64_t with_pod, int64_t without_pod)
{
    return KP_MAX_NODE_SCORE / 2 +
           (KP_MAX_NODE_SCORE / 2 + with_pod - without_pod) / 2;
}

bool
kp_ba_scores_change(const struct kp_cycle *c)
{
    return kp_kube_rule_on(KP_RULE_BA_BALANCE_CHANGE,
                           c->profile ? c->profile->kube_minor : 0);
}

static double
fraction(int64_t req, int64_t alloc)
{
    double fr = (double)req / (double)alloc;

    return fr > 1 ? 1 : fr;
}

static int64_t
ba_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    const struct res_state *s = state;
    double with[NRES], without[NRES];
    size_t n = 0;
    int i;

    if (f->c->profile && !f->c->profile->ba_default)
        return kp_ba_profile_score(f, state, idx);
    for (i = 0; i < NRES; i++) {
        int64_t alloc = kp_resvec_get(&ni->node->allocatable, res_ids[i]);
        int64_t used = kp_ni_used(ni, res_ids[i]);

        if (alloc == 0)
            continue;
        without[n] = fraction(used, alloc);
        with[n++] = fraction(kp_wrap_add(used, s->pod[i]), alloc);
    }
    if (!kp_ba_scores_change(f->c))
        return kp_balanced_resource_scorer(with, n);
    return kp_balanced_change_score(kp_balanced_resource_scorer(with, n),
                                    kp_balanced_resource_scorer(without, n));
}

const struct kp_score_plugin kp_score_balanced_allocation = {
    .name = "NodeResourcesBalancedAllocation",
    .weight = 1,
    .pre_score = ba_pre_score,
    .score = ba_score,
    .normalize = NULL,
};
