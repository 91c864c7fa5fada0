/*
 * framework.h - the scheduling framework as far as preemption needs it:
 * status codes (Status), NodeInfo, CycleState (struct kp_cycle: the pod
 * being scheduled and each plugin's PreFilter state), the cluster view
 * (struct kp_cluster: upstream's Snapshot of NodeInfos, plus the
 * nominator's nominated pods per node and the PDB budgets of queue mode),
 * the Filter plugin table and RunFilterPluginsWithNominatedPods.
 *
 * Mirrors pkg/scheduler/framework/interface.go (codes),
 * pkg/scheduler/framework/types.go (NodeInfo) and
 * pkg/scheduler/framework/runtime/framework.go (RunFilterPlugins,
 * RunFilterPluginsWithNominatedPods, addGENominatedPods).
 */
#ifndef KP_FRAMEWORK_H
#define KP_FRAMEWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "model.h"
#include "snapshot.h"

enum kp_code {
    KP_SUCCESS = 0,
    KP_UNSCHEDULABLE,
    KP_UNRESOLVABLE,        /* UnschedulableAndUnresolvable */
    KP_ERROR,
    KP_SKIP
};

/*
 * Reasons kept inline; a status with more keeps the rest in more.  Four:
 * as many as a plugin adds without an arena (VolumeBinding's conflicts),
 * and a status small enough (56 bytes) that the per-node arrays of them
 * a pod's Filter pass, dry run and diagnosis write and read, one status
 * per node, stay a third of what twelve made them (issue 31).
 */
#define KP_MAX_REASONS 4

struct kp_status {
    enum kp_code code;
    int nreasons;
    const char *reasons[KP_MAX_REASONS];    /* static or arena strings */
    /* reasons KP_MAX_REASONS.. (an arena array), NULL while none */
    const char **more;
    const char *plugin;
};

/* Success; inline: every Filter call of every node returns one */
static inline struct kp_status
kp_status_ok(void)
{
    struct kp_status st = {KP_SUCCESS, 0, {NULL}, NULL, NULL};

    return st;
}

/* reason i < st->nreasons, inline or not */
static inline const char *
kp_status_reason(const struct kp_status *st, int i)
{
    return i < KP_MAX_REASONS ? st->reasons[i]
                              : st->more[i - KP_MAX_REASONS];
}

struct kp_arena;
struct kp_status kp_status_new(enum kp_code code, const char *reason);
/* a status of at most KP_MAX_REASONS reasons (the plugins that add few) */
void kp_status_add_reason(struct kp_status *st, const char *reason);
/*
 * Any number of reasons (NodeResourcesFit: one per insufficient
 * resource, as fit.go's fitsRequest lists them): past KP_MAX_REASONS in
 * an array of a.
 */
void kp_status_add_reason_in(struct kp_status *st, const char *reason,
                             struct kp_arena *a);

/*
 * HostPortInfo: the node's used (ip, protocol, port) triples as a set.
 * Like upstream's map of maps, it does not count holders: removing a pod
 * deletes its triples although another pod of the node may declare the
 * same one (NodeInfo.updateUsedPorts, HostPortInfo.Remove).
 */
struct kp_port_set {
    size_t n, cap;
    struct kp_host_port *e;
    /*
     * Once n reached KP_PORT_HASH_MIN (host_port_info.c): e hashed by
     * (port, protocol), linear probing; slot[i] is an index of e plus
     * one, 0 for an empty slot; nslots is 0 or a power of two.
     */
    uint32_t *slot;
    size_t nslots;
};

/* NodeInfo: the pods on a node and what they request. */
struct kp_node_info {
    const struct kp_node *node;
    int64_t *used;              /* dense by resource slot, cl->nres long */
    size_t npods, cap;
    const struct kp_pod **pods;
    /*
     * How many of pods have required anti-affinity terms (NodeInfo's
     * PodsWithRequiredAntiAffinity): the InterPodAffinity PreFilter of a
     * pod without terms of its own looks only at those nodes.
     */
    size_t nanti;
    /* the node's allocatable, dense by resource slot (NULL: read node) */
    const int64_t *alloc;
    /*
     * The slot of used and alloc of each resource id below nres_ids, -1
     * for a resource no pending pod requests (kept sparse: read with
     * kp_ni_used, summed over pods); NULL: the slot is the id itself.
     * See kp_cluster_init (issue 27, per-node extended resources).
     */
    const int32_t *res_slot;
    size_t nres_ids;
    /* bumped by every change of pods (kp_victim_table.gen) */
    unsigned long gen;
    /*
     * NodeInfo.NonZeroRequested: the pods' non-zero cpu and memory
     * requests (KP_NZ_*), kept by kp_node_info_add and _remove, so that
     * LeastAllocated and its siblings read a sum instead of every pod.
     * nonzero_kept is true for the cluster's NodeInfos only: clones and
     * nominated copies gain pods by other paths and say false (the
     * scorers then sum the pods).  KP_NO_NONZERO_SUM=1: false in the
     * cluster's too.
     */
    int64_t nonzero[4];
    bool nonzero_kept;
    /*
     * Copied from node, so that the Filter pass reads nothing else of a
     * node its first plugins turn down or let through on these alone.
     */
    int index;
    bool unschedulable;
    size_t ntaints;
    /*
     * UsedPorts.  The cluster's NodeInfos own theirs (malloc); a clone's
     * live in the arena it was cloned into, and grow there.
     */
    struct kp_port_set ports;
};

