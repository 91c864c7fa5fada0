/*
 * victim_memo.h - SelectVictimsOnNode's answers kept across the pods of a
 * run, for pods whose answer on a node is a function of few things.
 *
 * Upstream has no such cache: it runs SelectVictimsOnNode afresh on
 * every potential node of every pod.  When, after PreFilter, the only
 * Filter plugin that runs on a potential node and is not node_static is
 * NodeResourcesFit (no InterPodAffinity or PodTopologySpread state, no
 * host ports, no volumes the volume plugins check), the answer on a node
 * other than the one the pod is nominated to (where its own nomination
 * is left out of the nominated pods) depends only on
 *   - the pod's profile, priority and requests (its "signature": pods of
 *     one workload share it),
 *   - the node's pods (kp_node_info.gen),
 *   - the node's nominated pods (kp_cluster.nominated_gen),
 *   - and, once the pod fits with every lower-priority pod removed, the
 *     budgets of the PDBs of those pods, only through which of them
 *     violate a budget (filterPodsWithPDBViolation): an answer is kept
 *     with that split and the time (kp_cluster.pdb_clock); while none of
 *     those PDBs changed since (kp_cluster.pdb_changed) it is served as
 *     it is, else the split is worked out again and compared.
 * Each node keeps the answers of its last few signatures.  Used only
 * while pods are analysed one at a time (queue mode, or independent mode
 * on one thread); in one pod's dry run a node is handled by one thread.
 * The self-check build (selfcheck.h) computes every answer it serves
 * afresh and compares.
 */
#ifndef KP_VICTIM_MEMO_H
#define KP_VICTIM_MEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "candidate.h"
#include "framework.h"

struct kp_victim_memo;

/* A memo for cl (NULL: none); freed by kp_victim_memo_free. */
struct kp_victim_memo *kp_victim_memo_new(const struct kp_cluster *cl);
void kp_victim_memo_free(struct kp_victim_memo *m);

/*
 * The signature of c's pod (1 and up), or 0 when its answers must not be
 * memoised; from the thread running the cycle, before the dry run.
 */
uint32_t kp_victim_memo_key(struct kp_victim_memo *m,
                            const struct kp_cycle *c);

/*
 * The answer kept for (key, node) when still valid: the status and, when
 * it is a success, the candidate (victims copied into a); the potential
 * victims are vt->pods[first..].  1: served; 0: none kept, or no longer
 * valid; -1: valid only if filterPodsWithPDBViolation still splits the
 * potential victims as it did (a PDB of theirs changed since): call
 * again with violating, that split worked out now (NULL the first time).
 * A partial answer (candidate.h) is served only when partial_ok, as a
 * partial answer holds on the same conditions as the whole one.
 */
int kp_victim_memo_get(struct kp_victim_memo *m, uint32_t key,
                       const struct kp_cluster *cl, int node,
                       const struct kp_victim_table *vt, size_t first,
                       const bool *violating, bool partial_ok,
                       struct kp_arena *a, struct kp_status *st,
                       struct kp_candidate *out);
/*
 * Keep an answer; violating (npotential flags) is the split it was made
 * with, read only when st is a success, as cand is.
 */
void kp_victim_memo_put(struct kp_victim_memo *m, uint32_t key,
                        const struct kp_cluster *cl, int node,
                        const bool *violating, size_t npotential,
                        const struct kp_status *st,
                        const struct kp_candidate *cand);

#endif
