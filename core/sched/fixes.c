/*
 * fixes.c - checked fixes (issue 26): for a pod that is Unschedulable,
 * the smallest changes that would make it Fit or Preempt, each verified by
 * running the analysis again with the change applied: tolerate a taint
 * the nodes carry, correct or drop a nodeSelector entry no node matches,
 * lower a request no node has room for, raise the priority to the next
 * PriorityClass, relax a DoNotSchedule spread constraint.  Only a change
 * whose run gives Fits or Preempts is reported, with that outcome.
 *
 * The re-run is the run's own: in queue mode the pod's turn again, the
 * pods before it in the queue placed, nominated and their victims gone as
 * the run decided (simulate.h kp_analyze_at_turn; a raised priority takes
 * an earlier turn); in independent mode, and with node what-ifs or
 * rollouts (whose queue is not one pass), the pod alone against the
 * snapshot.  The change is made on the pod itself and undone after.  Bounded:
 * the first KP_FIXES_MAX_PODS Unschedulable pods reported, at most
 * KP_FIXES_MAX_TRIES changes tried and KP_FIXES_MAX_SHOWN kept per pod.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corev1.h"
#include "fixes.h"
#include "framework.h"
#include "simulate.h"

/* Fits or Preempts: the outcome in words and as JSON members */
static bool
outcome(const struct kp_snapshot *snap, const struct kp_pod_report *pr,
        struct kp_buf *out, struct kp_buf *json)
{
    if (pr->result == KP_RESULT_FITS) {
        kp_buf_printf(out, "Fits on node %s", snap->nodes[pr->node]->name);
        kp_buf_puts(json, "\"result\": \"Fits\", \"node\": ");
        kp_buf_json_str(json, snap->nodes[pr->node]->name);
        return true;
    }
    if (pr->result == KP_RESULT_PREEMPTS) {
        kp_buf_printf(out, "Preempts on node %s (%zu victim(s), %d PDB "
                      "violation(s))", snap->nodes[pr->nominated_node]->name,
                      pr->nvictims, pr->pdb_violations);
        kp_buf_puts(json, "\"result\": \"Preempts\", \"node\": ");
        kp_buf_json_str(json, snap->nodes[pr->nominated_node]->name);
        kp_buf_printf(json, ", \"victims\": %zu, \"pdbViolations\": %d",
                      pr->nvictims, pr->pdb_violations);
        return true;
    }
    return false;
}

/*
 * Run the analysis for p as changed; the outcome into out/json.  Queue
 * mode: p's turn in the queue of the run rep (kp_analyze_at_turn);
 * else, or where the queue is not one pass (node what-ifs, rollouts),
 * p alone against the snapshot.
 */
static bool
rerun(const struct kp_snapshot *snap, const struct kp_options *o,
      const struct kp_report *rep, const struct kp_pod *p,
      struct kp_buf *out, struct kp_buf *json)
{
    struct kp_options o2 = *o;
    struct kp_report tr;
    struct kp_error err = {0, ""};
    const struct kp_pod_report *pr;
    size_t i;
    bool ok = false;

    o2.explain_nodes = false;
    o2.output = KP_OUTPUT_TABLE;            /* no diagnosis, no fixes */
    o2.progress = NULL;
    if (kp_analyze_at_turn(snap, &o2, rep, p, &tr)) {
        ok = outcome(snap, &tr.pods[0], out, json);
        kp_report_release(&tr);
        return ok;
    }
    o2.mode = KP_MODE_INDEPENDENT;
    kp_analyze_queue(snap, &o2, &tr);
    for (i = 0; i < tr.npods && tr.pods[i].pod != p; i++)
        ;
    if (i == tr.npods) {
        kp_report_release(&tr);
        return false;
    }
    tr.pods[0] = tr.pods[i];
    tr.npods = 1;
    tr.pods[0].reported = true;
    if (kp_analyze_run(snap, &o2, &tr, &err) == 0) {
        pr = &tr.pods[0];
        ok = outcome(snap, pr, out, json);
    }
    kp_report_release(&tr);
    return ok;
}

struct fixer {
    const struct kp_snapshot *snap;
    const struct kp_options *o;
    const struct kp_report *rep;        /* the run, for queue mode */
    struct kp_pod *p;
    size_t tries, shown;
    struct kp_buf text, json;
};

