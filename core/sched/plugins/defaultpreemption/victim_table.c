/*
 * victim_table.c - per node, the pods SelectVictimsOnNode
 * (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go)
 * reads, most important first (kp_victim_table, framework.h), rebuilt
 * when the node's pods change.  Moved verbatim from framework.c
 * (issue 28).
 */
#include "framework.h"
#include "framework_int.h"
#include "pdb_index.h"
#include "podinfo.h"
#include "selcount.h"
#include "term_domains.h"

#include <stdlib.h>
#include <string.h>

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
         (n + 1) * sizeof(void *) + 2 * (n + 1) * sizeof(int32_t) +
         5 * (n + 1) * sizeof(uint32_t) + 3 * (npdb + 1) * sizeof(int32_t) +
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
    vt->sidx = (int32_t *)(void *)mem;
    mem += (n + 1) * sizeof(int32_t);
    vt->pos = (uint32_t *)(void *)mem;
    mem += (n + 1) * sizeof(uint32_t);
    vt->ns_hash = (uint32_t *)(void *)mem;
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
        vt->ns_hash[k] = kp_ns_hash(vt->ns[k]);
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
        vt->sidx[k] = p->index >= 0 && (size_t)p->index < snap->npods &&
                      snap->pods[p->index] == p ? (int32_t)p->index : -1;
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

void
free_table(struct kp_victim_table *vt)
{
    if (!vt)
        return;
    free(vt->grp_id);
    free(vt->grp_mult);
    free(vt->anti_grp_id);
    free(vt->anti_grp_mult);
    free(vt->anti_off);
    free(vt->anti_ids);
    free(vt);
}

/* vt->anti_off and anti_ids (framework.h), in table order */
static void
anti_terms(const struct kp_cluster *cl, struct kp_victim_table *vt)
{
    size_t k, j, n = 0;

    vt->anti_off = kp_xmalloc((vt->n + 1) * sizeof(*vt->anti_off));
    for (k = 0; k < vt->n; k++)
        n += kp_affinity_terms_usable(vt->pods[k]->anti_affinity,
                                      vt->pods[k]->nanti_affinity);
    vt->anti_ids = kp_xmalloc((n + 1) * sizeof(*vt->anti_ids));
    n = 0;
    for (k = 0; k < vt->n; k++) {
        const struct kp_pod *q = vt->pods[k];
        size_t m = kp_affinity_terms_usable(q->anti_affinity,
                                            q->nanti_affinity);

        vt->anti_off[k] = (uint32_t)n;
        for (j = 0; j < m; j++)
            vt->anti_ids[n++] = kp_term_intern(cl, &q->anti_affinity[j],
                                               q->ns, KP_TERM_REQ_ANTI);
    }
    vt->anti_off[vt->n] = (uint32_t)n;
}

void
rebuild_table(struct kp_cluster *cl, int node)
{
    struct kp_victim_table *vt;

    /* the table's terms leave the domains; the new one's come in */
    kp_term_domains_table(cl, cl->vt[node], node, -1);
    free_table(cl->vt[node]);
    /* a cluster without tables (tables_lazy) stays without */
    if (cl->tables_lazy) {
        cl->vt[node] = NULL;
        return;
    }
    vt = build_table(NULL, cl->snap, &cl->nodes[node], cl->nres);
    vt->ngrp = kp_term_groups(cl, &cl->nodes[node], false, &vt->grp_id,
                              &vt->grp_mult);
    vt->nanti_grp = kp_term_groups(cl, &cl->nodes[node], true,
                                   &vt->anti_grp_id, &vt->anti_grp_mult);
    anti_terms(cl, vt);
    vt->grp_ready = true;
    cl->vt[node] = vt;
    kp_term_domains_table(cl, vt, node, 1);
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
