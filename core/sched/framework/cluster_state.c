/*
 * cluster_state.c - the cluster as the scheduling cycles see it
 * (kp_cluster, framework.h): a NodeInfo per node, as the scheduler
 * cache's Snapshot (pkg/scheduler/backend/cache/snapshot.go), the pods
 * nominated to each node, as the nominator
 * (pkg/scheduler/backend/queue/nominator.go), the pods placed and removed
 * by the run, the PDBs' disruptions left, and the caches kept on it.
 * Moved verbatim from framework.c (issue 28).
 */
#include "framework.h"
#include "framework_int.h"
#include "pool.h"
#include "selfcheck.h"
#include "shortcut.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- cluster ---- */

#ifdef KP_SELFCHECK
/* the self-check build: a template's list against a walk of every pod */
static void
check_unbound(const struct kp_snapshot *snap, const uint32_t *u, size_t nu)
{
    size_t i, k = 0;

    kp_selfcheck_count();
    for (i = 0; i < snap->npods; i++)
        if (!snap->pods[i]->node_name &&
            (k >= nu || u[k++] != (uint32_t)i))
            kp_selfcheck_fail("cluster template: pod %zu (%s/%s) has no "
                              "node, its list of %zu says otherwise", i,
                              snap->pods[i]->ns, snap->pods[i]->name, nu);
    if (k != nu)
        kp_selfcheck_fail("cluster template: %zu pods without a node "
                          "listed, %zu found", nu, k);
}
#endif

/*
 * The template's list of the pods without a node, when it may stand for
 * a walk of every pod: the same snapshot with the same pods (the fixes'
 * re-runs change pending pods' specs, never a pod's node), and
 * KP_NO_NODE_TEMPLATE unset.  NULL: walk them all.
 */
static const uint32_t *
unbound_of(const struct kp_snapshot *snap, const struct kp_cluster *tmpl,
           size_t *n)
{
    if (!tmpl || tmpl->snap != snap || !tmpl->unbound ||
        tmpl->unbound_of != snap->npods ||
        kp_shortcut_off("KP_NO_NODE_TEMPLATE"))
        return NULL;
    *n = tmpl->nunbound;
#ifdef KP_SELFCHECK
    check_unbound(snap, tmpl->unbound, tmpl->nunbound);
#endif
    return tmpl->unbound;
}

/*
 * Which resources get a slot in the NodeInfos' dense arrays (used,
 * alloc, the victim tables' rows, the nominated pods' rows): cpu,
 * memory, ephemeral-storage and pods, and each scalar resource some pod
 * without a node requests.  Only NodeResourcesFit and the resource
 * scorers read a NodeInfo's requested amount, and only of what the pod
 * they place requests (a scalar it does not request is not scored:
 * calculateResourceAllocatableRequest), so the others are read, if ever,
 * by kp_ni_used from the pods.  Without this, per-node extended
 * resource names made the arrays nodes x pods x distinct names (issue
 * 27).  KP_NO_SPARSE_RESOURCES=1: every resource gets a slot (the
 * shortcut off, shortcut.h: the answers are the same).
 */
static void
init_res_slots(struct kp_cluster *cl, const struct kp_snapshot *snap,
               const struct kp_cluster *tmpl)
{
    bool *want;
    size_t i, j, n = 0, nu = 0;
    const uint32_t *u = unbound_of(snap, tmpl, &nu);

    if (snap->nres <= KP_RES_FIRST_SCALAR ||
        kp_shortcut_off("KP_NO_SPARSE_RESOURCES"))
        return;
    want = kp_xcalloc(snap->nres, sizeof(bool));
    for (i = 0; i < KP_RES_FIRST_SCALAR; i++)
        want[i] = true;
    for (i = 0; i < (u ? nu : snap->npods); i++) {
        const struct kp_pod *p = snap->pods[u ? u[i] : i];

        if (p->node_name)
            continue;
        for (j = 0; j < p->req.n; j++)
            if (p->req.e[j].id >= 0 && (size_t)p->req.e[j].id < snap->nres)
                want[p->req.e[j].id] = true;
    }
    cl->res_slot = kp_xmalloc(snap->nres * sizeof(int32_t));
    for (i = 0; i < snap->nres; i++)
        cl->res_slot[i] = want[i] ? (int32_t)n++ : -1;
    cl->nres = n;
    free(want);
}

