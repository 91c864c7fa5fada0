/*
 * explain.c - "kubectl-preempt explain": what preempted what, read back
 * from a snapshot.
 *
 * Mirrors the traces kube-scheduler leaves (its preemption executor,
 * pkg/scheduler/framework/preemption/executor.go): a Preempted event per
 * victim (regarding the victim, related the preemptor), the victim's
 * DisruptionTarget condition while it terminates, and the preemptor's
 * status.nominatedNodeName until it is bound.  Evidence about one victim
 * is merged into one preemption; a victim or preemptor still in the
 * snapshot (same UID) gives its state, priority and PDBs.
 *
 * Loading, warnings and --fail-on's status are the run's (run.h), the
 * selection (POD..., -n, -l) is the run's (select.h), and so are the
 * printers: the text table (table.h) and, from the -o json document,
 * kubectl's yaml, jsonpath and custom-columns (render_kubectl.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "event.h"
#include "explain_replay.h"
#include "kp.h"
#include "object_meta.h"
#include "preemption.h"
#include "render_kubectl.h"
#include "run.h"
#include "select.h"
#include "snapshot.h"
#include "table.h"
#include "whatif.h"

struct party {
    const char *ns, *name, *uid;    /* any may be NULL */
    const struct kp_pod *pod;       /* still in the snapshot, or NULL */
};

struct preemption {
    struct party victim, preemptor;
    const char *node;
    bool has_time;
    int64_t time;
    int32_t count;
    bool from_event, from_condition;
    const char *message;
    /* issue 26: the preemptor taken from a nomination, not from evidence */
    bool inferred;
    /* the preemptor's latest FailedScheduling message, or NULL */
    const char *failed_scheduling;
    /*
     * Whether evicting the victim violated one of its PDBs, recomputed
     * from the pods (pdb_at_the_time): 1, 0, or -1 when it cannot be
     * (the victim is gone, or no PDB says minAvailable/maxUnavailable);
     * the PDBs it violated (in the snapshot's arena).
     */
    int violates;
    size_t nviolated;
    const struct kp_pdb **violated;
};

struct history {
    size_t n, cap;
    struct preemption *items;
    /* -o wide and json: the preemptions replayed (explain_replay.h) */
    size_t nreplays;
    struct replay_item *replays;
};

/* One preemption (preemptor, node, time) replayed. */
#define KP_EXPLAIN_MAX_REPLAYS 5

struct replay_item {
    const struct preemption *first;     /* its first row in history */
    struct kp_replay r;
};

static void render_replays(const struct history *h, struct kp_buf *out);
static void json_replays(struct kp_buf *b, const struct history *h);

/* ---- linking evidence to pods ---- */

static bool
same_uid(const char *a, const char *b)
{
    return !a || !b || !a[0] || !b[0] || strcmp(a, b) == 0;
}

static const struct kp_pod *
pod_by_name(const struct kp_snapshot *s, const char *ns, const char *name,
            const char *uid)
{
    const struct kp_pod *p;

    if (!ns || !name)
        return NULL;
    p = kp_snapshot_pod(s, ns, name);
    return p && same_uid(p->uid, uid) ? p : NULL;
}

static const struct kp_pod *
pod_by_uid(const struct kp_snapshot *s, const char *uid)
{
    size_t i;

    for (i = 0; uid && i < s->npods; i++)
        if (s->pods[i]->uid[0] && strcmp(s->pods[i]->uid, uid) == 0)
            return s->pods[i];
    return NULL;
}

static void
set_party(struct party *pt, const struct kp_snapshot *s, const char *ns,
          const char *name, const char *uid)
{
    pt->ns = ns;
    pt->name = name;
    pt->uid = uid;
    pt->pod = name ? pod_by_name(s, ns, name, uid) : pod_by_uid(s, uid);
    if (pt->pod && !pt->name) {
        pt->ns = pt->pod->ns;
        pt->name = pt->pod->name;
    }
    if (pt->pod && !pt->uid && pt->pod->uid[0])
        pt->uid = pt->pod->uid;
}

/* The preemptor: related object first, then what the note says. */
static void
preemptor_of(const struct kp_snapshot *s, const struct kp_event *e,
             struct party *pt)
{
    if (e->related.name)
        set_party(pt, s, e->related.ns, e->related.name,
                  e->related.uid ? e->related.uid : e->note_uid);
    else if (e->note_uid)
        set_party(pt, s, NULL, NULL, e->note_uid);
    else if (e->note_name)
        set_party(pt, s, e->note_ns, e->note_name, NULL);
}

static bool
same_party(const struct party *a, const struct party *b)
{
    if (a->name && b->name)
        return strcmp(a->ns, b->ns) == 0 && strcmp(a->name, b->name) == 0 &&
               same_uid(a->uid, b->uid);
    return a->uid && b->uid && strcmp(a->uid, b->uid) == 0;
}

static struct preemption *
find_victim(struct history *h, const struct party *victim, const char *node)
{
    size_t i;

    for (i = 0; i < h->n; i++)
        if (same_party(&h->items[i].victim, victim) &&
            (!node || !h->items[i].node ||
             strcmp(node, h->items[i].node) == 0))
            return &h->items[i];
    return NULL;
}

static struct preemption *
new_preemption(struct history *h)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 16;
        h->items = kp_xrealloc(h->items, h->cap * sizeof(*h->items));
    }
    memset(&h->items[h->n], 0, sizeof(h->items[0]));
    return &h->items[h->n++];
}

static void
merge_time(struct preemption *p, const struct kp_event *e)
{
    if (e->has_time && (!p->has_time || e->time > p->time)) {
        p->time = e->time;
        p->has_time = true;
    }
}

