/*
 * scoring.c - mirrors pkg/scheduler/framework/plugins/
 * interpodaffinity/scoring.go (PreScore, processExistingPod, Score,
 * NormalizeScore) with the default InterPodAffinityArgs
 * (hardPodAffinityWeight 1, ignorePreferredTermsOfExistingPods false).
 *
 * For every pod q on a labelled node, in the domain of q's node:
 * + weight of each preferred affinity term of the incoming pod that q
 *   matches, - weight of each such anti-affinity term;
 * + 1 for each required affinity term of q that the incoming pod
 *   matches; + / - weight of each preferred (anti-)affinity term of q
 *   that the incoming pod matches.  A node scores the sum over its
 *   domains, normalized to 0..100 between the lowest and highest score.
 * The incoming pod's namespaceSelectors are resolved once in PreScore
 * (mergeAffinityTermNamespacesIfNotEmpty); existing pods' terms see the
 * incoming pod's namespace labels.  A pod whose terms do not parse fails
 * upstream's PreFilter first; a parse error here skips the plugin.
 */
#include <stdatomic.h>
#include <string.h>

#include "config.h"
#include "score.h"
#include "podinfo.h"
#include "pool.h"
#include "selcount.h"
#include "tpcount.h"
#include "selfcheck.h"
#include "shortcut.h"
#include "term_domains.h"

#define HARD_POD_AFFINITY_WEIGHT 1

/* The incoming pod's preferred terms after the namespaceSelector merge. */
struct ipa_score_state {
    struct kp_tpcount m;                /* topologyScore */
    const unsigned char **aff_sel, **anti_sel;
    const struct kp_labels *ns_labels;  /* namespaceLabels */
    int64_t hard_weight;                /* args.HardPodAffinityWeight */
    size_t nkeys;                       /* the topology keys in m */
    const char **keys;
    const char *const **kcol;           /* per key: label column or NULL */
};

/* one addition to topologyScore, kept for later (the node pass) */
struct sc_rec {
    const char *key, *value;
    int64_t delta;
};

/*
 * Where the additions go: straight into the map (defer false), or, on
 * the pool's threads, into a node's list in the order the serial pass
 * makes them, added node by node afterwards.
 */
struct sc_emit {
    struct kp_arena *a;
    struct kp_tpcount *m;
    bool defer;
    struct sc_rec *r;
    size_t n, cap;
};

static void
sc_add(struct sc_emit *em, const char *key, const char *value, int64_t delta)
{
    if (!em->defer) {
        kp_tpcount_add(em->a, em->m, key, value, delta);
        return;
    }
    if (em->n == em->cap) {
        size_t cap = em->cap * 2 + 4;
        struct sc_rec *r = kp_arena_alloc_uninit(em->a, cap * sizeof(*r));

        if (em->n)
            memcpy(r, em->r, em->n * sizeof(*r));
        em->r = r;
        em->cap = cap;
    }
    em->r[em->n].key = key;
    em->r[em->n].value = value;
    em->r[em->n++].delta = delta;
}

/* scoreMap.processTerm, once the term is known to match. */
static void
add_term(struct sc_emit *em, const struct kp_affinity_term *t,
         const struct kp_node *node, int64_t weight)
{
    const char *v = kp_labels_get(&node->labels, t->topology_key);

    if (v)
        sc_add(em, t->topology_key, v, weight);
}

/*
 * processTerm(s) over an existing pod's terms against the incoming pod p;
 * weight 0 takes each term's own weight (times sign).
 */
static void
process_existing_terms(struct sc_emit *em,
                       const struct kp_affinity_term *t, size_t n,
                       const char *owner_ns, const struct kp_pod *p,
                       const struct kp_labels *ns_labels,
                       const struct kp_node *node, int64_t weight,
                       int64_t sign)
{
    size_t i;

    n = kp_affinity_terms_usable(t, n);
    for (i = 0; i < n; i++)
        if (kp_existing_term_matches(&t[i], owner_ns, p, ns_labels))
            add_term(em, &t[i], node,
                     (weight ? weight : t[i].weight) * sign);
}

