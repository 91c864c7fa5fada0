/*
 * diagnosis.c - the numbers behind a FitError (issue 26): for a pod that
 * does not fit as the cluster stands at its turn, what it requests, and
 * per Filter reason the nodes it rules out (kube-scheduler's histogram,
 * framework.Diagnosis.NodeToStatus of pkg/scheduler/schedule_one.go,
 * counted per plugin and reason) with what a person needs to act on it:
 *
 *   NodeResourcesFit   the request, the largest allocatable and the most
 *                      free on any node, "larger than any node", and
 *                      fragmentation (enough free in aggregate, not on
 *                      one node);
 *   TaintToleration    the first untolerated NoSchedule/NoExecute taint
 *                      of each node it rules out (what the plugin's
 *                      Filter checks, taint_toleration.go), by
 *                      key/value/effect with counts;
 *   NodeAffinity       each nodeSelector entry and each required term,
 *                      with how many nodes match it, and the values the
 *                      nodes have for a key no node matches;
 *   NodePorts          each host port the pod wants, with how many nodes
 *                      have it in use;
 *
 * the other reasons are counted only.  Then what DryRunPreemption made
 * of the nodes (pkg/scheduler/framework/preemption/preemption.go): how
 * many were not tried (their status is not Unschedulable: evicting
 * cannot help), how many had no lower-priority pod, how many would
 * still reject the pod with every lower-priority pod gone.
 *
 * "Free" is allocatable minus what the node's pods request
 * (NodeInfo.Requested), without the nominated pods the Filter also adds.
 * Rendered once, at the pod's turn, as a JSON object and as the lines of
 * -o describe (report.h: kp_pod_report.diagnosis_json/_text).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corev1.h"
#include "diagnosis.h"
#include "default_preemption.h"
#include "diagnosis_detail.h"
#include "plugins.h"
#include "pool.h"
#include "selfcheck.h"
#include "shortcut.h"

/* "8", "3900m"; "15Gi", "512Mi", "1000"; extended resources as counts */
static void
put_qty(struct kp_buf *b, int id, int64_t v)
{
    static const char *const bin[] = {"Ki", "Mi", "Gi", "Ti", "Pi"};
    int k = -1;

    if (id == KP_RES_CPU) {
        if (v % 1000 == 0)
            kp_buf_printf(b, "%" PRId64, v / 1000);
        else
            kp_buf_printf(b, "%" PRId64 "m", v);
        return;
    }
    if ((id == KP_RES_MEMORY || id == KP_RES_EPHEMERAL) && v != 0) {
        while (k < 4 && v % ((int64_t)1024 << (10 * (k + 1))) == 0)
            k++;
        if (k >= 0) {
            kp_buf_printf(b, "%" PRId64 "%s", v >> (10 * (k + 1)), bin[k]);
            return;
        }
    }
    kp_buf_printf(b, "%" PRId64, v);
}

static const char *
qty(struct kp_buf *tmp, int id, int64_t v)
{
    tmp->len = 0;
    put_qty(tmp, id, v);
    return tmp->data;
}

/* ---- one reason's group ---- */

struct group {
    const char *plugin, *reason;
    size_t nodes;
    /*
     * The detail of a NodeResourcesFit or TaintToleration group, made by
     * kp_diagnose_filters (made: js and tx hold it), the other groups'
     * when the diagnosis is finished
     */
    bool made;
    struct kp_buf js, tx;
};

/*
 * What kp_diagnose_filters makes of the statuses ahead of the rest:
 * the groups in the order first met, and per node the groups its
 * reasons fall in (bit g of mask[i], for the first 64 groups; has_reason
 * answers for the others).
 */
struct kp_diag_pre {
    const struct kp_cycle *c;
    const struct kp_status *st;
    struct group *g;
    size_t ng, cap;
    uint64_t *mask;
    bool done, on_side;         /* on_side: made by kp_diagnose_filters */
};

#define MASK_GROUPS 64

static size_t
find_group(struct kp_diag_pre *d, const char *plugin, const char *reason)
{
    struct group *g = d->g;
    size_t *ng = &d->ng;
    size_t i;

    /*
     * the same pointers first: most reasons and plugin names are static
     * strings, the same for every node (issue 31: this walk over every
     * node of every pod ran strcmp per group)
     */
    for (i = 0; i < *ng; i++)
        if (g[i].reason == reason && g[i].plugin == plugin)
            return i;
    for (i = 0; i < *ng; i++)
        if (strcmp(g[i].reason, reason) == 0 &&
            strcmp(g[i].plugin ? g[i].plugin : "",
                   plugin ? plugin : "") == 0)
            return i;
    if (*ng == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 8;
        d->g = g = kp_xrealloc(g, d->cap * sizeof(*g));
    }
    memset(&g[*ng], 0, sizeof(g[*ng]));
    g[*ng].plugin = plugin;
    g[*ng].reason = reason;
    return (*ng)++;
}

static int
resource_of_reason(const struct kp_snapshot *snap, const char *reason)
{
    size_t id;

    if (strcmp(reason, KP_REASON_TOO_MANY_PODS) == 0)
        return KP_RES_PODS;
    for (id = 0; id < snap->nres; id++)
        if (snap->res_reasons[id] && strcmp(snap->res_reasons[id],
                                            reason) == 0)
            return (int)id;
    return -1;
}

static int64_t
node_alloc(const struct kp_node_info *ni, int id)
{
    return kp_ni_alloc(ni, id);
}

static pthread_mutex_t largest_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The largest allocatable of resource id on any node and the first node
 * that has it (*node -1: no node), kept on the cluster for every
 * diagnosis that follows (issue 31: each one read every node's
 * allocatable for it).  False with KP_NO_LARGEST_ALLOC=1: the caller
 * reads the nodes itself.
 */
static bool
largest_alloc(const struct kp_cluster *cl, int id, int64_t *best, int *node)
{
    struct kp_caches *cc = cl->caches;
    size_t i, r, n = cl->snap->nnodes, nres = cl->snap->nres;

    if (!cc || id < 0 || (size_t)id >= nres ||
        kp_shortcut_off("KP_NO_LARGEST_ALLOC"))
        return false;
    /* independent mode diagnoses on several threads */
    pthread_mutex_lock(&largest_lock);
    if (!cc->largest_alloc) {
        cc->largest_alloc = kp_xcalloc(nres + 1, sizeof(int64_t));
        cc->largest_node = kp_xmalloc((nres + 1) * sizeof(int));
        for (r = 0; r < nres; r++)
            cc->largest_node[r] = -1;
        for (i = 0; i < n; i++)
            for (r = 0; r < nres; r++) {
                int64_t a = node_alloc(&cl->nodes[i], (int)r);

                if (cc->largest_node[r] < 0 || a > cc->largest_alloc[r]) {
                    cc->largest_alloc[r] = a;
                    cc->largest_node[r] = (int)i;
                }
            }
    }
    *best = cc->largest_alloc[id];
    *node = cc->largest_node[id];
    pthread_mutex_unlock(&largest_lock);
    return true;
}

