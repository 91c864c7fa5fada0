/*
 * default_preemption.h - the DefaultPreemption plugin's part of
 * preemption (default_preemption.c), called by the Evaluator
 * (preemption.c) as upstream's Evaluator calls its PreemptionInterface.
 */
#ifndef KP_DEFAULT_PREEMPTION_H
#define KP_DEFAULT_PREEMPTION_H

#include "candidate.h"
#include "framework.h"

/*
 * PodEligibleToPreemptOthers: NULL when the pod may preempt, else the
 * message saying why not (static text).
 */
const char *kp_pod_eligible_to_preempt_others(const struct kp_cycle *c,
                                              const struct kp_status *st);
/*
 * SelectVictimsOnNode's status where the node has no lower-priority pod
 * (its only reason, this array itself: a reader may compare pointers)
 */
extern const char kp_reason_no_victims[];
/*
 * SelectVictimsOnNode on node for c's pod: Success with *out filled (the
 * victims most important first, memory from c->scratch), or the status
 * that says why no victims help there.  With violating_enough (the dry
 * run, walking the nodes in order on one thread, already has as many
 * PDB-violating candidates as it keeps, so one more is dropped unread) the reprieve loop may stop at its first
 * PDB-violating victim: *out is then partial (candidate.h).
 */
struct kp_status kp_select_victims_on_node(const struct kp_cycle *c,
                                           int node, bool violating_enough,
                                           struct kp_candidate *out);
/*
 * What kp_select_victims_on_node(c, node, ...) reads first, asked for
 * ahead (a hint: no answer depends on it).  The dry run walks thousands
 * of nodes a pod, and each node's victim table is a block of its own
 * that is rarely in cache.  far: the table's first lines and the node's
 * NodeInfo, for a node two or more steps ahead; else (the next node,
 * whose first lines were asked for before) the arrays those lines point
 * to.
 */
void kp_select_victims_prefetch(const struct kp_cycle *c, int node,
                                bool far);
/*
 * The Filter plugins [0, the answer) that run on a potential node for
 * c's pod (not skipped after PreFilter, not node_static) are
 * NodeResourcesFit alone, which reads nothing but NodeInfo sums, and
 * SelectVictimsOnNode checks them on the node's sums instead of a copy
 * of its pods (kp_cycle.sums_upto): kp_nfilter_plugins, all of them,
 * and its whole answer is made on sums; else the first plugin with a
 * hook, the first check's part before it; 0 (and with KP_NO_FIT_SUMS=1):
 * none.  Once per pod, not per node.
 */
size_t kp_victims_on_sums(const struct kp_cycle *c);
/*
 * calculateNumCandidates: how many candidates DryRunPreemption looks for
 * among n potential nodes.
 */
size_t kp_calculate_num_candidates(const struct kp_preempt_args *args,
                                   size_t n);

#endif
