/*
 * common.c - mirrors pkg/scheduler/framework/
 * plugins/podtopologyspread/common.go (filterTopologySpreadConstraints,
 * mergeLabelSetWithSelector, buildDefaultConstraints,
 * matchNodeInclusionPolicies, nodeLabelsMatchSpreadConstraints,
 * countPodsMatchSelector) and plugin.go (systemDefaultConstraints,
 * getConstraints).  See spread.h for the default selector rule.
 */
#include <stdio.h>
#include <string.h>

#include "corev1.h"
#include "config.h"
#include "kube_version.h"
#include "podinfo.h"
#include "spread.h"

struct default_tsc {
    const char *key;
    int32_t max_skew;
};

/* plugin.go systemDefaultConstraints, in upstream order. */
static const struct default_tsc system_defaults[] = {
    {KP_LABEL_HOSTNAME, 3},
    {KP_LABEL_ZONE, 5},
};

/* Labels a StatefulSet sets per pod or per revision (not in its selector). */
static const char *const per_pod_labels[] = {
    "statefulset.kubernetes.io/pod-name",
    "apps.kubernetes.io/pod-index",
    "controller-revision-hash",
};

static bool
per_pod_label(const char *key)
{
    size_t i;

    for (i = 0; i < sizeof(per_pod_labels) / sizeof(per_pod_labels[0]); i++)
        if (strcmp(key, per_pod_labels[i]) == 0)
            return true;
    return false;
}

/* An In requirement with one value (labels.SelectorFromSet). */
static void
set_requirement(struct kp_arena *a, struct kp_requirement *r,
                const char *key, const char *value)
{
    const char **v = kp_arena_alloc(a, sizeof(*v));

    v[0] = value;
    memset(r, 0, sizeof(*r));
    r->key = key;
    r->op = KP_OP_IN;
    r->nvalues = 1;
    r->values = v;
}

/*
 * mergeLabelSetWithSelector: the matchLabelKeys present in the pod's
 * labels, as key In (value), ANDed with the selector.  A null selector
 * (labels.Nothing) has no requirements to merge and stays null.
 */
static void
merge_match_label_keys(struct kp_arena *a,
                       const struct kp_spread_constraint *c,
                       const struct kp_pod *p, struct kp_selector *out)
{
    size_t i, n = 0;

    *out = c->selector;
    if (c->nmatch_label_keys == 0 || out->is_null)
        return;
    out->reqs = kp_arena_alloc(a, (c->selector.nreq + c->nmatch_label_keys)
                               * sizeof(*out->reqs));
    for (i = 0; i < c->nmatch_label_keys; i++) {
        const char *v = kp_labels_get(&p->labels, c->match_label_keys[i]);

        if (v)
            set_requirement(a, &out->reqs[n++], c->match_label_keys[i], v);
    }
    if (c->selector.nreq)       /* an empty selector has reqs == NULL */
        memcpy(out->reqs + n, c->selector.reqs,
               c->selector.nreq * sizeof(*out->reqs));
    out->nreq = n + c->selector.nreq;
}

/*
 * labels.Everything() for countPodsMatchSelector from v1.38
 * (kubernetes/kubernetes#141340, fixing #141339): a selector that is not
 * Empty() yet matches every label set, one requirement "no label has
 * the empty key" (no label key is empty).  Before, an Empty() selector
 * (labelSelector: {}) counts no pod (#116607, v1.27).
 */
static void
everything_selector(struct kp_arena *a, struct kp_selector *sel)
{
    struct kp_requirement *r = kp_arena_alloc(a, sizeof(*r));

    memset(r, 0, sizeof(*r));
    r->key = "";
    r->op = KP_OP_DOES_NOT_EXIST;
    sel->reqs = r;
    sel->nreq = 1;
}

