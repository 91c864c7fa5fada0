/*
 * model.h - what kubectl-preempt keeps of Nodes, Pods,
 * PodDisruptionBudgets, PriorityClasses and Namespaces: only what the
 * scheduler semantics read.  Everything is owned by the snapshot's arena.
 */
#ifndef KP_MODEL_H
#define KP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "labels.h"
#include "quantity.h"

/* Fixed resource ids; scalar resources get ids from KP_RES_FIRST_SCALAR. */
enum kp_res_id {
    KP_RES_CPU = 0,             /* milli-cores */
    KP_RES_MEMORY = 1,          /* bytes */
    KP_RES_EPHEMERAL = 2,       /* bytes */
    KP_RES_PODS = 3,            /* count (node allocatable only) */
    KP_RES_FIRST_SCALAR = 4
};

struct kp_res_entry {
    int id;
    int64_t value;
};

/* Sparse resource list, sorted by id, no zero entries. */
struct kp_resvec {
    size_t n;
    struct kp_res_entry *e;
};

/* A pod's requests computed one way (kp_pod.without_pod_level). */
struct kp_pod_requests {
    struct kp_resvec req;
    int64_t nonzero_cpu, nonzero_mem;
};

struct kp_taint {
    const char *key;
    const char *value;
    const char *effect;
    /*
     * TaintToleration's reason naming this taint, as kube-scheduler up to
     * v1.33 wrote it ("node(s) had untolerated taint {key: value}");
     * NULL: the generic reason.
     */
    const char *reason_kv;
};

enum kp_toleration_op {
    KP_TOL_EQUAL,
    KP_TOL_EXISTS,
    KP_TOL_OTHER        /* Lt/Gt (alpha, off by default): tolerates nothing */
};

struct kp_toleration {
    const char *key;    /* "" when empty */
    enum kp_toleration_op op;
    const char *value;  /* "" when empty */
    const char *effect; /* "" when empty: all effects */
};

struct kp_host_port {
    const char *ip;     /* "0.0.0.0" when empty */
    const char *protocol; /* "TCP" when empty */
    int32_t port;
};

enum kp_phase {
    KP_PHASE_PENDING,
    KP_PHASE_RUNNING,
    KP_PHASE_SUCCEEDED,
    KP_PHASE_FAILED,
    KP_PHASE_UNKNOWN
};

/* A pod affinity term (issue 3: InterPodAffinity). */
struct kp_affinity_term {
    struct kp_selector selector;
    size_t nnamespaces;
    const char **namespaces;
    bool has_ns_selector;
    struct kp_selector ns_selector;
    const char *topology_key;
    int32_t weight;             /* preferred terms only */
};

struct kp_spread_constraint {
    int32_t max_skew;
    const char *topology_key;
    bool do_not_schedule;       /* whenUnsatisfiable */
    struct kp_selector selector;
    int32_t min_domains;        /* 0 when unset */
    bool affinity_policy_ignore;/* nodeAffinityPolicy: Ignore */
    bool taints_policy_honor;   /* nodeTaintsPolicy: Honor */
    size_t nmatch_label_keys;
    const char **match_label_keys;
};

/*
 * A Namespace: its labels, for the namespaceSelector of pod affinity
 * terms.  index is its position in the snapshot.
 */
struct kp_namespace {
    const char *name;
    struct kp_labels labels;
    int index;
};

/*
 * A pod volume that a volume plugin reads (issue 3).  Other volume types
 * (configMap, secret, emptyDir, projected, ...) are not kept.
 */
enum kp_volume_kind {
    KP_VOL_PVC,             /* persistentVolumeClaim: id = claimName */
    KP_VOL_EPHEMERAL,       /* ephemeral: claim "<pod>-<volume name>" */
    KP_VOL_GCE_PD,          /* gcePersistentDisk: id = pdName */
    KP_VOL_AWS_EBS,         /* awsElasticBlockStore: id = volumeID */
    KP_VOL_RBD,             /* rbd: id = image, pool, monitors */
    KP_VOL_ISCSI,           /* iscsi: id = iqn */
    KP_VOL_AZURE_DISK,      /* azureDisk: id = diskURI */
    KP_VOL_CINDER,          /* cinder: id = volumeID */
    KP_VOL_PORTWORX         /* portworxVolume: id = volumeID */
};