/*
 * node_used's answers that need no walk of the node's nominated pods, u
 * holding what the node's pods request of the resource (slot: its slot,
 * or -1; pods: the pods' count): none of them is of p's priority or
 * higher, or all of them are and p is not among them (the kept sums).
 * False: walk them (node_used).
 */
static inline bool
node_used_kept(const struct kp_cluster *cl, size_t node,
               const struct kp_pod *p, int slot, bool pods, int64_t *u)
{
    /* one dense array says "none of higher or equal priority" */
    if (cl->nominated_max[node] < p->priority)
        return true;
    if (!cl->nominated_min || cl->nominated_min[node] < p->priority ||
        cl->nominated_node_of[p->index] == (int)node || (!pods && slot < 0))
        return false;
    *u = kp_wrap_add(*u, pods ? (int64_t)cl->nnominated[node] :
                     cl->nominated_sum[node * cl->nres + (size_t)slot]);
    return true;
}

/*
 * What the node's pods request, plus its nominated pods of the same or a
 * higher priority than p, as the Filter counts them
 * (RunFilterPluginsWithNominatedPods, addGENominatedPods).
 */
static int64_t
node_used(const struct kp_cluster *cl, size_t node, const struct kp_pod *p,
          int id)
{
    const struct kp_node_info *ni = &cl->nodes[node];
    const bool pods = id == KP_RES_PODS;
    int64_t u = pods ? (int64_t)ni->npods : kp_ni_used(ni, id);
    int slot = kp_ni_slot(ni, id);
    size_t j;

    if (node_used_kept(cl, node, p, slot, pods, &u))
        return u;
    for (j = 0; j < cl->nnominated[node]; j++) {
        if (cl->nominated[node][j] == p ||
            cl->nominated_prio[node][j] < p->priority)
            continue;
        /* the nominated pods' requests, by slot (framework.h) */
        u = kp_wrap_add(u, pods ? 1 : slot >= 0 ?
                        cl->nominated_req[node][j * cl->nres + (size_t)slot] :
                        kp_resvec_get(&cl->nominated[node][j]->req, id));
    }
    return u;
}

/* whether node i's status is plugin's */
static bool
plugin_is(const struct kp_status *st, const char *plugin)
{
    return st->plugin && plugin && (st->plugin == plugin ||
                                    strcmp(st->plugin, plugin) == 0);
}

/* whether node i's status carries reason (from plugin) */
static bool
has_reason(const struct kp_status *st, const char *plugin,
           const char *reason)
{
    int k;

    if (!plugin_is(st, plugin))
        return false;
    for (k = 0; k < st->nreasons; k++) {
        const char *r = kp_status_reason(st, k);

        if (r == reason || strcmp(r, reason) == 0)
            return true;
    }
    return false;
}

static int64_t
pod_wants(const struct kp_pod *p, int id)
{
    return id == KP_RES_PODS ? 1 : kp_resvec_get(&p->req, id);
}

/*
 * resource_detail's walk over nodes [lo, hi): the first node of the
 * largest allocatable (unless kept) and of the most free among the
 * group's nodes, and the sum of what is free on those
 */
struct res_part {
    int64_t best_alloc, best_free, total_free;
    int ba, bf;
};

/* KP_NO_RES_COLUMN, read once: 1 off, 0 on, -1 not read yet */
static atomic_int res_column_off = -1;

/*
 * The slot of resource id in every cluster node's row of res_block
 * (kp_cluster.res_stride), or -1: read each NodeInfo (the pods' count,
 * a resource kept sparse, KP_NO_RES_COLUMN=1).  A walk down the rows
 * reads a line per node or less; through the NodeInfos, the NodeInfo's
 * line, then its row (issue 31).
 */
static int
column_slot(const struct kp_cluster *cl, int id)
{
    if (id == KP_RES_PODS || id < 0 || (size_t)id >= cl->snap->nres ||
        !cl->res_stride ||
        kp_shortcut_off_once(&res_column_off, "KP_NO_RES_COLUMN"))
        return -1;
    return kp_res_slot(cl->res_slot, cl->snap->nres, id);
}

static void
resource_scan(const struct kp_cluster *cl, const struct kp_pod *p, int id,
              const struct kp_diag_pre *d, size_t gi, bool kept, size_t lo,
              size_t hi, struct res_part *r)
{
    const struct kp_status *st = d->st;
    const struct group *g = &d->g[gi];
    const uint64_t bit = gi < MASK_GROUPS ? (uint64_t)1 << gi : 0;
    const int col = column_slot(cl, id);
    const size_t stride = cl->res_stride;
    const int64_t *used = col >= 0 ? &cl->res_block[col] : NULL;
    const int64_t *alloc = col >= 0 ? used + cl->nres : NULL;
    size_t i;

    r->best_alloc = r->best_free = r->total_free = 0;
    r->ba = r->bf = -1;
#ifdef KP_SELFCHECK
    /* the rows against the NodeInfos (what node_alloc and _used read) */
    for (i = lo; col >= 0 && i < hi; i++) {
        kp_selfcheck_count();
        if (alloc[i * stride] != node_alloc(&cl->nodes[i], id) ||
            used[i * stride] != kp_ni_used(&cl->nodes[i], id))
            kp_selfcheck_fail("diagnosis of %s/%s: resource %d of node %zu "
                              "read down res_block differs from its "
                              "NodeInfo", p->ns, p->name, id, i);
    }
#endif
    for (i = lo; i < hi; i++) {
        const struct kp_node_info *ni = &cl->nodes[i];
        int64_t a, f, u;

        if (!kept) {
            a = alloc ? alloc[i * stride] : node_alloc(ni, id);
            if (r->ba < 0 || a > r->best_alloc) {
                r->best_alloc = a;
                r->ba = (int)i;
            }
        }
        if (bit ? !(d->mask[i] & bit) :
            !has_reason(&st[i], g->plugin, g->reason))
            continue;
        /* node_used's answers without a walk, read down the rows */
        u = used ? used[i * stride] : 0;
        if (used && node_used_kept(cl, i, p, col, false, &u))
            f = alloc[i * stride] - u;
        else
            f = node_alloc(ni, id) - node_used(cl, i, p, id);
        if (r->bf < 0 || f > r->best_free) {
            r->best_free = f;
            r->bf = (int)i;
        }
        if (f > 0)
            r->total_free += f;
    }
}

/*
 * nodes per item of the diagnosis's passes on the pool (the self-check
 * build's small clusters take the chunks' path too)
 */