/* filterTopologySpreadConstraints for the pod's own constraints. */
static int
own_constraints(struct kp_arena *a, const struct kp_pod *p, bool hard,
                const struct kp_profile *prof, struct kp_spread_tsc *out,
                size_t *n, const char **err)
{
    bool all = kp_kube_rule_on(KP_RULE_PTS_EMPTY_SELECTOR,
                               prof ? prof->kube_minor : 0);
    size_t i;

    for (i = 0; i < p->nspread; i++) {
        const struct kp_spread_constraint *c = &p->spread[i];
        struct kp_spread_tsc *t = &out[*n];

        if (c->do_not_schedule != hard)
            continue;
        *err = kp_selector_parse_error(a, &c->selector);
        if (*err)
            return -1;
        t->max_skew = c->max_skew;
        t->topology_key = c->topology_key;
        merge_match_label_keys(a, c, p, &t->selector);
        if (all && !t->selector.is_null && !t->selector.invalid &&
            t->selector.nreq == 0)
            everything_selector(a, &t->selector);
        t->min_domains = c->min_domains > 0 ? c->min_domains : 1;
        t->affinity_honor = !c->affinity_policy_ignore;
        t->taints_honor = c->taints_policy_honor;
        (*n)++;
    }
    return 0;
}

/* helper.DefaultSelector, approximated (spread.h); nreq 0 when empty. */
static void
own_labels_selector(struct kp_arena *a, const struct kp_pod *p,
                    struct kp_selector *out)
{
    const char *k = p->controller_kind;
    size_t i;

    memset(out, 0, sizeof(*out));
    if (!k || (strcmp(k, "ReplicaSet") != 0 &&
               strcmp(k, "ReplicationController") != 0 &&
               strcmp(k, "StatefulSet") != 0))
        return;
    out->reqs = kp_arena_alloc(a, (p->labels.n + 1) * sizeof(*out->reqs));
    for (i = 0; i < p->labels.n; i++)
        if (!per_pod_label(p->labels.items[i].key))
            set_requirement(a, &out->reqs[out->nreq++],
                            p->labels.items[i].key,
                            p->labels.items[i].value);
}

/* labels.Merge into the set keys/vals (n of them): later values win */
static void
merge_labels(const struct kp_labels *l, const char **keys,
             const char **vals, size_t *n)
{
    size_t i, j;

    for (i = 0; i < l->n; i++) {
        for (j = 0; j < *n && strcmp(keys[j], l->items[i].key) != 0; j++)
            ;
        keys[j] = l->items[i].key;
        vals[j] = l->items[i].value;
        if (j == *n)
            (*n)++;
    }
}

/* The pod's controller reference names kind in group/version api. */
static bool
controlled_by(const struct kp_pod *p, const char *api, const char *kind)
{
    return p->controller_kind && p->controller_api && p->controller_name &&
           strcmp(p->controller_kind, kind) == 0 &&
           strcmp(p->controller_api, api) == 0;
}

/*
 * helper.DefaultSelector (helper/spread.go): the spec.selector maps of
 * the Services that select the pod (GetPodServices: a nil map selects
 * nothing, {} every pod of the namespace) merged into one label set;
 * then, by the pod's controller reference, a v1 ReplicationController's
 * map merged in, or an apps/v1 ReplicaSet's or StatefulSet's
 * requirements added (a nil or invalid LabelSelector adds none).  An
 * owner that is not in the snapshot adds nothing, as a failed lister Get
 * does.  The input says which kinds it carries (has_spread_input): with
 * none of them, or a live list refused, the pod's own labels stand in
 * (spread.h); without its controller's kind (kubectl cluster-info dump
 * has no StatefulSets), its own labels stand in for the controller's
 * selector.  nreq 0: Empty().
 */
