/*
 * filtering.c - mirrors pkg/scheduler/framework/plugins/
 * podtopologyspread/filtering.go: PreFilter counts, for each
 * whenUnsatisfiable: DoNotSchedule constraint, the matching pods of every
 * eligible domain (TpValueToMatchNum) and keeps two critical paths (the
 * domains with the fewest matches); AddPod/RemovePod (updateWithPod)
 * keep both in step; Filter fails a node that lacks a topology key
 * (Unresolvable) or would exceed maxSkew (Unschedulable).
 *
 * The critical paths are upstream's [2]criticalPath, updated as upstream
 * does.  Their minimum is exact whenever only one domain per constraint
 * changes after PreFilter, which holds here: AddPod/RemovePod only touch
 * the node being evaluated (nominated pods, victims).
 */
#include <stdio.h>
#include <string.h>

#include "plugin_state.h"
#include "plugins.h"
#include "pool.h"
#include "selcount.h"
#include "spread.h"
#include "tpcount.h"

#define MAX_INT32 2147483647LL

struct critical_paths {
    const char *value[2];
    int64_t num[2];
};

struct pts_state {
    size_t n;
    const struct kp_spread_tsc *cons;   /* shared, immutable */
    struct kp_tpcount *tp;              /* TpValueToMatchNum, per constraint */
    struct critical_paths *paths;       /* CriticalPaths, per constraint */
    /* per constraint: the topology key's label column, or NULL */
    const char *const **col;
    const uint64_t **colh;              /* the columns' pair hashes */
    /* the pod's namespace's kp_ns_hash; ns_hash_on: kp_ns_hash_on() */
    uint32_t ns_hash;
    bool ns_hash_on;
};

/* Constraint i's topology value of node, NULL when absent. */
static const char *
node_value(const struct pts_state *s, size_t i, const struct kp_node *node)
{
    return s->col[i] ? s->col[i][node->index] :
           kp_labels_get(&node->labels, s->cons[i].topology_key);
}

/* node_value, and the pair's kp_tpcount_hash in *h when there is one */
static const char *
node_pair(const struct pts_state *s, size_t i, const struct kp_node *node,
          uint64_t *h)
{
    return kp_tpcount_node_pair(s->col[i], s->colh[i], (size_t)node->index,
                                &node->labels, s->cons[i].topology_key, h);
}

/* criticalPaths.update */
static void
paths_update(struct critical_paths *p, const char *v, int64_t num)
{
    int i = -1;

    if (strcmp(v, p->value[0]) == 0)
        i = 0;
    else if (strcmp(v, p->value[1]) == 0)
        i = 1;
    if (i >= 0) {
        p->num[i] = num;
        if (p->num[0] > p->num[1]) {
            struct critical_paths t = *p;

            p->value[0] = t.value[1];
            p->num[0] = t.num[1];
            p->value[1] = t.value[0];
            p->num[1] = t.num[0];
        }
    } else if (num < p->num[0]) {
        p->value[1] = p->value[0];
        p->num[1] = p->num[0];
        p->value[0] = v;
        p->num[0] = num;
    } else if (num < p->num[1]) {
        p->value[1] = v;
        p->num[1] = num;
    }
}

static void
paths_visit(void *arg, const char *value, uint64_t h, int64_t n)
{
    (void)h;
    paths_update(arg, value, n);
}

static void
paths_init(struct critical_paths *p, const struct kp_tpcount *tp)
{
    p->value[0] = p->value[1] = "";
    p->num[0] = p->num[1] = MAX_INT32;
    kp_tpcount_each(tp, paths_visit, p);
}

/* a node's count for a constraint that does not count it */
#define NO_COUNT INT64_MIN

/*
 * The per-node part of calPreFilterState: what node ni adds to each
 * constraint's counts, out[i] (NO_COUNT: nothing); ent[i]: constraint
 * i's counts kept across pods (selcount.h), or NULL.  Reads only: the
 * nodes may be counted on several threads.
 */
static void
count_node(const struct kp_cycle *c, const struct pts_state *s,
           struct kp_selcount_entry *const *ent,
           const struct kp_node_info *ni, int64_t *out)
{
    const struct kp_node *node = ni->node;
    size_t i;

    for (i = 0; i < s->n; i++)
        out[i] = NO_COUNT;
    for (i = 0; i < s->n; i++)
        if (!node_value(s, i, node))
            return;
    for (i = 0; i < s->n; i++) {
        const struct kp_spread_tsc *t = &s->cons[i];

        if (!kp_spread_match_inclusion(t, c->pod, node))
            continue;
        out[i] = ent[i] ? kp_selcount_node(ent[i], ni) :
                 kp_spread_count_matching(ni, &t->selector, c->pod->ns);
    }
}

