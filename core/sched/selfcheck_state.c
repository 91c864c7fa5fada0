/*
 * selfcheck_state.c - the checks of selfcheck.h: incremental state of the
 * dry run and of the queue against the same state recomputed from
 * scratch.  Compiled in every build, called only from the test build's
 * KP_SELFCHECK_* macros; slow on purpose (PreFilter over the whole
 * cluster at every step), small generated clusters are what it is for.
 */
#include "selfcheck.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framework.h"
#include "preemption.h"
#include "plugin_state.h"
#include "plugins.h"
#include "selcount.h"
#include "term_domains.h"

static int
plugin_index(const struct kp_plugin *pl)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++)
        if (kp_filter_plugins[i] == pl)
            return (int)i;
    return -1;
}

static bool
has_pod(const struct kp_node_info *ni, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < ni->npods; i++)
        if (ni->pods[i] == p)
            return true;
    return false;
}

/* ---- NodeInfo aggregates and used ports ---- */

/* Whether two pods of the list declare the same (ip, protocol, port). */
static bool
shared_port(const struct kp_pod *const *pods, size_t n)
{
    size_t i, j, a, b;

    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            for (a = 0; a < pods[i]->nhost_ports; a++)
                for (b = 0; b < pods[j]->nhost_ports; b++) {
                    const struct kp_host_port *x = &pods[i]->host_ports[a];
                    const struct kp_host_port *y = &pods[j]->host_ports[b];

                    if (x->port == y->port && strcmp(x->ip, y->ip) == 0 &&
                        strcmp(x->protocol, y->protocol) == 0)
                        return true;
                }
    return false;
}

/*
 * used and the anti-affinity count from the pods; the used ports are a
 * subset of the pods' (a set loses a port two pods declared once either
 * is removed: HostPortInfo.Remove), and equal to them when no two pods
 * of `history` (every pod the NodeInfo ever held) share one.
 */
static void
check_aggregates(const char *what, const struct kp_node_info *ni, size_t nres,
                 const struct kp_pod *const *history, size_t nhistory)
{
    int64_t *used = calloc(nres + 1, sizeof(int64_t));
    struct kp_port_set want;
    size_t i, r, nanti = 0;

    memset(&want, 0, sizeof(want));
    for (i = 0; i < ni->npods; i++) {
        const struct kp_pod *p = ni->pods[i];

        nanti += p->nanti_affinity > 0;
        for (r = 0; r < p->req.n; r++) {
            int slot = kp_ni_slot(ni, p->req.e[r].id);

            if (slot >= 0)
                used[slot] = kp_wrap_add(used[slot], p->req.e[r].value);
        }
        for (r = 0; r < p->nhost_ports; r++)
            kp_port_set_add(&want, NULL, &p->host_ports[r]);
    }
    for (r = 0; r < nres; r++)
        if (used[r] != ni->used[r]) {
            kp_selfcheck_fail("%s NodeInfo %s: requested resource %zu is "
                              "%lld, its pods request %lld", what,
                              ni->node->name, r, (long long)ni->used[r],
                              (long long)used[r]);
            break;
        }
    if (ni->nonzero_kept) {
        int64_t nz[4] = {0, 0, 0, 0};

        for (i = 0; i < ni->npods; i++) {
            nz[KP_NZ_CPU] = kp_wrap_add(nz[KP_NZ_CPU], ni->pods[i]->nonzero_cpu);
            nz[KP_NZ_MEM] = kp_wrap_add(nz[KP_NZ_MEM], ni->pods[i]->nonzero_mem);
            nz[KP_NZ_CPU131] = kp_wrap_add(nz[KP_NZ_CPU131],
                                           ni->pods[i]->nonzero131_cpu);
            nz[KP_NZ_MEM131] = kp_wrap_add(nz[KP_NZ_MEM131],
                                           ni->pods[i]->nonzero131_mem);
        }
        for (r = 0; r < 4; r++)
            if (nz[r] != ni->nonzero[r]) {
                kp_selfcheck_fail("%s NodeInfo %s: NonZeroRequested %zu is "
                                  "%lld, its pods request %lld", what,
                                  ni->node->name, r,
                                  (long long)ni->nonzero[r], (long long)nz[r]);
                break;
            }
    }
    if (nanti != ni->nanti)
        kp_selfcheck_fail("%s NodeInfo %s: %zu pods with anti-affinity, "
                          "its pods have %zu", what, ni->node->name,
                          ni->nanti, nanti);
    for (i = 0; i < ni->ports.n; i++)
        if (!kp_port_set_has(&want, &ni->ports.e[i]))
            kp_selfcheck_fail("%s NodeInfo %s: used port %s/%s/%d that no "
                              "pod declares", what, ni->node->name,
                              ni->ports.e[i].ip, ni->ports.e[i].protocol,
                              ni->ports.e[i].port);
    if (ni->ports.n != want.n && !shared_port(history, nhistory))
        kp_selfcheck_fail("%s NodeInfo %s: %zu used ports, its pods "
                          "declare %zu", what, ni->node->name, ni->ports.n,
                          want.n);
    kp_port_set_free(&want);
    free(used);
}

