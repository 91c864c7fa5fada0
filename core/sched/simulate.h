/*
 * simulate.h - the scheduling queue and one scheduling attempt per
 * pending pod (simulate.c): the analysis that fills a report (report.h).
 */
#ifndef KP_SIMULATE_H
#define KP_SIMULATE_H

#include "error.h"
#include "kp.h"
#include "model.h"
#include "report.h"
#include "snapshot.h"

/*
 * Analyse every pending pod of snap into rep (queue order), every pod
 * marked reported.  The same as kp_analyze_queue, then reported = true
 * for each pod, then kp_analyze_run.
 */
int kp_analyze(const struct kp_snapshot *snap, const struct kp_options *o,
               struct kp_report *rep, struct kp_error *err);
/*
 * The two halves of kp_analyze: the pending pods in queue order (none
 * reported yet; rep initialised, released by kp_report_release), then
 * the analysis.  Between them the caller marks the reported pods: with
 * o->explain_nodes only those keep a per-node view, so that 10,000 pods
 * on 5,000 nodes need not all hold one.
 */
void kp_analyze_queue(const struct kp_snapshot *snap,
                      const struct kp_options *o, struct kp_report *rep);
int kp_analyze_run(const struct kp_snapshot *snap, const struct kp_options *o,
                   struct kp_report *rep, struct kp_error *err);

/*
 * Queue mode, after kp_analyze_run filled rep: pod p's turn again (issue
 * 26, fixes.c), p as it is now (a caller may have changed it in place;
 * a raised priority moves its turn earlier), the cluster as the run left
 * it at that turn (the decisions of rep's pods before it applied,
 * nextStartNodeIndex as it was).  out gets one reported pod (released by
 * kp_report_release).  False, out untouched, in independent mode and
 * where the queue is not one pass in rep's order (node what-ifs,
 * rollouts).
 */
bool kp_analyze_at_turn(const struct kp_snapshot *snap,
                        const struct kp_options *o,
                        const struct kp_report *rep, const struct kp_pod *p,
                        struct kp_report *out);

/* PrioritySort: higher priority first, then creationTimestamp, ns, name. */
int kp_queue_cmp(const struct kp_pod *a, const struct kp_pod *b);

#endif
