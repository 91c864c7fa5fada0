/*
 * filtering.c - mirrors pkg/scheduler/framework/plugins/
 * interpodaffinity/filtering.go: PreFilter counts, per topology pair,
 * (1) existing pods whose required anti-affinity matches the incoming
 * pod, (2) existing pods matching all of the incoming pod's required
 * affinity terms, (3) existing pods matching each of its required
 * anti-affinity terms; AddPod/RemovePod (updateWithPod) keep the counts
 * in step for nominated pods and preemption victims; Filter checks
 * affinity (Unresolvable), anti-affinity and existing pods'
 * anti-affinity (Unschedulable).  The incoming pod's namespaceSelectors
 * are resolved once in PreFilter (mergeAffinityTermNamespacesIfNotEmpty);
 * existing pods' terms see the incoming pod's namespace labels.  Term
 * matching: podinfo.c.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "plugin_state.h"
#include "plugins.h"
#include "selcount.h"
#include "podinfo.h"
#include "pool.h"
#include "selfcheck.h"
#include "term_domains.h"
#include "tpcount.h"

struct inc_term {
    const struct kp_affinity_term *t;
    struct kp_selcount_entry *e;
    unsigned long made;         /* kp_selcount_made(e) */
    const unsigned char *sel;   /* the merged namespace selection */
    const char *const *col;     /* NULL: read the node's labels */
    const uint64_t *colh;       /* col's pair hashes */
    struct kp_tpcount *m;
};

struct ipa_state {
    struct kp_tpcount existing_anti;    /* existingAntiAffinityCounts */
    struct kp_tpcount affinity;         /* affinityCounts */
    struct kp_tpcount anti;             /* antiAffinityCounts */
    /* the incoming pod's terms after the namespaceSelector merge */
    const unsigned char **aff_sel, **anti_sel;
    const struct kp_labels *ns_labels;  /* namespaceLabels */
    /*
     * The incoming pod's terms as selcount entries (affinity first, then
     * anti-affinity; NULL: none), whose remembered matches AddPod and
     * RemovePod read
     */
    const struct inc_term *it;
    /*
     * Per interned term (selcount.h kp_term_get), whether it matches the
     * incoming pod: 0 not matched yet, 1 no, 2 yes; nmemo long.  Made
     * in PreFilter, read and filled by every copy of the state (the dry
     * run's threads race to fill an entry: they find the same).
     */
    _Atomic unsigned char *memo;
    size_t nmemo;
};

/* one kp_tpcount_add, kept for later (PreFilter's node pass) */
struct rec {
    struct kp_tpcount *m;
    const char *key, *value;
    int64_t delta;
    uint64_t h;                 /* kp_tpcount_hash(key, value) */
};

/*
 * Where the counts go: straight into the maps (recs NULL), or, on the
 * pool's threads, into a node's list of additions made in the order the
 * serial pass would make them, applied node by node afterwards.
 */
struct emit {
    struct kp_arena *a;
    bool defer;
    struct rec *r;
    size_t n, cap;
};

/* h: the pair's kp_tpcount_hash (a node label's, kept) */
static void
emit_add(struct emit *em, struct kp_tpcount *m, const char *key,
         const char *value, uint64_t h, int64_t delta)
{
    if (!em->defer) {
        kp_tpcount_add_hashed(em->a, m, key, value, h, delta);
        return;
    }
    if (em->n == em->cap) {
        size_t cap = em->cap * 2 + 4;
        struct rec *r = kp_arena_alloc_uninit(em->a, cap * sizeof(*r));

        if (em->n)
            memcpy(r, em->r, em->n * sizeof(*r));
        em->r = r;
        em->cap = cap;
    }
    em->r[em->n].m = m;
    em->r[em->n].key = key;
    em->r[em->n].value = value;
    em->r[em->n].h = h;
    em->r[em->n++].delta = delta;
}

/* topologyToMatchedTermCount.update: only when the node has the key. */
static void
update(struct emit *em, struct kp_tpcount *m, const struct kp_node *node,
       const char *key, int64_t delta)
{
    const struct kp_label *l = kp_labels_find(&node->labels, key);

    if (l)
        emit_add(em, m, key, l->value, kp_tpcount_label_hash(l), delta);
}

/*
 * The node's value of term it's topology key, from the term's column
 * when it has one, and the pair's hash in *h; NULL: the node lacks it
 */
static const char *
term_value(const struct inc_term *it, const struct kp_node *node,
           uint64_t *h)
{
    return kp_tpcount_node_pair(it->col, it->colh, (size_t)node->index,
                                &node->labels, it->t->topology_key, h);
}

/*
 * The node's value of the incoming pod's term k (affinity terms first),
 * t, from the term's label column when it is counted per node (s->it),
 * and the pair's hash in *h; NULL: the node lacks its topology key
 */
static const char *
incoming_value(const struct ipa_state *s, size_t k,
               const struct kp_affinity_term *t, const struct kp_node *node,
               uint64_t *h)
{
    if (s->it)
        return term_value(&s->it[k], node, h);
    return kp_tpcount_node_pair(NULL, NULL, 0, &node->labels,
                                t->topology_key, h);
}

