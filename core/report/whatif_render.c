/*
 * whatif_render.c - the node what-ifs in the report: "displaced" on each
 * recreated pod, "drains" and "removedNodes" in -o json, lines after the
 * table (and counts after -o summary).  See whatif.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object_meta.h"
#include "whatif.h"
#include "report.h"

static const char *const results[] = {"Fits", "Preempts", "Unschedulable",
                                      "NotEligible"};

static const struct kp_pod_report *
report_of(const struct kp_report *rep, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; p && i < rep->npods; i++)
        if (rep->pods[i].pod == p)
            return &rep->pods[i];
    return NULL;
}

static bool
runs(const struct kp_pod_report *pr)
{
    return pr && (pr->result == KP_RESULT_FITS ||
                  pr->result == KP_RESULT_PREEMPTS);
}

/* Replacements under PDB j that do not run elsewhere. */
static size_t
stuck_under(const struct kp_report *rep, int j)
{
    size_t i, k, n = 0;

    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod *p = rep->pods[i].pod;

        if (!p->displaced || runs(&rep->pods[i]))
            continue;
        for (k = 0; k < p->npdbs; k++)
            n += p->pdbs[k] == j;
    }
    return n;
}

/* Why a refused eviction never goes through. */
static void
hang_reason(struct kp_buf *b, const struct kp_snapshot *snap,
            const struct kp_report *rep, const struct kp_drain_pod *dp)
{
    size_t stuck;

    if (dp->outcome == KP_DRAIN_BLOCKED) {
        kp_buf_printf(b, "the Eviction API refuses it (500): %s kubectl "
                      "drain stops with this error", dp->why);
        return;
    }
    stuck = stuck_under(rep, dp->pdb);
    kp_buf_printf(b, "the Eviction API refuses it (429: %s); PDB %s/%s "
                  "allows no more disruption and ", dp->why,
                  snap->pdbs[dp->pdb]->ns, snap->pdbs[dp->pdb]->name);
    if (stuck)
        kp_buf_printf(b, "%zu replacement(s) it covers stay pending, so "
                      "the budget never comes back", stuck);
    else
        kp_buf_puts(b, "no replacement it covers is about to run, so the "
                    "budget never comes back");
    kp_buf_puts(b, ": kubectl drain retries every 5 s, the drain would "
                "hang");
}

static const char *
why_text(struct kp_buf *tmp, const struct kp_snapshot *snap,
         const struct kp_report *rep, const struct kp_drain_pod *dp)
{
    tmp->len = 0;
    if (dp->outcome == KP_DRAIN_WAITING || dp->outcome == KP_DRAIN_BLOCKED)
        hang_reason(tmp, snap, rep, dp);
    else
        kp_buf_puts(tmp, dp->why ? dp->why : "");
    kp_buf_add(tmp, "", 1);
    return tmp->data;
}

/* ---- JSON ---- */

void
kp_whatif_json_pod(const struct kp_pod *p, struct kp_buf *b)
{
    if (!p->displaced)
        return;
    kp_buf_puts(b, ",\n      \"displaced\": {\"node\": ");
    kp_buf_json_str(b, p->displaced->node);
    kp_buf_printf(b, ", \"reason\": \"%s\", \"originalPod\": ",
                  p->displaced->reason);
    kp_buf_json_str(b, p->displaced->original);
    kp_buf_printf(b, ", \"wave\": %d}", p->displaced->dp->wave);
}

static void
json_ref(struct kp_buf *b, const struct kp_pod *p)
{
    kp_buf_puts(b, "{\"namespace\": ");
    kp_buf_json_str(b, p->ns);
    kp_buf_puts(b, ", \"name\": ");
    kp_buf_json_str(b, p->name);
}

static void
json_where(struct kp_buf *b, const struct kp_snapshot *snap,
           const struct kp_pod_report *pr)
{
    size_t i;

    if (!pr) {
        kp_buf_puts(b, ", \"result\": null");
        return;
    }
    kp_buf_printf(b, ", \"result\": \"%s\", \"node\": ",
                  results[pr->result]);
    kp_buf_json_str_or_null(b, pr->node >= 0 ?
                            snap->nodes[pr->node]->name : NULL);
    kp_buf_puts(b, ", \"nominatedNode\": ");
    kp_buf_json_str_or_null(b, pr->nominated_node >= 0 ?
                            snap->nodes[pr->nominated_node]->name : NULL);
    kp_buf_puts(b, ", \"victims\": [");
    for (i = 0; i < pr->nvictims; i++) {
        kp_buf_puts(b, i ? ", " : "");
        json_ref(b, pr->victims[i].pod);
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, "]");
}

