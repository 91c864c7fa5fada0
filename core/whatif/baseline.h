/*
 * baseline.h - what a change does compared with now (issue 25): every
 * run with a change (--add, --cordon, --drain*, --remove-node*,
 * --add-node*, --compare-config, --compare-profile) also analyses the
 * cluster without it, in the same mode, on the same loaded snapshot
 * (run.c), and each pending pod of the run is matched to its baseline:
 * a pod that replaces another (kp_pod.replaces: a rolled pod; displaced:
 * a drain's replacement) to that pod, any other to the pod of the same
 * namespace/name.  The baseline is what that pod did without the change:
 * its analysis when it was pending, "Running" on its node when it was
 * bound, none for a new pod.
 *
 * Nothing upstream compares two runs; the outcomes compared are
 * kube-scheduler's (simulate.h), so the rules here are the tool's own:
 * a result ranks Fits/Running > Preempts > NotEligible > Unschedulable;
 * between two preemptions fewer PDB violations, then fewer victims, is
 * better.
 */
#ifndef KP_BASELINE_H
#define KP_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "report.h"
#include "snapshot.h"
#include "strmap.h"

/* kp_outcome.result beyond enum kp_result_kind: bound, not pending */
#define KP_OUTCOME_RUNNING 4

/* One pod's answer in the baseline, independent of its report. */
struct kp_outcome {
    const char *ns, *name;
    int result;                     /* enum kp_result_kind or RUNNING */
    const char *node;               /* Fits, Running: the node */
    const char *nominated;          /* as the report shows it, or NULL */
    size_t nvictims;
    const struct kp_pod **victims;  /* baseline snapshot's pods */
    bool *victim_pdb;               /* per victim: violates a PDB */
    int pdb_violations;
    size_t pos;                     /* in kp_baseline.order */
};

enum kp_change_kind {
    KP_CHANGE_NEW,                  /* no baseline: a pod the change adds */
    KP_CHANGE_UNCHANGED,
    KP_CHANGE_BETTER,
    KP_CHANGE_WORSE,
    KP_CHANGE_CHANGED               /* same rank, another node or victims */
};

/* A victim of the run that the baseline did not evict (or not so). */
struct kp_new_victim {
    const struct kp_pod_report *by; /* the preemptor's report */
    const struct kp_victim_report *v;
    bool new_victim;                /* was no victim in the baseline */
    bool new_pdb_violation;         /* violates a PDB, did not before */
};

struct kp_baseline {
    struct kp_arena arena;
    const char *against;            /* "the cluster without the change" */
    const char *before;             /* "without the change" */
    struct kp_strmap pending;       /* "ns/name" -> struct kp_outcome */
    struct kp_strmap bound;         /* "ns/name" -> pod (a copy of the
                                       snapshot's pod_index) */
    struct kp_strmap victims;       /* "ns/name" -> flags 1 victim,
                                       2 violating a PDB (as pointers) */
    size_t npending;
    struct kp_outcome **order;      /* pending pods, queue order */
};

struct kp_pod_change {
    enum kp_change_kind kind;
    const struct kp_outcome *was;   /* NULL: new */
};

struct kp_change {
    struct kp_arena arena;          /* the Running outcomes */
    const struct kp_baseline *base;
    bool *matched;                  /* per base->order: some pod matched */
    size_t npods;                   /* by kp_pod.index of the run */
    struct kp_pod_change *pods;     /* kind, was (analysed pods only) */
    bool *has;                      /* pods[i] was set */
    size_t count[5];                /* reported pods per kind */
    size_t nnew_victims, nnew_pdb;
    size_t nlist;
    struct kp_new_victim *list;     /* new victims, new PDB violations */
};

/*
 * Keep what the baseline run (rep, every pending pod of snap analysed)
 * answered, before the change is applied to snap: the snapshot's pods
 * and node names are borrowed (its arena outlives b).  against names
 * the baseline in the output, before says when ("without the change").
 */
void kp_baseline_take(struct kp_baseline *b, const struct kp_snapshot *snap,
                      const struct kp_report *rep, const char *against,
                      const char *before);
void kp_baseline_release(struct kp_baseline *b);

/* "ns/name" of the pod p stands for (replaces, displaced, else its own). */
const char *kp_baseline_identity(const struct kp_pod *p, char *buf,
                                 size_t n);

/*
 * Match every analysed pod of rep (the run with the change) to b and
 * count the reported ones into c; released by kp_change_release.
 */
void kp_change_compute(struct kp_change *c, const struct kp_baseline *b,
                       const struct kp_snapshot *snap,
                       const struct kp_report *rep);
/* Count the reported pods of rep again (after --only-added). */
void kp_change_count(struct kp_change *c, const struct kp_report *rep);
void kp_change_release(struct kp_change *c);

/* p's change, or NULL when p was not analysed. */
const struct kp_pod_change *kp_change_of(const struct kp_change *c,
                                         const struct kp_pod *p);

/* Whether the change touches pr's answer (--only-added). */
bool kp_change_touches(const struct kp_pod_change *pc);

extern const char *const kp_change_names[5];

/*
 * --fail-on newly-unschedulable, new-preemption, new-pdb-violation:
 * the enum kp_fail_on bits found among the reported pods; with lines
 * (not NULL) one line per finding asked for (fail_on), for stderr.
 */
unsigned kp_change_fail(const struct kp_change *c,
                        const struct kp_snapshot *snap,
                        const struct kp_report *rep, unsigned fail_on,
                        struct kp_buf *lines);

/* Renderers (render.c): table cells, -o json members, the text block. */
char *kp_change_was_cell(const struct kp_pod_change *pc, bool wide);
char *kp_change_was_victims_cell(const struct kp_pod_change *pc);
void kp_change_json_pod(const struct kp_change *c, const struct kp_pod *p,
                        struct kp_buf *b);
void kp_change_json(const struct kp_change *c, const struct kp_snapshot *snap,
                    const struct kp_report *rep, struct kp_buf *b);
void kp_change_text(const struct kp_change *c, const struct kp_snapshot *snap,
                    const struct kp_report *rep, struct kp_buf *b);

#endif