struct kp_volume {
    const char *name;
    enum kp_volume_kind kind;
    const char *id;             /* see enum kp_volume_kind; "" when unset */
    bool read_only;
    const char *pool;           /* RBD: "rbd" when unset (API default) */
    size_t nmonitors;           /* RBD */
    const char **monitors;
};

struct kp_displaced;            /* whatif.h */
struct kp_rollout_pod;          /* rollout.h */

struct kp_pod {
    const char *ns;
    /* the Namespace object named ns; NULL when the snapshot has none */
    const struct kp_namespace *ns_obj;
    const char *name;
    const char *uid;
    const char *source;         /* file it came from */
    struct kp_labels labels;
    const char *node_name;      /* NULL when unbound */
    const char *nominated_node; /* NULL when none */
    const char *scheduler_name;
    const char *priority_class;
    int32_t priority;           /* resolved */
    bool has_spec_priority;
    bool preempt_never;         /* resolved preemptionPolicy == Never */
    bool has_spec_preemption_policy;
    enum kp_phase phase;
    bool deleting;              /* metadata.deletionTimestamp set */
    bool preemption_target;     /* DisruptionTarget True by scheduler */
    bool ready;                 /* condition Ready is True (IsPodReady) */
    bool has_start_time;
    int64_t start_time;         /* ns since epoch */
    int64_t creation_time;      /* ns since epoch */
    bool has_creation_time;     /* metadata.creationTimestamp was set */
    /*
     * condition PodScheduled True: its lastTransitionTime (when it was
     * bound; explain's replay leaves out pods bound after a preemption)
     */
    int64_t scheduled_time;     /* ns since epoch */
    bool has_scheduled_time;
    size_t nscheduling_gates;
    struct kp_resvec req;       /* effective request (fit.go) */
    /* for scoring: requests with 100m / 200Mi for a container without */
    int64_t nonzero_cpu, nonzero_mem;
    /*
     * the same as 1.31 adds it to its node's NonZeroRequested (sidecars
     * left out of the sum, kubernetes/kubernetes#127878 changed that in
     * 1.32): KP_RULE_SIDECAR_NONZERO
     */
    int64_t nonzero131_cpu, nonzero131_mem;
    /*
     * req and nonzero_* as older releases compute them, NULL where they
     * are the same: before_134 without pod-level requests (spec.resources;
     * PodLevelResources is on by default from v1.34), before_133 from the
     * containers' spec alone, not the larger resources their status shows
     * during an in-place resize (InPlacePodVerticalScaling, on by default
     * from v1.33).
     */
    const struct kp_pod_requests *before_134, *before_133;
    /*
     * req and nonzero_* as v1.38 computes them, NULL where the same: a
     * quantity past int64 saturates there (#141305); req is what 1.31-1.37
     * compute, where Value() and MilliValue() overflow.
     */
    const struct kp_pod_requests *from_138;
    size_t ntolerations;
    struct kp_toleration *tolerations;
    /* a set of tolerations when there are many (toleration_index.h) */
    const struct kp_tol_index *tol_index;
    struct kp_labels node_selector;
    struct kp_node_selector required_node_affinity; /* is_null if none */
    size_t npreferred_node_affinity;
    struct kp_node_selector_term *preferred_node_affinity;
    int32_t *preferred_node_affinity_weight;
    size_t nhost_ports;
    /*
     * how many of host_ports, at their start, are restartable init
     * containers' (sidecars'): NodePorts reads them from v1.33
     * (kubernetes/kubernetes#132040, cherry-picked as #133390), not before
     */
    size_t nsidecar_host_ports;
    struct kp_host_port *host_ports;
    size_t naffinity, nanti_affinity, npref_affinity, npref_anti_affinity;
    struct kp_affinity_term *affinity, *anti_affinity;
    struct kp_affinity_term *pref_affinity, *pref_anti_affinity;
    size_t nspread;
    struct kp_spread_constraint *spread;
    size_t nimages;             /* container images, for ImageLocality */
    const char **images;
    /* ---- read only by scoring (decode_score.c) ---- */
    size_t ncontainers;         /* init + app containers (ImageLocality) */
    /* spec.volumes[].image.reference (ImageLocality from v1.36) */
    size_t nimage_volumes;
    const char **image_volumes;
    const char *controller_kind;/* ownerReferences[controller].kind */
    const char *controller_api; /* its apiVersion ("apps/v1") */
    const char *controller_name;/* its name */
    bool uses_volumes;          /* has PVC or ephemeral volumes */
    size_t nvolumes;            /* the volumes kept (struct kp_volume) */
    struct kp_volume *volumes;
    bool from_add;              /* came from --add (issue 5) */
    /* node what-if (issue 19, whatif.h) */
    bool mirror;                /* annotation kubernetes.io/config.mirror */
    bool local_storage;         /* has an emptyDir volume */
    bool from_added_node;       /* DaemonSet pod of an --add-node copy */
    struct kp_displaced *displaced;     /* recreated by a drain/removal */
    /*
     * "namespace/name" of the pod this one is created in place of (a
     * rolled pod of an updated workload: the old pod of its workload,
     * rollout.h), else NULL: the what-if's baseline matches it to that
     * pod (core/whatif/baseline.h).
     */
    char *replaces;
    struct kp_rollout_pod *rollout;     /* a pod a rollout creates */
    /* its schedulerName is a profile of the configuration (config.h) */
    bool in_profile;
    size_t npdbs;               /* PDBs protecting the pod (kp_pdb_matches) */
    int *pdbs;                  /* their indexes in the snapshot */
    int index;                  /* position in the snapshot */
};

