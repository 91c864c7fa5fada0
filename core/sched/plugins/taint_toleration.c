/*
 * taint_toleration.c - mirrors pkg/scheduler/framework/plugins/
 * tainttoleration/taint_toleration.go (Filter): every NoSchedule and
 * NoExecute taint must be tolerated; the first one that is not is the
 * reason.
 */
#include <string.h>

#include "config.h"
#include "plugins.h"

/*
 * Up to v1.33 the reason named the taint: "node(s) had untolerated taint
 * {key: value}".  kubernetes/kubernetes#134740 (v1.35.0, cherry-picked
 * into a v1.34 patch release of November 2025, #135023) replaced it by
 * the generic text, so that taints stay out of pod statuses.
 */
static bool
old_reason(const struct kp_cycle *c)
{
    return c->profile && c->profile->kube_minor > 0 &&
           c->profile->kube_minor < 34;
}

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
            return kp_status_new(KP_UNRESOLVABLE, old_reason(c) && t->reason_kv
                                 ? t->reason_kv : KP_REASON_TAINT);
    }
    return kp_status_ok();
}

const struct kp_plugin kp_plugin_taint_toleration = {
    .name = "TaintToleration",
    .node_static = true,
    .filter = filter,
};