/* Re-run with p as changed; keep the change when it helps. */
static void
verify(struct fixer *f, const char *what, const char *what_json)
{
    struct kp_buf out, js;

    if (f->tries >= KP_FIXES_MAX_TRIES || f->shown >= KP_FIXES_MAX_SHOWN)
        return;
    f->tries++;
    kp_buf_init(&out);
    kp_buf_init(&js);
    if (rerun(f->snap, f->o, f->rep, f->p, &out, &js)) {
        kp_buf_printf(&f->text, "  %s: %s (verified)\n", what, out.data);
        kp_buf_printf(&f->json, "%s{%s, ", f->shown ? ",\n        " :
                      "\n        ", what_json);
        kp_buf_add(&f->json, js.data, js.len);
        kp_buf_puts(&f->json, "}");
        f->shown++;
    }
    kp_buf_release(&out);
    kp_buf_release(&js);
}

static bool
done(const struct fixer *f)
{
    return f->tries >= KP_FIXES_MAX_TRIES || f->shown >= KP_FIXES_MAX_SHOWN;
}

static void
json_str_to(char *buf, size_t n, const char *fmt, const char *a,
            const char *b, const char *c)
{
    struct kp_buf t;

    kp_buf_init(&t);
    kp_buf_json_str(&t, a ? a : "");
    if (b) {
        kp_buf_puts(&t, "\x01");
        kp_buf_json_str(&t, b);
    }
    if (c) {
        kp_buf_puts(&t, "\x01");
        kp_buf_json_str(&t, c);
    }
    {
        char *x = t.data, *y = strchr(x, '\x01'), *z = NULL;

        if (y) {
            *y++ = 0;
            z = strchr(y, '\x01');
            if (z)
                *z++ = 0;
        }
        snprintf(buf, n, fmt, x, y ? y : "", z ? z : "");
    }
    kp_buf_release(&t);
}

/* tolerate each distinct NoSchedule/NoExecute taint the pod does not */
static void
try_tolerations(struct fixer *f)
{
    const struct kp_snapshot *snap = f->snap;
    struct kp_pod *p = f->p;
    const struct kp_taint *seen[8];
    size_t i, j, k, nseen = 0;

    for (i = 0; i < snap->nnodes && !done(f); i++) {
        for (j = 0; j < snap->nodes[i]->ntaints && !done(f); j++) {
            const struct kp_taint *t = &snap->nodes[i]->taints[j];
            struct kp_toleration *tol, *old = p->tolerations;
            size_t oldn = p->ntolerations;
            char what[512], wj[1024];

            if ((strcmp(t->effect, "NoSchedule") != 0 &&
                 strcmp(t->effect, "NoExecute") != 0) ||
                kp_tolerates_any(p, t))
                continue;
            for (k = 0; k < nseen; k++)
                if (strcmp(seen[k]->key, t->key) == 0 &&
                    strcmp(seen[k]->value ? seen[k]->value : "",
                           t->value ? t->value : "") == 0 &&
                    strcmp(seen[k]->effect, t->effect) == 0)
                    break;
            if (k < nseen || nseen == 8)
                continue;
            seen[nseen++] = t;
            tol = kp_xcalloc(oldn + 1, sizeof(*tol));
            if (oldn)
                memcpy(tol, old, oldn * sizeof(*tol));
            tol[oldn].key = t->key;
            tol[oldn].op = KP_TOL_EQUAL;
            tol[oldn].value = t->value ? t->value : "";
            tol[oldn].effect = t->effect;
            p->tolerations = tol;
            p->ntolerations = oldn + 1;
            snprintf(what, sizeof(what), "tolerate %s%s%s:%s", t->key,
                     t->value && t->value[0] ? "=" : "",
                     t->value ? t->value : "", t->effect);
            json_str_to(wj, sizeof(wj), "\"change\": \"tolerate\", "
                        "\"key\": %s, \"value\": %s, \"effect\": %s",
                        t->key, t->value ? t->value : "", t->effect);
            verify(f, what, wj);
            p->tolerations = old;
            p->ntolerations = oldn;
            free(tol);
        }
    }
}