#ifdef KP_SELFCHECK
#define DIAG_CHUNK 3
#else
#define DIAG_CHUNK 256
#endif

/* the end of chunk j's nodes (the last chunk may be short) */
static size_t
chunk_end(size_t n, size_t j)
{
    return n - j * DIAG_CHUNK > DIAG_CHUNK ? (j + 1) * DIAG_CHUNK : n;
}

struct scan_ctx {
    const struct kp_cluster *cl;
    const struct kp_pod *p;
    int id;
    const struct kp_diag_pre *d;
    size_t gi;
    bool kept;
    struct res_part *part;      /* by chunk */
};

static bool
scan_chunk(void *ctx, size_t j, struct kp_arena *a)
{
    const struct scan_ctx *sc = ctx;
    (void)a;
    resource_scan(sc->cl, sc->p, sc->id, sc->d, sc->gi, sc->kept,
                  j * DIAG_CHUNK, chunk_end(sc->cl->snap->nnodes, j),
                  &sc->part[j]);
    return false;
}

/*
 * The walk over every node, by chunks on the pool's threads when given
 * one (the calling thread's alone otherwise), the chunks' answers taken
 * in node order: the first node of each largest, as one walk finds
 */
static void
resource_walk(const struct kp_cluster *cl, const struct kp_pod *p, int id,
              const struct kp_diag_pre *d, size_t gi, bool kept,
              struct kp_pool *pool, struct res_part *r)
{
    size_t n = cl->snap->nnodes, nchunks = (n + DIAG_CHUNK - 1) / DIAG_CHUNK;
    struct scan_ctx sc = {cl, p, id, d, gi, kept, NULL};
    size_t j;

    if (!pool || nchunks < 2) {
        resource_scan(cl, p, id, d, gi, kept, 0, n, r);
        return;
    }
    sc.part = kp_xmalloc(nchunks * sizeof(*sc.part));
    kp_pool_run(pool, nchunks, 1, scan_chunk, &sc, NULL);
    *r = sc.part[0];
    for (j = 1; j < nchunks; j++) {
        const struct res_part *q = &sc.part[j];

        if (q->ba >= 0 && (r->ba < 0 || q->best_alloc > r->best_alloc)) {
            r->best_alloc = q->best_alloc;
            r->ba = q->ba;
        }
        if (q->bf >= 0 && (r->bf < 0 || q->best_free > r->best_free)) {
            r->best_free = q->best_free;
            r->bf = q->bf;
        }
        r->total_free = kp_wrap_add(r->total_free, q->total_free);
    }
    free(sc.part);
}

/*
 * NodeResourcesFit: the largest allocatable of one resource over every
 * node; the most free and the total free over the nodes the reason
 * rules out (g: what the pod lacks there).
 */
static void
resource_detail(const struct kp_cluster *cl, const struct kp_pod *p, int id,
                const struct kp_diag_pre *d, size_t gi, struct kp_pool *pool,
                struct kp_buf *js, struct kp_buf *tx, struct kp_buf *tmp)
{
    const struct kp_snapshot *snap = cl->snap;
    int64_t want = pod_wants(p, id), best_alloc = 0, best_free, total_free;
    int ba = -1, bf;
    const char *name = id == KP_RES_PODS ? "pods" : snap->res_names[id];
    bool kept = largest_alloc(cl, id, &best_alloc, &ba);
    struct res_part r;

#ifdef KP_SELFCHECK
    /* the kept figure against every node read now */
    if (kept) {
        struct res_part all;

        resource_scan(cl, p, id, d, gi, false, 0, snap->nnodes, &all);
        kp_selfcheck_count();
        if (all.ba != ba || (ba >= 0 && all.best_alloc != best_alloc))
            kp_selfcheck_fail("diagnosis of %s/%s: kept largest %s "
                              "allocatable %" PRId64 " on node %d, want %"
                              PRId64 " on node %d", p->ns, p->name, name,
                              best_alloc, ba, all.best_alloc, all.ba);
    }
#endif
    resource_walk(cl, p, id, d, gi, kept, pool, &r);
    if (!kept) {
        best_alloc = r.best_alloc;
        ba = r.ba;
    }
    best_free = r.best_free;
    bf = r.bf;
    total_free = r.total_free;
    kp_buf_puts(js, ", \"resource\": ");
    kp_buf_json_str(js, name);
    kp_buf_printf(js, ", \"requested\": \"%s\"", qty(tmp, id, want));
    kp_buf_printf(tx, "requests %s %s", qty(tmp, id, want), name);
    if (ba >= 0 && bf >= 0) {
        kp_buf_printf(js, ", \"largestAllocatable\": \"%s\", "
                      "\"largestAllocatableNode\": ",
                      qty(tmp, id, best_alloc));
        kp_buf_json_str(js, snap->nodes[ba]->name);
        kp_buf_printf(js, ", \"mostFree\": \"%s\", \"mostFreeNode\": ",
                      qty(tmp, id, best_free < 0 ? 0 : best_free));
        kp_buf_json_str(js, snap->nodes[bf]->name);
        kp_buf_printf(js, ", \"totalFree\": \"%s\"",
                      qty(tmp, id, total_free));
        kp_buf_printf(tx, "; largest allocatable %s (%s)",
                      qty(tmp, id, best_alloc), snap->nodes[ba]->name);
        kp_buf_printf(tx, ", most free %s (%s)",
                      qty(tmp, id, best_free < 0 ? 0 : best_free),
                      snap->nodes[bf]->name);
        kp_buf_printf(tx, ", %s free in all", qty(tmp, id, total_free));
    }
    kp_buf_printf(js, ", \"largerThanAnyNode\": %s, \"fragmented\": %s",
                  want > best_alloc ? "true" : "false",
                  want <= best_alloc && best_free < want &&
                  total_free >= want ? "true" : "false");
    if (want > best_alloc)
        kp_buf_puts(tx, ": larger than any node");
    else if (best_free < want && total_free >= want)
        kp_buf_puts(tx, ": fragmented (enough free in aggregate, not on "
                    "one node)");
}

/* the first taint of node i the pod does not tolerate (Filter's order) */
static const struct kp_taint *
untolerated(const struct kp_node *n, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < n->ntaints; i++) {
        const struct kp_taint *t = &n->taints[i];

        if ((strcmp(t->effect, "NoSchedule") == 0 ||
             strcmp(t->effect, "NoExecute") == 0) && !kp_tolerates_any(p, t))
            return t;
    }
    return NULL;
}

static bool
same_taint(const struct kp_taint *a, const struct kp_taint *b)
{
    return strcmp(a->key, b->key) == 0 &&
           strcmp(a->value ? a->value : "", b->value ? b->value : "") == 0 &&
           strcmp(a->effect, b->effect) == 0;
}

