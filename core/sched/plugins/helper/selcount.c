/*
 * selcount.c - see selcount.h.
 */
#include "selcount.h"

#include "label_index.h"
#include "shortcut.h"
#include "hash.h"
#include "podinfo.h"
#include "selfcheck.h"
#include "tpcount.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum sc_kind { SC_SPREAD, SC_TERM };

/*
 * A term entry's counts summed by the value of one topology key
 * (kp_selcount_domains): m over every node, node[i] the count of node i
 * in it, up to date with the cluster's changed list up to pos.
 */
#define SC_DOMAIN_KEYS 2
struct sc_domains {
    const char *key;            /* the term's, borrowed */
    bool ready;
    struct kp_tpcount m;
    struct kp_arena a;          /* m's slots */
    int64_t *node;
    size_t nnode;               /* node's length */
    size_t pos;
};

struct kp_selcount_entry {
    const struct kp_cluster *cl;
    enum sc_kind kind;
    uint64_t hash;
    char *key;                  /* the canonical form, keylen bytes */
    size_t keylen;
    unsigned long last_use;
    unsigned long made;         /* the cache's clock when made */
    /* SC_SPREAD */
    struct kp_selector sel;     /* a copy, in the cache's arena */
    const char *ns;
    uint32_t ns_hash;           /* kp_ns_hash(ns) */
    bool ns_hash_on;            /* kp_ns_hash_on() */
    /* SC_TERM */
    const struct kp_affinity_term *term;
    const unsigned char *nssel;
    const char *owner_ns;
    /* by snapshot pod: 0 not matched yet, 1 no, 2 yes (npm of them) */
    _Atomic unsigned char *pm;
    size_t npm;
    /* per node: count, and its NodeInfo's gen + 1 (0: not counted) */
    int64_t *count;
    unsigned long *stamp;
    /* KP_NO_SELCOUNT=1: nothing remembered, every count and match afresh */
    bool off;
    /* SC_TERM: sums by topology domain, ndom of them (ready or not) */
    struct sc_domains dom[SC_DOMAIN_KEYS];
    size_t ndom;
};

struct term_slot {
    uint64_t hash;
    const char *key;
    size_t keylen;
    uint32_t id;
};

/* kp_term_intern's answer for one (term, owner namespace, kind) */
struct memo_slot {
    const struct kp_affinity_term *t;   /* NULL: free */
    const char *owner_ns;
    uint32_t kind, id;
};

struct kp_selcount {
    struct kp_arena arena;      /* selector copies, keys */
    size_t n;
    unsigned long clock;
    struct kp_selcount_entry e[KP_SELCOUNT_MAX];
    /* interned terms: refs by id, open-addressed slots by key */
    struct kp_term_ref *terms;
    size_t nterms, capterms;
    struct term_slot *slots;
    size_t capslots;            /* power of two, or 0 */
    /* the same ids by the term's address (KP_NO_TERM_MEMO=1: none) */
    struct memo_slot *memo;
    size_t capmemo, nmemo;      /* capmemo: power of two, or 0 */
};

void
kp_selcount_free(struct kp_selcount *sc)
{
    size_t i;

    if (!sc)
        return;
    for (i = 0; i < sc->n; i++) {
        size_t k;

        free(sc->e[i].count);
        free(sc->e[i].stamp);
        free((void *)sc->e[i].pm);
        for (k = 0; k < SC_DOMAIN_KEYS; k++) {
            if (sc->e[i].dom[k].node)
                kp_arena_release(&sc->e[i].dom[k].a);
            free(sc->e[i].dom[k].node);
        }
    }
    free(sc->terms);
    free(sc->slots);
    free(sc->memo);
    kp_arena_release(&sc->arena);
    free(sc);
}

/* ---- canonical keys ---- */

struct keybuf {
    char *p;
    size_t n, cap;
};

