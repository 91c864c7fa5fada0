/*
 * fail_on.c - which reported pod matched which --fail-on condition: one
 * stderr line each (issue 26), so that an exit status 3 in a pipeline
 * says what to look at.  The status itself is run.c's.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "rollout.h"
#include "whatif.h"

static void
pdb_names(struct kp_buf *b, const struct kp_pod_report *pr)
{
    size_t i, j, n = 0;

    for (i = 0; i < pr->nvictims; i++) {
        const struct kp_victim_report *v = &pr->victims[i];

        if (!v->violates_pdb)
            continue;
        kp_buf_printf(b, "%s%s/%s (", n++ ? ", " : "", v->pod->ns,
                      v->pod->name);
        for (j = 0; j < v->npdbs; j++)
            kp_buf_printf(b, "%s%s/%s", j ? ", " : "", v->pdbs[j]->ns,
                          v->pdbs[j]->name);
        kp_buf_puts(b, ")");
    }
}

void
kp_fail_on_notes(const struct kp_snapshot *snap, const struct kp_report *rep,
                 unsigned fail_on, struct kp_buf *out)
{
    size_t i, j;

    /*
     * A drain that stops at once (kubectl drain's error before any
     * eviction: pods without a controller, local storage) is told from
     * one that would hang (evictions a PodDisruptionBudget refuses,
     * retried for ever as kubectl drain retries a 429).
     */
    for (i = 0; (fail_on & KP_FAIL_DRAIN_BLOCKED) && rep->whatif &&
         i < rep->whatif->nnodes; i++) {
        const struct kp_node_whatif *nw = &rep->whatif->nodes[i];
        const struct kp_drain_pod *first = NULL;
        size_t blocked = 0;

        for (j = 0; j < nw->npods; j++)
            if (nw->pods[j].outcome == KP_DRAIN_WAITING ||
                nw->pods[j].outcome == KP_DRAIN_BLOCKED) {
                if (!first)
                    first = &nw->pods[j];
                blocked++;
            }
        if (nw->stopped)
            kp_buf_printf(out, "fail-on drain-blocked: the drain of node "
                          "%s stops at once, evicting nothing: %s\n",
                          nw->node, nw->stopped);
        else if (first)
            kp_buf_printf(out, "fail-on drain-blocked: the drain of node "
                          "%s would hang: %zu pod(s) cannot be evicted, "
                          "first %s/%s (PodDisruptionBudget %s%s%s)\n",
                          nw->node, blocked, first->pod->ns,
                          first->pod->name,
                          first->pdb >= 0 ? snap->pdbs[first->pdb]->ns : "",
                          first->pdb >= 0 ? "/" : "",
                          first->pdb >= 0 ? snap->pdbs[first->pdb]->name
                                          : "several");
    }
    for (i = 0; (fail_on & KP_FAIL_ROLLOUT_BLOCKED) && snap->rollouts &&
         i < snap->rollouts->n; i++) {
        const struct kp_rollout *ro = snap->rollouts->v[i];

        if (ro->blocked)
            kp_buf_printf(out, "fail-on rollout-blocked: the rollout of %s "
                          "%s/%s never finishes: %s\n", ro->kind_name, ro->ns,
                          ro->name, ro->blocked);
    }
    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];
        const struct kp_pod *p = pr->pod;

        if (!pr->reported)
            continue;
        if ((fail_on & KP_FAIL_PREEMPTION) &&
            pr->result == KP_RESULT_PREEMPTS)
            kp_buf_printf(out, "fail-on preemption: pod %s/%s preempts "
                          "%zu pod(s) on node %s\n", p->ns, p->name,
                          pr->nvictims, snap->nodes[pr->nominated_node]->name);
        if ((fail_on & KP_FAIL_PDB_VIOLATION) && pr->pdb_violations > 0) {
            kp_buf_printf(out, "fail-on pdb-violation: pod %s/%s evicts ",
                          p->ns, p->name);
            pdb_names(out, pr);
            kp_buf_puts(out, "\n");
        }
        if ((fail_on & KP_FAIL_UNSCHEDULABLE) &&
            pr->result == KP_RESULT_UNSCHEDULABLE)
            kp_buf_printf(out, "fail-on unschedulable: pod %s/%s fits "
                          "nowhere, even after preemption\n", p->ns,
                          p->name);
    }
}
