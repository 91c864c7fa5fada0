/*
 * rollout.h - "--add" of a Deployment, StatefulSet, DaemonSet or
 * ReplicaSet that already runs in the snapshot (issue 25, item 3): an
 * update, replayed as its controller rolls it out, in waves.
 *
 * The snapshot's pods that the workload controls (the controller
 * ownerReference: the StatefulSet, DaemonSet or ReplicaSet itself; for a
 * Deployment a ReplicaSet named "<deployment>-<pod-template-hash>") are
 * its old pods.  add.c creates, before kp_snapshot_finish(), every pod
 * the rollout may create (its new pods, from the new template), each
 * deferred until the wave that creates it (kp_pod.rollout).  simulate.c
 * then runs the waves: kp_rollout_plan() decides, from what is
 * available, which new pods are created and which old pods deleted, as
 * the controller's sync would; the new pods not yet running are
 * scheduled (in the queue mode's order, their decisions applied); a new
 * pod that Fits or Preempts is available at once (readiness is instant).
 * Translated from kubernetes/kubernetes pkg/controller/deployment
 * (rolling.go rolloutRolling, reconcileNewReplicaSet,
 * reconcileOldReplicaSets; recreate.go; util/deployment_util.go
 * NewRSNewReplicas, MaxUnavailable, MaxSurge, ResolveFenceposts),
 * pkg/controller/statefulset/stateful_set_control.go
 * (updateStatefulSet: create missing ordinals, condemned pods, the
 * rolling update from the highest ordinal down to the partition) and
 * pkg/controller/daemon/update.go (rollingUpdate) with
 * daemon/util/daemonset_util.go (SurgeCount, UnavailableCount).
 */
#ifndef KP_ROLLOUT_H
#define KP_ROLLOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "error.h"
#include "model.h"

struct cJSON;
struct kp_snapshot;
struct kp_report;
struct kp_pod_report;

enum kp_rollout_kind {
    KP_ROLLOUT_DEPLOYMENT,
    KP_ROLLOUT_STATEFULSET,
    KP_ROLLOUT_DAEMONSET,
    KP_ROLLOUT_REPLICASET
};

enum kp_rollout_strategy {
    KP_ROLLOUT_ROLLING,     /* RollingUpdate */
    KP_ROLLOUT_RECREATE,    /* Deployment Recreate */
    KP_ROLLOUT_ON_DELETE,   /* StatefulSet, DaemonSet OnDelete */
    KP_ROLLOUT_SCALE        /* ReplicaSet: only the replica count */
};

/* A pod the rollout may create (kp_pod.rollout). */
struct kp_rollout_pod {
    struct kp_rollout *ro;
    struct kp_pod *pod;
    const struct kp_pod *old;       /* the pod it replaces, or NULL */
    struct kp_rollout_old *old_entry;   /* its entry (StatefulSet,
                                           DaemonSet), or NULL */
    int ordinal;                    /* StatefulSet, else -1 */
    int node;                       /* DaemonSet: the node's index, else -1 */
    int wave;                       /* the wave that created it; -1 not */
    bool available;                 /* runs (Fits, or Preempts) */
    int node_ran;                   /* where it runs, else -1 */
};

/* A pod of the workload before the update. */
struct kp_rollout_old {
    const struct kp_pod *pod;
    int ordinal;                    /* StatefulSet (from start), else -1 */
    int node;                       /* its node's index, else -1 */
    bool available;                 /* bound, Ready, not terminating */
    bool stays;                     /* the update leaves it (partition,
                                       OnDelete, ReplicaSet template) */
    int deleted;                    /* the wave that deleted it; -1 not */
};

/* A victim of a new pod's preemption. */
struct kp_rollout_victim {
    const struct kp_pod *victim;
    const struct kp_pod *by;
};

/* What one wave did to one rollout. */
struct kp_rollout_wave {
    int wave;
    size_t ncreated, nrunning, ndeleted, npreempted, npending;
    /* running: new pods that run from this wave on (Fits, Preempts) */
    const struct kp_pod **created, **running, **deleted, **pending;
    struct kp_rollout_victim *preempted;
};

struct kp_rollout {
    enum kp_rollout_kind kind;
    enum kp_rollout_strategy strategy;
    const char *kind_name;          /* "Deployment", ... */
    const char *ns, *name, *source;
    int32_t replicas;               /* desired (DaemonSet: nodes) */
    int32_t max_surge, max_unavailable;     /* resolved */
    int32_t partition;              /* StatefulSet RollingUpdate */
    int32_t start;                  /* StatefulSet spec.ordinals.start:
                                       ordinals are kept relative to it */
    bool parallel;                  /* podManagementPolicy: Parallel */
    size_t nold;
    struct kp_rollout_old *old;
    size_t nnew;
    struct kp_rollout_pod **new;
    size_t nwaves;
    struct kp_rollout_wave *waves;
    /* old pods in the order they were deleted; the first npaired have
       a new pod (Deployment, ReplicaSet: pair()) */
    size_t ngone, npaired, next_new;
    const struct kp_pod **gone;
    /* by ordinal (StatefulSet) or node index (DaemonSet), built lazily */
    size_t nat;
    struct kp_rollout_old **old_at;
    struct kp_rollout_pod **new_at;
    const char *blocked;            /* why it never finishes, or NULL */
    const struct kp_pod *blocked_pod;
};

