/*
 * drain_notice.c - why --fail-on drain-blocked matched, for stderr
 * (issue 29): a drain that stopped at once (kubectl drain's error before
 * any eviction: pods without a controller, local storage) is not one that
 * would hang (evictions refused by a PodDisruptionBudget, retried for
 * ever as kubectl drain retries a 429).
 */
#include <stdio.h>

#include "report.h"
#include "whatif.h"

void
kp_drain_blocked_notice(const struct kp_snapshot *snap,
                        const struct kp_whatif *w, char *buf, size_t n)
{
    size_t i, j;

    buf[0] = '\0';
    for (i = 0; w && i < w->nnodes; i++) {
        const struct kp_node_whatif *nw = &w->nodes[i];
        const struct kp_drain_pod *first = NULL;
        size_t blocked = 0;

        if (nw->stopped) {
            snprintf(buf, n, "--fail-on drain-blocked: the drain of node "
                     "%s stops at once, evicting nothing: %s", nw->node,
                     nw->stopped);
            return;
        }
        for (j = 0; j < nw->npods; j++) {
            const struct kp_drain_pod *dp = &nw->pods[j];

            if (dp->outcome != KP_DRAIN_WAITING &&
                dp->outcome != KP_DRAIN_BLOCKED)
                continue;
            if (!first)
                first = dp;
            blocked++;
        }
        if (first) {
            snprintf(buf, n, "--fail-on drain-blocked: the drain of node %s "
                     "would hang: %zu pod(s) cannot be evicted, first "
                     "%s/%s (PodDisruptionBudget %s%s%s)", nw->node, blocked,
                     first->pod->ns, first->pod->name,
                     first->pdb >= 0 ? snap->pdbs[first->pdb]->ns : "",
                     first->pdb >= 0 ? "/" : "",
                     first->pdb >= 0 ? snap->pdbs[first->pdb]->name
                                     : "several");
            return;
        }
    }
}