/*
 * update() of the incoming pod's term k (affinity terms first), t: the
 * node's value read as Filter reads it (from the term's label column
 * when it is counted per node)
 */
static void
update_incoming(struct emit *em, const struct ipa_state *s,
                struct kp_tpcount *m, const struct kp_node *node, size_t k,
                const struct kp_affinity_term *t, int64_t delta)
{
    uint64_t h = 0;
    const char *v;

    if (!s->it) {
        update(em, m, node, t->topology_key, delta);
        return;
    }
    v = term_value(&s->it[k], node, &h);
    if (v)
        emit_add(em, m, t->topology_key, v, h, delta);
}

/* podMatchesAllAffinityTerms (the incoming pod's terms): false for none. */
static bool
matches_all_terms(const struct kp_affinity_term *t,
                  const unsigned char *const *sel, size_t n,
                  const char *owner_ns, const struct kp_pod *q)
{
    size_t i;

    if (n == 0)
        return false;
    for (i = 0; i < n; i++)
        if (!kp_incoming_term_matches(&t[i], sel ? sel[i] : NULL, owner_ns,
                                      q))
            return false;
    return true;
}

/*
 * the incoming pod's term i (affinity terms first) against q, whose
 * snapshot index is sidx when known (a victim table's), else -1
 */
static bool
incoming_matches(const struct ipa_state *s, size_t i,
                 const struct kp_affinity_term *t, const unsigned char *sel,
                 const char *owner_ns, const struct kp_pod *q, int32_t sidx)
{
    if (s->it)
        return kp_selcount_term_matches_at(s->it[i].e, s->it[i].made,
                                           s->it[i].t, s->it[i].sel,
                                           owner_ns, q, sidx);
    return kp_incoming_term_matches(t, sel, owner_ns, q);
}

/* updateWithAffinityTerms: every term when q matches all of them. */
static void
update_affinity(struct emit *em, const struct ipa_state *s,
                struct kp_tpcount *m, const struct kp_pod *incoming,
                const struct kp_pod *q, int32_t sidx,
                const struct kp_node *node, int64_t delta)
{
    size_t i;

    if (s->it && incoming->naffinity == 1) {
        if (!incoming_matches(s, 0, NULL, NULL, incoming->ns, q, sidx))
            return;
    } else if (!matches_all_terms(incoming->affinity, s->aff_sel,
                                  incoming->naffinity, incoming->ns, q))
        return;
    for (i = 0; i < incoming->naffinity; i++)
        update_incoming(em, s, m, node, i, &incoming->affinity[i], delta);
}

/* updateWithAntiAffinityTerms, incoming pod's terms against q. */
static void
update_anti(struct emit *em, const struct ipa_state *s,
            struct kp_tpcount *m, const struct kp_pod *incoming,
            const struct kp_pod *q, int32_t sidx, const struct kp_node *node,
            int64_t delta)
{
    size_t i;

    for (i = 0; i < incoming->nanti_affinity; i++)
        if (incoming_matches(s, incoming->naffinity + i,
                             &incoming->anti_affinity[i],
                             s->anti_sel ? s->anti_sel[i] : NULL,
                             incoming->ns, q, sidx))
            update_incoming(em, s, m, node, incoming->naffinity + i,
                            &incoming->anti_affinity[i], delta);
}

/* updateWithAntiAffinityTerms, existing pod q's terms against incoming. */
static void
update_existing_anti(struct emit *em, const struct ipa_state *s,
                     struct kp_tpcount *m, const struct kp_pod *q,
                     const struct kp_pod *incoming,
                     const struct kp_node *node, int64_t delta)
{
    size_t i, n = kp_affinity_terms_usable(q->anti_affinity,
                                           q->nanti_affinity);

    for (i = 0; i < n; i++)
        if (kp_existing_term_matches(&q->anti_affinity[i], q->ns, incoming,
                                     s->ns_labels))
            update(em, m, node, q->anti_affinity[i].topology_key, delta);
}

/*
 * Whether the interned term id (selcount.h) matches the incoming pod,
 * matched once per cycle and kept in s->memo (threads may race to fill
 * it in: they find the same); an id past the memo is matched each time.
 */
static bool
existing_term_matches(struct ipa_state *s, const struct kp_term_ref *r,
                      uint32_t id, const struct kp_pod *incoming)
{
    unsigned char m = id < s->nmemo ?
                      atomic_load_explicit(&s->memo[id],
                                           memory_order_relaxed) : 0;

    if (!m) {
        m = (unsigned char)(1 + kp_existing_term_matches(
            r->t, r->owner_ns, incoming, s->ns_labels));
        if (id < s->nmemo)
            atomic_store_explicit(&s->memo[id], m, memory_order_relaxed);
    }
    return m == 2;
}

/*
 * update_existing_anti over a node's interned required anti-affinity
 * terms: each distinct term counts once per pod carrying it.
 */