struct kp_rollout_set {
    struct kp_arena *arena;         /* the snapshot's */
    const struct kp_snapshot *snap;
    size_t n;
    struct kp_rollout **v;
    int wave;                       /* the last wave planned */
};

/*
 * The pods of s that the workload kind/ns/name controls, in name order
 * (malloc'ed, NULL when none); returns how many.
 */
size_t kp_rollout_owned(const struct kp_snapshot *s,
                        enum kp_rollout_kind kind, const char *ns,
                        const char *name, const struct kp_pod ***out);

/* "Deployment" ...: its kind, or -1 for a kind that does not roll out. */
int kp_rollout_kind_of(const char *kind);

/*
 * A rollout of the workload whose spec is given, with its old pods
 * (owned; taken); reads replicas and the update strategy (errors name
 * the field: "spec.strategy.rollingUpdate.maxSurge: ...").  nodes: the
 * nodes the new template runs on (DaemonSet), to resolve the percentages.
 */
struct kp_rollout *kp_rollout_new(struct kp_snapshot *s,
                                  enum kp_rollout_kind kind,
                                  const char *kind_name, const char *ns,
                                  const char *name, const char *source,
                                  const struct cJSON *spec,
                                  const struct kp_pod **owned, size_t nowned,
                                  int32_t nodes, struct kp_error *err);
/* A new pod of ro (added to the snapshot, pending); old: it replaces. */
void kp_rollout_add_pod(struct kp_snapshot *s, struct kp_rollout *ro,
                        struct kp_pod *p, const struct kp_pod *old,
                        int ordinal, int node);

/* ---- upstream's arithmetic (unit-tested) ---- */

/*
 * intstr.GetScaledValueFromIntOrPercent: value is an integer ("3") or a
 * percentage ("25%") of total, rounded up or down.  -1 on a bad value.
 */
int kp_rollout_scaled(const char *value, int32_t total, bool round_up,
                      int32_t *out);
/*
 * deployment util ResolveFenceposts: maxSurge rounded up, maxUnavailable
 * down, both 0: maxUnavailable 1.
 */
int kp_rollout_fenceposts(const char *surge, const char *unavailable,
                          int32_t desired, int32_t *s, int32_t *u);
/*
 * deployment util MaxUnavailable: 0 unless RollingUpdate with replicas;
 * ResolveFenceposts' maxUnavailable, at most replicas.  -1 on a bad value.
 */
int kp_rollout_max_unavailable(const char *surge, const char *unavailable,
                               int32_t replicas, bool rolling,
                               int32_t *out);
/* deployment util NewRSNewReplicas for RollingUpdate. */
int32_t kp_rollout_new_rs_replicas(int32_t desired, int32_t surge,
                                   int32_t all_pods, int32_t new_rs);

/* ---- the waves (simulate.c) ---- */

/* A new pod whose wave has not come (yet): not queued. */
bool kp_rollout_deferred(const struct kp_pod *p);
/*
 * The next wave: each rollout's sync creates new pods (their wave set)
 * and deletes old ones (returned in *deleted, malloc'ed, for the caller
 * to take off the cluster).  Returns whether anything happened.
 */
bool kp_rollout_plan(struct kp_rollout_set *set,
                     const struct kp_pod ***deleted, size_t *ndeleted);
/* Whether pr's pod is a new pod to (re)schedule in this wave. */
bool kp_rollout_to_schedule(const struct kp_pod *p);
/* After pr's pod was scheduled in this wave: available, victims. */
void kp_rollout_scheduled(struct kp_rollout_set *set,
                          const struct kp_pod_report *pr);
/* After the wave: the new pods left pending. */
void kp_rollout_end_wave(struct kp_rollout_set *set);
/*
 * After the last wave: which rollout never finishes and why; the report
 * loses the old pods deleted and the new pods never created, queue
 * positions renumbered.
 */
void kp_rollout_finish(struct kp_rollout_set *set, struct kp_report *rep);

/* Some rollout never finishes (--fail-on rollout-blocked). */
bool kp_rollout_blocked(const struct kp_rollout_set *set);

/* ---- rendering (rollout_render.c) ---- */

void kp_rollout_json(const struct kp_snapshot *snap, struct kp_buf *b);
void kp_rollout_json_pod(const struct kp_pod *p, struct kp_buf *b);
/*
 * -o wide's MESSAGE of a new pod: "rolled out by Deployment prod/web in
 * wave 3 (replaces prod/web-x): " before note (taken, freed).
 */
char *kp_rollout_wide_note(const struct kp_pod *p, char *note);
void kp_rollout_text(const struct kp_snapshot *snap,
                     const struct kp_report *rep, bool summary,
                     struct kp_buf *b);

#endif
