/*
 * framework.c - see framework.h.  Mirrors
 * pkg/scheduler/framework/runtime/framework.go (RunFilterPlugins,
 * RunFilterPluginsWithNominatedPods, addGENominatedPods) and the NodeInfo
 * AddPod/RemovePod bookkeeping of pkg/scheduler/framework/types.go.
 */
#include "framework.h"
#include "config.h"
#include "pdb_index.h"
#include "pool.h"
#include "preemption.h"
#include "score.h"
#include "selcount.h"
#include "selfcheck.h"
#include "shortcut.h"
#include "victim_memo.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The Filter pass's nominated copy of a node, kept from one pod to the
 * next.  Which nominated pods a pod adds depends only on its priority and
 * on whether it is one of them: the key is that set as a mask of the
 * node's nominated pods (at most 64), with the node's generation and its
 * nominated pods' version.  The copy owns its arrays (malloc).  busy: a
 * pass takes each node once, but independent mode runs pods on several
 * threads at once, so a copy in use by another thread is not touched
 * (that pod makes its own in its scratch arena, as before).
 */
struct kp_nominated_copy {
    atomic_flag busy;
    bool valid;
    /*
     * self: made for a pod nominated to this node (left out of its own
     * copy).  Otherwise the set is {priority >= P} for every P with
     * lo < P <= hi, and a pod of such a priority takes the copy without
     * its node's nominated pods being read.
     */
    bool self;
    int64_t lo, hi;
    unsigned long gen, ver;
    uint64_t mask;
    size_t cap_pods;
    struct kp_node_info ni;
};

/*
 * The node_static plugins' answers (the leading run of kp_filter_plugins
 * marked node_static), kept for a few sets of pod constraints: a slot
 * holds them for the pods whose constraints equal rep's, per node the
 * status of that run, current when tag[node] == epoch.  pod is the pod
 * armed (kp_cycle_keep_static), cur its slot.
 */
#define KP_STATIC_SLOTS 8

struct kp_static_slot {
    const struct kp_pod *rep;           /* NULL: unused */
    const struct kp_profile *profile;
    bool skip[KP_MAX_PLUGINS];
    unsigned epoch;
    unsigned long last;                 /* for the least recently used */
    unsigned *tag;
    struct kp_status *st;
};

struct kp_static_answers {
    const struct kp_pod *pod;
    struct kp_static_slot *cur;
    unsigned long clock;
    struct kp_static_slot slot[KP_STATIC_SLOTS];
};

struct kp_status
kp_status_new(enum kp_code code, const char *reason)
{
    struct kp_status st = kp_status_ok();

    st.code = code;
    if (reason)
        kp_status_add_reason(&st, reason);
    return st;
}

void
kp_status_add_reason(struct kp_status *st, const char *reason)
{
    kp_status_add_reason_in(st, reason, NULL);
}

void
kp_status_add_reason_in(struct kp_status *st, const char *reason,
                        struct kp_arena *a)
{
    size_t k;
    const char **more;

    if (st->nreasons < KP_MAX_REASONS) {
        st->reasons[st->nreasons++] = reason;
        return;
    }
    /* a plugin that can have more reasons passes an arena: never drop */
    if (!a)
        abort();
    k = (size_t)st->nreasons - KP_MAX_REASONS;
    /* capacities are powers of two from 4: grow when k reaches one */
    if (k == 0 || (k >= 4 && (k & (k - 1)) == 0)) {
        more = kp_arena_alloc(a, (k ? 2 * k : 4) * sizeof(*more));
        if (k)
            memcpy(more, st->more, k * sizeof(*more));
        st->more = more;
    }
    st->more[k] = reason;
    st->nreasons++;
}

/* ---- NodeInfo ---- */

/*
 * What a pod adds to (sign 1) or takes from (sign -1) its node's
 * aggregates: requested resources and the anti-affinity count.  The pod
 * list itself is the caller's.
 */
static void
account(struct kp_node_info *ni, const struct kp_pod *p, int sign)
{
    size_t i;

    if (p->nanti_affinity > 0)
        ni->nanti = sign > 0 ? ni->nanti + 1 : ni->nanti - 1;
    for (i = 0; i < p->req.n; i++) {
        int r = kp_ni_slot(ni, p->req.e[i].id);

        if (r >= 0)
            ni->used[r] = sign > 0 ?
                kp_wrap_add(ni->used[r], p->req.e[i].value) :
                kp_wrap_sub(ni->used[r], p->req.e[i].value);
    }
}

int64_t
kp_ni_used_sparse(const struct kp_node_info *ni, int id)
{
    int64_t sum = 0;
    size_t k;

    for (k = 0; k < ni->npods; k++)
        sum = kp_wrap_add(sum, kp_resvec_get(&ni->pods[k]->req, id));
    return sum;
}

int64_t
kp_ni_alloc_sparse(const struct kp_node_info *ni, int id)
{
    return kp_resvec_get(&ni->node->allocatable, id);
}

/* updateUsedPorts: a NULL for the cluster's NodeInfos */
static void
ports_add(struct kp_node_info *ni, struct kp_arena *a, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < p->nhost_ports; i++)
        kp_port_set_add(&ni->ports, a, &p->host_ports[i]);
}

static void
ports_remove(struct kp_node_info *ni, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < p->nhost_ports; i++)
        kp_port_set_remove(&ni->ports, &p->host_ports[i]);
}

void
kp_node_info_add(struct kp_node_info *ni, const struct kp_pod *p)
{
    if (ni->npods == ni->cap) {
        ni->cap = ni->cap ? ni->cap * 2 : 8;
        ni->pods = kp_xrealloc(ni->pods, ni->cap * sizeof(*ni->pods));
    }
    ni->pods[ni->npods++] = p;
    ni->gen++;
    account(ni, p, 1);
    ports_add(ni, NULL, p);
}

void
kp_node_info_remove(struct kp_node_info *ni, const struct kp_pod *p)
{
    size_t i;

    ni->gen++;
    /* from the end: a reprieved pod that does not fit was just added */
    for (i = ni->npods; i-- > 0;) {
        if (ni->pods[i] == p) {
            memmove(&ni->pods[i], &ni->pods[i + 1],
                    (ni->npods - i - 1) * sizeof(*ni->pods));
            ni->npods--;
            ni->nanti -= p->nanti_affinity > 0;
            ports_remove(ni, p);
            break;
        }
    }
    /* requests go even for a pod not found, as they always have */
    for (i = 0; i < p->req.n; i++) {
        int r = kp_ni_slot(ni, p->req.e[i].id);

        if (r >= 0)
            ni->used[r] = kp_wrap_sub(ni->used[r], p->req.e[i].value);
    }
}

