/*
 * scoring.c - mirrors pkg/scheduler/framework/plugins/
 * podtopologyspread/scoring.go (initPreScoreState, PreScore, Score,
 * NormalizeScore, topologyNormalizingWeight, scoreForCount) for the
 * whenUnsatisfiable: ScheduleAnyway constraints, the system default
 * ones included (spread.h: when they apply in a snapshot).
 *
 * A node scores, per constraint, matching pods in its domain x
 * log(domains + 2) + maxSkew - 1 (rounded sum); fewer is better after
 * normalization.  Nodes missing a key of the pod's own constraints are
 * ignored (score 0); with the system defaults they are not (a node
 * without a zone label still gets hostname spreading).
 */
#include <math.h>
#include <string.h>

#include "config.h"
#include "score.h"
#include "selcount.h"
#include "spread.h"
#include "pool.h"
#include "tpcount.h"

/*
 * A constraint's domains by value pointer, when it has few: the nodes
 * of a zone share the pointer of its value (kp_cluster_label_column),
 * so most nodes find their domain's entry without hashing the pair.
 */
#define PS_FEW_DOMAINS 8

struct ps_domains {
    size_t n;                   /* 0: look every value up */
    const char *value[PS_FEW_DOMAINS];
    struct kp_tpcount_slot *e[PS_FEW_DOMAINS];
};

struct pts_score_state {
    const struct kp_cluster *cl;
    size_t n;
    const struct kp_spread_tsc *cons;
    bool require_all;           /* requireAllTopologies */
    bool *ignored;              /* IgnoredNodes, by index into f->nodes */
    struct kp_tpcount *counts;  /* TopologyValueToPodCounts */
    struct kp_selcount_entry **ent;     /* per constraint, or NULL */
    const char *const **col;    /* per constraint: label column, or NULL */
    double *weight;             /* TopologyNormalizingWeight */
    const struct ps_domains *dom;       /* per constraint (few_domains) */
    /* per constraint: its topologyKey is the hostname label (is_hostname) */
    const bool *host;
};

static bool
is_hostname(const struct kp_spread_tsc *t)
{
    return strcmp(t->topology_key, KP_LABEL_HOSTNAME) == 0;
}

/*
 * Constraint k's topology value of the cluster's node i, NULL when
 * absent: from the label column by index (issue 31: not through the
 * NodeInfo's node, two reads of other lines per node and pod)
 */
static const char *
node_value(const struct pts_score_state *s, size_t k, size_t i)
{
    return s->col[k] ? s->col[k][i] :
           kp_labels_get(&s->cl->nodes[i].node->labels,
                         s->cons[k].topology_key);
}

/* node.Labels[key]: "" when absent, as a Go map reads. */
static const char *
label_or_empty(const struct pts_score_state *s, size_t k, size_t i)
{
    const char *v = node_value(s, k, i);

    return v ? v : "";
}

/* kp_spread_node_has_keys over the columns */
static bool
node_has_keys(const struct pts_score_state *s, size_t i)
{
    size_t k;

    for (k = 0; k < s->n; k++)
        if (!node_value(s, k, i))
            return false;
    return true;
}

/*
 * Constraint k's domain v, present with a count of 0 afterwards (an
 * addition of 0).  A value pointer added before (the nodes of a zone
 * share theirs) adds nothing new: seen remembers the first few.
 */
static void
add_domain(struct kp_arena *a, struct pts_score_state *s, size_t k,
           struct ps_domains *seen, const char *v)
{
    size_t j;

    for (j = 0; j < seen->n; j++)
        if (seen->value[j] == v)
            return;
    kp_tpcount_add(a, &s->counts[k], s->cons[k].topology_key, v, 0);
    if (seen->n < PS_FEW_DOMAINS)
        seen->value[seen->n++] = v;
}

/* initPreScoreState over the nodes being scored. */
static void
init_state(const struct kp_score_nodes *f, struct pts_score_state *s)
{
    struct kp_arena *a = f->c->scratch;
    size_t i, k, nignored = 0;

    s->ignored = kp_arena_alloc(a, (f->n + 1) * sizeof(bool));
    s->counts = kp_arena_alloc(a, s->n * sizeof(*s->counts));
    s->weight = kp_arena_alloc(a, s->n * sizeof(*s->weight));
    struct ps_domains *seen = kp_arena_alloc(a, (s->n + 1) * sizeof(*seen));

    for (k = 0; k < s->n; k++)
        kp_tpcount_init(&s->counts[k]);
    for (i = 0; i < f->n; i++) {
        size_t node = (size_t)f->nodes[i];

        if (s->require_all && !node_has_keys(s, node)) {
            s->ignored[i] = true;
            nignored++;
            continue;
        }
        for (k = 0; k < s->n; k++)
            if (!s->host[k])
                add_domain(a, s, k, &seen[k], label_or_empty(s, k, node));
    }
    for (k = 0; k < s->n; k++) {
        size_t sz = s->host[k] ? f->n - nignored :
                    s->counts[k].used;

        s->weight[k] = log((double)sz + 2);
    }
}