#define KP_MAX_COLUMNS 16
#define KP_DIAG_TERMS_SLOTS 16

/*
 * The simulated cluster: upstream's Snapshot (NodeInfos by node) and the
 * nominator (PodNominator: nominated pods per node).
 */
struct kp_cluster {
    const struct kp_snapshot *snap;
    /*
     * The snapshot's pods without a node (indices), as the cluster was
     * made (of unbound_of pods): what a cluster made from this one as
     * its template walks instead of every pod (kp_cluster_init_from).
     */
    uint32_t *unbound;
    /*
     * in step, the node each is nominated to in this cluster's scheduler
     * (kp_cluster_nominate), or -1
     */
    int *unbound_node;
    size_t nunbound, unbound_of;
    size_t nres;                /* resource slots (kp_node_info.res_slot) */
    int32_t *res_slot;          /* by resource id; NULL: every id a slot */
    struct kp_node_info *nodes;             /* by node index */
    /* nominated pods per node (pointers into snap->pods) */
    const struct kp_pod ***nominated;
    int32_t **nominated_prio;               /* their priorities, in step */
    int32_t *nominated_max;                 /* the highest; INT32_MIN: none */
    /*
     * The lowest (INT32_MAX: none) and, by node and resource slot
     * (nres each), the sum of all their requests (kp_wrap_add): a pod
     * of at most the lowest priority, nominated elsewhere, sees them
     * all (the diagnosis's free resources).  NULL: KP_NO_NOMINATED_SUM=1.
     */
    int32_t *nominated_min;
    int64_t *nominated_sum;
    /* in step too: each one's requests (nres) and anti-affinity flag */
    int64_t **nominated_req;
    bool **nominated_anti;
    bool **nominated_ports;                 /* whether each has host ports */
    size_t *nnominated, *capnominated;
    int *nominated_node_of;                 /* by pod index; -1 none */
    /* per node: changed with its nominated pods (from nominated_clock) */
    unsigned long *nominated_gen, nominated_clock;
    int *placed_node_of;                    /* by pod index; -1 none */
    /*
     * by pod index: the node whose NodeInfo holds the pod now, -1 none
     * (the initial fill, kp_cluster_place, kp_cluster_remove; the
     * self-check compares it with the NodeInfos' pods); NULL in a copy
     * whose NodeInfos differ from it (the self-check's)
     */
    int *node_of;
    bool *removed;                          /* by pod index */
    int32_t *pdb_allowed;                   /* disruptionsAllowed, by PDB */
    /* by PDB: pdb_clock when its pdb_allowed last changed (0: never) */
    unsigned long *pdb_changed, pdb_clock;
    /*
     * by PDB: the pods on the nodes that it selects (kp_pod.pdbs), kept
     * by kp_cluster_place and kp_cluster_remove; the diagnosis's
     * pdbBlocks[].coveredPods (the self-check counts it afresh)
     */
    uint32_t *pdb_covered;
    const char *scheduler_name;
    /*
     * nodes[i].used and .alloc side by side, each node's pair from a
     * cache line of its own (kp_cluster_init): the Fit filter's reads of
     * a node are one or two adjacent lines (issue 31)
     */
    int64_t *res_block;
    /*
     * int64s from one node's pair to the next's: node i's used[slot] is
     * res_block[i * res_stride + slot], its alloc[slot] nres further
     * (the diagnosis walks one resource over every node down them)
     */
    size_t res_stride;
    /* per node, rebuilt whenever its pods change (kp_victim_table) */
    struct kp_victim_table **vt;
    /* kp_cluster_init_tables without tables: vt[i] NULL, kept so on changes */
    bool tables_lazy;
    /*
     * The nodes whose pods changed after kp_cluster_init, in order, a
     * node once per change (kp_cluster_place, kp_cluster_remove*): what
     * a sum over the nodes kept across pods (selcount.h
     * kp_selcount_domains) counts again since it last read the list
     */
    int *changed;
    size_t nchanged, capchanged;
    /* what the run keeps for later pods (struct kp_caches) */
    struct kp_caches *caches;
};