/* the most frequent value of key among the nodes, or NULL */
static const char *
common_value(const struct kp_snapshot *snap, const char *key)
{
    const char *best = NULL;
    size_t i, j, bestn = 0;

    for (i = 0; i < snap->nnodes; i++) {
        const char *v = kp_labels_get(&snap->nodes[i]->labels, key);
        size_t n = 0;

        if (!v)
            continue;
        for (j = 0; j < snap->nnodes; j++) {
            const char *w = kp_labels_get(&snap->nodes[j]->labels, key);

            n += w && strcmp(v, w) == 0;
        }
        if (n > bestn) {
            best = v;
            bestn = n;
        }
    }
    return best;
}

/* a nodeSelector entry no node matches: correct it, else drop it */
static void
try_selector(struct fixer *f)
{
    const struct kp_snapshot *snap = f->snap;
    struct kp_pod *p = f->p;
    struct kp_labels old = p->node_selector;
    size_t k, i, m;

    for (k = 0; k < old.n && !done(f); k++) {
        const struct kp_label *l = &old.items[k];
        struct kp_label *items;
        const char *v;
        char what[512], wj[1024];

        for (i = m = 0; i < snap->nnodes; i++) {
            const char *x = kp_labels_get(&snap->nodes[i]->labels, l->key);

            m += x && strcmp(x, l->value) == 0;
        }
        if (m)
            continue;
        items = kp_xcalloc(old.n + 1, sizeof(*items));
        memcpy(items, old.items, old.n * sizeof(*items));
        v = common_value(snap, l->key);
        if (v) {
            items[k].value = v;
            items[k].h = kp_label_hash(l->key, v);
            p->node_selector.items = items;
            snprintf(what, sizeof(what), "nodeSelector %s=%s (not %s)",
                     l->key, v, l->value);
            json_str_to(wj, sizeof(wj), "\"change\": \"nodeSelector\", "
                        "\"key\": %s, \"value\": %s, \"was\": %s", l->key, v,
                        l->value);
            verify(f, what, wj);
        }
        memcpy(items, old.items, old.n * sizeof(*items));
        memmove(&items[k], &items[k + 1], (old.n - k - 1) * sizeof(*items));
        p->node_selector.items = items;
        p->node_selector.n = old.n - 1;
        snprintf(what, sizeof(what), "drop nodeSelector %s=%s", l->key,
                 l->value);
        json_str_to(wj, sizeof(wj), "\"change\": \"dropNodeSelector\", "
                    "\"key\": %s, \"value\": %s", l->key, l->value, NULL);
        verify(f, what, wj);
        p->node_selector = old;
        free(items);
    }
}

/* "1900m", "8"; memory in Mi when whole; else the number */
static void
qty(char *buf, size_t n, int id, int64_t v)
{
    if (id == KP_RES_CPU)
        snprintf(buf, n, v % 1000 ? "%lldm" : "%lld",
                 (long long)(v % 1000 ? v : v / 1000));
    else if ((id == KP_RES_MEMORY || id == KP_RES_EPHEMERAL) &&
             v % 1048576 == 0 && v)
        snprintf(buf, n, "%lldMi", (long long)(v / 1048576));
    else
        snprintf(buf, n, "%lld", (long long)v);
}

/* the most of resource id any node has free in the snapshot */
static int64_t
most_free(const struct kp_snapshot *snap, int id)
{
    int64_t best = 0;
    size_t i;

    for (i = 0; i < snap->nnodes; i++) {
        int64_t a = kp_resvec_get(&snap->nodes[i]->allocatable, id);
        int64_t used = 0;
        size_t j;

        for (j = 0; snap->node_pods && j < snap->node_npods[i]; j++)
            if (!kp_pod_is_terminal(snap->node_pods[i][j]))
                used += kp_resvec_get(&snap->node_pods[i][j]->req, id);
        if (a - used > best)
            best = a - used;
    }
    return best;
}

/*
 * A request no node has room for: lowered to the most any node has free,
 * each alone, then all of them together (a pod short of cpu and memory).
 */
