/*
 * baseline.c - the run without the change, and each pod's answer
 * compared with it (issue 25).  See baseline.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "kp.h"
#include "whatif.h"

const char *const kp_change_names[5] = {"new", "unchanged", "better",
                                         "worse", "changed"};

static const char *const outcome_names[] = {"Fits", "Preempts",
                                            "Unschedulable", "NotEligible",
                                            "Running"};

#define VICTIM 1
#define VICTIM_PDB 2

const char *
kp_baseline_identity(const struct kp_pod *p, char *buf, size_t n)
{
    if (p->replaces)
        return p->replaces;
    if (p->displaced)
        snprintf(buf, n, "%s/%s", p->ns, p->displaced->original);
    else
        snprintf(buf, n, "%s/%s", p->ns, p->name);
    return buf;
}

static const char *
node_name(const struct kp_snapshot *snap, int i)
{
    return i >= 0 ? snap->nodes[i]->name : NULL;
}

/* The node the report shows a pod nominated to (render.c's rule). */
static const char *
shown_nominated(const struct kp_snapshot *snap, const struct kp_pod_report *pr)
{
    if (pr->nominated_node >= 0)
        return snap->nodes[pr->nominated_node]->name;
    if (pr->result == KP_RESULT_NOT_ELIGIBLE)
        return pr->pod->nominated_node;
    return NULL;
}

static void
mark_victim(struct kp_baseline *b, const struct kp_victim_report *v)
{
    char key[1024];
    uintptr_t f;

    snprintf(key, sizeof(key), "%s/%s", v->pod->ns, v->pod->name);
    f = (uintptr_t)kp_strmap_get(&b->victims, key);
    f |= VICTIM | (v->violates_pdb ? VICTIM_PDB : 0);
    if (!kp_strmap_get(&b->victims, key))
        kp_strmap_put(&b->victims, kp_arena_strdup(&b->arena, key),
                      (void *)f);
    else
        kp_strmap_put(&b->victims, key, (void *)f);
}

void
kp_baseline_take(struct kp_baseline *b, const struct kp_snapshot *snap,
                 const struct kp_report *rep, const char *against,
                 const char *before)
{
    size_t i, j;
    char key[1024];

    memset(b, 0, sizeof(*b));
    kp_arena_init(&b->arena);
    kp_strmap_init(&b->pending);
    kp_strmap_init(&b->victims);
    b->against = against;
    b->before = before;
    /* the snapshot's own index, before the change drops pods from it */
    b->bound = snap->pod_index;
    b->bound.slots = kp_xmalloc((snap->pod_index.cap + 1) *
                                sizeof(*b->bound.slots));
    if (snap->pod_index.cap)
        memcpy(b->bound.slots, snap->pod_index.slots,
               snap->pod_index.cap * sizeof(*b->bound.slots));
    b->order = kp_xcalloc(rep->npods + 1, sizeof(*b->order));
    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];
        struct kp_outcome *o = kp_arena_alloc(&b->arena, sizeof(*o));

        o->ns = pr->pod->ns;
        o->name = pr->pod->name;
        o->result = (int)pr->result;
        o->node = pr->result == KP_RESULT_FITS ? node_name(snap, pr->node)
                                               : NULL;
        o->nominated = shown_nominated(snap, pr);
        o->nvictims = pr->nvictims;
        o->victims = kp_arena_alloc(&b->arena, (pr->nvictims + 1) *
                                    sizeof(*o->victims));
        o->victim_pdb = kp_arena_alloc(&b->arena, pr->nvictims + 1);
        for (j = 0; j < pr->nvictims; j++) {
            o->victims[j] = pr->victims[j].pod;
            o->victim_pdb[j] = pr->victims[j].violates_pdb;
            mark_victim(b, &pr->victims[j]);
        }
        o->pdb_violations = pr->pdb_violations;
        o->pos = b->npending;
        b->order[b->npending++] = o;
        snprintf(key, sizeof(key), "%s/%s", o->ns, o->name);
        kp_strmap_put(&b->pending, kp_arena_strdup(&b->arena, key), o);
    }
}

void
kp_baseline_release(struct kp_baseline *b)
{
    kp_strmap_release(&b->pending);
    kp_strmap_release(&b->victims);
    free(b->bound.slots);
    free(b->order);
    kp_arena_release(&b->arena);
    memset(b, 0, sizeof(*b));
}

