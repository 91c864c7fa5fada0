/*
 * report.h - the per-pod result model that renderers print, and the
 * analysis that fills it (simulate.c).
 */
#ifndef KP_REPORT_H
#define KP_REPORT_H

#include "kp.h"
#include "preemption.h"
#include "snapshot.h"

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
};

struct kp_report {
    struct kp_arena arena;
    enum kp_mode mode;
    size_t npods;                   /* pending pods, queue order */
    struct kp_pod_report *pods;
};

/* Analyse every pending pod of snap into rep (queue order). */
int kp_analyze(const struct kp_snapshot *snap, const struct kp_options *o,
               struct kp_report *rep, struct kp_error *err);
void kp_report_release(struct kp_report *rep);

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