struct kp_image {
    const char *name;
    int64_t size;
};

struct kp_node {
    const char *name;
    const char *source;
    struct kp_labels labels;
    bool unschedulable;
    size_t ntaints;
    struct kp_taint *taints;
    struct kp_resvec allocatable;
    /*
     * allocatable as v1.38 reads it, NULL where the same: a quantity past
     * int64 saturates there (kubernetes/kubernetes#141305); allocatable is
     * what 1.31-1.37 read (Value() and MilliValue() overflow).
     */
    const struct kp_resvec *allocatable_138;
    size_t nimages;
    struct kp_image *images;
    int index;
    /* minor of status.nodeInfo.kubeletVersion ("v1.34.2": 34), or -1 */
    int kubelet_minor;
    /*
     * status.declaredFeatures sorted and joined by ','; NULL when the
     * node declares none (NodeDeclaredFeatures is not simulated: the
     * sets are compared to warn when they differ)
     */
    const char *declared_features;
};

struct kp_pdb {
    const char *ns;
    const char *name;
    struct kp_selector selector;
    int32_t disruptions_allowed;
    size_t ndisrupted;
    const char **disrupted;     /* pod names in status.disruptedPods */
    /*
     * Read by the Eviction API only (issue 24, whatif.c): status
     * currentHealthy and desiredHealthy, and spec.unhealthyPodEviction-
     * Policy AlwaysAllow (else IfHealthyBudget, the default).
     */
    int32_t current_healthy, desired_healthy;
    /*
     * status.expectedPods (has_expected_pods when set): explain's replay
     * tells by it a status written before a preemption (issue 26)
     */
    int32_t expected_pods;
    bool has_expected_pods;
    bool unhealthy_always_allow;
    /*
     * --kube-version 1.38: an empty selector ({}) matches every pod of
     * the namespace (kubernetes/kubernetes #141785); before, none.
     */
    bool empty_selector_matches_all;
    /*
     * spec.minAvailable / spec.maxUnavailable (an IntOrString: a count, or
     * "N%" with pct set); kind 0 when neither is set.  Read by explain to
     * recompute a past budget from the pods (issue 26).
     */
    int budget_kind;            /* 0, 'm' minAvailable, 'u' maxUnavailable */
    int32_t budget_value;
    bool budget_pct;
};

struct kp_priority_class {
    const char *name;
    int32_t value;
    bool global_default;
    bool preempt_never;
};

/* ---- storage objects (issue 3: the volume plugins) ---- */

/* PersistentVolumeAccessMode bits */
#define KP_AM_RWO 1u            /* ReadWriteOnce */
#define KP_AM_ROX 2u            /* ReadOnlyMany */
#define KP_AM_RWX 4u            /* ReadWriteMany */
#define KP_AM_RWOP 8u           /* ReadWriteOncePod */

