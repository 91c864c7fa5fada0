/*
 * rollout_render.c - rollouts of workloads that already run (rollout.h)
 * in the report: "rollout" on each new pod and "rollouts" in -o json,
 * one block per rollout after the table (its first line after -o
 * summary).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "rollout.h"

static const char *const results[] = {"Fits", "Preempts", "Unschedulable",
                                      "NotEligible"};

static const char *
strategy_name(const struct kp_rollout *ro)
{
    switch (ro->strategy) {
    case KP_ROLLOUT_ROLLING:
        return "RollingUpdate";
    case KP_ROLLOUT_RECREATE:
        return "Recreate";
    case KP_ROLLOUT_ON_DELETE:
        return "OnDelete";
    case KP_ROLLOUT_SCALE:
        break;
    }
    return "Scale";
}

static bool
has_surge(const struct kp_rollout *ro)
{
    return ro->strategy == KP_ROLLOUT_ROLLING &&
           (ro->kind == KP_ROLLOUT_DEPLOYMENT ||
            ro->kind == KP_ROLLOUT_DAEMONSET);
}

/* created, deleted and preempted over all waves */
static void
totals(const struct kp_rollout *ro, size_t *c, size_t *d, size_t *p)
{
    size_t i;

    *c = *d = *p = 0;
    for (i = 0; i < ro->nwaves; i++) {
        *c += ro->waves[i].ncreated;
        *d += ro->waves[i].ndeleted;
        *p += ro->waves[i].npreempted;
    }
}

/* ---- JSON ---- */

static void
json_ref(struct kp_buf *b, const struct kp_pod *p)
{
    kp_buf_puts(b, "{\"namespace\": ");
    kp_buf_json_str(b, p->ns);
    kp_buf_puts(b, ", \"name\": ");
    kp_buf_json_str(b, p->name);
}

void
kp_rollout_json_pod(const struct kp_pod *p, struct kp_buf *b)
{
    const struct kp_rollout_pod *rp = p->rollout;

    if (!rp)
        return;
    kp_buf_puts(b, ",\n      \"rollout\": {\"kind\": ");
    kp_buf_json_str(b, rp->ro->kind_name);
    kp_buf_puts(b, ", \"name\": ");
    kp_buf_json_str(b, rp->ro->name);
    kp_buf_printf(b, ", \"wave\": %d, \"replaces\": ", rp->wave);
    kp_buf_json_str_or_null(b, p->replaces);
    kp_buf_puts(b, "}");
}

char *
kp_rollout_wide_note(const struct kp_pod *p, char *note)
{
    const struct kp_rollout_pod *rp = p->rollout;
    size_t n;
    char *s;

    if (!rp)
        return note;
    n = strlen(note) + strlen(rp->ro->ns) + strlen(rp->ro->name) +
        (p->replaces ? strlen(p->replaces) : 0) + 96;
    s = kp_xmalloc(n);
    snprintf(s, n, "rolled out by %s %s/%s in wave %d%s%s%s: %s",
             rp->ro->kind_name, rp->ro->ns, rp->ro->name, rp->wave,
             p->replaces ? " (replaces " : "",
             p->replaces ? p->replaces : "", p->replaces ? ")" : "", note);
    free(note);
    return s;
}

static void
json_pods(struct kp_buf *b, const char *key, const struct kp_pod *const *v,
          size_t n, const struct kp_snapshot *snap, bool where)
{
    size_t i;

    kp_buf_printf(b, ", \"%s\": [", key);
    for (i = 0; i < n; i++) {
        const struct kp_rollout_pod *rp = v[i]->rollout;

        kp_buf_puts(b, i ? ", " : "");
        json_ref(b, v[i]);
        if (where && rp && rp->node_ran >= 0) {
            kp_buf_puts(b, ", \"node\": ");
            kp_buf_json_str(b, snap->nodes[rp->node_ran]->name);
        }
        if (!where && rp) {
            kp_buf_puts(b, ", \"replaces\": ");
            kp_buf_json_str_or_null(b, v[i]->replaces);
        }
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, "]");
}