/*
 * Clones live in an arena: their pods array must not be realloc'ed, so
 * the clone gets room for `extra` more pods up front.
 */
struct kp_node_info *
kp_node_info_clone(struct kp_arena *a, const struct kp_node_info *ni,
                   size_t nres, size_t extra)
{
    struct kp_node_info *c = kp_arena_alloc(a, sizeof(*c));

    c->node = ni->node;
    c->index = ni->index;
    c->unschedulable = ni->unschedulable;
    c->ntaints = ni->ntaints;
    c->used = kp_arena_memdup(a, ni->used, nres * sizeof(int64_t));
    c->cap = ni->npods + extra;
    c->npods = ni->npods;
    c->nanti = ni->nanti;
    c->alloc = ni->alloc;
    c->res_slot = ni->res_slot;
    c->nres_ids = ni->nres_ids;
    /* the first npods are copied, the rest written as pods come */
    c->pods = kp_arena_alloc_uninit(a, (c->cap ? c->cap : 1) *
                                    sizeof(*c->pods));
    if (ni->npods)
        memcpy(c->pods, ni->pods, ni->npods * sizeof(*c->pods));
    /* the used ports are the clone's own, growing in a */
    kp_port_set_copy(&c->ports, &ni->ports, a);
    return c;
}

static void
clone_add(struct kp_arena *a, struct kp_node_info *ni, const struct kp_pod *p)
{
    /* capacity was reserved by kp_node_info_clone */
    ni->pods[ni->npods++] = p;
    account(ni, p, 1);
    ports_add(ni, a, p);
}

/* ---- victim tables ---- */

struct by_importance {
    const struct kp_pod *pod;
    uint32_t pos;
};

static int
cmp_by_importance(const void *x, const void *y)
{
    return kp_importance_cmp(((const struct by_importance *)x)->pod,
                             ((const struct by_importance *)y)->pod);
}

/* The table of ni in one block, from a (or malloc when a is NULL). */
static struct kp_victim_table *
build_table(struct kp_arena *a, const struct kp_snapshot *snap,
            const struct kp_node_info *ni, size_t nres)
{
    size_t n = ni->npods, k, r, sz, npdb = 0;
    struct kp_victim_table *vt;
    struct by_importance *order;
    char *mem;

    for (k = 0; k < n; k++)
        npdb += ni->pods[k]->npdbs;
    sz = sizeof(*vt) + (n + 1) * nres * sizeof(int64_t) +
         (n + 1) * sizeof(void *) + (n + 1) * sizeof(int32_t) +
         4 * (n + 1) * sizeof(uint32_t) + 3 * (npdb + 1) * sizeof(int32_t) +
         3 * (n + 1) * sizeof(void *);
    mem = a ? kp_arena_alloc(a, sz) : kp_xcalloc(1, sz);
    vt = (struct kp_victim_table *)(void *)mem;
    mem += sizeof(*vt);
    vt->tail_req = (int64_t *)(void *)mem;
    mem += (n + 1) * nres * sizeof(int64_t);
    vt->pods = (const struct kp_pod **)(void *)mem;
    mem += (n + 1) * sizeof(void *);
    vt->anti = (const struct kp_pod **)(void *)mem;
    mem += (n + 1) * sizeof(void *);
    vt->aff = (const struct kp_pod **)(void *)mem;
    mem += (n + 1) * sizeof(void *);
    vt->ns = (const char **)(void *)mem;
    mem += (n + 1) * sizeof(void *);
    vt->prio = (int32_t *)(void *)mem;
    mem += (n + 1) * sizeof(int32_t);
    vt->pos = (uint32_t *)(void *)mem;
    mem += (n + 1) * sizeof(uint32_t);
    vt->pdb_off = (uint32_t *)(void *)mem;
    mem += (n + 1) * sizeof(uint32_t);
    vt->tail_anti = (uint32_t *)(void *)mem;
    mem += (n + 1) * sizeof(uint32_t);
    vt->tail_ports = (uint32_t *)(void *)mem;
    mem += (n + 1) * sizeof(uint32_t);
    vt->pdb = (int32_t *)(void *)mem;
    mem += (npdb + 1) * sizeof(int32_t);
    vt->pdb_ids = (int32_t *)(void *)mem;
    mem += (npdb + 1) * sizeof(int32_t);
    vt->pdb_local = (uint32_t *)(void *)mem;
    vt->n = n;
    vt->nres = nres;
    vt->gen = ni->gen;
    order = kp_xmalloc((n + 1) * sizeof(*order));
    for (k = 0; k < n; k++) {
        order[k].pod = ni->pods[k];
        order[k].pos = (uint32_t)k;
        vt->ns[k] = ni->pods[k]->ns;
        if (ni->pods[k]->nanti_affinity > 0)
            vt->anti[vt->nanti++] = ni->pods[k];
        if (kp_pod_has_scored_affinity(ni->pods[k]))
            vt->aff[vt->naff++] = ni->pods[k];
    }
    qsort(order, n, sizeof(*order), cmp_by_importance);
    npdb = 0;
    for (k = 0; k < n; k++) {
        const struct kp_pod *p = order[k].pod;

        vt->pods[k] = p;
        vt->pos[k] = order[k].pos;
        vt->prio[k] = p->priority;
        vt->pdb_off[k] = (uint32_t)npdb;
        for (r = 0; r < p->npdbs; r++)
            if (!kp_pdb_in_disrupted(snap->pdbs[p->pdbs[r]], p))
                vt->pdb[npdb++] = p->pdbs[r];
    }
    vt->pdb_off[n] = (uint32_t)npdb;
    vt->npdb_ids = kp_pdb_index_build(vt->pdb, npdb, vt->pdb_local,
                                      vt->pdb_ids);
    free(order);
    memset(&vt->tail_req[n * nres], 0, nres * sizeof(int64_t));
    vt->tail_anti[n] = 0;
    vt->tail_ports[n] = 0;
    for (k = n; k-- > 0;) {
        const struct kp_pod *p = vt->pods[k];
        int64_t *row = &vt->tail_req[k * nres];

        memcpy(row, row + nres, nres * sizeof(int64_t));
        for (r = 0; r < p->req.n; r++) {
            int slot = kp_ni_slot(ni, p->req.e[r].id);

            if (slot >= 0)
                row[slot] = kp_wrap_add(row[slot], p->req.e[r].value);
        }
        vt->tail_anti[k] = vt->tail_anti[k + 1] + (p->nanti_affinity > 0);
        vt->tail_ports[k] = vt->tail_ports[k + 1] + (p->nhost_ports > 0);
    }
    return vt;
}