static void
try_requests(struct fixer *f)
{
    const struct kp_snapshot *snap = f->snap;
    struct kp_pod *p = f->p;
    struct kp_resvec old = p->req;
    const struct kp_pod_requests *b134 = p->before_134, *b133 = p->before_133;
    const struct kp_pod_requests *f138 = p->from_138;
    struct kp_res_entry *all = kp_xcalloc(old.n + 1, sizeof(*all));
    struct kp_buf aw, aj;
    size_t r, nshort = 0;

    kp_buf_init(&aw);
    kp_buf_init(&aj);
    if (old.n)
        memcpy(all, old.e, old.n * sizeof(*all));
    for (r = 0; r < old.n && !done(f); r++) {
        int id = old.e[r].id;
        int64_t want = old.e[r].value, best;
        struct kp_res_entry *e;
        char what[512], wj[1024], q[64], was[64];

        if (id == KP_RES_PODS || want <= 0)
            continue;
        best = most_free(snap, id);
        /* memory and storage in whole Mi, rounded down: still room */
        if ((id == KP_RES_MEMORY || id == KP_RES_EPHEMERAL) &&
            best >= 1048576)
            best -= best % 1048576;
        if (best <= 0 || best >= want)
            continue;
        all[r].value = best;
        e = kp_xcalloc(old.n + 1, sizeof(*e));
        memcpy(e, old.e, old.n * sizeof(*e));
        e[r].value = best;
        p->req.e = e;
        p->before_134 = p->before_133 = p->from_138 = NULL;
        qty(q, sizeof(q), id, best);
        qty(was, sizeof(was), id, want);
        snprintf(what, sizeof(what), "lower the %s request to %s (from "
                 "%s)", snap->res_names[id], q, was);
        json_str_to(wj, sizeof(wj), "\"change\": \"lowerRequest\", "
                    "\"resource\": %s, \"request\": %s", snap->res_names[id],
                    q, NULL);
        kp_buf_printf(&aw, "%s%s %s", nshort ? ", " : "",
                      snap->res_names[id], q);
        kp_buf_printf(&aj, "%s{\"resource\": ", nshort ? ", " : "");
        kp_buf_json_str(&aj, snap->res_names[id]);
        kp_buf_printf(&aj, ", \"request\": \"%s\"}", q);
        nshort++;
        verify(f, what, wj);
        p->req = old;
        p->before_134 = b134;
        p->before_133 = b133;
        p->from_138 = f138;
        free(e);
    }
    if (nshort > 1 && !done(f)) {
        char what[512], wj[1024];

        p->req.e = all;
        p->before_134 = p->before_133 = p->from_138 = NULL;
        snprintf(what, sizeof(what), "lower the requests to %s", aw.data);
        snprintf(wj, sizeof(wj), "\"change\": \"lowerRequests\", "
                 "\"requests\": [%s]", aj.data);
        verify(f, what, wj);
        p->req = old;
        p->before_134 = b134;
        p->before_133 = b133;
        p->from_138 = f138;
    }
    free(all);
    kp_buf_release(&aw);
    kp_buf_release(&aj);
}

/* the PriorityClasses above the pod's priority, lowest first */
static void
try_priority(struct fixer *f)
{
    const struct kp_snapshot *snap = f->snap;
    struct kp_pod *p = f->p;
    int32_t old = p->priority, floor = p->priority;
    size_t n, i;

    if (p->preempt_never)
        return;
    for (n = 0; n < 3 && !done(f); n++) {
        const struct kp_priority_class *next = NULL;
        char what[512], wj[1024], v[32];
        size_t before = f->shown;

        for (i = 0; i < snap->npcs; i++)
            if (snap->pcs[i]->value > floor &&
                (!next || snap->pcs[i]->value < next->value))
                next = snap->pcs[i];
        if (!next)
            return;
        floor = next->value;
        p->priority = next->value;
        snprintf(v, sizeof(v), "%d", (int)next->value);
        snprintf(what, sizeof(what), "priorityClassName %s (priority %d)",
                 next->name, (int)next->value);
        json_str_to(wj, sizeof(wj), "\"change\": \"priorityClass\", "
                    "\"priorityClassName\": %s, \"priority\": %s",
                    next->name, v, NULL);
        verify(f, what, wj);
        p->priority = old;
        if (f->shown > before)
            return;                 /* the smallest raise that helps */
    }
}