static void
add_event(struct history *h, const struct kp_snapshot *s,
          const struct kp_event *e)
{
    struct party victim = {0}, preemptor = {0};
    struct preemption *p;

    set_party(&victim, s, e->regarding.ns, e->regarding.name,
              e->regarding.uid);
    preemptor_of(s, e, &preemptor);
    p = find_victim(h, &victim, e->node);
    if (p && (!p->preemptor.name && !p->preemptor.uid))
        p->preemptor = preemptor;
    if (!p) {
        p = new_preemption(h);
        p->victim = victim;
        p->preemptor = preemptor;
        p->message = e->message;
    }
    if (e->type == KP_EVENT_PREEMPTED) {
        /* the same Event read through both APIs counts once */
        if (!p->from_event || e->count > p->count)
            p->count = e->count;
        p->from_event = true;
        p->message = e->message;
    } else {
        p->from_condition = true;
        if (!p->message)
            p->message = e->message;
    }
    if (!p->node)
        p->node = e->node;
    merge_time(p, e);
}

static void
collect(struct history *h, const struct kp_snapshot *s)
{
    size_t i;
    int pass;

    /* events first: they name the preemptor; conditions join them */
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < s->nevents; i++)
            if (s->events[i]->type != KP_EVENT_FAILED_SCHEDULING &&
                s->events[i]->type != KP_EVENT_SCHEDULED &&
                (s->events[i]->type == KP_EVENT_PREEMPTED) == (pass == 0))
                add_event(h, s, s->events[i]);
}

/*
 * Without an event naming it, the preemptor is inferred (issue 26): the
 * pending pod nominated to the victim's node with a higher priority than
 * the victim (the highest; the first in the snapshot on a tie), as
 * prepareCandidate leaves it (executor.go: the victims get their
 * DisruptionTarget condition, the preemptor its nominatedNodeName).
 */
static void
infer_preemptors(struct history *h, const struct kp_snapshot *s,
                 const char *scheduler)
{
    size_t i, j;

    for (i = 0; i < h->n; i++) {
        struct preemption *p = &h->items[i];
        const struct kp_pod *best = NULL;

        if (p->preemptor.name || p->preemptor.uid || !p->node)
            continue;
        for (j = 0; j < s->npods; j++) {
            const struct kp_pod *q = s->pods[j];

            if (!q->nominated_node || strcmp(q->nominated_node, p->node) ||
                !kp_pod_is_pending(q, scheduler) ||
                (p->victim.pod && q->priority <= p->victim.pod->priority))
                continue;
            if (!best || q->priority > best->priority)
                best = q;
        }
        if (best) {
            set_party(&p->preemptor, s, best->ns, best->name,
                      best->uid[0] ? best->uid : NULL);
            p->inferred = true;
        }
    }
}

static bool
event_about(const struct kp_event *e, const struct party *pt)
{
    if (pt->uid && e->regarding.uid && e->regarding.uid[0])
        return strcmp(pt->uid, e->regarding.uid) == 0;
    return pt->name && e->regarding.name && pt->ns && e->regarding.ns &&
           strcmp(pt->name, e->regarding.name) == 0 &&
           strcmp(pt->ns, e->regarding.ns) == 0;
}

/* The preemptor's latest FailedScheduling event before (or at) it. */
static void
find_failed_scheduling(struct history *h, const struct kp_snapshot *s)
{
    size_t i, j;

    for (i = 0; i < h->n; i++) {
        struct preemption *p = &h->items[i];
        const struct kp_event *best = NULL;

        for (j = 0; j < s->nevents; j++) {
            const struct kp_event *e = s->events[j];

            if (e->type != KP_EVENT_FAILED_SCHEDULING ||
                !event_about(e, &p->preemptor))
                continue;
            if (p->has_time && e->has_time && e->time > p->time)
                continue;
            if (!best || (e->has_time &&
                          (!best->has_time || e->time >= best->time)))
                best = e;
        }
        p->failed_scheduling = best ? best->message : NULL;
    }
}

/* ---- PodDisruptionBudgets at the time, from the pods ---- */

static bool
same_preemption(const struct preemption *a, const struct preemption *b)
{
    return a->has_time == b->has_time && (!a->has_time || a->time == b->time)
           && a->node && b->node && strcmp(a->node, b->node) == 0 &&
           same_party(&a->preemptor, &b->preemptor);
}

/* GetScaledValueFromIntOrPercent(..., roundUp true) */
static int64_t
scaled(const struct kp_pdb *pdb, int64_t expected)
{
    return pdb->budget_pct ? (pdb->budget_value * expected + 99) / 100
                           : pdb->budget_value;
}

/*
 * Whether evicting item k's victim violated pdb, recomputed from the pods
 * as the disruption controller counts them (disruption.go: countHealthyPods,
 * getExpectedPodCount with the matched pods as the expected count): the
 * healthy pods now (Ready, not terminating, not in disruptedPods), plus
 * the victims still terminating that were preempted at or after k (they
 * were running then), less desiredHealthy, is what the budget allowed at
 * k's time; k's preemption then evicts its victims of that PDB in order
 * (filterPodsWithPDBViolation: each uses one, below 0 it violates).
 */
static int
violated_at_the_time(const struct kp_snapshot *s, const struct history *h,
                     size_t k, const struct kp_pdb *pdb)
{
    const struct preemption *p = &h->items[k];
    int64_t healthy = 0, expected = 0, desired, allowed, rank = 0;
    size_t i;

    if (!pdb->budget_kind)
        return -1;
    for (i = 0; i < s->npods; i++) {
        const struct kp_pod *q = s->pods[i];

        if (kp_pod_is_terminal(q) || !kp_pdb_matches(pdb, q))
            continue;
        expected++;
        healthy += q->ready && !q->deleting && !kp_pdb_in_disrupted(pdb, q);
    }
    for (i = 0; i < h->n; i++) {
        const struct preemption *o = &h->items[i];

        if (!o->victim.pod || !kp_pdb_matches(pdb, o->victim.pod) ||
            kp_pdb_in_disrupted(pdb, o->victim.pod))
            continue;
        if (same_preemption(o, p) && i <= k)
            rank++;
        if (o->victim.pod->deleting && o->victim.pod->ready &&
            (!p->has_time || !o->has_time || o->time >= p->time))
            healthy++;
    }
    desired = pdb->budget_kind == 'm' ? scaled(pdb, expected)
                                      : expected - scaled(pdb, expected);
    allowed = healthy - desired;
    if (allowed < 0)
        allowed = 0;
    return rank > allowed ? 1 : 0;
}