/*
 * The caches kept on the cluster for the run, each in its own file with
 * the rule that says when an entry stops holding.  kp_cluster points to
 * them as mutable: the cycles read a const cluster and fill its caches,
 * which changes nothing a cycle reads.  kp_cluster_init allocates them,
 * kp_cluster_release frees them.
 */
struct kp_caches {
    /*
     * Per node, the last nominated copy the Filter pass made
     * (nominated_copy.c, kp_run_filters_with_nominated): reused by the
     * pods that follow while the node, its nominated pods and the set
     * added stay the same.
     */
    struct kp_nominated_copy *nominated_copy;
    /* the node_static plugins' answers kept per node (node_static_cache.c) */
    struct kp_static_answers *static_answers;
    /* matching-pod counts per node and selector (selcount.h), or NULL */
    struct kp_selcount *selcount;
    /*
     * the existing pods' required anti-affinity terms by topology domain
     * (term_domains.h), or NULL: none kept
     */
    struct kp_term_domains *term_domains;
    bool term_domains_decided;          /* made or not, at the first table */
    /*
     * Per resource id, the largest allocatable of any node and the first
     * node (in node order) that has it (the diagnosis, diagnosis.c: the
     * nodes' allocatables do not change during a run), or NULL: not made
     * yet.  KP_NO_LARGEST_ALLOC=1: every diagnosis reads every node.
     */
    int64_t *largest_alloc;
    int *largest_node;
    /* the nodes' images by name (ImageLocality, score.h), or NULL */
    struct kp_image_index *images;
    /* the snapshot's pods by label (label_index.h), or NULL: none yet */
    struct kp_label_index *label_index;
    /* where label_index is kept when not here (a template's), or NULL */
    struct kp_caches *index_home;
    /*
     * The diagnosis's count of the nodes matching each required node
     * affinity term (diagnosis.c), for pods whose terms equal those of
     * a slot's pod (node labels do not change during a run), the slots
     * reused in turn; filled by cycles that run alone.
     * KP_NO_DIAG_TERMS=1: counted every time.
     */
    struct kp_diag_terms {
        const struct kp_pod *pod;
        size_t *count, n;
    } diag_terms[KP_DIAG_TERMS_SLOTS];
    size_t diag_terms_next;             /* the slot to reuse next */
    /*
     * InterPodAffinity's PreScore: whether each interned existing term
     * (selcount.h kp_term_get) matches the incoming pod, by term id (0
     * not known, 1 no, 2 yes), kept for the next pods of the same
     * namespace and labels (what the match reads of the incoming pod);
     * filled by cycles that run alone.  KP_NO_IPA_MEMO=1: per cycle.
     */
    const struct kp_pod *ipa_memo_pod;
    _Atomic unsigned char *ipa_memo;
    size_t ipa_memo_cap;
    /* kp_cluster_label_column's columns (label_columns.c) */
    size_t ncolumns;
    char *column_key[KP_MAX_COLUMNS];
    const char **column[KP_MAX_COLUMNS];
    uint64_t *column_h[KP_MAX_COLUMNS];
};

/*
 * The value of label key on every node (by node index; NULL where a node
 * lacks it): the same pointers kp_labels_get returns, made once per key
 * (nodes do not change during a run) by the first thread that asks,
 * then read by any.  NULL once KP_MAX_COLUMNS keys have columns: the
 * caller then asks kp_labels_get.
 */
const char *const *kp_cluster_label_column(const struct kp_cluster *cl,
                                           const char *key);
/*
 * The twin of key's column: each node's kp_label.h of key (0 where it
 * lacks it), NULL when the column is.
 */
const uint64_t *kp_cluster_label_column_hash(const struct kp_cluster *cl,
                                             const char *key);
/*
 * Free the caches above (selcount, image index, label columns) and
 * leave none: for the cluster's release, and for a struct copy of a cluster
 * (the self-check's) whose caches were set to NULL / 0 and then made.
 */
void kp_cluster_free_caches(struct kp_cluster *cl);