static void
existing_anti_groups(struct emit *em, struct ipa_state *s,
                     const struct kp_cluster *cl,
                     const struct kp_victim_table *vt,
                     const struct kp_pod *incoming,
                     const struct kp_node *node)
{
    size_t g;

    for (g = 0; g < vt->nanti_grp; g++) {
        uint32_t id = vt->anti_grp_id[g];
        const struct kp_term_ref *r = kp_term_get(cl, id);

        if (existing_term_matches(s, r, id, incoming))
            update(em, &s->existing_anti, node, r->t->topology_key,
                   vt->anti_grp_mult[g]);
    }
}

/* preFilterState.updateWithPod */
static void
update_with_pod(struct emit *em, struct ipa_state *s,
                const struct kp_pod *incoming, const struct kp_pod *q,
                const struct kp_node *node, int64_t delta)
{
    update_existing_anti(em, s, &s->existing_anti, q, incoming, node, delta);
    update_affinity(em, s, &s->affinity, incoming, q, -1, node, delta);
    update_anti(em, s, &s->anti, incoming, q, -1, node, delta);
}

/*
 * update_existing_anti of a victim table's pod k, from the table: its
 * terms as interned, not read from the pod
 */
static void
existing_anti_at(struct emit *em, struct ipa_state *s,
                 const struct kp_cluster *cl,
                 const struct kp_victim_table *vt, size_t k,
                 const struct kp_pod *incoming, const struct kp_node *node,
                 int64_t delta)
{
    uint32_t j;

    for (j = vt->anti_off[k]; j < vt->anti_off[k + 1]; j++) {
        uint32_t id = vt->anti_ids[j];
        const struct kp_term_ref *r = kp_term_get(cl, id);

        if (existing_term_matches(s, r, id, incoming))
            update(em, &s->existing_anti, node, r->t->topology_key, delta);
    }
}

/* update_with_pod of a victim table's pod k, reading the table */
static void
update_with_table_pod(struct kp_arena *a, struct ipa_state *s,
                      const struct kp_cycle *c,
                      const struct kp_victim_table *vt, size_t k,
                      const struct kp_node *node, int64_t delta)
{
    struct emit em = {a, false, NULL, 0, 0};
    const struct kp_pod *q = vt->pods[k];

    /* a pod without required anti-affinity terms adds nothing there */
    if (vt->tail_anti[k] != vt->tail_anti[k + 1])
        existing_anti_at(&em, s, c->cl, vt, k, c->pod, node, delta);
    update_affinity(&em, s, &s->affinity, c->pod, q, vt->sidx[k], node,
                    delta);
    update_anti(&em, s, &s->anti, c->pod, q, vt->sidx[k], node, delta);
}

/*
 * When none of the incoming pod's terms has a namespaceSelector, only
 * pods of the namespaces the terms name can match one of them.
 */
static bool
terms_name_namespaces(const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < p->naffinity; i++)
        if (p->affinity[i].has_ns_selector)
            return false;
    for (i = 0; i < p->nanti_affinity; i++)
        if (p->anti_affinity[i].has_ns_selector)
            return false;
    return true;
}

static bool
ns_in_terms(const struct kp_pod *p, const char *ns)
{
    size_t i;

    for (i = 0; i < p->naffinity; i++)
        if (kp_term_ns_listed(&p->affinity[i], p->ns, ns))
            return true;
    for (i = 0; i < p->nanti_affinity; i++)
        if (kp_term_ns_listed(&p->anti_affinity[i], p->ns, ns))
            return true;
    return false;
}

/*
 * The incoming pod's terms counted per node (selcount.h) rather than pod
 * by pod: a term of antiAffinityCounts adds, on a node with its topology
 * key, one per pod of the node it matches (upstream walks every pod of
 * every NodeInfo, terminating ones included, as selcount counts them);
 * so does the affinity term of a pod with exactly one (with more,
 * podMatchesAllAffinityTerms is an intersection: counted pod by pod).
 * The topology values come from the cluster's label columns.
 */

/* One incoming term counted per node: its selcount entry and column. */
static void
inc_term_set(struct inc_term *it, const struct kp_cycle *c,
             const struct kp_affinity_term *t, const unsigned char *sel,
             struct kp_tpcount *m)
{
    it->t = t;
    it->sel = sel;
    it->e = kp_selcount_term(c->cl, t, sel, c->pod->ns);
    it->made = kp_selcount_made(it->e);
    it->col = kp_cluster_label_column(c->cl, t->topology_key);
    it->colh = kp_cluster_label_column_hash(c->cl, t->topology_key);
    it->m = m;
}

/* The terms to count per node (NULL: count pod by pod), *n of them. */
static struct inc_term *
inc_terms(struct kp_cycle *c, struct ipa_state *s, size_t *n)
{
    const struct kp_pod *p = c->pod;
    struct inc_term *it;
    size_t i, k = 0;

    *n = 0;
    if (p->naffinity > 1 || p->naffinity + p->nanti_affinity == 0 ||
        p->naffinity + p->nanti_affinity > KP_SELCOUNT_HOLD)
        return NULL;
    it = kp_arena_alloc(c->scratch, (p->naffinity + p->nanti_affinity) *
                        sizeof(*it));
    for (i = 0; i < p->naffinity; i++, k++)
        inc_term_set(&it[k], c, &p->affinity[i],
                     s->aff_sel ? s->aff_sel[i] : NULL, &s->affinity);
    for (i = 0; i < p->nanti_affinity; i++, k++)
        inc_term_set(&it[k], c, &p->anti_affinity[i],
                     s->anti_sel ? s->anti_sel[i] : NULL, &s->anti);
    *n = k;
    return it;
}

