/*
 * node_ports.c - mirrors pkg/scheduler/framework/plugins/nodeports/
 * node_ports.go and HostPortInfo of pkg/scheduler/framework/types.go:
 * a wanted (ip, protocol, port) conflicts with a used one on the same
 * protocol and port when either IP is 0.0.0.0 or both are equal.
 */
#include <string.h>

#include "plugins.h"

static bool
conflict(const struct kp_host_port *a, const struct kp_host_port *b)
{
    if (a->port != b->port || strcmp(a->protocol, b->protocol) != 0)
        return false;
    return strcmp(a->ip, "0.0.0.0") == 0 || strcmp(b->ip, "0.0.0.0") == 0 ||
           strcmp(a->ip, b->ip) == 0;
}

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    (void)idx;
    if (c->pod->nhost_ports == 0)
        return kp_status_new(KP_SKIP, NULL);
    return kp_status_ok();
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    size_t i, j, k;

    (void)idx;
    for (i = 0; i < ni->npods; i++) {
        const struct kp_pod *q = ni->pods[i];

        for (j = 0; j < q->nhost_ports; j++)
            for (k = 0; k < c->pod->nhost_ports; k++)
                if (conflict(&q->host_ports[j], &c->pod->host_ports[k]))
                    return kp_status_new(KP_UNSCHEDULABLE,
                                         KP_REASON_NODE_PORTS);
    }
    return kp_status_ok();
}

const struct kp_plugin kp_plugin_node_ports = {
    .name = "NodePorts",
    .pre_filter = pre_filter,
    .filter = filter,
};
