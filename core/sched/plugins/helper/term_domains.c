/*
 * term_domains.c - see term_domains.h.
 */
#include "term_domains.h"

#include "selcount.h"
#include "selfcheck.h"
#include "shortcut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A list's ids by what their label selector requires (kp_term_domains_
 * visit): each id under the values of its first In requirement (a pod
 * without one of them on that key cannot match it), or, with none, in
 * always; an id whose selector matches nothing is in neither.
 */
struct req_slot {
    const char *key, *value;    /* NULL key: empty slot */
    uint64_t h;                 /* kp_label_hash(key, value) */
    uint32_t head;              /* first link + 1 (0: none) */
};

struct link {
    uint32_t id;
    uint32_t next;              /* next link + 1 (0: the last) */
};

struct id_list {
    uint32_t *ids;
    size_t n, cap;
    struct req_slot *slots;
    size_t nslots, capslots;
    struct link *links;
    size_t nlinks, caplinks;
    uint32_t *always;
    size_t nalways, capalways;
};

struct kp_term_domains {
    struct kp_arena arena;      /* the maps' slots */
    struct kp_tpcount *m;       /* by term id, cap of them */
    bool *listed;               /* by term id: in ids */
    size_t cap;
    /* the ids counted, in the order first met: */
    struct id_list anti;        /* required anti-affinity (PreFilter) */
    struct id_list scored;      /* the kinds PreScore reads */
};

/*
 * Made when the cluster's first table is built, before any other is
 * (kp_cluster_init_tables builds every node's in turn; a tables_lazy
 * cluster builds none, and so has none)
 */
static void
start(struct kp_cluster *cl)
{
    struct kp_term_domains *d;

    cl->caches->term_domains_decided = true;
    if (kp_shortcut_off("KP_NO_TERM_DOMAINS"))
        return;
    d = kp_xcalloc(1, sizeof(*d));
    kp_arena_init(&d->arena);
    cl->caches->term_domains = d;
}

static void
free_list(struct id_list *l)
{
    free(l->ids);
    free(l->slots);
    free(l->links);
    free(l->always);
}

void
kp_term_domains_free(struct kp_term_domains *d)
{
    if (!d)
        return;
    kp_arena_release(&d->arena);
    free(d->m);
    free(d->listed);
    free_list(&d->anti);
    free_list(&d->scored);
    free(d);
}

/* d->m and d->listed long enough for id */
static void
reserve(struct kp_term_domains *d, uint32_t id)
{
    size_t cap = d->cap ? d->cap : 64;

    if (id < d->cap)
        return;
    while (cap <= id)
        cap *= 2;
    d->m = kp_xrealloc(d->m, cap * sizeof(*d->m));
    d->listed = kp_xrealloc(d->listed, cap * sizeof(*d->listed));
    memset(&d->m[d->cap], 0, (cap - d->cap) * sizeof(*d->m));
    memset(&d->listed[d->cap], 0, (cap - d->cap) * sizeof(*d->listed));
    d->cap = cap;
}

/* the slot of (key, value), whose kp_label_hash is h, or the empty one */
static struct req_slot *
find_slot(const struct id_list *l, const char *key, const char *value,
          uint64_t h)
{
    size_t j;

    if (!l->capslots)
        return NULL;
    for (j = h & (l->capslots - 1); l->slots[j].key;
         j = (j + 1) & (l->capslots - 1))
        if (l->slots[j].h == h && strcmp(l->slots[j].key, key) == 0 &&
            strcmp(l->slots[j].value, value) == 0)
            return &l->slots[j];
    return &l->slots[j];
}