/* what one node adds to one constraint's counts */
struct ps_count {
    struct kp_tpcount_slot *e;  /* the domain's entry */
    int64_t n;
    size_t k;                   /* the constraint */
};

/* nodes per item of the count pass */
#define PS_CHUNK 64

struct ps_count_ctx {
    const struct kp_cycle *c;
    const struct pts_score_state *s;
    const struct ps_domains *dom;       /* per constraint */
    /*
     * Per chunk j of PS_CHUNK nodes, from out[j * PS_CHUNK * s->n]: what
     * its nodes add that is not 0, in node then constraint order, nout[j]
     * of them
     */
    struct ps_count *out;
    size_t *nout;
};

/* The entry of constraint k's domain v (kp_tpcount_entry's answer). */
static struct kp_tpcount_slot *
domain_entry(const struct ps_count_ctx *cc, size_t k, const char *v)
{
    const struct ps_domains *d = &cc->dom[k];
    size_t j;

    for (j = 0; j < d->n; j++)
        if (d->value[j] == v)
            return d->e[j];
    /* another pointer to an equal string, or many domains: look it up */
    return kp_tpcount_entry(&cc->s->counts[k], cc->s->cons[k].topology_key,
                            v);
}

/* cc->dom: the domains of the constraints that have few. */
static void
few_domains(struct ps_count_ctx *cc, struct kp_arena *a)
{
    const struct pts_score_state *s = cc->s;
    struct ps_domains *dom = kp_arena_alloc(a, (s->n + 1) * sizeof(*dom));
    size_t k, i;

    for (k = 0; k < s->n; k++) {
        const struct kp_tpcount *m = &s->counts[k];

        dom[k].n = 0;
        if (m->base || m->nslots > PS_FEW_DOMAINS)
            continue;
        for (i = 0; i < m->cap; i++)
            if (m->slots[i].key) {
                dom[k].value[dom[k].n] = m->slots[i].value;
                dom[k].e[dom[k].n++] = &m->slots[i];
            }
    }
    cc->dom = dom;
}

/*
 * processAllNode's per-node part: what node i adds to each constraint's
 * counts, and the entry it adds to (found here, so that the additions
 * afterwards need no lookup), kept in *out when not 0 (an addition of 0
 * changes no count).  Reads only (s->counts is complete before this pass
 * and gains no entry during it): the nodes may be counted on several
 * threads.
 */
static void
ps_count_node(const struct ps_count_ctx *cc, size_t i, struct ps_count *out,
              size_t *nout)
{
    const struct kp_cycle *c = cc->c;
    const struct pts_score_state *s = cc->s;
    const struct kp_node_info *ni = &c->cl->nodes[i];
    size_t k;

    if (s->require_all && !node_has_keys(s, i))
        return;
    for (k = 0; k < s->n; k++) {
        const struct kp_spread_tsc *t = &s->cons[k];
        struct kp_tpcount_slot *e;
        const char *v;
        int64_t n;

        /*
         * initPreScoreState gives the hostname constraints no domain
         * ("per-node counts are calculated during Score"), so
         * processAllNode's lookup of their value never finds one: the
         * lookup is skipped, the answer is the same.
         */
        if (s->host[k])
            continue;
        v = label_or_empty(s, k, i);
        if (!kp_spread_match_inclusion(t, c->pod, ni->node))
            continue;
        e = domain_entry(cc, k, v);
        if (!e)
            continue;
        n = s->ent[k] ? kp_selcount_node(s->ent[k], ni) :
            kp_spread_count_matching(ni, &t->selector, c->pod->ns);
        if (n) {
            out[*nout].e = e;
            out[*nout].n = n;
            out[(*nout)++].k = k;
        }
    }
}

/* the nodes of chunk j (PS_CHUNK of them, the last fewer) */
static bool
ps_count_chunk(void *ctx, size_t j, struct kp_arena *a)
{
    const struct ps_count_ctx *cc = ctx;
    size_t nn = cc->c->cl->snap->nnodes, i, end;
    struct ps_count *out = &cc->out[j * PS_CHUNK * cc->s->n];

    (void)a;
    cc->nout[j] = 0;
    end = nn - j * PS_CHUNK > PS_CHUNK ? (j + 1) * PS_CHUNK : nn;
    for (i = j * PS_CHUNK; i < end; i++)
        ps_count_node(cc, i, out, &cc->nout[j]);
    return false;
}

/*
 * PreScore's processAllNode: matching pods of the known domains, every
 * node counted on the cycle's threads as upstream (parallelize.Until),
 * then added to the entries found, in node order, as the serial pass
 * would.
 */
