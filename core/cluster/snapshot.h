/*
 * snapshot.h - the cluster state one analysis reads: nodes, pods, PDBs,
 * PriorityClasses, Namespaces and what the volume plugins read (PVCs, PVs,
 * StorageClasses, CSINodes), loaded from kubectl's JSON or YAML (-f) or
 * from the API server (core/live), with name indexes, the resource-name
 * registry and priority resolution.  This is what the scheduler's
 * informers would hold; upstream's Snapshot (NodeInfos by node) is
 * struct kp_cluster of framework.h, built from it.
 *
 * Mirrors plugin/pkg/admission/priority/admission.go for priorities and
 * pkg/scheduler/scheduler.go / eventhandlers.go for which pods count.
 * kp_snapshot_release() frees everything (one arena).
 */
#ifndef KP_SNAPSHOT_H
#define KP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "error.h"
#include "model.h"
#include "strmap.h"

#define KP_MAX_JSON_DEPTH 64

struct kp_event;                    /* event.h */

struct kp_snapshot {
    struct kp_arena arena;
    struct kp_node **nodes;
    size_t nnodes, capnodes;
    struct kp_pod **pods;
    size_t npods, cappods;
    struct kp_pdb **pdbs;
    size_t npdbs, cappdbs;
    struct kp_priority_class **pcs;
    size_t npcs, cappcs;
    /*
     * After kp_snapshot_finish(): the class admission gives a pod that
     * names none and has no spec.priority (the globalDefault class with
     * the lowest value), or NULL (priority 0).
     */
    const struct kp_priority_class *default_class;
    struct kp_namespace **namespaces;
    size_t nnamespaces, capnamespaces;
    /*
     * Quantities past int64 (kp_decode_resources): read as Value() and
     * MilliValue() overflow before v1.38 (kp_quantity_value_wrap), or as
     * they saturate from v1.38 (quantity_saturate); quantity_wraps is set
     * when a quantity read gives the two different results, so that the
     * decoder keeps the other reading too (kp_pod.from_138,
     * kp_node.allocatable_138).
     */
    bool quantity_saturate, quantity_wraps;
    /* resource registry: id -> name, id -> "Insufficient <name>" */
    const char **res_names;
    const char **res_reasons;
    size_t nres, capres;
    struct kp_strmap res_ids;       /* name -> id + 1 */
    struct kp_strmap node_index;    /* name -> node */
    struct kp_strmap pod_index;     /* "ns/name" -> pod */
    struct kp_strmap pdb_index;
    struct kp_strmap pc_index;      /* name -> class */
    struct kp_strmap ns_index;      /* name -> namespace */
    /* storage (issue 3): PVCs by "ns/name", the others by name */
    struct kp_pvc **pvcs;
    size_t npvcs, cappvcs;
    struct kp_pv **pvs;
    size_t npvs, cappvs;
    struct kp_storage_class **scs;
    size_t nscs, capscs;
    struct kp_csinode **csinodes;
    size_t ncsinodes, capcsinodes;
    struct kp_strmap pvc_index;
    struct kp_strmap pv_index;
    struct kp_strmap sc_index;
    struct kp_strmap csinode_index;
    /*
     * Services, ReplicationControllers, ReplicaSets and StatefulSets
     * (helper.DefaultSelector), by "<kind>/<ns>/<name>"; has_spread_input
     * has bit 1 << kind set when the input carries objects of that kind
     * (or a typed List of it, even empty): without any, the pod's own
     * labels stand in (spread.h); without its controller's kind, for the
     * controller's part.
     */
    struct kp_spread_source **srcs;
    size_t nsrcs, capsrcs;
    struct kp_strmap src_index;
    unsigned has_spread_input;
    /* live: one of their lists was refused: the own-labels rule */
    bool spread_refused;
    /*
     * Several -f files or a directory (issue 29): an object found twice
     * is merged when identical, refused when not (snapshot.c,
     * merge_duplicate); seen keeps each object's first file and a hash
     * of its contents.
     */
    bool merge_duplicates;
    struct kp_strmap seen;
    unsigned nfiles_read;           /* files read so far: which one */
    /*
     * The input carries PVCs: a PersistentVolumeClaim object or a
     * PersistentVolumeClaimList (even empty, as the API returns it).
     * Without them the PVC and ephemeral volumes of pods are left out
     * of every volume plugin (kp_snapshot_volumes_evaluated()).
     */
    bool has_pvc_input;
    /* live: a storage list was refused; volumes are not evaluated */
    bool storage_refused;
    /* minor of the live API server's /version (1.36: 36), or 0 */
    int server_minor;
    /*
     * Its gitVersion ("v1.36.2"; "v1.36" when it names none), or NULL:
     * --snapshot-out records it.  server_minor_recorded: read back from
     * a snapshot written so (SERVER_VERSION_ANNOTATION on the List).
     */
    const char *server_version;
    bool server_minor_recorded;
    size_t nunknown_kinds;
    size_t ndocuments;
    /* --add of workloads that already run (rollout.h), NULL if none */
    struct kp_rollout_set *rollouts;
    /* warnings for stderr; the caller prints them */
    char **warnings;
    size_t nwarnings, capwarnings;
    /* after kp_snapshot_finish(): pods bound to each node, by node index */
    const struct kp_pod ***node_pods;
    size_t *node_npods;
    bool finished;
    /* Preempted Events and DisruptionTarget conditions (explain.h) */
    struct kp_event **events;
    size_t nevents, capevents;
};