void
kp_cluster_init(struct kp_cluster *cl, const struct kp_snapshot *snap,
                const char *scheduler_name)
{
    kp_cluster_init_tables(cl, snap, scheduler_name, true, NULL);
}

struct fill_ctx {
    struct kp_cluster *cl;
    size_t stride;
    bool nonzero_kept;
};

/* NodeInfo i from the snapshot: allocatable, then the node's pods */
static bool
fill_node(void *ctx, size_t i, struct kp_arena *a)
{
    struct fill_ctx *fc = ctx;
    struct kp_cluster *cl = fc->cl;
    const struct kp_snapshot *snap = cl->snap;
    struct kp_node_info *ni = &cl->nodes[i];
    int64_t *alloc = &cl->res_block[i * fc->stride + cl->nres];
    size_t j;

    (void)a;
    ni->node = snap->nodes[i];
    ni->index = (int)i;
    ni->unschedulable = ni->node->unschedulable;
    ni->ntaints = ni->node->ntaints;
    ni->used = &cl->res_block[i * fc->stride];
    ni->res_slot = cl->res_slot;
    ni->nres_ids = snap->nres;
    cl->nominated_max[i] = INT32_MIN;
    for (j = 0; j < ni->node->allocatable.n; j++) {
        int slot = kp_ni_slot(ni, ni->node->allocatable.e[j].id);

        if (slot >= 0 && (size_t)slot < cl->nres)
            alloc[slot] = ni->node->allocatable.e[j].value;
    }
    ni->alloc = alloc;
    /* KP_NO_NONZERO_SUM=1: the scorers sum the pods (node_info.c) */
    ni->nonzero_kept = fc->nonzero_kept;
    for (j = 0; j < snap->node_npods[i]; j++)
        kp_node_info_add(ni, snap->node_pods[i][j]);
    return false;
}

/*
 * Whether tmpl's NodeInfos are the ones cl would fill: the same
 * snapshot and resource slots.  KP_NO_NODE_TEMPLATE=1: never.
 */
static bool
template_fits(const struct kp_cluster *cl, const struct kp_cluster *tmpl)
{
    const struct kp_snapshot *snap = cl->snap;

    if (!tmpl || tmpl->snap != snap || tmpl->nres != cl->nres ||
        !tmpl->nodes || kp_shortcut_off("KP_NO_NODE_TEMPLATE"))
        return false;
    if (!tmpl->res_slot || !cl->res_slot)
        return !tmpl->res_slot && !cl->res_slot;
    return memcmp(tmpl->res_slot, cl->res_slot,
                  snap->nres * sizeof(*cl->res_slot)) == 0;
}

/* NodeInfo i as tmpl has it, in cl's own memory */
static void
copy_node(struct kp_cluster *cl, const struct kp_cluster *tmpl, size_t i,
          size_t stride)
{
    struct kp_node_info *ni = &cl->nodes[i];
    const struct kp_node_info *t = &tmpl->nodes[i];

    *ni = *t;
    ni->used = &cl->res_block[i * stride];
    ni->alloc = ni->used + cl->nres;
    ni->res_slot = cl->res_slot;
    ni->cap = t->npods;
    ni->pods = NULL;
    if (t->npods) {
        ni->pods = kp_xmalloc(t->npods * sizeof(*ni->pods));
        memcpy(ni->pods, t->pods, t->npods * sizeof(*ni->pods));
    }
    memset(&ni->ports, 0, sizeof(ni->ports));
    kp_port_set_copy(&ni->ports, &t->ports, NULL);
    cl->nominated_max[i] = INT32_MIN;
}