/* ---- comparing ---- */

static int
rank(int result)
{
    switch (result) {
    case KP_RESULT_FITS:
    case KP_OUTCOME_RUNNING:
        return 3;
    case KP_RESULT_PREEMPTS:
        return 2;
    case KP_RESULT_NOT_ELIGIBLE:
        return 1;
    default:
        return 0;
    }
}

static bool
same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool
same_victims(const struct kp_outcome *was, const struct kp_pod_report *pr)
{
    char k1[1024], k2[1024];
    size_t i;

    if (was->nvictims != pr->nvictims)
        return false;
    for (i = 0; i < pr->nvictims; i++) {
        snprintf(k1, sizeof(k1), "%s/%s", was->victims[i]->ns,
                 was->victims[i]->name);
        if (strcmp(k1, kp_baseline_identity(pr->victims[i].pod, k2,
                                            sizeof(k2))) != 0)
            return false;
    }
    return true;
}

static enum kp_change_kind
compare(const struct kp_outcome *was, const struct kp_snapshot *snap,
        const struct kp_pod_report *pr)
{
    int r0, r1;

    if (!was)
        return KP_CHANGE_NEW;
    r0 = rank(was->result);
    r1 = rank((int)pr->result);
    if (r0 != r1)
        return r1 > r0 ? KP_CHANGE_BETTER : KP_CHANGE_WORSE;
    if (pr->result == KP_RESULT_PREEMPTS) {
        if (pr->pdb_violations != was->pdb_violations)
            return pr->pdb_violations < was->pdb_violations ?
                   KP_CHANGE_BETTER : KP_CHANGE_WORSE;
        if (pr->nvictims != was->nvictims)
            return pr->nvictims < was->nvictims ? KP_CHANGE_BETTER
                                                : KP_CHANGE_WORSE;
    }
    if (was->result != (int)pr->result ||
        !same_str(was->node, pr->result == KP_RESULT_FITS ?
                  node_name(snap, pr->node) : NULL) ||
        !same_str(was->nominated, shown_nominated(snap, pr)) ||
        !same_victims(was, pr))
        return KP_CHANGE_CHANGED;
    return KP_CHANGE_UNCHANGED;
}

/* The baseline of key: pending then, else bound to a node, else none. */
static const struct kp_outcome *
baseline_of(struct kp_change *c, const char *key)
{
    const struct kp_baseline *b = c->base;
    const struct kp_outcome *o = kp_strmap_get(&b->pending, key);
    const struct kp_pod *q;
    struct kp_outcome *run;

    if (o)
        return o;
    q = kp_strmap_get(&b->bound, key);
    if (!q || !q->node_name || kp_pod_is_terminal(q))
        return NULL;
    run = kp_arena_alloc(&c->arena, sizeof(*run));
    run->ns = q->ns;
    run->name = q->name;
    run->result = KP_OUTCOME_RUNNING;
    run->node = q->node_name;
    run->pos = (size_t)-1;
    return run;
}

static void
push_victim(struct kp_change *c, size_t *cap, const struct kp_pod_report *pr,
            const struct kp_victim_report *v, bool nv, bool np)
{
    if (c->nlist == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        c->list = kp_xrealloc(c->list, *cap * sizeof(*c->list));
    }
    c->list[c->nlist].by = pr;
    c->list[c->nlist].v = v;
    c->list[c->nlist].new_victim = nv;
    c->list[c->nlist++].new_pdb_violation = np;
    c->nnew_victims += nv;
    c->nnew_pdb += np;
}

static void
new_victims(struct kp_change *c, size_t *cap, const struct kp_pod_report *pr)
{
    char key[1024];
    size_t j;

    for (j = 0; j < pr->nvictims; j++) {
        const struct kp_victim_report *v = &pr->victims[j];
        uintptr_t f = (uintptr_t)kp_strmap_get(&c->base->victims,
            kp_baseline_identity(v->pod, key, sizeof(key)));
        bool nv = !(f & VICTIM);
        bool np = v->violates_pdb && !(f & VICTIM_PDB);

        if (nv || np)
            push_victim(c, cap, pr, v, nv, np);
    }
}