static void
json_wave(struct kp_buf *b, const struct kp_snapshot *snap,
          const struct kp_rollout_wave *w)
{
    size_t i;

    kp_buf_printf(b, "{\"wave\": %d", w->wave);
    json_pods(b, "created", w->created, w->ncreated, snap, false);
    json_pods(b, "running", w->running, w->nrunning, snap, true);
    json_pods(b, "deleted", w->deleted, w->ndeleted, snap, false);
    kp_buf_puts(b, ", \"preempted\": [");
    for (i = 0; i < w->npreempted; i++) {
        kp_buf_puts(b, i ? ", " : "");
        json_ref(b, w->preempted[i].victim);
        kp_buf_puts(b, ", \"by\": ");
        kp_buf_json_str(b, w->preempted[i].by->name);
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, "]");
    json_pods(b, "pending", w->pending, w->npending, snap, false);
    kp_buf_puts(b, "}");
}

void
kp_rollout_json(const struct kp_snapshot *snap, struct kp_buf *b)
{
    const struct kp_rollout_set *set = snap->rollouts;
    size_t i, j;

    if (!set)
        return;
    kp_buf_puts(b, ",\n  \"rollouts\": [");
    for (i = 0; i < set->n; i++) {
        const struct kp_rollout *ro = set->v[i];

        kp_buf_puts(b, i ? ",\n    {\"kind\": " : "\n    {\"kind\": ");
        kp_buf_json_str(b, ro->kind_name);
        kp_buf_puts(b, ", \"namespace\": ");
        kp_buf_json_str(b, ro->ns);
        kp_buf_puts(b, ", \"name\": ");
        kp_buf_json_str(b, ro->name);
        kp_buf_printf(b, ", \"strategy\": \"%s\", \"replicas\": %d",
                      strategy_name(ro), (int)ro->replicas);
        if (has_surge(ro))
            kp_buf_printf(b, ", \"maxSurge\": %d, \"maxUnavailable\": %d",
                          (int)ro->max_surge, (int)ro->max_unavailable);
        if (ro->kind == KP_ROLLOUT_STATEFULSET) {
            if (ro->strategy == KP_ROLLOUT_ROLLING)
                kp_buf_printf(b, ", \"partition\": %d", (int)ro->partition);
            kp_buf_printf(b, ", \"podManagementPolicy\": \"%s\"",
                          ro->parallel ? "Parallel" : "OrderedReady");
        }
        kp_buf_printf(b, ",\n     \"oldPods\": %zu, \"newPods\": %zu, "
                      "\"complete\": %s, \"blocked\": ", ro->nold, ro->nnew,
                      ro->blocked ? "false" : "true");
        if (ro->blocked) {
            kp_buf_puts(b, "{\"pod\": ");
            if (ro->blocked_pod) {
                json_ref(b, ro->blocked_pod);
                kp_buf_puts(b, "}");
            } else
                kp_buf_puts(b, "null");
            kp_buf_puts(b, ", \"reason\": ");
            kp_buf_json_str(b, ro->blocked);
            kp_buf_puts(b, "}");
        } else
            kp_buf_puts(b, "null");
        kp_buf_puts(b, ",\n     \"waves\": [");
        for (j = 0; j < ro->nwaves; j++) {
            kp_buf_puts(b, j ? ",\n       " : "\n       ");
            json_wave(b, snap, &ro->waves[j]);
        }
        kp_buf_puts(b, ro->nwaves ? "\n     ]}" : "]}");
    }
    kp_buf_puts(b, set->n ? "\n  ]" : "]");
}

/* ---- text ---- */

static const struct kp_pod_report *
report_of(const struct kp_report *rep, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < rep->npods; i++)
        if (rep->pods[i].pod == p)
            return &rep->pods[i];
    return NULL;
}