struct count_ctx {
    const struct kp_cycle *c;
    const struct pts_state *s;
    struct kp_selcount_entry *const *ent;
    int64_t *out;               /* nnodes x s->n */
};

static bool
count_one(void *ctx, size_t i, struct kp_arena *a)
{
    const struct count_ctx *cc = ctx;

    (void)a;
    count_node(cc->c, cc->s, cc->ent, &cc->c->cl->nodes[i],
               &cc->out[i * cc->s->n]);
    return false;
}

/*
 * The nodes' counts, on the cycle's threads as upstream
 * (parallelize.Until), then added to the maps in node order: the maps
 * are those of the serial pass, slot for slot (CriticalPaths visits
 * them in slot order).
 */
static void
count_cluster(struct kp_cycle *c, struct pts_state *s,
              struct kp_selcount_entry *const *ent)
{
    size_t nn = c->cl->snap->nnodes, i, j;
    struct count_ctx cc;

    cc.c = c;
    cc.s = s;
    cc.ent = ent;
    cc.out = kp_arena_alloc_uninit(c->scratch,
                                   (nn * s->n + 1) * sizeof(*cc.out));
    if (c->pool && nn >= KP_PREFILTER_PARALLEL_MIN)
        kp_pool_run(c->pool, nn, 0, count_one, &cc, c->scratch);
    else
        for (i = 0; i < nn; i++)
            count_one(&cc, i, c->scratch);
    for (i = 0; i < nn; i++) {
        const struct kp_node *node = c->cl->nodes[i].node;

        for (j = 0; j < s->n; j++)
            if (cc.out[i * s->n + j] != NO_COUNT) {
                uint64_t h = 0;
                const char *v = node_pair(s, j, node, &h);

                kp_tpcount_add_hashed(c->scratch, &s->tp[j],
                                      s->cons[j].topology_key, v, h,
                                      cc.out[i * s->n + j]);
            }
    }
}

static const char *
prefixed(struct kp_arena *a, const char *prefix, const char *msg)
{
    size_t lp = strlen(prefix), lm = strlen(msg);
    char *out = kp_arena_alloc(a, lp + lm + 1);

    memcpy(out, prefix, lp);
    memcpy(out + lp, msg, lm + 1);
    return out;
}

/* calPreFilterState; NULL state (and Skip) without hard constraints. */
static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    struct kp_spread_tsc *cons;
    struct kp_selcount_entry **ent;
    struct pts_state *s;
    const char *err;
    size_t n, i;

    if (kp_spread_get_constraints_profile(c->scratch, c->cl->snap,
                                          c->pod, true,
                                          c->profile, &cons, &n, &err) < 0)
        return kp_status_new(KP_ERROR, prefixed(c->scratch,
                                                "get constraints from pod: ",
                                                err));
    if (n == 0)
        return kp_status_new(KP_SKIP, NULL);
    s = kp_arena_alloc(c->scratch, sizeof(*s));
    s->n = n;
    s->cons = cons;
    s->tp = kp_arena_alloc(c->scratch, n * sizeof(*s->tp));
    s->paths = kp_arena_alloc(c->scratch, n * sizeof(*s->paths));
    ent = kp_arena_alloc(c->scratch, n * sizeof(*ent));
    s->col = kp_arena_alloc(c->scratch, n * sizeof(*s->col));
    s->colh = kp_arena_alloc(c->scratch, n * sizeof(*s->colh));
    s->ns_hash = kp_ns_hash(c->pod->ns);
    s->ns_hash_on = kp_ns_hash_on();
    for (i = 0; i < n; i++) {
        s->col[i] = kp_cluster_label_column(c->cl, cons[i].topology_key);
        s->colh[i] = kp_cluster_label_column_hash(c->cl,
                                                  cons[i].topology_key);
        kp_tpcount_init(&s->tp[i]);
        if (n <= KP_SELCOUNT_HOLD)
            ent[i] = kp_selcount_spread(c->cl, &cons[i].selector,
                                        c->pod->ns);
    }
    count_cluster(c, s, ent);
    for (i = 0; i < n; i++)
        paths_init(&s->paths[i], &s->tp[i]);
    c->state[idx] = s;
    return kp_status_ok();
}