/*
 * The node a pod without a node is nominated to in scheduler_name's
 * queue (pending there, not terminal, its nominated node in the
 * snapshot), or NULL
 */
static const struct kp_node *
nominee_node(const struct kp_snapshot *snap, const struct kp_pod *p,
             const char *scheduler_name)
{
    if (!p->nominated_node || p->node_name || kp_pod_is_terminal(p) ||
        (scheduler_name ? strcmp(p->scheduler_name, scheduler_name) != 0
                        : !p->in_profile))
        return NULL;
    return kp_snapshot_node(snap, p->nominated_node);
}

void
kp_cluster_init_tables(struct kp_cluster *cl, const struct kp_snapshot *snap,
                       const char *scheduler_name, bool tables,
                       struct kp_pool *pool)
{
    kp_cluster_init_from(cl, snap, scheduler_name, tables, pool, NULL);
}

/* the PDBs of pods: d = 1 for the pods of ni, as they are added */
static void
cover_pod(struct kp_cluster *cl, const struct kp_pod *p, int d)
{
    size_t k;

    for (k = 0; k < p->npdbs; k++)
        cl->pdb_covered[p->pdbs[k]] += (uint32_t)d;
}

static void
cover(struct kp_cluster *cl, const struct kp_node_info *ni, int d)
{
    size_t k;

    for (k = 0; k < ni->npods; k++)
        cover_pod(cl, ni->pods[k], d);
}

/* kp_cluster.node_of of ni's pods */
static void
node_of_set(struct kp_cluster *cl, const struct kp_node_info *ni, int node)
{
    size_t k;

    for (k = 0; k < ni->npods; k++)
        if (ni->pods[k]->index >= 0 &&
            (size_t)ni->pods[k]->index < cl->snap->npods)
            cl->node_of[ni->pods[k]->index] = node;
}

void
kp_cluster_init_from(struct kp_cluster *cl, const struct kp_snapshot *snap,
                     const char *scheduler_name, bool tables,
                     struct kp_pool *pool, const struct kp_cluster *tmpl)
{
    struct fill_ctx fc;
    size_t i, n = snap->nnodes, stride, nu = 0;
    const uint32_t *u;

