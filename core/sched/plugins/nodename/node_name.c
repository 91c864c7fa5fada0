/*
 * node_name.c - mirrors pkg/scheduler/framework/plugins/nodename/
 * node_name.go: a pod naming a node fits only that node.
 */
#include <string.h>

#include "plugins.h"

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    (void)idx;
    if (!c->pod->node_name || strcmp(c->pod->node_name, ni->node->name) == 0)
        return kp_status_ok();
    return kp_status_new(KP_UNRESOLVABLE, KP_REASON_NODE_NAME);
}

const struct kp_plugin kp_plugin_node_name = {
    .name = "NodeName",
    .node_static = true,
    .filter = filter,
};