/*
 * A node's pods most important first (MoreImportantPod), with what the
 * dry run reads of them kept dense, so that SelectVictimsOnNode touches
 * no pod to find, remove and reprieve its potential victims: priorities,
 * PDB counts, each pod's position in the NodeInfo, and the requests of
 * every tail pods[k..n) summed per resource (k = 0..n), from which one
 * pod's requests are the difference of two rows.  gen is the NodeInfo's
 * gen it was built from.
 */
struct kp_victim_table {
    size_t n, nres;
    unsigned long gen;
    const struct kp_pod **pods;
    int32_t *prio;
    uint32_t *pos;
    /*
     * pods[k]'s PDBs that count (kp_pdb_in_disrupted excluded):
     * pdb[pdb_off[k] .. pdb_off[k + 1]), snapshot indexes
     */
    uint32_t *pdb_off;
    int32_t *pdb;
    /* pdb numbered on this node (pdb_index.h): pdb[k] is pdb_ids[pdb_local[k]] */
    uint32_t *pdb_local;
    int32_t *pdb_ids;
    size_t npdb_ids;
    uint32_t *tail_anti;        /* n + 1: pods with anti-affinity terms */
    uint32_t *tail_ports;       /* n + 1: pods with host ports */
    /* those pods in the NodeInfo's order (PodsWithRequiredAntiAffinity) */
    const struct kp_pod **anti;
    size_t nanti;
    /*
     * The pods with pod affinity terms InterPodAffinity's PreScore reads
     * of an existing pod (required or preferred affinity, preferred
     * anti-affinity), in the NodeInfo's order: upstream's
     * PodsWithAffinity less the pods whose terms add nothing, walked
     * when the incoming pod has no preferred terms of its own.
     */
    const struct kp_pod **aff;
    size_t naff;
    /*
     * The cluster's tables only (grp_ready): the terms of those pods
     * interned (selcount.h, kp_term_groups) as (id, count) groups, read
     * by PreScore instead of the pods; malloc'ed apart from the table.
     */
    bool grp_ready;
    size_t ngrp;
    uint32_t *grp_id;
    int32_t *grp_mult;
    /* the same of the required anti-affinity terms (IPA PreFilter) */
    size_t nanti_grp;
    uint32_t *anti_grp_id;
    int32_t *anti_grp_mult;
    /* each pod's namespace, in the NodeInfo's order */
    const char **ns;
    /*
     * and its kp_ns_hash, in the same order: namespaces whose hashes
     * differ differ (KP_NO_NS_HASH=1: not asked)
     */
    uint32_t *ns_hash;
    int64_t *tail_req;          /* (n + 1) x nres */
    /* pods[k]'s index in the snapshot (snap->pods[sidx[k]]), or -1 */
    int32_t *sidx;
    /*
     * The cluster's tables only (grp_ready; NULL otherwise): pods[k]'s
     * required anti-affinity terms as kp_term_groups interns them
     * (KP_TERM_REQ_ANTI; none when one does not parse), the ids
     * anti_ids[anti_off[k] .. anti_off[k + 1]), malloc'ed apart, so that
     * InterPodAffinity's AddPod/RemovePod of a victim read the table,
     * not the pod
     */
    uint32_t *anti_off, *anti_ids;
};

/*
 * Whether InterPodAffinity's PreScore can count anything for an existing
 * pod when the incoming pod has no preferred terms: the existing pod has
 * required or preferred affinity or preferred anti-affinity terms
 * (processExistingPod; its required anti-affinity is not scored).
 */
static inline bool
kp_pod_has_scored_affinity(const struct kp_pod *q)
{
    return q->naffinity > 0 || q->npref_affinity > 0 ||
           q->npref_anti_affinity > 0;
}

/*
 * The cluster's table of the node when it is current (the NodeInfo was
 * changed only through the cluster), else NULL: the caller then walks
 * the NodeInfo's pods.
 */
const struct kp_victim_table *kp_node_table(const struct kp_cluster *cl,
                                            int node);
/*
 * The node's table: the cluster's, kept current by kp_cluster_place and
 * kp_cluster_remove, or (NodeInfo changed another way) one built in a.
 */
const struct kp_victim_table *
kp_victim_table_get(const struct kp_cluster *cl, int node, struct kp_arena *a);
/* A table of the node built afresh in a (the self-check's reference). */
const struct kp_victim_table *
kp_victim_table_build(const struct kp_cluster *cl, int node,
                      struct kp_arena *a);
