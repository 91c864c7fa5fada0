/*
 * render.c - kubectl-style table (-o table, -o wide) and the
 * PreemptionReport JSON of the output contract (-o json).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object_meta.h"
#include "pool.h"
#include "report.h"
#include "shortcut.h"
#include "table.h"
#include "rollout.h"
#include "baseline.h"
#include "whatif.h"

static const char *const result_names[] = {"Fits", "Preempts",
                                           "Unschedulable", "NotEligible"};

static char *
victim_list(const struct kp_pod_report *pr)
{
    struct kp_buf b;
    size_t i;

    if (pr->nvictims == 0)
        return kp_xstrdup("<none>");
    kp_buf_init(&b);
    for (i = 0; i < pr->nvictims; i++)
        kp_buf_printf(&b, "%s%s/%s%s", i ? "," : "", pr->victims[i].pod->ns,
                      pr->victims[i].pod->name,
                      pr->victims[i].violates_pdb ? "(pdb)" : "");
    return b.data;
}

/*
 * The node the report shows a pod nominated to: the chosen candidate's,
 * or for a NotEligible pod the nomination it keeps
 * (status.nominatedNodeName: kube-scheduler does not clear it).
 */
static const char *
shown_nominated_node(const struct kp_snapshot *snap,
                     const struct kp_pod_report *pr)
{
    if (pr->nominated_node >= 0)
        return snap->nodes[pr->nominated_node]->name;
    if (pr->result == KP_RESULT_NOT_ELIGIBLE && !pr->nomination_cleared)
        return pr->pod->nominated_node;
    return NULL;
}

/*
 * What a NotEligible pod waits for: the lower-priority pods that are
 * terminating on its nominated node as preemption victims (a
 * DisruptionTarget condition), as PodEligibleToPreemptOthers reads them.
 * Returns a malloc'ed array (NULL when none) and its length in *n.
 */
static const struct kp_pod **
waiting_for(const struct kp_snapshot *snap, const struct kp_pod_report *pr,
            size_t *n)
{
    const struct kp_pod *p = pr->pod, **out = NULL;
    const struct kp_node *node;
    size_t i;

    *n = 0;
    if (pr->result != KP_RESULT_NOT_ELIGIBLE || !p->nominated_node ||
        pr->nomination_cleared)
        return NULL;
    node = kp_snapshot_node(snap, p->nominated_node);
    if (!node || !snap->node_pods)
        return NULL;
    for (i = 0; i < snap->node_npods[node->index]; i++) {
        const struct kp_pod *v = snap->node_pods[node->index][i];

        if (v->priority < p->priority && v->deleting &&
            v->preemption_target) {
            out = kp_xrealloc(out, (*n + 1) * sizeof(*out));
            out[(*n)++] = v;
        }
    }
    return out;
}

/* DryRunPreemption stopped before trying every potential node */
static bool
sampled(const struct kp_pod_report *pr)
{
    return pr->num_candidates && pr->num_candidates < pr->npotential;
}

/*
 * The default table marks a nomination DryRunPreemption made from a
 * sample ("node-c*"): kube-scheduler starts at a random offset
 * (GetOffsetAndNumCandidates in pkg/scheduler/framework/plugins/
 * defaultpreemption/default_preemption.go) and stops after numCandidates
 * candidates, so another run may nominate another node.  -o wide says it
 * per pod; --no-headers keeps the cells as they are, for scripts.
 */
static bool
marked(const struct kp_pod_report *pr, bool wide, bool no_headers)
{
    return !wide && !no_headers && pr->result == KP_RESULT_PREEMPTS &&
           sampled(pr);
}

/* Once under the table: how many nominations were sampled, and from what. */
static void
sampled_footnote(const struct kp_report *rep, bool wide, bool no_headers,
                 struct kp_buf *out)
{
    size_t i, n = 0, total = 0, cmin = 0, cmax = 0, pmin = 0, pmax = 0;

    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];

        if (!pr->reported)
            continue;
        total += pr->result == KP_RESULT_PREEMPTS;
        if (!marked(pr, wide, no_headers))
            continue;
        if (n == 0 || pr->num_candidates < cmin)
            cmin = pr->num_candidates;
        if (n == 0 || pr->num_candidates > cmax)
            cmax = pr->num_candidates;
        if (n == 0 || pr->npotential < pmin)
            pmin = pr->npotential;
        if (n == 0 || pr->npotential > pmax)
            pmax = pr->npotential;
        n++;
    }
    if (n == 0)
        return;
    kp_buf_printf(out, "* %zu of %zu preemption(s): the nominated node is "
                  "the best of ", n, total);
    if (cmin == cmax)
        kp_buf_printf(out, "%zu", cmin);
    else
        kp_buf_printf(out, "%zu to %zu", cmin, cmax);
    kp_buf_puts(out, " candidates DryRunPreemption found among ");
    if (pmin == pmax)
        kp_buf_printf(out, "%zu", pmin);
    else
        kp_buf_printf(out, "%zu to %zu", pmin, pmax);
    kp_buf_puts(out, " potential nodes before it stopped; kube-scheduler "
                "starts at a random offset, so it may nominate another "
                "node (--offset, -o wide, JSON \"sampled\")\n");
}