static void
default_selector(struct kp_arena *a, const struct kp_snapshot *snap,
                 const struct kp_pod *p, struct kp_selector *out)
{
    const struct kp_spread_source *owner = NULL;
    const char **keys, **vals;
    struct kp_selector own = {false, false, 0, NULL};
    enum kp_spread_source_kind kind = KP_SRC_SERVICE;
    size_t i, nkeys = 0, cap = 0, nextra = 0;
    const struct kp_requirement *extra = NULL;

    if (!snap || !snap->has_spread_input || snap->spread_refused) {
        own_labels_selector(a, p, out);
        return;
    }
    memset(out, 0, sizeof(*out));
    for (i = 0; i < snap->nsrcs; i++)
        if (snap->srcs[i]->has_map)
            cap += snap->srcs[i]->map.n;
    keys = kp_arena_alloc(a, (cap + 1) * sizeof(*keys));
    vals = kp_arena_alloc(a, (cap + 1) * sizeof(*vals));
    for (i = 0; i < snap->nsrcs; i++) {
        const struct kp_spread_source *src = snap->srcs[i];

        if (src->kind == KP_SRC_SERVICE && src->has_map &&
            strcmp(src->ns, p->ns) == 0 &&
            kp_labels_set_matches(&src->map, &p->labels))
            merge_labels(&src->map, keys, vals, &nkeys);
    }
    if (controlled_by(p, "v1", "ReplicationController"))
        kind = KP_SRC_REPLICATION_CONTROLLER;
    else if (controlled_by(p, "apps/v1", "ReplicaSet"))
        kind = KP_SRC_REPLICA_SET;
    else if (controlled_by(p, "apps/v1", "StatefulSet"))
        kind = KP_SRC_STATEFUL_SET;
    if (kind != KP_SRC_SERVICE && !(snap->has_spread_input & (1u << kind))) {
        /* the input has no object of the controller's kind */
        own_labels_selector(a, p, &own);
        extra = own.reqs;
        nextra = own.nreq;
    } else if (kind != KP_SRC_SERVICE) {
        owner = kp_snapshot_spread_source(snap, kind, p->ns,
                                          p->controller_name);
        if (owner && kind == KP_SRC_REPLICATION_CONTROLLER) {
            if (owner->has_map)
                merge_labels(&owner->map, keys, vals, &nkeys);
        } else if (owner && !owner->sel.is_null && !owner->sel.invalid) {
            /* LabelSelectorAsSelector: nil is Nothing (nothing added) */
            extra = owner->sel.reqs;
            nextra = owner->sel.nreq;
        }
    }
    if (nkeys + nextra == 0)
        return;
    out->reqs = kp_arena_alloc(a, (nkeys + nextra) * sizeof(*out->reqs));
    for (i = 0; i < nkeys; i++)
        set_requirement(a, &out->reqs[out->nreq++], keys[i], vals[i]);
    for (i = 0; i < nextra; i++)
        out->reqs[out->nreq++] = extra[i];
}

/* buildDefaultConstraints from a profile's List defaulting */
static void
list_default_constraints(struct kp_arena *a, const struct kp_snapshot *snap,
                         const struct kp_pod *p, bool hard,
                         const struct kp_profile *prof,
                         struct kp_spread_tsc *out, size_t *n)
{
    struct kp_selector sel;
    size_t i;

    default_selector(a, snap, p, &sel);
    if (sel.nreq == 0)
        return;
    for (i = 0; i < prof->npts_defaults; i++) {
        const struct kp_pts_default *d = &prof->pts_defaults[i];
        struct kp_spread_tsc *t;

        if (d->hard != hard)
            continue;
        t = &out[(*n)++];
        memset(t, 0, sizeof(*t));
        t->max_skew = d->max_skew;
        t->topology_key = d->topology_key;
        t->selector = sel;
        t->min_domains = d->min_domains;
        t->affinity_honor = d->affinity_honor;
        t->taints_honor = d->taints_honor;
    }
}