    memset(cl, 0, sizeof(*cl));
    cl->snap = snap;
    cl->nres = snap->nres;
    init_res_slots(cl, snap, tmpl);
    cl->scheduler_name = scheduler_name;
    cl->nodes = kp_xcalloc(n ? n : 1, sizeof(*cl->nodes));
    cl->nominated = kp_xcalloc(n ? n : 1, sizeof(*cl->nominated));
    cl->nominated_prio = kp_xcalloc(n ? n : 1, sizeof(*cl->nominated_prio));
    cl->nominated_max = kp_xmalloc((n ? n : 1) * sizeof(int32_t));
    if (!kp_shortcut_off("KP_NO_NOMINATED_SUM")) {
        cl->nominated_min = kp_xmalloc((n ? n : 1) * sizeof(int32_t));
        cl->nominated_sum = kp_xcalloc((n ? n : 1) * (cl->nres ? cl->nres : 1),
                                       sizeof(int64_t));
        for (i = 0; i < n; i++)
            cl->nominated_min[i] = INT32_MAX;
    }
    cl->nominated_req = kp_xcalloc(n ? n : 1, sizeof(*cl->nominated_req));
    cl->nominated_anti = kp_xcalloc(n ? n : 1, sizeof(*cl->nominated_anti));
    cl->nominated_ports = kp_xcalloc(n ? n : 1,
                                     sizeof(*cl->nominated_ports));
    cl->nnominated = kp_xcalloc(n ? n : 1, sizeof(size_t));
    cl->capnominated = kp_xcalloc(n ? n : 1, sizeof(size_t));
    cl->nominated_gen = kp_xcalloc(n ? n : 1, sizeof(unsigned long));
    cl->nominated_node_of = kp_xmalloc((snap->npods + 1) * sizeof(int));
    cl->caches = kp_xcalloc(1, sizeof(*cl->caches));
    /* KP_NO_NOMINATED_COPY=1: every pod makes its nominated copies */
    if (!kp_shortcut_off("KP_NO_NOMINATED_COPY")) {
        cl->caches->nominated_copy =
            kp_xcalloc(n ? n : 1, sizeof(*cl->caches->nominated_copy));
        for (i = 0; i < n; i++)
            atomic_flag_clear(&cl->caches->nominated_copy[i].busy);
    }
    cl->caches->static_answers =
        kp_xcalloc(1, sizeof(*cl->caches->static_answers));
    cl->placed_node_of = kp_xmalloc((snap->npods + 1) * sizeof(int));
    cl->removed = kp_xcalloc(snap->npods + 1, sizeof(bool));
    cl->node_of = kp_xmalloc((snap->npods + 1) * sizeof(int));
    cl->pdb_allowed = kp_xcalloc(snap->npdbs + 1, sizeof(int32_t));
    cl->pdb_changed = kp_xcalloc(snap->npdbs + 1, sizeof(unsigned long));
    cl->pdb_covered = kp_xcalloc(snap->npdbs + 1, sizeof(uint32_t));
    for (i = 0; i < snap->npdbs; i++)
        cl->pdb_allowed[i] = snap->pdbs[i]->disruptions_allowed;
    for (i = 0; i < snap->npods; i++) {
        cl->nominated_node_of[i] = -1;
        cl->placed_node_of[i] = -1;
        cl->node_of[i] = -1;
    }
    /*
     * node-major, used then alloc, each node's pair from a 64-byte line
     * (stride a multiple of 8): the Filter pass walks them in order
     */
    stride = (2 * (cl->nres ? cl->nres : 1) + 7) & ~(size_t)7;
    if (posix_memalign((void **)&cl->res_block, 64,
                       (n ? n : 1) * stride * sizeof(int64_t)) != 0) {
        fputs("fatal: out of memory\n", stderr);
        abort();
    }
    memset(cl->res_block, 0, (n ? n : 1) * stride * sizeof(int64_t));
    cl->res_stride = stride;
    fc.cl = cl;
    fc.stride = stride;
    fc.nonzero_kept = !kp_shortcut_off("KP_NO_NONZERO_SUM");
    if (template_fits(cl, tmpl)) {
        /* the same layout: the sums and allocatables in one copy */
        memcpy(cl->res_block, tmpl->res_block,
               (n ? n : 1) * stride * sizeof(int64_t));
        for (i = 0; i < n; i++)
            copy_node(cl, tmpl, i, stride);
    } else if (pool) {
        /* each node's NodeInfo is its own: filled on the threads */
        kp_pool_run(pool, n, 0, fill_node, &fc, NULL);
    } else {
        for (i = 0; i < n; i++)
            fill_node(&fc, i, NULL);
    }
    if (template_fits(cl, tmpl))
        memcpy(cl->pdb_covered, tmpl->pdb_covered,
               snap->npdbs * sizeof(uint32_t));
    else
        for (i = 0; i < n; i++)
            cover(cl, &cl->nodes[i], 1);
    /*
     * the same NodeInfos as the template's: its pods' nodes copied (a
     * walk reads every pod: 80 re-runs x 120,000 pods), and its pods by
     * label shared
     */
    if (template_fits(cl, tmpl)) {
        memcpy(cl->node_of, tmpl->node_of, snap->npods * sizeof(int));
        cl->caches->index_home = tmpl->caches->index_home ?
                                 tmpl->caches->index_home : tmpl->caches;
    } else {
        for (i = 0; i < n; i++)
            node_of_set(cl, &cl->nodes[i], (int)i);
    }
    cl->vt = kp_xcalloc(n ? n : 1, sizeof(*cl->vt));
    /* not built (simulate.c, one pod alone): built once its pods change */
    cl->tables_lazy = !tables;
    for (i = 0; tables && i < n; i++)
        rebuild_table(cl, (int)i);
    /*
     * nominated pods: pending in this scheduler's queue, node exists;
     * the pods without a node listed for the clusters made from this one
     */
    u = unbound_of(snap, tmpl, &nu);
    /* the template's nominated nodes stand when it read them for this
     * scheduler */
    if (u && (tmpl->scheduler_name == scheduler_name ||
              (tmpl->scheduler_name && scheduler_name &&
               strcmp(tmpl->scheduler_name, scheduler_name) == 0))) {
        for (i = 0; i < nu; i++) {
#ifdef KP_SELFCHECK
            const struct kp_pod *p = snap->pods[u[i]];
            const struct kp_node *node = nominee_node(snap, p,
                                                      scheduler_name);

            kp_selfcheck_count();
            if ((node ? node->index : -1) != tmpl->unbound_node[i])
                kp_selfcheck_fail("cluster template: %s/%s nominated to "
                                  "node %d, its list says %d", p->ns,
                                  p->name, node ? node->index : -1,
                                  tmpl->unbound_node[i]);
#endif
            if (tmpl->unbound_node[i] >= 0)
                kp_cluster_nominate(cl, snap->pods[u[i]],
                                    tmpl->unbound_node[i]);
        }
        return;
    }
    if (!u) {
        cl->unbound = kp_xmalloc((snap->npods + 1) * sizeof(uint32_t));
        cl->unbound_node = kp_xmalloc((snap->npods + 1) * sizeof(int));
        cl->unbound_of = snap->npods;
    }
    for (i = 0; i < (u ? nu : snap->npods); i++) {
        const struct kp_pod *p = snap->pods[u ? u[i] : i];
        const struct kp_node *node = nominee_node(snap, p, scheduler_name);
        bool list = !u && !p->node_name;

        if (list) {
            cl->unbound[cl->nunbound] = (uint32_t)i;
            cl->unbound_node[cl->nunbound++] = node ? node->index : -1;
        }
        if (node)
            kp_cluster_nominate(cl, p, node->index);
    }
}

