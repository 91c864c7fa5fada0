/*
 * preemption.h - the Evaluator: DefaultPreemption's PostFilter for one pod.
 *
 * Mirrors pkg/scheduler/framework/preemption/preemption.go (Preempt,
 * findCandidates, DryRunPreemption, SelectCandidate,
 * pickOneNodeForPreemption) and pkg/scheduler/framework/plugins/
 * defaultpreemption/default_preemption.go (PodEligibleToPreemptOthers,
 * SelectVictimsOnNode, filterPodsWithPDBViolation, calculateNumCandidates).
 */
#ifndef KP_PREEMPTION_H
#define KP_PREEMPTION_H

#include "default_preemption.h"
#include "framework.h"

/*
 * What DryRunPreemption made of one node (recorded only on request).
 * Upstream keeps a status only for the nodes whose SelectVictimsOnNode
 * failed; every other node reads as "Preemption is not helpful for
 * scheduling" in the FitError, candidates included.
 */
enum kp_node_preemption {
    KP_NODE_NOT_TRIED,          /* filter code not Unschedulable */
    KP_NODE_NOT_EVALUATED,      /* potential, but the dry run stopped first */
    KP_NODE_NO_VICTIMS_HELP,    /* SelectVictimsOnNode failed: dry[node] */
    KP_NODE_CANDIDATE,          /* in the candidate list */
    KP_NODE_DROPPED             /* victims found, but the list was full */
};

struct kp_preempt_node {
    enum kp_node_preemption outcome;
    size_t nvictims;                        /* CANDIDATE, DROPPED */
    int num_pdb_violations;
};

enum kp_preempt_outcome {
    KP_PREEMPT_NOT_ELIGIBLE,
    KP_PREEMPT_NO_CANDIDATES,
    KP_PREEMPT_CHOSEN
};

struct kp_preempt_result {
    enum kp_preempt_outcome outcome;
    const char *message;        /* PostFilter text without "preemption: " */
    size_t ncandidates;
    struct kp_candidate *candidates;        /* DryRunPreemption order */
    int chosen;                             /* index into candidates */
    const char *decided_by;
    size_t npotential;                      /* nodes where it might help */
    size_t num_candidates;                  /* k of GetOffsetAndNumCandidates */
    size_t nexamined;                       /* nodes dry-run */
    /*
     * With args->record_nodes and a dry run (not NOT_ELIGIBLE): per node
     * (snapshot order) the outcome, and dry[i] the status DryRunPreemption
     * recorded for a NO_VICTIMS_HELP node.  Both in c->scratch.
     */
    struct kp_preempt_node *nodes;
    const struct kp_status *dry;
};

/*
 * Run preemption for c->pod given each node's status from the filter
 * pass.  All memory comes from c->scratch.
 */
void kp_preempt(struct kp_cycle *c, const struct kp_status *statuses,
                const struct kp_preempt_args *args,
                struct kp_preempt_result *out);

/* The reason upstream gives nodes absent from DryRunPreemption's map. */
#define KP_REASON_PREEMPTION_NOT_HELPFUL \
    "Preemption is not helpful for scheduling"

/* The histogram form of FitError: "<n> <reason>, ..." sorted as strings. */
char *kp_reason_histogram(struct kp_arena *a, const struct kp_status *st,
                          size_t n, const char *absent_reason);
/*
 * The same from reasons already counted (reasons[i] counts[i] times;
 * equal strings are summed): "<n> <reason>, ..." sorted as strings
 */
char *kp_reason_histogram_of(struct kp_arena *a, const char *const *reasons,
                             const size_t *counts, size_t n);

#endif