void
kp_change_compute(struct kp_change *c, const struct kp_baseline *b,
                  const struct kp_snapshot *snap,
                  const struct kp_report *rep)
{
    size_t i;
    char key[1024];

    memset(c, 0, sizeof(*c));
    kp_arena_init(&c->arena);
    c->base = b;
    c->npods = snap->npods;
    c->pods = kp_xcalloc(snap->npods + 1, sizeof(*c->pods));
    c->has = kp_xcalloc(snap->npods + 1, sizeof(*c->has));
    c->matched = kp_xcalloc(b->npending + 1, sizeof(*c->matched));
    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];
        const struct kp_pod *p = pr->pod;
        struct kp_pod_change *pc = &c->pods[p->index];
        const struct kp_outcome *was;

        was = baseline_of(c, kp_baseline_identity(p, key, sizeof(key)));
        pc->was = was;
        pc->kind = compare(was, snap, pr);
        c->has[p->index] = true;
        if (was && was->pos != (size_t)-1)
            c->matched[was->pos] = true;
    }
    kp_change_count(c, rep);
}

void
kp_change_count(struct kp_change *c, const struct kp_report *rep)
{
    size_t i, cap = 0;

    memset(c->count, 0, sizeof(c->count));
    free(c->list);
    c->list = NULL;
    c->nlist = c->nnew_victims = c->nnew_pdb = 0;
    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];

        if (!pr->reported || !c->has[pr->pod->index])
            continue;
        c->count[c->pods[pr->pod->index].kind]++;
        new_victims(c, &cap, pr);
    }
}

void
kp_change_release(struct kp_change *c)
{
    free(c->pods);
    free(c->has);
    free(c->matched);
    free(c->list);
    kp_arena_release(&c->arena);
    memset(c, 0, sizeof(*c));
}

const struct kp_pod_change *
kp_change_of(const struct kp_change *c, const struct kp_pod *p)
{
    if (!c || p->index < 0 || (size_t)p->index >= c->npods ||
        !c->has[p->index])
        return NULL;
    return &c->pods[p->index];
}

bool
kp_change_touches(const struct kp_pod_change *pc)
{
    return pc && pc->kind != KP_CHANGE_UNCHANGED;
}

/* ---- text ---- */

/* "Preempts on node-c (1 victim, 1 PDB violation)", "Running on node-a" */
static void
outcome_text(struct kp_buf *b, int result, const char *node,
             const char *nominated, size_t nvictims, int pdb)
{
    kp_buf_puts(b, outcome_names[result]);
    if (node)
        kp_buf_printf(b, " on %s", node);
    else if (nominated)
        kp_buf_printf(b, " on %s", nominated);
    if (result == KP_RESULT_PREEMPTS) {
        kp_buf_printf(b, " (%zu victim%s", nvictims, nvictims == 1 ? "" : "s");
        if (pdb)
            kp_buf_printf(b, ", %d PDB violation%s", pdb, pdb == 1 ? "" : "s");
        kp_buf_puts(b, ")");
    }
}

static void
was_text(struct kp_buf *b, const struct kp_outcome *w)
{
    outcome_text(b, w->result, w->node, w->nominated, w->nvictims,
                 w->pdb_violations);
}

static void
now_text(struct kp_buf *b, const struct kp_snapshot *snap,
         const struct kp_pod_report *pr)
{
    outcome_text(b, (int)pr->result, pr->result == KP_RESULT_FITS ?
                 node_name(snap, pr->node) : NULL, shown_nominated(snap, pr),
                 pr->nvictims, pr->pdb_violations);
}

char *
kp_change_was_cell(const struct kp_pod_change *pc, bool wide)
{
    struct kp_buf b;

    if (!pc || !pc->was)
        return kp_xstrdup("<none>");
    if (!wide)
        return kp_xstrdup(outcome_names[pc->was->result]);
    kp_buf_init(&b);
    was_text(&b, pc->was);
    return b.data;
}

char *
kp_change_was_victims_cell(const struct kp_pod_change *pc)
{
    struct kp_buf b;
    size_t i;

    if (!pc || !pc->was || pc->was->nvictims == 0)
        return kp_xstrdup("<none>");
    kp_buf_init(&b);
    for (i = 0; i < pc->was->nvictims; i++)
        kp_buf_printf(&b, "%s%s/%s%s", i ? "," : "", pc->was->victims[i]->ns,
                      pc->was->victims[i]->name,
                      pc->was->victim_pdb[i] ? "(pdb)" : "");
    return b.data;
}