static void
text_header(struct kp_buf *b, const struct kp_rollout *ro)
{
    size_t c, d, p;

    totals(ro, &c, &d, &p);
    kp_buf_printf(b, "Rollout of %s %s/%s: %s", ro->kind_name, ro->ns,
                  ro->name, strategy_name(ro));
    if (has_surge(ro))
        kp_buf_printf(b, " (maxSurge %d, maxUnavailable %d)",
                      (int)ro->max_surge, (int)ro->max_unavailable);
    else if (ro->kind == KP_ROLLOUT_STATEFULSET &&
             ro->strategy == KP_ROLLOUT_ROLLING)
        kp_buf_printf(b, " (partition %d%s)", (int)ro->partition,
                      ro->parallel ? ", Parallel" : "");
    kp_buf_printf(b, ", %zu old pod(s), %zu new pod(s), %d replicas: "
                  "%zu wave(s), %zu created, %zu deleted, %zu preempted",
                  ro->nold, ro->nnew, (int)ro->replicas, ro->nwaves, c, d,
                  p);
    if (ro->blocked)
        kp_buf_printf(b, "; the rollout would never finish: %s",
                      ro->blocked);
    else
        kp_buf_puts(b, "; complete");
    if (ro->strategy == KP_ROLLOUT_ON_DELETE)
        kp_buf_puts(b, " (OnDelete: the old pods stay until deleted)");
    else if (ro->strategy == KP_ROLLOUT_SCALE)
        kp_buf_puts(b, " (a ReplicaSet does not replace the pods it keeps)");
    kp_buf_puts(b, "\n");
}

static void
text_wave(struct kp_buf *b, const struct kp_snapshot *snap,
          const struct kp_report *rep, const struct kp_rollout_wave *w)
{
    size_t i;

    for (i = 0; i < w->ncreated; i++) {
        kp_buf_printf(b, "  wave %-3d created     %s/%s", w->wave,
                      w->created[i]->ns, w->created[i]->name);
        if (w->created[i]->replaces)
            kp_buf_printf(b, " (replaces %s)", w->created[i]->replaces);
        kp_buf_puts(b, "\n");
    }
    for (i = 0; i < w->ndeleted; i++)
        kp_buf_printf(b, "  wave %-3d deleted     %s/%s\n", w->wave,
                      w->deleted[i]->ns, w->deleted[i]->name);
    for (i = 0; i < w->nrunning; i++) {
        const struct kp_pod_report *pr = report_of(rep, w->running[i]);
        const struct kp_rollout_pod *rp = w->running[i]->rollout;

        kp_buf_printf(b, "  wave %-3d runs        %s/%s: %s on %s\n",
                      w->wave, w->running[i]->ns, w->running[i]->name,
                      pr ? results[pr->result] : "runs",
                      rp->node_ran >= 0 ? snap->nodes[rp->node_ran]->name
                                        : "?");
    }
    for (i = 0; i < w->npreempted; i++)
        kp_buf_printf(b, "  wave %-3d preempted   %s/%s (by %s)\n", w->wave,
                      w->preempted[i].victim->ns,
                      w->preempted[i].victim->name, w->preempted[i].by->name);
    for (i = 0; i < w->npending; i++) {
        const struct kp_pod_report *pr = report_of(rep, w->pending[i]);

        kp_buf_printf(b, "  wave %-3d pending     %s/%s: %s\n", w->wave,
                      w->pending[i]->ns, w->pending[i]->name,
                      pr ? results[pr->result] : "not scheduled");
    }
}

void
kp_rollout_text(const struct kp_snapshot *snap, const struct kp_report *rep,
                bool summary, struct kp_buf *b)
{
    const struct kp_rollout_set *set = snap->rollouts;
    size_t i, j;

    if (!set)
        return;
    if (b->len)
        kp_buf_puts(b, "\n");      /* after the table */
    for (i = 0; i < set->n; i++) {
        const struct kp_rollout *ro = set->v[i];

        text_header(b, ro);
        for (j = 0; !summary && j < ro->nwaves; j++)
            text_wave(b, snap, rep, &ro->waves[j]);
    }
}