static void
put(struct keybuf *b, const void *data, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = kp_xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void
put_size(struct keybuf *b, size_t v)
{
    put(b, &v, sizeof(v));
}

/* NUL-terminated, so that "ab","c" and "a","bc" differ */
static void
put_str(struct keybuf *b, const char *s)
{
    put(b, s ? s : "", s ? strlen(s) + 1 : 1);
    put(b, s ? "s" : "n", 1);
}

static void
put_selector(struct keybuf *b, const struct kp_selector *s)
{
    size_t i, j;

    put(b, s->is_null ? "N" : s->invalid ? "I" : "S", 1);
    put_size(b, s->nreq);
    for (i = 0; i < s->nreq; i++) {
        const struct kp_requirement *r = &s->reqs[i];
        int op = (int)r->op;

        put_str(b, r->key);
        put(b, &op, sizeof(op));
        put(b, &r->num_ok, sizeof(r->num_ok));
        put(b, &r->num, sizeof(r->num));
        put_size(b, r->nvalues);
        for (j = 0; j < r->nvalues; j++)
            put_str(b, r->values[j]);
    }
}

/* a deep copy of s (strings included) into a */
static void
copy_selector(struct kp_arena *a, struct kp_selector *d,
              const struct kp_selector *s)
{
    size_t i, j;

    *d = *s;
    d->reqs = s->nreq ? kp_arena_alloc(a, s->nreq * sizeof(*d->reqs)) : NULL;
    for (i = 0; i < s->nreq; i++) {
        struct kp_requirement *r = &d->reqs[i];

        *r = s->reqs[i];
        r->key = kp_arena_strdup(a, s->reqs[i].key);
        r->values = r->nvalues ? kp_arena_alloc(a, r->nvalues *
                                                sizeof(*r->values)) : NULL;
        for (j = 0; j < r->nvalues; j++)
            r->values[j] = kp_arena_strdup(a, s->reqs[i].values[j]);
    }
}

static struct kp_selcount *
cache_in(struct kp_selcount **slot)
{
    if (!*slot) {
        *slot = kp_xcalloc(1, sizeof(**slot));
        kp_arena_init(&(*slot)->arena);
    }
    return *slot;
}

static struct kp_selcount *
cache_of(const struct kp_cluster *cl)
{
    return cache_in(&cl->caches->selcount);
}

/* kp_selcount_thread_cache's slot of the calling thread, or NULL */
static _Thread_local struct kp_selcount **thread_slot;

void
kp_selcount_thread_cache(struct kp_selcount **own)
{
    thread_slot = own;
}

struct kp_selcount **
kp_selcount_thread_cache_get(void)
{
    return thread_slot;
}

/*
 * Where the selector-count entries of the calling thread live: its own
 * cache while kp_selcount_thread_cache set one (independent mode's pods
 * on threads), else the cluster's.  The interned terms are always the
 * cluster's (made while the cluster changes, on one thread).
 */
static struct kp_selcount *
entries_of(const struct kp_cluster *cl)
{
    return thread_slot ? cache_in(thread_slot) : cache_of(cl);
}

/*
 * The entry with this key, or a new one (the least recently used one
 * reused when the cache is full); *fresh says which.
 */
static struct kp_selcount_entry *
lookup(const struct kp_cluster *cl, struct keybuf *kb, bool *fresh)
{
    struct kp_selcount *sc = entries_of(cl);
    uint64_t h = kp_hash_bytes(KP_HASH_SEED, kb->p, kb->n);
    struct kp_selcount_entry *e = NULL;
    size_t i, nn = cl->snap->nnodes ? cl->snap->nnodes : 1;

    sc->clock++;
    for (i = 0; i < sc->n; i++) {
        e = &sc->e[i];
        if (e->hash == h && e->cl == cl && e->keylen == kb->n &&
            memcmp(e->key, kb->p, kb->n) == 0) {
            e->last_use = sc->clock;
            *fresh = false;
            return e;
        }
    }
    if (sc->n < KP_SELCOUNT_MAX) {
        e = &sc->e[sc->n++];
        e->count = kp_xmalloc(nn * sizeof(*e->count));
        e->stamp = kp_xmalloc(nn * sizeof(*e->stamp));
        e->ndom = 0;
        for (i = 0; i < SC_DOMAIN_KEYS; i++)
            e->dom[i].node = NULL;
    } else {
        e = &sc->e[0];
        for (i = 1; i < sc->n; i++)
            if (sc->e[i].last_use < e->last_use)
                e = &sc->e[i];
    }
    memset(e->stamp, 0, nn * sizeof(*e->stamp));
    /* the sums by domain are the old key's: made again when asked */
    e->ndom = 0;
    e->cl = cl;
    e->hash = h;
    e->key = kp_arena_memdup(&sc->arena, kb->p, kb->n);
    e->keylen = kb->n;
    e->last_use = sc->clock;
    e->made = sc->clock;
    *fresh = true;
    return e;
}

/*
 * Whether e, counted by kp_selcount_recount, counts pod q: the same
 * predicate, pod by pod (what recount passes over on the victim table's
 * namespaces it would also refuse here).
 */
static bool
entry_counts(const struct kp_selcount_entry *e, const struct kp_pod *q)
{
    if (e->kind == SC_SPREAD)
        return !q->deleting && (q->ns == e->ns || strcmp(q->ns, e->ns) == 0) &&
               kp_selector_matches(&e->sel, &q->labels);
    return kp_incoming_term_matches(e->term, e->nssel, e->owner_ns, q);
}

/* KP_NO_TERM_PREFILL */
static atomic_int prefill_off_once = -1;

static bool
prefill_off(void)
{
    return kp_shortcut_off_once(&prefill_off_once, "KP_NO_TERM_PREFILL");
}

/*
 * A fresh entry's count on every node of the cluster at once, from the
 * pods carrying the labels its narrowest requirement needs
 * (label_index.h), each added to the count of the node it is on now
 * (kp_cluster.node_of), every node then stamped as kp_selcount_node
 * would: the same counts as kp_selcount_recount node by node, reading
 * only the pods the selector can match.  Nothing done (the nodes counted
 * one by one as asked) for a selector without such a requirement, a
 * cluster without node_of (the self-check's copy), or
 * KP_NO_LABEL_INDEX=1.  Returns whether it filled a term's remembered
 * matches (pm, below), every one of them; else it left pm untouched.
 */
static bool
fill_from_index(struct kp_selcount_entry *e)
{
    const struct kp_cluster *cl = e->cl;
    const struct kp_selector *sel =
        e->kind == SC_SPREAD ? &e->sel : &e->term->selector;
    struct kp_label_index *ix;
    const struct kp_requirement *r;
    size_t i, j, k, n, total, nv;
    bool prefill;

    if (e->off || !cl->node_of || kp_shortcut_off("KP_NO_LABEL_INDEX"))
        return false;
    /* an empty selector counts nothing (spread) or every pod: no list */
    if (sel->is_null || sel->invalid || sel->nreq == 0)
        return false;
    ix = kp_label_index_get(cl);
    r = kp_label_index_narrowest(ix, sel, &total);
    if (!r)
        return false;
    memset(e->count, 0, cl->snap->nnodes * sizeof(*e->count));
    /*
     * A term's remembered matches (pm): a pod off the lists lacks a label
     * every pod the selector matches carries, so it is "no" already; a
     * pod on them is tested below when it is on a node, else left to
     * kp_selcount_term_matches.  KP_NO_TERM_PREFILL=1: every pod is left.
     */
    prefill = e->kind == SC_TERM && !prefill_off();
    if (prefill)
        for (i = 0; i < e->npm; i++)
            atomic_init(&e->pm[i], 1);
    nv = r->op == KP_OP_EXISTS ? 1 : r->nvalues;
    for (j = 0; j < nv; j++) {
        const uint32_t *pods;

        if (r->op == KP_OP_EXISTS)
            pods = kp_label_index_pods(ix, r->key, NULL, &n);
        else if (kp_label_index_value_repeats(r, j))
            continue;
        else
            pods = kp_label_index_pods(ix, r->key, r->values[j], &n);
        for (k = 0; k < n; k++) {
            int node = cl->node_of[pods[k]];
            bool m;

            if (node < 0) {
                if (prefill)
                    atomic_store_explicit(&e->pm[pods[k]], 0,
                                          memory_order_relaxed);
                continue;
            }
            m = entry_counts(e, cl->snap->pods[pods[k]]);
            if (prefill)
                atomic_store_explicit(&e->pm[pods[k]],
                                      (unsigned char)(1 + m),
                                      memory_order_relaxed);
            if (m)
                e->count[node]++;
        }
    }
    for (i = 0; i < cl->snap->nnodes; i++)
        e->stamp[i] = cl->nodes[i].gen + 1;
    return prefill;
}

struct kp_selcount_entry *
kp_selcount_spread(const struct kp_cluster *cl, const struct kp_selector *sel,
                   const char *ns)
{
    struct keybuf kb = {NULL, 0, 0};
    struct kp_selcount_entry *e;
    bool fresh;

    put(&kb, "P", 1);
    put_selector(&kb, sel);
    put_str(&kb, ns);
    e = lookup(cl, &kb, &fresh);
    free(kb.p);
    e->off = kp_shortcut_off("KP_NO_SELCOUNT");
    if (fresh) {
        e->kind = SC_SPREAD;
        copy_selector(&entries_of(cl)->arena, &e->sel, sel);
        e->ns = kp_arena_strdup(&entries_of(cl)->arena, ns);
        e->ns_hash = kp_ns_hash(ns);
        e->ns_hash_on = kp_ns_hash_on();
        e->term = NULL;
        e->nssel = NULL;
        e->owner_ns = NULL;
        fill_from_index(e);
    }
    return e;
}

struct kp_selcount_entry *
kp_selcount_term(const struct kp_cluster *cl, const struct kp_affinity_term *t,
                 const unsigned char *nssel, const char *owner_ns)
{
    struct keybuf kb = {NULL, 0, 0};
    struct kp_selcount_entry *e;
    size_t i, nns = cl->snap->nnamespaces;
    bool fresh;

    put(&kb, "T", 1);
    put_selector(&kb, &t->selector);
    put_size(&kb, t->nnamespaces);
    for (i = 0; i < t->nnamespaces; i++)
        put_str(&kb, t->namespaces[i]);
    put(&kb, &t->has_ns_selector, sizeof(t->has_ns_selector));
    if (t->has_ns_selector)
        put_selector(&kb, &t->ns_selector);
    put(&kb, nssel ? "y" : "n", 1);
    if (nssel)
        put(&kb, nssel, nns);
    put_str(&kb, owner_ns);
    e = lookup(cl, &kb, &fresh);
    free(kb.p);
    e->off = kp_shortcut_off("KP_NO_SELCOUNT");
    if (fresh) {
        e->kind = SC_TERM;
        memset(&e->sel, 0, sizeof(e->sel));
        e->ns = NULL;
        e->term = t;
        e->nssel = nssel ? kp_arena_memdup(&entries_of(cl)->arena, nssel,
                                           nns + 1) : NULL;
        e->owner_ns = owner_ns;
        if (e->npm < cl->snap->npods) {
            free((void *)e->pm);
            e->npm = cl->snap->npods;
            e->pm = kp_xmalloc((e->npm + 1) * sizeof(*e->pm));
        }
        /* pm: filled from the index, else each match unknown yet */
        if (!fill_from_index(e))
            for (i = 0; i < e->npm; i++)
                atomic_init(&e->pm[i], 0);
    }
    return e;
}

unsigned long
kp_selcount_made(const struct kp_selcount_entry *e)
{
    return e->made;
}

/*
 * pod q's remembered match of e's term at snapshot index i, made and
 * kept when not known yet (threads may race to fill it in: they find
 * the same); the self-check build compares a known one with the match
 * made afresh
 */
static bool
remembered(struct kp_selcount_entry *e, size_t i, const struct kp_pod *q)
{
    unsigned char m = atomic_load_explicit(&e->pm[i], memory_order_relaxed);

    if (!m) {
        m = (unsigned char)(1 + kp_incoming_term_matches(e->term, e->nssel,
                                                         e->owner_ns, q));
        atomic_store_explicit(&e->pm[i], m, memory_order_relaxed);
    }
#ifdef KP_SELFCHECK
    else {
        kp_selfcheck_count();
        if ((m == 2) != kp_incoming_term_matches(e->term, e->nssel,
                                                 e->owner_ns, q))
            kp_selfcheck_fail("term match of %s/%s remembered wrong",
                              q->ns, q->name);
    }
#endif
    return m == 2;
}

bool
kp_selcount_term_matches(struct kp_selcount_entry *e, unsigned long made,
                         const struct kp_affinity_term *t,
                         const unsigned char *nssel, const char *owner_ns,
                         const struct kp_pod *q)
{
    size_t i = (size_t)q->index;

    if (e->off || e->made != made || e->kind != SC_TERM || q->index < 0 ||
        i >= e->npm || i >= e->cl->snap->npods || e->cl->snap->pods[i] != q)
        return kp_incoming_term_matches(t, nssel, owner_ns, q);
    return remembered(e, i, q);
}

bool
kp_selcount_term_matches_at(struct kp_selcount_entry *e, unsigned long made,
                            const struct kp_affinity_term *t,
                            const unsigned char *nssel, const char *owner_ns,
                            const struct kp_pod *q, int32_t sidx)
{
    if (sidx < 0 || e->off || e->made != made || e->kind != SC_TERM ||
        (size_t)sidx >= e->npm || (size_t)sidx >= e->cl->snap->npods)
        return kp_selcount_term_matches(e, made, t, nssel, owner_ns, q);
#ifdef KP_SELFCHECK
    kp_selfcheck_count();
    if (e->cl->snap->pods[sidx] != q)
        kp_selfcheck_fail("term match of %s/%s read at snapshot index %d, "
                          "another pod's", q->ns, q->name, (int)sidx);
#endif
    return remembered(e, (size_t)sidx, q);
}

int64_t
kp_selcount_recount(const struct kp_selcount_entry *e,
                    const struct kp_node_info *ni)
{
    const struct kp_victim_table *vt = NULL;
    int64_t count = 0;
    size_t i;

    /*
     * A pod of a namespace the entry cannot count is passed over on its
     * namespace as the node's current table lists it, without reading
     * the pod (a term with a namespaceSelector reads the pod's).
     */
    if (ni->index >= 0 && (size_t)ni->index < e->cl->snap->nnodes &&
        ni == &e->cl->nodes[ni->index])
        vt = kp_node_table(e->cl, ni->index);
    if (e->kind == SC_SPREAD) {
        /* selector.Empty(): no requirements (labels.Nothing is not empty) */
        if (!e->sel.is_null && e->sel.nreq == 0)
            return 0;
        for (i = 0; i < ni->npods; i++) {
            const struct kp_pod *q;

            /* the hash first: most namespaces differ */
            if (vt && ((e->ns_hash_on && vt->ns_hash[i] != e->ns_hash) ||
                       strcmp(vt->ns[i], e->ns) != 0))
                continue;
            q = ni->pods[i];
            if (q->deleting ||
                (q->ns != e->ns && strcmp(q->ns, e->ns) != 0))
                continue;
            if (kp_selector_matches(&e->sel, &q->labels))
                count++;
        }
        return count;
    }
    if (e->term->has_ns_selector)
        vt = NULL;
    for (i = 0; i < ni->npods; i++) {
        if (vt && !kp_term_ns_listed(e->term, e->owner_ns, vt->ns[i]))
            continue;
        if (kp_incoming_term_matches(e->term, e->nssel, e->owner_ns,
                                     ni->pods[i]))
            count++;
    }
    return count;
}

int64_t
kp_selcount_node(struct kp_selcount_entry *e, const struct kp_node_info *ni)
{
    size_t idx = (size_t)ni->index;
    unsigned long want = ni->gen + 1;

    if (e->off || ni->index < 0 || idx >= e->cl->snap->nnodes ||
        ni != &e->cl->nodes[idx])
        return kp_selcount_recount(e, ni);
    if (e->stamp[idx] != want || want == 0) {
        e->count[idx] = kp_selcount_recount(e, ni);
        e->stamp[idx] = want;
    }
#ifdef KP_SELFCHECK
    /* kept, or filled for every node at once (fill_from_index) */
    else {
        int64_t fresh = kp_selcount_recount(e, ni);

        kp_selfcheck_count();
        if (fresh != e->count[idx])
            kp_selfcheck_fail("selector count of %s: %lld kept, %lld "
                              "counted afresh", ni->node->name,
                              (long long)e->count[idx], (long long)fresh);
    }
#endif
    return e->count[idx];
}

/* KP_NO_TERM_DOMAINS (term_domains.h: the same switch, both sums) */
static atomic_int domains_off_once = -1;

const struct kp_tpcount *
kp_selcount_domains(struct kp_selcount_entry *e, unsigned long made,
                    const char *key)
{
    const struct kp_cluster *cl = e->cl;
    size_t i, n = cl->snap->nnodes;
    struct sc_domains *d = NULL;
    const char *const *col;

    if (e->off || e->kind != SC_TERM || e->made != made ||
        kp_shortcut_off_once(&domains_off_once, "KP_NO_TERM_DOMAINS"))
        return NULL;
    for (i = 0; i < e->ndom; i++)
        if (strcmp(e->dom[i].key, key) == 0)
            d = &e->dom[i];
    if (!d) {
        if (e->ndom == SC_DOMAIN_KEYS)
            return NULL;
        d = &e->dom[e->ndom++];
        d->key = key;
        d->ready = false;
    }
    col = kp_cluster_label_column(cl, d->key);
    if (!d->ready) {
        if (!d->node)
            kp_arena_init(&d->a);
        else
            kp_arena_reset(&d->a);
        if (!d->node || d->nnode < n) {
            free(d->node);
            d->node = kp_xmalloc((n ? n : 1) * sizeof(*d->node));
            d->nnode = n;
        }
        kp_tpcount_init(&d->m);
        for (i = 0; i < n; i++) {
            const char *v = col ? col[i] :
                            kp_labels_get(&cl->nodes[i].node->labels, d->key);

            d->node[i] = kp_selcount_node(e, &cl->nodes[i]);
            if (v && d->node[i] != 0)
                kp_tpcount_add(&d->a, &d->m, d->key, v, d->node[i]);
        }
        d->pos = cl->nchanged;
        d->ready = true;
        return &d->m;
    }
    /* the nodes changed since: each counted again, the difference added */
    for (; d->pos < cl->nchanged; d->pos++) {
        int k = cl->changed[d->pos];
        int64_t c = kp_selcount_node(e, &cl->nodes[k]);
        const char *v;

        if (c == d->node[k])
            continue;
        v = col ? col[k] : kp_labels_get(&cl->nodes[k].node->labels, d->key);
        if (v)
            kp_tpcount_add(&d->a, &d->m, d->key, v, c - d->node[k]);
        d->node[k] = c;
    }
    return &d->m;
}

/* ---- interned terms of existing pods ---- */

static void
term_key(struct keybuf *kb, const struct kp_affinity_term *t,
         const char *owner_ns, enum kp_term_kind kind)
{
    size_t i;
    int k = (int)kind;

    put(kb, &k, sizeof(k));
    put_selector(kb, &t->selector);
    put_size(kb, t->nnamespaces);
    for (i = 0; i < t->nnamespaces; i++)
        put_str(kb, t->namespaces[i]);
    put(kb, &t->has_ns_selector, sizeof(t->has_ns_selector));
    if (t->has_ns_selector)
        put_selector(kb, &t->ns_selector);
    put_str(kb, t->topology_key);
    put(kb, &t->weight, sizeof(t->weight));
    put_str(kb, owner_ns);
}

static void
slots_grow(struct kp_selcount *sc)
{
    size_t cap = sc->capslots ? sc->capslots * 2 : 256, i, j;
    struct term_slot *s = kp_xcalloc(cap, sizeof(*s));

    for (i = 0; i < sc->capslots; i++) {
        if (!sc->slots[i].key)
            continue;
        for (j = sc->slots[i].hash & (cap - 1); s[j].key; j = (j + 1) &
             (cap - 1))
            ;
        s[j] = sc->slots[i];
    }
    free(sc->slots);
    sc->slots = s;
    sc->capslots = cap;
}

/*
 * The interned terms by address: a term lives as long as the snapshot
 * (the interned ref keeps its address too) and never changes, so its
 * id, once made from its content, is found again from (address, owner
 * namespace, kind) without writing and hashing its canonical key.  The
 * victim table of a node whose pods changed interns every term of its
 * pods again (victim_table.c rebuild_table), on the thread that changes
 * the cluster, between the pool's runs.
 */
static atomic_int term_memo_off = -1;

static size_t
memo_hash(const struct kp_affinity_term *t, const char *owner_ns,
          enum kp_term_kind kind, size_t mask)
{
    uint64_t h = (uint64_t)(uintptr_t)t * 0x9E3779B97F4A7C15ULL;

    h ^= (uint64_t)(uintptr_t)owner_ns * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint64_t)kind * 0x165667B19E3779F9ULL;
    return (size_t)(h ^ (h >> 29)) & mask;
}