/* the untolerated taints of a run of nodes, each once, first met first */
struct taint_part {
    const struct kp_taint **t;
    size_t *cnt;
    size_t n;
};

/* taint u counted k more times in tp, appended when first met */
static void
taint_add(struct taint_part *tp, const struct kp_taint *u, size_t k)
{
    size_t j;

    for (j = 0; j < tp->n && !same_taint(tp->t[j], u); j++)
        ;
    if (j == tp->n)
        tp->t[tp->n++] = u;
    tp->cnt[j] += k;
}

/*
 * What a walk for TaintToleration's detail reads: the nodes whose status
 * is plugin's, found by bits of their masks (TaintToleration's groups:
 * its statuses always carry a reason) or, bits 0, by their statuses
 */
struct taint_in {
    const struct kp_cluster *cl;
    const struct kp_pod *p;
    const struct kp_status *st;
    const char *plugin;
    const uint64_t *mask;
    uint64_t bits;
    bool once;          /* one walk for all of the plugin's groups */
};

/* the nodes in [lo, hi) that failed TaintToleration (plugin), into tp */
static void
taint_scan(const struct taint_in *in, size_t lo, size_t hi,
           struct taint_part *tp)
{
    size_t i;

#ifdef KP_SELFCHECK
    /* the masks' bits find the nodes the statuses do */
    for (i = lo; in->bits && i < hi; i++) {
        kp_selfcheck_count();
        if (((in->mask[i] & in->bits) != 0) != plugin_is(&in->st[i],
                                                          in->plugin))
            kp_selfcheck_fail("diagnosis of %s/%s: node %zu's mask and "
                              "status disagree on %s", in->p->ns,
                              in->p->name, i, in->plugin);
    }
#endif
    for (i = lo; i < hi; i++) {
        const struct kp_taint *u;

        if (in->bits ? !(in->mask[i] & in->bits) :
            !plugin_is(&in->st[i], in->plugin))
            continue;
        u = untolerated(in->cl->snap->nodes[i], in->p);
        if (u)
            taint_add(tp, u, 1);
    }
}

struct taint_ctx {
    const struct taint_in *in;
    struct taint_part *part;    /* by chunk */
};

static bool
taint_chunk(void *ctx, size_t j, struct kp_arena *a)
{
    const struct taint_ctx *tc = ctx;

    (void)a;
    taint_scan(tc->in, j * DIAG_CHUNK, chunk_end(tc->in->cl->snap->nnodes, j),
               &tc->part[j]);
    return false;
}

/*
 * The walk over every node, by chunks on the pool's threads when given
 * one, the chunks' taints merged in node order: each first met where
 * one walk meets it first, with the same counts
 */
static void
taint_walk(const struct taint_in *in, struct kp_pool *pool,
           struct taint_part *all)
{
    size_t n = in->cl->snap->nnodes;
    size_t nchunks = (n + DIAG_CHUNK - 1) / DIAG_CHUNK;
    struct taint_ctx tc = {in, NULL};
    size_t i, j;

    if (!pool || nchunks < 2) {
        taint_scan(in, 0, n, all);
        return;
    }
    tc.part = kp_xcalloc(nchunks, sizeof(*tc.part));
    for (j = 0; j < nchunks; j++) {
        tc.part[j].t = kp_xcalloc(DIAG_CHUNK, sizeof(*tc.part[j].t));
        tc.part[j].cnt = kp_xcalloc(DIAG_CHUNK, sizeof(size_t));
    }
    kp_pool_run(pool, nchunks, 1, taint_chunk, &tc, NULL);
    for (j = 0; j < nchunks; j++) {
        const struct taint_part *q = &tc.part[j];

        for (i = 0; i < q->n; i++)
            taint_add(all, q->t[i], q->cnt[i]);
        free(tc.part[j].t);
        free(tc.part[j].cnt);
    }
    free(tc.part);
}

static void
taint_detail(const struct taint_in *in, struct kp_pool *pool,
             struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_snapshot *snap = in->cl->snap;
    struct taint_part all;
    const struct kp_taint **t;
    size_t *cnt;
    size_t j, n;

    all.t = kp_xcalloc(snap->nnodes + 1, sizeof(*all.t));
    all.cnt = kp_xcalloc(snap->nnodes + 1, sizeof(size_t));
    all.n = 0;
    taint_walk(in, pool, &all);
    t = all.t;
    cnt = all.cnt;
    n = all.n;
    kp_buf_puts(js, ", \"taints\": [");
    for (j = 0; j < n; j++) {
        kp_buf_puts(js, j ? ", {\"key\": " : "{\"key\": ");
        kp_buf_json_str(js, t[j]->key);
        kp_buf_puts(js, ", \"value\": ");
        kp_buf_json_str(js, t[j]->value ? t[j]->value : "");
        kp_buf_puts(js, ", \"effect\": ");
        kp_buf_json_str(js, t[j]->effect);
        kp_buf_printf(js, ", \"nodes\": %zu}", cnt[j]);
        kp_buf_printf(tx, "%s%s%s%s:%s on %zu node(s)", j ? ", " : "",
                      t[j]->key, t[j]->value && t[j]->value[0] ? "=" : "",
                      t[j]->value ? t[j]->value : "", t[j]->effect, cnt[j]);
    }
    kp_buf_puts(js, "]");
    if (n)
        kp_buf_puts(tx, "; the pod tolerates none of them");
    free(t);
    free(cnt);
}

/* the values the nodes carry for key, most frequent first (3 at most) */
static void
label_values(const struct kp_snapshot *snap, const char *key,
             struct kp_buf *js, struct kp_buf *tx)
{
    const char **v = kp_xcalloc(snap->nnodes + 1, sizeof(*v));
    size_t *cnt = kp_xcalloc(snap->nnodes + 1, sizeof(size_t));
    size_t i, j, n = 0, shown;

    for (i = 0; i < snap->nnodes; i++) {
        const char *x = kp_labels_get(&snap->nodes[i]->labels, key);

        x = x ? x : "<none>";
        for (j = 0; j < n && strcmp(v[j], x) != 0; j++)
            ;
        if (j == n)
            v[n++] = x;
        cnt[j]++;
    }
    kp_buf_puts(js, ", \"nodeValues\": [");
    kp_buf_puts(tx, " (the nodes have ");
    for (shown = 0; shown < n && shown < 3; shown++) {
        size_t best = 0;

        for (j = 1; j < n; j++)
            if (cnt[j] > cnt[best])
                best = j;
        kp_buf_puts(js, shown ? ", {\"value\": " : "{\"value\": ");
        kp_buf_json_str(js, v[best]);
        kp_buf_printf(js, ", \"nodes\": %zu}", cnt[best]);
        kp_buf_printf(tx, "%s%s on %zu", shown ? ", " : "", v[best],
                      cnt[best]);
        cnt[best] = 0;
    }
    if (n > 3)
        kp_buf_printf(tx, ", %zu more value(s)", n - 3);
    kp_buf_puts(js, "]");
    kp_buf_puts(tx, ")");
    free(v);
    free(cnt);
}