enum kp_claim_phase {
    KP_CLAIM_PENDING,
    KP_CLAIM_BOUND,
    KP_CLAIM_LOST
};

struct kp_pvc {
    const char *ns;
    const char *name;
    const char *uid;
    const char *source;
    const char *volume_name;    /* spec.volumeName; NULL when empty */
    /* GetPersistentVolumeClaimClass: beta annotation, else the spec */
    const char *storage_class;  /* "" when none */
    unsigned access_modes;      /* KP_AM_* */
    enum kp_claim_phase phase;
    bool deleting;              /* metadata.deletionTimestamp set */
    bool bind_completed;        /* annotation pv.kubernetes.io/bind-completed */
    const char *selected_node;  /* annotation volume.kubernetes.io/
                                   selected-node; NULL when absent */
    const char *owner_uid;      /* the controller ownerReference's uid */
    struct kp_quantity request; /* spec.resources.requests.storage (0) */
    struct kp_selector selector;        /* spec.selector (is_null: none) */
    bool block;                 /* spec.volumeMode: Block */
    const char *vac;            /* spec.volumeAttributesClassName or "" */
    int index;
};

/* A PersistentVolume source, as far as the plugins read it. */
enum kp_pv_source {
    KP_PV_OTHER,                /* hostPath, local, nfs, ...: not counted */
    KP_PV_CSI,                  /* csi: driver, volumeHandle */
    KP_PV_GCE_PD,               /* id = pdName */
    KP_PV_AWS_EBS,              /* id = volumeID */
    KP_PV_AZURE_DISK,           /* id = diskURI */
    KP_PV_CINDER,               /* id = volumeID */
    KP_PV_PORTWORX              /* id = volumeID */
};

struct kp_pv {
    const char *name;
    const char *source_file;
    struct kp_labels labels;
    bool deleting;
    const char *storage_class;  /* GetPersistentVolumeClass; "" none */
    unsigned access_modes;
    struct kp_quantity capacity;        /* spec.capacity.storage (0) */
    bool has_claim_ref;
    const char *claim_ns, *claim_name, *claim_uid;  /* "" when unset */
    bool block;
    const char *vac;
    struct kp_node_selector node_affinity;  /* spec.nodeAffinity.required */
    enum kp_pv_source kind;
    const char *driver;         /* csi.driver */
    const char *id;             /* csi.volumeHandle or the in-tree id */
    bool available;             /* status.phase == Available */
    int index;
};

enum kp_binding_mode {
    KP_BINDING_IMMEDIATE,
    KP_BINDING_WAIT_FOR_FIRST_CONSUMER
};

/* One allowedTopologies term: the AND of key In values. */
struct kp_topology_term {
    size_t nexprs;
    struct kp_requirement *exprs;   /* op KP_OP_IN */
    bool invalid;                   /* an expression without values */
};

struct kp_storage_class {
    const char *name;
    bool is_default;            /* is-default-class annotation "true" */
    int64_t creation_time;      /* ns since the epoch */
    const char *provisioner;
    enum kp_binding_mode binding_mode;
    size_t nallowed;
    struct kp_topology_term *allowed;   /* allowedTopologies */
};

struct kp_csi_driver_info {
    const char *name;
    const char *node_id;
    bool has_count;
    int32_t count;              /* allocatable.count */
    size_t ntopology_keys;
    const char **topology_keys;
};

struct kp_csinode {
    const char *name;
    size_t ndrivers;
    struct kp_csi_driver_info *drivers;
};

/*
 * An object helper.DefaultSelector reads for PodTopologySpread's system
 * default spreading (podtopologyspread/common.go buildDefaultConstraints):
 * a Service or a ReplicationController, whose spec.selector is a label
 * map (has_map false: nil), or a ReplicaSet or StatefulSet, whose
 * spec.selector is a LabelSelector.
 */
enum kp_spread_source_kind {
    KP_SRC_SERVICE,
    KP_SRC_REPLICATION_CONTROLLER,
    KP_SRC_REPLICA_SET,
    KP_SRC_STATEFUL_SET
};

struct kp_spread_source {
    enum kp_spread_source_kind kind;
    const char *ns, *name;
    bool has_map;               /* Service, ReplicationController */
    struct kp_labels map;
    struct kp_selector sel;     /* ReplicaSet, StatefulSet */
};

#endif