static char *
wide_note(const struct kp_snapshot *snap, const struct kp_pod_report *pr)
{
    struct kp_buf b;
    const struct kp_pod **w;
    size_t i, n;

    kp_buf_init(&b);
    kp_buf_puts(&b, pr->message ? pr->message : "");
    w = waiting_for(snap, pr, &n);
    for (i = 0; i < n; i++)
        kp_buf_printf(&b, "%s%s/%s", i ? ", " : " [waiting for the "
                      "terminating pod(s) ", w[i]->ns, w[i]->name);
    if (n)
        kp_buf_printf(&b, " on nominated node %s]", pr->pod->nominated_node);
    free(w);
    if (sampled(pr))
        kp_buf_printf(&b, " [sampled: up to %zu candidates from %zu "
                      "potential nodes]", pr->num_candidates,
                      pr->npotential);
    if (!b.data)
        return kp_xstrdup("");
    return b.data;
}

/*
 * The VICTIMS cell: the pod's victims, or for a pod waiting on its
 * nominated node for victims already terminating, "waiting(N)": that
 * preemption happened, its victims are on their way out (issue 26: not
 * "0", which read as "nothing to evict").
 */
static char *
victims_cell(const struct kp_snapshot *snap, const struct kp_pod_report *pr)
{
    const struct kp_pod **w;
    size_t n;

    w = waiting_for(snap, pr, &n);
    free(w);
    if (n)
        return kp_cellf("waiting(%zu)", n);
    return kp_cellf("%zu", pr->nvictims);
}

/* ---- --explain-nodes ---- */

static const char *const code_names[] = {
    "Success", "Unschedulable", "UnschedulableAndUnresolvable", "Error",
    "Skip"};

static const char *const outcome_names[] = {
    "notTried", "notEvaluated", "noVictimsHelp", "candidate", "dropped"};

static void
join_reasons(struct kp_buf *b, const struct kp_node_status *st)
{
    int r;

    if (st->nreasons == 0)
        kp_buf_puts(b, code_names[st->code]);
    for (r = 0; r < st->nreasons; r++)
        kp_buf_printf(b, "%s%s", r ? ", " : "", st->reasons[r]);
}

/* "2 victims, 1 PDB violation" */
static void
victim_counts(struct kp_buf *b, const struct kp_node_report *nr)
{
    kp_buf_printf(b, "%u victim%s", (unsigned)nr->nvictims,
                  nr->nvictims == 1 ? "" : "s");
    if (nr->num_pdb_violations)
        kp_buf_printf(b, ", %u PDB violation%s",
                      (unsigned)nr->num_pdb_violations,
                      nr->num_pdb_violations == 1 ? "" : "s");
}

/* The filter column of a node line: reasons, "fits" or "not evaluated". */
static char *
node_filter_text(const struct kp_pod_report *pr, size_t i)
{
    const struct kp_node_status *st = pr->nodes[i].filter;
    struct kp_buf b;

    if (!st)
        return kp_xstrdup("not evaluated");
    if (st->code == KP_SUCCESS)
        return kp_xstrdup(pr->node == (int)i ? "fits (chosen)" : "fits");
    kp_buf_init(&b);
    join_reasons(&b, st);
    return b.data;
}

/* The preemption column: "preemption: <result> (<detail>)", or "". */
static char *
node_preemption_text(const struct kp_pod_report *pr, size_t i)
{
    const struct kp_node_report *nr = &pr->nodes[i];
    const struct kp_node_status *st = nr->preemption;
    struct kp_buf b;

    if (!st)
        return kp_xstrdup("");
    kp_buf_init(&b);
    kp_buf_printf(&b, "preemption: %s", outcome_names[st->outcome]);
    switch (st->outcome) {
    case KP_NODE_CANDIDATE:
    case KP_NODE_DROPPED:
        kp_buf_puts(&b, " (");
        victim_counts(&b, nr);
        kp_buf_puts(&b, pr->nominated_node == (int)i ? "), nominated" :
                        st->outcome == KP_NODE_DROPPED ?
                        "; the candidate list was full)" : ")");
        break;
    case KP_NODE_NO_VICTIMS_HELP:
    case KP_NODE_NOT_TRIED:
        kp_buf_puts(&b, " (");
        join_reasons(&b, st);
        kp_buf_puts(&b, ")");
        break;
    default:
        break;
    }
    return b.data;
}

/*
 * Whether nodes i and j of pr read the same on a node line: the same
 * interned statuses, the same counts, neither the chosen or nominated one.
 */
static bool
same_line(const struct kp_pod_report *pr, size_t i, size_t j)
{
    const struct kp_node_report *a = &pr->nodes[i], *b = &pr->nodes[j];

    return a->filter == b->filter && a->preemption == b->preemption &&
           a->nvictims == b->nvictims &&
           a->num_pdb_violations == b->num_pdb_violations &&
           pr->node != (int)i && pr->node != (int)j &&
           pr->nominated_node != (int)i && pr->nominated_node != (int)j;
}

