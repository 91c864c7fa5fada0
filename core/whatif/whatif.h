/*
 * whatif.h - what-if for nodes (issue 19): --cordon, --drain,
 * --drain-selector, --remove-node, --remove-nodes-selector, --add-node,
 * --add-node-file.
 *
 * The snapshot is changed before kp_snapshot_finish() (whatif.c): nodes
 * added, removed or cordoned, the pods a drain evicts (or a lost node
 * takes along) replaced by pending pods, queued as new pods.  Evictions
 * that a PodDisruptionBudget refuses wait: simulate.c analyses the pods
 * in waves (kp_whatif_next_wave), and a refused eviction goes through
 * once replacements of earlier evictions run elsewhere.  Mirrors
 * k8s.io/kubectl/pkg/drain (drain.go, filters.go),
 * pkg/registry/core/pod/storage/eviction.go and
 * pkg/controller/disruption/disruption.go.
 */
#ifndef KP_WHATIF_H
#define KP_WHATIF_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "error.h"
#include "kp.h"
#include "snapshot.h"

struct kp_report;

/* What a drain (or a lost node) did to one pod of the node. */
enum kp_drain_outcome {
    KP_DRAIN_EVICTED,       /* gone; replacement NULL: not recreated */
    KP_DRAIN_DELETED,       /* finished or terminating: deleted */
    KP_DRAIN_LOST,          /* no controller (--force): not recreated */
    KP_DRAIN_KEPT,          /* DaemonSet-managed or mirror pod: stays */
    KP_DRAIN_NOT_EVICTED,   /* the drain stopped before evicting */
    KP_DRAIN_WAITING,       /* refused by its PDB (429), retried */
    KP_DRAIN_BLOCKED        /* refused for good (500: several PDBs) */
};

struct kp_drain_pod {
    const struct kp_pod *pod;       /* the pod that was on the node */
    struct kp_pod *replacement;     /* the pod its controller recreates */
    enum kp_drain_outcome outcome;
    const char *why;                /* kept, deleted, lost, refused */
    int pdb;                        /* PDB that refused it, else -1 */
    int wave;                       /* EVICTED: 0 at once, k after k
                                       waits; -1 not (yet) evicted */
    bool counted;                   /* its replacement gave budget back */
};

/* One drained or removed node. */
struct kp_node_whatif {
    const char *node;
    bool removed;                   /* --remove-node; else --drain */
    const char *stopped;            /* kubectl's error, drain stopped */
    size_t npods;
    struct kp_drain_pod *pods;
};

/* On a recreated pod (kp_pod.displaced). */
struct kp_displaced {
    const char *node;               /* the node it was on */
    const char *reason;             /* "Drained" or "NodeRemoved" */
    const char *original;           /* the name of the pod it replaces */
    struct kp_drain_pod *dp;
};

struct kp_whatif {
    size_t nnodes;
    struct kp_node_whatif *nodes;
    int *budget;                    /* per PDB: disruptionsAllowed */
    int *healthy;                   /* per PDB: currentHealthy */
    size_t npdbs;
    int wave;                       /* last wave released */
    size_t ncordoned, nadded_nodes, nadded_pods;
};

/*
 * Apply o's node what-ifs to s, after loading and before
 * kp_snapshot_finish().  Errors name the flag and its value (a node that
 * does not exist, a selector that matches none: exit 1; a bad COUNT or
 * selector: exit 2).  w is released by kp_whatif_release().
 */
int kp_whatif_apply(struct kp_whatif *w, struct kp_snapshot *s,
                    const struct kp_options *o, struct kp_error *err);
void kp_whatif_release(struct kp_whatif *w);

/* A pod --add or a node what-if brought in (--only-added). */
bool kp_pod_is_added(const struct kp_pod *p);

/* A replacement whose eviction has not happened (yet): not queued. */
bool kp_whatif_deferred(const struct kp_pod *p);

/*
 * After the pods released so far are analysed: give each PDB back one
 * disruption per replacement now running (Fits or Preempts), then retry
 * the refused evictions in order.  Returns the number evicted now; their
 * pods (on a cordoned node, still placed) go to originals (the caller
 * frees it) and their replacements are in wave w->wave.
 */
size_t kp_whatif_next_wave(struct kp_whatif *w, const struct kp_report *rep,
                           const struct kp_snapshot *snap,
                           const struct kp_pod ***originals);
/* Whether pr's pod was released in wave k. */
bool kp_whatif_in_wave(const struct kp_pod *p, int k);
/*
 * After the last wave: pods in wave order (queue order within one),
 * queue positions renumbered, replacements never released dropped.
 */
void kp_whatif_finish_report(struct kp_report *rep);

/* Some drain would hang or stop (--fail-on drain-blocked). */
bool kp_whatif_blocked(const struct kp_whatif *w);

/* Renderers: -o json's members after "pods", the lines after a table. */
void kp_whatif_json(const struct kp_snapshot *snap,
                    const struct kp_report *rep, struct kp_buf *b);
void kp_whatif_json_pod(const struct kp_pod *p, struct kp_buf *b);
void kp_whatif_text(const struct kp_snapshot *snap,
                    const struct kp_report *rep, bool summary,
                    struct kp_buf *b);
/* -o wide's MESSAGE: the note with "displaced from NODE (drained): " */
char *kp_whatif_wide_note(const struct kp_pod *p, char *note);

#endif