/* id listed under (key, value) */
static void
link_id(struct id_list *l, const char *key, const char *value, uint32_t id)
{
    uint64_t h = kp_label_hash(key, value);
    struct req_slot *s;

    if ((l->nslots + 1) * 2 > l->capslots) {
        struct req_slot *old = l->slots;
        size_t cap = l->capslots, i;

        l->capslots = cap ? cap * 2 : 64;
        l->slots = kp_xcalloc(l->capslots, sizeof(*l->slots));
        for (i = 0; i < cap; i++)
            if (old[i].key)
                *find_slot(l, old[i].key, old[i].value, old[i].h) = old[i];
        free(old);
    }
    s = find_slot(l, key, value, h);
    if (!s->key) {
        s->key = key;
        s->value = value;
        s->h = h;
        s->head = 0;
        l->nslots++;
    }
    if (l->nlinks == l->caplinks) {
        l->caplinks = l->caplinks ? l->caplinks * 2 : 64;
        l->links = kp_xrealloc(l->links, l->caplinks * sizeof(*l->links));
    }
    l->links[l->nlinks].id = id;
    l->links[l->nlinks].next = s->head;
    s->head = (uint32_t)++l->nlinks;
}

/* id (just listed) indexed by its selector's first In requirement */
static void
index_id(const struct kp_cluster *cl, struct id_list *l, uint32_t id)
{
    const struct kp_selector *sel = &kp_term_get(cl, id)->t->selector;
    const struct kp_requirement *r = NULL;
    size_t i, j;

    if (sel->is_null || sel->invalid)
        return;
    for (i = 0; i < sel->nreq && !r; i++)
        if (sel->reqs[i].op == KP_OP_IN)
            r = &sel->reqs[i];
    if (!r) {
        if (l->nalways == l->capalways) {
            l->capalways = l->capalways ? l->capalways * 2 : 16;
            l->always = kp_xrealloc(l->always,
                                    l->capalways * sizeof(*l->always));
        }
        l->always[l->nalways++] = id;
        return;
    }
    /* (a value given twice is one link: the id is visited once) */
    for (i = 0; i < r->nvalues; i++) {
        for (j = 0; j < i && strcmp(r->values[j], r->values[i]) != 0; j++)
            ;
        if (j == i)
            link_id(l, r->key, r->values[i], id);
    }
}

/*
 * A table's groups (ids, mult; n of them) of the node n added with sign,
 * each id listed in l when first counted (an id is of one kind: in one
 * list only)
 */
static void
count_groups(struct kp_cluster *cl, struct kp_term_domains *d,
             const struct kp_node *n, const uint32_t *ids,
             const int32_t *mult, size_t ngrp, int sign, struct id_list *l)
{
    size_t g;

    for (g = 0; g < ngrp; g++) {
        uint32_t id = ids[g];
        const char *key = kp_term_get(cl, id)->t->topology_key;
        const struct kp_label *lb = kp_labels_find(&n->labels, key);

        /* topologyToMatchedTermCount.update: only where the node has it */
        if (!lb)
            continue;
        reserve(d, id);
        if (!d->listed[id]) {
            if (l->n == l->cap) {
                l->cap = l->cap ? l->cap * 2 : 64;
                l->ids = kp_xrealloc(l->ids, l->cap * sizeof(*l->ids));
            }
            l->ids[l->n++] = id;
            d->listed[id] = true;
            index_id(cl, l, id);
        }
        kp_tpcount_add_hashed(&d->arena, &d->m[id], key, lb->value,
                              kp_tpcount_label_hash(lb),
                              sign * (int64_t)mult[g]);
    }
}

void
kp_term_domains_table(struct kp_cluster *cl, const struct kp_victim_table *vt,
                      int node, int sign)
{
    struct kp_term_domains *d;
    const struct kp_node *n = cl->nodes[node].node;

    if (!vt || !vt->grp_ready)
        return;
    if (!cl->caches->term_domains_decided && sign > 0)
        start(cl);
    d = cl->caches->term_domains;
    if (!d)
        return;
    count_groups(cl, d, n, vt->anti_grp_id, vt->anti_grp_mult, vt->nanti_grp,
                 sign, &d->anti);
    count_groups(cl, d, n, vt->grp_id, vt->grp_mult, vt->ngrp, sign,
                 &d->scored);
}

const struct kp_term_domains *
kp_term_domains_of(const struct kp_cluster *cl)
{
    return cl->caches && cl->vt && !cl->tables_lazy ?
           cl->caches->term_domains : NULL;
}

const uint32_t *
kp_term_domains_ids(const struct kp_term_domains *d, size_t *n)
{
    *n = d->anti.n;
    return d->anti.ids;
}

/* KP_NO_TERM_INDEX */
static atomic_int index_off = -1;

