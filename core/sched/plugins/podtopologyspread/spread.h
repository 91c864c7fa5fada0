/*
 * spread.h - pkg/scheduler/framework/plugins/podtopologyspread/common.go
 * (common.c) shared by PodTopologySpread's Filter (filtering.c) and Score
 * (scoring.c): the parsed constraint, getConstraints
 * with the system default constraints, node inclusion policies and pod
 * counting.
 *
 * System default constraints (hostname maxSkew 3, zone maxSkew 5, both
 * ScheduleAnyway) apply to a pod without constraints of its own whose
 * DefaultSelector (the Services selecting it, its ReplicationController,
 * ReplicaSet or StatefulSet) is not empty: built from those objects
 * when the input has any (snapshot has_spread_input; common.c
 * default_selector).  An input without any of them (only pods and nodes
 * dumped) cannot say: then a pod whose controller ownerReference is a
 * ReplicaSet, ReplicationController or StatefulSet gets the defaults
 * with its own labels as the selector, minus the per-pod and
 * per-revision labels a StatefulSet adds (statefulset.kubernetes.io/
 * pod-name, apps.kubernetes.io/pod-index, controller-revision-hash),
 * standing in for the controller's selector that helper.DefaultSelector
 * (pkg/scheduler/framework/plugins/helper/spread.go) would read from the
 * controller's object: a ReplicaSet, ReplicationController or
 * StatefulSet selects its pods by their template's labels (the README
 * says which objects to dump).
 */
#ifndef KP_SPREAD_H
#define KP_SPREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "framework.h"

#define KP_LABEL_HOSTNAME "kubernetes.io/hostname"
#define KP_LABEL_ZONE "topology.kubernetes.io/zone"

/* topologySpreadConstraint: the internal, parsed form. */
struct kp_spread_tsc {
    int32_t max_skew;
    const char *topology_key;
    struct kp_selector selector;    /* labelSelector + matchLabelKeys */
    int32_t min_domains;            /* 1 when unset */
    bool affinity_honor;            /* nodeAffinityPolicy (Honor) */
    bool taints_honor;              /* nodeTaintsPolicy (Ignore) */
};

/*
 * getConstraints for one action (DoNotSchedule when hard): the pod's own
 * constraints with that action, or the system defaults when it has none.
 * Returns -1 with *err set (Go's error text) when a labelSelector does
 * not parse.  Memory from a.
 */
struct kp_profile;
/*
 * The same for a profile (NULL: the default one): PodTopologySpreadArgs
 * List defaulting replaces the system defaults by its own.
 */
int kp_spread_get_constraints_profile(struct kp_arena *a,
                                      const struct kp_snapshot *snap,
                                      const struct kp_pod *p, bool hard,
                                      const struct kp_profile *prof,
                                      struct kp_spread_tsc **out, size_t *n,
                                      const char **err);
int kp_spread_get_constraints(struct kp_arena *a, const struct kp_pod *p,
                              bool hard, struct kp_spread_tsc **out,
                              size_t *n, const char **err);
/* nodeLabelsMatchSpreadConstraints: the node has every topology key. */
bool kp_spread_node_has_keys(const struct kp_node *node,
                             const struct kp_spread_tsc *c, size_t n);
/* topologySpreadConstraint.matchNodeInclusionPolicies */
bool kp_spread_match_inclusion(const struct kp_spread_tsc *c,
                               const struct kp_pod *p,
                               const struct kp_node *node);
/*
 * countPodsMatchSelector: pods of ni in namespace ns, not terminating,
 * matching s; 0 for an empty selector.
 */
int64_t kp_spread_count_matching(const struct kp_node_info *ni,
                                 const struct kp_selector *s,
                                 const char *ns);

#endif