/* a drained pod's entry: its reference and its metadata */
static void
json_drained(struct kp_buf *b, const struct kp_pod *p)
{
    json_ref(b, p);
    kp_buf_puts(b, ", ");
    kp_json_object_meta(b, p, NULL, NULL, NULL);
}

static void
json_evicted(struct kp_buf *b, const struct kp_snapshot *snap,
             const struct kp_report *rep, const struct kp_drain_pod *dp)
{
    json_drained(b, dp->pod);
    kp_buf_puts(b, ", \"replacement\": ");
    kp_buf_json_str(b, dp->replacement->name);
    kp_buf_printf(b, ", \"wave\": %d", dp->wave);
    json_where(b, snap, report_of(rep, dp->replacement));
    if (dp->why) {
        kp_buf_puts(b, ", \"note\": ");
        kp_buf_json_str(b, dp->why);
    }
    kp_buf_puts(b, "}");
}

static bool
in_group(const struct kp_drain_pod *dp, const char *group)
{
    switch (dp->outcome) {
    case KP_DRAIN_EVICTED:
        return strcmp(group, "evicted") == 0;
    case KP_DRAIN_WAITING:
    case KP_DRAIN_BLOCKED:
        return strcmp(group, "blockedBy") == 0;
    case KP_DRAIN_LOST:
        return strcmp(group, "lost") == 0;
    case KP_DRAIN_DELETED:
        return strcmp(group, "deleted") == 0;
    case KP_DRAIN_KEPT:
        return strcmp(group, "kept") == 0;
    case KP_DRAIN_NOT_EVICTED:
        return strcmp(group, "notEvicted") == 0;
    }
    return false;
}

static void
json_group(struct kp_buf *b, const struct kp_snapshot *snap,
           const struct kp_report *rep, const struct kp_node_whatif *nw,
           const char *group, struct kp_buf *tmp)
{
    size_t i, n = 0;

    kp_buf_printf(b, ",\n     \"%s\": [", group);
    for (i = 0; i < nw->npods; i++) {
        const struct kp_drain_pod *dp = &nw->pods[i];

        if (!in_group(dp, group))
            continue;
        kp_buf_puts(b, n++ ? ",\n       " : "\n       ");
        if (dp->outcome == KP_DRAIN_EVICTED) {
            json_evicted(b, snap, rep, dp);
            continue;
        }
        json_drained(b, dp->pod);
        if (dp->pdb >= 0) {
            kp_buf_puts(b, ", \"podDisruptionBudget\": ");
            kp_buf_printf(b, "\"%s/%s\"", snap->pdbs[dp->pdb]->ns,
                          snap->pdbs[dp->pdb]->name);
        }
        kp_buf_puts(b, ", \"reason\": ");
        kp_buf_json_str(b, why_text(tmp, snap, rep, dp));
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, n ? "\n     ]" : "]");
}

static void
json_nodes(struct kp_buf *b, const struct kp_snapshot *snap,
           const struct kp_report *rep, bool removed)
{
    static const char *const drain_groups[] = {"evicted", "blockedBy",
        "lost", "deleted", "kept", "notEvicted"};
    static const char *const removed_groups[] = {"evicted", "lost",
                                                 "deleted"};
    const struct kp_whatif *w = rep->whatif;
    struct kp_buf tmp;
    size_t i, g, n = 0;

    kp_buf_init(&tmp);
    kp_buf_printf(b, ",\n  \"%s\": [", removed ? "removedNodes" : "drains");
    for (i = 0; i < w->nnodes; i++) {
        const struct kp_node_whatif *nw = &w->nodes[i];

        if (nw->removed != removed)
            continue;
        kp_buf_puts(b, n++ ? ",\n    {\"node\": " : "\n    {\"node\": ");
        kp_buf_json_str(b, nw->node);
        if (!removed) {
            kp_buf_puts(b, ", \"stopped\": ");
            kp_buf_json_str_or_null(b, nw->stopped);
        }
        for (g = 0; g < (removed ? 3u : 6u); g++)
            json_group(b, snap, rep, nw, removed ? removed_groups[g]
                                                 : drain_groups[g], &tmp);
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, n ? "\n  ]" : "]");
    kp_buf_release(&tmp);
}

void
kp_whatif_json(const struct kp_snapshot *snap, const struct kp_report *rep,
               struct kp_buf *b)
{
    if (!rep->whatif)
        return;
    json_nodes(b, snap, rep, false);
    json_nodes(b, snap, rep, true);
}

/* ---- text ---- */

char *
kp_whatif_wide_note(const struct kp_pod *p, char *note)
{
    size_t n;
    char *s;

    if (!p->displaced)
        return note;
    n = strlen(note) + strlen(p->displaced->node) + 64;
    s = kp_xmalloc(n);
    snprintf(s, n, "displaced from %s (%s): %s", p->displaced->node,
             strcmp(p->displaced->reason, "Drained") == 0 ? "drained"
                                                          : "removed",
             note);
    free(note);
    return s;
}