static void
inc_terms_node(struct emit *em, const struct inc_term *it, size_t n,
               const struct kp_node_info *ni)
{
    size_t k;

    for (k = 0; k < n; k++) {
        uint64_t h = 0;
        const char *v = term_value(&it[k], ni->node, &h);
        int64_t cnt;

        if (!v)
            continue;
        cnt = kp_selcount_node(it[k].e, ni);
        if (cnt > 0)
            emit_add(em, it[k].m, it[k].t->topology_key, v, h, cnt);
    }
}

/* count_cluster's inputs, shared by the node pass's threads */
struct count_ctx {
    const struct kp_cluster *cl;
    const struct kp_pod *p;
    struct ipa_state *s;
    const struct inc_term *it;
    size_t nit;
    bool incoming, walk, by_ns;
    bool domains;               /* existing anti-affinity counted already */
    struct emit *out;           /* by node, the pool's pass */
};

/* One node's part of count_cluster. */
static void
count_node(const struct count_ctx *cc, size_t i, struct emit *em)
{
    const struct kp_cluster *cl = cc->cl;
    const struct kp_pod *p = cc->p;
    struct ipa_state *s = cc->s;
    const struct kp_node_info *ni = &cl->nodes[i];
    const struct kp_victim_table *vt;
    size_t j;

    /* only the existing pods' anti-affinity can count here */
    if (!cc->incoming && (ni->nanti == 0 || cc->domains))
        return;
    vt = kp_node_table(cl, (int)i);
    /* (with the term domains, the existing pods' terms are counted) */
    if (!cc->domains && vt && vt->grp_ready)
        existing_anti_groups(em, s, cl, vt, p, ni->node);
    else if (!cc->domains && vt)
        for (j = 0; j < vt->nanti; j++)
            update_existing_anti(em, s, &s->existing_anti, vt->anti[j], p,
                                 ni->node, 1);
    if (cc->it)
        inc_terms_node(em, cc->it, cc->nit, ni);
    if (vt && !cc->walk)
        return;
    for (j = 0; j < ni->npods; j++) {
        const struct kp_pod *q = ni->pods[j];

        /* (the term domains hold every node's: a table is never stale) */
        if (!vt && !cc->domains)
            update_existing_anti(em, s, &s->existing_anti, q, p, ni->node,
                                 1);
        if (!cc->walk || (vt && cc->by_ns && !ns_in_terms(p, vt->ns[j])))
            continue;
        update_affinity(em, s, &s->affinity, p, q, -1, ni->node, 1);
        update_anti(em, s, &s->anti, p, q, -1, ni->node, 1);
    }
}

static bool
count_one(void *ctx, size_t i, struct kp_arena *a)
{
    const struct count_ctx *cc = ctx;
    struct emit *em = &cc->out[i];

    em->a = a;
    em->defer = true;
    count_node(cc, i, em);
    return false;
}

/* existing_from_domains's adds of one term's domains */
struct domain_add {
    struct kp_arena *a;
    struct kp_tpcount *m;
    const char *key;
};

/* (the domain's map and da->m have the same key: the same hash) */
static void
domain_add(void *arg, const char *value, uint64_t h, int64_t n)
{
    const struct domain_add *da = arg;

    if (n != 0)
        kp_tpcount_add_hashed(da->a, da->m, da->key, value, h, n);
}

/*
 * getIncomingAffinityAntiAffinityCounts from the terms' sums by domain
 * (selcount.h kp_selcount_domains), when every term has them: the
 * node pass's adds, summed.  Whether it did.
 */
static bool
incoming_from_domains(struct kp_cycle *c, const struct inc_term *it,
                      size_t nit)
{
    const struct kp_tpcount **m = kp_arena_alloc(c->scratch,
                                                 (nit + 1) * sizeof(*m));
    size_t k;

    for (k = 0; k < nit; k++)
        if (!(m[k] = kp_selcount_domains(it[k].e, it[k].made,
                                          it[k].t->topology_key)))
            return false;
    for (k = 0; k < nit; k++) {
        struct domain_add da = {c->scratch, it[k].m, it[k].t->topology_key};

        kp_tpcount_each(m[k], domain_add, &da);
    }
    return true;
}

/* existing_from_domains's pass over the terms */
struct from_domains {
    struct kp_cycle *c;
    struct ipa_state *s;
    const struct kp_term_domains *d;
};