#ifdef KP_SELFCHECK
/*
 * The self-check build: every id of l not visited has a selector that
 * does not match labels
 */
static void
check_unvisited(const struct kp_cluster *cl, const struct id_list *l,
                const struct kp_labels *labels, const bool *visited)
{
    size_t k;

    for (k = 0; k < l->n; k++)
        if (!visited[l->ids[k]] &&
            kp_selector_matches(&kp_term_get(cl, l->ids[k])->t->selector,
                                labels))
            kp_selfcheck_fail("term domains: term %u matches the pod's "
                              "labels but is not visited",
                              (unsigned)l->ids[k]);
    kp_selfcheck_count();
}
#endif

void
kp_term_domains_visit(const struct kp_cluster *cl,
                      const struct kp_term_domains *d, bool scored,
                      const struct kp_labels *labels,
                      void (*fn)(void *arg, uint32_t id), void *arg)
{
    const struct id_list *l = scored ? &d->scored : &d->anti;
    size_t i;
#ifdef KP_SELFCHECK
    bool *visited = kp_xcalloc(d->cap + 1, sizeof(*visited));
#define VISIT(id) (visited[id] = true, fn(arg, id))
#else
#define VISIT(id) fn(arg, id)
#endif

    if (kp_shortcut_off_once(&index_off, "KP_NO_TERM_INDEX")) {
        for (i = 0; i < l->n; i++)
            VISIT(l->ids[i]);
    } else {
        for (i = 0; i < l->nalways; i++)
            VISIT(l->always[i]);
        for (i = 0; i < labels->n; i++) {
            const struct kp_label *lb = &labels->items[i];
            const struct req_slot *s = find_slot(
                l, lb->key, lb->value, kp_tpcount_label_hash(lb));
            uint32_t k;

            for (k = s ? s->head : 0; k; k = l->links[k - 1].next)
                VISIT(l->links[k - 1].id);
        }
    }
#undef VISIT
#ifdef KP_SELFCHECK
    check_unvisited(cl, l, labels, visited);
    free(visited);
#else
    (void)cl;
#endif
}

const struct kp_tpcount *
kp_term_domains_get(const struct kp_term_domains *d, uint32_t id)
{
    return &d->m[id];
}

/* node i's groups (ids, mult; n of them) counted afresh into fresh */
static void
recount_groups(const struct kp_cluster *cl, size_t i, const uint32_t *ids,
               const int32_t *mult, size_t n, struct kp_arena *a,
               struct kp_tpcount *fresh)
{
    size_t g;

    for (g = 0; g < n; g++) {
        const char *key = kp_term_get(cl, ids[g])->t->topology_key;
        const char *v = kp_labels_get(&cl->nodes[i].node->labels, key);

        if (v)
            kp_tpcount_add(a, &fresh[ids[g]], key, v, mult[g]);
    }
}

bool
kp_term_domains_check(const struct kp_cluster *cl, char *why, size_t whylen)
{
    const struct kp_term_domains *d = kp_term_domains_of(cl);
    size_t nterms = kp_term_count(cl), i;
    struct kp_tpcount *fresh, none;
    struct kp_arena a;
    bool same = true;

    if (!d)
        return true;
    kp_arena_init(&a);
    kp_tpcount_init(&none);
    fresh = kp_xcalloc(nterms + 1, sizeof(*fresh));
    for (i = 0; i < cl->snap->nnodes; i++) {
        const struct kp_victim_table *vt = cl->vt[i];

        if (!vt || !vt->grp_ready)
            continue;
        recount_groups(cl, i, vt->anti_grp_id, vt->anti_grp_mult,
                       vt->nanti_grp, &a, fresh);
        recount_groups(cl, i, vt->grp_id, vt->grp_mult, vt->ngrp, &a, fresh);
    }
    for (i = 0; i < nterms && same; i++) {
        char w[256];

        if (!kp_tpcount_same(i < d->cap ? &d->m[i] : &none, &fresh[i], false,
                             w, sizeof(w))) {
            snprintf(why, whylen, "term %zu: %s", i, w);
            same = false;
        }
    }
    free(fresh);
    kp_arena_release(&a);
    return same;
}
