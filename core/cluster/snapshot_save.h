/*
 * snapshot_save.h - a finished snapshot changed in place for one more
 * analysis, then put back as it was (issue 31: the "add a node like N"
 * fix's re-run, fix_add_node.c, without reading the -f files again).
 *
 * The change may only append (what --add-node does: a node and the
 * DaemonSet pods queued for it, kp_snapshot_push_node/push_pod) and set
 * again what kp_run_config_mark_pods and kp_snapshot_finish set.  Put
 * back: the counts and the name indexes (kp_snapshot_rollback: the
 * appended objects and their names, the warnings, resource names), the
 * contents of every node, pod, PDB and PriorityClass struct that was
 * there (the same pointers: a report made before keeps them), the pods
 * by node (node_pods, node_npods: the very arrays), default_class and
 * finished.  What the change allocated in the snapshot's arena stays
 * there, unused, until kp_snapshot_release.
 */
#ifndef KP_SNAPSHOT_SAVE_H
#define KP_SNAPSHOT_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

struct kp_snapshot_saved {
    struct kp_snapshot_mark mark;
    /* the structs as they were, s->pods[i] in pods[i], ... */
    struct kp_pod **pod_ptrs;
    struct kp_pod *pods;
    struct kp_node **node_ptrs;
    struct kp_node *nodes;
    struct kp_pdb *pdbs;
    struct kp_priority_class *pcs;
    const struct kp_pod ***node_pods;
    size_t *node_npods;
    const struct kp_priority_class *default_class;
    bool finished;
};

/* Keep what kp_snapshot_restore puts back (s finished, not changed). */
void kp_snapshot_save(struct kp_snapshot *s, struct kp_snapshot_saved *v);
/* Put s back as it was at kp_snapshot_save; v is released. */
void kp_snapshot_restore(struct kp_snapshot *s, struct kp_snapshot_saved *v);

#endif