/*
 * How many nodes each required node affinity term of p matches, into
 * out (nterms long): kept for the pods that follow with the same terms
 * (kp_caches.diag_terms_pod) when the cycle runs alone.
 */
static void
term_counts(const struct kp_cluster *cl, const struct kp_pod *p, bool alone,
            size_t *out)
{
    const struct kp_snapshot *snap = cl->snap;
    const struct kp_node_selector *ns = &p->required_node_affinity;
    struct kp_caches *cc = cl->caches;
    struct kp_diag_terms *slot = NULL;
    size_t i, k;

    for (k = 0; alone && k < KP_DIAG_TERMS_SLOTS && !slot; k++)
        if (cc->diag_terms[k].pod && cc->diag_terms[k].n == ns->nterms &&
            kp_same_node_selector(
                &cc->diag_terms[k].pod->required_node_affinity, ns))
            slot = &cc->diag_terms[k];
    if (slot) {
        memcpy(out, slot->count, ns->nterms * sizeof(*out));
#ifdef KP_SELFCHECK
        for (k = 0; k < ns->nterms; k++) {
            size_t m = 0;

            for (i = 0; i < snap->nnodes; i++)
                m += kp_node_selector_term_matches(&ns->terms[k],
                                                   &snap->nodes[i]->labels,
                                                   snap->nodes[i]->name);
            if (m != out[k])
                kp_selfcheck_fail("diagnosis of %s/%s: kept count %zu of "
                                  "nodes matching term %zu, want %zu",
                                  p->ns, p->name, out[k], k, m);
        }
#endif
        return;
    }
    for (k = 0; k < ns->nterms; k++)
        for (i = out[k] = 0; i < snap->nnodes; i++)
            out[k] += kp_node_selector_term_matches(&ns->terms[k],
                                                    &snap->nodes[i]->labels,
                                                    snap->nodes[i]->name);
    if (!alone || kp_shortcut_off("KP_NO_DIAG_TERMS"))
        return;
    slot = &cc->diag_terms[cc->diag_terms_next];
    cc->diag_terms_next = (cc->diag_terms_next + 1) % KP_DIAG_TERMS_SLOTS;
    free(slot->count);
    slot->count = kp_xmalloc((ns->nterms + 1) * sizeof(*out));
    memcpy(slot->count, out, ns->nterms * sizeof(*out));
    slot->n = ns->nterms;
    slot->pod = p;
}

static void
affinity_detail(const struct kp_cluster *cl, const struct kp_pod *p,
                bool alone, struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_snapshot *snap = cl->snap;
    size_t i, k, m, nt = 0, *terms = NULL;

    kp_buf_puts(js, ", \"nodeSelector\": [");
    for (k = 0; k < p->node_selector.n; k++) {
        const struct kp_label *l = &p->node_selector.items[k];
        const char *const *col = kp_cluster_label_column(cl, l->key);

        for (i = m = 0; i < snap->nnodes; i++) {
            const char *x = col ? col[i] :
                            kp_labels_get(&snap->nodes[i]->labels, l->key);

            m += x && (x == l->value || strcmp(x, l->value) == 0);
        }
        kp_buf_puts(js, k ? ", {\"key\": " : "{\"key\": ");
        kp_buf_json_str(js, l->key);
        kp_buf_puts(js, ", \"value\": ");
        kp_buf_json_str(js, l->value);
        kp_buf_printf(js, ", \"matchingNodes\": %zu", m);
        kp_buf_printf(tx, "%snodeSelector %s=%s matches %zu node(s)",
                      nt++ ? "; " : "", l->key, l->value, m);
        if (m == 0)
            label_values(snap, l->key, js, tx);
        kp_buf_puts(js, "}");
    }
    kp_buf_puts(js, "], \"requiredTerms\": [");
    if (!p->required_node_affinity.is_null &&
        p->required_node_affinity.nterms) {
        terms = kp_xmalloc(p->required_node_affinity.nterms *
                           sizeof(*terms));
        term_counts(cl, p, alone, terms);
    }
    for (k = 0; !p->required_node_affinity.is_null &&
         k < p->required_node_affinity.nterms; k++) {
        m = terms[k];
        kp_buf_printf(js, "%s{\"term\": %zu, \"matchingNodes\": %zu}",
                      k ? ", " : "", k, m);
        kp_buf_printf(tx, "%srequired node affinity term %zu matches %zu "
                      "node(s)", nt++ ? "; " : "", k, m);
    }
    free(terms);
    kp_buf_puts(js, "]");
}

static void
ports_detail(const struct kp_cluster *cl, const struct kp_pod *p,
             struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_snapshot *snap = cl->snap;
    size_t i, k, m;

    kp_buf_puts(js, ", \"hostPorts\": [");
    for (k = 0; k < p->nhost_ports; k++) {
        const struct kp_host_port *hp = &p->host_ports[k];

        for (i = m = 0; i < snap->nnodes; i++)
            m += kp_port_set_conflict(&cl->nodes[i].ports, hp);
        kp_buf_printf(js, "%s{\"port\": %d, \"protocol\": ", k ? ", " : "",
                      (int)hp->port);
        kp_buf_json_str(js, hp->protocol);
        kp_buf_puts(js, ", \"hostIP\": ");
        kp_buf_json_str(js, hp->ip);
        kp_buf_printf(js, ", \"nodesUsing\": %zu}", m);
        kp_buf_printf(tx, "%shost port %s/%d in use on %zu node(s)",
                      k ? ", " : "", hp->protocol, (int)hp->port, m);
    }
    kp_buf_puts(js, "]");
}

static bool
is_volume_plugin(const char *plugin)
{
    return strcmp(plugin, "VolumeBinding") == 0 ||
           strcmp(plugin, "VolumeZone") == 0 ||
           strcmp(plugin, "VolumeRestrictions") == 0 ||
           strcmp(plugin, "NodeVolumeLimits") == 0;
}

#define SEEN_SPREAD 1u
#define SEEN_CLAIMS 2u

/* ---- preemption ---- */

static void
preemption_detail(const struct kp_cycle *c, const struct kp_pod_report *pr,
                  const struct kp_preempt_result *res, size_t n,
                  struct kp_buf *js, struct kp_buf *tx)
{
    size_t i, by[5] = {0, 0, 0, 0, 0}, novictims = 0;