/* ---- PreFilter states ---- */

static void
check_states(const struct kp_cycle *c, const struct kp_node_info *ni)
{
    static const struct kp_plugin *const checked[] = {
        &kp_plugin_inter_pod_affinity, &kp_plugin_pod_topology_spread};
    const struct kp_cluster *cl = c->cl;
    const struct kp_node_info *orig = &cl->nodes[ni->index];
    struct kp_cluster sh = *cl, full = *cl;
    struct kp_caches sh_caches = {0}, full_caches = {0};
    struct kp_selcount **own = kp_selcount_thread_cache_get();
    struct kp_node_info *nodes;
    struct kp_arena a;
    char why[400];
    size_t k, i;

    sh.vt = NULL;           /* no victim tables: PreFilter's slow path */
    full.vt = NULL;
    /*
     * nor the cluster's caches (counts kept across pods, label columns):
     * PreFilter afresh counts everything, in caches of its own (this
     * may run on several threads; the cluster's are the main thread's)
     */
    sh.caches = &sh_caches;
    full.caches = &full_caches;
    /*
     * sh's NodeInfos are the cluster's: its pods by label may be read,
     * from the cluster's index; full's node ni is not, so no node_of
     * (selcount.c then counts node by node)
     */
    sh_caches.index_home = cl->caches->index_home ? cl->caches->index_home :
                           cl->caches;
    full.node_of = NULL;
    /*
     * and not a thread's own cache of independent mode either: its
     * entries are found by cluster address, and sh and full are made at
     * the same address check after check, over different nodes
     */
    kp_selcount_thread_cache(NULL);
    nodes = malloc((cl->snap->nnodes + 1) * sizeof(*nodes));
    memcpy(nodes, cl->nodes, cl->snap->nnodes * sizeof(*nodes));
    nodes[ni->index] = *ni;
    full.nodes = nodes;
    kp_arena_init(&a);
    for (k = 0; k < sizeof(checked) / sizeof(checked[0]); k++) {
        const struct kp_plugin *pl = checked[k];
        int idx = plugin_index(pl);
        struct kp_cycle f, g;
        struct kp_status st;
        bool same;

        if (idx < 0 || c->skip[idx])
            continue;
        memset(&f, 0, sizeof(f));
        f.cl = &sh;
        f.pod = c->pod;
        f.scratch = &a;
        st = pl->pre_filter(&f, idx);
        if (st.code == KP_SKIP) {
            kp_selfcheck_fail("%s on %s for %s/%s: PreFilter afresh skips, "
                              "the cycle's did not", pl->name,
                              ni->node->name, c->pod->ns, c->pod->name);
            continue;
        }
        if (st.code != KP_SUCCESS)
            continue;
        /* replay: what left the node, then what came in */
        for (i = 0; i < orig->npods; i++)
            if (!has_pod(ni, orig->pods[i]))
                pl->remove_pod(&f, idx, orig->pods[i], ni);
        for (i = 0; i < ni->npods; i++)
            if (!has_pod(orig, ni->pods[i]))
                pl->add_pod(&f, idx, ni->pods[i], ni);
        same = pl == &kp_plugin_inter_pod_affinity ?
               kp_ipa_state_same(c->state[idx], f.state[idx], why,
                                 sizeof(why)) :
               kp_pts_state_same(c->state[idx], f.state[idx], why,
                                 sizeof(why));
        if (!same)
            kp_selfcheck_fail("%s/%s on %s (%zu pods), against PreFilter "
                              "afresh with the changes replayed: %s",
                              c->pod->ns, c->pod->name, ni->node->name,
                              ni->npods, why);
        /*
         * InterPodAffinity's AddPod/RemovePod count a pod exactly as
         * PreFilter does: PreFilter on the node as it is now must agree
         * too.  (PodTopologySpread's do not: PreFilter leaves out
         * terminating pods and empty selectors, updateWithPod does not.)
         */
        if (pl != &kp_plugin_inter_pod_affinity)
            continue;
        memset(&g, 0, sizeof(g));
        g.cl = &full;
        g.pod = c->pod;
        g.scratch = &a;
        st = pl->pre_filter(&g, idx);
        if (st.code != KP_SUCCESS && st.code != KP_SKIP)
            continue;
        if (!kp_ipa_state_same(c->state[idx], g.state[idx], why,
                               sizeof(why)))
            kp_selfcheck_fail("%s/%s on %s (%zu pods), against PreFilter "
                              "on the node as it is: %s", c->pod->ns,
                              c->pod->name, ni->node->name, ni->npods, why);
    }
    kp_selcount_thread_cache(own);
    kp_arena_release(&a);
    kp_cluster_free_caches(&sh);
    kp_cluster_free_caches(&full);
    free(nodes);
}