static void
compute_violations(struct history *h, struct kp_snapshot *s)
{
    size_t i, j;

    for (i = 0; i < h->n; i++) {
        struct preemption *p = &h->items[i];

        p->violates = -1;
        p->violated = kp_arena_alloc(&s->arena, (s->npdbs + 1) *
                                     sizeof(*p->violated));
        for (j = 0; p->victim.pod && j < s->npdbs; j++) {
            int v;

            if (!kp_pdb_matches(s->pdbs[j], p->victim.pod))
                continue;
            v = violated_at_the_time(s, h, i, s->pdbs[j]);
            if (v == 1)
                p->violated[p->nviolated++] = s->pdbs[j];
            if (v > p->violates)
                p->violates = v;
        }
        if (p->victim.pod && p->violates < 0) {
            /* no PDB, or none with a spec to count with */
            for (j = 0; j < s->npdbs; j++)
                if (kp_pdb_matches(s->pdbs[j], p->victim.pod))
                    break;
            if (j == s->npdbs)
                p->violates = 0;
        }
    }
}

static int
cmp_preemption(const void *x, const void *y)
{
    const struct preemption *a = x, *b = y;
    int c;

    if (a->has_time != b->has_time)
        return a->has_time ? -1 : 1;
    if (a->has_time && a->time != b->time)
        return a->time < b->time ? -1 : 1;
    c = strcmp(a->victim.ns ? a->victim.ns : "",
               b->victim.ns ? b->victim.ns : "");
    return c ? c : strcmp(a->victim.name ? a->victim.name : "",
                          b->victim.name ? b->victim.name : "");
}

/* ---- selection (POD..., -n, -l: select.h) ---- */

/*
 * A preemption is listed when its victim or its preemptor is selected:
 * a pod still in the snapshot as the run selects pods; one that is gone
 * by its namespace (nothing matches -l).
 */
static bool
party_selected(const struct kp_select *f, const struct party *pt)
{
    const struct kp_options *o = f->o;
    size_t i;

    if (pt->pod && !kp_select_pod(f, pt->pod))
        return false;
    if (!pt->pod && (!kp_select_namespace(f, pt->ns) || f->has_selector))
        return false;
    for (i = 0; i < o->npods; i++)
        if (kp_select_names(f, o->pods[i], pt->ns, pt->name))
            return true;
    return o->npods == 0;
}

static bool
selected(const struct kp_select *f, const struct preemption *p)
{
    return party_selected(f, &p->victim) || party_selected(f, &p->preemptor);
}

/* ---- rendering ---- */

static void
format_time(bool has, int64_t ns, char *buf, size_t n)
{
    time_t t;
    struct tm tm;

    if (!has) {
        snprintf(buf, n, "<unknown>");
        return;
    }
    t = (time_t)(ns >= 0 ? ns / 1000000000 : -((-ns + 999999999) /
                                                1000000000));
    if (!gmtime_r(&t, &tm) ||
        strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, n, "<unknown>");
}

/* What became of a pod the snapshot still has. */
static const char *
pod_state(const struct kp_pod *p)
{
    if (!p)
        return "Gone";
    if (p->deleting)
        return "Terminating";
    if (p->phase == KP_PHASE_SUCCEEDED)
        return "Succeeded";
    if (p->phase == KP_PHASE_FAILED)
        return "Failed";
    if (p->node_name)
        return p->phase == KP_PHASE_RUNNING ? "Running" : "Scheduled";
    return p->nominated_node ? "Nominated" : "Pending";
}

static const char *
party_state(const struct party *pt)
{
    if (!pt->pod && !pt->name && !pt->uid)
        return "Unknown";
    return pod_state(pt->pod);
}

static void
party_label(const struct party *pt, char *buf, size_t n)
{
    if (pt->name)
        snprintf(buf, n, "%s/%s", pt->ns ? pt->ns : "", pt->name);
    else if (pt->uid)
        snprintf(buf, n, "uid:%s", pt->uid);
    else
        snprintf(buf, n, "<unknown>");
}

/*
 * "ns/a,ns/b", "<none>", or "<unknown>" when the victim is gone; a PDB
 * the eviction violated, recomputed from the pods, is marked
 * "(violated)" (issue 26).
 */
static bool
in_violated(const struct preemption *p, const struct kp_pdb *pdb)
{
    size_t i;

    for (i = 0; i < p->nviolated; i++)
        if (p->violated[i] == pdb)
            return true;
    return false;
}

static char *
pdb_list(const struct kp_snapshot *s, const struct preemption *p)
{
    const struct kp_pod *victim = p->victim.pod;
    struct kp_buf b;
    size_t i, n = 0;

    if (!victim)
        return kp_xstrdup("<unknown>");
    kp_buf_init(&b);
    for (i = 0; i < s->npdbs; i++)
        if (kp_pdb_matches(s->pdbs[i], victim))
            kp_buf_printf(&b, "%s%s/%s%s", n++ ? "," : "", s->pdbs[i]->ns,
                          s->pdbs[i]->name, in_violated(p, s->pdbs[i]) ?
                          "(violated)" : "");
    if (n == 0)
        kp_buf_puts(&b, "<none>");
    return b.data;
}

static char *
dup_label(const struct party *pt)
{
    char buf[600];

    party_label(pt, buf, sizeof(buf));
    return kp_xstrdup(buf);
}

