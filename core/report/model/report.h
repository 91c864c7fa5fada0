/*
 * report.h - the per-pod result model that the analysis fills
 * (simulate.h) and the renderers print: table, wide, summary and JSON
 * (render.c), the --explain-nodes view (node_report.c).
 */
#ifndef KP_REPORT_H
#define KP_REPORT_H

#include <stdint.h>

#include "kp.h"
#include "preemption.h"
#include "snapshot.h"
#include "strmap.h"

enum kp_result_kind {
    KP_RESULT_FITS,
    KP_RESULT_PREEMPTS,
    KP_RESULT_UNSCHEDULABLE,
    KP_RESULT_NOT_ELIGIBLE
};

struct kp_victim_report {
    const struct kp_pod *pod;
    int node;
    bool violates_pdb;
    size_t npdbs;
    const struct kp_pdb **pdbs;
};

/*
 * A filter or DryRunPreemption status as --explain-nodes reports it,
 * interned in the report (many nodes share one): code, the rejecting
 * plugin or NULL, and kube-scheduler's reason strings.  For a
 * DryRunPreemption status, outcome says what the dry run did.
 */
struct kp_node_status {
    enum kp_code code;
    enum kp_node_preemption outcome;        /* preemption view only */
    const char *plugin;
    int nreasons;
    const char *const *reasons;
};

/* One node of one pod's --explain-nodes view (snapshot node order). */
struct kp_node_report {
    const struct kp_node_status *filter;    /* NULL: not filtered */
    const struct kp_node_status *preemption; /* NULL: no dry run */
    uint32_t nvictims;                      /* CANDIDATE, DROPPED */
    uint32_t num_pdb_violations;
};

struct kp_pod_report {
    const struct kp_pod *pod;
    int queue_position;
    bool reported;                  /* selected by POD..., -n, -l */
    enum kp_result_kind result;
    int node;                       /* Fits: chosen node; else -1 */
    int nominated_node;             /* Preempts: node; else -1 */
    /*
     * Queue mode: an earlier pod's preemption cleared the pod's
     * status.nominatedNodeName (getLowerPriorityNominatedPods) before its
     * turn; a NotEligible pod then shows no nomination.
     */
    bool nomination_cleared;
    size_t nvictims;
    struct kp_victim_report *victims;
    int pdb_violations;
    const char *decided_by;
    size_t ncandidates;
    struct kp_candidate *candidates;
    const char *message;
    size_t npotential, num_candidates, nexamined;
    /* --explain-nodes, reported pods only: one per node, else NULL */
    struct kp_node_report *nodes;
    /*
     * A reported pod that does not fit as is (issue 26, diagnosis.h):
     * -o json's "diagnosis" object and -o describe's lines; else NULL.
     */
    const char *diagnosis_json, *diagnosis_text;
    /* the first Unschedulable ones: verified fixes (fixes.h), else NULL */
    const char *fixes_json, *fixes_text;
    /*
     * Queue mode: nextStartNodeIndex when the pod's turn came, so that a
     * fix re-run at that turn (kp_analyze_at_turn) filters as the run did
     */
    size_t next_start;
};

/* A pod named or matched but not analysed, and why (run.c). */
struct kp_not_analysed {
    const struct kp_pod *pod;
    const char *reason;     /* SchedulingGated, OtherScheduler, ... */
};

struct kp_whatif;                   /* whatif.h */
struct kp_change;                   /* baseline.h */

struct kp_report {
    struct kp_arena arena;
    /* node what-if (issue 19): set by the caller, NULL without one */
    struct kp_whatif *whatif;
    /* a run with a change (issue 25): each pod against the baseline */
    const struct kp_change *change;
    /* notAnalysed, for -o json (malloc'ed, the caller frees it) */
    size_t nnot_analysed;
    struct kp_not_analysed *not_analysed;
    /* -o json's "warnings": the run result's (run.h), not a copy */
    size_t nwarnings;
    const char *const *warnings;
    struct kp_strmap node_statuses;         /* interned kp_node_status */
    enum kp_mode mode;
    bool explain_nodes;             /* renderers print pr->nodes */
    /* -v: the table's node lines one per node, not grouped (issue 26) */
    bool explain_nodes_each;
    /*
     * The report is of one namespace (-n, or live without -A): the table
     * has no NAMESPACE column, as kubectl get has none then (issue 29).
     */
    bool one_namespace;
    /*
     * The scheduler replayed (run_config.c): the -v line, -o json's
     * "scheduler" object; both in the output only when scheduler_shown
     * (--config, --profile or --kube-version given).
     */
    const char *scheduler_line, *scheduler_json;
    bool scheduler_shown;
    size_t npods;                   /* pending pods, queue order */
    struct kp_pod_report *pods;
};

/* rep's memory (kp_analyze_queue of simulate.h initialises it). */
void kp_report_release(struct kp_report *rep);

/*
 * Keep pr's per-node view (node_report.c): statuses are the filter pass's
 * (seen[i]: node i was filtered), res the PostFilter's or NULL when it
 * did not run.  Strings and statuses are copied into rep's arena.
 */
void kp_pod_report_keep_nodes(struct kp_report *rep,
                              struct kp_pod_report *pr, size_t n,
                              const struct kp_status *statuses,
                              const bool *seen,
                              const struct kp_preempt_result *res);

/*
 * --fail-on: one line per reported pod and condition of fail_on it
 * matches, and per drain that would hang or stop (fail_on.c).
 */
void kp_fail_on_notes(const struct kp_snapshot *snap,
                      const struct kp_report *rep, unsigned fail_on,
                      struct kp_buf *out);

void kp_render_table(const struct kp_snapshot *snap,
                     const struct kp_report *rep, bool wide, bool no_headers,
                     struct kp_buf *out);
void kp_render_json(const struct kp_snapshot *snap,
                    const struct kp_report *rep, struct kp_buf *out);
/* -o describe: one block per reported pod, with its diagnosis. */
void kp_render_describe(const struct kp_snapshot *snap,
                        const struct kp_report *rep, struct kp_buf *out);
/* -o summary: reported pods counted per PriorityClass and namespace. */
void kp_render_summary(const struct kp_snapshot *snap,
                       const struct kp_report *rep, bool no_headers,
                       struct kp_buf *out);

#endif