void
kp_selfcheck_node_state(const struct kp_cycle *c,
                        const struct kp_node_info *ni)
{
    const struct kp_node_info *orig = &c->cl->nodes[ni->index];
    const struct kp_pod **history;
    size_t n = 0, i;

    size_t nsnap = c->cl->snap->node_npods[ni->index];
    const struct kp_pod *const *snap_pods = c->cl->snap->node_pods[ni->index];

    kp_selfcheck_count();
    /* every pod the node held: the snapshot's, the queue's, the run's */
    history = malloc((nsnap + orig->npods + ni->npods + 1) *
                     sizeof(*history));
    for (i = 0; i < nsnap; i++)
        history[n++] = snap_pods[i];
    for (i = 0; i < orig->npods; i++)
        if (c->cl->placed_node_of[orig->pods[i]->index] >= 0)
            history[n++] = orig->pods[i];
    for (i = 0; i < ni->npods; i++)
        if (!has_pod(orig, ni->pods[i]))
            history[n++] = ni->pods[i];
    check_aggregates("dry run", ni, c->cl->nres, history, n);
    free(history);
    check_states(c, ni);
}

/* ---- the nominated pods' copy ---- */

void
kp_selfcheck_nominated_copy(const struct kp_cycle *c,
                            const struct kp_node_info *ni,
                            const struct kp_node_info *nni)
{
    const struct kp_cluster *cl = c->cl;
    int node = ni->index;
    size_t i, want = ni->npods;

    kp_selfcheck_count();
    for (i = 0; i < cl->nnominated[node]; i++) {
        const struct kp_pod *q = cl->nominated[node][i];
        bool ge = q != c->pod && q->priority >= c->pod->priority;

        want += ge;
        if (ge != has_pod(nni, q))
            kp_selfcheck_fail("nominated copy of %s for %s/%s: nominated pod "
                              "%s/%s (priority %d) %s", ni->node->name,
                              c->pod->ns, c->pod->name, q->ns, q->name,
                              (int)q->priority,
                              ge ? "missing" : "added, priority too low");
    }
    for (i = 0; i < ni->npods; i++)
        if (!has_pod(nni, ni->pods[i]))
            kp_selfcheck_fail("nominated copy of %s for %s/%s: lacks %s/%s",
                              ni->node->name, c->pod->ns, c->pod->name,
                              ni->pods[i]->ns, ni->pods[i]->name);
    if (nni->npods != want)
        kp_selfcheck_fail("nominated copy of %s for %s/%s: %zu pods, want "
                          "%zu", ni->node->name, c->pod->ns, c->pod->name,
                          nni->npods, want);
}

/* the same ports in the same order */
static bool
same_ports(const struct kp_port_set *a, const struct kp_port_set *b)
{
    size_t i;

    if (a->n != b->n)
        return false;
    for (i = 0; i < a->n; i++)
        if (a->e[i].port != b->e[i].port ||
            strcmp(a->e[i].ip, b->e[i].ip) != 0 ||
            strcmp(a->e[i].protocol, b->e[i].protocol) != 0)
            return false;
    return true;
}

