/*
 * fixes.h - checked fixes for Unschedulable pods (fixes.c, issue 26):
 * changes to the pod re-run through the analysis, kept only when the pod
 * then Fits or Preempts.
 */
#ifndef KP_FIXES_H
#define KP_FIXES_H

#include "kp.h"
#include "report.h"
#include "snapshot.h"

#define KP_FIXES_MAX_PODS 10        /* Unschedulable pods looked at */
#define KP_FIXES_MAX_TRIES 8        /* changes re-run per pod */
#define KP_FIXES_MAX_SHOWN 3        /* verified fixes kept per pod */

/*
 * For the first KP_FIXES_MAX_PODS reported Unschedulable pods of rep,
 * set pr->fixes_json and pr->fixes_text.  Each change is made on the
 * snapshot's pod and undone before the next.
 */
void kp_suggest_fixes(struct kp_snapshot *snap, const struct kp_options *o,
                      struct kp_report *rep);

/*
 * The node a copy of which could take p (core/fix_add_node.c): the
 * first, in the snapshot's order, whose NoSchedule and NoExecute taints
 * p tolerates, whose labels p's nodeSelector and required node affinity
 * match (a copy's hostname label is its own name: the re-run accounts
 * for it) and whose allocatable covers each of p's requests; NULL when
 * none.
 */
const struct kp_node *kp_fix_like_node(const struct kp_snapshot *snap,
                                       const struct kp_pod *p);

#endif
