/*
 * config.h - the scheduler a cluster really runs: a
 * KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) read,
 * defaulted, merged with the default plugins and validated as
 * kube-scheduler does, turned into one kp_profile per schedulerName.
 *
 * Mirrors pkg/scheduler/apis/config/v1/defaults.go,
 * pkg/scheduler/apis/config/v1/default_plugins.go (getDefaultPlugins,
 * mergePlugins, mergePluginSet), pkg/scheduler/apis/config/validation/
 * (validation.go, validation_pluginargs.go) and the plugin list building
 * of pkg/scheduler/framework/runtime/framework.go (updatePluginList,
 * expandMultiPointPlugins, getScoreWeights).
 */
#ifndef KP_CONFIG_H
#define KP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "error.h"
#include "labels.h"

#define KP_CFG_MAX_FILTERS 16       /* >= kp_cfg_nsim_filters */
#define KP_CFG_MAX_SCORES 8         /* >= kp_cfg_nsim_scores */
/*
 * framework.MaxNodeScore (pkg/scheduler/framework/interface.go): here,
 * below the framework, because the weights' validation reads it too.
 */
#define KP_MAX_NODE_SCORE 100
#define KP_CFG_MAX_RES 16
#define KP_CFG_MAX_SHAPE 16

enum kp_scoring_type {
    KP_LEAST_ALLOCATED,
    KP_MOST_ALLOCATED,
    KP_REQUESTED_TO_CAPACITY_RATIO
};

/* ResourceSpec */
struct kp_res_spec {
    const char *name;
    int64_t weight;
};

/* UtilizationShapePoint */
struct kp_shape_point {
    int64_t utilization, score;
};

/* A PodTopologySpreadArgs defaultConstraints entry (List defaulting). */
struct kp_pts_default {
    const char *topology_key;
    int32_t max_skew, min_domains;
    bool hard;                      /* whenUnsatisfiable: DoNotSchedule */
    bool affinity_honor, taints_honor;
};

/* One profile, as the simulation reads it. */
struct kp_profile {
    const char *scheduler_name;
    /* by kp_filter_plugins index: PreFilter and Filter enabled */
    bool pre_filter_on[KP_CFG_MAX_FILTERS];
    bool filter_on[KP_CFG_MAX_FILTERS];
    /* by kp_score_plugins index: the weight, 0 when not scored */
    int64_t score_weight[KP_CFG_MAX_SCORES];
    bool default_preemption;        /* PostFilter DefaultPreemption */
    bool dra_post_filter;           /* PostFilter DynamicResources */
    /* profile's percentageOfNodesToScore, else the global one; 0: adaptive */
    int percentage_of_nodes_to_score;
    /* DefaultPreemptionArgs */
    int min_candidate_nodes_percentage, min_candidate_nodes_absolute;
    /* NodeResourcesFitArgs */
    enum kp_scoring_type scoring;
    const char *scoring_name;       /* as written; checked by NewFit */
    bool has_rtcr;                  /* requestedToCapacityRatio given */
    size_t nfit_res;
    struct kp_res_spec fit_res[KP_CFG_MAX_RES];
    size_t nshape;
    struct kp_shape_point shape[KP_CFG_MAX_SHAPE];
    size_t nignored, nignored_groups;
    const char **ignored, **ignored_groups;
    /* NodeResourcesBalancedAllocationArgs */
    size_t nba_res;
    struct kp_res_spec ba_res[KP_CFG_MAX_RES];
    /* InterPodAffinityArgs */
    int64_t hard_pod_affinity_weight;
    bool ignore_preferred_terms_of_existing_pods;
    /*
     * PodTopologySpreadArgs defaultingType List: its defaultConstraints
     * replace the system defaults (none when the list is empty).
     */
    bool pts_list_defaulting, has_added_affinity;
    size_t npts_defaults;
    const struct kp_pts_default *pts_defaults;
    /*
     * NodeAffinityArgs addedAffinity: the required node selector every
     * node must match too (is_null: none), and the preferred terms with
     * their weights, scored with the pod's own.
     */
    struct kp_node_selector added_required;
    size_t nadded_pref;
    const struct kp_node_selector_term *added_pref;
    const int64_t *added_pref_weight;
    /*
     * Whether fit and balanced allocation score exactly as the default
     * (LeastAllocated, cpu and memory weight 1): the built-in code runs.
     */
    bool fit_default, ba_default;
    /* VolumeBindingArgs has a shape (StorageCapacityScoring, v1.37+) */
    bool vb_shape;
    /*
     * The minor replayed (--kube-version or detected; 0: the default,
     * 1.37).
     * Before 1.34 a request above the node's allocatable is Unschedulable,
     * not UnschedulableAndUnresolvable, and DynamicResources is off.
     */
    int kube_minor;
};

struct kp_sched_config {
    struct kp_arena arena;
    const char *file;               /* --config FILE, or NULL */
    const char *profile_label;      /* --profile NAME, or NULL */
    size_t nprofiles;
    struct kp_profile *profiles;
    /* warnings for every report (e.g. unknown plugins left out) */
    size_t nwarnings;
    const char **warnings;
};

/*
 * Read a configuration from a YAML or JSON text (name: for messages);
 * ignore_unknown drops out-of-tree plugins with a warning instead of
 * failing.  cfg is initialised here; kp_sched_config_release frees it,
 * also after a failure.
 */
int kp_sched_config_parse(struct kp_sched_config *cfg, const char *name,
                          const char *text, size_t len, bool ignore_unknown,
                          struct kp_error *err);
/* The same from a file. */
int kp_sched_config_load(struct kp_sched_config *cfg, const char *path,
                         bool ignore_unknown, struct kp_error *err);
/* OpenShift's profile (LowNodeUtilization, HighNodeUtilization, NoScoring). */
int kp_sched_config_openshift(struct kp_sched_config *cfg, const char *name,
                              struct kp_error *err);
void kp_sched_config_release(struct kp_sched_config *cfg);

/* The profile for schedulerName, or NULL. */
const struct kp_profile *
kp_sched_config_profile(const struct kp_sched_config *cfg, const char *name);

/* numFeasibleNodesToFind with percentage (0: adaptive). */
size_t kp_num_feasible_nodes_pct(size_t nall, int percentage);

#endif
