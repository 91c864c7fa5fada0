/*
 * diagnosis_detail.h - the specifics of the Filter reasons that
 * diagnosis.c used to count only (issue 26, item 1), and the PDBs that
 * weigh on a preemption's candidates (item 2): diagnosis_detail.c.
 *
 * Each kp_diag_* appends JSON members (", \"key\": ...") to js, inside
 * the reason's object of "filters" (or of "preemption"), and the same in
 * words to tx, one or more lines indented as diagnosis.c indents them.
 * Everything is read from the cluster as it stands at the pod's turn
 * (c->cl); scratch memory from c->scratch.
 */
#ifndef KP_DIAGNOSIS_DETAIL_H
#define KP_DIAGNOSIS_DETAIL_H

#include "buf.h"
#include "framework.h"
#include "report.h"

/*
 * PodTopologySpread: per DoNotSchedule constraint, its topologyKey,
 * maxSkew and selector, the domains with their matching pods as
 * PreFilter counts them, the global minimum, which domains the pod
 * would push past maxSkew, and the nodes without the key.
 */
void kp_diag_spread(const struct kp_cycle *c, struct kp_buf *js,
                    struct kp_buf *tx);
/*
 * InterPodAffinity, for one of its reasons: the pod's required
 * (anti-)affinity terms with the pods that match each and their domains,
 * or the existing pods whose required anti-affinity matches the pod.
 */
void kp_diag_pod_affinity(const struct kp_cycle *c, const char *reason,
                          struct kp_buf *js, struct kp_buf *tx);
/*
 * The volume plugins: each claim of the pod (when claims: once per pod),
 * its StorageClass and binding mode, its PersistentVolume with the zone
 * and the nodes its node affinity admits, the pods using it; for
 * NodeVolumeLimits, the attach limits of the nodes it rules out.
 */
void kp_diag_volumes(const struct kp_cycle *c, const struct kp_status *st,
                     const char *plugin, bool claims, struct kp_buf *js,
                     struct kp_buf *tx);
/* NodeUnschedulable: the cordoned nodes it rules out. */
void kp_diag_unschedulable(const struct kp_cycle *c,
                           const struct kp_status *st, struct kp_buf *js,
                           struct kp_buf *tx);
/* NodeName: the node spec.nodeName names, and whether it exists. */
void kp_diag_node_name(const struct kp_cycle *c, struct kp_buf *js,
                       struct kp_buf *tx);
/*
 * The PDBs a candidate's victims would violate: per candidate and PDB,
 * disruptionsAllowed at the pod's turn, the victims it covers there and
 * the pods it covers in the cluster.  Appends ", \"pdbBlocks\": [...]"
 * and lines to tx only when some candidate violates a PDB; returns how
 * many (candidate, PDB) pairs it wrote.
 */
size_t kp_diag_pdb_blocks(const struct kp_cycle *c,
                          const struct kp_pod_report *pr, struct kp_buf *js,
                          struct kp_buf *tx);

#endif