static const char *
pdb_names(struct kp_buf *b, const struct kp_victim_report *v)
{
    size_t j;

    b->len = 0;
    for (j = 0; j < v->npdbs; j++)
        kp_buf_printf(b, "%s%s/%s", j ? ", " : "", v->pdbs[j]->ns,
                      v->pdbs[j]->name);
    return b->len ? b->data : "";
}

unsigned
kp_change_fail(const struct kp_change *c, const struct kp_snapshot *snap,
               const struct kp_report *rep, unsigned fail_on,
               struct kp_buf *lines)
{
    struct kp_buf t;
    unsigned found = 0;
    size_t i;

    if (!c)
        return 0;
    kp_buf_init(&t);
    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];
        const struct kp_pod_change *pc = kp_change_of(c, pr->pod);

        if (!pr->reported || !pc || pr->result != KP_RESULT_UNSCHEDULABLE ||
            (pc->kind != KP_CHANGE_NEW && pc->kind != KP_CHANGE_WORSE))
            continue;
        found |= KP_FAIL_NEWLY_UNSCHEDULABLE;
        if (!lines || !(fail_on & KP_FAIL_NEWLY_UNSCHEDULABLE))
            continue;
        kp_buf_printf(lines, "newly-unschedulable: pod '%s/%s' is "
                      "Unschedulable; ", pr->pod->ns, pr->pod->name);
        if (pc->was) {
            t.len = 0;
            was_text(&t, pc->was);
            kp_buf_printf(lines, "%s", c->base->before);
            if (strcmp(pc->was->ns, pr->pod->ns) ||
                strcmp(pc->was->name, pr->pod->name))
                kp_buf_printf(lines, " %s/%s", pc->was->ns, pc->was->name);
            kp_buf_printf(lines, ": %s\n", t.data);
        } else {
            kp_buf_puts(lines, "a pod the change adds\n");
        }
    }
    for (i = 0; i < c->nlist; i++) {
        const struct kp_new_victim *nv = &c->list[i];
        const struct kp_pod *v = nv->v->pod, *by = nv->by->pod;

        if (nv->new_victim) {
            found |= KP_FAIL_NEW_PREEMPTION;
            if (lines && (fail_on & KP_FAIL_NEW_PREEMPTION))
                kp_buf_printf(lines, "new-preemption: pod '%s/%s' on %s "
                              "becomes a victim of %s/%s; it was safe %s\n",
                              v->ns, v->name, node_name(snap, nv->v->node),
                              by->ns, by->name, c->base->before);
        }
        if (nv->new_pdb_violation) {
            found |= KP_FAIL_NEW_PDB_VIOLATION;
            if (lines && (fail_on & KP_FAIL_NEW_PDB_VIOLATION))
                kp_buf_printf(lines, "new-pdb-violation: evicting pod "
                              "'%s/%s' for %s/%s violates PodDisruptionBudget "
                              "%s; it did not %s\n", v->ns, v->name, by->ns,
                              by->name, pdb_names(&t, nv->v),
                              c->base->before);
        }
    }
    kp_buf_release(&t);
    return found;
}

/* ---- -o json ---- */

static void
json_pod_ref(struct kp_buf *b, const char *ns, const char *name)
{
    kp_buf_puts(b, "{\"namespace\": ");
    kp_buf_json_str(b, ns);
    kp_buf_puts(b, ", \"name\": ");
    kp_buf_json_str(b, name);
    kp_buf_puts(b, "}");
}

/* "change" and "baseline" of one reported pod */
void
kp_change_json_pod(const struct kp_change *c, const struct kp_pod *p,
                   struct kp_buf *b)
{
    const struct kp_pod_change *pc = kp_change_of(c, p);
    const struct kp_outcome *w;
    size_t i;