/* A copy with control characters as spaces: one table row per line. */
static char *
one_line(const char *s)
{
    char *c = kp_xstrdup(s), *q;

    for (q = c; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7F)
            *q = ' ';
    return c;
}

static const char *
evidence(const struct preemption *p)
{
    if (p->from_event && p->from_condition)
        return "event,condition";
    return p->from_event ? "event" : "condition";
}

/*
 * -o wide, under the table: each preemptor's FailedScheduling message,
 * once per preemption (kube-scheduler's why; v1.37+ names the node and
 * the number of victims).
 */
static void
render_why(const struct history *h, struct kp_buf *out)
{
    size_t i, j;
    char who[600];
    bool first = true;

    for (i = 0; i < h->n; i++) {
        const struct preemption *p = &h->items[i];
        char *msg;

        if (!p->failed_scheduling)
            continue;
        /* once per preemptor, node and message */
        for (j = 0; j < i; j++)
            if (h->items[j].failed_scheduling &&
                same_party(&h->items[j].preemptor, &p->preemptor) &&
                h->items[j].node && p->node &&
                strcmp(h->items[j].node, p->node) == 0 &&
                strcmp(h->items[j].failed_scheduling,
                       p->failed_scheduling) == 0)
                break;
        if (j < i)
            continue;
        party_label(&p->preemptor, who, sizeof(who));
        msg = one_line(p->failed_scheduling);
        kp_buf_printf(out, "%s%s on %s: FailedScheduling: %s\n",
                      first ? "Why (each preemptor's FailedScheduling "
                      "event):\n  " : "  ", who,
                      p->node ? p->node : "<unknown>", msg);
        first = false;
        free(msg);
    }
}

/* -o wide adds the evidence and the event's note (or condition message) */
static void
render_history_table(const struct kp_snapshot *s, const struct history *h,
                     bool wide, bool no_headers, struct kp_buf *out)
{
    static const char *const hd[] = {"TIME", "NODE", "VICTIM",
                                     "VICTIM-STATE", "PREEMPTOR",
                                     "PREEMPTOR-STATE", "PDBS", "EVIDENCE",
                                     "MESSAGE"};
    struct kp_table t;
    size_t i;

    kp_table_init(&t, wide ? 9 : 7, hd);
    for (i = 0; i < h->n; i++) {
        const struct preemption *p = &h->items[i];
        char when[64], *row[9];

        format_time(p->has_time, p->time, when, sizeof(when));
        row[0] = kp_xstrdup(when);
        row[1] = kp_xstrdup(p->node ? p->node : "<unknown>");
        row[2] = dup_label(&p->victim);
        row[3] = kp_xstrdup(party_state(&p->victim));
        row[4] = dup_label(&p->preemptor);
        if (p->inferred) {
            char *c = kp_cellf("%s(inferred)", row[4]);

            free(row[4]);
            row[4] = c;
        }
        row[5] = kp_xstrdup(party_state(&p->preemptor));
        row[6] = pdb_list(s, p);
        if (wide) {
            row[7] = kp_xstrdup(evidence(p));
            row[8] = one_line(p->message ? p->message : "<none>");
        }
        kp_table_row(&t, row);
    }
    kp_table_print(&t, no_headers, out);
    if (wide) {
        render_why(h, out);
        render_replays(h, out);
    }
}

/* Preemptors waiting for their victims: nominated, still pending. */
static bool
waiting(const struct kp_pod *p, const struct kp_options *o)
{
    return p->nominated_node && kp_pod_is_pending(p, o->scheduler_name);
}

static bool
pod_selected(const struct kp_select *f, const struct kp_pod *p)
{
    struct party pt = {p->ns, p->name, p->uid, p};

    return party_selected(f, &pt);
}

/* Pods on the nominated node terminating because of preemption. */
static char *
terminating_on(const struct kp_snapshot *s, const char *node,
               struct kp_buf *json)
{
    const struct kp_node *n = kp_snapshot_node(s, node);
    struct kp_buf b;
    size_t i, k = 0;

    kp_buf_init(&b);
    for (i = 0; n && i < s->node_npods[n->index]; i++) {
        const struct kp_pod *v = s->node_pods[n->index][i];
        char name[600];

        if (!v->deleting || !v->preemption_target)
            continue;
        snprintf(name, sizeof(name), "%s/%s", v->ns, v->name);
        kp_buf_printf(&b, "%s%s", k ? "," : "", name);
        if (json) {
            kp_buf_puts(json, k ? ", " : "");
            kp_buf_json_str(json, name);
        }
        k++;
    }
    if (k == 0)
        kp_buf_puts(&b, "<none>");
    return b.data;
}

static void
render_waiting_table(const struct kp_snapshot *s, const struct kp_select *f,
                     bool blank_line, struct kp_buf *out)
{
    static const char *const hd[] = {"NAMESPACE", "NAME", "PRIORITY",
                                     "NOMINATED-NODE",
                                     "TERMINATING-VICTIMS"};
    struct kp_table t;
    size_t i;

    kp_table_init(&t, 5, hd);
    for (i = 0; i < s->npods; i++) {
        const struct kp_pod *p = s->pods[i];
        char *row[5];

        if (!waiting(p, f->o) || !pod_selected(f, p))
            continue;
        row[0] = kp_xstrdup(p->ns);
        row[1] = kp_xstrdup(p->name);
        row[2] = kp_cellf("%d", p->priority);
        row[3] = kp_xstrdup(p->nominated_node);
        row[4] = terminating_on(s, p->nominated_node, NULL);
        kp_table_row(&t, row);
    }
    if (t.nrows && blank_line)
        kp_buf_puts(out, "\n");
    /* issue 26: say what the second table is */
    if (t.nrows && !f->o->no_headers)
        kp_buf_puts(out, "Preemptors waiting for their victims (nominated, "
                    "still pending):\n");
    kp_table_print(&t, f->o->no_headers, out);
}