void
kp_cluster_release(struct kp_cluster *cl)
{
    size_t i;

    for (i = 0; cl->snap && i < cl->snap->nnodes; i++) {
        free(cl->nodes[i].pods);
        kp_port_set_free(&cl->nodes[i].ports);
        free(cl->nominated[i]);
        free(cl->nominated_prio[i]);
        free(cl->nominated_req[i]);
        free(cl->nominated_anti[i]);
        free(cl->nominated_ports[i]);
        if (cl->caches->nominated_copy) {
            free(cl->caches->nominated_copy[i].ni.used);
            free(cl->caches->nominated_copy[i].ni.pods);
            kp_port_set_free(&cl->caches->nominated_copy[i].ni.ports);
        }
        if (cl->vt)
            free_table(cl->vt[i]);
    }
    free(cl->vt);
    free(cl->changed);
    free(cl->unbound);
    free(cl->unbound_node);
    free(cl->res_slot);
    kp_cluster_free_caches(cl);
    free(cl->res_block);
    free(cl->nominated_max);
    free(cl->nominated_min);
    free(cl->nominated_sum);
    free(cl->nominated_req);
    free(cl->nominated_anti);
    free(cl->nominated_ports);
    free(cl->nodes);
    free(cl->nominated);
    free(cl->nominated_prio);
    free(cl->nnominated);
    free(cl->capnominated);
    free(cl->nominated_node_of);
    free(cl->nominated_gen);
    free(cl->caches->nominated_copy);
    for (i = 0; cl->caches->static_answers && i < KP_STATIC_SLOTS; i++) {
        free(cl->caches->static_answers->slot[i].tag);
        free(cl->caches->static_answers->slot[i].st);
    }
    free(cl->caches->static_answers);
    free((void *)cl->caches->ipa_memo);
    for (i = 0; i < KP_DIAG_TERMS_SLOTS; i++)
        free(cl->caches->diag_terms[i].count);
    free(cl->caches);
    free(cl->placed_node_of);
    free(cl->node_of);
    free(cl->removed);
    free(cl->pdb_allowed);
    free(cl->pdb_changed);
    free(cl->pdb_covered);
    memset(cl, 0, sizeof(*cl));
}