void
kp_selfcheck_nominated_kept(const struct kp_cycle *c,
                            const struct kp_node_info *ni,
                            const struct kp_node_info *nni)
{
    struct kp_arena a;
    struct kp_cycle f, g;
    struct kp_node_info *want = NULL;
    size_t nres = c->cl->nres;

    kp_selfcheck_count();
    kp_arena_init(&a);
    f = *c;
    f.scratch = &a;
    if (!kp_cycle_with_nominated(&f, ni, 0, &g, &want)) {
        kp_selfcheck_fail("kept nominated copy of %s for %s/%s: no "
                          "nominated pod to add", ni->node->name,
                          c->pod->ns, c->pod->name);
    } else if (want->npods != nni->npods ||
               memcmp(want->pods, nni->pods,
                      nni->npods * sizeof(*nni->pods)) ||
               (nres && memcmp(want->used, nni->used,
                               nres * sizeof(*nni->used))) ||
               want->nanti != nni->nanti ||
               !same_ports(&want->ports, &nni->ports) ||
               want->index != nni->index || want->node != nni->node) {
        kp_selfcheck_fail("kept nominated copy of %s for %s/%s: differs "
                          "from the copy made afresh (%zu pods, want %zu)",
                          ni->node->name, c->pod->ns, c->pod->name,
                          nni->npods, want->npods);
    }
    kp_arena_release(&a);
}

/* ---- the cluster between two pods of the queue ---- */

static void
check_table(const struct kp_cluster *cl, int node)
{
    const struct kp_victim_table *vt = kp_node_table(cl, node);
    const struct kp_victim_table *w;
    const char *name = cl->nodes[node].node->name;
    struct kp_arena a;
    size_t k;

    /* never built (tables_lazy), not stale: the readers go without */
    if (!vt && cl->tables_lazy && !cl->vt[node])
        return;
    if (!vt) {
        kp_selfcheck_fail("victim table of %s: not current", name);
        return;
    }
    kp_arena_init(&a);
    w = kp_victim_table_build(cl, node, &a);
    if (vt->n != w->n || vt->nanti != w->nanti || vt->naff != w->naff ||
        vt->pdb_off[vt->n] != w->pdb_off[w->n]) {
        kp_selfcheck_fail("victim table of %s: %zu pods (%zu with "
                          "anti-affinity), want %zu (%zu)", name, vt->n,
                          vt->nanti, w->n, w->nanti);
    } else if (memcmp(vt->pods, w->pods, vt->n * sizeof(*vt->pods)) ||
               memcmp(vt->prio, w->prio, vt->n * sizeof(*vt->prio)) ||
               memcmp(vt->pos, w->pos, vt->n * sizeof(*vt->pos)) ||
               memcmp(vt->pdb_off, w->pdb_off,
                      (vt->n + 1) * sizeof(*vt->pdb_off)) ||
               memcmp(vt->pdb, w->pdb, vt->pdb_off[vt->n] * sizeof(*vt->pdb)) ||
               vt->npdb_ids != w->npdb_ids ||
               memcmp(vt->pdb_ids, w->pdb_ids,
                      vt->npdb_ids * sizeof(*vt->pdb_ids)) ||
               memcmp(vt->pdb_local, w->pdb_local,
                      vt->pdb_off[vt->n] * sizeof(*vt->pdb_local)) ||
               memcmp(vt->tail_anti, w->tail_anti,
                      (vt->n + 1) * sizeof(*vt->tail_anti)) ||
               memcmp(vt->tail_ports, w->tail_ports,
                      (vt->n + 1) * sizeof(*vt->tail_ports)) ||
               memcmp(vt->tail_req, w->tail_req,
                      (vt->n + 1) * vt->nres * sizeof(*vt->tail_req)) ||
               memcmp(vt->anti, w->anti, vt->nanti * sizeof(*vt->anti)) ||
               memcmp(vt->aff, w->aff, vt->naff * sizeof(*vt->aff)) ||
               memcmp(vt->ns, w->ns, vt->n * sizeof(*vt->ns)) ||
               memcmp(vt->ns_hash, w->ns_hash,
                      vt->n * sizeof(*vt->ns_hash))) {
        kp_selfcheck_fail("victim table of %s: differs from one built "
                          "afresh", name);
    }
    if (!vt->grp_ready) {
        kp_selfcheck_fail("victim table of %s: no term groups", name);
    } else {
        uint32_t *ids, *aids;
        int32_t *mult, *amult;
        size_t ng = kp_term_groups(cl, &cl->nodes[node], false, &ids,
                                   &mult);
        size_t na = kp_term_groups(cl, &cl->nodes[node], true, &aids,
                                   &amult);

        if (ng != vt->ngrp ||
            (ng && (memcmp(ids, vt->grp_id, ng * sizeof(*ids)) ||
                    memcmp(mult, vt->grp_mult, ng * sizeof(*mult)))))
            kp_selfcheck_fail("victim table of %s: %zu term groups, want "
                              "%zu or other ids or counts", name, vt->ngrp,
                              ng);
        if (na != vt->nanti_grp ||
            (na && (memcmp(aids, vt->anti_grp_id, na * sizeof(*aids)) ||
                    memcmp(amult, vt->anti_grp_mult,
                           na * sizeof(*amult)))))
            kp_selfcheck_fail("victim table of %s: %zu anti-affinity term "
                              "groups, want %zu or other ids or counts",
                              name, vt->nanti_grp, na);
        free(ids);
        free(mult);
        free(aids);
        free(amult);
    }
    for (k = 0; k < vt->n && k < cl->nodes[node].npods; k++)
        if (cl->nodes[node].pods[vt->pos[k]] != vt->pods[k]) {
            kp_selfcheck_fail("victim table of %s: pods[%zu] is not at "
                              "position %u of the NodeInfo", name, k,
                              vt->pos[k]);
            break;
        }
    kp_arena_release(&a);
}

