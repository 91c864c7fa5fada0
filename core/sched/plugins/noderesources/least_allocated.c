/*
 * least_allocated.c - NodeResourcesFit's Score with the default
 * LeastAllocated strategy: pkg/scheduler/framework/plugins/noderesources/
 * fit.go (PreScore, Score) through resource_allocation.go
 * (resourceAllocationScorer.score) with least_allocated.go's
 * leastResourceScorer and leastRequestedScore.  Default resources: cpu
 * and memory, weight 1 each.  A profile with another strategy or other
 * resources scores in resource_allocation.c.
 *
 * LeastAllocated counts non-zero requests (100m cpu / 200Mi memory for a
 * container that names neither, decode_score.c) for the pod and for the
 * pods on the node (NodeInfo.NonZeroRequested).
 */
#include "config.h"
#include "kube_version.h"
#include "resource_allocation.h"
#include "score.h"

#define NRES 2

static const int res_ids[NRES] = {KP_RES_CPU, KP_RES_MEMORY};
static const int64_t res_weights[NRES] = {1, 1};

struct res_state {
    int64_t pod[NRES];          /* podRequests */
};

/* leastRequestedScore */
int64_t
kp_least_requested_score(int64_t requested, int64_t capacity)
{
    if (capacity == 0 || requested > capacity)
        return 0;
    /* int64 arithmetic wraps in Go; do the same without UB */
    return (int64_t)((uint64_t)(capacity - requested) *
                     (uint64_t)KP_MAX_NODE_SCORE) / capacity;
}

static bool
fit_pre_score(const struct kp_score_nodes *f, void **state)
{
    struct res_state *s;

    if (f->c->profile && !f->c->profile->fit_default)
        return kp_fit_profile_pre_score(f, state);
    s = kp_arena_alloc(f->c->scratch, sizeof(*s));
    s->pod[0] = f->c->pod->nonzero_cpu;
    s->pod[1] = f->c->pod->nonzero_mem;
    *state = s;
    return true;
}

/* score() with leastResourceScorer */
static int64_t
fit_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    const struct res_state *s = state;
    int64_t used[NRES], node_score = 0, weight_sum = 0;
    int i;

    if (f->c->profile && !f->c->profile->fit_default)
        return kp_fit_profile_score(f, state, idx);
    /* before v1.32 a pod's share leaves its sidecars out (#127878) */
    kp_ni_nonzero_requested(ni, !kp_kube_rule_on(KP_RULE_SIDECAR_NONZERO,
                                                 f->c->profile ?
                                                 f->c->profile->kube_minor :
                                                 0), used);
    for (i = 0; i < NRES; i++) {
        int64_t alloc = kp_resvec_get(&ni->node->allocatable, res_ids[i]);

        if (alloc == 0)
            continue;
        node_score += kp_least_requested_score(kp_wrap_add(used[i], s->pod[i]),
                                            alloc) * res_weights[i];
        weight_sum += res_weights[i];
    }
    return weight_sum ? node_score / weight_sum : 0;
}

const struct kp_score_plugin kp_score_node_resources_fit = {
    .name = "NodeResourcesFit",
    .weight = 1,
    .pre_score = fit_pre_score,
    .score = fit_score,
    .normalize = NULL,
};