/*
 * processTerms over the incoming pod's weighted terms for all pods of a
 * node at once: each term adds its weight (times sign) once per pod it
 * matches, the pods counted by selcount (ent[i], kept across pods) or
 * one by one (ent NULL).
 */
static void
process_incoming_terms_node(struct sc_emit *em,
                            const struct kp_affinity_term *t,
                            const unsigned char *const *sel, size_t n,
                            struct kp_selcount_entry *const *ent,
                            const char *const *const *col,
                            const char *owner_ns,
                            const struct kp_node_info *ni, int64_t sign)
{
    size_t i, j;

    n = kp_affinity_terms_usable(t, n);
    for (i = 0; i < n; i++) {
        const char *v = col && col[i] ? col[i][ni->node->index] :
                        kp_labels_get(&ni->node->labels, t[i].topology_key);
        int64_t cnt = 0;

        if (!v)
            continue;
        if (ent)
            cnt = kp_selcount_node(ent[i], ni);
        else
            for (j = 0; j < ni->npods; j++)
                cnt += kp_incoming_term_matches(&t[i], sel ? sel[i] : NULL,
                                                owner_ns, ni->pods[j]);
        if (cnt > 0)
            sc_add(em, t[i].topology_key, v, t[i].weight * sign * cnt);
    }
}

/*
 * processExistingPod's part that reads the existing pod's own terms
 * (those of the incoming pod are counted per node above).
 */
static void
process_existing_pod(struct sc_emit *em, const struct ipa_score_state *st,
                     const struct kp_pod *p, const struct kp_pod *q,
                     const struct kp_node *node)
{
    if (node->labels.n == 0)
        return;
    if (st->hard_weight > 0)
        process_existing_terms(em, q->affinity, q->naffinity, q->ns, p,
                               st->ns_labels, node, st->hard_weight, 1);
    process_existing_terms(em, q->pref_affinity, q->npref_affinity, q->ns,
                           p, st->ns_labels, node, 0, 1);
    process_existing_terms(em, q->pref_anti_affinity,
                           q->npref_anti_affinity, q->ns, p, st->ns_labels,
                           node, 0, -1);
}

/*
 * processExistingPod's part that reads the existing pods' own terms, for
 * a node whose table groups them (selcount.h): each distinct term is
 * matched against the incoming pod once per cycle (memo: 0 not yet, 1
 * no, 2 yes; the threads may race to fill an entry in: they find the
 * same answer) and adds its weight times the pods carrying it.
 */
/*
 * The weight the existing pods' interned term id adds per pod carrying
 * it for the incoming pod p (0: nothing, it does not match or its kind
 * is not weighed): matched once per cycle, kept in memo (0 not yet, 1
 * no, 2 yes; the threads may race to fill an entry in: they find the
 * same answer).
 */
static int64_t
group_weight(const struct ipa_score_state *st, const struct kp_cluster *cl,
             const struct kp_pod *p, uint32_t id,
             _Atomic unsigned char *memo, const struct kp_term_ref **rp)
{
    unsigned char m = atomic_load_explicit(&memo[id], memory_order_relaxed);
    const struct kp_term_ref *r;

    /* a term known not to match adds nothing, whatever its kind */
    if (m == 1)
        return 0;
    r = kp_term_get(cl, id);
    *rp = r;
    if (r->kind == KP_TERM_REQ_AFF && st->hard_weight <= 0)
        return 0;
#ifdef KP_SELFCHECK
    if (m && m != (unsigned char)(1 + kp_existing_term_matches(
            r->t, r->owner_ns, p, st->ns_labels)))
        kp_selfcheck_fail("InterPodAffinity PreScore of %s/%s: kept "
                          "match of term %u differs", p->ns, p->name,
                          (unsigned)id);
#endif
    if (!m) {
        m = (unsigned char)(1 + kp_existing_term_matches(
            r->t, r->owner_ns, p, st->ns_labels));
        atomic_store_explicit(&memo[id], m, memory_order_relaxed);
    }
    if (m != 2)
        return 0;
    return r->kind == KP_TERM_REQ_AFF ? st->hard_weight :
           r->kind == KP_TERM_PREF_AFF ? (int64_t)r->t->weight :
           -(int64_t)r->t->weight;
}