    if (!res) {
        kp_buf_puts(js, "null");
        kp_buf_puts(tx, "not run (no DefaultPreemption in the profile)");
        return;
    }
    if (res->outcome == KP_PREEMPT_NOT_ELIGIBLE) {
        kp_buf_puts(js, "{\"eligible\": false, \"reason\": ");
        kp_buf_json_str(js, res->message);
        kp_buf_puts(js, "}");
        kp_buf_puts(tx, res->message);
        return;
    }
    for (i = 0; res->nodes && i < n; i++) {
        by[res->nodes[i].outcome]++;
        if (res->nodes[i].outcome == KP_NODE_NO_VICTIMS_HELP &&
            res->dry[i].nreasons &&
            (res->dry[i].reasons[0] == kp_reason_no_victims ||
             strcmp(res->dry[i].reasons[0], kp_reason_no_victims) == 0))
            novictims++;
    }
    kp_buf_printf(js, "{\"eligible\": true, \"potentialNodes\": %zu, "
                  "\"candidates\": %zu, \"notTried\": %zu, "
                  "\"noLowerPriorityPods\": %zu, "
                  "\"stillDoesNotFit\": %zu, \"notEvaluated\": %zu",
                  res->npotential, pr->ncandidates, by[KP_NODE_NOT_TRIED],
                  novictims, by[KP_NODE_NO_VICTIMS_HELP] - novictims,
                  by[KP_NODE_NOT_EVALUATED]);
    if (pr->result == KP_RESULT_PREEMPTS)
        kp_buf_printf(tx, "%zu candidate(s) among %zu potential node(s)",
                      pr->ncandidates, res->npotential);
    else
        kp_buf_printf(tx, "no candidate");
    kp_buf_printf(tx, "; %zu node(s) not tried (evicting pods cannot "
                  "change what rejects the pod there)",
                  by[KP_NODE_NOT_TRIED]);
    if (novictims)
        kp_buf_printf(tx, ", %zu without a lower-priority pod", novictims);
    if (by[KP_NODE_NO_VICTIMS_HELP] - novictims)
        kp_buf_printf(tx, ", %zu where the pod would not fit even with "
                      "every lower-priority pod gone",
                      by[KP_NODE_NO_VICTIMS_HELP] - novictims);
    /* the PDBs the candidates' victims would violate (item 2) */
    kp_diag_pdb_blocks(c, pr, js, tx);
    kp_buf_puts(js, "}");
}

/* the groups' detail that reads only the statuses and the nodes */
static bool
made_ahead(const struct kp_snapshot *snap, const struct group *g, int *id)
{
    *id = -1;
    if (!g->plugin)
        return false;
    if (strcmp(g->plugin, "NodeResourcesFit") == 0) {
        *id = resource_of_reason(snap, g->reason);
        return *id >= 0;
    }
    return strcmp(g->plugin, "TaintToleration") == 0;
}

struct kp_diag_pre *
kp_diagnose_start(const struct kp_cycle *c, const struct kp_status *st)
{
    struct kp_diag_pre *d = kp_xcalloc(1, sizeof(*d));

    d->c = c;
    d->st = st;
    return d;
}

/*
 * The groups of a chunk of DIAG_CHUNK nodes, in the order first met
 * there (as find_group), and the nodes' masks by those (over: more than
 * MASK_GROUPS, the chunks' pass is given up for the serial one)
 */
struct chunk_groups {
    const char *plugin[MASK_GROUPS], *reason[MASK_GROUPS];
    size_t nodes[MASK_GROUPS];
    size_t global[MASK_GROUPS];         /* find_group's index, merged */
    size_t ng;
    bool over;
};

static size_t
chunk_group(struct chunk_groups *cg, const char *plugin, const char *reason)
{
    size_t i;

    for (i = 0; i < cg->ng; i++)
        if (cg->reason[i] == reason && cg->plugin[i] == plugin)
            return i;
    for (i = 0; i < cg->ng; i++)
        if (strcmp(cg->reason[i], reason) == 0 &&
            strcmp(cg->plugin[i] ? cg->plugin[i] : "",
                   plugin ? plugin : "") == 0)
            return i;
    if (cg->ng == MASK_GROUPS)
        return MASK_GROUPS;
    cg->plugin[cg->ng] = plugin;
    cg->reason[cg->ng] = reason;
    cg->nodes[cg->ng] = 0;
    return cg->ng++;
}

struct mask_ctx {
    struct kp_diag_pre *d;
    struct chunk_groups *cg;    /* by chunk */
};

static bool
mask_chunk(void *ctx, size_t j, struct kp_arena *a)
{
    const struct mask_ctx *mc = ctx;
    struct kp_diag_pre *d = mc->d;
    struct chunk_groups *cg = &mc->cg[j];
    const struct kp_status *st = d->st;
    size_t i, li, hi = chunk_end(d->c->cl->snap->nnodes, j);
    int k;

    (void)a;
    cg->ng = 0;
    cg->over = false;
    for (i = j * DIAG_CHUNK; i < hi; i++)
        for (k = 0; k < st[i].nreasons; k++) {
            li = chunk_group(cg, st[i].plugin, kp_status_reason(&st[i], k));
            if (li == MASK_GROUPS) {
                cg->over = true;
                return false;
            }
            cg->nodes[li]++;
            d->mask[i] |= (uint64_t)1 << li;
        }
    return false;
}

/* a chunk's masks from its own groups' bits to find_group's */
static bool
remap_chunk(void *ctx, size_t j, struct kp_arena *a)
{
    const struct mask_ctx *mc = ctx;
    struct kp_diag_pre *d = mc->d;
    const struct chunk_groups *cg = &mc->cg[j];
    size_t i, hi = chunk_end(d->c->cl->snap->nnodes, j);

    (void)a;
    for (i = j * DIAG_CHUNK; i < hi; i++) {
        uint64_t m = d->mask[i], out = 0;

        while (m) {
            size_t g = cg->global[__builtin_ctzll(m)];

            m &= m - 1;
            if (g < MASK_GROUPS)
                out |= (uint64_t)1 << g;
        }
        d->mask[i] = out;
    }
    return false;
}

/*
 * The groups and masks by chunks of nodes on the pool's threads, merged
 * in node order (each chunk's groups looked up in turn: find_group's
 * order of first meeting); false, with nothing kept, when a chunk met
 * more groups than its masks hold
 */
