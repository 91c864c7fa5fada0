/*
 * snapshot_save.c - see snapshot_save.h.
 */
#include "snapshot_save.h"

#include <stdlib.h>
#include <string.h>

static void *
copy_array(const void *a, size_t n, size_t sz)
{
    void *out = kp_xmalloc(n * sz + 1);

    if (n)
        memcpy(out, a, n * sz);
    return out;
}

void
kp_snapshot_save(struct kp_snapshot *s, struct kp_snapshot_saved *v)
{
    size_t i;

    memset(v, 0, sizeof(*v));
    kp_snapshot_mark(s, &v->mark);
    v->pod_ptrs = copy_array(s->pods, s->npods, sizeof(*s->pods));
    v->pods = kp_xmalloc((s->npods + 1) * sizeof(*v->pods));
    for (i = 0; i < s->npods; i++)
        v->pods[i] = *s->pods[i];
    v->node_ptrs = copy_array(s->nodes, s->nnodes, sizeof(*s->nodes));
    v->nodes = kp_xmalloc((s->nnodes + 1) * sizeof(*v->nodes));
    for (i = 0; i < s->nnodes; i++)
        v->nodes[i] = *s->nodes[i];
    v->pdbs = kp_xmalloc((s->npdbs + 1) * sizeof(*v->pdbs));
    for (i = 0; i < s->npdbs; i++)
        v->pdbs[i] = *s->pdbs[i];
    v->pcs = kp_xmalloc((s->npcs + 1) * sizeof(*v->pcs));
    for (i = 0; i < s->npcs; i++)
        v->pcs[i] = *s->pcs[i];
    /*
     * kp_snapshot_finish frees node_pods and node_npods and makes them
     * anew: the snapshot goes on with copies, the arrays themselves are
     * kept here and put back.
     */
    v->node_pods = s->node_pods;
    v->node_npods = s->node_npods;
    if (s->node_pods) {
        s->node_pods = copy_array(v->node_pods, s->nnodes,
                                  sizeof(*s->node_pods));
        s->node_npods = copy_array(v->node_npods, s->nnodes,
                                   sizeof(*s->node_npods));
    }
    v->default_class = s->default_class;
    v->finished = s->finished;
}

void
kp_snapshot_restore(struct kp_snapshot *s, struct kp_snapshot_saved *v)
{
    const struct kp_snapshot_mark *m = &v->mark;
    size_t i;

    /* the appended objects, their names, warnings and resource names */
    kp_snapshot_rollback(s, m);
    for (i = 0; i < m->npods; i++) {
        s->pods[i] = v->pod_ptrs[i];
        *s->pods[i] = v->pods[i];
    }
    for (i = 0; i < m->nnodes; i++) {
        s->nodes[i] = v->node_ptrs[i];
        *s->nodes[i] = v->nodes[i];
    }
    for (i = 0; i < m->npdbs; i++)
        *s->pdbs[i] = v->pdbs[i];
    for (i = 0; i < m->npcs; i++)
        *s->pcs[i] = v->pcs[i];
    if (s->node_pods != v->node_pods) {
        free(s->node_pods);
        free(s->node_npods);
        s->node_pods = v->node_pods;
        s->node_npods = v->node_npods;
    }
    s->default_class = v->default_class;
    s->finished = v->finished;
    free(v->pod_ptrs);
    free(v->pods);
    free(v->node_ptrs);
    free(v->nodes);
    free(v->pdbs);
    free(v->pcs);
    memset(v, 0, sizeof(*v));
}
