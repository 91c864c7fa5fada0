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
/*
 * kp_node_resources_fits made once for the copies of one NodeInfo (the
 * same resource slots and allocatable; only the pod count and requested
 * row change): the pod's requests read, looked up and filtered once.
 * ok false (a request without a slot, or too many): not made, ask
 * kp_node_resources_fits.
 */
#define KP_FIT_PLAN_MAX 8
struct kp_fit_plan {
    bool ok;
    int64_t pods;               /* allocatable pods */
    size_t n;
    int slot[KP_FIT_PLAN_MAX];
    int64_t want[KP_FIT_PLAN_MAX], alloc[KP_FIT_PLAN_MAX];
};
void kp_node_resources_fit_plan(const struct kp_cycle *c,
                                const struct kp_node_info *ni,
                                struct kp_fit_plan *plan);

/* kp_node_resources_fits on a copy of the plan's NodeInfo */
static inline bool
kp_node_resources_fits_planned(const struct kp_fit_plan *plan,
                               const struct kp_node_info *ni)
{
    size_t i;

    if ((int64_t)ni->npods + 1 > plan->pods)
        return false;
    for (i = 0; i < plan->n; i++)
        if (plan->want[i] > kp_wrap_sub(plan->alloc[i],
                                        ni->used[plan->slot[i]]))
            return false;
    return true;
}
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