static bool
masks_by_chunks(struct kp_diag_pre *d, struct kp_pool *pool)
{
    size_t n = d->c->cl->snap->nnodes, nchunks = (n + DIAG_CHUNK - 1) / DIAG_CHUNK;
    struct mask_ctx mc = {d, kp_xmalloc(nchunks * sizeof(*mc.cg))};
    size_t j, li;

    kp_pool_run(pool, nchunks, 1, mask_chunk, &mc, NULL);
    for (j = 0; j < nchunks; j++)
        if (mc.cg[j].over) {
            free(mc.cg);
            memset(d->mask, 0, n * sizeof(*d->mask));
            return false;
        }
    for (j = 0; j < nchunks; j++)
        for (li = 0; li < mc.cg[j].ng; li++) {
            size_t gi = find_group(d, mc.cg[j].plugin[li],
                                   mc.cg[j].reason[li]);

            d->g[gi].nodes += mc.cg[j].nodes[li];
            mc.cg[j].global[li] = gi;
        }
    kp_pool_run(pool, nchunks, 1, remap_chunk, &mc, NULL);
    free(mc.cg);
    return true;
}

/* KP_NO_TAINT_MASK, read once: 1 off, 0 on, -1 not read yet */
static atomic_int taint_mask_off = -1;

/*
 * What TaintToleration's walk reads (taint_in): the bits of its groups
 * when they all have one, else 0 (the statuses read).  TaintToleration's
 * statuses carry one reason each, so a node whose status is the plugin's
 * has one of its groups' bits (issue 31: the walk read every node's
 * status, a line each, for its plugin).  The walk reads the plugin's
 * nodes, not a group's: one walk serves each of its groups (several
 * before v1.34, one per untolerated taint).  KP_NO_TAINT_MASK=1: the
 * statuses read, a walk per group.
 */
static void
taint_bits(const struct kp_diag_pre *d, struct taint_in *in)
{
    size_t gi;

    in->cl = d->c->cl;
    in->p = d->c->pod;
    in->st = d->st;
    in->plugin = NULL;
    in->mask = d->mask;
    in->bits = 0;
    in->once = false;
    if (kp_shortcut_off_once(&taint_mask_off, "KP_NO_TAINT_MASK"))
        return;
    in->once = true;
    for (gi = 0; gi < d->ng; gi++) {
        if (!d->g[gi].plugin ||
            strcmp(d->g[gi].plugin, "TaintToleration") != 0)
            continue;
        if (gi >= MASK_GROUPS) {
            in->bits = 0;
            return;
        }
        in->bits |= (uint64_t)1 << gi;
    }
}

/*
 * The groups, masks and NodeResourcesFit's and TaintToleration's
 * details; the walks over the nodes by chunks on pool's threads when
 * given one (idle: no dry run under way), else on the calling thread
 */
static void
make_filters(struct kp_diag_pre *d, struct kp_pool *pool)
{
    const struct kp_cycle *c = d->c;
    const struct kp_cluster *cl = c->cl;
    const struct kp_status *st = d->st;
    size_t n = cl->snap->nnodes, i, gi;
    struct kp_buf tmp;
    struct taint_in tin;
    const struct group *tt = NULL;      /* TaintToleration's, made */
    int k, id;

    d->mask = kp_xcalloc(n + 1, sizeof(*d->mask));
    if (n < 2 * DIAG_CHUNK || kp_shortcut_off("KP_NO_DIAG_PARALLEL"))
        pool = NULL;
    if (!pool || !masks_by_chunks(d, pool))
        for (i = 0; i < n; i++)
            for (k = 0; k < st[i].nreasons; k++) {
                gi = find_group(d, st[i].plugin,
                                kp_status_reason(&st[i], k));
                d->g[gi].nodes++;
                if (gi < MASK_GROUPS)
                    d->mask[i] |= (uint64_t)1 << gi;
            }
    kp_buf_init(&tmp);
    taint_bits(d, &tin);
    for (gi = 0; gi < d->ng; gi++) {
        struct group *g = &d->g[gi];

        if (!made_ahead(cl->snap, g, &id))
            continue;
        kp_buf_init(&g->js);
        kp_buf_init(&g->tx);
        if (id >= 0) {
            resource_detail(cl, c->pod, id, d, gi, pool, &g->js, &g->tx,
                            &tmp);
        } else if (tt && tin.once) {
            kp_buf_add_buf(&g->js, &tt->js);
            kp_buf_add_buf(&g->tx, &tt->tx);
        } else {
            tin.plugin = g->plugin;
            taint_detail(&tin, pool, &g->js, &g->tx);
            tt = g;
        }
        g->made = true;
    }
    kp_buf_release(&tmp);
}

void
kp_diagnose_filters_on(void *pre, struct kp_pool *pool)
{
    struct kp_diag_pre *d = pre;

    if (d->done)
        return;
    make_filters(d, pool);
    d->done = true;
    d->on_side = true;
}

char *
kp_diagnose_histogram(const struct kp_diag_pre *d, struct kp_arena *a)
{
    const char **r = kp_arena_alloc(a, (d->ng + 1) * sizeof(*r));
    size_t *n = kp_arena_alloc(a, (d->ng + 1) * sizeof(*n)), i;

    for (i = 0; i < d->ng; i++) {
        r[i] = d->g[i].reason;
        n[i] = d->g[i].nodes;
    }
    return kp_reason_histogram_of(a, r, n, d->ng);
}

void
kp_diagnose_filters(void *pre)
{
    kp_diagnose_filters_on(pre, NULL);
}

static void
release_pre(struct kp_diag_pre *d)
{
    size_t i;

    for (i = 0; i < d->ng; i++)
        if (d->g[i].made) {
            kp_buf_release(&d->g[i].js);
            kp_buf_release(&d->g[i].tx);
        }
    free(d->g);
    free(d->mask);
    free(d);
}

#ifdef KP_SELFCHECK
/*
 * The groups and details made ahead (on the dry run's side) against the
 * same made now, after the dry run: they read nothing it changes.
 */
static void
check_ahead(const struct kp_diag_pre *d)
{
    struct kp_diag_pre *e = kp_diagnose_start(d->c, d->st);
    const struct kp_pod *p = d->c->pod;
    size_t i, n = d->c->cl->snap->nnodes;

    make_filters(e, NULL);
    kp_selfcheck_count();
    if (e->ng != d->ng)
        kp_selfcheck_fail("diagnosis of %s/%s: %zu groups made ahead, %zu "
                          "after the dry run", p->ns, p->name, d->ng, e->ng);
    for (i = 0; i < d->ng && i < e->ng; i++) {
        const struct group *a = &d->g[i], *b = &e->g[i];

        if (a->nodes != b->nodes || a->made != b->made ||
            strcmp(a->reason, b->reason) != 0 ||
            (a->made && (a->js.len != b->js.len || a->tx.len != b->tx.len ||
                         memcmp(a->js.data, b->js.data, a->js.len) != 0 ||
                         memcmp(a->tx.data, b->tx.data, a->tx.len) != 0)))
            kp_selfcheck_fail("diagnosis of %s/%s: group %zu (%s) made "
                              "ahead differs from the same after the dry "
                              "run", p->ns, p->name, i, a->reason);
    }
    /* every node's groups as has_reason reads them */
    for (i = 0; i < n; i++) {
        size_t gi;

        for (gi = 0; gi < d->ng && gi < MASK_GROUPS; gi++) {
            bool bit = (d->mask[i] >> gi) & 1;

            if (d->g[gi].plugin &&
                bit != has_reason(&d->st[i], d->g[gi].plugin,
                                  d->g[gi].reason))
                kp_selfcheck_fail("diagnosis of %s/%s: node %zu's mask "
                                  "for group %zu (%s) is %d", p->ns,
                                  p->name, i, gi, d->g[gi].reason, bit);
        }
    }
    release_pre(e);
}
#endif