static void
existing_groups(struct sc_emit *em, const struct ipa_score_state *st,
                const struct kp_cluster *cl, const struct kp_pod *p,
                const struct kp_victim_table *vt, const struct kp_node *node,
                _Atomic unsigned char *memo)
{
    size_t g;

    for (g = 0; g < vt->ngrp; g++) {
        const struct kp_term_ref *r = NULL;
        int64_t w = group_weight(st, cl, p, vt->grp_id[g], memo, &r);

        if (w)
            add_term(em, r->t, node, w * vt->grp_mult[g]);
    }
}

/* existing_from_domains's adds of one term's domains, times its weight */
struct domain_add {
    struct kp_arena *a;
    struct kp_tpcount *m;
    const char *key;
    int64_t w;
};

static void
domain_add(void *arg, const char *value, uint64_t h, int64_t n)
{
    const struct domain_add *da = arg;

    if (n != 0)
        kp_tpcount_add_hashed(da->a, da->m, da->key, value, h, da->w * n);
}

/* existing_from_domains's pass over the terms */
struct from_domains {
    const struct kp_cycle *c;
    struct ipa_score_state *st;
    const struct kp_term_domains *d;
    _Atomic unsigned char *memo;
};

static void
term_from_domains(void *arg, uint32_t id)
{
    const struct from_domains *fd = arg;
    const struct kp_tpcount *m = kp_term_domains_get(fd->d, id);
    const struct kp_term_ref *r = NULL;
    struct domain_add da;

    if (m->nonzero == 0)
        return;
    da.w = group_weight(fd->st, fd->c->cl, fd->c->pod, id, fd->memo, &r);
    if (!da.w)
        return;
    da.a = fd->c->scratch;
    da.m = &fd->st->m;
    da.key = r->t->topology_key;
    kp_tpcount_each(m, domain_add, &da);
}

/*
 * processExistingPod's part that reads the existing pods' own terms,
 * from the cluster's term domains (term_domains.h): each term PreScore
 * reads that may match the pod (by its labels), matched once, adds its
 * weight times its pods in each domain (the node pass adds, node by
 * node, the same sums).
 */
static void
existing_from_domains(const struct kp_cycle *c, struct ipa_score_state *st,
                      const struct kp_term_domains *d,
                      _Atomic unsigned char *memo)
{
    struct from_domains fd = {c, st, d, memo};

    kp_term_domains_visit(c->cl, d, true, &c->pod->labels,
                          term_from_domains, &fd);
}

/* The distinct topology keys of st->m, and their label columns. */
static void
score_keys(const struct kp_cycle *c, struct ipa_score_state *st)
{
    const struct kp_tpcount *m = &st->m;
    size_t i, k, cap = 4;

    st->nkeys = 0;
    st->keys = kp_arena_alloc(c->scratch, cap * sizeof(*st->keys));
    for (i = 0; i < m->cap; i++) {
        const char *key = m->slots[i].key;

        if (!key)
            continue;
        for (k = 0; k < st->nkeys; k++)
            if (st->keys[k] == key || strcmp(st->keys[k], key) == 0)
                break;
        if (k < st->nkeys)
            continue;
        if (st->nkeys == cap) {
            const char **keys = kp_arena_alloc(c->scratch,
                                               2 * cap * sizeof(*keys));

            memcpy(keys, st->keys, cap * sizeof(*keys));
            st->keys = keys;
            cap *= 2;
        }
        st->keys[st->nkeys++] = key;
    }
    st->kcol = kp_arena_alloc(c->scratch, (st->nkeys + 1) * sizeof(*st->kcol));
    for (k = 0; k < st->nkeys; k++)
        st->kcol[k] = kp_cluster_label_column(c->cl, st->keys[k]);
}