static void
free_table(struct kp_victim_table *vt)
{
    if (!vt)
        return;
    free(vt->grp_id);
    free(vt->grp_mult);
    free(vt->anti_grp_id);
    free(vt->anti_grp_mult);
    free(vt);
}

static void
rebuild_table(struct kp_cluster *cl, int node)
{
    struct kp_victim_table *vt;

    free_table(cl->vt[node]);
    vt = build_table(NULL, cl->snap, &cl->nodes[node], cl->nres);
    vt->ngrp = kp_term_groups(cl, &cl->nodes[node], false, &vt->grp_id,
                              &vt->grp_mult);
    vt->nanti_grp = kp_term_groups(cl, &cl->nodes[node], true,
                                   &vt->anti_grp_id, &vt->anti_grp_mult);
    vt->grp_ready = true;
    cl->vt[node] = vt;
}

const struct kp_victim_table *
kp_node_table(const struct kp_cluster *cl, int node)
{
    const struct kp_victim_table *vt = cl->vt ? cl->vt[node] : NULL;

    /* every add and remove bumps gen */
    if (!vt || vt->gen != cl->nodes[node].gen)
        return NULL;
    return vt;
}

const struct kp_victim_table *
kp_victim_table_build(const struct kp_cluster *cl, int node,
                      struct kp_arena *a)
{
    return build_table(a, cl->snap, &cl->nodes[node], cl->nres);
}

const struct kp_victim_table *
kp_victim_table_get(const struct kp_cluster *cl, int node, struct kp_arena *a)
{
    const struct kp_victim_table *vt = kp_node_table(cl, node);

    return vt ? vt : build_table(a, cl->snap, &cl->nodes[node], cl->nres);
}

/* ---- cluster ---- */

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
 * 27).  KP_NO_SPARSE_RESOURCES=1: every resource gets a slot, as before.
 */
