/*
 * selfcheck.h - the incremental-state self-check of the test build.
 *
 * The dry run and the queue update state in place: the PreFilter states
 * of InterPodAffinity and PodTopologySpread through AddPod/RemovePod,
 * NodeInfo aggregates and used host ports, the victim tables, the PDB
 * budgets of queue mode and the per-node copies of the nominated pods.
 * Built with -DKP_SELFCHECK (the test build: make selfcheck), core/
 * compares each of them, at every step, with the same state recomputed
 * from scratch, and records every disagreement here; the normal build
 * compiles the calls away (KP_SELFCHECK_* below are empty).
 *
 * The recorder is always built (so that drivers link against either
 * build): kp_selfcheck_failures() is 0 in a build without the checks.
 */
#ifndef KP_SELFCHECK_H
#define KP_SELFCHECK_H

#include <stdbool.h>
#include <stddef.h>

/* Whether this build runs the checks (compiled with -DKP_SELFCHECK). */
bool kp_selfcheck_enabled(void);
/* Checks run and disagreements found since the last reset. */
size_t kp_selfcheck_checks(void);
size_t kp_selfcheck_failures(void);
/* The first disagreement's one-line description ("" when none). */
const char *kp_selfcheck_first(void);
void kp_selfcheck_reset(void);

struct kp_cycle;
struct kp_node_info;
struct kp_cluster;

/*
 * The checks (selfcheck_state.c), called through the macros below so
 * that the normal build compiles them away:
 * - node: a private NodeInfo (ni, a clone of the cycle's node changed by
 *   the dry run) and the cycle state c that went with it: aggregates and
 *   used ports from ni's pods; the InterPodAffinity and PodTopologySpread
 *   states against PreFilter run afresh on the cycle's cluster (no victim
 *   tables: the slow path) with the pods taken out and put in replayed
 *   through RemovePod/AddPod on that fresh state, and InterPodAffinity's
 *   also against PreFilter run on the cluster with ni in place;
 * - nominated: (nc, nni) is (c, ni) with the nominated pods of equal or
 *   higher priority added (addGENominatedPods), nothing else;
 * - cluster: between two pods of the queue, every NodeInfo's aggregates
 *   and ports, its victim table against one built afresh, the nominated
 *   pods' dense copies, and the PDB budgets against the budgets counted
 *   from the snapshot's PDBs and the pods removed so far.
 */
void kp_selfcheck_node_state(const struct kp_cycle *c,
                             const struct kp_node_info *ni);
void kp_selfcheck_nominated_copy(const struct kp_cycle *c,
                                 const struct kp_node_info *ni,
                                 const struct kp_node_info *nni);
/*
 * The nominated copy the Filter pass kept from an earlier pod (nni) is
 * the one kp_cycle_with_nominated makes afresh for this pod: same pods in
 * the same order, same sums and ports.
 */
void kp_selfcheck_nominated_kept(const struct kp_cycle *c,
                                 const struct kp_node_info *ni,
                                 const struct kp_node_info *nni);
void kp_selfcheck_cluster(const struct kp_cluster *cl);

#ifdef KP_SELFCHECK
#define KP_SELFCHECK_NODE(c, ni) kp_selfcheck_node_state((c), (ni))
#define KP_SELFCHECK_NOMINATED(c, ni, nni) \
    kp_selfcheck_nominated_copy((c), (ni), (nni))
#define KP_SELFCHECK_NOMINATED_KEPT(c, ni, nni) \
    kp_selfcheck_nominated_kept((c), (ni), (nni))
#define KP_SELFCHECK_CLUSTER(cl) kp_selfcheck_cluster(cl)
#else
#define KP_SELFCHECK_NODE(c, ni) ((void)0)
#define KP_SELFCHECK_NOMINATED(c, ni, nni) ((void)0)
#define KP_SELFCHECK_NOMINATED_KEPT(c, ni, nni) ((void)0)
#define KP_SELFCHECK_CLUSTER(cl) ((void)0)
#endif

/* For the checks themselves (thread-safe). */
void kp_selfcheck_count(void);
void kp_selfcheck_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

#endif
