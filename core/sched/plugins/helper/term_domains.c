/*
 * term_domains.c - see term_domains.h.
 */
#include "term_domains.h"

#include "selcount.h"
#include "shortcut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct id_list {
    uint32_t *ids;
    size_t n, cap;
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

void
kp_term_domains_free(struct kp_term_domains *d)
{
    if (!d)
        return;
    kp_arena_release(&d->arena);
    free(d->m);
    free(d->listed);
    free(d->anti.ids);
    free(d->scored.ids);
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

const uint32_t *
kp_term_domains_scored_ids(const struct kp_term_domains *d, size_t *n)
{
    *n = d->scored.n;
    return d->scored.ids;
}

const struct kp_tpcount *
kp_term_domains_get(const struct kp_term_domains *d, uint32_t id)
{
    return &d->m[id];
}

bool
kp_term_domains_check(const struct kp_cluster *cl, char *why, size_t whylen)
{
    const struct kp_term_domains *d = kp_term_domains_of(cl);
    size_t nterms = kp_term_count(cl), i, g;
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

        for (g = 0; vt && vt->grp_ready && g < vt->nanti_grp; g++) {
            uint32_t id = vt->anti_grp_id[g];
            const char *key = kp_term_get(cl, id)->t->topology_key;
            const char *v = kp_labels_get(&cl->nodes[i].node->labels, key);

            if (v)
                kp_tpcount_add(&a, &fresh[id], key, v, vt->anti_grp_mult[g]);
        }
        for (g = 0; vt && vt->grp_ready && g < vt->ngrp; g++) {
            uint32_t id = vt->grp_id[g];
            const char *key = kp_term_get(cl, id)->t->topology_key;
            const char *v = kp_labels_get(&cl->nodes[i].node->labels, key);

            if (v)
                kp_tpcount_add(&a, &fresh[id], key, v, vt->grp_mult[g]);
        }
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