static void
json_party(struct kp_buf *b, const struct party *pt, bool preemptor)
{
    kp_buf_puts(b, "{\"namespace\": ");
    kp_buf_json_str_or_null(b, pt->name ? pt->ns : NULL);
    kp_buf_puts(b, ", \"name\": ");
    kp_buf_json_str_or_null(b, pt->name);
    kp_buf_puts(b, ", \"uid\": ");
    kp_buf_json_str_or_null(b, pt->uid);
    kp_buf_printf(b, ", \"state\": \"%s\", \"priority\": ",
                  party_state(pt));
    if (pt->pod)
        kp_buf_printf(b, "%d", pt->pod->priority);
    else
        kp_buf_puts(b, "null");
    if (preemptor) {
        kp_buf_puts(b, ", \"nominatedNode\": ");
        kp_buf_json_str_or_null(b, pt->pod ? pt->pod->nominated_node : NULL);
        kp_buf_puts(b, ", \"node\": ");
        kp_buf_json_str_or_null(b, pt->pod ? pt->pod->node_name : NULL);
    }
}

static void
json_pdbs(struct kp_buf *b, const struct kp_snapshot *s,
          const struct kp_pod *victim)
{
    size_t i, n = 0;

    if (!victim) {
        kp_buf_puts(b, "null");
        return;
    }
    kp_buf_puts(b, "[");
    for (i = 0; i < s->npdbs; i++) {
        char name[600];

        if (!kp_pdb_matches(s->pdbs[i], victim))
            continue;
        snprintf(name, sizeof(name), "%s/%s", s->pdbs[i]->ns,
                 s->pdbs[i]->name);
        kp_buf_puts(b, n++ ? ", " : "");
        kp_buf_json_str(b, name);
    }
    kp_buf_puts(b, "]");
}

static void
json_preemption(struct kp_buf *b, const struct kp_snapshot *s,
                const struct preemption *p)
{
    char when[64];

    format_time(p->has_time, p->time, when, sizeof(when));
    kp_buf_puts(b, "    {\n      \"time\": ");
    kp_buf_json_str_or_null(b, p->has_time ? when : NULL);
    kp_buf_puts(b, ",\n      \"node\": ");
    kp_buf_json_str_or_null(b, p->node);
    kp_buf_puts(b, ",\n      \"victim\": ");
    json_party(b, &p->victim, false);
    kp_buf_puts(b, "}");
    kp_buf_puts(b, ",\n      \"preemptor\": ");
    json_party(b, &p->preemptor, true);
    /* issue 26: only when there is something to say (the JSON grows) */
    if (p->inferred)
        kp_buf_puts(b, ", \"inferred\": true");
    if (p->failed_scheduling) {
        kp_buf_puts(b, ", \"failedScheduling\": ");
        kp_buf_json_str(b, p->failed_scheduling);
    }
    kp_buf_puts(b, "}");
    kp_buf_puts(b, ",\n      \"podDisruptionBudgets\": ");
    json_pdbs(b, s, p->victim.pod);
    if (p->violates >= 0)
        kp_buf_printf(b, ",\n      \"violatesPDB\": %s",
                      p->violates ? "true" : "false");
    kp_buf_printf(b, ",\n      \"evidence\": [%s%s%s],\n      \"count\": %d"
                  ",\n      \"message\": ",
                  p->from_event ? "\"event\"" : "",
                  p->from_event && p->from_condition ? ", " : "",
                  p->from_condition ? "\"condition\"" : "",
                  p->count > 0 ? p->count : 1);
    kp_buf_json_str_or_null(b, p->message);
    /* the item describes the victim: the pod the Preempted event is on */
    kp_buf_puts(b, ",\n      ");
    kp_json_object_meta(b, p->victim.pod, p->victim.ns, p->victim.name,
                        p->victim.uid);
    kp_buf_puts(b, "\n    }");
}

static void
json_waiting(struct kp_buf *b, const struct kp_snapshot *s,
             const struct kp_select *f)
{
    size_t i, n = 0;

    for (i = 0; i < s->npods; i++) {
        const struct kp_pod *p = s->pods[i];

        if (!waiting(p, f->o) || !pod_selected(f, p))
            continue;
        kp_buf_puts(b, n++ ? ",\n    {\"namespace\": " :
                             "\n    {\"namespace\": ");
        kp_buf_json_str(b, p->ns);
        kp_buf_puts(b, ", \"name\": ");
        kp_buf_json_str(b, p->name);
        kp_buf_printf(b, ", \"priority\": %d, \"nominatedNode\": ",
                      p->priority);
        kp_buf_json_str(b, p->nominated_node);
        kp_buf_puts(b, ", \"terminatingVictims\": [");
        free(terminating_on(s, p->nominated_node, b));
        kp_buf_puts(b, "]}");
    }
    kp_buf_puts(b, n ? "\n  ]\n" : "]\n");
}

static void
render_json(const struct kp_snapshot *s, const struct history *h,
            const struct kp_select *f, struct kp_buf *out)
{
    size_t i;

    kp_buf_puts(out, "{\n  \"apiVersion\": \"kubectl-preempt/v1\",\n"
                "  \"kind\": \"PreemptionHistory\",\n  \"preemptions\": [");
    for (i = 0; i < h->n; i++) {
        kp_buf_puts(out, i ? ",\n" : "\n");
        json_preemption(out, s, &h->items[i]);
    }
    kp_buf_puts(out, h->n ? "\n  ],\n  \"nominatedPods\": ["
                          : "],\n  \"nominatedPods\": [");
    json_waiting(out, s, f);
    /* issue 26: json_waiting ended the array with "]\n" */
    out->len--;
    json_replays(out, h);
    kp_buf_puts(out, "\n}\n");
}

