/*
 * term_domains.c - see term_domains.h.
 */
#include "term_domains.h"

#include "selcount.h"
#include "shortcut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kp_term_domains {
    struct kp_arena arena;      /* the maps' slots */
    struct kp_tpcount *m;       /* by term id, cap of them */
    bool *listed;               /* by term id: in ids */
    size_t cap;
    uint32_t *ids;              /* the ids counted, in the order first met */
    size_t nids, capids;
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
    free(d->ids);
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

void
kp_term_domains_table(struct kp_cluster *cl, const struct kp_victim_table *vt,
                      int node, int sign)
{
    struct kp_term_domains *d;
    const struct kp_node *n = cl->nodes[node].node;
    size_t g;

    if (!vt || !vt->grp_ready)
        return;
    if (!cl->caches->term_domains_decided && sign > 0)
        start(cl);
    d = cl->caches->term_domains;
    if (!d)
        return;
    for (g = 0; g < vt->nanti_grp; g++) {
        uint32_t id = vt->anti_grp_id[g];
        const char *key = kp_term_get(cl, id)->t->topology_key;
        const char *v = kp_labels_get(&n->labels, key);

        /* topologyToMatchedTermCount.update: only where the node has it */
        if (!v)
            continue;
        reserve(d, id);
        if (!d->listed[id]) {
            if (d->nids == d->capids) {
                d->capids = d->capids ? d->capids * 2 : 64;
                d->ids = kp_xrealloc(d->ids, d->capids * sizeof(*d->ids));
            }
            d->ids[d->nids++] = id;
            d->listed[id] = true;
        }
        kp_tpcount_add(&d->arena, &d->m[id], key, v,
                       sign * (int64_t)vt->anti_grp_mult[g]);
    }
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
    *n = d->nids;
    return d->ids;
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
