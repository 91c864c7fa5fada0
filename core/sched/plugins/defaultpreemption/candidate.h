/*
 * candidate.h - what DefaultPreemption's SelectVictimsOnNode gives the
 * Evaluator for one node (a candidate: its victims, most important first,
 * and the PDBs they violate: the Candidate of
 * pkg/scheduler/framework/preemption/preemption.go, candidate.go in newer
 * releases) and the Evaluator's arguments
 * (DefaultPreemptionArgs' minCandidateNodesPercentage/Absolute).  Moved
 * verbatim from preemption.h (issue 28): default_preemption.c and the
 * Evaluator both read them.
 */
#ifndef KP_CANDIDATE_H
#define KP_CANDIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "framework.h"

struct kp_preempt_args {
    int min_candidate_nodes_percentage;     /* 10 */
    int min_candidate_nodes_absolute;       /* 100 */
    long offset;                            /* 0 */
    bool record_nodes;                      /* fill out->nodes */
    /*
     * Work of the caller's (the diagnosis's part that reads only the
     * statuses and the nodes, diagnosis.h) run by the calling thread
     * while the others start the dry run (kp_pool_run_side), or NULL.
     * Not run when there is no dry run: the caller checks.
     */
    void (*side)(void *);
    void *side_ctx;
};

struct kp_candidate {
    int node;
    size_t nvictims;
    const struct kp_pod **victims;          /* most important first */
    bool *violating;                        /* per victim: PDB violated */
    int num_pdb_violations;
    /*
     * SelectVictimsOnNode stopped once it knew this is a candidate that
     * violates a PDB (kp_select_victims_on_node's violating_enough): the
     * victims are the first it kept, and the counts at least 1.  Never
     * among DryRunPreemption's candidates.
     */
    bool partial;
};

#endif