    if (!pc)
        return;
    w = pc->was;
    kp_buf_printf(b, ",\n      \"change\": \"%s\",\n      \"baseline\": ",
                  kp_change_names[pc->kind]);
    if (!w) {
        kp_buf_puts(b, "null");
        return;
    }
    kp_buf_puts(b, "{\"namespace\": ");
    kp_buf_json_str(b, w->ns);
    kp_buf_puts(b, ", \"name\": ");
    kp_buf_json_str(b, w->name);
    kp_buf_printf(b, ", \"result\": \"%s\", \"node\": ",
                  outcome_names[w->result]);
    kp_buf_json_str_or_null(b, w->node);
    kp_buf_puts(b, ", \"nominatedNode\": ");
    kp_buf_json_str_or_null(b, w->nominated);
    kp_buf_puts(b, ", \"victims\": [");
    for (i = 0; i < w->nvictims; i++) {
        kp_buf_puts(b, i ? ", {\"namespace\": " : "{\"namespace\": ");
        kp_buf_json_str(b, w->victims[i]->ns);
        kp_buf_puts(b, ", \"name\": ");
        kp_buf_json_str(b, w->victims[i]->name);
        kp_buf_printf(b, ", \"violatesPDB\": %s}",
                      w->victim_pdb[i] ? "true" : "false");
    }
    kp_buf_printf(b, "], \"pdbViolations\": %d}", w->pdb_violations);
}

static void
json_kind_list(struct kp_buf *b, const struct kp_change *c,
               const struct kp_report *rep, const char *member,
               enum kp_change_kind kind)
{
    size_t i, n = 0;

    kp_buf_printf(b, ",\n    \"%s\": [", member);
    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_change *pc = kp_change_of(c, rep->pods[i].pod);

        if (!rep->pods[i].reported || !pc || pc->kind != kind)
            continue;
        kp_buf_puts(b, n++ ? ", " : "");
        json_pod_ref(b, rep->pods[i].pod->ns, rep->pods[i].pod->name);
    }
    kp_buf_puts(b, "]");
}

static void
json_victims(struct kp_buf *b, const struct kp_change *c,
             const struct kp_snapshot *snap, const char *member, bool pdb)
{
    size_t i, j, n = 0;

    kp_buf_printf(b, ",\n    \"%s\": [", member);
    for (i = 0; i < c->nlist; i++) {
        const struct kp_new_victim *nv = &c->list[i];

        if (!(pdb ? nv->new_pdb_violation : nv->new_victim))
            continue;
        kp_buf_puts(b, n++ ? ",\n      {\"namespace\": " :
                             "\n      {\"namespace\": ");
        kp_buf_json_str(b, nv->v->pod->ns);
        kp_buf_puts(b, ", \"name\": ");
        kp_buf_json_str(b, nv->v->pod->name);
        kp_buf_puts(b, ", \"node\": ");
        kp_buf_json_str(b, node_name(snap, nv->v->node));
        kp_buf_puts(b, ", \"preemptor\": ");
        json_pod_ref(b, nv->by->pod->ns, nv->by->pod->name);
        kp_buf_puts(b, ", \"podDisruptionBudgets\": [");
        for (j = 0; j < nv->v->npdbs; j++) {
            char name[1024];

            snprintf(name, sizeof(name), "%s/%s", nv->v->pdbs[j]->ns,
                     nv->v->pdbs[j]->name);
            kp_buf_puts(b, j ? ", " : "");
            kp_buf_json_str(b, name);
        }
        kp_buf_puts(b, "]}");
    }
    kp_buf_puts(b, n ? "\n    ]" : "]");
}

/* "changeSummary", after "pods" */
void
kp_change_json(const struct kp_change *c, const struct kp_snapshot *snap,
               const struct kp_report *rep, struct kp_buf *b)
{
    size_t i, n = 0;

    if (!c)
        return;
    kp_buf_puts(b, ",\n  \"changeSummary\": {\n    \"against\": ");
    kp_buf_json_str(b, c->base->against);
    kp_buf_printf(b, ",\n    \"better\": %zu, \"worse\": %zu, "
                  "\"changed\": %zu, \"unchanged\": %zu, \"new\": %zu, "
                  "\"newVictims\": %zu, \"newPDBViolations\": %zu",
                  c->count[KP_CHANGE_BETTER], c->count[KP_CHANGE_WORSE],
                  c->count[KP_CHANGE_CHANGED], c->count[KP_CHANGE_UNCHANGED],
                  c->count[KP_CHANGE_NEW], c->nnew_victims, c->nnew_pdb);
    json_kind_list(b, c, rep, "betterPods", KP_CHANGE_BETTER);
    json_kind_list(b, c, rep, "worsePods", KP_CHANGE_WORSE);
    json_kind_list(b, c, rep, "changedPods", KP_CHANGE_CHANGED);
    json_victims(b, c, snap, "newVictimPods", false);
    json_victims(b, c, snap, "newPDBViolationPods", true);
    kp_buf_puts(b, ",\n    \"noLongerPending\": [");
    for (i = 0; i < c->base->npending; i++) {
        const struct kp_outcome *o = c->base->order[i];

        if (c->matched[i])
            continue;
        kp_buf_puts(b, n++ ? ", " : "");
        json_pod_ref(b, o->ns, o->name);
    }
    kp_buf_puts(b, "]\n  }");
}