static void
check_nominations(const struct kp_cluster *cl, int node)
{
    const char *name = cl->nodes[node].node->name;
    int32_t max = INT32_MIN;
    size_t i, r;

    for (i = 0; i < cl->nnominated[node]; i++) {
        const struct kp_pod *q = cl->nominated[node][i];
        const int64_t *row = &cl->nominated_req[node][i * cl->nres];
        int64_t *want = calloc(cl->nres + 1, sizeof(int64_t));

        if (q->priority > max)
            max = q->priority;
        if (cl->nominated_prio[node][i] != q->priority ||
            cl->nominated_anti[node][i] != (q->nanti_affinity > 0) ||
            cl->nominated_ports[node][i] != (q->nhost_ports > 0) ||
            cl->nominated_node_of[q->index] != node)
            kp_selfcheck_fail("nominated pods of %s: %s/%s's priority, "
                              "anti-affinity or host-ports flag or node differs from the "
                              "pod's", name, q->ns, q->name);
        for (r = 0; r < q->req.n; r++) {
            int slot = kp_ni_slot(&cl->nodes[node], q->req.e[r].id);

            if (slot >= 0)
                want[slot] = kp_wrap_add(want[slot], q->req.e[r].value);
        }
        if (cl->nres && memcmp(row, want, cl->nres * sizeof(int64_t)) != 0)
            kp_selfcheck_fail("nominated pods of %s: %s/%s's requests differ "
                              "from the pod's", name, q->ns, q->name);
        free(want);
    }
    if (max != cl->nominated_max[node])
        kp_selfcheck_fail("nominated pods of %s: highest priority %d, want "
                          "%d", name, (int)cl->nominated_max[node], (int)max);
    if (cl->nominated_min) {
        int32_t min = INT32_MAX;
        int64_t *sum = calloc(cl->nres + 1, sizeof(int64_t));

        for (i = 0; i < cl->nnominated[node]; i++) {
            const struct kp_pod *q = cl->nominated[node][i];

            if (q->priority < min)
                min = q->priority;
            for (r = 0; r < q->req.n; r++) {
                int slot = kp_ni_slot(&cl->nodes[node], q->req.e[r].id);

                if (slot >= 0)
                    sum[slot] = kp_wrap_add(sum[slot], q->req.e[r].value);
            }
        }
        if (min != cl->nominated_min[node] ||
            (cl->nres && memcmp(sum, &cl->nominated_sum[(size_t)node *
                                                        cl->nres],
                                cl->nres * sizeof(int64_t)) != 0))
            kp_selfcheck_fail("nominated pods of %s: the kept lowest "
                              "priority %d or sum of requests differs from "
                              "the pods' (lowest %d)", name,
                              (int)cl->nominated_min[node], (int)min);
        free(sum);
    }
}

/*
 * disruptionsAllowed afresh: the snapshot's, one fewer (down to 0) for
 * every removed pod the PDB selects that the disruption controller
 * counted healthy (Ready, not terminating, not in disruptedPods).
 */
static void
check_budgets(const struct kp_cluster *cl)
{
    const struct kp_snapshot *snap = cl->snap;
    size_t j, i;

    for (j = 0; j < snap->npdbs; j++) {
        const struct kp_pdb *pdb = snap->pdbs[j];
        int64_t want = pdb->disruptions_allowed;

        for (i = 0; i < snap->npods; i++) {
            const struct kp_pod *p = snap->pods[i];

            if (!cl->removed[i] || !kp_pdb_matches(pdb, p) || p->deleting ||
                !p->ready || kp_pdb_in_disrupted(pdb, p))
                continue;
            if (want > 0)
                want--;
        }
        if (want != cl->pdb_allowed[j])
            kp_selfcheck_fail("PDB %s/%s: disruptionsAllowed %d, counted "
                              "afresh %lld", pdb->ns, pdb->name,
                              (int)cl->pdb_allowed[j], (long long)want);
    }
}