static void
term_from_domains(void *arg, uint32_t id)
{
    const struct from_domains *fd = arg;
    const struct kp_tpcount *m = kp_term_domains_get(fd->d, id);
    const struct kp_term_ref *r;
    struct domain_add da;

    if (m->nonzero == 0)
        return;
    r = kp_term_get(fd->c->cl, id);
    if (!existing_term_matches(fd->s, r, id, fd->c->pod))
        return;
    da.a = fd->c->scratch;
    da.m = &fd->s->existing_anti;
    da.key = r->t->topology_key;
    kp_tpcount_each(m, domain_add, &da);
}

/*
 * getExistingAntiAffinityCounts from the cluster's term domains
 * (term_domains.h): each interned required anti-affinity term that may
 * match the incoming pod (by its labels) matched once against it, and
 * the domains of those that match added (the node pass's sums, node by
 * node, are the same counts).
 */
static void
existing_from_domains(struct kp_cycle *c, struct ipa_state *s,
                      const struct kp_term_domains *d)
{
    struct from_domains fd = {c, s, d};

    kp_term_domains_visit(c->cl, d, false, &c->pod->labels,
                          term_from_domains, &fd);
}

/*
 * getExistingAntiAffinityCounts and getIncomingAffinityAntiAffinityCounts.
 * The counts are sums: with the node's table current, the existing pods'
 * anti-affinity comes from its list of pods with terms, and the incoming
 * pod's terms are counted per node (above) or tried only on pods of the
 * namespaces they name (read from the table, not from the pods).
 * it: the incoming terms counted per node (NULL: pod by pod).  As
 * upstream (parallelize.Until over the nodes), the nodes are shared by
 * the cycle's threads; what each node adds is kept and added to the
 * maps in node order afterwards, so the maps are those of the serial
 * pass, entry for entry.  domains: the existing pods' anti-affinity
 * from the cluster's term domains when it keeps them (then only a pod
 * with terms of its own walks the nodes).
 */
static void
count_cluster(struct kp_cycle *c, struct ipa_state *s,
              const struct inc_term *it, size_t nit, bool domains)
{
    const struct kp_term_domains *d = domains ? kp_term_domains_of(c->cl) :
                                      NULL;
    struct count_ctx cc;
    size_t i, j, n = c->cl->snap->nnodes, nterms = kp_term_count(c->cl);

    cc.cl = c->cl;
    cc.p = c->pod;
    cc.s = s;
    cc.it = it;
    cc.nit = nit;
    cc.incoming = c->pod->naffinity > 0 || c->pod->nanti_affinity > 0;
    cc.walk = cc.incoming && !it;
    cc.by_ns = cc.walk && terms_name_namespaces(c->pod);
    s->memo = kp_arena_alloc_uninit(c->scratch,
                                    (nterms + 1) * sizeof(*s->memo));
    for (i = 0; i <= nterms; i++)
        atomic_init(&s->memo[i], 0);
    s->nmemo = nterms + 1;
    cc.out = NULL;
    cc.domains = d != NULL;
    if (d) {
        existing_from_domains(c, s, d);
        if (!cc.incoming || (it && incoming_from_domains(c, it, nit)))
            return;
    }
    if (!c->pool || n < KP_PREFILTER_PARALLEL_MIN) {
        struct emit em = {c->scratch, false, NULL, 0, 0};

        for (i = 0; i < n; i++)
            count_node(&cc, i, &em);
        return;
    }
    cc.out = kp_arena_alloc(c->scratch, n * sizeof(*cc.out));
    kp_pool_run(c->pool, n, 0, count_one, &cc, c->scratch);
    for (i = 0; i < n; i++)
        for (j = 0; j < cc.out[i].n; j++) {
            const struct rec *r = &cc.out[i].r[j];

            kp_tpcount_add_hashed(c->scratch, r->m, r->key, r->value, r->h,
                                  r->delta);
        }
}

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    const char *perr = kp_pod_info_parse_error(c->scratch, c->pod);
    const struct kp_snapshot *snap = c->cl->snap;
    struct ipa_state *s;
    struct inc_term *it;
    size_t nit;

    if (perr) {
        size_t sz = strlen(perr) + 16;
        char *m = kp_arena_alloc(c->scratch, sz);

        snprintf(m, sz, "parsing pod: %s", perr);
        return kp_status_new(KP_UNRESOLVABLE, m);
    }
    s = kp_arena_alloc(c->scratch, sizeof(*s));
    kp_tpcount_init(&s->existing_anti);
    kp_tpcount_init(&s->affinity);
    kp_tpcount_init(&s->anti);
    s->aff_sel = kp_affinity_terms_merge_namespaces(
        c->scratch, snap, c->pod->affinity, c->pod->naffinity);
    s->anti_sel = kp_affinity_terms_merge_namespaces(
        c->scratch, snap, c->pod->anti_affinity, c->pod->nanti_affinity);
    s->ns_labels = kp_pod_namespace_labels(snap, c->pod);
    it = inc_terms(c, s, &nit);
    s->it = it;
    count_cluster(c, s, it, nit, true);
