/*
 * node_report.c - the per-node view of --explain-nodes: for one pod, each
 * node's status from the filter pass (the Diagnosis.NodeToStatus of
 * pkg/scheduler/schedule_one.go) and from DryRunPreemption (the
 * NodeToStatus findCandidates returns in
 * pkg/scheduler/framework/preemption/preemption.go).  The FitError
 * histograms of the message are aggregations of exactly these statuses.
 *
 * Nodes mostly share a handful of statuses, so each distinct one is
 * interned once per report; a node costs two pointers and two counters.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

/* A key that tells statuses apart: every field, length-prefixed. */
static void
status_key(struct kp_buf *b, const struct kp_status *st,
           enum kp_node_preemption outcome)
{
    int r;

    b->len = 0;
    kp_buf_printf(b, "%d:%d:", (int)st->code, (int)outcome);
    if (st->plugin)
        kp_buf_printf(b, "%zu:%s", strlen(st->plugin), st->plugin);
    else
        kp_buf_puts(b, "-");
    for (r = 0; r < st->nreasons; r++)
        kp_buf_printf(b, "|%zu:%s", strlen(kp_status_reason(st, r)),
                      kp_status_reason(st, r));
}

static const struct kp_node_status *
intern_status(struct kp_report *rep, struct kp_buf *key,
              const struct kp_status *st, enum kp_node_preemption outcome)
{
    struct kp_node_status *ns;
    const char **reasons;
    int r;

    status_key(key, st, outcome);
    ns = kp_strmap_get(&rep->node_statuses, key->data);
    if (ns)
        return ns;
    ns = kp_arena_alloc(&rep->arena, sizeof(*ns));
    ns->code = st->code;
    ns->outcome = outcome;
    ns->plugin = kp_arena_intern(&rep->arena, st->plugin);
    ns->nreasons = st->nreasons;
    reasons = kp_arena_alloc(&rep->arena, ((size_t)st->nreasons + 1) *
                             sizeof(*reasons));
    /* reasons may live in the pod's scratch arena: copy them */
    for (r = 0; r < st->nreasons; r++)
        reasons[r] = kp_arena_intern(&rep->arena, kp_status_reason(st, r));
    ns->reasons = reasons;
    kp_strmap_put(&rep->node_statuses,
                  kp_arena_strndup(&rep->arena, key->data, key->len), ns);
    return ns;
}

/*
 * The status DryRunPreemption leaves for a node: its own for a node whose
 * SelectVictimsOnNode failed, else the absent-node status upstream sets
 * (UnschedulableAndUnresolvable, "Preemption is not helpful for
 * scheduling"), which the candidates never show since a FitError is
 * built only when there are none.
 */
static struct kp_status
dry_status(const struct kp_preempt_result *res, size_t i)
{
    switch (res->nodes[i].outcome) {
    case KP_NODE_NO_VICTIMS_HELP:
        return res->dry[i];
    case KP_NODE_NOT_TRIED:
        return kp_status_new(KP_UNRESOLVABLE,
                             KP_REASON_PREEMPTION_NOT_HELPFUL);
    default:
        return kp_status_ok();
    }
}

void
kp_pod_report_keep_nodes(struct kp_report *rep, struct kp_pod_report *pr,
                         size_t n, const struct kp_status *statuses,
                         const bool *seen,
                         const struct kp_preempt_result *res)
{
    struct kp_buf key;
    size_t i;

    if (res && !res->nodes)
        res = NULL;             /* not eligible: no dry run */
    kp_buf_init(&key);
    pr->nodes = kp_arena_alloc(&rep->arena, (n + 1) * sizeof(*pr->nodes));
    for (i = 0; i < n; i++) {
        struct kp_node_report *nr = &pr->nodes[i];
        struct kp_status dry;

        if (seen[i])
            nr->filter = intern_status(rep, &key, &statuses[i],
                                       KP_NODE_NOT_TRIED);
        if (!res)
            continue;
        dry = dry_status(res, i);
        nr->preemption = intern_status(rep, &key, &dry,
                                       res->nodes[i].outcome);
        nr->nvictims = (uint32_t)res->nodes[i].nvictims;
        nr->num_pdb_violations = (uint32_t)res->nodes[i].num_pdb_violations;
    }
    kp_buf_release(&key);
}