static void
text_where(struct kp_buf *b, const struct kp_snapshot *snap,
           const struct kp_pod_report *pr)
{
    size_t i;

    if (!pr) {
        kp_buf_puts(b, "not analysed");
        return;
    }
    kp_buf_puts(b, results[pr->result]);
    if (pr->node >= 0)
        kp_buf_printf(b, " on %s", snap->nodes[pr->node]->name);
    if (pr->nominated_node >= 0)
        kp_buf_printf(b, " on %s", snap->nodes[pr->nominated_node]->name);
    for (i = 0; i < pr->nvictims; i++)
        kp_buf_printf(b, "%s%s/%s", i ? ", " : ", evicting ",
                      pr->victims[i].pod->ns, pr->victims[i].pod->name);
}

static void
text_pod(struct kp_buf *b, const struct kp_snapshot *snap,
         const struct kp_report *rep, const struct kp_drain_pod *dp,
         struct kp_buf *tmp)
{
    static const char *const verbs[] = {"evicted", "deleted", "lost",
                                        "kept", "not-evicted", "blocked",
                                        "blocked"};

    kp_buf_printf(b, "  %-11s %s/%s", verbs[dp->outcome], dp->pod->ns,
                  dp->pod->name);
    if (dp->outcome == KP_DRAIN_EVICTED) {
        kp_buf_printf(b, " -> %s", dp->replacement->name);
        if (dp->wave > 0)
            kp_buf_printf(b, " (after %d wait%s for the PDB)", dp->wave,
                          dp->wave > 1 ? "s" : "");
        kp_buf_puts(b, ": ");
        text_where(b, snap, report_of(rep, dp->replacement));
        kp_buf_puts(b, "\n");
        return;
    }
    kp_buf_printf(b, ": %s\n", why_text(tmp, snap, rep, dp));
}

static void
counts(const struct kp_node_whatif *nw, size_t c[7])
{
    size_t i;

    memset(c, 0, 7 * sizeof(*c));
    for (i = 0; i < nw->npods; i++)
        c[nw->pods[i].outcome]++;
}

/* Where the replacements went: "; replacements: 2 Fits, ..." */
static void
where_counts(struct kp_buf *b, const struct kp_report *rep,
             const struct kp_node_whatif *nw)
{
    size_t i, r[4] = {0, 0, 0, 0}, n = 0;

    for (i = 0; i < nw->npods; i++) {
        const struct kp_pod_report *pr;

        if (nw->pods[i].outcome != KP_DRAIN_EVICTED)
            continue;
        pr = report_of(rep, nw->pods[i].replacement);
        if (pr) {
            r[pr->result]++;
            n++;
        }
    }
    if (n)
        kp_buf_printf(b, "; replacements: %zu Fits, %zu Preempts, %zu "
                      "Unschedulable, %zu NotEligible", r[0], r[1], r[2],
                      r[3]);
}

void
kp_whatif_text(const struct kp_snapshot *snap, const struct kp_report *rep,
               bool summary, struct kp_buf *b)
{
    const struct kp_whatif *w = rep->whatif;
    struct kp_buf tmp;
    size_t i, j, c[7];

    if (!w || w->nnodes == 0)
        return;
    kp_buf_init(&tmp);
    if (b->len)
        kp_buf_puts(b, "\n");      /* after the table */
    for (i = 0; i < w->nnodes; i++) {
        const struct kp_node_whatif *nw = &w->nodes[i];

        counts(nw, c);
        kp_buf_printf(b, "%s %s: %zu evicted, %zu blocked, %zu lost, "
                      "%zu deleted, %zu kept", nw->removed ? "Removed node"
                      : "Drain of node", nw->node, c[KP_DRAIN_EVICTED],
                      c[KP_DRAIN_WAITING] + c[KP_DRAIN_BLOCKED],
                      c[KP_DRAIN_LOST], c[KP_DRAIN_DELETED],
                      c[KP_DRAIN_KEPT]);
        where_counts(b, rep, nw);
        if (nw->stopped)
            kp_buf_printf(b, "; stopped: %s", nw->stopped);
        else if (!nw->removed && (c[KP_DRAIN_WAITING] || c[KP_DRAIN_BLOCKED]))
            kp_buf_puts(b, "; the drain would hang");
        kp_buf_puts(b, "\n");
        for (j = 0; !summary && j < nw->npods; j++)
            text_pod(b, snap, rep, &nw->pods[j], &tmp);
    }
    kp_buf_release(&tmp);
}