/*
 * MoreImportantPod as a comparison (more_important_pod.c): < 0 when a is
 * more important: higher priority, then earlier start time, then namespace
 * and name (our rule for the last tie).
 */
int kp_importance_cmp(const struct kp_pod *a, const struct kp_pod *b);
/* GetPodStartTime: a missing start time reads as INT64_MAX (now). */
int64_t kp_pod_start_time(const struct kp_pod *p);

#define KP_MAX_PLUGINS 16

struct kp_pool;
struct kp_profile;

/* CycleState: one scheduling cycle of one pod. */
struct kp_cycle {
    const struct kp_cluster *cl;
    const struct kp_pod *pod;
    /* the pod's scheduler profile (config.h); NULL: the default profile */
    const struct kp_profile *profile;
    struct kp_arena *scratch;
    /* threads for the per-node passes (pool.h); NULL: this thread only */
    struct kp_pool *pool;
    void *state[KP_MAX_PLUGINS];
    bool skip[KP_MAX_PLUGINS];
    /*
     * The PreFilterResults merged (intersected) by kp_cycle_pre_filter:
     * when restricted, only the nodes named in allowed are filtered; the
     * others are UnschedulableAndUnresolvable (kp_cycle_restricted_status).
     * restricting names the plugins that returned a result, in order.
     */
    bool restricted;
    /*
     * bit i: state[i] is still the state of the cycle this one was cloned
     * from by kp_cycle_clone_shared, to be cloned by kp_cycle_own_state
     * before the first write (0 after PreFilter and kp_cycle_clone)
     */
    uint32_t shared;
    /*
     * Set by SelectVictimsOnNode, which runs only on potential nodes
     * (Filter status exactly Unschedulable): the plugins marked
     * node_static (their answer depends on the pod and the node, never on
     * the node's pods; they fail only with UnschedulableAndUnresolvable)
     * passed there in the Filter pass and are not run again.
     */
    bool fit_only;
    /*
     * Set by a caller whose cycles run one at a time on the cluster (the
     * queue, and independent mode on one thread): the pass may keep the
     * node_static plugins' answers in the cluster for the pods that
     * follow (kp_cycle_keep_static).
     */
    bool alone;
    /*
     * SelectVictimsOnNode checks the Filter plugins before this one on
     * the node's sums alone, set once per pod (default_preemption.h
     * kp_victims_on_sums)
     */
    size_t sums_upto;
    size_t nallowed;
    const char **allowed;
    int nrestricting;
    const char *restricting[KP_MAX_PLUGINS];
};

/*
 * Nodes below which a PreFilter's pass over the nodes stays on the
 * cycle's thread (the self-check build's small clusters take the threads'
 * path too).
 */
#ifdef KP_SELFCHECK
#define KP_PREFILTER_PARALLEL_MIN 2
#else
#define KP_PREFILTER_PARALLEL_MIN 64
#endif

/* A Filter plugin; hooks other than filter are optional (NULL). */
struct kp_plugin {
    const char *name;
    bool node_static;           /* see kp_cycle.fit_only */
    /* PreFilter: may fill c->state[idx]; KP_SKIP skips Filter. */
    struct kp_status (*pre_filter)(struct kp_cycle *c, int idx);
    struct kp_status (*filter)(const struct kp_cycle *c, int idx,
                               const struct kp_node_info *ni);
    /* PreFilterExtensions AddPod/RemovePod on c->state[idx]. */
    void (*add_pod)(struct kp_cycle *c, int idx, const struct kp_pod *pod,
                    const struct kp_node_info *ni);
    void (*remove_pod)(struct kp_cycle *c, int idx, const struct kp_pod *pod,
                       const struct kp_node_info *ni);
    /*
     * Optional: remove_pod for pods[0..n), all of ni, at once (the state
     * must end as n calls would leave it).  Called by
     * kp_cycle_remove_tail alone, after the pods left ni, a copy of the
     * cluster's NodeInfo cl->nodes[ni->index] made for this removal: the
     * pods ni still holds and pods[0..n) are that NodeInfo's pods, and
     * the plugin may read it.
     */
    void (*remove_pods)(struct kp_cycle *c, int idx,
                        const struct kp_pod *const *pods, size_t n,
                        const struct kp_node_info *ni);
    /*
     * Optional: add_pod and remove_pod of the victim table's pod k, and
     * remove_pods of its pods first.., for a table of the cluster's
     * (vt->anti_off set; the state must end as add_pod, remove_pod and
     * remove_pods of those pods leave it), so that the hook reads the
     * table instead of each pod.  KP_NO_TABLE_HOOKS=1: not called.
     */
    void (*add_table_pod)(struct kp_cycle *c, int idx,
                          const struct kp_victim_table *vt, size_t k,
                          const struct kp_node_info *ni);
    void (*remove_table_pod)(struct kp_cycle *c, int idx,
                             const struct kp_victim_table *vt, size_t k,
                             const struct kp_node_info *ni);
    void (*remove_table_pods)(struct kp_cycle *c, int idx,
                              const struct kp_victim_table *vt, size_t first,
                              const struct kp_node_info *ni);
    void *(*clone_state)(struct kp_arena *a, const void *state);
    /*
     * every hook above asks kp_cycle_own_state for the state it writes,
     * so that kp_cycle_clone_shared may leave it shared until then
     */
    bool add_pod_owns;
};

