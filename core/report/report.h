/*
 * report.h - the per-pod result model that renderers print, and the
 * analysis that fills it (simulate.c).
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
};

/* A pod named or matched but not analysed, and why (run.c). */
struct kp_not_analysed {
    const struct kp_pod *pod;
    const char *reason;     /* SchedulingGated, OtherScheduler, ... */
};

struct kp_whatif;                   /* whatif.h */

struct kp_report {
    struct kp_arena arena;
    /* node what-if (issue 19): set by the caller, NULL without one */
    struct kp_whatif *whatif;
    /* notAnalysed and the warnings, for -o json (in rep->arena) */
    size_t nnot_analysed;
    struct kp_not_analysed *not_analysed;
    size_t nwarnings;
    const char **warnings;
    struct kp_strmap node_statuses;         /* interned kp_node_status */
    enum kp_mode mode;
    bool explain_nodes;             /* renderers print pr->nodes */
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

/*
 * Analyse every pending pod of snap into rep (queue order), every pod
 * marked reported.  The same as kp_analyze_queue, then reported = true
 * for each pod, then kp_analyze_run.
 */
int kp_analyze(const struct kp_snapshot *snap, const struct kp_options *o,
               struct kp_report *rep, struct kp_error *err);
/*
 * The two halves of kp_analyze: the pending pods in queue order (none
 * reported yet), then the analysis.  Between them the caller marks the
 * reported pods: with o->explain_nodes only those keep a per-node view,
 * so that 10,000 pods on 5,000 nodes need not all hold one.
 */
void kp_analyze_queue(const struct kp_snapshot *snap,
                      const struct kp_options *o, struct kp_report *rep);
int kp_analyze_run(const struct kp_snapshot *snap, const struct kp_options *o,
                   struct kp_report *rep, struct kp_error *err);
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

/* PrioritySort: higher priority first, then creationTimestamp, ns, name. */
int kp_queue_cmp(const struct kp_pod *a, const struct kp_pod *b);

void kp_render_table(const struct kp_snapshot *snap,
                     const struct kp_report *rep, bool wide, bool no_headers,
                     struct kp_buf *out);
void kp_render_json(const struct kp_snapshot *snap,
                    const struct kp_report *rep, struct kp_buf *out);
/* -o summary: reported pods counted per PriorityClass and namespace. */
void kp_render_summary(const struct kp_snapshot *snap,
                       const struct kp_report *rep, bool no_headers,
                       struct kp_buf *out);

/* Move the snapshot's warnings into r; add one more (run.c). */
void kp_run_result_take_warnings(struct kp_run_result *r,
                                 struct kp_snapshot *s);
void kp_run_result_add_warning(struct kp_run_result *r, const char *msg);

/* Node chosen among feasible ones (score.c). */
int kp_select_host(struct kp_cycle *c, const int *feasible, size_t n);

#endif
