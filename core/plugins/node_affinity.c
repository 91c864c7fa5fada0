/*
 * node_affinity.c - mirrors pkg/scheduler/framework/plugins/nodeaffinity/
 * node_affinity.go: spec.nodeSelector and the required node affinity
 * terms; PreFilter narrows the nodes when every term names nodes with a
 * metadata.name In field requirement.
 */
#include <string.h>

#include "plugins.h"

struct na_state {
    size_t nnames;
    const char **names;     /* allowed node names; NULL: no restriction */
};

static bool
term_names(const struct kp_node_selector_term *t, struct kp_arena *a,
           size_t *n, const char ***out)
{
    size_t i, j, k;
    bool found = false;

    for (i = 0; i < t->nfields; i++) {
        const struct kp_requirement *r = &t->fields[i];

        if (strcmp(r->key, "metadata.name") != 0 || r->op != KP_OP_IN)
            continue;
        if (!found) {
            *out = kp_arena_memdup(a, r->values, r->nvalues * sizeof(char *));
            *n = r->nvalues;
            found = true;
            continue;
        }
        /* several In requirements in one term: intersection */
        for (j = 0, k = 0; j < *n; j++) {
            size_t m;

            for (m = 0; m < r->nvalues; m++)
                if (strcmp((*out)[j], r->values[m]) == 0)
                    break;
            if (m < r->nvalues)
                (*out)[k++] = (*out)[j];
        }
        *n = k;
    }
    return found;
}

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    const struct kp_node_selector *ns = &c->pod->required_node_affinity;
    struct na_state *st;
    size_t i, total = 0;
    const char ***per;
    size_t *nper;

    if (ns->is_null || ns->nterms == 0)
        return kp_status_ok();
    per = kp_arena_alloc(c->scratch, ns->nterms * sizeof(*per));
    nper = kp_arena_alloc(c->scratch, ns->nterms * sizeof(*nper));
    for (i = 0; i < ns->nterms; i++) {
        if (!term_names(&ns->terms[i], c->scratch, &nper[i], &per[i]))
            return kp_status_ok();
        total += nper[i];
    }
    st = kp_arena_alloc(c->scratch, sizeof(*st));
    st->names = kp_arena_alloc(c->scratch, (total + 1) * sizeof(char *));
    for (i = 0; i < ns->nterms; i++) {
        if (nper[i])
            memcpy(st->names + st->nnames, per[i], nper[i] * sizeof(char *));
        st->nnames += nper[i];
    }
    if (st->nnames == 0)
        return kp_status_new(KP_UNRESOLVABLE, KP_REASON_AFFINITY_CONFLICT);
    c->state[idx] = st;
    return kp_status_ok();
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    const struct na_state *st = c->state[idx];

    if (st) {
        size_t i;

        for (i = 0; i < st->nnames; i++)
            if (strcmp(st->names[i], ni->node->name) == 0)
                break;
        if (i == st->nnames)
            return kp_status_new(KP_UNRESOLVABLE,
                                 KP_REASON_NODE_AFFINITY_PREFILTER);
    }
    if (!kp_pod_matches_node_affinity(c->pod, ni->node))
        return kp_status_new(KP_UNRESOLVABLE, KP_REASON_NODE_AFFINITY);
    return kp_status_ok();
}

static void *
clone_state(struct kp_arena *a, const void *state)
{
    (void)a;
    return (void *)state;   /* read-only after PreFilter */
}

const struct kp_plugin kp_plugin_node_affinity = {
    .name = "NodeAffinity",
    .pre_filter = pre_filter,
    .filter = filter,
    .clone_state = clone_state,
};

bool
kp_node_affinity_prefilter_names(const struct kp_cycle *c, size_t *n,
                                 const char *const **names)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++) {
        const struct na_state *st;

        if (kp_filter_plugins[i] != &kp_plugin_node_affinity)
            continue;
        st = c->state[i];
        if (!st)
            return false;
        *n = st->nnames;
        *names = st->names;
        return true;
    }
    return false;
}