/* ---- the command ---- */

/*
 * The run's flags that do not apply to the past (exit 2); the kubectl
 * printers' templates are checked as the run checks them, before
 * anything is loaded.
 */
static int
check_options(const struct kp_options *o, struct kp_error *err)
{
    if (o->nadds || o->only_added)
        return kp_errorf(err, KP_EXIT_USAGE, "explain looks at the past: "
                         "--add and --only-added do not apply");
    if (o->explain_nodes)
        return kp_errorf(err, KP_EXIT_USAGE, "explain looks at the past: "
                         "--explain-nodes does not apply");
    if (kp_whatif_requested(o) || (o->fail_on & KP_FAIL_DRAIN_BLOCKED))
        return kp_errorf(err, KP_EXIT_USAGE, "explain looks at the past: "
                         "the node what-ifs (--cordon, --drain, "
                         "--remove-node, --add-node, ...) and --fail-on "
                         "drain-blocked do not apply");
    /* a preemption is two pods: no one name, no one sort key */
    if (o->output == KP_OUTPUT_SUMMARY || o->output == KP_OUTPUT_NAME ||
        o->sort_by)
        return kp_errorf(err, KP_EXIT_USAGE, "explain prints a table "
                         "(-o table or wide), JSON (-o json) or what "
                         "kubectl prints from it (-o yaml, jsonpath, "
                         "custom-columns): -o summary, -o name and "
                         "--sort-by do not apply");
    if (o->fail_on & KP_FAIL_UNSCHEDULABLE)
        return kp_errorf(err, KP_EXIT_USAGE, "explain looks at the past: "
                         "--fail-on unschedulable does not apply "
                         "(preemption and pdb-violation do)");
    if (o->fail_on & KP_FAIL_ROLLOUT_BLOCKED)
        return kp_errorf(err, KP_EXIT_USAGE, "explain looks at the past: "
                         "--fail-on rollout-blocked does not apply "
                         "(preemption and pdb-violation do)");
    return kp_kubectl_check(o, err);
}

/*
 * --fail-on for past preemptions: preemption matches any listed one;
 * pdb-violation one whose victim, still in the snapshot, is covered by a
 * PodDisruptionBudget left with no disruption allowed
 * (status.disruptionsAllowed 0: the preemption used up or overran it).
 */
static bool
victim_budget_exhausted(const struct kp_snapshot *s, const struct kp_pod *v)
{
    size_t i;

    for (i = 0; v && i < s->npdbs; i++)
        if (kp_pdb_matches(s->pdbs[i], v) &&
            s->pdbs[i]->disruptions_allowed <= 0)
            return true;
    return false;
}

/*
 * Recomputed from the pods when it can be (issue 26: status is stale once
 * the victims terminate), else the budget left in status.
 */
static bool
violated(const struct kp_snapshot *s, const struct preemption *p)
{
    return p->violates >= 0 ? p->violates == 1
                            : victim_budget_exhausted(s, p->victim.pod);
}

/* What --fail-on can ask about, found among the listed preemptions. */
static unsigned
found_in_history(const struct kp_snapshot *s, const struct history *h)
{
    unsigned found = 0;
    size_t i;

    for (i = 0; i < h->n; i++) {
        found |= KP_FAIL_PREEMPTION;
        if (violated(s, &h->items[i]))
            found |= KP_FAIL_PDB_VIOLATION;
    }
    return found;
}

/* --fail-on's stderr lines: one per listed preemption and condition */
static void
fail_on_notes(const struct kp_snapshot *s, const struct history *h,
              unsigned fail_on, struct kp_buf *out)
{
    size_t i;

    for (i = 0; i < h->n; i++) {
        const struct preemption *pe = &h->items[i];
        const char *pns = pe->preemptor.name ? pe->preemptor.ns : NULL;

        if (fail_on & KP_FAIL_PREEMPTION)
            kp_buf_printf(out, "fail-on preemption: pod %s/%s was "
                          "preempted by %s%s%s on node %s\n",
                          pe->victim.ns ? pe->victim.ns : "<unknown>",
                          pe->victim.name ? pe->victim.name : "<unknown>",
                          pns ? pns : "", pns ? "/" : "",
                          pe->preemptor.name ? pe->preemptor.name
                                             : "<unknown>",
                          pe->node ? pe->node : "<unknown>");
        if ((fail_on & KP_FAIL_PDB_VIOLATION) && violated(s, pe))
            kp_buf_printf(out, "fail-on pdb-violation: evicting pod %s/%s "
                          "violated a PodDisruptionBudget\n",
                          pe->victim.pod->ns, pe->victim.pod->name);
    }
}

/* one replay per preemptor and node (the events' times may differ) */
static bool
same_replay(const struct preemption *a, const struct preemption *b)
{
    return a->node && b->node && strcmp(a->node, b->node) == 0 &&
           same_party(&a->preemptor, &b->preemptor);
}

/*
 * Replay each listed preemption whose preemptor is known (the first
 * KP_EXPLAIN_MAX_REPLAYS; each reads the -f files again).
 */