/* buildDefaultConstraints: the ScheduleAnyway defaults only. */
static void
default_constraints(struct kp_arena *a, const struct kp_snapshot *snap,
                    const struct kp_pod *p, bool hard,
                    struct kp_spread_tsc *out, size_t *n)
{
    struct kp_selector sel;
    size_t i;

    if (hard)
        return;
    default_selector(a, snap, p, &sel);
    if (sel.nreq == 0)
        return;
    for (i = 0; i < sizeof(system_defaults) / sizeof(system_defaults[0]);
         i++) {
        struct kp_spread_tsc *t = &out[(*n)++];

        memset(t, 0, sizeof(*t));
        t->max_skew = system_defaults[i].max_skew;
        t->topology_key = system_defaults[i].key;
        t->selector = sel;
        t->min_domains = 1;
        t->affinity_honor = true;
    }
}

int
kp_spread_get_constraints(struct kp_arena *a, const struct kp_pod *p,
                          bool hard, struct kp_spread_tsc **out, size_t *n,
                          const char **err)
{
    return kp_spread_get_constraints_profile(a, NULL, p, hard, NULL, out, n,
                                             err);
}

int
kp_spread_get_constraints_profile(struct kp_arena *a,
                                  const struct kp_snapshot *snap,
                                  const struct kp_pod *p, bool hard,
                                  const struct kp_profile *prof,
                                  struct kp_spread_tsc **out, size_t *n,
                                  const char **err)
{
    bool list = prof && prof->pts_list_defaulting;
    const char *what = hard ? "hard" : "soft";
    const char *e = NULL;
    size_t sz;
    char *m;

    *n = 0;
    *err = NULL;
    *out = kp_arena_alloc(a, (p->nspread + 2 + (list ? prof->npts_defaults
                                                  : 0)) * sizeof(**out));
    if (p->nspread == 0) {
        if (list)
            list_default_constraints(a, snap, p, hard, prof, *out, n);
        else
            default_constraints(a, snap, p, hard, *out, n);
        return 0;
    }
    if (own_constraints(a, p, hard, prof, *out, n, &e) == 0)
        return 0;
    sz = strlen(e) + 64;
    m = kp_arena_alloc(a, sz);
    snprintf(m, sz, "obtaining pod's %s topology spread constraints: %s",
             what, e);
    *err = m;
    *n = 0;
    return -1;
}

bool
kp_spread_node_has_keys(const struct kp_node *node,
                        const struct kp_spread_tsc *c, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (!kp_labels_get(&node->labels, c[i].topology_key))
            return false;
    return true;
}

/* FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc. */
static bool
tolerates_do_not_schedule(const struct kp_pod *p, const struct kp_node *n)
{
    size_t i;

    for (i = 0; i < n->ntaints; i++) {
        const struct kp_taint *t = &n->taints[i];

        if (strcmp(t->effect, "NoSchedule") != 0 &&
            strcmp(t->effect, "NoExecute") != 0)
            continue;
        if (!kp_tolerates_any(p, t))
            return false;
    }
    return true;
}

bool
kp_spread_match_inclusion(const struct kp_spread_tsc *c,
                          const struct kp_pod *p, const struct kp_node *node)
{
    if (c->affinity_honor && !kp_pod_matches_node_affinity(p, node))
        return false;
    if (c->taints_honor && !tolerates_do_not_schedule(p, node))
        return false;
    return true;
}

int64_t
kp_spread_count_matching(const struct kp_node_info *ni,
                         const struct kp_selector *s, const char *ns)
{
    int64_t count = 0;
    size_t i;

    /* selector.Empty(): no requirements (labels.Nothing is not empty) */
    if (!s->is_null && s->nreq == 0)
        return 0;
    for (i = 0; i < ni->npods; i++) {
        const struct kp_pod *q = ni->pods[i];

        if (q->deleting || strcmp(q->ns, ns) != 0)
            continue;
        if (kp_selector_matches(s, &q->labels))
            count++;
    }
    return count;
}