/* a namespace's hash, kept by the victim tables (kp_victim_table.ns_hash) */
uint32_t kp_ns_hash(const char *ns);
/* whether KP_NO_NS_HASH leaves those hashes to be compared */
bool kp_ns_hash_on(void);

extern const struct kp_plugin *const kp_filter_plugins[];
extern const size_t kp_nfilter_plugins;

/* cluster lifecycle */
void kp_cluster_init(struct kp_cluster *cl, const struct kp_snapshot *snap,
                     const char *scheduler_name);
/*
 * kp_cluster_init, the victim tables left unbuilt when tables is false
 * (tables_lazy; simulate.c's runs of one pod alone): every reader then
 * takes its path without a table (kp_node_table gives NULL), as for a
 * NodeInfo changed outside the cluster.  With a pool, the NodeInfos are
 * filled on its threads (each node's alone; the same result).
 */
void kp_cluster_init_tables(struct kp_cluster *cl,
                            const struct kp_snapshot *snap,
                            const char *scheduler_name, bool tables,
                            struct kp_pool *pool);
/*
 * The same, the NodeInfos copied from tmpl (a cluster of the same
 * snapshot, its bound pods unchanged since) when its resource slots are
 * the ones cl gets: what adding every bound pod would give, pods in the
 * same order.  NULL tmpl, or other slots: filled as above.
 */
void kp_cluster_init_from(struct kp_cluster *cl,
                          const struct kp_snapshot *snap,
                          const char *scheduler_name, bool tables,
                          struct kp_pool *pool,
                          const struct kp_cluster *tmpl);
void kp_cluster_release(struct kp_cluster *cl);
void kp_cluster_nominate(struct kp_cluster *cl, const struct kp_pod *p,
                         int node);
void kp_cluster_clear_nomination(struct kp_cluster *cl,
                                 const struct kp_pod *p);
void kp_cluster_place(struct kp_cluster *cl, const struct kp_pod *p,
                      int node);
void kp_cluster_remove(struct kp_cluster *cl, const struct kp_pod *p);
/*
 * kp_cluster_remove of each of pods in turn, each node's victim table
 * rebuilt once after the last (KP_NO_TABLE_ONCE=1: after each pod).
 */
void kp_cluster_remove_all(struct kp_cluster *cl,
                           const struct kp_pod *const *pods, size_t n);

/* NodeInfo operations (on the cluster's NodeInfos) */
void kp_node_info_add(struct kp_node_info *ni, const struct kp_pod *p);
/* On the cluster's NodeInfos or on a clone: removing allocates nothing. */
void kp_node_info_remove(struct kp_node_info *ni, const struct kp_pod *p);
/*
 * HostPortInfo.Add / Remove / CheckConflict (a NULL: the set is
 * malloc-owned; else it grows in a).
 */
void kp_port_set_add(struct kp_port_set *s, struct kp_arena *a,
                     const struct kp_host_port *hp);
void kp_port_set_remove(struct kp_port_set *s, const struct kp_host_port *hp);
bool kp_port_set_conflict(const struct kp_port_set *s,
                          const struct kp_host_port *hp);
/*
 * dst = src, in a (a fresh copy) or, with a NULL, in dst's malloc-owned
 * buffers (grown as needed)
 */
void kp_port_set_copy(struct kp_port_set *dst, const struct kp_port_set *src,
                      struct kp_arena *a);
/* frees a malloc-owned set's buffers (and empties it) */
void kp_port_set_free(struct kp_port_set *s);
/* Whether the set holds exactly this (ip, protocol, port). */
bool kp_port_set_has(const struct kp_port_set *s,
                     const struct kp_host_port *hp);