/*
 * Group the nodes that read the same (issue 26: 2,000 nodes, a handful
 * of reasons), in the order of their first node: first[g] is group g's
 * first node, group[i] node i's group.  Returns the number of groups.
 * Under -v every node is its own group: -v asks for each node's line.
 */
static size_t
group_nodes(const struct kp_report *rep, const struct kp_pod_report *pr,
            size_t n, size_t *first, size_t *group, size_t *count)
{
    size_t i, g, ng = 0;

    for (i = 0; i < n; i++) {
        for (g = 0; !rep->explain_nodes_each && g < ng; g++)
            if (same_line(pr, first[g], i))
                break;
        if (rep->explain_nodes_each || g == ng) {
            first[ng] = i;
            count[ng] = 0;
            g = ng++;
        }
        group[i] = g;
        count[g]++;
    }
    return ng;
}

/* "node-a", "3 nodes (node-a, node-b, node-c)", "1122 nodes (node-a, ...)" */
static char *
group_name(const struct kp_snapshot *snap, size_t n, const size_t *group,
           size_t g, size_t count)
{
    struct kp_buf b;
    size_t i, k = 0;

    kp_buf_init(&b);
    if (count > 1)
        kp_buf_printf(&b, "%zu nodes (", count);
    for (i = 0; i < n && k < (count > 3 ? 1 : 3); i++)
        if (group[i] == g)
            kp_buf_printf(&b, "%s%s", k++ ? ", " : "", snap->nodes[i]->name);
    if (count > 3)
        kp_buf_puts(&b, ", ...");
    if (count > 1)
        kp_buf_puts(&b, ")");
    return b.data;
}

/*
 * The lines under a pod's row: one per group of nodes that read the same
 * (one per node with -v), in input order of their first node, aligned
 * within the pod ("  node-b   NodeResourcesFit   Insufficient cpu
 * preemption: candidate (1 victim)").
 */
static char *
node_lines(const struct kp_snapshot *snap, const struct kp_report *rep,
           const struct kp_pod_report *pr)
{
    size_t n = pr->nodes ? snap->nnodes : 0, i, c, w[4] = {0, 0, 0, 0};
    size_t *first = kp_xcalloc(n + 1, sizeof(size_t));
    size_t *group = kp_xcalloc(n + 1, sizeof(size_t));
    size_t *count = kp_xcalloc(n + 1, sizeof(size_t));
    size_t ng = group_nodes(rep, pr, n, first, group, count);
    char **cells = kp_xcalloc(ng * 4 + 1, sizeof(char *));
    struct kp_buf b;

    kp_buf_init(&b);
    kp_buf_puts(&b, "");
    for (i = 0; i < ng; i++) {
        const struct kp_node_status *f = pr->nodes[first[i]].filter;

        cells[i * 4] = group_name(snap, n, group, i, count[i]);
        cells[i * 4 + 1] = kp_xstrdup(f && f->plugin ? f->plugin : "-");
        cells[i * 4 + 2] = node_filter_text(pr, first[i]);
        cells[i * 4 + 3] = node_preemption_text(pr, first[i]);
        for (c = 0; c < 4; c++)
            if (strlen(cells[i * 4 + c]) > w[c])
                w[c] = strlen(cells[i * 4 + c]);
    }
    free(first);
    free(group);
    free(count);
    for (i = 0; i < ng; i++) {
        bool last = !cells[i * 4 + 3][0];

        kp_buf_printf(&b, "  %-*s   %-*s   ", (int)w[0], cells[i * 4],
                      (int)w[1], cells[i * 4 + 1]);
        if (last)
            kp_buf_printf(&b, "%s\n", cells[i * 4 + 2]);
        else
            kp_buf_printf(&b, "%-*s   %s\n", (int)w[2], cells[i * 4 + 2],
                          cells[i * 4 + 3]);
        for (c = 0; c < 4; c++)
            free(cells[i * 4 + c]);
    }
    free(cells);
    return b.data;
}

/* Whether --add put pods into the snapshot. */
static bool
any_added(const struct kp_snapshot *snap)
{
    size_t i;

    for (i = 0; i < snap->npods; i++)
        if (kp_pod_is_added(snap->pods[i]))
            return true;
    return false;
}