/* a DoNotSchedule spread constraint as ScheduleAnyway */
static void
try_spread(struct fixer *f)
{
    struct kp_pod *p = f->p;
    size_t k;

    for (k = 0; k < p->nspread && !done(f); k++) {
        char what[512], wj[1024];

        if (!p->spread[k].do_not_schedule)
            continue;
        p->spread[k].do_not_schedule = false;
        snprintf(what, sizeof(what), "whenUnsatisfiable: ScheduleAnyway "
                 "(topologyKey %s)", p->spread[k].topology_key);
        json_str_to(wj, sizeof(wj), "\"change\": \"whenUnsatisfiable\", "
                    "\"topologyKey\": %s, \"value\": %s",
                    p->spread[k].topology_key, "ScheduleAnyway", NULL);
        verify(f, what, wj);
        p->spread[k].do_not_schedule = true;
    }
}

/* ---- the node "add a node like N" copies (fix_add_node.c) ---- */

static bool
tolerates_node(const struct kp_pod *p, const struct kp_node *n)
{
    size_t i;

    for (i = 0; i < n->ntaints; i++) {
        const struct kp_taint *t = &n->taints[i];

        if ((strcmp(t->effect, "NoSchedule") == 0 ||
             strcmp(t->effect, "NoExecute") == 0) && !kp_tolerates_any(p, t))
            return false;
    }
    return true;
}

static bool
affinity_matches(const struct kp_pod *p, const struct kp_node *n)
{
    size_t k;

    if (!kp_labels_set_matches(&p->node_selector, &n->labels))
        return false;
    if (p->required_node_affinity.is_null)
        return true;
    for (k = 0; k < p->required_node_affinity.nterms; k++)
        if (kp_node_selector_term_matches(
                &p->required_node_affinity.terms[k], &n->labels, n->name))
            return true;
    return false;
}

static bool
large_enough(const struct kp_pod *p, const struct kp_node *n)
{
    size_t r;

    for (r = 0; r < p->req.n; r++)
        if (p->req.e[r].id != KP_RES_PODS &&
            kp_resvec_get(&n->allocatable, p->req.e[r].id) <
            p->req.e[r].value)
            return false;
    return true;
}

const struct kp_node *
kp_fix_like_node(const struct kp_snapshot *snap, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < snap->nnodes; i++) {
        const struct kp_node *n = snap->nodes[i];

        if (tolerates_node(p, n) && affinity_matches(p, n) &&
            large_enough(p, n))
            return n;
    }
    return NULL;
}

void
kp_suggest_fixes(struct kp_snapshot *snap, const struct kp_options *o,
                 struct kp_report *rep)
{
    struct kp_options ot = *o;
    struct kp_cluster tmpl;
    size_t i, npods = 0;

    /* no node: nothing a change to the pod can do */
    for (i = 0; snap->nnodes && i < rep->npods &&
         npods < KP_FIXES_MAX_PODS; i++) {
        struct kp_pod_report *pr = &rep->pods[i];
        struct fixer f;

        if (!pr->reported || pr->result != KP_RESULT_UNSCHEDULABLE)
            continue;
        /*
         * The changes are made to pending pods only: every re-run's
         * NodeInfos (the bound pods) are the same, copied from one
         * cluster made once (kp_cluster_init_from; issue 31: adding
         * every bound pod again was most of what a re-run cost).
         */
        if (npods++ == 0) {
            kp_cluster_init_tables(&tmpl, snap, o->scheduler_name, false,
                                   NULL);
            ot.node_template = &tmpl;
        }
        memset(&f, 0, sizeof(f));
        f.snap = snap;
        f.o = &ot;
        f.rep = rep;
        f.p = snap->pods[pr->pod->index];
        kp_buf_init(&f.text);
        kp_buf_init(&f.json);
        try_tolerations(&f);
        try_selector(&f);
        try_requests(&f);
        try_priority(&f);
        try_spread(&f);
        kp_buf_puts(&f.json, f.shown ? "\n      ]" : "]");
        pr->fixes_json = kp_arena_concat(&rep->arena, "[", f.json.data,
                                         NULL);
        pr->fixes_text = f.shown ? kp_arena_strndup(&rep->arena, f.text.data,
                                                    f.text.len)
                                 : "  none found among the changes tried\n";
        kp_buf_release(&f.text);
        kp_buf_release(&f.json);
    }
    if (npods)
        kp_cluster_release(&tmpl);
}
