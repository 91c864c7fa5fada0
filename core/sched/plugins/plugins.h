/*
 * plugins.h - the default profile's Filter plugins, each in its folder
 * as upstream's pkg/scheduler/framework/plugins/<plugin>/ (its Score
 * plugin, score.h, beside it), and the reasons they report.
 */
#ifndef KP_PLUGINS_H
#define KP_PLUGINS_H

#include "framework.h"

extern const struct kp_plugin kp_plugin_node_unschedulable;
extern const struct kp_plugin kp_plugin_node_name;
extern const struct kp_plugin kp_plugin_taint_toleration;
extern const struct kp_plugin kp_plugin_node_affinity;
extern const struct kp_plugin kp_plugin_node_ports;
extern const struct kp_plugin kp_plugin_node_resources_fit;
/*
 * Whether NodeResourcesFit's Filter passes on ni, its reasons not made
 * (SelectVictimsOnNode's reprieve loop when it is the only plugin run).
 */
bool kp_node_resources_fits(const struct kp_cycle *c,
                            const struct kp_node_info *ni);
extern const struct kp_plugin kp_plugin_volume_restrictions;
extern const struct kp_plugin kp_plugin_node_volume_limits;
extern const struct kp_plugin kp_plugin_volume_binding;
extern const struct kp_plugin kp_plugin_volume_zone;
extern const struct kp_plugin kp_plugin_pod_topology_spread;
extern const struct kp_plugin kp_plugin_inter_pod_affinity;

#define KP_REASON_NODE_UNSCHEDULABLE "node(s) were unschedulable"
#define KP_REASON_NODE_NAME "node(s) didn't match the requested node name"
#define KP_REASON_TAINT "node(s) had untolerated taint(s)"
#define KP_REASON_NODE_AFFINITY \
    "node(s) didn't match Pod's node affinity/selector"
#define KP_REASON_AFFINITY_CONFLICT "pod affinity terms conflict"
#define KP_REASON_NODE_PORTS \
    "node(s) didn't have free ports for the requested pod ports"
#define KP_REASON_TOO_MANY_PODS "Too many pods"
#define KP_REASON_SPREAD "node(s) didn't match pod topology spread constraints"
#define KP_REASON_SPREAD_MISSING_LABEL \
    "node(s) didn't match pod topology spread constraints " \
    "(missing required label)"
#define KP_REASON_POD_AFFINITY "node(s) didn't match pod affinity rules"
#define KP_REASON_POD_ANTI_AFFINITY \
    "node(s) didn't match pod anti-affinity rules"
#define KP_REASON_EXISTING_ANTI_AFFINITY \
    "node(s) didn't satisfy existing pods anti-affinity rules"

#endif