#ifdef KP_SELFCHECK
    if (it || kp_term_domains_of(c->cl)) {
        /* the per-node counts against the pod-by-pod walk */
        struct ipa_state *w = kp_arena_alloc(c->scratch, sizeof(*w));
        char why[512];

        *w = *s;
        w->it = NULL;
        kp_tpcount_init(&w->existing_anti);
        kp_tpcount_init(&w->affinity);
        kp_tpcount_init(&w->anti);
        count_cluster(c, w, NULL, 0, false);
        kp_selfcheck_count();
        if (!kp_ipa_state_same(s, w, why, sizeof(why)))
            kp_selfcheck_fail("InterPodAffinity PreFilter of %s/%s: per-node "
                              "counts and term domains differ from the pod "
                              "walk: %s",
                              c->pod->ns, c->pod->name, why);
    }
#endif
    if (s->existing_anti.nonzero == 0 && c->pod->naffinity == 0 &&
        c->pod->nanti_affinity == 0)
        return kp_status_new(KP_SKIP, NULL);
    c->state[idx] = s;
    return kp_status_ok();
}

/* satisfyPodAffinity, with the "first pod of a series" exception. */
static bool
satisfy_pod_affinity(const struct ipa_state *s, const struct kp_pod *p,
                     const struct kp_node *node)
{
    bool pods_exist = true;
    size_t i;

    for (i = 0; i < p->naffinity; i++) {
        const char *key = p->affinity[i].topology_key;
        uint64_t h = 0;
        const char *v = incoming_value(s, i, &p->affinity[i], node, &h);

        if (!v)
            return false;
        if (kp_tpcount_get_hashed(&s->affinity, key, v, h) <= 0)
            pods_exist = false;
    }
    if (pods_exist)
        return true;
    return s->affinity.nonzero == 0 &&
           matches_all_terms(p->affinity, s->aff_sel, p->naffinity, p->ns,
                             p);
}

static bool
satisfy_pod_anti_affinity(const struct ipa_state *s, const struct kp_pod *p,
                          const struct kp_node *node)
{
    size_t i;

    if (s->anti.nonzero == 0)
        return true;
    for (i = 0; i < p->nanti_affinity; i++) {
        const char *key = p->anti_affinity[i].topology_key;
        uint64_t h = 0;
        const char *v = incoming_value(s, p->naffinity + i,
                                       &p->anti_affinity[i], node, &h);

        if (v && kp_tpcount_get_hashed(&s->anti, key, v, h) > 0)
            return false;
    }
    return true;
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    const struct ipa_state *s = c->state[idx];

    if (!s)
        return kp_status_ok();
    if (!satisfy_pod_affinity(s, c->pod, ni->node))
        return kp_status_new(KP_UNRESOLVABLE, KP_REASON_POD_AFFINITY);
    if (!satisfy_pod_anti_affinity(s, c->pod, ni->node))
        return kp_status_new(KP_UNSCHEDULABLE, KP_REASON_POD_ANTI_AFFINITY);
    if (kp_tpcount_any_label(&s->existing_anti, &ni->node->labels))
        return kp_status_new(KP_UNSCHEDULABLE,
                             KP_REASON_EXISTING_ANTI_AFFINITY);
    return kp_status_ok();
}

/*
 * update_with_pod with its adds kept, then made in their order on
 * c->state[idx] made c's own (kp_cycle_own_state), when there are any
 */
static void
hook_pod(struct kp_cycle *c, int idx, const struct kp_pod *pod,
         const struct kp_node_info *ni, int64_t delta)
{
    struct ipa_state *s = c->state[idx], *w;
    struct emit em = {c->scratch, true, NULL, 0, 0};
    size_t k;

    if (!s)
        return;
    update_with_pod(&em, s, c->pod, pod, ni->node, delta);
    if (em.n == 0)
        return;
    w = kp_cycle_own_state(c, idx);
    for (k = 0; k < em.n; k++) {
        const struct rec *r = &em.r[k];
        struct kp_tpcount *m = r->m == &s->existing_anti ?
                               &w->existing_anti :
                               r->m == &s->affinity ? &w->affinity : &w->anti;

        kp_tpcount_add_hashed(c->scratch, m, r->key, r->value, r->h,
                              r->delta);
    }
}

static void
add_pod(struct kp_cycle *c, int idx, const struct kp_pod *pod,
        const struct kp_node_info *ni)
{
    hook_pod(c, idx, pod, ni, 1);
}

static void
remove_pod(struct kp_cycle *c, int idx, const struct kp_pod *pod,
           const struct kp_node_info *ni)
{
    hook_pod(c, idx, pod, ni, -1);
}

/*
 * The cluster's NodeInfo the dry run's copy ni was made from, when
 * kp_cycle_remove_tail's contract holds (framework.h, remove_pods: ni a
 * copy of cl->nodes[ni->index] less the n pods removed), else NULL.
 */
static const struct kp_node_info *
removal_origin(const struct kp_cycle *c, const struct kp_node_info *ni,
               size_t n)
{
    const struct kp_node_info *o;

    if (ni->index < 0 || (size_t)ni->index >= c->cl->snap->nnodes)
        return NULL;
    o = &c->cl->nodes[ni->index];
    if (o == ni || o->node != ni->node || o->npods != ni->npods + n)
        return NULL;
    return o;
}