static void
count_all_nodes(const struct kp_cycle *c, struct pts_score_state *s)
{
    size_t nn = c->cl->snap->nnodes, nchunks = (nn + PS_CHUNK - 1) / PS_CHUNK;
    size_t i, j;
    struct ps_count_ctx cc;

    cc.c = c;
    cc.s = s;
    few_domains(&cc, c->scratch);
    s->dom = cc.dom;
    cc.out = kp_arena_alloc_uninit(c->scratch,
                                   (nn * s->n + 1) * sizeof(*cc.out));
    cc.nout = kp_arena_alloc_uninit(c->scratch,
                                    (nchunks + 1) * sizeof(*cc.nout));
    if (c->pool && nn >= KP_PREFILTER_PARALLEL_MIN)
        kp_pool_run(c->pool, nchunks, 1, ps_count_chunk, &cc, c->scratch);
    else
        for (j = 0; j < nchunks; j++)
            ps_count_chunk(&cc, j, c->scratch);
    /* in node order, as the serial pass adds them */
    for (j = 0; j < nchunks; j++) {
        const struct ps_count *out = &cc.out[j * PS_CHUNK * s->n];

        for (i = 0; i < cc.nout[j]; i++)
            kp_tpcount_add_entry(&s->counts[out[i].k], out[i].e, out[i].n);
    }
}

static bool
pts_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_cycle *c = f->c;
    struct pts_score_state *s = kp_arena_alloc(c->scratch, sizeof(*s));
    struct kp_spread_tsc *cons;
    const char *err;
    bool *host;
    size_t i;

    if (c->cl->snap->nnodes == 0 ||
        kp_spread_get_constraints_profile(c->scratch, c->cl->snap,
                                          c->pod, false,
                                          c->profile, &cons, &s->n,
                                          &err) < 0 || s->n == 0)
        return false;
    s->cons = cons;
    /* requireAllTopologies: own constraints, or not systemDefaulted */
    s->require_all = c->pod->nspread > 0 ||
                     (c->profile && c->profile->pts_list_defaulting);
    s->cl = c->cl;
    s->col = kp_arena_alloc(c->scratch, s->n * sizeof(*s->col));
    host = kp_arena_alloc(c->scratch, s->n * sizeof(*host));
    for (i = 0; i < s->n; i++) {
        s->col[i] = kp_cluster_label_column(c->cl, cons[i].topology_key);
        host[i] = is_hostname(&cons[i]);
    }
    s->host = host;
    init_state(f, s);
    s->ent = kp_arena_alloc(c->scratch, s->n * sizeof(*s->ent));
    for (i = 0; i < s->n && s->n <= KP_SELCOUNT_HOLD; i++)
        s->ent[i] = kp_selcount_spread(c->cl, &cons[i].selector, c->pod->ns);
    count_all_nodes(c, s);
    *state = s;
    return true;
}

/* constraint k's count of domain v: by value pointer when it has few */
static int64_t
domain_count(const struct pts_score_state *s, size_t k, const char *v)
{
    const struct ps_domains *d = &s->dom[k];
    size_t j;

    for (j = 0; j < d->n; j++)
        if (d->value[j] == v)
            return d->e[j]->n;
    return kp_tpcount_get(&s->counts[k], s->cons[k].topology_key, v);
}

/* scoreForCount */
static double
score_for_count(int64_t cnt, int32_t max_skew, double weight)
{
    return (double)cnt * weight + (double)(max_skew - 1);
}

static int64_t
pts_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    const struct pts_score_state *s = state;
    double score = 0;
    size_t k;

    if (s->ignored[idx])
        return 0;
    for (k = 0; k < s->n; k++) {
        const struct kp_spread_tsc *t = &s->cons[k];
        const char *v = node_value(s, k, (size_t)ni->index);
        int64_t cnt;

        if (!v)
            continue;
        cnt = s->host[k] ?
              (s->ent[k] ? kp_selcount_node(s->ent[k], ni) :
               kp_spread_count_matching(ni, &t->selector, f->c->pod->ns)) :
              domain_count(s, k, v);
        score += score_for_count(cnt, t->max_skew, s->weight[k]);
    }
    return (int64_t)round(score);
}

static void
pts_normalize(const struct kp_score_nodes *f, void *state, int64_t *scores)
{
    const struct pts_score_state *s = state;
    int64_t min = INT64_MAX, max = 0;
    size_t i;

    for (i = 0; i < f->n; i++) {
        if (s->ignored[i])
            continue;
        if (scores[i] < min)
            min = scores[i];
        if (scores[i] > max)
            max = scores[i];
    }
    for (i = 0; i < f->n; i++) {
        if (s->ignored[i])
            scores[i] = 0;
        else if (max == 0)
            scores[i] = KP_MAX_NODE_SCORE;
        else
            scores[i] = KP_MAX_NODE_SCORE * (max + min - scores[i]) / max;
    }
}

const struct kp_score_plugin kp_score_pod_topology_spread = {
    .name = "PodTopologySpread",
    .weight = 2,
    .pre_score = pts_pre_score,
    .score = pts_score,
    .normalize = pts_normalize,
};