void
kp_diagnose_finish(struct kp_diag_pre *d, struct kp_arena *ra,
                   struct kp_pod_report *pr,
                   const struct kp_preempt_result *res)
{
    const struct kp_cycle *c = d->c;
    const struct kp_cluster *cl = c->cl;
    const struct kp_snapshot *snap = cl->snap;
    const struct kp_pod *p = c->pod;
    const struct kp_status *st = d->st;
    size_t n = snap->nnodes, i, r;
    struct group *g;
    struct kp_buf js, tx, tmp;
    unsigned seen = 0;

    if (n == 0) {
        release_pre(d);
        return;
    }
    if (!d->done) {
        make_filters(d, NULL);
        d->done = true;
    }
#ifdef KP_SELFCHECK
    if (d->on_side)
        check_ahead(d);
#endif
    g = d->g;
    kp_buf_init(&js);
    kp_buf_init(&tx);
    kp_buf_init(&tmp);
    kp_buf_puts(&js, "{\"requests\": {");
    kp_buf_puts(&tx, "Requests:    ");
    for (r = 0; r < p->req.n; r++) {
        int id = p->req.e[r].id;

        kp_buf_puts(&js, r ? ", " : "");
        kp_buf_json_str(&js, snap->res_names[id]);
        kp_buf_printf(&js, ": \"%s\"", qty(&tmp, id, p->req.e[r].value));
        kp_buf_printf(&tx, "%s%s %s", r ? ", " : "", snap->res_names[id],
                      qty(&tmp, id, p->req.e[r].value));
    }
    if (p->req.n == 0)
        kp_buf_puts(&tx, "<none>");
    kp_buf_printf(&js, "}, \"nodes\": %zu, \"filters\": [", n);
    kp_buf_printf(&tx, "\nFilters:     %zu node(s)\n", n);
    for (i = 0; i < d->ng; i++) {
        kp_buf_puts(&js, i ? ",\n        {\"plugin\": "
                           : "\n        {\"plugin\": ");
        kp_buf_json_str_or_null(&js, g[i].plugin);
        kp_buf_puts(&js, ", \"reason\": ");
        kp_buf_json_str(&js, g[i].reason);
        kp_buf_printf(&js, ", \"nodes\": %zu", g[i].nodes);
        kp_buf_printf(&tx, "  %zu %s", g[i].nodes, g[i].reason);
        if (g[i].plugin)
            kp_buf_printf(&tx, " (%s)", g[i].plugin);
        kp_buf_puts(&tx, "\n");
        if (g[i].made) {
            /* NodeResourcesFit (a resource) or TaintToleration */
            kp_buf_puts(&tx, "      ");
            kp_buf_add(&js, g[i].js.data, g[i].js.len);
            kp_buf_add(&tx, g[i].tx.data, g[i].tx.len);
            kp_buf_puts(&tx, "\n");
        } else if (g[i].plugin && strcmp(g[i].plugin, "NodeAffinity") == 0 &&
                   strcmp(g[i].reason, KP_REASON_NODE_AFFINITY) == 0) {
            kp_buf_puts(&tx, "      ");
            affinity_detail(cl, p, c->alone, &js, &tx);
            kp_buf_puts(&tx, "\n");
        } else if (g[i].plugin && strcmp(g[i].plugin, "NodePorts") == 0) {
            kp_buf_puts(&tx, "      ");
            ports_detail(cl, p, &js, &tx);
            kp_buf_puts(&tx, "\n");
        } else if (g[i].plugin &&
                   strcmp(g[i].plugin, "PodTopologySpread") == 0 &&
                   !(seen & SEEN_SPREAD)) {
            /* both of its reasons read the same constraints: once */
            seen |= SEEN_SPREAD;
            kp_buf_puts(&tx, "      ");
            kp_diag_spread(c, &js, &tx);
            kp_buf_puts(&tx, "\n");
        } else if (g[i].plugin &&
                   strcmp(g[i].plugin, "InterPodAffinity") == 0) {
            kp_buf_puts(&tx, "      ");
            kp_diag_pod_affinity(c, g[i].reason, &js, &tx);
            kp_buf_puts(&tx, "\n");
        } else if (g[i].plugin && is_volume_plugin(g[i].plugin) &&
                   (!(seen & SEEN_CLAIMS) ||
                    strcmp(g[i].plugin, "NodeVolumeLimits") == 0)) {
            kp_buf_puts(&tx, "      ");
            kp_diag_volumes(c, st, g[i].plugin, !(seen & SEEN_CLAIMS), &js,
                            &tx);
            seen |= SEEN_CLAIMS;
            kp_buf_puts(&tx, "\n");
        } else if (g[i].plugin &&
                   strcmp(g[i].plugin, "NodeUnschedulable") == 0) {
            kp_buf_puts(&tx, "      ");
            kp_diag_unschedulable(c, st, &js, &tx);
            kp_buf_puts(&tx, "\n");
        } else if (g[i].plugin && strcmp(g[i].plugin, "NodeName") == 0) {
            kp_buf_puts(&tx, "      ");
            kp_diag_node_name(c, &js, &tx);
            kp_buf_puts(&tx, "\n");
        }
        kp_buf_puts(&js, "}");
    }
    kp_buf_puts(&js, d->ng ? "\n      ],\n      \"preemption\": "
                        : "],\n      \"preemption\": ");
    kp_buf_puts(&tx, "Preemption:  ");
    preemption_detail(c, pr, res, n, &js, &tx);
    kp_buf_puts(&js, "}");
    kp_buf_puts(&tx, "\n");
    pr->diagnosis_json = kp_arena_strndup(ra, js.data, js.len);
    pr->diagnosis_text = kp_arena_strndup(ra, tx.data, tx.len);
    release_pre(d);
    kp_buf_release(&js);
    kp_buf_release(&tx);
    kp_buf_release(&tmp);
}

void
kp_diagnose(const struct kp_cycle *c, struct kp_arena *ra,
            struct kp_pod_report *pr, const struct kp_status *st,
            const struct kp_preempt_result *res)
{
    kp_diagnose_finish(kp_diagnose_start(c, st), ra, pr, res);
}