static void
init_res_slots(struct kp_cluster *cl, const struct kp_snapshot *snap)
{
    bool *want;
    size_t i, j, n = 0;

    if (snap->nres <= KP_RES_FIRST_SCALAR ||
        kp_shortcut_off("KP_NO_SPARSE_RESOURCES"))
        return;
    want = kp_xcalloc(snap->nres, sizeof(bool));
    for (i = 0; i < KP_RES_FIRST_SCALAR; i++)
        want[i] = true;
    for (i = 0; i < snap->npods; i++) {
        const struct kp_pod *p = snap->pods[i];

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

void
kp_cluster_init_tables(struct kp_cluster *cl, const struct kp_snapshot *snap,
                       const char *scheduler_name, bool tables,
                       struct kp_pool *pool)
{
    kp_cluster_init_from(cl, snap, scheduler_name, tables, pool, NULL);
}

void
kp_cluster_init_from(struct kp_cluster *cl, const struct kp_snapshot *snap,
                     const char *scheduler_name, bool tables,
                     struct kp_pool *pool, const struct kp_cluster *tmpl)
{
    struct fill_ctx fc;
    size_t i, n = snap->nnodes, stride;

    memset(cl, 0, sizeof(*cl));
    cl->snap = snap;
    cl->nres = snap->nres;
    init_res_slots(cl, snap);
    cl->scheduler_name = scheduler_name;
    cl->nodes = kp_xcalloc(n ? n : 1, sizeof(*cl->nodes));
    cl->nominated = kp_xcalloc(n ? n : 1, sizeof(*cl->nominated));
    cl->nominated_prio = kp_xcalloc(n ? n : 1, sizeof(*cl->nominated_prio));
    cl->nominated_max = kp_xmalloc((n ? n : 1) * sizeof(int32_t));
    cl->nominated_req = kp_xcalloc(n ? n : 1, sizeof(*cl->nominated_req));
    cl->nominated_anti = kp_xcalloc(n ? n : 1, sizeof(*cl->nominated_anti));
    cl->nominated_ports = kp_xcalloc(n ? n : 1,
                                     sizeof(*cl->nominated_ports));
    cl->nnominated = kp_xcalloc(n ? n : 1, sizeof(size_t));
    cl->capnominated = kp_xcalloc(n ? n : 1, sizeof(size_t));
    cl->nominated_gen = kp_xcalloc(n ? n : 1, sizeof(unsigned long));
    cl->nominated_node_of = kp_xmalloc((snap->npods + 1) * sizeof(int));
    /* KP_NO_NOMINATED_COPY=1: every pod makes its nominated copies */
    if (!kp_shortcut_off("KP_NO_NOMINATED_COPY")) {
        cl->nominated_copy = kp_xcalloc(n ? n : 1,
                                        sizeof(*cl->nominated_copy));
        for (i = 0; i < n; i++)
            atomic_flag_clear(&cl->nominated_copy[i].busy);
    }
    cl->static_answers = kp_xcalloc(1, sizeof(*cl->static_answers));
    cl->placed_node_of = kp_xmalloc((snap->npods + 1) * sizeof(int));
    cl->removed = kp_xcalloc(snap->npods + 1, sizeof(bool));
    cl->pdb_allowed = kp_xcalloc(snap->npdbs + 1, sizeof(int32_t));
    cl->pdb_changed = kp_xcalloc(snap->npdbs + 1, sizeof(unsigned long));
    for (i = 0; i < snap->npdbs; i++)
        cl->pdb_allowed[i] = snap->pdbs[i]->disruptions_allowed;
    for (i = 0; i < snap->npods; i++) {
        cl->nominated_node_of[i] = -1;
        cl->placed_node_of[i] = -1;
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
    fc.cl = cl;
    fc.stride = stride;
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
    cl->vt = kp_xcalloc(n ? n : 1, sizeof(*cl->vt));
    /* not built (simulate.c, one pod alone): built once its pods change */
    cl->tables_lazy = !tables;
    for (i = 0; tables && i < n; i++)
        rebuild_table(cl, (int)i);
    /* nominated pods: pending in this scheduler's queue, node exists */
    for (i = 0; i < snap->npods; i++) {
        const struct kp_pod *p = snap->pods[i];
        const struct kp_node *node;

        if (!p->nominated_node || p->node_name || kp_pod_is_terminal(p) ||
            (scheduler_name ? strcmp(p->scheduler_name, scheduler_name) != 0
                            : !p->in_profile))
            continue;
        node = kp_snapshot_node(snap, p->nominated_node);
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
        if (cl->nominated_copy) {
            free(cl->nominated_copy[i].ni.used);
            free(cl->nominated_copy[i].ni.pods);
            kp_port_set_free(&cl->nominated_copy[i].ni.ports);
        }
        if (cl->vt)
            free_table(cl->vt[i]);
    }
    free(cl->vt);
    free(cl->res_slot);
    kp_cluster_free_caches(cl);
    free(cl->res_block);
    free(cl->nominated_max);
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
    free(cl->nominated_copy);
    for (i = 0; cl->static_answers && i < KP_STATIC_SLOTS; i++) {
        free(cl->static_answers->slot[i].tag);
        free(cl->static_answers->slot[i].st);
    }
    free(cl->static_answers);
    free(cl->placed_node_of);
    free(cl->removed);
    free(cl->pdb_allowed);
    free(cl->pdb_changed);
    memset(cl, 0, sizeof(*cl));
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
    cl->nominated_gen[node] = ++cl->nominated_clock;
}

void
kp_cluster_place(struct kp_cluster *cl, const struct kp_pod *p, int node)
{
    kp_cluster_clear_nomination(cl, p);
    kp_node_info_add(&cl->nodes[node], p);
    rebuild_table(cl, node);
    cl->placed_node_of[p->index] = node;
}

void
kp_cluster_remove(struct kp_cluster *cl, const struct kp_pod *p)
{
    const struct kp_node *n;
    int node = cl->placed_node_of[p->index];

    if (node < 0 && p->node_name) {
        n = kp_snapshot_node(cl->snap, p->node_name);
        node = n ? n->index : -1;
    }
    if (node >= 0) {
        kp_node_info_remove(&cl->nodes[node], p);
        rebuild_table(cl, node);
    }
    cl->removed[p->index] = true;
}

void
kp_cluster_free_caches(struct kp_cluster *cl)
{
    size_t i;

    kp_selcount_free(cl->selcount);
    kp_victim_memo_free(cl->victim_memo);
    kp_image_index_free(cl->images, cl->snap ? cl->snap->nnodes : 0);
    for (i = 0; i < cl->ncolumns; i++) {
        free(cl->column[i]);
        free((char *)(uintptr_t)cl->column_key[i]);
    }
    cl->selcount = NULL;
    cl->victim_memo = NULL;
    cl->images = NULL;
    cl->ncolumns = 0;
}

static pthread_mutex_t column_lock = PTHREAD_MUTEX_INITIALIZER;

const char *const *
kp_cluster_label_column(const struct kp_cluster *cl, const char *key)
{
    struct kp_cluster *mcl = (struct kp_cluster *)(uintptr_t)cl;
    const char **col = NULL;
    size_t i, n = cl->snap->nnodes;

    /* independent mode asks from several threads at once */
    pthread_mutex_lock(&column_lock);
    for (i = 0; i < cl->ncolumns && !col; i++)
        if (cl->column_key[i] == key || strcmp(cl->column_key[i], key) == 0)
            col = cl->column[i];
    if (!col && cl->ncolumns < KP_MAX_COLUMNS) {
        col = kp_xmalloc((n + 1) * sizeof(*col));
        for (i = 0; i < n; i++)
            col[i] = kp_labels_get(&cl->nodes[i].node->labels, key);
        /* keys come from pods and the scratch arena: the column keeps a
         * copy */
        mcl->column_key[cl->ncolumns] = kp_xstrdup(key);
        mcl->column[mcl->ncolumns++] = col;
    }
    pthread_mutex_unlock(&column_lock);
    return col;
}

/* ---- cycle ---- */

static bool
name_in(const char *const *names, size_t n, const char *name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

void
kp_cycle_restrict_nodes(struct kp_cycle *c, int idx,
                        const char *const *names, size_t n)
{
    const char **out = kp_arena_alloc(c->scratch, (n + 1) * sizeof(char *));
    size_t i, k = 0;

    for (i = 0; i < n; i++)
        if ((!c->restricted || name_in(c->allowed, c->nallowed, names[i])) &&
            !name_in(out, k, names[i]))
            out[k++] = names[i];
    c->allowed = out;
    c->nallowed = k;
    c->restricted = true;
    if (c->nrestricting < KP_MAX_PLUGINS)
        c->restricting[c->nrestricting++] = kp_filter_plugins[idx]->name;
}

bool
kp_cycle_node_allowed(const struct kp_cycle *c, const struct kp_node *node)
{
    return !c->restricted || name_in(c->allowed, c->nallowed, node->name);
}

/* "[A B]" as Go prints a []string; sorted when sort is set. */
static char *
plugin_list(struct kp_arena *a, const struct kp_cycle *c, bool sort)
{
    const char *names[KP_MAX_PLUGINS];
    size_t len = 3, i, j;
    int n = c->nrestricting;
    char *out;

    for (i = 0; i < (size_t)n; i++) {
        names[i] = c->restricting[i];
        len += strlen(names[i]) + 1;
    }
    for (i = 1; sort && i < (size_t)n; i++)
        for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];

            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    out = kp_arena_alloc(a, len);
    out[0] = '[';
    for (i = 0, len = 1; i < (size_t)n; i++) {
        if (i)
            out[len++] = ' ';
        memcpy(out + len, names[i], strlen(names[i]));
        len += strlen(names[i]);
    }
    out[len] = ']';
    return out;
}

static struct kp_status
join_status(struct kp_arena *a, const char *prefix, const char *what,
            const char *suffix)
{
    return kp_status_new(KP_UNRESOLVABLE,
                         kp_arena_concat(a, prefix, what, suffix, NULL));
}

struct kp_status
kp_cycle_restricted_status(const struct kp_cycle *c)
{
    return join_status(c->scratch, "node(s) didn't satisfy plugin(s) ",
                       plugin_list(c->scratch, c, true), "");
}

/* The merged PreFilterResult names no node at all. */
static struct kp_status
empty_result_status(const struct kp_cycle *c)
{
    if (c->nrestricting == 1)
        return join_status(c->scratch, "node(s) didn't satisfy plugin ",
                           c->restricting[0], "");
    return join_status(c->scratch, "node(s) didn't satisfy plugin(s) ",
                       plugin_list(c->scratch, c, false), " simultaneously");
}

struct kp_status
kp_cycle_pre_filter(struct kp_cycle *c)
{
    size_t i;

    c->restricted = false;
    c->nallowed = 0;
    c->allowed = NULL;
    c->nrestricting = 0;
    for (i = 0; i < kp_nfilter_plugins; i++) {
        const struct kp_plugin *pl = kp_filter_plugins[i];
        struct kp_status st;

        c->state[i] = NULL;
        /* a profile's disabled Filter is not run, nor without PreFilter */
        c->skip[i] = c->profile && (!c->profile->filter_on[i] ||
                                    (pl->pre_filter &&
                                     !c->profile->pre_filter_on[i]));
        if (!pl->pre_filter || (c->profile && !c->profile->pre_filter_on[i]))
            continue;
        st = pl->pre_filter(c, (int)i);
        if (st.code == KP_SKIP) {
            c->skip[i] = true;
        } else if (st.code != KP_SUCCESS) {
            st.plugin = pl->name;
            return st;
        } else if (c->restricted && c->nallowed == 0) {
            st = empty_result_status(c);
            st.plugin = pl->name;
            return st;
        }
    }
    return kp_status_ok();
}

void
kp_cycle_clone(struct kp_cycle *dst, const struct kp_cycle *src)
{
    size_t i;

    *dst = *src;
    for (i = 0; i < kp_nfilter_plugins; i++)
        if (src->state[i] && kp_filter_plugins[i]->clone_state)
            dst->state[i] = kp_filter_plugins[i]->clone_state(src->scratch,
                                                              src->state[i]);
}

/* the plugins' PreFilterExtensions AddPod / RemovePod */
static void
add_hooks(struct kp_cycle *c, struct kp_node_info *ni, const struct kp_pod *p)
{
    size_t i;

    /* each hook returns at once without a PreFilter state */
    for (i = 0; i < kp_nfilter_plugins; i++)
        if (c->state[i] && !c->skip[i] && kp_filter_plugins[i]->add_pod)
            kp_filter_plugins[i]->add_pod(c, (int)i, p, ni);
}

static void
remove_hooks(struct kp_cycle *c, struct kp_node_info *ni,
             const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++)
        if (c->state[i] && !c->skip[i] && kp_filter_plugins[i]->remove_pod)
            kp_filter_plugins[i]->remove_pod(c, (int)i, p, ni);
}

void
kp_cycle_remove_pod(struct kp_cycle *c, struct kp_node_info *ni,
                    const struct kp_pod *p)
{
    kp_node_info_remove(ni, p);
    remove_hooks(c, ni, p);
}

/*
 * Whether a RemovePod/AddPod hook of c can do anything: a plugin that has
 * them, runs, and has a PreFilter state (each hook returns at once
 * without one).
 */
bool
kp_cycle_hooks_live(const struct kp_cycle *c)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++)
        if (!c->skip[i] && c->state[i] && (kp_filter_plugins[i]->add_pod ||
                                           kp_filter_plugins[i]->remove_pod))
            return true;
    return false;
}

