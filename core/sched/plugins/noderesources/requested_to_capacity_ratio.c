/*
 * requested_to_capacity_ratio.c - mirrors pkg/scheduler/framework/
 * plugins/noderesources/requested_to_capacity_ratio.go
 * (buildRequestedToCapacityRatioScorerFunction) for NodeResourcesFit's
 * RequestedToCapacityRatio strategy (resource_allocation.c), with
 * BuildBrokenLinearFunction of pkg/scheduler/framework/plugins/helper/
 * shape_score.go (its only user here).
 */
#include <stdint.h>

#include "config.h"
#include "resource_allocation.h"
#include "score.h"

#define MAX_UTILIZATION 100
#define MAX_CUSTOM_PRIORITY_SCORE 10

/* helper.BuildBrokenLinearFunction over the shape scaled to 0..100 */
static int64_t
broken_linear(const struct kp_profile *p, int64_t x)
{
    size_t i;

    for (i = 0; i < p->nshape; i++) {
        int64_t u = p->shape[i].utilization;
        int64_t sc = p->shape[i].score * (KP_MAX_NODE_SCORE /
                                          MAX_CUSTOM_PRIORITY_SCORE);

        if (x <= u) {
            int64_t pu, ps;

            if (i == 0)
                return sc;
            pu = p->shape[i - 1].utilization;
            ps = p->shape[i - 1].score * (KP_MAX_NODE_SCORE /
                                          MAX_CUSTOM_PRIORITY_SCORE);
            return ps + (sc - ps) * (x - pu) / (u - pu);
        }
    }
    return p->shape[p->nshape - 1].score *
           (KP_MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE);
}

/* the shape's score at req / alloc, in percent; alloc > 0 */
int64_t
kp_requested_to_capacity_ratio_score(const struct kp_profile *p, int64_t req,
                                     int64_t alloc)
{
    if (req > alloc)
        return broken_linear(p, MAX_UTILIZATION);
    return broken_linear(p, (int64_t)((uint64_t)req * MAX_UTILIZATION) /
                            alloc);
}
