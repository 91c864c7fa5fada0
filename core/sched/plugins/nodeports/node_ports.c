/*
 * node_ports.c - mirrors pkg/scheduler/framework/plugins/nodeports/
 * node_ports.go: a wanted (ip, protocol, port) against the node's
 * UsedPorts (HostPortInfo of pkg/scheduler/framework/types.go, kept in
 * the NodeInfo by framework.c: a set, so a port two pods declare is
 * free once either is removed, as upstream's).
 */

#include "plugins.h"

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    (void)idx;
    if (c->pod->nhost_ports == 0)
        return kp_status_new(KP_SKIP, NULL);
    return kp_status_ok();
}

/* fitsPorts: the node's UsedPorts (a set, framework.h) */
static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    size_t k;

    (void)idx;
    for (k = 0; k < c->pod->nhost_ports; k++)
        if (kp_port_set_conflict(&ni->ports, &c->pod->host_ports[k]))
            return kp_status_new(KP_UNSCHEDULABLE, KP_REASON_NODE_PORTS);
    return kp_status_ok();
}

const struct kp_plugin kp_plugin_node_ports = {
    .name = "NodePorts",
    .pre_filter = pre_filter,
    .filter = filter,
};