/* Copy into the scratch arena (preemption's private NodeInfo). */
struct kp_node_info *kp_node_info_clone(struct kp_arena *a,
                                        const struct kp_node_info *ni,
                                        size_t nres, size_t extra);

/* Cycle state */
/*
 * RunPreFilterPlugins: every PreFilter in order; the first failure is the
 * result.  A PreFilterResult leaving no node name at all fails with
 * "node(s) didn't satisfy plugin P" ("plugin(s) [P Q] simultaneously").
 */
struct kp_status kp_cycle_pre_filter(struct kp_cycle *c);
/*
 * Whether a RemovePod/AddPod hook of c can do anything: a plugin that has
 * them, runs, and has a PreFilter state (each hook returns at once
 * without one).
 */
bool kp_cycle_hooks_live(const struct kp_cycle *c);
/*
 * After a successful PreFilter of a cycle with alone set: from now on
 * kp_run_filters answers the node_static plugins of c's pod from what it
 * kept per node, as long as the pods that came before had the same
 * scheduling constraints those plugins read (nodeName, tolerations,
 * nodeSelector, required node affinity, profile); else it forgets them.
 */
void kp_cycle_keep_static(const struct kp_cycle *c);
/*
 * For a PreFilter: return a PreFilterResult, the node names (n >= 0) the
 * pod may go to; merged with earlier results by intersection.
 */
void kp_cycle_restrict_nodes(struct kp_cycle *c, int idx,
                             const char *const *names, size_t n);
/* Whether the node is within the merged PreFilterResult (or none). */
bool kp_cycle_node_allowed(const struct kp_cycle *c,
                           const struct kp_node *node);
/* The status of a node outside it: "node(s) didn't satisfy plugin(s)
 * [P Q]" (plugin names sorted), UnschedulableAndUnresolvable. */
struct kp_status kp_cycle_restricted_status(const struct kp_cycle *c);
void kp_cycle_clone(struct kp_cycle *dst, const struct kp_cycle *src);
/*
 * kp_cycle_clone with copy on write: the states of the plugins marked
 * add_pod_owns stay src's until their add_pod hook changes them (it asks
 * kp_cycle_own_state first); src must not change while dst is in use.
 * KP_NO_STATE_COW=1: kp_cycle_clone.
 */
void kp_cycle_clone_shared(struct kp_cycle *dst, const struct kp_cycle *src);
/* c->state[idx] for writing: cloned first when still shared */
void *kp_cycle_own_state(struct kp_cycle *c, int idx);
/* Remove/add a pod on a (cloned) node info and in the cycle state. */
void kp_cycle_remove_pod(struct kp_cycle *c, struct kp_node_info *ni,
                         const struct kp_pod *p);
/*
 * The same with the table's figures instead of the pods': take out
 * pods[first..n) (ni a clone of the table's node, the cluster's
 * NodeInfo cl->nodes[ni->index], unchanged since), put pods[k] back, take
 * pods[k] out again (it is the last pod of ni: just put back).
 */
void kp_cycle_remove_tail(struct kp_cycle *c, struct kp_node_info *ni,
                          const struct kp_victim_table *vt, size_t first);
/*
 * kp_cycle_remove_tail in two steps: the pods leave ni (its aggregates
 * and ports) and, later, the RemovePod hooks see them (the pods, kept in
 * *rm, live in c's arena); ni must not change in between.  The hooks
 * change only their own plugins' states: a Filter plugin before
 * kp_cycle_first_hook(c) (the first with a live hook, or
 * kp_nfilter_plugins) reads nothing they change.
 */
struct kp_removed {
    /* the pods gone, listed only when a hook reads them (else NULL, 0) */
    const struct kp_pod **gone;
    size_t n;
    /* whether c had a live hook (kp_cycle_hooks_live): else none runs */
    bool live;
    /* the table's pods first.. are those gone */
    const struct kp_victim_table *vt;
    size_t first;
};
void kp_cycle_remove_tail_pods(struct kp_cycle *c, struct kp_node_info *ni,
                               const struct kp_victim_table *vt, size_t first,
                               struct kp_removed *rm);
void kp_cycle_remove_tail_hooks(struct kp_cycle *c, struct kp_node_info *ni,
                                const struct kp_removed *rm);
size_t kp_cycle_first_hook(const struct kp_cycle *c);
void kp_cycle_add_table_pod(struct kp_cycle *c, struct kp_node_info *ni,
                            const struct kp_victim_table *vt, size_t k);