/* nominated_min and nominated_sum of node afresh from its rows */
static void
nominated_totals(struct kp_cluster *cl, int node)
{
    int64_t *sum;
    size_t i, r;

    if (!cl->nominated_min)
        return;
    sum = &cl->nominated_sum[(size_t)node * cl->nres];
    cl->nominated_min[node] = INT32_MAX;
    memset(sum, 0, cl->nres * sizeof(int64_t));
    for (i = 0; i < cl->nnominated[node]; i++) {
        if (cl->nominated_prio[node][i] < cl->nominated_min[node])
            cl->nominated_min[node] = cl->nominated_prio[node][i];
        for (r = 0; r < cl->nres; r++)
            sum[r] = kp_wrap_add(sum[r],
                                 cl->nominated_req[node][i * cl->nres + r]);
    }
}

void
kp_cluster_clear_nomination(struct kp_cluster *cl, const struct kp_pod *p)
{
    int node = cl->nominated_node_of[p->index];
    size_t i;

    if (node < 0)
        return;
    for (i = 0; i < cl->nnominated[node]; i++) {
        if (cl->nominated[node][i] == p) {
            memmove(&cl->nominated[node][i], &cl->nominated[node][i + 1],
                    (cl->nnominated[node] - i - 1) * sizeof(void *));
            memmove(&cl->nominated_prio[node][i],
                    &cl->nominated_prio[node][i + 1],
                    (cl->nnominated[node] - i - 1) * sizeof(int32_t));
            memmove(&cl->nominated_req[node][i * cl->nres],
                    &cl->nominated_req[node][(i + 1) * cl->nres],
                    (cl->nnominated[node] - i - 1) * cl->nres *
                    sizeof(int64_t));
            memmove(&cl->nominated_anti[node][i],
                    &cl->nominated_anti[node][i + 1],
                    (cl->nnominated[node] - i - 1) * sizeof(bool));
            memmove(&cl->nominated_ports[node][i],
                    &cl->nominated_ports[node][i + 1],
                    (cl->nnominated[node] - i - 1) * sizeof(bool));
            cl->nnominated[node]--;
            cl->nominated_gen[node] = ++cl->nominated_clock;
            break;
        }
    }
    cl->nominated_max[node] = INT32_MIN;
    for (i = 0; i < cl->nnominated[node]; i++)
        if (cl->nominated_prio[node][i] > cl->nominated_max[node])
            cl->nominated_max[node] = cl->nominated_prio[node][i];
    nominated_totals(cl, node);         /* without p */
    cl->nominated_node_of[p->index] = -1;
}