static struct memo_slot *
memo_find(struct kp_selcount *sc, const struct kp_affinity_term *t,
          const char *owner_ns, enum kp_term_kind kind)
{
    size_t mask = sc->capmemo - 1, j;

    for (j = memo_hash(t, owner_ns, kind, mask); sc->memo[j].t;
         j = (j + 1) & mask)
        if (sc->memo[j].t == t && sc->memo[j].owner_ns == owner_ns &&
            sc->memo[j].kind == (uint32_t)kind)
            return &sc->memo[j];
    return &sc->memo[j];
}

static void
memo_put(struct kp_selcount *sc, const struct kp_affinity_term *t,
         const char *owner_ns, enum kp_term_kind kind, uint32_t id)
{
    struct memo_slot *m;

    if ((sc->nmemo + 1) * 2 > sc->capmemo) {
        struct memo_slot *old = sc->memo;
        size_t i, cap = sc->capmemo;

        sc->capmemo = cap ? cap * 2 : 256;
        sc->memo = kp_xcalloc(sc->capmemo, sizeof(*sc->memo));
        for (i = 0; i < cap; i++)
            if (old[i].t)
                *memo_find(sc, old[i].t, old[i].owner_ns,
                           (enum kp_term_kind)old[i].kind) = old[i];
        free(old);
    }
    m = memo_find(sc, t, owner_ns, kind);
    if (!m->t) {
        m->t = t;
        m->owner_ns = owner_ns;
        m->kind = (uint32_t)kind;
        m->id = id;
        sc->nmemo++;
    }
}