/* whether the table's pods[k] declares host ports */
static inline bool
table_has_ports(const struct kp_victim_table *vt, size_t k)
{
    return vt->tail_ports[k] != vt->tail_ports[k + 1];
}

void
kp_cycle_remove_tail(struct kp_cycle *c, struct kp_node_info *ni,
                     const struct kp_victim_table *vt, size_t first)
{
    const int64_t *row = &vt->tail_req[first * vt->nres];
    size_t i, k, kept = 0, nout = 0;
    /* by NodeInfo position: 1 goes, 2 goes and has host ports */
    unsigned char *out = kp_arena_alloc_uninit(c->scratch, ni->npods + 1);
    const struct kp_pod **gone = NULL;
    bool hooks = kp_cycle_hooks_live(c), visit = hooks || vt->tail_ports[first] > 0;

    memset(out, 0, ni->npods + 1);
    for (k = first; k < vt->n; k++)
        out[vt->pos[k]] = (unsigned char)(1 + table_has_ports(vt, k));
    /*
     * The pods that go are visited (no pod is read otherwise) only when a
     * hook can use them or one of them frees host ports.
     */
    if (visit)
        gone = kp_arena_alloc_uninit(c->scratch,
                                     (vt->n - first + 1) * sizeof(*gone));
    for (i = 0; i < ni->npods; i++) {
        if (!out[i])
            ni->pods[kept++] = ni->pods[i];
        else if (visit && (hooks || out[i] == 2))
            gone[nout++] = ni->pods[i];
    }
    ni->npods = kept;
    for (i = 0; i < vt->nres; i++)
        ni->used[i] = kp_wrap_sub(ni->used[i], row[i]);
    ni->nanti -= vt->tail_anti[first];
    for (i = 0; i < nout; i++)
        ports_remove(ni, gone[i]);
    /*
     * The RemovePod hooks in the node's order, plugin by plugin (each
     * changes its own state alone); a plugin may take them all at once.
     */
    for (k = 0; hooks && k < kp_nfilter_plugins; k++) {
        const struct kp_plugin *pl = kp_filter_plugins[k];

        if (c->skip[k])
            continue;
        if (pl->remove_pods)
            pl->remove_pods(c, (int)k, gone, nout, ni);
        else if (pl->remove_pod)
            for (i = 0; i < nout; i++)
                pl->remove_pod(c, (int)k, gone[i], ni);
    }
}

/* pods[k]'s requests: the difference of two tail rows */
static void
table_account(struct kp_node_info *ni, const struct kp_victim_table *vt,
              size_t k, int sign)
{
    const int64_t *row = &vt->tail_req[k * vt->nres];
    const int64_t *next = row + vt->nres;
    size_t r;

    for (r = 0; r < vt->nres; r++) {
        int64_t v = kp_wrap_sub(row[r], next[r]);

        ni->used[r] = sign > 0 ? kp_wrap_add(ni->used[r], v) :
                      kp_wrap_sub(ni->used[r], v);
    }
    if (vt->tail_anti[k] != vt->tail_anti[k + 1])
        ni->nanti = sign > 0 ? ni->nanti + 1 : ni->nanti - 1;
}

