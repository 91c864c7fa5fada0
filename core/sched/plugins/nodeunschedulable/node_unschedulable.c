/*
 * node_unschedulable.c - mirrors
 * pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go:
 * an unschedulable node only takes pods that tolerate the
 * node.kubernetes.io/unschedulable:NoSchedule taint.
 */
#include "corev1.h"
#include "plugins.h"

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    static const struct kp_taint taint = {
        "node.kubernetes.io/unschedulable", "", "NoSchedule", NULL};

    (void)idx;
    if (!ni->unschedulable || kp_tolerates_any(c->pod, &taint))
        return kp_status_ok();
    return kp_status_new(KP_UNRESOLVABLE, KP_REASON_NODE_UNSCHEDULABLE);
}

const struct kp_plugin kp_plugin_node_unschedulable = {
    .name = "NodeUnschedulable",
    .node_static = true,
    .filter = filter,
};
