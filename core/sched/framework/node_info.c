/*
 * node_info.c - NodeInfo (framework.h): a node with its pods, requested
 * resources, host ports (host_port_info.c) and anti-affinity count, and
 * its AddPod/RemovePod/Snapshot (clone), as
 * pkg/scheduler/framework/types.go's NodeInfo.  Moved verbatim from
 * framework.c (issue 28).
 */
#include "framework.h"
#include "framework_int.h"

#include <string.h>

/* ---- NodeInfo ---- */

/*
 * What a pod adds to (sign 1) or takes from (sign -1) its node's
 * aggregates: requested resources and the anti-affinity count.  The pod
 * list itself is the caller's.
 */
/* what p adds to (sign 1) or takes from (-1) ni->nonzero */
static void
account_nonzero(struct kp_node_info *ni, const struct kp_pod *p, int sign)
{
    const int64_t v[4] = {p->nonzero_cpu, p->nonzero_mem,
                          p->nonzero131_cpu, p->nonzero131_mem};
    size_t k;

    for (k = 0; k < 4; k++)
        ni->nonzero[k] = sign > 0 ? kp_wrap_add(ni->nonzero[k], v[k]) :
                         kp_wrap_sub(ni->nonzero[k], v[k]);
}

void
kp_ni_nonzero_requested(const struct kp_node_info *ni, bool v131,
                        int64_t *out)
{
    size_t i;

    if (ni->nonzero_kept) {
        out[0] = ni->nonzero[v131 ? KP_NZ_CPU131 : KP_NZ_CPU];
        out[1] = ni->nonzero[v131 ? KP_NZ_MEM131 : KP_NZ_MEM];
        return;
    }
    out[0] = out[1] = 0;
    for (i = 0; i < ni->npods; i++) {
        const struct kp_pod *q = ni->pods[i];

        out[0] = kp_wrap_add(out[0], v131 ? q->nonzero131_cpu
                                          : q->nonzero_cpu);
        out[1] = kp_wrap_add(out[1], v131 ? q->nonzero131_mem
                                          : q->nonzero_mem);
    }
}

static void
account(struct kp_node_info *ni, const struct kp_pod *p, int sign)
{
    size_t i;

    if (p->nanti_affinity > 0)
        ni->nanti = sign > 0 ? ni->nanti + 1 : ni->nanti - 1;
    for (i = 0; i < p->req.n; i++) {
        int r = kp_ni_slot(ni, p->req.e[i].id);

        if (r >= 0)
            ni->used[r] = sign > 0 ?
                kp_wrap_add(ni->used[r], p->req.e[i].value) :
                kp_wrap_sub(ni->used[r], p->req.e[i].value);
    }
}

int64_t
kp_ni_used_sparse(const struct kp_node_info *ni, int id)
{
    int64_t sum = 0;
    size_t k;

    for (k = 0; k < ni->npods; k++)
        sum = kp_wrap_add(sum, kp_resvec_get(&ni->pods[k]->req, id));
    return sum;
}

int64_t
kp_ni_alloc_sparse(const struct kp_node_info *ni, int id)
{
    return kp_resvec_get(&ni->node->allocatable, id);
}

/* updateUsedPorts: a NULL for the cluster's NodeInfos */
void
ports_add(struct kp_node_info *ni, struct kp_arena *a, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < p->nhost_ports; i++)
        kp_port_set_add(&ni->ports, a, &p->host_ports[i]);
}

void
ports_remove(struct kp_node_info *ni, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < p->nhost_ports; i++)
        kp_port_set_remove(&ni->ports, &p->host_ports[i]);
}

void
kp_node_info_add(struct kp_node_info *ni, const struct kp_pod *p)
{
    if (ni->npods == ni->cap) {
        ni->cap = ni->cap ? ni->cap * 2 : 8;
        ni->pods = kp_xrealloc(ni->pods, ni->cap * sizeof(*ni->pods));
    }
    ni->pods[ni->npods++] = p;
    ni->gen++;
    account(ni, p, 1);
    account_nonzero(ni, p, 1);
    ports_add(ni, NULL, p);
}

void
kp_node_info_remove(struct kp_node_info *ni, const struct kp_pod *p)
{
    size_t i;

    ni->gen++;
    /* from the end: a reprieved pod that does not fit was just added */
    for (i = ni->npods; i-- > 0;) {
        if (ni->pods[i] == p) {
            memmove(&ni->pods[i], &ni->pods[i + 1],
                    (ni->npods - i - 1) * sizeof(*ni->pods));
            ni->npods--;
            ni->nanti -= p->nanti_affinity > 0;
            ports_remove(ni, p);
            break;
        }
    }
    /*
     * The requests go even for a pod not found.  Upstream's
     * NodeInfo.RemovePod (pkg/scheduler/framework/types.go) returns an
     * error and leaves the requests then; every caller here removes a pod
     * the NodeInfo holds (kp_cluster_remove: the node it was placed on or
     * bound to; the dry run: the node's own victims), so the two agree.
     */
    for (i = 0; i < p->req.n; i++) {
        int r = kp_ni_slot(ni, p->req.e[i].id);

        if (r >= 0)
            ni->used[r] = kp_wrap_sub(ni->used[r], p->req.e[i].value);
    }
    account_nonzero(ni, p, -1);
}

/*
 * Clones live in an arena: their pods array must not be realloc'ed, so
 * the clone gets room for `extra` more pods up front.
 */
struct kp_node_info *
kp_node_info_clone(struct kp_arena *a, const struct kp_node_info *ni,
                   size_t nres, size_t extra)
{
    struct kp_node_info *c = kp_arena_alloc(a, sizeof(*c));

    c->node = ni->node;
    c->index = ni->index;
    c->unschedulable = ni->unschedulable;
    c->ntaints = ni->ntaints;
    c->used = kp_arena_memdup(a, ni->used, nres * sizeof(int64_t));
    c->cap = ni->npods + extra;
    c->npods = ni->npods;
    c->nanti = ni->nanti;
    /* clone_add and the victim tables' rows do not keep it */
    c->nonzero_kept = false;
    c->alloc = ni->alloc;
    c->res_slot = ni->res_slot;
    c->nres_ids = ni->nres_ids;
    /* the first npods are copied, the rest written as pods come */
    c->pods = kp_arena_alloc_uninit(a, (c->cap ? c->cap : 1) *
                                    sizeof(*c->pods));
    if (ni->npods)
        memcpy(c->pods, ni->pods, ni->npods * sizeof(*c->pods));
    /* the used ports are the clone's own, growing in a */
    kp_port_set_copy(&c->ports, &ni->ports, a);
    return c;
}

void
clone_add(struct kp_arena *a, struct kp_node_info *ni, const struct kp_pod *p)
{
    /* capacity was reserved by kp_node_info_clone */
    ni->pods[ni->npods++] = p;
    account(ni, p, 1);
    ports_add(ni, a, p);
}
