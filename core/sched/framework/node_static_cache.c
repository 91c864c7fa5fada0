/*
 * node_static_cache.c - the answers of the Filter plugins marked
 * node_static, kept across pods with the same constraints.  No upstream
 * counterpart: kube-scheduler runs every Filter plugin for every pod.
 * Moved verbatim from framework.c (issue 28).
 *
 * When an answer stops holding: never while the cluster lives, for the
 * pods whose constraints it was made for.  The node_static plugins
 * (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity: the
 * leading run of kp_filter_plugins) read the pod's constraints and the
 * node's name, labels, taints and unschedulable flag, which no pod placed
 * or removed changes.  A pod with other constraints (or another profile,
 * or other plugins skipped) takes the least recently used slot, whose
 * epoch is bumped: every node's answer in it is then stale.  Only a cycle
 * that runs alone (kp_cycle.alone) reads or fills the slots.
 */
#include "framework.h"
#include "framework_int.h"

#include <string.h>

/* ---- the node_static plugins' answers, kept across pods ---- */

/* the number of leading node_static plugins */
size_t
static_prefix(void)
{
    size_t i = 0;

    while (i < kp_nfilter_plugins && kp_filter_plugins[i]->node_static)
        i++;
    return i;
}

static bool
same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool
same_requirements(const struct kp_requirement *a,
                  const struct kp_requirement *b, size_t n)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        if (!same_str(a[i].key, b[i].key) || a[i].op != b[i].op ||
            a[i].nvalues != b[i].nvalues || a[i].num_ok != b[i].num_ok ||
            a[i].num != b[i].num)
            return false;
        for (j = 0; j < a[i].nvalues; j++)
            if (!same_str(a[i].values[j], b[i].values[j]))
                return false;
    }
    return true;
}

static bool
same_node_selector(const struct kp_node_selector *a,
                   const struct kp_node_selector *b)
{
    size_t i;

    if (a->is_null != b->is_null || a->nterms != b->nterms)
        return false;
    for (i = 0; i < a->nterms; i++) {
        const struct kp_node_selector_term *x = &a->terms[i];
        const struct kp_node_selector_term *y = &b->terms[i];

        if (x->invalid != y->invalid || x->nexprs != y->nexprs ||
            x->nfields != y->nfields ||
            !same_requirements(x->exprs, y->exprs, x->nexprs) ||
            !same_requirements(x->fields, y->fields, x->nfields))
            return false;
    }
    return true;
}

bool
kp_same_node_selector(const struct kp_node_selector *a,
                      const struct kp_node_selector *b)
{
    return same_node_selector(a, b);
}

/* whether the node_static plugins read the same of a and b */
static bool
same_static_constraints(const struct kp_pod *a, const struct kp_pod *b)
{
    size_t i;

    if (a == b)
        return true;
    if (!same_str(a->node_name, b->node_name) ||
        a->ntolerations != b->ntolerations ||
        a->node_selector.n != b->node_selector.n ||
        !same_node_selector(&a->required_node_affinity,
                            &b->required_node_affinity))
        return false;
    for (i = 0; i < a->ntolerations; i++) {
        const struct kp_toleration *x = &a->tolerations[i];
        const struct kp_toleration *y = &b->tolerations[i];

        if (x->op != y->op || !same_str(x->key, y->key) ||
            !same_str(x->value, y->value) || !same_str(x->effect, y->effect))
            return false;
    }
    for (i = 0; i < a->node_selector.n; i++)
        if (!same_str(a->node_selector.items[i].key,
                      b->node_selector.items[i].key) ||
            !same_str(a->node_selector.items[i].value,
                      b->node_selector.items[i].value))
            return false;
    return true;
}

void
kp_cycle_keep_static(const struct kp_cycle *c)
{
    struct kp_static_answers *sa = c->cl->caches->static_answers;
    struct kp_static_slot *sl = NULL;
    size_t i, j, n = static_prefix(), nnodes = c->cl->snap->nnodes;

    if (!sa || !c->alone)
        return;
    for (i = 0; i < KP_STATIC_SLOTS && !sl; i++) {
        struct kp_static_slot *x = &sa->slot[i];
        bool same = x->rep && x->profile == c->profile &&
                    same_static_constraints(x->rep, c->pod);

        for (j = 0; same && j < n; j++)
            same = x->skip[j] == c->skip[j];
        if (same)
            sl = x;
    }
    if (!sl) {
        /* the least recently used slot starts again: a new epoch */
        sl = &sa->slot[0];
        for (i = 1; i < KP_STATIC_SLOTS; i++)
            if (sa->slot[i].last < sl->last)
                sl = &sa->slot[i];
        if (!sl->tag) {
            sl->tag = kp_xcalloc(nnodes ? nnodes : 1, sizeof(unsigned));
            sl->st = kp_xmalloc((nnodes ? nnodes : 1) * sizeof(*sl->st));
        }
        if (++sl->epoch == 0) {
            memset(sl->tag, 0, (nnodes ? nnodes : 1) * sizeof(unsigned));
            sl->epoch = 1;
        }
        for (i = 0; i < n; i++)
            sl->skip[i] = c->skip[i];
        sl->profile = c->profile;
    }
    /* the pod the answers are now for (its own, which outlives them) */
    sl->rep = c->pod;
    sl->last = ++sa->clock;
    sa->cur = sl;
    sa->pod = c->pod;
}
