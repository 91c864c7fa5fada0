/*
 * corev1.c - see corev1.h.
 */
#include "corev1.h"

#include <string.h>

#include "labels.h"
#include "toleration_index.h"

bool
kp_tolerates(const struct kp_toleration *t, const struct kp_taint *taint)
{
    if (t->effect[0] && strcmp(t->effect, taint->effect) != 0)
        return false;
    if (t->key[0] && strcmp(t->key, taint->key) != 0)
        return false;
    switch (t->op) {
    case KP_TOL_EXISTS:
        return true;
    case KP_TOL_EQUAL:
        return strcmp(t->value, taint->value) == 0;
    default:
        return false;
    }
}

bool
kp_tolerates_any(const struct kp_pod *p, const struct kp_taint *taint)
{
    size_t i;

    if (p->tol_index)
        return kp_tol_index_tolerates(p->tol_index, taint);
    for (i = 0; i < p->ntolerations; i++)
        if (kp_tolerates(&p->tolerations[i], taint))
            return true;
    return false;
}

bool
kp_pod_matches_node_affinity(const struct kp_pod *p, const struct kp_node *n)
{
    size_t i;

    for (i = 0; i < p->node_selector.n; i++) {
        const char *v = kp_labels_get(&n->labels,
                                      p->node_selector.items[i].key);

        if (!v || (v != p->node_selector.items[i].value &&
                   strcmp(v, p->node_selector.items[i].value) != 0))
            return false;
    }
    if (p->required_node_affinity.is_null)
        return true;
    return kp_node_selector_matches(&p->required_node_affinity, &n->labels,
                                    n->name);
}