static void
replay_all(struct history *h, const struct kp_options *o)
{
    size_t i, j, k;

    h->replays = kp_xcalloc(KP_EXPLAIN_MAX_REPLAYS + 1,
                            sizeof(*h->replays));
    for (i = 0; i < h->n && h->nreplays < KP_EXPLAIN_MAX_REPLAYS; i++) {
        const struct preemption *p = &h->items[i];
        const char **vns, **vname;
        size_t nv = 0, nl = 0;

        if (!p->preemptor.name || !p->node)
            continue;
        for (j = 0; j < i && !same_replay(&h->items[j], p); j++)
            ;
        if (j < i)
            continue;
        vns = kp_xcalloc(2 * h->n + 1, sizeof(*vns));
        vname = kp_xcalloc(2 * h->n + 1, sizeof(*vname));
        for (k = i; k < h->n; k++)
            if (same_replay(&h->items[k], p) && h->items[k].victim.name) {
                vns[nv] = h->items[k].victim.ns;
                vname[nv++] = h->items[k].victim.name;
            }
        /* after it, the victims of the later preemptions (time order) */
        for (k = 0, nl = 0; p->has_time && k < h->n; k++)
            if (!same_replay(&h->items[k], p) && h->items[k].has_time &&
                h->items[k].time > p->time && h->items[k].victim.name) {
                vns[nv + nl] = h->items[k].victim.ns;
                vname[nv + nl++] = h->items[k].victim.name;
            }
        h->replays[h->nreplays].first = p;
        kp_explain_replay(o, p->preemptor.ns, p->preemptor.name, nv, vns,
                          vname, p->has_time, p->time, nl, vns + nv,
                          vname + nv, &h->replays[h->nreplays].r);
        kp_replay_why(&h->replays[h->nreplays].r, p->node);
        /* "would it still preempt today" (issue 26) */
        kp_explain_today(o, p->preemptor.ns, p->preemptor.name,
                         &h->replays[h->nreplays].r);
        h->nreplays++;
        free(vns);
        free(vname);
    }
}

static void
replays_release(struct history *h)
{
    size_t i;

    for (i = 0; i < h->nreplays; i++)
        kp_replay_release(&h->replays[i].r);
    free(h->replays);
    h->replays = NULL;
    h->nreplays = 0;
}

static const char *const replay_results[] = {"Fits", "Preempts",
                                             "Unschedulable", "NotEligible"};

/* "today: ..." under a replay: the preemptor against the files as they are */
static void
render_today(const struct kp_replay *r, struct kp_buf *out)
{
    if (!r->today_done) {
        kp_buf_puts(out, "    today: not run (the preemptor is gone or "
                    "terminating)\n");
        return;
    }
    kp_buf_printf(out, "    today: %s", replay_results[r->today_result]);
    if (r->today_result == KP_RESULT_PREEMPTS)
        kp_buf_printf(out, " on node %s with %zu victim(s)", r->today_node,
                      r->today_victims);
    else if (r->today_result == KP_RESULT_FITS)
        kp_buf_printf(out, " on node %s: it would not preempt",
                      r->today_node);
    else if (r->today_result == KP_RESULT_NOT_ELIGIBLE && r->today_node)
        kp_buf_printf(out, ", nominated to %s: it waits for its victims to "
                      "terminate and would not preempt again",
                      r->today_node);
    else if (r->today_result == KP_RESULT_UNSCHEDULABLE)
        kp_buf_puts(out, ": it would not fit even by preempting");
    kp_buf_puts(out, "\n");
}

static void
json_today(struct kp_buf *b, const struct kp_replay *r)
{
    kp_buf_puts(b, ", \"today\": ");
    if (!r->today_done) {
        kp_buf_puts(b, "null");
        return;
    }
    kp_buf_printf(b, "{\"result\": \"%s\", \"node\": ",
                  replay_results[r->today_result]);
    kp_buf_json_str_or_null(b, r->today_node);
    kp_buf_printf(b, ", \"victims\": %zu, \"message\": ", r->today_victims);
    kp_buf_json_str_or_null(b, r->today_message);
    kp_buf_puts(b, "}");
}

/* -o wide, under the table: what the replay decided, against the record */
static void
render_replays(const struct history *h, struct kp_buf *out)
{
    size_t i, j;
    char who[600];

    for (i = 0; i < h->nreplays; i++) {
        const struct replay_item *it = &h->replays[i];
        const struct kp_replay *r = &it->r;

        if (i == 0)
            kp_buf_puts(out, "Replayed as decided (victims restored, pods "
                        "that came later left out, the preemptor pending "
                        "again):\n");
        party_label(&it->first->preemptor, who, sizeof(who));
        kp_buf_printf(out, "  %s on %s: ", who, it->first->node);
        if (!r->done) {
            kp_buf_puts(out, "not replayed (a live cluster, or the "
                        "preemptor is gone)\n");
            continue;
        }
        kp_buf_printf(out, "%s", replay_results[r->result]);
        if (r->node)
            kp_buf_printf(out, " on %s", r->node);
        if (r->result == KP_RESULT_PREEMPTS) {
            kp_buf_printf(out, " (%zu victim(s):", r->nvictims);
            for (j = 0; j < r->nvictims; j++)
                kp_buf_printf(out, "%s %s", j ? "," : "", r->victims[j]);
            kp_buf_printf(out, "; %d PDB violation(s); %zu candidate(s), "
                          "decided by %s)", r->pdb_violations,
                          r->ncandidates,
                          r->decided_by ? r->decided_by : "-");
        }
        kp_buf_printf(out, "; %s node as recorded",
                      r->node && strcmp(r->node, it->first->node) == 0 ?
                      "the same" : "not the");
        if (r->missing)
            kp_buf_printf(out, "; %zu victim(s) gone from the snapshot, "
                          "not restored", r->missing);
        if (r->undeleted)
            kp_buf_printf(out, "; %zu victim(s) of later preemptions "
                          "running again", r->undeleted);
        if (r->created_later || r->bound_later)
            kp_buf_printf(out, "; left out %zu pod(s) created and %zu "
                          "bound after it", r->created_later,
                          r->bound_later);
        if (r->pdb_status_kept)
            kp_buf_printf(out, "; %zu PDB status(es) as the scheduler read "
                          "them (written before it)", r->pdb_status_kept);
        kp_buf_puts(out, "\n");
        if (r->why)
            kp_buf_printf(out, "    why it differs: %s\n", r->why);
        render_today(r, out);
    }
}