/* preFilterState.minMatchNum */
static int64_t
min_match_num(const struct pts_state *s, size_t i)
{
    if (s->tp[i].used < (size_t)s->cons[i].min_domains)
        return 0;
    return s->paths[i].num[0];
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    const struct pts_state *s = c->state[idx];
    size_t i;

    for (i = 0; s && i < s->n; i++) {
        const struct kp_spread_tsc *t = &s->cons[i];
        uint64_t h = 0;
        const char *v = node_pair(s, i, ni->node, &h);
        int64_t self, skew;

        if (!v)
            return kp_status_new(KP_UNRESOLVABLE,
                                 KP_REASON_SPREAD_MISSING_LABEL);
        self = kp_selector_matches(&t->selector, &c->pod->labels) ? 1 : 0;
        skew = kp_tpcount_get_hashed(&s->tp[i], t->topology_key, v, h) +
               self - min_match_num(s, i);
        if (skew > t->max_skew)
            return kp_status_new(KP_UNSCHEDULABLE, KP_REASON_SPREAD);
    }
    return kp_status_ok();
}

/*
 * delta pods of constraint i on node's domain, and the critical paths
 * with the domain's new count (the node has the constraint's key)
 */
static void
domain_add(struct kp_cycle *c, struct pts_state *s, size_t i,
           const struct kp_node *node, int64_t delta)
{
    const char *key = s->cons[i].topology_key;
    const struct kp_label *l = kp_labels_find(&node->labels, key);
    uint64_t h = kp_tpcount_label_hash(l);

    kp_tpcount_add_hashed(c->scratch, &s->tp[i], key, l->value, h, delta);
    paths_update(&s->paths[i], l->value,
                 kp_tpcount_get_hashed(&s->tp[i], key, l->value, h));
}

/*
 * updateWithPod, on c->state[idx] made c's own (kp_cycle_own_state) only
 * when a constraint counts q
 */
static void
update_with_pod(struct kp_cycle *c, int idx, const struct kp_pod *q,
                const struct kp_node *node, int64_t delta)
{
    const struct pts_state *s = c->state[idx];
    struct pts_state *w = NULL;
    size_t i;

    /* the same pointer first: namespaces are mostly interned */
    if (!s || (q->ns != c->pod->ns && strcmp(q->ns, c->pod->ns) != 0) ||
        !kp_spread_node_has_keys(node, s->cons, s->n))
        return;
    for (i = 0; i < s->n; i++)
        if (kp_selector_matches(&s->cons[i].selector, &q->labels) &&
            kp_spread_match_inclusion(&s->cons[i], c->pod, node)) {
            if (!w)
                w = kp_cycle_own_state(c, idx);
            domain_add(c, w, i, node, delta);
        }
}

static void
add_pod(struct kp_cycle *c, int idx, const struct kp_pod *pod,
        const struct kp_node_info *ni)
{
    update_with_pod(c, idx, pod, ni->node, 1);
}

static void
remove_pod(struct kp_cycle *c, int idx, const struct kp_pod *pod,
           const struct kp_node_info *ni)
{
    update_with_pod(c, idx, pod, ni->node, -1);
}

/*
 * The hooks with the victim table's pods (kp_plugin.add_table_pod and
 * the others, framework.h): a pod of another namespace than the
 * incoming pod's counts for no constraint (updateWithPod), and is passed
 * over on the table's namespace without reading the pod: on its hash
 * first, which differs for most of them.
 */
static bool
table_same_ns(const struct kp_cycle *c, const struct pts_state *s,
              const struct kp_victim_table *vt, size_t k)
{
    /* (ns is in the NodeInfo's order, pods[k] at position pos[k]) */
    uint32_t at = vt->pos[k];
    const char *ns;

    if (s->ns_hash_on && vt->ns_hash[at] != s->ns_hash)
        return false;
    ns = vt->ns[at];
    return ns == c->pod->ns || strcmp(ns, c->pod->ns) == 0;
}

static void
add_table_pod(struct kp_cycle *c, int idx, const struct kp_victim_table *vt,
              size_t k, const struct kp_node_info *ni)
{
    if (c->state[idx] && table_same_ns(c, c->state[idx], vt, k))
        update_with_pod(c, idx, vt->pods[k], ni->node, 1);
}

static void
remove_table_pod(struct kp_cycle *c, int idx,
                 const struct kp_victim_table *vt, size_t k,
                 const struct kp_node_info *ni)
{
    if (c->state[idx] && table_same_ns(c, c->state[idx], vt, k))
        update_with_pod(c, idx, vt->pods[k], ni->node, -1);
}

/*
 * RemovePod of the table's pods first.. (all of ni) at once: each
 * constraint's matching pods leave one domain, the node's, so they are
 * counted, taken off in one addition, and the critical paths updated
 * once with the domain's final count, which leaves them as one update
 * per pod would (a count that only falls passes the same thresholds).
 * The node's labels are read only when a pod matches.
 */
#define TABLE_CONS 8