void
kp_cycle_add_table_pod(struct kp_cycle *c, struct kp_node_info *ni,
                       const struct kp_victim_table *vt, size_t k)
{
    /* capacity was reserved by kp_node_info_clone */
    ni->pods[ni->npods++] = vt->pods[k];
    table_account(ni, vt, k, 1);
    if (table_has_ports(vt, k))
        ports_add(ni, c->scratch, vt->pods[k]);
    add_hooks(c, ni, vt->pods[k]);
}

void
kp_cycle_remove_table_pod(struct kp_cycle *c, struct kp_node_info *ni,
                          const struct kp_victim_table *vt, size_t k)
{
    /* it was put back last */
    ni->npods--;
    table_account(ni, vt, k, -1);
    if (table_has_ports(vt, k))
        ports_remove(ni, vt->pods[k]);
    remove_hooks(c, ni, vt->pods[k]);
}

void
kp_cycle_add_pod(struct kp_cycle *c, struct kp_node_info *ni,
                 const struct kp_pod *p)
{
    clone_add(c->scratch, ni, p);
    add_hooks(c, ni, p);
}

/* ---- the node_static plugins' answers, kept across pods ---- */

/* the number of leading node_static plugins */
static size_t
static_prefix(void)
{
    size_t i = 0;

    while (i < kp_nfilter_plugins && kp_filter_plugins[i]->node_static)
        i++;
    return i;
}

static bool
same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool
same_requirements(const struct kp_requirement *a,
                  const struct kp_requirement *b, size_t n)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        if (!same_str(a[i].key, b[i].key) || a[i].op != b[i].op ||
            a[i].nvalues != b[i].nvalues || a[i].num_ok != b[i].num_ok ||
            a[i].num != b[i].num)
            return false;
        for (j = 0; j < a[i].nvalues; j++)
            if (!same_str(a[i].values[j], b[i].values[j]))
                return false;
    }
    return true;
}

static bool
same_node_selector(const struct kp_node_selector *a,
                   const struct kp_node_selector *b)
{
    size_t i;

    if (a->is_null != b->is_null || a->nterms != b->nterms)
        return false;
    for (i = 0; i < a->nterms; i++) {
        const struct kp_node_selector_term *x = &a->terms[i];
        const struct kp_node_selector_term *y = &b->terms[i];

        if (x->invalid != y->invalid || x->nexprs != y->nexprs ||
            x->nfields != y->nfields ||
            !same_requirements(x->exprs, y->exprs, x->nexprs) ||
            !same_requirements(x->fields, y->fields, x->nfields))
            return false;
    }
    return true;
}

/* whether the node_static plugins read the same of a and b */
static bool
same_static_constraints(const struct kp_pod *a, const struct kp_pod *b)
{
    size_t i;

    if (a == b)
        return true;
    if (!same_str(a->node_name, b->node_name) ||
        a->ntolerations != b->ntolerations ||
        a->node_selector.n != b->node_selector.n ||
        !same_node_selector(&a->required_node_affinity,
                            &b->required_node_affinity))
        return false;
    for (i = 0; i < a->ntolerations; i++) {
        const struct kp_toleration *x = &a->tolerations[i];
        const struct kp_toleration *y = &b->tolerations[i];

        if (x->op != y->op || !same_str(x->key, y->key) ||
            !same_str(x->value, y->value) || !same_str(x->effect, y->effect))
            return false;
    }
    for (i = 0; i < a->node_selector.n; i++)
        if (!same_str(a->node_selector.items[i].key,
                      b->node_selector.items[i].key) ||
            !same_str(a->node_selector.items[i].value,
                      b->node_selector.items[i].value))
            return false;
    return true;
}

void
kp_cycle_keep_static(const struct kp_cycle *c)
{
    struct kp_static_answers *sa = c->cl->static_answers;
    struct kp_static_slot *sl = NULL;
    size_t i, j, n = static_prefix(), nnodes = c->cl->snap->nnodes;

    if (!sa || !c->alone)
        return;
    for (i = 0; i < KP_STATIC_SLOTS && !sl; i++) {
        struct kp_static_slot *x = &sa->slot[i];
        bool same = x->rep && x->profile == c->profile &&
                    same_static_constraints(x->rep, c->pod);

        for (j = 0; same && j < n; j++)
            same = x->skip[j] == c->skip[j];
        if (same)
            sl = x;
    }
    if (!sl) {
        /* the least recently used slot starts again: a new epoch */
        sl = &sa->slot[0];
        for (i = 1; i < KP_STATIC_SLOTS; i++)
            if (sa->slot[i].last < sl->last)
                sl = &sa->slot[i];
        if (!sl->tag) {
            sl->tag = kp_xcalloc(nnodes ? nnodes : 1, sizeof(unsigned));
            sl->st = kp_xmalloc((nnodes ? nnodes : 1) * sizeof(*sl->st));
        }
        if (++sl->epoch == 0) {
            memset(sl->tag, 0, (nnodes ? nnodes : 1) * sizeof(unsigned));
            sl->epoch = 1;
        }
        for (i = 0; i < n; i++)
            sl->skip[i] = c->skip[i];
        sl->profile = c->profile;
    }
    /* the pod the answers are now for (its own, which outlives them) */
    sl->rep = c->pod;
    sl->last = ++sa->clock;
    sa->cur = sl;
    sa->pod = c->pod;
}

/*
 * The Filter plugins [from, to) on ni, those c skips left out (and the
 * node_static ones under fit_only): the first failure.
 */
static struct kp_status
run_range(const struct kp_cycle *c, const struct kp_node_info *ni,
          size_t from, size_t to)
{
    size_t i;

    for (i = from; i < to; i++) {
        struct kp_status st;

        if (c->skip[i] || (c->fit_only && kp_filter_plugins[i]->node_static))
            continue;
        st = kp_filter_plugins[i]->filter(c, (int)i, ni);
        if (st.code != KP_SUCCESS) {
            st.plugin = kp_filter_plugins[i]->name;
            return st;
        }
    }
    return kp_status_ok();
}

/* the node_static plugins [0, n) on ni (never under fit_only) */
static struct kp_status
run_static(const struct kp_cycle *c, const struct kp_node_info *ni, size_t n)
{
    return run_range(c, ni, 0, n);
}