/*
 * The pods a RemovePod of several pods removes: pods[0..n), or (vt not
 * NULL) the victim table's pods first.. (n of them), read from the table
 * where it can (kp_victim_table.sidx, anti_ids) instead of from the pods.
 */
struct gone {
    const struct kp_pod *const *pods;
    const struct kp_victim_table *vt;
    size_t first, n;
};

static const struct kp_pod *
gone_pod(const struct gone *g, size_t i, int32_t *sidx)
{
    if (!g->vt) {
        *sidx = -1;
        return g->pods[i];
    }
    *sidx = g->vt->sidx[g->first + i];
    return g->vt->pods[g->first + i];
}

/*
 * How many of the removed pods the incoming term it matches: counted on
 * them, or (when fewer pods stay than go) as the term's count on the
 * node the copy was made from (selcount.h, counted in PreFilter's node
 * pass) less the pods that stay (with a table, its pods before first).
 * Either way the sum of kp_selcount_term_matches over the removed pods.
 */
static int64_t
removed_matching(const struct inc_term *it, const char *owner_ns,
                 const struct gone *g, const struct kp_node_info *ni,
                 const struct kp_node_info *origin)
{
    int64_t cnt = 0;
    size_t i, n = g->n;
    int32_t sidx;

    if (origin && ni->npods < n && kp_selcount_made(it->e) == it->made) {
        cnt = kp_selcount_node(it->e, origin);
        if (g->vt)
            for (i = 0; i < g->first; i++)
                cnt -= kp_selcount_term_matches_at(it->e, it->made, it->t,
                                                   it->sel, owner_ns,
                                                   g->vt->pods[i],
                                                   g->vt->sidx[i]);
        else
            for (i = 0; i < ni->npods; i++)
                cnt -= kp_selcount_term_matches(it->e, it->made, it->t,
                                                it->sel, owner_ns,
                                                ni->pods[i]);
#ifdef KP_SELFCHECK
        {
            int64_t walk = 0;

            for (i = 0; i < n; i++)
                walk += kp_incoming_term_matches(it->t, it->sel, owner_ns,
                                                 gone_pod(g, i, &sidx));
            kp_selfcheck_count();
            if (walk != cnt)
                kp_selfcheck_fail("InterPodAffinity RemovePod on %s: %lld "
                                  "removed pods matching from the node's "
                                  "count, %lld from the pods",
                                  ni->node->name, (long long)cnt,
                                  (long long)walk);
        }
#endif
        return cnt;
    }
    for (i = 0; i < n; i++) {
        const struct kp_pod *q = gone_pod(g, i, &sidx);

        cnt += kp_selcount_term_matches_at(it->e, it->made, it->t, it->sel,
                                           owner_ns, q, sidx);
    }
    return cnt;
}

/*
 * RemovePod for several pods of one node: the same updates, summed per
 * map and topology key (the node has one value per key) before they go
 * into the maps, one addition each rather than one per pod.  The node's
 * topology values are read once per term, not once per pod; a term whose
 * key the node lacks adds nothing (update) and is not matched; the
 * incoming pod's terms counted per node (s->it) are counted per term
 * (removed_matching); and when none of the removed pods has required
 * anti-affinity terms (the copy's PodsWithRequiredAntiAffinity count is
 * its origin's), none is read for existingAntiAffinityCounts.
 */
static void
remove_gone(struct kp_cycle *c, int idx, const struct gone *g,
            const struct kp_node_info *ni)
{
    struct ipa_state *s = kp_cycle_own_state(c, idx);
    struct emit em = {c->scratch, true, NULL, 0, 0};
    const struct kp_pod *p = c->pod;
    const struct kp_node_info *origin;
    size_t i, j, k, nsum = 0, n = g->n;
    int32_t sidx;

    if (!s || n == 0)
        return;
    origin = removal_origin(c, ni, n);
    if (!origin || origin->nanti != ni->nanti)
        for (i = 0; i < n; i++) {
            const struct kp_victim_table *vt = g->vt;

            if (!vt)
                update_existing_anti(&em, s, &s->existing_anti, g->pods[i],
                                     p, ni->node, -1);
            else if (vt->tail_anti[g->first + i] !=
                     vt->tail_anti[g->first + i + 1])
                existing_anti_at(&em, s, c->cl, vt, g->first + i, p,
                                 ni->node, -1);
        }
    if (s->it) {
        /* affinity term (at most one) first, then anti-affinity terms */
        for (k = 0; k < p->naffinity + p->nanti_affinity; k++) {
            const struct inc_term *it = &s->it[k];
            uint64_t h = 0;
            const char *v = term_value(it, ni->node, &h);
            int64_t cnt;

            if (!v)
                continue;
            cnt = removed_matching(it, p->ns, g, ni, origin);
            /* this state's maps: it->m are those of PreFilter's state */
            if (cnt)
                emit_add(&em, k < p->naffinity ? &s->affinity : &s->anti,
                         it->t->topology_key, v, h, -cnt);
        }
    } else {
        for (i = 0; i < n; i++) {
            const struct kp_pod *q = gone_pod(g, i, &sidx);

            update_affinity(&em, s, &s->affinity, p, q, sidx, ni->node, -1);
            update_anti(&em, s, &s->anti, p, q, sidx, ni->node, -1);
        }
    }
    /* sum in place: em.r[0..nsum) the distinct (map, key) pairs */
    for (j = 0; j < em.n; j++) {
        for (k = 0; k < nsum; k++)
            if (em.r[k].m == em.r[j].m &&
                (em.r[k].key == em.r[j].key ||
                 strcmp(em.r[k].key, em.r[j].key) == 0))
                break;
        if (k < nsum)
            em.r[k].delta += em.r[j].delta;
        else
            em.r[nsum++] = em.r[j];
    }
    for (k = 0; k < nsum; k++)
        kp_tpcount_add_hashed(c->scratch, em.r[k].m, em.r[k].key,
                              em.r[k].value, em.r[k].h, em.r[k].delta);
}