void
kp_render_table(const struct kp_snapshot *snap, const struct kp_report *rep,
                bool wide, bool no_headers, struct kp_buf *out)
{
    static const char *const h[] = {"NAMESPACE", "NAME", "PRIORITY",
                                    "RESULT", "NOMINATED-NODE", "VICTIMS",
                                    "PDB-VIOLATIONS", "NODE", "CANDIDATES",
                                    "DECIDED-BY", "VICTIM-PODS"};
    const char *hs[16];
    bool added = wide && any_added(snap), ch = rep->change != NULL;
    /* one namespace: no NAMESPACE column, as kubectl get -n */
    size_t skip = rep->one_namespace ? 1 : 0;
    struct kp_table t;
    size_t i, nc = 0;

    /*
     * -o wide: with --add, ADDED before the message; with a change
     * (issue 25) CHANGE, WAS and WAS-VICTIM-PODS before it, and the table
     * CHANGE and WAS at the end.
     */
    for (i = 0; i < (wide ? 11u : 7u); i++)
        hs[nc++] = h[i];
    if (added)
        hs[nc++] = "ADDED";
    if (ch) {
        hs[nc++] = "CHANGE";
        hs[nc++] = "WAS";
        if (wide)
            hs[nc++] = "WAS-VICTIM-PODS";
    }
    if (wide)
        hs[nc++] = "MESSAGE";
    kp_table_init(&t, nc - skip, hs + skip);
    if (wide && !no_headers && rep->scheduler_shown)
        kp_buf_printf(out, "# %s\n", rep->scheduler_line);

    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];
        char *cells[16];
        size_t k = 7;

        if (!pr->reported)
            continue;
        cells[0] = kp_xstrdup(pr->pod->ns);
        cells[1] = kp_xstrdup(pr->pod->name);
        cells[2] = kp_cellf("%d", pr->pod->priority);
        cells[3] = kp_xstrdup(result_names[pr->result]);
        cells[4] = kp_xstrdup(shown_nominated_node(snap, pr) ?
                              shown_nominated_node(snap, pr) : "<none>");
        if (marked(pr, wide, no_headers)) {
            char *c = kp_cellf("%s*", cells[4]);

            free(cells[4]);
            cells[4] = c;
        }
        cells[5] = victims_cell(snap, pr);
        cells[6] = kp_cellf("%d", pr->pdb_violations);
        if (wide) {
            cells[k++] = kp_xstrdup(pr->node >= 0 ?
                                    snap->nodes[pr->node]->name : "<none>");
            cells[k++] = kp_cellf("%zu", pr->ncandidates);
            cells[k++] = kp_xstrdup(pr->decided_by ? pr->decided_by
                                                   : "<none>");
            cells[k++] = victim_list(pr);
        }
        if (added)
            cells[k++] = kp_xstrdup(kp_pod_is_added(pr->pod) ? "yes" : "no");
        if (ch) {
            const struct kp_pod_change *pc = kp_change_of(rep->change,
                                                          pr->pod);

            cells[k++] = kp_xstrdup(pc ? kp_change_names[pc->kind]
                                       : "<none>");
            cells[k++] = kp_change_was_cell(pc, wide);
            if (wide)
                cells[k++] = kp_change_was_victims_cell(pc);
        }
        if (wide)
            cells[k++] = kp_rollout_wide_note(pr->pod,
                kp_whatif_wide_note(pr->pod, wide_note(snap, pr)));
        if (skip)
            free(cells[0]);
        kp_table_row_after(&t, cells + skip, rep->explain_nodes ?
                        node_lines(snap, rep, pr) : NULL);
    }
    kp_table_print(&t, no_headers, out);
    sampled_footnote(rep, wide, no_headers, out);
}

/* ---- JSON ---- */

static void
json_victim(struct kp_buf *b, const struct kp_snapshot *snap,
            const struct kp_victim_report *v, const char *ind)
{
    size_t j;

    kp_buf_printf(b, "%s{\"namespace\": ", ind);
    kp_buf_json_str(b, v->pod->ns);
    kp_buf_puts(b, ", \"name\": ");
    kp_buf_json_str(b, v->pod->name);
    kp_buf_puts(b, ", \"node\": ");
    kp_buf_json_str(b, snap->nodes[v->node]->name);
    kp_buf_printf(b, ", \"priority\": %d, \"violatesPDB\": %s, "
                  "\"podDisruptionBudgets\": [", v->pod->priority,
                  v->violates_pdb ? "true" : "false");
    for (j = 0; j < v->npdbs; j++) {
        char name[1024];

        snprintf(name, sizeof(name), "%s/%s", v->pdbs[j]->ns,
                 v->pdbs[j]->name);
        if (j)
            kp_buf_puts(b, ", ");
        kp_buf_json_str(b, name);
    }
    kp_buf_puts(b, "]}");
}

/*
 * The candidate lists repeat the same nodes and pods thousands of times
 * (every candidate of every pod, as the contract asks): their JSON is
 * escaped once, on first use, and copied after that.
 */
struct json_names {
    struct kp_arena a;
    struct kp_buf tmp;
    const char **node, **pod;           /* by node / pod index */
    size_t *node_len, *pod_len;
};

static void
json_names_init(struct json_names *jn, const struct kp_snapshot *snap)
{
    kp_arena_init(&jn->a);
    kp_buf_init(&jn->tmp);
    jn->node = kp_xcalloc(snap->nnodes + 1, sizeof(*jn->node));
    jn->node_len = kp_xcalloc(snap->nnodes + 1, sizeof(size_t));
    jn->pod = kp_xcalloc(snap->npods + 1, sizeof(*jn->pod));
    jn->pod_len = kp_xcalloc(snap->npods + 1, sizeof(size_t));
}

static void
json_names_release(struct json_names *jn)
{
    kp_arena_release(&jn->a);
    kp_buf_release(&jn->tmp);
    free(jn->node);
    free(jn->node_len);
    free(jn->pod);
    free(jn->pod_len);
}