void kp_snapshot_init(struct kp_snapshot *s);
void kp_snapshot_release(struct kp_snapshot *s);

/*
 * A point to roll back to: what was loaded after kp_snapshot_mark()
 * (objects of every kind, their names in the indexes, resource names,
 * Events, warnings, counters) is dropped by kp_snapshot_rollback(), as
 * if it had never been loaded.  Before kp_snapshot_finish() only.
 */
struct kp_snapshot_mark {
    size_t nnodes, npods, npdbs, npcs, nnamespaces, npvcs, npvs, nscs;
    size_t ncsinodes, nevents, nwarnings, nres, nunknown_kinds;
    size_t ndocuments;
    bool has_pvc_input;
    size_t nsrcs;
    unsigned has_spread_input;
};
void kp_snapshot_mark(const struct kp_snapshot *s,
                      struct kp_snapshot_mark *m);
void kp_snapshot_rollback(struct kp_snapshot *s,
                          const struct kp_snapshot_mark *m);

/*
 * What core/whatif/ changes, before kp_snapshot_finish(): append a pod
 * (its index set, in the pod index by "ns/name") or a node (in the node
 * index); drop the pods marked in drop[] (by pod index, the order kept)
 * or one node (the indexes renumbered).  Moved from whatif.c (issue 28).
 */
void kp_snapshot_push_pod(struct kp_snapshot *s, struct kp_pod *p);
void kp_snapshot_push_node(struct kp_snapshot *s, struct kp_node *n);
void kp_snapshot_drop_pods(struct kp_snapshot *s, const bool *drop);
void kp_snapshot_drop_node(struct kp_snapshot *s, const struct kp_node *n);

/*
 * After loading: resolve priorities (admission rules), index pods by node,
 * warn about pods bound to missing nodes.  scheduler_name selects which
 * pending pods must resolve their priority class.
 */
int kp_snapshot_finish(struct kp_snapshot *s, const char *scheduler_name,
                       struct kp_error *err);

/*
 * After kp_snapshot_finish(), for an analysis: without any Namespace
 * object, a pod affinity namespaceSelector other than null and {} cannot
 * be evaluated (it selects nothing); warn once, naming the first pod
 * concerned (bound to a node of the snapshot, or pending for
 * scheduler_name).
 */
void kp_snapshot_check_namespace_selectors(struct kp_snapshot *s,
                                           const char *scheduler_name);

/* Register (or look up) a resource name; returns its id. */
int kp_snapshot_resource_id(struct kp_snapshot *s, const char *name);
struct kp_node *kp_snapshot_node(const struct kp_snapshot *s,
                                 const char *name);
struct kp_pod *kp_snapshot_pod(const struct kp_snapshot *s, const char *ns,
                               const char *name);
/* TaintToleration's reason up to v1.33 for t, in a (kp_taint.reason_kv). */
const char *kp_taint_reason_kv(struct kp_arena *a, const struct kp_taint *t);
void kp_snapshot_warn(struct kp_snapshot *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* err's message with control and invalid UTF-8 bytes escaped (as
 * kp_snapshot_warn's); returns -1. */
int kp_snapshot_sanitize_error(struct kp_error *err);

/* Whether pdb protects pod (the scheduler's rule, 11.1). */
bool kp_pdb_matches(const struct kp_pdb *pdb, const struct kp_pod *pod);
/* Whether pod is listed in pdb's status.disruptedPods. */
bool kp_pdb_in_disrupted(const struct kp_pdb *pdb, const struct kp_pod *pod);

/* Storage look-ups (NULL when absent). */
const struct kp_pvc *kp_snapshot_pvc(const struct kp_snapshot *s,
                                     const char *ns, const char *name);
const struct kp_pv *kp_snapshot_pv(const struct kp_snapshot *s,
                                   const char *name);
const struct kp_storage_class *
kp_snapshot_storage_class(const struct kp_snapshot *s, const char *name);
const struct kp_csinode *kp_snapshot_csinode(const struct kp_snapshot *s,
                                             const char *name);
/*
 * The class the DefaultStorageClass admission plugin gives a claim that
 * names none: of the classes marked default, the newest (then the first
 * by name); NULL when there is none.
 */
const struct kp_storage_class *
kp_snapshot_default_storage_class(const struct kp_snapshot *s);
/*
 * Whether PVC-dependent volume checks run: the input carries PVCs and no
 * storage list was refused (see has_pvc_input).
 */
bool kp_snapshot_volumes_evaluated(const struct kp_snapshot *s);

/*
 * Pod predicates: which pods the scheduler sees (the informer's field
 * selector of pkg/scheduler/scheduler.go, skipPodSchedule of
 * pkg/scheduler/schedule_one.go).
 */
bool kp_pod_is_terminal(const struct kp_pod *p);
/*
 * Pending for scheduler_name: unbound, not terminal, not deleting.  A
 * NULL scheduler_name: for any profile of the configuration (in_profile).
 */
bool kp_pod_is_pending(const struct kp_pod *p, const char *scheduler_name);

/* Sparse vector helpers. */
int64_t kp_resvec_get(const struct kp_resvec *v, int id);

/* the Service, RC, RS or StatefulSet kind/ns/name, or NULL */
const struct kp_spread_source *
kp_snapshot_spread_source(const struct kp_snapshot *s,
                          enum kp_spread_source_kind kind, const char *ns,
                          const char *name);

#endif