void
kp_cluster_nominate(struct kp_cluster *cl, const struct kp_pod *p, int node)
{
    int64_t *row;
    size_t i;

    kp_cluster_clear_nomination(cl, p);
    if (cl->nnominated[node] == cl->capnominated[node]) {
        cl->capnominated[node] = cl->capnominated[node] ?
                                 cl->capnominated[node] * 2 : 4;
        cl->nominated[node] = kp_xrealloc(cl->nominated[node],
            cl->capnominated[node] * sizeof(void *));
        cl->nominated_prio[node] = kp_xrealloc(cl->nominated_prio[node],
            cl->capnominated[node] * sizeof(int32_t));
        cl->nominated_req[node] = kp_xrealloc(cl->nominated_req[node],
            cl->capnominated[node] * (cl->nres ? cl->nres : 1) *
            sizeof(int64_t));
        cl->nominated_anti[node] = kp_xrealloc(cl->nominated_anti[node],
            cl->capnominated[node] * sizeof(bool));
        cl->nominated_ports[node] = kp_xrealloc(cl->nominated_ports[node],
            cl->capnominated[node] * sizeof(bool));
    }
    row = &cl->nominated_req[node][cl->nnominated[node] * cl->nres];
    memset(row, 0, cl->nres * sizeof(int64_t));
    for (i = 0; i < p->req.n; i++) {
        int slot = kp_ni_slot(&cl->nodes[node], p->req.e[i].id);

        if (slot >= 0)
            row[slot] = kp_wrap_add(row[slot], p->req.e[i].value);
    }
    cl->nominated_anti[node][cl->nnominated[node]] = p->nanti_affinity > 0;
    cl->nominated_ports[node][cl->nnominated[node]] = p->nhost_ports > 0;
    cl->nominated_prio[node][cl->nnominated[node]] = p->priority;
    if (p->priority > cl->nominated_max[node])
        cl->nominated_max[node] = p->priority;
    cl->nominated[node][cl->nnominated[node]++] = p;
    cl->nominated_node_of[p->index] = node;
    nominated_totals(cl, node);
    cl->nominated_gen[node] = ++cl->nominated_clock;
}

/* kp_cluster.changed */
static void
log_change(struct kp_cluster *cl, int node)
{
    if (cl->nchanged == cl->capchanged) {
        cl->capchanged = cl->capchanged ? cl->capchanged * 2 : 256;
        cl->changed = kp_xrealloc(cl->changed,
                                  cl->capchanged * sizeof(*cl->changed));
    }
    cl->changed[cl->nchanged++] = node;
}

void
kp_cluster_place(struct kp_cluster *cl, const struct kp_pod *p, int node)
{
    kp_cluster_clear_nomination(cl, p);
    kp_node_info_add(&cl->nodes[node], p);
    log_change(cl, node);
    cover_pod(cl, p, 1);
    rebuild_table(cl, node);
    cl->placed_node_of[p->index] = node;
    cl->node_of[p->index] = node;
}

/* kp_cluster_remove but the table; the node p was on, or -1 */
static int
remove_pod(struct kp_cluster *cl, const struct kp_pod *p)
{
    const struct kp_node *n;
    int node = cl->placed_node_of[p->index];

    if (node < 0 && p->node_name) {
        n = kp_snapshot_node(cl->snap, p->node_name);
        node = n ? n->index : -1;
    }
    if (node >= 0) {
        kp_node_info_remove(&cl->nodes[node], p);
        log_change(cl, node);
        cover_pod(cl, p, -1);
    }
    cl->removed[p->index] = true;
    cl->node_of[p->index] = -1;
    return node;
}

void
kp_cluster_remove(struct kp_cluster *cl, const struct kp_pod *p)
{
    int node = remove_pod(cl, p);

    if (node >= 0)
        rebuild_table(cl, node);
}

void
kp_cluster_remove_all(struct kp_cluster *cl, const struct kp_pod *const *pods,
                      size_t n)
{
    int *nodes = kp_xmalloc((n + 1) * sizeof(*nodes));
    size_t i, j, nn = 0;
    bool once = !kp_shortcut_off("KP_NO_TABLE_ONCE");

    for (i = 0; i < n; i++) {
        int node = remove_pod(cl, pods[i]);

        if (node < 0)
            continue;
        if (!once) {
            rebuild_table(cl, node);
            continue;
        }
        for (j = 0; j < nn && nodes[j] != node; j++)
            ;
        if (j == nn)
            nodes[nn++] = node;
    }
    /* a table is read from its node's pods alone: built once, at the end */
    for (j = 0; j < nn; j++)
        rebuild_table(cl, nodes[j]);
    free(nodes);
}