/* ---- the block after the table ---- */

void
kp_change_text(const struct kp_change *c, const struct kp_snapshot *snap,
               const struct kp_report *rep, struct kp_buf *b)
{
    struct kp_buf t;
    size_t i, k, gone = 0;
    static const enum kp_change_kind kinds[] = {
        KP_CHANGE_WORSE, KP_CHANGE_BETTER, KP_CHANGE_CHANGED};

    if (!c)
        return;
    for (i = 0; i < c->base->npending; i++)
        gone += !c->matched[i];
    /* nothing reported and nothing changed: as the empty table, silent */
    for (i = k = 0; i < 5; i++)
        k += c->count[i];
    if (!k && !c->nlist && !gone)
        return;
    kp_buf_printf(b, "\nCompared with %s: %zu better, %zu worse, %zu "
                  "changed, %zu unchanged, %zu new; %zu new victim%s, %zu "
                  "new PDB violation%s", c->base->against,
                  c->count[KP_CHANGE_BETTER], c->count[KP_CHANGE_WORSE],
                  c->count[KP_CHANGE_CHANGED], c->count[KP_CHANGE_UNCHANGED],
                  c->count[KP_CHANGE_NEW], c->nnew_victims,
                  c->nnew_victims == 1 ? "" : "s", c->nnew_pdb,
                  c->nnew_pdb == 1 ? "" : "s");
    if (gone)
        kp_buf_printf(b, "; %zu no longer pending", gone);
    kp_buf_puts(b, "\n");
    kp_buf_init(&t);
    for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
        for (i = 0; i < rep->npods; i++) {
            const struct kp_pod_report *pr = &rep->pods[i];
            const struct kp_pod_change *pc = kp_change_of(c, pr->pod);

            if (!pr->reported || !pc || pc->kind != kinds[k])
                continue;
            t.len = 0;
            was_text(&t, pc->was);
            kp_buf_printf(b, "  %-18s%s/%s: ", kp_change_names[kinds[k]],
                          pr->pod->ns, pr->pod->name);
            if (strcmp(pc->was->ns, pr->pod->ns) ||
                strcmp(pc->was->name, pr->pod->name))
                kp_buf_printf(b, "%s/%s ", pc->was->ns, pc->was->name);
            kp_buf_printf(b, "%s -> ", t.data);
            t.len = 0;
            now_text(&t, snap, pr);
            kp_buf_printf(b, "%s\n", t.data);
        }
    for (i = 0; i < c->nlist; i++) {
        const struct kp_new_victim *nv = &c->list[i];

        if (nv->new_victim)
            kp_buf_printf(b, "  %-18s%s/%s on %s, by %s/%s\n", "new victim",
                          nv->v->pod->ns, nv->v->pod->name,
                          node_name(snap, nv->v->node), nv->by->pod->ns,
                          nv->by->pod->name);
        if (nv->new_pdb_violation)
            kp_buf_printf(b, "  %-18s%s/%s (%s), by %s/%s\n",
                          "new PDB violation", nv->v->pod->ns,
                          nv->v->pod->name, pdb_names(&t, nv->v),
                          nv->by->pod->ns, nv->by->pod->name);
    }
    for (i = 0; i < c->base->npending; i++)
        if (!c->matched[i])
            kp_buf_printf(b, "  %-18s%s/%s\n", "no longer pending",
                          c->base->order[i]->ns, c->base->order[i]->name);
    kp_buf_release(&t);
}