void kp_cycle_remove_table_pod(struct kp_cycle *c, struct kp_node_info *ni,
                               const struct kp_victim_table *vt, size_t k);
void kp_cycle_add_pod(struct kp_cycle *c, struct kp_node_info *ni,
                      const struct kp_pod *p);

struct kp_status kp_run_filters(const struct kp_cycle *c,
                                const struct kp_node_info *ni);
/* The Filter plugins [from, to) of a fit_only cycle: the first failure. */
struct kp_status kp_run_filters_range(const struct kp_cycle *c,
                                      const struct kp_node_info *ni,
                                      size_t from, size_t to);
/* a prefetch hint for the Filter of node, a few nodes ahead */
void kp_filter_prefetch(const struct kp_cycle *c, int node);
struct kp_status kp_run_filters_with_nominated(const struct kp_cycle *c,
                                               const struct kp_node_info *ni);
/*
 * addGENominatedPods: a copy of (c, ni) with the nominated pods of equal
 * or higher priority added (room for extra more pods), into *nc and
 * *nni; false (nothing made) when the node has none.  The copy's plugin
 * states overlay c's (tpcount.h): c must not change while it is in use.
 */
bool kp_cycle_with_nominated(const struct kp_cycle *c,
                             const struct kp_node_info *ni, size_t extra,
                             struct kp_cycle *nc, struct kp_node_info **nni);
/* How many pods addGENominatedPods would add to ni's node for c. */
size_t kp_cycle_count_ge_nominated(const struct kp_cycle *c,
                                   const struct kp_node_info *ni);
/*
 * The adding part alone: the nominated pods of equal or higher priority
 * added to (c, ni) in place, ni a clone with room for them.
 */
void kp_cycle_add_ge_nominated(struct kp_cycle *c, struct kp_node_info *ni);
/* The same in two steps: the pods into ni, later their AddPod hooks. */
void kp_cycle_add_ge_nominated_pods(struct kp_cycle *c, struct kp_node_info *ni);
void kp_cycle_add_ge_nominated_hooks(struct kp_cycle *c,
                                     struct kp_node_info *ni);

/* int64 arithmetic that wraps as Go's does, without undefined behaviour */
static inline int64_t
kp_wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

/*
 * The slot of resource id under a map of n resource ids (a cluster's
 * kp_cluster.res_slot, shared by its NodeInfos), or -1: a resource kept
 * sparse; map NULL: the slot is the id itself
 */
static inline int
kp_res_slot(const int32_t *map, size_t n, int id)
{
    if (!map)
        return id;
    return id >= 0 && (size_t)id < n ? map[id] : -1;
}

/* the slot of resource id in ni's used and alloc, or -1 */
static inline int
kp_ni_slot(const struct kp_node_info *ni, int id)
{
    return kp_res_slot(ni->res_slot, ni->nres_ids, id);
}

/* kp_node_info.nonzero's entries */
enum { KP_NZ_CPU, KP_NZ_MEM, KP_NZ_CPU131, KP_NZ_MEM131 };

/*
 * NodeInfo.NonZeroRequested's cpu (out[0]) and memory (out[1]); v131:
 * as before v1.32, a pod's sidecars left out (#127878).  The kept sum,
 * or the pods' when ni keeps none (node_info.c).
 */
void kp_ni_nonzero_requested(const struct kp_node_info *ni, bool v131,
                             int64_t *out);

/* whether two node selectors (required node affinity) are the same */
bool kp_same_node_selector(const struct kp_node_selector *a,
                           const struct kp_node_selector *b);

/* kp_ni_used and kp_ni_alloc of a resource without a slot (node_info.c) */
int64_t kp_ni_used_sparse(const struct kp_node_info *ni, int id);
int64_t kp_ni_alloc_sparse(const struct kp_node_info *ni, int id);

/*
 * NodeInfo.Requested of resource id: the slot, or, for a resource kept
 * sparse, the sum of the requests of ni's pods (what the slot would hold)
 */
static inline int64_t
kp_ni_used(const struct kp_node_info *ni, int id)
{
    int r = kp_ni_slot(ni, id);

    return r >= 0 ? ni->used[r] : kp_ni_used_sparse(ni, id);
}

/* the node's allocatable of resource id */
static inline int64_t
kp_ni_alloc(const struct kp_node_info *ni, int id)
{
    int r = kp_ni_slot(ni, id);

    return ni->alloc && r >= 0 ? ni->alloc[r] : kp_ni_alloc_sparse(ni, id);
}

static inline int64_t
kp_wrap_sub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

#endif