static void
remove_pods(struct kp_cycle *c, int idx, const struct kp_pod *const *pods,
            size_t n, const struct kp_node_info *ni)
{
    struct gone g = {pods, NULL, 0, n};

    remove_gone(c, idx, &g, ni);
}

/*
 * The hooks with the victim table's pods (kp_plugin.add_table_pod and
 * the others, framework.h): the table read instead of the pods.
 */
static void
remove_table_pods(struct kp_cycle *c, int idx,
                  const struct kp_victim_table *vt, size_t first,
                  const struct kp_node_info *ni)
{
    struct gone g = {NULL, vt, first, vt->n - first};

    remove_gone(c, idx, &g, ni);
}

static void
add_table_pod(struct kp_cycle *c, int idx, const struct kp_victim_table *vt,
              size_t k, const struct kp_node_info *ni)
{
    if (c->state[idx])
        update_with_table_pod(c->scratch, kp_cycle_own_state(c, idx), c, vt,
                              k, ni->node, 1);
}

static void
remove_table_pod(struct kp_cycle *c, int idx,
                 const struct kp_victim_table *vt, size_t k,
                 const struct kp_node_info *ni)
{
    if (c->state[idx])
        update_with_table_pod(c->scratch, kp_cycle_own_state(c, idx), c, vt,
                              k, ni->node, -1);
}

static void *
clone_state(struct kp_arena *a, const void *state)
{
    const struct ipa_state *s = state;
    struct ipa_state *d = kp_arena_alloc(a, sizeof(*d));

    kp_tpcount_clone(&d->existing_anti, &s->existing_anti);
    kp_tpcount_clone(&d->affinity, &s->affinity);
    kp_tpcount_clone(&d->anti, &s->anti);
    d->aff_sel = s->aff_sel;
    d->anti_sel = s->anti_sel;
    d->ns_labels = s->ns_labels;
    d->it = s->it;
    d->memo = s->memo;
    d->nmemo = s->nmemo;
    return d;
}

const struct kp_plugin kp_plugin_inter_pod_affinity = {
    .name = "InterPodAffinity",
    .pre_filter = pre_filter,
    .filter = filter,
    .add_pod = add_pod,
    .remove_pod = remove_pod,
    .remove_pods = remove_pods,
    .add_table_pod = add_table_pod,
    .remove_table_pod = remove_table_pod,
    .remove_table_pods = remove_table_pods,
    .clone_state = clone_state,
    .add_pod_owns = true,
};

/* ---- read-only views for tests (plugin_state.h) ---- */

static const struct kp_tpcount *
ipa_map(const void *state, enum kp_ipa_counts which)
{
    const struct ipa_state *s = state;

    switch (which) {
    case KP_IPA_EXISTING_ANTI:
        return &s->existing_anti;
    case KP_IPA_AFFINITY:
        return &s->affinity;
    default:
        return &s->anti;
    }
}

int64_t
kp_ipa_state_count(const void *state, enum kp_ipa_counts which,
                   const char *key, const char *value)
{
    return state ? kp_tpcount_get(ipa_map(state, which), key, value) : 0;
}

size_t
kp_ipa_state_len(const void *state, enum kp_ipa_counts which)
{
    return state ? ipa_map(state, which)->nonzero : 0;
}

bool
kp_ipa_state_same(const void *a, const void *b, char *why, size_t whylen)
{
    static const char *const names[] = {"existingAntiAffinityCounts",
                                        "affinityCounts",
                                        "antiAffinityCounts"};
    struct kp_tpcount empty;
    char sub[256];
    int w;

    kp_tpcount_init(&empty);
    for (w = 0; w < 3; w++) {
        const struct kp_tpcount *ma = a ? ipa_map(a, (enum kp_ipa_counts)w) :
                                      &empty;
        const struct kp_tpcount *mb = b ? ipa_map(b, (enum kp_ipa_counts)w) :
                                      &empty;

        if (!kp_tpcount_same(ma, mb, false, sub, sizeof(sub))) {
            snprintf(why, whylen, "InterPodAffinity %s %s", names[w], sub);
            return false;
        }
    }
    return true;
}