static uint32_t term_intern_key(struct kp_selcount *sc,
                                const struct kp_affinity_term *t,
                                const char *owner_ns, enum kp_term_kind kind);

uint32_t
kp_term_intern(const struct kp_cluster *cl, const struct kp_affinity_term *t,
               const char *owner_ns, enum kp_term_kind kind)
{
    struct kp_selcount *sc = cache_of(cl);
    uint32_t id;

    if (kp_shortcut_off_once(&term_memo_off, "KP_NO_TERM_MEMO"))
        return term_intern_key(sc, t, owner_ns, kind);
    if (sc->capmemo) {
        const struct memo_slot *m = memo_find(sc, t, owner_ns, kind);

        if (m->t) {
#ifdef KP_SELFCHECK
            kp_selfcheck_count();
            if (m->id != term_intern_key(sc, t, owner_ns, kind))
                kp_selfcheck_fail("interned term remembered by address: "
                                  "id %u, its content's differs",
                                  (unsigned)m->id);
#endif
            return m->id;
        }
    }
    id = term_intern_key(sc, t, owner_ns, kind);
    memo_put(sc, t, owner_ns, kind, id);
    return id;
}

/* kp_term_intern by the term's canonical key */
static uint32_t
term_intern_key(struct kp_selcount *sc, const struct kp_affinity_term *t,
                const char *owner_ns, enum kp_term_kind kind)
{
    struct keybuf kb = {NULL, 0, 0};
    uint64_t h;
    size_t j;
    uint32_t id;

    term_key(&kb, t, owner_ns, kind);
    h = kp_hash_bytes(KP_HASH_SEED, kb.p, kb.n);
    if ((sc->nterms + 1) * 2 > sc->capslots)
        slots_grow(sc);
    for (j = h & (sc->capslots - 1); sc->slots[j].key;
         j = (j + 1) & (sc->capslots - 1)) {
        if (sc->slots[j].hash == h && sc->slots[j].keylen == kb.n &&
            memcmp(sc->slots[j].key, kb.p, kb.n) == 0) {
            free(kb.p);
            return sc->slots[j].id;
        }
    }
    if (sc->nterms == sc->capterms) {
        sc->capterms = sc->capterms ? sc->capterms * 2 : 256;
        sc->terms = kp_xrealloc(sc->terms, sc->capterms * sizeof(*sc->terms));
    }
    id = (uint32_t)sc->nterms++;
    sc->terms[id].t = t;
    sc->terms[id].owner_ns = owner_ns;
    sc->terms[id].kind = kind;
    sc->slots[j].hash = h;
    sc->slots[j].key = kp_arena_memdup(&sc->arena, kb.p, kb.n);
    sc->slots[j].keylen = kb.n;
    sc->slots[j].id = id;
    free(kb.p);
    return id;
}

