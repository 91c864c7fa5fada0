/*
 * describe.c - -o describe (issue 26): one block per reported pod, as
 * kubectl describe prints an object: what was decided, kube-scheduler's
 * message, then for a pod that does not fit as is the numbers behind it
 * (diagnosis.c): its requests, per Filter reason the nodes it rules out
 * and their specifics, what preemption made of them.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

static const char *const result_names[] = {"Fits", "Preempts",
                                           "Unschedulable", "NotEligible"};

static void
field(struct kp_buf *out, const char *name, const char *value)
{
    kp_buf_printf(out, "%-13s%s\n", name, value && value[0] ? value
                                                           : "<none>");
}

static void
victims(struct kp_buf *out, const struct kp_pod_report *pr)
{
    size_t i, j;

    if (pr->nvictims == 0)
        return;
    kp_buf_puts(out, "Victims:\n");
    for (i = 0; i < pr->nvictims; i++) {
        const struct kp_victim_report *v = &pr->victims[i];

        kp_buf_printf(out, "  %s/%s (priority %d)", v->pod->ns,
                      v->pod->name, v->pod->priority);
        if (v->violates_pdb) {
            kp_buf_puts(out, ": violates");
            for (j = 0; j < v->npdbs; j++)
                kp_buf_printf(out, "%s %s/%s", j ? "," : "", v->pdbs[j]->ns,
                              v->pdbs[j]->name);
        }
        kp_buf_puts(out, "\n");
    }
}

void
kp_render_describe(const struct kp_snapshot *snap,
                   const struct kp_report *rep, struct kp_buf *out)
{
    size_t i, first = 1;
    char line[1024];

    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];
        const struct kp_pod *p = pr->pod;

        if (!pr->reported)
            continue;
        if (!first)
            kp_buf_puts(out, "\n");
        first = 0;
        field(out, "Name:", p->name);
        field(out, "Namespace:", p->ns);
        snprintf(line, sizeof(line), "%d%s%s%s", p->priority,
                 p->priority_class ? " (" : "",
                 p->priority_class ? p->priority_class : "",
                 p->priority_class ? ")" : "");
        field(out, "Priority:", line);
        field(out, "Result:", result_names[pr->result]);
        if (pr->result == KP_RESULT_FITS)
            field(out, "Node:", snap->nodes[pr->node]->name);
        if (pr->nominated_node >= 0) {
            snprintf(line, sizeof(line), "%s (%zu victim(s), %d PDB "
                     "violation(s); decided by %s)",
                     snap->nodes[pr->nominated_node]->name, pr->nvictims,
                     pr->pdb_violations,
                     pr->decided_by ? pr->decided_by : "-");
            field(out, "Nominated:", line);
        } else if (pr->result == KP_RESULT_NOT_ELIGIBLE &&
                   p->nominated_node) {
            field(out, "Nominated:", p->nominated_node);
        }
        field(out, "Message:", pr->message);
        victims(out, pr);
        if (pr->diagnosis_text)
            kp_buf_puts(out, pr->diagnosis_text);
        if (pr->fixes_text) {
            /* fixes.c: the re-run kp_analyze_at_turn does, else alone */
            if (rep->mode == KP_MODE_QUEUE && !rep->whatif &&
                !snap->rollouts)
                kp_buf_puts(out, "Fixes:       each re-run at the pod's "
                            "turn in the queue (the pods before it as "
                            "decided)\n");
            else
                kp_buf_puts(out, "Fixes:       each re-run alone against "
                            "the snapshot\n");
            kp_buf_puts(out, pr->fixes_text);
        }
    }
}