/* what PreScore's node pass reads */
struct sc_node_ctx {
    const struct kp_cycle *c;
    const struct ipa_score_state *st;
    bool own;                   /* the incoming pod has preferred terms */
    struct kp_selcount_entry **aff_ent, **anti_ent;
    const char *const **aff_col;
    const char *const **anti_col;
    _Atomic unsigned char *memo;
    bool domains;               /* the existing pods' terms counted */
    struct sc_emit *out;        /* by node, the pool's pass */
};

/* processExistingPod for the pods of node i. */
static void
score_node(const struct sc_node_ctx *nc, size_t i, struct sc_emit *em)
{
    const struct kp_cycle *c = nc->c;
    const struct ipa_score_state *st = nc->st;
    const struct kp_pod *p = c->pod;
    const struct kp_node_info *ni = &c->cl->nodes[i];
    const struct kp_victim_table *vt = kp_node_table(c->cl, (int)i);
    size_t j;

    if (ni->node->labels.n == 0)
        return;
    if (nc->own) {
        process_incoming_terms_node(em, p->pref_affinity, st->aff_sel,
                                    p->npref_affinity, nc->aff_ent,
                                    nc->aff_col, p->ns, ni, 1);
        process_incoming_terms_node(em, p->pref_anti_affinity, st->anti_sel,
                                    p->npref_anti_affinity, nc->anti_ent,
                                    nc->anti_col, p->ns, ni, -1);
    }
    /* (the term domains hold every node's existing pods' terms) */
    if (nc->domains)
        return;
    if (vt && vt->grp_ready) {
        existing_groups(em, st, c->cl, p, vt, ni->node, nc->memo);
        return;
    }
    if (vt) {
        for (j = 0; j < vt->naff; j++)
            process_existing_pod(em, st, p, vt->aff[j], ni->node);
        return;
    }
    for (j = 0; j < ni->npods; j++)
        if (kp_pod_has_scored_affinity(ni->pods[j]))
            process_existing_pod(em, st, p, ni->pods[j], ni->node);
}

static bool
score_one(void *ctx, size_t i, struct kp_arena *a)
{
    const struct sc_node_ctx *nc = ctx;
    struct sc_emit *em = &nc->out[i];

    em->a = a;
    em->m = NULL;
    em->defer = true;
    em->r = NULL;
    em->n = em->cap = 0;
    score_node(nc, i, em);
    return false;
}

/* whether a and b read alike for an existing pod's term (ns, labels) */
static bool
same_incoming(const struct kp_pod *a, const struct kp_pod *b)
{
    size_t i;

    if (a == b)
        return true;
    if (strcmp(a->ns, b->ns) != 0 || a->labels.n != b->labels.n)
        return false;
    for (i = 0; i < a->labels.n; i++)
        if (strcmp(a->labels.items[i].key, b->labels.items[i].key) != 0 ||
            strcmp(a->labels.items[i].value, b->labels.items[i].value) != 0)
            return false;
    return true;
}

/*
 * The cluster's kept matches (kp_caches.ipa_memo) for c's pod, nterms + 1
 * long, or NULL (a cycle not alone, KP_NO_IPA_MEMO=1): kept when the pod
 * before had the same namespace and labels, else cleared.  Terms interned
 * since are unknown (0).
 */
static _Atomic unsigned char *
kept_memo(const struct kp_cycle *c, size_t nterms)
{
    struct kp_caches *cc = c->cl->caches;
    bool same;
    size_t i, from;

    if (!c->alone || kp_shortcut_off("KP_NO_IPA_MEMO"))
        return NULL;
    same = cc->ipa_memo_pod && same_incoming(cc->ipa_memo_pod, c->pod);
    from = same ? cc->ipa_memo_cap : 0;
    if (nterms + 1 > cc->ipa_memo_cap) {
        size_t cap = (nterms + 1) * 2;

        cc->ipa_memo = kp_xrealloc((void *)cc->ipa_memo,
                                   cap * sizeof(*cc->ipa_memo));
        cc->ipa_memo_cap = cap;
    }
    for (i = from; i < cc->ipa_memo_cap; i++)
        atomic_init(&cc->ipa_memo[i], 0);
    cc->ipa_memo_pod = c->pod;
    return cc->ipa_memo;
}

