/*
 * resource_allocation.c - NodeResourcesFit's scoring strategies and
 * NodeResourcesBalancedAllocation over a profile's resources, for profiles
 * that do not score as the default does (config.h fit_default,
 * ba_default).  Mirrors pkg/scheduler/framework/plugins/noderesources/
 * resource_allocation.go (score, calculateResourceAllocatableRequest,
 * calculatePodResourceRequestList, isBestEffortPod); the strategies'
 * scores are in least_allocated.c, most_allocated.c and
 * requested_to_capacity_ratio.c, balancedResourceScorer in
 * balanced_allocation.c.
 *
 * NodeResourcesFit counts cpu and memory as non-zero requests (the pod's
 * and NodeInfo.NonZeroRequested); BalancedAllocation counts the real
 * requests.  Every other resource is its real request.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "config.h"
#include "kube_version.h"
#include "resource_allocation.h"
#include "score.h"

struct strategy_state {
    size_t n;
    int id[KP_CFG_MAX_RES];         /* -1: the snapshot never names it */
    bool scalar[KP_CFG_MAX_RES];
    int64_t pod[KP_CFG_MAX_RES];
    bool nonzero131;    /* NonZeroRequested as 1.31 sums it (#127878) */
};

static int
resource_id(const struct kp_snapshot *snap, const char *name)
{
    uintptr_t id = (uintptr_t)kp_strmap_get(&snap->res_ids, name);

    if (strcmp(name, "pods") == 0)
        return -1;                  /* not scored (no case of its own) */
    return id ? (int)id - 1 : -1;
}

/* calculatePodResourceRequestList */
static void *
pod_requests(const struct kp_score_nodes *f, const struct kp_res_spec *res,
             size_t n, bool nonzero)
{
    struct strategy_state *s = kp_arena_alloc(f->c->scratch, sizeof(*s));
    const struct kp_pod *p = f->c->pod;
    size_t i;

    s->n = n;
    s->nonzero131 = !kp_kube_rule_on(KP_RULE_SIDECAR_NONZERO,
                                     f->c->profile ? f->c->profile->kube_minor
                                                   : 0);
    for (i = 0; i < n; i++) {
        s->id[i] = resource_id(f->c->cl->snap, res[i].name);
        s->scalar[i] = strcmp(res[i].name, "cpu") != 0 &&
                       strcmp(res[i].name, "memory") != 0 &&
                       strcmp(res[i].name, "ephemeral-storage") != 0;
        if (nonzero && s->id[i] == KP_RES_CPU)
            s->pod[i] = p->nonzero_cpu;
        else if (nonzero && s->id[i] == KP_RES_MEMORY)
            s->pod[i] = p->nonzero_mem;
        else
            s->pod[i] = s->id[i] < 0 ? 0 : kp_resvec_get(&p->req, s->id[i]);
    }
    return s;
}

/* calculateResourceAllocatableRequest: false when not scored */
static bool
alloc_request(const struct kp_node_info *ni, const struct strategy_state *s,
              size_t i, bool nonzero, int64_t *alloc, int64_t *req)
{
    int id = s->id[i];

    if (id < 0 || (s->pod[i] == 0 && s->scalar[i]))
        return false;
    *alloc = kp_resvec_get(&ni->node->allocatable, id);
    if (*alloc == 0)
        return false;
    *req = kp_ni_used(ni, id);
    if (nonzero && (id == KP_RES_CPU || id == KP_RES_MEMORY)) {
        int64_t nz[2];

        kp_ni_nonzero_requested(ni, s->nonzero131, nz);
        *req = nz[id == KP_RES_CPU ? 0 : 1];
    }
    *req = kp_wrap_add(*req, s->pod[i]);
    return true;
}

static int64_t
resource_score(const struct kp_profile *p, int64_t req, int64_t alloc)
{
    switch (p->scoring) {
    case KP_MOST_ALLOCATED:
        return kp_most_requested_score(req, alloc);
    case KP_REQUESTED_TO_CAPACITY_RATIO:
        return kp_requested_to_capacity_ratio_score(p, req, alloc);
    case KP_LEAST_ALLOCATED:
    default:
        return kp_least_requested_score(req, alloc);
    }
}

bool
kp_fit_profile_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_profile *p = f->c->profile;

    *state = pod_requests(f, p->fit_res, p->nfit_res, true);
    return true;
}

int64_t
kp_fit_profile_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_profile *p = f->c->profile;
    const struct strategy_state *s = state;
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    int64_t node_score = 0, weight_sum = 0, alloc, req, rs;
    size_t i;

    for (i = 0; i < s->n; i++) {
        if (!alloc_request(ni, s, i, true, &alloc, &req))
            continue;
        rs = resource_score(p, req, alloc);
        /* RequestedToCapacityRatio counts only resources that score */
        if (p->scoring == KP_REQUESTED_TO_CAPACITY_RATIO && rs <= 0)
            continue;
        node_score += rs * p->fit_res[i].weight;
        weight_sum += p->fit_res[i].weight;
    }
    if (weight_sum == 0)
        return 0;
    if (p->scoring == KP_REQUESTED_TO_CAPACITY_RATIO)
        return (int64_t)llround((double)node_score / (double)weight_sum);
    return node_score / weight_sum;
}

bool
kp_ba_profile_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_profile *p = f->c->profile;
    struct strategy_state *s = pod_requests(f, p->ba_res, p->nba_res, false);
    size_t i;

    *state = s;
    for (i = 0; i < s->n; i++)
        if (s->pod[i] != 0)
            return true;
    return false;                   /* isBestEffortPod: Skip */
}

int64_t
kp_ba_profile_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct strategy_state *s = state;
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    double with[KP_CFG_MAX_RES], without[KP_CFG_MAX_RES];
    int64_t alloc, req;
    size_t i, n = 0;

    for (i = 0; i < s->n; i++) {
        double fr;

        if (!alloc_request(ni, s, i, false, &alloc, &req))
            continue;
        fr = (double)req / (double)alloc;
        with[n] = fr > 1 ? 1 : fr;
        /* the node's requests without the pod (#135573, v1.36) */
        fr = (double)kp_wrap_sub(req, s->pod[i]) / (double)alloc;
        without[n++] = fr > 1 ? 1 : fr;
    }
    if (!kp_ba_scores_change(f->c))
        return kp_balanced_resource_scorer(with, n);
    return kp_balanced_change_score(kp_balanced_resource_scorer(with, n),
                                    kp_balanced_resource_scorer(without, n));
}