/* the pods on the nodes each PDB selects, counted afresh */
static void
check_covered(const struct kp_cluster *cl)
{
    const struct kp_snapshot *snap = cl->snap;
    uint32_t *want = kp_xcalloc(snap->npdbs + 1, sizeof(uint32_t));
    size_t i, k, j;

    for (i = 0; i < snap->nnodes; i++)
        for (k = 0; k < cl->nodes[i].npods; k++) {
            const struct kp_pod *p = cl->nodes[i].pods[k];

            for (j = 0; j < snap->npdbs; j++)
                want[j] += kp_pdb_matches(snap->pdbs[j], p);
        }
    for (j = 0; j < snap->npdbs; j++)
        if (want[j] != cl->pdb_covered[j])
            kp_selfcheck_fail("PDB %s/%s: covers %u pod(s) on the nodes, "
                              "counted afresh %u", snap->pdbs[j]->ns,
                              snap->pdbs[j]->name, cl->pdb_covered[j],
                              want[j]);
    free(want);
}

/* kp_cluster.node_of against the NodeInfos' pods (label_index.h) */
static void
check_node_of(const struct kp_cluster *cl)
{
    const struct kp_snapshot *snap = cl->snap;
    int *want = malloc((snap->npods + 1) * sizeof(*want));
    size_t i, j;

    for (i = 0; i < snap->npods; i++)
        want[i] = -1;
    for (i = 0; i < snap->nnodes; i++)
        for (j = 0; j < cl->nodes[i].npods; j++)
            want[cl->nodes[i].pods[j]->index] = (int)i;
    for (i = 0; i < snap->npods; i++)
        if (want[i] != cl->node_of[i])
            kp_selfcheck_fail("pod %s/%s: on node %d by the cluster's "
                              "node_of, %d by the NodeInfos",
                              snap->pods[i]->ns, snap->pods[i]->name,
                              cl->node_of[i], want[i]);
    free(want);
}

void
kp_selfcheck_cluster(const struct kp_cluster *cl)
{
    size_t i, j;

    kp_selfcheck_count();
    for (i = 0; i < cl->snap->nnodes; i++) {
        const struct kp_node_info *ni = &cl->nodes[i];
        const struct kp_pod **history;
        size_t n = 0;

        /* the node's pods then and now: the snapshot's and those placed */
        history = malloc((cl->snap->node_npods[i] + ni->npods + 1) *
                         sizeof(*history));
        for (j = 0; j < cl->snap->node_npods[i]; j++)
            history[n++] = cl->snap->node_pods[i][j];
        for (j = 0; j < ni->npods; j++)
            if (cl->placed_node_of[ni->pods[j]->index] >= 0)
                history[n++] = ni->pods[j];
        check_aggregates("queue", ni, cl->nres, history, n);
        free(history);
        for (j = 0; j < ni->npods; j++)
            if (cl->removed[ni->pods[j]->index])
                kp_selfcheck_fail("queue NodeInfo %s: holds removed pod "
                                  "%s/%s", ni->node->name, ni->pods[j]->ns,
                                  ni->pods[j]->name);
        check_table(cl, (int)i);
        check_nominations(cl, (int)i);
    }
    {
        char why[320];

        kp_selfcheck_count();
        if (!kp_term_domains_check(cl, why, sizeof(why)))
            kp_selfcheck_fail("the required anti-affinity terms' domains "
                              "kept against the tables: %s", why);
    }
    for (i = 0; i < cl->snap->npods; i++) {
        int node = cl->nominated_node_of[i];
        size_t k;

        if (node < 0)
            continue;
        for (k = 0; k < cl->nnominated[node]; k++)
            if (cl->nominated[node][k] == cl->snap->pods[i])
                break;
        if (k == cl->nnominated[node])
            kp_selfcheck_fail("pod %s/%s: nominated to %s but not in its "
                              "list", cl->snap->pods[i]->ns,
                              cl->snap->pods[i]->name,
                              cl->nodes[node].node->name);
    }
    check_budgets(cl);
    check_covered(cl);
    check_node_of(cl);
}