/* copy tmp into the arena as the cached text */
static const char *
json_names_keep(struct json_names *jn, size_t *len)
{
    *len = jn->tmp.len;
    return kp_arena_strndup(&jn->a, jn->tmp.data, jn->tmp.len);
}

/* "\"node name\"" */
static void
put_node_name(struct kp_buf *b, struct json_names *jn,
              const struct kp_snapshot *snap, int node)
{
    if (!jn->node[node]) {
        jn->tmp.len = 0;
        kp_buf_json_str(&jn->tmp, snap->nodes[node]->name);
        jn->node[node] = json_names_keep(jn, &jn->node_len[node]);
    }
    kp_buf_add(b, jn->node[node], jn->node_len[node]);
}

/* {"namespace": ..., "name": ...} */
static void
put_pod_ref(struct kp_buf *b, struct json_names *jn, const struct kp_pod *p)
{
    if (!jn->pod[p->index]) {
        jn->tmp.len = 0;
        kp_buf_puts(&jn->tmp, "{\"namespace\": ");
        kp_buf_json_str(&jn->tmp, p->ns);
        kp_buf_puts(&jn->tmp, ", \"name\": ");
        kp_buf_json_str(&jn->tmp, p->name);
        kp_buf_puts(&jn->tmp, "}");
        jn->pod[p->index] = json_names_keep(jn, &jn->pod_len[p->index]);
    }
    kp_buf_add(b, jn->pod[p->index], jn->pod_len[p->index]);
}