#ifdef KP_SELFCHECK
static void
check_static(const struct kp_cycle *c, const struct kp_node_info *ni,
             size_t n, const struct kp_status *kept)
{
    struct kp_status want = run_static(c, ni, n);
    int i;
    bool same = want.code == kept->code && want.plugin == kept->plugin &&
                want.nreasons == kept->nreasons;

    kp_selfcheck_count();
    for (i = 0; same && i < want.nreasons; i++)
        same = strcmp(kp_status_reason(&want, i),
                      kp_status_reason(kept, i)) == 0;
    if (!same)
        kp_selfcheck_fail("node_static answer kept for %s on %s/%s: %s %s, "
                          "want %s %s", ni->node->name, c->pod->ns,
                          c->pod->name, kept->plugin ? kept->plugin : "-",
                          kept->nreasons ? kept->reasons[0] : "",
                          want.plugin ? want.plugin : "-",
                          want.nreasons ? want.reasons[0] : "");
}
#endif

struct kp_status
kp_run_filters(const struct kp_cycle *c, const struct kp_node_info *ni)
{
    struct kp_static_answers *sa = c->cl->static_answers;
    size_t i = 0;

    /*
     * The node_static plugins' answer for this node kept from a pod with
     * the same constraints (their reasons are static strings or the
     * node's): the pod armed is c's, and c is the only cycle running.
     */
    if (!c->fit_only && c->alone && sa && sa->pod == c->pod) {
        struct kp_static_slot *sl = sa->cur;
        size_t n = static_prefix();
        int node = ni->index;

        if (sl->tag[node] != sl->epoch) {
            sl->st[node] = run_static(c, ni, n);
            sl->tag[node] = sl->epoch;
        } else {
#ifdef KP_SELFCHECK
            check_static(c, ni, n, &sl->st[node]);
#endif
        }
        if (sl->st[node].code != KP_SUCCESS)
            return sl->st[node];
        i = n;
    }
    return run_range(c, ni, i, kp_nfilter_plugins);
}

/* kp_cycle_add_pod with p's requests given as a dense row */
static void
add_row_pod(struct kp_cycle *c, struct kp_node_info *ni,
            const struct kp_pod *p, const int64_t *row, bool anti,
            bool ports, bool hooks)
{
    size_t i, nres = c->cl->nres;

    ni->pods[ni->npods++] = p;
    for (i = 0; i < nres; i++)
        ni->used[i] = kp_wrap_add(ni->used[i], row[i]);
    ni->nanti += anti;
    /* the pod itself is read only for its host ports */
    if (ports)
        ports_add(ni, c->scratch, p);
    if (hooks)
        add_hooks(c, ni, p);
}

size_t
kp_cycle_count_ge_nominated(const struct kp_cycle *c,
                            const struct kp_node_info *ni)
{
    const struct kp_cluster *cl = c->cl;
    int node = ni->index;
    size_t n, i, ng = 0;
    const int32_t *gp;
    int32_t prio = c->pod->priority;

    /* one dense array says "none of higher or equal priority" */
    if (cl->nominated_max[node] < prio)
        return 0;
    n = cl->nnominated[node];
    gp = cl->nominated_prio[node];
    /* priorities kept beside the pointers: no pod is read to say no */
    for (i = 0; i < n; i++)
        if (gp[i] >= prio && cl->nominated[node][i] != c->pod)
            ng++;
    return ng;
}

void
kp_cycle_add_ge_nominated(struct kp_cycle *c, struct kp_node_info *ni)
{
    const struct kp_cluster *cl = c->cl;
    int node = ni->index;
    const struct kp_pod **g = cl->nominated[node];
    bool hooks = kp_cycle_hooks_live(c);
    size_t i;

    /* requests and priorities from the dense copies */
    for (i = 0; i < cl->nnominated[node]; i++)
        if (g[i] != c->pod && cl->nominated_prio[node][i] >= c->pod->priority)
            add_row_pod(c, ni, g[i], &cl->nominated_req[node][i * cl->nres],
                        cl->nominated_anti[node][i],
                        cl->nominated_ports[node][i], hooks);
}

bool
kp_cycle_with_nominated(const struct kp_cycle *c,
                        const struct kp_node_info *ni, size_t extra,
                        struct kp_cycle *nc, struct kp_node_info **nni)
{
    size_t ng = kp_cycle_count_ge_nominated(c, ni);

    if (ng == 0)
        return false;
    kp_cycle_clone(nc, c);
    *nni = kp_node_info_clone(c->scratch, ni, c->cl->nres, ng + extra);
    kp_cycle_add_ge_nominated(nc, *nni);
    return true;
}


/* the mask of the nominated pods c->pod adds to node; false: over 64 */
static bool
ge_nominated_mask(const struct kp_cycle *c, int node, uint64_t *mask)
{
    const struct kp_cluster *cl = c->cl;
    size_t n = cl->nnominated[node], i;
    const int32_t *gp = cl->nominated_prio[node];
    int32_t prio = c->pod->priority;
    uint64_t m = 0;

    if (n > 64)
        return false;
    for (i = 0; i < n; i++)
        if (gp[i] >= prio && cl->nominated[node][i] != c->pod)
            m |= (uint64_t)1 << i;
    *mask = m;
    return true;
}

/*
 * e made the copy of ni with the nominated pods in mask added, as
 * kp_cycle_with_nominated makes it (same pods, order, ports, sums), the
 * PreFilterExtensions AddPod hooks left out: the caller has none live.
 */
