/*
 * registry.c - the Filter plugins of the default profile, in upstream
 * order (pkg/scheduler/framework/plugins/registry.go names them;
 * pkg/scheduler/apis/config/v1/default_plugins.go orders them).  Moved
 * verbatim from framework.c (issue 28).
 */
#include "framework.h"


/* ---- the default profile's Filter plugins, in upstream order ---- */

#include "plugins.h"

const struct kp_plugin *const kp_filter_plugins[] = {
    &kp_plugin_node_unschedulable,
    &kp_plugin_node_name,
    &kp_plugin_taint_toleration,
    &kp_plugin_node_affinity,
    &kp_plugin_node_ports,
    &kp_plugin_node_resources_fit,
    &kp_plugin_volume_restrictions,
    &kp_plugin_node_volume_limits,
    &kp_plugin_volume_binding,
    &kp_plugin_volume_zone,
    &kp_plugin_pod_topology_spread,
    &kp_plugin_inter_pod_affinity,
};

const size_t kp_nfilter_plugins =
    sizeof(kp_filter_plugins) / sizeof(kp_filter_plugins[0]);