const struct kp_term_ref *
kp_term_get(const struct kp_cluster *cl, uint32_t id)
{
    return &cl->caches->selcount->terms[id];
}

size_t
kp_term_count(const struct kp_cluster *cl)
{
    return cl->caches->selcount ? cl->caches->selcount->nterms : 0;
}

static void
group_add(uint32_t id, uint32_t **ids, int32_t **mult, size_t *n,
          size_t *cap)
{
    size_t i;

    for (i = 0; i < *n; i++)
        if ((*ids)[i] == id) {
            (*mult)[i]++;
            return;
        }
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *ids = kp_xrealloc(*ids, *cap * sizeof(**ids));
        *mult = kp_xrealloc(*mult, *cap * sizeof(**mult));
    }
    (*ids)[*n] = id;
    (*mult)[(*n)++] = 1;
}

size_t
kp_term_groups(const struct kp_cluster *cl, const struct kp_node_info *ni,
               bool anti, uint32_t **ids, int32_t **mult)
{
    size_t i, j, k, n = 0, cap = 0;

    *ids = NULL;
    *mult = NULL;
    for (i = 0; i < ni->npods; i++) {
        const struct kp_pod *q = ni->pods[i];
        const struct kp_affinity_term *lists[3];
        size_t counts[3];

        if (anti) {
            size_t m = kp_affinity_terms_usable(q->anti_affinity,
                                                q->nanti_affinity);

            for (j = 0; j < m; j++)
                group_add(kp_term_intern(cl, &q->anti_affinity[j], q->ns,
                                         KP_TERM_REQ_ANTI),
                          ids, mult, &n, &cap);
            continue;
        }
        if (!kp_pod_has_scored_affinity(q))
            continue;
        lists[0] = q->affinity;
        counts[0] = q->naffinity;
        lists[1] = q->pref_affinity;
        counts[1] = q->npref_affinity;
        lists[2] = q->pref_anti_affinity;
        counts[2] = q->npref_anti_affinity;
        for (k = 0; k < 3; k++) {
            size_t m = kp_affinity_terms_usable(lists[k], counts[k]);

            for (j = 0; j < m; j++)
                group_add(kp_term_intern(cl, &lists[k][j], q->ns,
                                         (enum kp_term_kind)k),
                          ids, mult, &n, &cap);
        }
    }
    return n;
}