/*
 * The node pass: score_node over every node, into m; on the pool's
 * threads, each node's additions kept and added in node order after
 */
static void
node_pass(struct sc_node_ctx *nc, struct kp_tpcount *m)
{
    const struct kp_cycle *c = nc->c;
    size_t i, j, n = c->cl->snap->nnodes;

    if (!c->pool || n < KP_PREFILTER_PARALLEL_MIN) {
        struct sc_emit em = {c->scratch, m, false, NULL, 0, 0};

        for (i = 0; i < n; i++)
            score_node(nc, i, &em);
        return;
    }
    nc->out = kp_arena_alloc(c->scratch, n * sizeof(*nc->out));
    kp_pool_run(c->pool, n, 0, score_one, nc, c->scratch);
    for (i = 0; i < n; i++)
        for (j = 0; j < nc->out[i].n; j++)
            kp_tpcount_add(c->scratch, m, nc->out[i].r[j].key,
                           nc->out[i].r[j].value, nc->out[i].r[j].delta);
}

#ifdef KP_SELFCHECK
/*
 * The self-check build: topologyScore made with the term domains against
 * the same made by the node pass alone, entry for entry.
 */
static void
check_domains(const struct sc_node_ctx *nc, const struct ipa_score_state *st)
{
    struct sc_node_ctx walk = *nc;
    struct kp_tpcount m;
    char why[256];

    kp_tpcount_init(&m);
    walk.domains = false;
    walk.out = NULL;
    node_pass(&walk, &m);
    kp_selfcheck_count();
    if (!kp_tpcount_same(&st->m, &m, true, why, sizeof(why)))
        kp_selfcheck_fail("InterPodAffinity PreScore of %s/%s: the term "
                          "domains' topologyScore differs from the node "
                          "walk's: %s", nc->c->pod->ns, nc->c->pod->name,
                          why);
}
#endif