static void
remove_table_pods(struct kp_cycle *c, int idx,
                  const struct kp_victim_table *vt, size_t first,
                  const struct kp_node_info *ni)
{
    struct pts_state *s = c->state[idx];
    int64_t stack[TABLE_CONS], *cnt = stack;
    const struct kp_node *node = ni->node;
    bool any = false;
    size_t i, k;

    if (!s || s->n == 0 || first >= vt->n)
        return;
    if (s->n > TABLE_CONS)
        cnt = kp_arena_alloc_uninit(c->scratch, s->n * sizeof(*cnt));
    memset(cnt, 0, s->n * sizeof(*cnt));
    for (k = first; k < vt->n; k++) {
        const struct kp_labels *labels;

        if (!table_same_ns(c, s, vt, k))
            continue;
        labels = &vt->pods[k]->labels;
        for (i = 0; i < s->n; i++)
            if (kp_selector_matches(&s->cons[i].selector, labels)) {
                cnt[i]++;
                any = true;
            }
    }
    if (!any || !kp_spread_node_has_keys(node, s->cons, s->n))
        return;
    s = kp_cycle_own_state(c, idx);
    for (i = 0; i < s->n; i++)
        if (cnt[i] && kp_spread_match_inclusion(&s->cons[i], c->pod, node))
            domain_add(c, s, i, node, -cnt[i]);
}

static void *
clone_state(struct kp_arena *a, const void *state)
{
    const struct pts_state *s = state;
    struct pts_state *d = kp_arena_alloc(a, sizeof(*d));
    size_t i;

    *d = *s;
    d->tp = kp_arena_alloc(a, s->n * sizeof(*d->tp));
    for (i = 0; i < s->n; i++)
        kp_tpcount_clone(&d->tp[i], &s->tp[i]);
    d->paths = kp_arena_memdup(a, s->paths, s->n * sizeof(*s->paths));
    return d;
}

const struct kp_plugin kp_plugin_pod_topology_spread = {
    .name = "PodTopologySpread",
    .pre_filter = pre_filter,
    .filter = filter,
    .add_pod = add_pod,
    .remove_pod = remove_pod,
    .add_table_pod = add_table_pod,
    .remove_table_pod = remove_table_pod,
    .remove_table_pods = remove_table_pods,
    .clone_state = clone_state,
    .add_pod_owns = true,
};

/* ---- read-only views for tests (plugin_state.h) ---- */

size_t
kp_pts_state_nconstraints(const void *state)
{
    return state ? ((const struct pts_state *)state)->n : 0;
}

int64_t
kp_pts_state_match_num(const void *state, size_t i, const char *value)
{
    const struct pts_state *s = state;

    if (!s || i >= s->n ||
        !kp_tpcount_has(&s->tp[i], s->cons[i].topology_key, value))
        return -1;
    return kp_tpcount_get(&s->tp[i], s->cons[i].topology_key, value);
}

size_t
kp_pts_state_domains(const void *state, size_t i)
{
    const struct pts_state *s = state;

    return s && i < s->n ? s->tp[i].used : 0;
}

int64_t
kp_pts_state_min_match(const void *state, size_t i)
{
    const struct pts_state *s = state;

    return s && i < s->n ? s->paths[i].num[0] : MAX_INT32;
}

/* the smallest count of any domain (MAX_INT32 for none), as PreFilter */
struct min_ctx {
    const struct kp_tpcount *m;
    int64_t min;
};

static void
min_pair(void *arg, const char *key, const char *value)
{
    struct min_ctx *x = arg;
    int64_t n = kp_tpcount_get(x->m, key, value);

    if (n < x->min)
        x->min = n;
}

bool
kp_pts_state_same(const void *a, const void *b, char *why, size_t whylen)
{
    const struct pts_state *sa = a, *sb = b;
    size_t na = sa ? sa->n : 0, nb = sb ? sb->n : 0, i;
    char sub[256];

    if (na != nb) {
        snprintf(why, whylen, "PodTopologySpread: %zu constraints, want %zu",
                 na, nb);
        return false;
    }
    for (i = 0; i < na; i++) {
        struct min_ctx x = {&sa->tp[i], MAX_INT32};

        if (!kp_tpcount_same(&sa->tp[i], &sb->tp[i], true, sub,
                             sizeof(sub))) {
            snprintf(why, whylen, "PodTopologySpread constraint %zu "
                     "TpValueToMatchNum %s", i, sub);
            return false;
        }
        kp_tpcount_each_pair(&sa->tp[i], min_pair, &x);
        if (sa->paths[i].num[0] != x.min) {
            snprintf(why, whylen, "PodTopologySpread constraint %zu: "
                     "critical path minimum %lld, domains' minimum %lld", i,
                     (long long)sa->paths[i].num[0], (long long)x.min);
            return false;
        }
    }
    return true;
}