static void
put_int(struct kp_buf *b, long v)
{
    char d[24];
    size_t n = sizeof(d);
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

    do {
        d[--n] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        d[--n] = '-';
    kp_buf_add(b, d + n, sizeof(d) - n);
}

static void
json_candidates(struct kp_buf *b, const struct kp_snapshot *snap,
                struct json_names *jn, const struct kp_pod_report *pr)
{
    size_t i, j;

    if (pr->ncandidates == 0) {
        kp_buf_puts(b, "[]");
        return;
    }
    kp_buf_puts(b, "[\n");
    for (i = 0; i < pr->ncandidates; i++) {
        const struct kp_candidate *c = &pr->candidates[i];

        kp_buf_add(b, "        {\"node\": ", 17);
        put_node_name(b, jn, snap, c->node);
        kp_buf_add(b, ", \"victims\": [", 14);
        for (j = 0; j < c->nvictims; j++) {
            if (j)
                kp_buf_add(b, ", ", 2);
            put_pod_ref(b, jn, c->victims[j]);
        }
        kp_buf_add(b, "], \"pdbViolations\": ", 20);
        put_int(b, c->num_pdb_violations);
        if (i + 1 < pr->ncandidates)
            kp_buf_add(b, "},\n", 3);
        else
            kp_buf_add(b, "}\n", 2);
    }
    kp_buf_puts(b, "      ]");
}

/*
 * "code": ..., "plugin": ..., "reasons": [...] of one status; the code is
 * null for a node without one (NULL: not filtered; a potential node the
 * dry run did not reach).
 */
static void
json_status(struct kp_buf *b, const struct kp_node_status *st)
{
    int r;

    kp_buf_puts(b, "\"code\": ");
    if (st && !(st->outcome == KP_NODE_NOT_EVALUATED && !st->nreasons))
        kp_buf_printf(b, "\"%s\"", code_names[st->code]);
    else
        kp_buf_puts(b, "null");
    kp_buf_puts(b, ", \"plugin\": ");
    kp_buf_json_str_or_null(b, st ? st->plugin : NULL);
    kp_buf_puts(b, ", \"reasons\": [");
    for (r = 0; st && r < st->nreasons; r++) {
        if (r)
            kp_buf_puts(b, ", ");
        kp_buf_json_str(b, st->reasons[r]);
    }
    kp_buf_puts(b, "]");
}

static void
json_node_preemption(struct kp_buf *b, const struct kp_pod_report *pr,
                     size_t i)
{
    const struct kp_node_report *nr = &pr->nodes[i];
    const struct kp_node_status *st = nr->preemption;

    if (!st) {
        kp_buf_puts(b, "null");
        return;
    }
    kp_buf_printf(b, "{\"result\": \"%s\", ", outcome_names[st->outcome]);
    json_status(b, st);
    if (st->outcome == KP_NODE_CANDIDATE || st->outcome == KP_NODE_DROPPED)
        kp_buf_printf(b, ", \"victims\": %u, \"pdbViolations\": %u, "
                      "\"nominated\": %s", (unsigned)nr->nvictims,
                      (unsigned)nr->num_pdb_violations,
                      pr->nominated_node == (int)i ? "true" : "false");
    kp_buf_puts(b, "}");
}

/* "nodes": one object per node, input order (--explain-nodes) */
static void
json_nodes(struct kp_buf *b, const struct kp_snapshot *snap,
           const struct kp_pod_report *pr)
{
    size_t i, n = pr->nodes ? snap->nnodes : 0;

    kp_buf_puts(b, ",\n      \"nodes\": [");
    for (i = 0; i < n; i++) {
        kp_buf_puts(b, i ? ",\n        {\"node\": " :
                           "\n        {\"node\": ");
        kp_buf_json_str(b, snap->nodes[i]->name);
        kp_buf_puts(b, ", ");
        json_status(b, pr->nodes[i].filter);
        kp_buf_puts(b, ", \"preemption\": ");
        json_node_preemption(b, pr, i);
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, n ? "\n      ]" : "]");
}

/* "waitingFor": the terminating victims a NotEligible pod waits for */
static void
json_waiting_for(struct kp_buf *b, const struct kp_snapshot *snap,
                 const struct kp_pod_report *pr)
{
    size_t i, n;
    const struct kp_pod **w = waiting_for(snap, pr, &n);

    kp_buf_puts(b, ",\n      \"waitingFor\": [");
    for (i = 0; i < n; i++) {
        kp_buf_puts(b, i ? ", {\"namespace\": " : "{\"namespace\": ");
        kp_buf_json_str(b, w[i]->ns);
        kp_buf_puts(b, ", \"name\": ");
        kp_buf_json_str(b, w[i]->name);
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, "]");
    free(w);
}

/* "warnings" and "notAnalysed", after "pods" */
static void
json_tail(struct kp_buf *b, const struct kp_report *rep)
{
    size_t i;

    kp_buf_puts(b, ",\n  \"warnings\": [");
    for (i = 0; i < rep->nwarnings; i++) {
        kp_buf_puts(b, i ? ",\n    " : "\n    ");
        kp_buf_json_str(b, rep->warnings[i]);
    }
    kp_buf_puts(b, rep->nwarnings ? "\n  ],\n  \"notAnalysed\": ["
                                  : "],\n  \"notAnalysed\": [");
    for (i = 0; i < rep->nnot_analysed; i++) {
        const struct kp_not_analysed *na = &rep->not_analysed[i];

        kp_buf_puts(b, i ? ",\n    {\"namespace\": " : "\n    {\"namespace\": ");
        kp_buf_json_str(b, na->pod->ns);
        kp_buf_puts(b, ", \"name\": ");
        kp_buf_json_str(b, na->pod->name);
        kp_buf_printf(b, ", \"reason\": \"%s\"}", na->reason);
    }
    kp_buf_puts(b, rep->nnot_analysed ? "\n  ]\n}\n" : "]\n}\n");
}

static void
json_pod(struct kp_buf *b, const struct kp_snapshot *snap,
         const struct kp_report *rep, struct json_names *jn,
         const struct kp_pod_report *pr)
{
    const struct kp_pod *p = pr->pod;
    size_t i;

    kp_buf_printf(b, "    {\n      \"queuePosition\": %d,\n"
                  "      \"namespace\": ", pr->queue_position);
    kp_buf_json_str(b, p->ns);
    kp_buf_puts(b, ",\n      \"name\": ");
    kp_buf_json_str(b, p->name);
    kp_buf_puts(b, ",\n      ");
    kp_json_object_meta(b, p, NULL, NULL, NULL);
    /* only pods from --add carry the field */
    if (p->from_add)
        kp_buf_puts(b, ",\n      \"added\": true");
    kp_whatif_json_pod(p, b);
    kp_rollout_json_pod(p, b);
    kp_buf_printf(b, ",\n      \"priority\": %d,\n"
                  "      \"preemptionPolicy\": \"%s\",\n"
                  "      \"result\": \"%s\",\n", p->priority,
                  p->preempt_never ? "Never" : "PreemptLowerPriority",
                  result_names[pr->result]);
    /* present for every pod, null unless it fits (the report's one rule) */
    kp_buf_puts(b, "      \"node\": ");
    kp_buf_json_str_or_null(b, pr->result == KP_RESULT_FITS ?
                            snap->nodes[pr->node]->name : NULL);
    kp_buf_puts(b, ",\n");
    kp_buf_puts(b, "      \"nominatedNode\": ");
    kp_buf_json_str_or_null(b, shown_nominated_node(snap, pr));
    if (pr->result == KP_RESULT_NOT_ELIGIBLE)
        json_waiting_for(b, snap, pr);
    kp_buf_puts(b, ",\n      \"victims\": [");
    for (i = 0; i < pr->nvictims; i++) {
        kp_buf_puts(b, i ? ",\n" : "\n");
        json_victim(b, snap, &pr->victims[i], "        ");
    }
    kp_buf_puts(b, pr->nvictims ? "\n      ],\n" : "],\n");
    kp_buf_printf(b, "      \"pdbViolations\": %d,\n      \"decidedBy\": ",
                  pr->pdb_violations);
    kp_buf_json_str_or_null(b, pr->decided_by);
    kp_buf_puts(b, ",\n      \"candidates\": ");
    json_candidates(b, snap, jn, pr);
    kp_buf_puts(b, ",\n      \"message\": ");
    kp_buf_json_str_or_null(b, pr->message);
    kp_buf_printf(b, ",\n      \"sampled\": %s", sampled(pr) ? "true"
                                                             : "false");
    if (sampled(pr))
        kp_buf_printf(b, ",\n      \"potentialNodes\": %zu,\n"
                      "      \"numCandidates\": %zu,\n"
                      "      \"examinedNodes\": %zu", pr->npotential,
                      pr->num_candidates, pr->nexamined);
    if (rep->change)
        kp_change_json_pod(rep->change, p, b);
    if (rep->explain_nodes)
        json_nodes(b, snap, pr);
    if (pr->diagnosis_json) {
        kp_buf_puts(b, ",\n      \"diagnosis\": ");
        kp_buf_puts(b, pr->diagnosis_json);
    }
    if (pr->fixes_json) {
        kp_buf_puts(b, ",\n      \"fixes\": ");
        kp_buf_puts(b, pr->fixes_json);
    }
    kp_buf_puts(b, "\n    }");
}

/*
 * The pods' objects rendered on the pool's threads (issue 31: at 10,000
 * pending pods with their candidate lists this was the longest serial
 * step after the analysis), a window at a time, each into a buffer of
 * its own, and written out in the report's order: the same bytes as one
 * thread's.  A thread has its own escaped names (json_names).  A window
 * of WINDOW pods bounds what is held at once: the reports of the large
 * benchmark shapes are 1.5 GB.  KP_NO_PARALLEL_RENDER=1 renders them on
 * the calling thread, one after another.
 */
#define WINDOW 256
#define PARALLEL_MIN 64

struct render_ctx {
    const struct kp_snapshot *snap;
    const struct kp_report *rep;
    struct kp_pool *pool;
    int nthreads;
    struct json_names *jn;          /* by thread */
    const size_t *idx;              /* the window's pods (rep->pods) */
    struct kp_buf *bufs;            /* by place in the window */
};

static bool
render_one(void *ctx, size_t i, struct kp_arena *a)
{
    struct render_ctx *rc = ctx;
    int t = kp_pool_thread_of(rc->pool, a);

    rc->bufs[i].len = 0;
    json_pod(&rc->bufs[i], rc->snap, rc->rep, &rc->jn[t],
             &rc->rep->pods[rc->idx[i]]);
    return false;
}

/* the reported pods' objects, as json_pod on each in turn would add them */
static void
json_pods_parallel(struct kp_buf *out, const struct kp_snapshot *snap,
                   const struct kp_report *rep, size_t nreported)
{
    struct render_ctx rc;
    struct kp_arena alone;
    size_t idx[WINDOW], i = 0, n, k, first = 1;
    int t;

    rc.snap = snap;
    rc.rep = rep;
    rc.pool = kp_pool_new(kp_pool_default_threads());
    rc.nthreads = rc.pool ? kp_pool_threads(rc.pool) : 1;
    rc.jn = kp_xcalloc((size_t)rc.nthreads, sizeof(*rc.jn));
    for (t = 0; t < rc.nthreads; t++)
        json_names_init(&rc.jn[t], snap);
    rc.idx = idx;
    rc.bufs = kp_xcalloc(WINDOW, sizeof(*rc.bufs));
    kp_arena_init(&alone);
    while (nreported) {
        for (n = 0; n < WINDOW && i < rep->npods; i++)
            if (rep->pods[i].reported)
                idx[n++] = i;
        kp_pool_run(rc.pool, n, 1, render_one, &rc, &alone);
        for (k = 0; k < n; k++) {
            kp_buf_puts(out, first ? "\n" : ",\n");
            first = 0;
            kp_buf_add_buf(out, &rc.bufs[k]);
        }
        nreported -= n;
    }
    kp_arena_release(&alone);
    for (k = 0; k < WINDOW; k++)
        kp_buf_release(&rc.bufs[k]);
    free(rc.bufs);
    for (t = 0; t < rc.nthreads; t++)
        json_names_release(&rc.jn[t]);
    free(rc.jn);
    kp_pool_free(rc.pool);
}

void
kp_render_json(const struct kp_snapshot *snap, const struct kp_report *rep,
               struct kp_buf *out)
{
    size_t i, first = 1, nreported = 0;
    struct json_names jn;

    kp_buf_printf(out, "{\n  \"apiVersion\": \"kubectl-preempt/v1\",\n"
                  "  \"kind\": \"PreemptionReport\",\n"
                  "  \"mode\": \"%s\",\n%s%s%s"
                  "  \"snapshot\": {\"nodes\": %zu, \"pods\": %zu, "
                  "\"pendingPods\": %zu, \"podDisruptionBudgets\": %zu, "
                  "\"priorityClasses\": %zu},\n  \"pods\": [",
                  rep->mode == KP_MODE_QUEUE ? "queue" : "independent",
                  rep->scheduler_shown ? "  \"scheduler\": " : "",
                  rep->scheduler_shown ? rep->scheduler_json : "",
                  rep->scheduler_shown ? ",\n" : "", snap->nnodes, snap->npods, rep->npods, snap->npdbs,
                  snap->npcs);
    for (i = 0; i < rep->npods; i++)
        nreported += rep->pods[i].reported;
    if (nreported >= PARALLEL_MIN && kp_pool_default_threads() > 1 &&
        !kp_shortcut_off("KP_NO_PARALLEL_RENDER")) {
        json_pods_parallel(out, snap, rep, nreported);
        first = 0;
    } else {
        json_names_init(&jn, snap);
        for (i = 0; i < rep->npods; i++) {
            if (!rep->pods[i].reported)
                continue;
            kp_buf_puts(out, first ? "\n" : ",\n");
            first = 0;
            json_pod(out, snap, rep, &jn, &rep->pods[i]);
        }
        json_names_release(&jn);
    }
    kp_buf_puts(out, first ? "]" : "\n  ]");
    kp_change_json(rep->change, snap, rep, out);
    kp_whatif_json(snap, rep, out);
    kp_rollout_json(snap, out);
    json_tail(out, rep);
}

/* ---- summary (-o summary) ---- */

struct summary_row {
    const char *pc;                 /* PriorityClass, "<none>" */
    int32_t priority;
    const char *ns;
    size_t pending, by_result[4], victims;
    long pdb_violations;
};

/*
 * The class admission gave the pod: its own, else (no spec.priority) the
 * snapshot's default class.
 */
static const char *
class_of(const struct kp_snapshot *snap, const struct kp_pod *p)
{
    if (p->priority_class && p->priority_class[0])
        return p->priority_class;
    if (p->has_spec_priority || !snap->default_class)
        return "<none>";
    return snap->default_class->name;
}

static int
summary_cmp(const void *x, const void *y)
{
    const struct summary_row *a = x, *b = y;
    int c;

    if (a->priority != b->priority)
        return a->priority > b->priority ? -1 : 1;
    c = strcmp(a->pc, b->pc);
    return c ? c : strcmp(a->ns, b->ns);
}

static size_t
summary_rows(const struct kp_snapshot *snap, const struct kp_report *rep,
             struct summary_row *rows)
{
    size_t i, j, n = 0;

    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];
        const char *pc;

        if (!pr->reported)
            continue;
        pc = class_of(snap, pr->pod);
        for (j = 0; j < n; j++)
            if (rows[j].priority == pr->pod->priority &&
                strcmp(rows[j].pc, pc) == 0 &&
                strcmp(rows[j].ns, pr->pod->ns) == 0)
                break;
        if (j == n) {
            memset(&rows[n], 0, sizeof(rows[n]));
            rows[n].pc = pc;
            rows[n].priority = pr->pod->priority;
            rows[n++].ns = pr->pod->ns;
        }
        rows[j].pending++;
        rows[j].by_result[pr->result]++;
        rows[j].victims += pr->nvictims;
        rows[j].pdb_violations += pr->pdb_violations;
    }
    qsort(rows, n, sizeof(*rows), summary_cmp);
    return n;
}

