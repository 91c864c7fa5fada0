/*
 * framework_int.h - what the files split out of framework.c share
 * (issue 28): the caches' structures and the helpers that cross files.
 * Not for plugins.
 */
#ifndef KP_FRAMEWORK_INT_H
#define KP_FRAMEWORK_INT_H

#include <stdatomic.h>

#include "framework.h"

/*
 * The Filter pass's nominated copy of a node, kept from one pod to the
 * next.  Which nominated pods a pod adds depends only on its priority and
 * on whether it is one of them: the key is that set as a mask of the
 * node's nominated pods (at most 64), with the node's generation and its
 * nominated pods' version.  The copy owns its arrays (malloc).  busy: a
 * pass takes each node once, but independent mode runs pods on several
 * threads at once, so a copy in use by another thread is not touched
 * (that pod makes its own in its scratch arena, as kube-scheduler makes
 * one for every pod: RunFilterPluginsWithNominatedPods,
 * pkg/scheduler/framework/runtime/framework.go).
 */
struct kp_nominated_copy {
    atomic_flag busy;
    bool valid;
    /*
     * self: made for a pod nominated to this node (left out of its own
     * copy).  Otherwise the set is {priority >= P} for every P with
     * lo < P <= hi, and a pod of such a priority takes the copy without
     * its node's nominated pods being read.
     */
    bool self;
    int64_t lo, hi;
    unsigned long gen, ver;
    uint64_t mask;
    size_t cap_pods;
    struct kp_node_info ni;
};

/*
 * The node_static plugins' answers (the leading run of kp_filter_plugins
 * marked node_static), kept for a few sets of pod constraints: a slot
 * holds them for the pods whose constraints equal rep's, per node the
 * status of that run, current when tag[node] == epoch.  pod is the pod
 * armed (kp_cycle_keep_static), cur its slot.
 */
#define KP_STATIC_SLOTS 8

struct kp_static_slot {
    const struct kp_pod *rep;           /* NULL: unused */
    const struct kp_profile *profile;
    bool skip[KP_MAX_PLUGINS];
    unsigned epoch;
    unsigned long last;                 /* for the least recently used */
    unsigned *tag;
    struct kp_status *st;
};

struct kp_static_answers {
    const struct kp_pod *pod;
    struct kp_static_slot *cur;
    unsigned long clock;
    struct kp_static_slot slot[KP_STATIC_SLOTS];
};

/*
 * Helpers the split files call across (issue 28): their file-local names
 * from framework.c are kept so that the move stays verbatim; this header
 * is included only by core/sched's framework files.
 */
/* plugins/defaultpreemption/victim_table.c */
void free_table(struct kp_victim_table *vt);
void rebuild_table(struct kp_cluster *cl, int node);
/* node_info.c */
void clone_add(struct kp_arena *a, struct kp_node_info *ni,
               const struct kp_pod *p);
void ports_add(struct kp_node_info *ni, struct kp_arena *a,
               const struct kp_pod *p);
void ports_remove(struct kp_node_info *ni, const struct kp_pod *p);
/* cycle_state.c */
void add_hooks(struct kp_cycle *c, struct kp_node_info *ni,
               const struct kp_pod *p);
/* node_static_cache.c */
size_t static_prefix(void);
/* nominated_copy.c */
bool run_with_kept_copy(const struct kp_cycle *c,
                        const struct kp_node_info *ni,
                        struct kp_status *out);

#endif
