/*
 * most_allocated.c - mirrors pkg/scheduler/framework/plugins/
 * noderesources/most_allocated.go (mostRequestedScore) for
 * NodeResourcesFit's MostAllocated strategy (resource_allocation.c).
 */
#include <stdint.h>

#include "resource_allocation.h"
#include "score.h"

/* mostRequestedScore; alloc > 0 */
int64_t
kp_most_requested_score(int64_t req, int64_t alloc)
{
    if (req > alloc)
        req = alloc;
    return (int64_t)((uint64_t)req * KP_MAX_NODE_SCORE) / alloc;
}
