/*
 * taint_toleration.c - mirrors pkg/scheduler/framework/plugins/
 * tainttoleration/taint_toleration.go (Filter): every NoSchedule and
 * NoExecute taint must be tolerated.
 */
#include <string.h>

#include "plugins.h"

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    size_t i;

    (void)idx;
    for (i = 0; i < ni->ntaints; i++) {
        const struct kp_taint *t = &ni->node->taints[i];

        if (strcmp(t->effect, "NoSchedule") != 0 &&
            strcmp(t->effect, "NoExecute") != 0)
            continue;
        if (!kp_tolerates_any(c->pod, t))
            return kp_status_new(KP_UNRESOLVABLE, KP_REASON_TAINT);
    }
    return kp_status_ok();
}

const struct kp_plugin kp_plugin_taint_toleration = {
    .name = "TaintToleration",
    .node_static = true,
    .filter = filter,
};