static void
build_nominated_copy(const struct kp_cluster *cl, struct kp_nominated_copy *e,
                     const struct kp_node_info *ni, uint64_t mask,
                     const struct kp_pod *pod, bool self)
{
    struct kp_node_info *d = &e->ni;
    int node = ni->index;
    size_t nres = cl->nres, i, r, extra = 0;
    int64_t *used = d->used;
    const struct kp_pod **pods = d->pods;
    struct kp_port_set ports = d->ports;

    for (i = 0; i < 64; i++)
        extra += (mask >> i) & 1;
    if (!used)
        used = kp_xmalloc((nres ? nres : 1) * sizeof(int64_t));
    if (e->cap_pods < ni->npods + extra + 1) {
        e->cap_pods = ni->npods + extra + 1;
        pods = kp_xrealloc(pods, e->cap_pods * sizeof(*pods));
    }
    *d = *ni;
    d->used = used;
    if (nres)
        memcpy(used, ni->used, nres * sizeof(int64_t));
    d->pods = pods;
    d->cap = e->cap_pods;
    if (ni->npods)
        memcpy(pods, ni->pods, ni->npods * sizeof(*pods));
    d->ports = ports;
    kp_port_set_copy(&d->ports, &ni->ports, NULL);
    for (i = 0; i < cl->nnominated[node]; i++) {
        const int64_t *row = &cl->nominated_req[node][i * nres];
        const struct kp_pod *q = cl->nominated[node][i];

        if (!((mask >> i) & 1))
            continue;
        d->pods[d->npods++] = q;
        for (r = 0; r < nres; r++)
            d->used[r] = kp_wrap_add(d->used[r], row[r]);
        d->nanti += cl->nominated_anti[node][i];
        if (cl->nominated_ports[node][i])
            ports_add(d, NULL, q);
    }
    e->gen = ni->gen;
    e->ver = cl->nominated_gen[node];
    e->mask = mask;
    e->valid = true;
    /* the priorities that give this set: above those left out by
     * priority, at most the lowest added */
    e->self = self;
    e->lo = INT64_MIN;
    e->hi = INT64_MAX;
    for (i = 0; i < cl->nnominated[node]; i++) {
        int64_t q = cl->nominated_prio[node][i];

        if ((mask >> i) & 1) {
            if (q < e->hi)
                e->hi = q;
        } else if (cl->nominated[node][i] != pod && q > e->lo) {
            e->lo = q;
        }
    }
}

/*
 * RunFilterPluginsWithNominatedPods with the node's kept copy, made again
 * when its key does not hold.  With no AddPod hook live the copy's cycle
 * is c itself; else c cloned, with the hooks of the pods added run on it
 * in their order (the hooks read the NodeInfo's node only, the same in
 * the copy as it is filled).  Returns false (nothing run) when the copy
 * cannot be used here.
 */
static bool
run_with_kept_copy(const struct kp_cycle *c, const struct kp_node_info *ni,
                   struct kp_status *out)
{
    const struct kp_cluster *cl = c->cl;
    struct kp_nominated_copy *e;
    struct kp_status st;
    struct kp_cycle tmp;
    const struct kp_cycle *fc = c;
    struct kp_arena_mark mark;
    uint64_t mask;
    int node = ni->index;
    int64_t prio = c->pod->priority;
    bool self;
    size_t i;

    if (!cl->nominated_copy || ni != &cl->nodes[node])
        return false;
    self = cl->nominated_node_of[c->pod->index] == node;
    e = &cl->nominated_copy[node];
    if (atomic_flag_test_and_set_explicit(&e->busy, memory_order_acquire))
        return false;
    if (!(e->valid && !self && !e->self && e->lo < prio && prio <= e->hi &&
          e->gen == ni->gen && e->ver == cl->nominated_gen[node])) {
        if (!ge_nominated_mask(c, node, &mask)) {
            atomic_flag_clear_explicit(&e->busy, memory_order_release);
            return false;
        }
        if (mask == 0) {
            atomic_flag_clear_explicit(&e->busy, memory_order_release);
            *out = kp_run_filters(c, ni);
            return true;
        }
        if (!e->valid || e->gen != ni->gen || e->mask != mask ||
            e->ver != cl->nominated_gen[node])
            build_nominated_copy(cl, e, ni, mask, c->pod, self);
    }
    kp_arena_mark(c->scratch, &mark);
    if (kp_cycle_hooks_live(c)) {
        kp_cycle_clone(&tmp, c);
        for (i = 0; i < 64; i++)
            if ((e->mask >> i) & 1)
                add_hooks(&tmp, &e->ni, cl->nominated[node][i]);
        fc = &tmp;
    }
    KP_SELFCHECK_NOMINATED(c, ni, &e->ni);
    KP_SELFCHECK_NOMINATED_KEPT(c, ni, &e->ni);
    KP_SELFCHECK_NODE(fc, &e->ni);
    st = kp_run_filters(fc, &e->ni);
    atomic_flag_clear_explicit(&e->busy, memory_order_release);
    if (st.code != KP_SUCCESS) {
        *out = st;      /* its reasons may live in the scratch arena */
        return true;
    }
    kp_arena_rollback(c->scratch, &mark);
    *out = kp_run_filters(c, ni);
    return true;
}

struct kp_status
kp_run_filters_with_nominated(const struct kp_cycle *c,
                              const struct kp_node_info *ni)
{
    struct kp_cycle tmp;
    struct kp_node_info *copy;
    struct kp_status st;
    struct kp_arena_mark mark;

    /* one dense array says "none of higher or equal priority" */
    if (c->cl->nominated_max[ni->index] < c->pod->priority)
        return kp_run_filters(c, ni);
    if (run_with_kept_copy(c, ni, &st))
        return st;
    kp_arena_mark(c->scratch, &mark);
    if (!kp_cycle_with_nominated(c, ni, 0, &tmp, &copy))
        return kp_run_filters(c, ni);
    KP_SELFCHECK_NOMINATED(c, ni, copy);
    KP_SELFCHECK_NODE(&tmp, copy);
    st = kp_run_filters(&tmp, copy);
    if (st.code != KP_SUCCESS)
        return st;      /* its reasons may live in the copy's memory */
    /* the copy is done with: the next node's reuses its memory */
    kp_arena_rollback(c->scratch, &mark);
    return kp_run_filters(c, ni);
}

/* ---- the default profile's Filter plugins, in upstream order ---- */

#include "plugins.h"

const struct kp_plugin *const kp_filter_plugins[] = {
    &kp_plugin_node_unschedulable,
    &kp_plugin_node_name,
    &kp_plugin_taint_toleration,
    &kp_plugin_node_affinity,
    &kp_plugin_node_ports,
    &kp_plugin_node_resources_fit,
    &kp_plugin_volume_restrictions,
    &kp_plugin_node_volume_limits,
    &kp_plugin_volume_binding,
    &kp_plugin_volume_zone,
    &kp_plugin_pod_topology_spread,
    &kp_plugin_inter_pod_affinity,
};

const size_t kp_nfilter_plugins =
    sizeof(kp_filter_plugins) / sizeof(kp_filter_plugins[0]);