static bool
ipa_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_cycle *c = f->c;
    const struct kp_snapshot *snap = c->cl->snap;
    struct ipa_score_state *st;
    struct kp_selcount_entry **aff_ent = NULL, **anti_ent = NULL;
    const char *const **aff_col = NULL;
    const char *const **anti_col = NULL;
    _Atomic unsigned char *memo;
    struct sc_node_ctx nc;
    const struct kp_term_domains *d;
    const struct kp_pod *p;
    size_t i, j, nterms;
    bool own;

    if (kp_pod_info_parse_error(c->scratch, c->pod))
        return false;
    /* args.IgnorePreferredTermsOfExistingPods: Skip without own terms */
    if (c->profile && c->profile->ignore_preferred_terms_of_existing_pods &&
        c->pod->npref_affinity == 0 && c->pod->npref_anti_affinity == 0)
        return false;
    st = kp_arena_alloc(c->scratch, sizeof(*st));
    kp_tpcount_init(&st->m);
    st->hard_weight = c->profile ? c->profile->hard_pod_affinity_weight :
                      HARD_POD_AFFINITY_WEIGHT;
    st->aff_sel = kp_affinity_terms_merge_namespaces(
        c->scratch, snap, c->pod->pref_affinity, c->pod->npref_affinity);
    st->anti_sel = kp_affinity_terms_merge_namespaces(
        c->scratch, snap, c->pod->pref_anti_affinity,
        c->pod->npref_anti_affinity);
    st->ns_labels = kp_pod_namespace_labels(snap, c->pod);
    /*
     * processExistingPod over every pod of the cluster, in two parts.
     * The incoming pod's preferred terms match pods counted per node and
     * term (selcount.h: the pods of a workload share the counts).  The
     * existing pods' own terms: only pods with some can add to a score,
     * as upstream walks HavePodsWithAffinityList and each node's
     * PodsWithAffinity when the incoming pod has no preferred terms; the
     * node's table lists them.  The sums are the same in any order.
     */
    p = c->pod;
    own = p->npref_affinity > 0 || p->npref_anti_affinity > 0;
    nterms = kp_term_count(c->cl);
    memo = kept_memo(c, nterms);
    if (!memo) {
        memo = kp_arena_alloc_uninit(c->scratch,
                                     (nterms + 1) * sizeof(*memo));
        for (i = 0; i <= nterms; i++)
            atomic_init(&memo[i], 0);
    }
    if (own && p->npref_affinity + p->npref_anti_affinity <=
               KP_SELCOUNT_HOLD) {
        aff_ent = kp_arena_alloc(c->scratch, (p->npref_affinity + 1) *
                                 sizeof(*aff_ent));
        anti_ent = kp_arena_alloc(c->scratch, (p->npref_anti_affinity + 1) *
                                  sizeof(*anti_ent));
        aff_col = kp_arena_alloc(c->scratch, (p->npref_affinity + 1) *
                                 sizeof(*aff_col));
        anti_col = kp_arena_alloc(c->scratch, (p->npref_anti_affinity + 1) *
                                  sizeof(*anti_col));
        for (j = 0; j < p->npref_affinity; j++)
            aff_col[j] = kp_cluster_label_column(
                c->cl, p->pref_affinity[j].topology_key);
        for (j = 0; j < p->npref_anti_affinity; j++)
            anti_col[j] = kp_cluster_label_column(
                c->cl, p->pref_anti_affinity[j].topology_key);
        for (j = 0; j < p->npref_affinity; j++)
            aff_ent[j] = kp_selcount_term(c->cl, &p->pref_affinity[j],
                                          st->aff_sel ? st->aff_sel[j] : NULL,
                                          p->ns);
        for (j = 0; j < p->npref_anti_affinity; j++)
            anti_ent[j] = kp_selcount_term(
                c->cl, &p->pref_anti_affinity[j],
                st->anti_sel ? st->anti_sel[j] : NULL, p->ns);
    }
    nc.c = c;
    nc.st = st;
    nc.own = own;
    nc.aff_ent = aff_ent;
    nc.anti_ent = anti_ent;
    nc.aff_col = aff_col;
    nc.anti_col = anti_col;
    nc.memo = memo;
    d = kp_term_domains_of(c->cl);
    nc.domains = d != NULL;
    if (d)
        existing_from_domains(c, st, d, memo);
    /* with the domains, only the pod's own terms are counted by node */
    if (!d || own)
        node_pass(&nc, &st->m);
#ifdef KP_SELFCHECK
    if (d)
        check_domains(&nc, st);
#endif
    score_keys(c, st);
    *state = st;
    return st->m.used > 0;
}

/*
 * Score: for each topology key of topologyScore, the node's value's
 * score (interpodaffinity/scoring.go, Score: range over
 * s.topologyScore, node.Labels[tpKey]); the same sum as over every label
 * of the node, without looking up the labels no term names.
 */
static int64_t
ipa_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    const struct ipa_score_state *st = state;
    int64_t sum = 0;
    size_t k;

    if (st->m.nonzero == 0)
        return 0;
    for (k = 0; k < st->nkeys; k++) {
        const char *v = st->kcol[k] ? st->kcol[k][ni->node->index] :
                        kp_labels_get(&ni->node->labels, st->keys[k]);

        if (v)
            sum += kp_tpcount_get(&st->m, st->keys[k], v);
    }
    return sum;
}

static void
ipa_normalize(const struct kp_score_nodes *f, void *state, int64_t *scores)
{
    int64_t min = INT64_MAX, max = INT64_MIN, diff;
    size_t i;

    (void)state;
    for (i = 0; i < f->n; i++) {
        if (scores[i] > max)
            max = scores[i];
        if (scores[i] < min)
            min = scores[i];
    }
    diff = max - min;
    for (i = 0; i < f->n; i++) {
        double fs = 0;

        if (diff > 0)
            fs = (double)KP_MAX_NODE_SCORE *
                 ((double)(scores[i] - min) / (double)diff);
        scores[i] = (int64_t)fs;
    }
}

const struct kp_score_plugin kp_score_inter_pod_affinity = {
    .name = "InterPodAffinity",
    .weight = 2,
    .pre_score = ipa_pre_score,
    .score = ipa_score,
    .normalize = ipa_normalize,
};