void
kp_render_summary(const struct kp_snapshot *snap, const struct kp_report *rep,
                  bool no_headers, struct kp_buf *out)
{
    static const char *const h[] = {"PRIORITYCLASS", "PRIORITY",
                                    "NAMESPACE", "PENDING", "FITS",
                                    "PREEMPTS", "UNSCHEDULABLE",
                                    "NOT-ELIGIBLE", "VICTIMS",
                                    "PDB-VIOLATIONS"};
    struct summary_row *rows = kp_xcalloc(rep->npods + 1, sizeof(*rows));
    struct summary_row total;
    struct kp_table t;
    size_t i, k, n = summary_rows(snap, rep, rows);

    memset(&total, 0, sizeof(total));
    kp_table_init(&t, 10, h);
    for (i = 0; i < n; i++) {
        const struct summary_row *r = &rows[i];
        char *cells[10];

        cells[0] = kp_xstrdup(r->pc);
        cells[1] = kp_cellf("%d", r->priority);
        cells[2] = kp_xstrdup(r->ns);
        cells[3] = kp_cellf("%zu", r->pending);
        cells[4] = kp_cellf("%zu", r->by_result[KP_RESULT_FITS]);
        cells[5] = kp_cellf("%zu", r->by_result[KP_RESULT_PREEMPTS]);
        cells[6] = kp_cellf("%zu", r->by_result[KP_RESULT_UNSCHEDULABLE]);
        cells[7] = kp_cellf("%zu", r->by_result[KP_RESULT_NOT_ELIGIBLE]);
        cells[8] = kp_cellf("%zu", r->victims);
        cells[9] = kp_cellf("%ld", r->pdb_violations);
        kp_table_row(&t, cells);
        total.pending += r->pending;
        for (k = 0; k < 4; k++)
            total.by_result[k] += r->by_result[k];
        total.victims += r->victims;
        total.pdb_violations += r->pdb_violations;
    }
    /* issue 26: a summary of several rows ends with their totals (not
     * with --no-headers: a script sums what it needs) */
    if (n > 1 && !no_headers) {
        char *cells[10];

        cells[0] = kp_xstrdup("TOTAL");
        cells[1] = kp_xstrdup("-");
        cells[2] = kp_xstrdup("-");
        cells[3] = kp_cellf("%zu", total.pending);
        for (k = 0; k < 4; k++)
            cells[4 + k] = kp_cellf("%zu", total.by_result[k]);
        cells[8] = kp_cellf("%zu", total.victims);
        cells[9] = kp_cellf("%ld", total.pdb_violations);
        kp_table_row(&t, cells);
    }
    free(rows);
    kp_table_print(&t, no_headers, out);
}