static void
json_replays(struct kp_buf *b, const struct history *h)
{
    size_t i, j;

    kp_buf_puts(b, ",\n  \"replays\": [");
    for (i = 0; i < h->nreplays; i++) {
        const struct replay_item *it = &h->replays[i];
        const struct kp_replay *r = &it->r;

        kp_buf_puts(b, i ? ",\n    {\"preemptor\": {\"namespace\": "
                         : "\n    {\"preemptor\": {\"namespace\": ");
        kp_buf_json_str_or_null(b, it->first->preemptor.ns);
        kp_buf_puts(b, ", \"name\": ");
        kp_buf_json_str(b, it->first->preemptor.name);
        kp_buf_puts(b, "}, \"recordedNode\": ");
        kp_buf_json_str(b, it->first->node);
        kp_buf_printf(b, ", \"replayed\": %s", r->done ? "true" : "false");
        if (r->done) {
            kp_buf_printf(b, ", \"restoredVictims\": %zu, "
                          "\"missingVictims\": %zu, \"result\": \"%s\", "
                          "\"node\": ", r->restored, r->missing,
                          replay_results[r->result]);
            kp_buf_json_str_or_null(b, r->node);
            kp_buf_printf(b, ", \"sameNode\": %s, \"candidates\": %zu, "
                          "\"decidedBy\": ", r->node &&
                          strcmp(r->node, it->first->node) == 0 ? "true"
                                                                : "false",
                          r->ncandidates);
            kp_buf_json_str_or_null(b, r->decided_by);
            kp_buf_puts(b, ", \"victims\": [");
            for (j = 0; j < r->nvictims; j++) {
                kp_buf_puts(b, j ? ", " : "");
                kp_buf_json_str(b, r->victims[j]);
            }
            kp_buf_printf(b, "], \"pdbViolations\": %d, \"message\": ",
                          r->pdb_violations);
            kp_buf_json_str_or_null(b, r->message);
            kp_buf_printf(b, ", \"leftOut\": {\"createdLater\": %zu, "
                          "\"boundLater\": %zu}, \"laterVictimsRestored\": "
                          "%zu, \"pdbStatusAsRead\": %zu, \"why\": ",
                          r->created_later, r->bound_later, r->undeleted,
                          r->pdb_status_kept);
            kp_buf_json_str_or_null(b, r->why);
        }
        json_today(b, r);
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, h->nreplays ? "\n  ]" : "]");
}

static void
keep_selected(struct history *h, const struct kp_select *f)
{
    size_t i, n = 0;

    for (i = 0; i < h->n; i++)
        if (selected(f, &h->items[i]))
            h->items[n++] = h->items[i];
    h->n = n;
}

/* -o json, or as kubectl prints it (yaml, jsonpath, custom-columns) */
static int
render_document(const struct kp_snapshot *s, const struct history *h,
                const struct kp_select *f, struct kp_buf *out,
                struct kp_error *err)
{
    struct kp_buf b;
    int rc;

    if (!kp_kubectl_output(f->o)) {
        render_json(s, h, f, out);
        return 0;
    }
    kp_buf_init(&b);
    render_json(s, h, f, &b);
    rc = kp_render_kubectl(f->o, "preemptions", b.data, b.len, out, err);
    kp_buf_release(&b);
    return rc;
}

static int
explain_loaded(struct kp_snapshot *s, const struct kp_options *o,
               const char *default_ns, struct kp_run_result *r,
               struct kp_error *err)
{
    struct history h = {0, 0, NULL, 0, NULL};
    struct kp_select f;
    bool table = o->output == KP_OUTPUT_TABLE || o->output == KP_OUTPUT_WIDE;

    if (kp_select_init(&f, o, default_ns, &s->arena, err) < 0)
        return -1;
    collect(&h, s);
    infer_preemptors(&h, s, o->scheduler_name);
    if (h.n)
        qsort(h.items, h.n, sizeof(*h.items), cmp_preemption);
    compute_violations(&h, s);
    find_failed_scheduling(&h, s);
    keep_selected(&h, &f);
    if (o->output != KP_OUTPUT_TABLE)
        replay_all(&h, o);
    if (!table && render_document(s, &h, &f, &r->out, err) < 0) {
        replays_release(&h);
        free(h.items);
        return -1;
    }
    if (table) {
        render_history_table(s, &h, o->output == KP_OUTPUT_WIDE,
                             o->no_headers, &r->out);
        render_waiting_table(s, &f, h.n > 0, &r->out);
    }
    r->exit_code = kp_fail_on_status(o->fail_on, found_in_history(s, &h));
    if (r->exit_code)
        fail_on_notes(s, &h, o->fail_on, &r->fail_notes);
    replays_release(&h);
    free(h.items);
    if (table && r->out.len == 0)
        kp_snapshot_warn(s, "no preemptions found: no Preempted events, no "
                         "pods with a DisruptionTarget condition from the "
                         "scheduler, no nominated pods (events expire "
                         "after one hour)");
    kp_run_take_warnings(r, s);
    return 0;
}

int
kp_explain(const struct kp_options *o, struct kp_run_result *r,
           struct kp_error *err)
{
    /* without -f: the lists explain reads from the live cluster */
    static const char *const live_resources[] = {
        "nodes", "pods", "poddisruptionbudgets", "priorityclasses", "events",
        NULL};
    struct kp_snapshot s;
    char default_ns[256] = "default";
    int rc = -1;

    memset(r, 0, sizeof(*r));
    kp_buf_init(&r->out);
    if (check_options(o, err) < 0)
        return -1;
    kp_snapshot_init(&s);
    if (kp_run_load(&s, o, live_resources, default_ns, sizeof(default_ns),
                    NULL, err) < 0 ||
        kp_snapshot_finish(&s, o->scheduler_name, err) < 0)
        goto out;
    rc = explain_loaded(&s, o, default_ns, r, err);
out:
    if (rc < 0)
        kp_buf_release(&r->out);
    kp_snapshot_release(&s);
    return rc;
}
