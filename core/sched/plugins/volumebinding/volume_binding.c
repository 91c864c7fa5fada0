/*
 * volume_binding.c - mirrors pkg/scheduler/framework/plugins/volumebinding/
 * volume_binding.go (PreFilter, Filter) and binder.go (GetPodVolumeClaims,
 * GetEligibleNodes, FindPodVolumes with checkBoundClaims,
 * findMatchingVolumes and checkVolumeProvisions), with FindMatchingVolume
 * of k8s.io/component-helpers/storage/volume/pv_helpers.go.
 *
 * PreFilter rejects the pod (UnschedulableAndUnresolvable) when a claim
 * is missing, lost, being deleted, an ephemeral claim the pod does not
 * own, or unbound in an Immediate class; bound claims to local PVs
 * (kubernetes.io/hostname In ...) narrow the nodes (PreFilterResult).
 * Filter: bound PVs' node affinity, then for unbound WaitForFirstConsumer
 * claims a static PV that matches on this node or dynamic provisioning
 * (the class's allowedTopologies); the reasons are all
 * UnschedulableAndUnresolvable.  Not modelled: CSIStorageCapacity
 * (storage is always "sufficient"), the in-tree to CSI translation of a
 * PV's node affinity on migrated nodes, and the PV/PVC assume cache of
 * pods placed earlier in the queue.
 */
#include <string.h>

#include "plugins.h"
#include "volume.h"

#define HOSTNAME_LABEL "kubernetes.io/hostname"
#define NO_PROVISIONER "kubernetes.io/no-provisioner"

struct vb_state {
    size_t nbound, ndelay;
    const struct kp_pvc **bound;    /* boundClaims */
    const struct kp_pvc **delay;    /* unboundClaimsDelayBinding */
};

/* The PVC of a claim volume, or a rejection (podHasPVCs). */
static const struct kp_pvc *
claim_of(struct kp_cycle *c, const struct kp_volume *v, struct kp_status *st)
{
    const struct kp_pod *p = c->pod;
    const char *name = kp_volume_claim_name(c->scratch, p, v);
    const struct kp_pvc *pvc = kp_snapshot_pvc(c->cl->snap, p->ns, name);
    const char *msg = NULL;

    if (!pvc && v->kind == KP_VOL_EPHEMERAL)
        msg = kp_volume_msg(c->scratch, "waiting for ephemeral volume "
                            "controller to create the persistentvolumeclaim "
                            "\"%s\"", name);
    else if (!pvc)
        msg = kp_pvc_not_found(c->scratch, name);
    else if (pvc->phase == KP_CLAIM_LOST)
        msg = kp_volume_msg(c->scratch, "persistentvolumeclaim \"%s\" bound "
                            "to non-existent persistentvolume \"%s\"",
                            pvc->name, pvc->volume_name ? pvc->volume_name
                                                        : "");
    else if (pvc->deleting)
        msg = kp_volume_msg(c->scratch, "persistentvolumeclaim \"%s\" is "
                            "being deleted", pvc->name);
    else if (v->kind == KP_VOL_EPHEMERAL)
        msg = kp_volume_is_for_pod(c->scratch, p, pvc);
    if (msg) {
        *st = kp_status_new(KP_UNRESOLVABLE, msg);
        return NULL;
    }
    return pvc;
}

/* isPVCFullyBound */
static bool
fully_bound(const struct kp_pvc *pvc)
{
    return pvc->volume_name && pvc->bind_completed;
}

static bool
has_name(const char *const *names, size_t n, const char *name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/*
 * GetLocalPersistentVolumeNodeNames: the union over the PV's terms of the
 * intersection of their kubernetes.io/hostname In values.
 */
static size_t
local_pv_nodes(struct kp_arena *a, const struct kp_pv *pv, const char ***out)
{
    const struct kp_node_selector *ns = &pv->node_affinity;
    size_t total = 0, n = 0, i, j, k;
    const char **res;

    for (i = 0; i < ns->nterms; i++)
        for (j = 0; j < ns->terms[i].nexprs; j++)
            total += ns->terms[i].exprs[j].nvalues;
    res = kp_arena_alloc(a, (total + 1) * sizeof(char *));
    for (i = 0; i < ns->nterms; i++) {
        const struct kp_node_selector_term *t = &ns->terms[i];
        const struct kp_requirement *first = NULL;

        for (j = 0; j < t->nexprs; j++) {
            const struct kp_requirement *r = &t->exprs[j];

            if (strcmp(r->key, HOSTNAME_LABEL) != 0 || r->op != KP_OP_IN)
                continue;
            if (!first)
                first = r;
        }
        for (k = 0; first && k < first->nvalues; k++) {
            const char *v = first->values[k];
            bool in_all = true;

            for (j = 0; j < t->nexprs && in_all; j++) {
                const struct kp_requirement *r = &t->exprs[j];

                if (strcmp(r->key, HOSTNAME_LABEL) == 0 &&
                    r->op == KP_OP_IN)
                    in_all = has_name(r->values, r->nvalues, v);
            }
            if (in_all && !has_name(res, n, v))
                res[n++] = v;
        }
    }
    *out = res;
    return n;
}

/* GetEligibleNodes: restrict the nodes when the bound PVs are local. */
static void
eligible_nodes(struct kp_cycle *c, int idx, const struct vb_state *s)
{
    const char **set = NULL, **names;
    size_t nset = 0, i, j, k;

    for (i = 0; i < s->nbound; i++) {
        const struct kp_pv *pv = kp_snapshot_pv(c->cl->snap,
                                                s->bound[i]->volume_name);
        size_t n;

        if (!pv)
            return;     /* an error: every node stays eligible */
        n = local_pv_nodes(c->scratch, pv, &names);
        if (n == 0)
            continue;
        if (!set) {
            set = names;
            nset = n;
            continue;
        }
        for (j = 0, k = 0; j < nset; j++)
            if (has_name(names, n, set[j]))
                set[k++] = set[j];
        nset = k;
    }
    if (set)
        kp_cycle_restrict_nodes(c, idx, set, nset);
}

/* GetPodVolumeClaims, after podHasPVCs accepted every claim. */
static struct kp_status
pod_volume_claims(struct kp_cycle *c, struct vb_state *s,
                  const struct kp_pvc **claims, size_t n)
{
    size_t i, nimmediate = 0;

    s->bound = kp_arena_alloc(c->scratch, (n + 1) * sizeof(void *));
    s->delay = kp_arena_alloc(c->scratch, (n + 1) * sizeof(void *));
    for (i = 0; i < n; i++) {
        const struct kp_pvc *pvc = claims[i];

        if (fully_bound(pvc))
            s->bound[s->nbound++] = pvc;
        else if (kp_claim_delay_binding(c->cl->snap, pvc) &&
                 !pvc->volume_name)
            s->delay[s->ndelay++] = pvc;
        else
            nimmediate++;   /* prebound claims count as immediate */
    }
    if (nimmediate)
        return kp_status_new(KP_UNRESOLVABLE, KP_REASON_UNBOUND_IMMEDIATE);
    return kp_status_ok();
}

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    const struct kp_pod *p = c->pod;
    const struct kp_pvc **claims;
    struct vb_state *s;
    struct kp_status st = kp_status_ok();
    size_t i, n = 0;

    if (!kp_volumes_evaluated(c))
        return kp_status_new(KP_SKIP, NULL);
    claims = kp_arena_alloc(c->scratch, (p->nvolumes + 1) * sizeof(void *));
    for (i = 0; i < p->nvolumes; i++) {
        if (!kp_volume_is_claim(&p->volumes[i]))
            continue;
        claims[n] = claim_of(c, &p->volumes[i], &st);
        if (!claims[n++])
            return st;
    }
    if (n == 0)
        return kp_status_new(KP_SKIP, NULL);
    s = kp_arena_alloc(c->scratch, sizeof(*s));
    st = pod_volume_claims(c, s, claims, n);
    if (st.code != KP_SUCCESS)
        return st;
    eligible_nodes(c, idx, s);
    c->state[idx] = s;
    return kp_status_ok();
}

/* ---- Filter: FindPodVolumes ---- */

struct find_result {
    bool bound_ok;          /* boundVolumesSatisfied */
    bool bound_found;       /* boundPVsFound */
    bool unbound_ok;        /* unboundVolumesSatisfied */
    bool storage_ok;        /* sufficientStorage */
    const char *error;      /* an error status instead of reasons */
};

/* checkBoundClaims */
static void
check_bound_claims(const struct kp_cycle *c, const struct vb_state *s,
                   const struct kp_node *node, struct find_result *r)
{
    size_t i;

    for (i = 0; i < s->nbound; i++) {
        const struct kp_pv *pv = kp_snapshot_pv(c->cl->snap,
                                                s->bound[i]->volume_name);

        if (!pv) {
            r->bound_found = false;
            return;
        }
        if (!kp_pv_matches_node(pv, node)) {
            r->bound_ok = false;
            return;
        }
    }
}

/* IsVolumeBoundToClaim */
static bool
bound_to_claim(const struct kp_pv *pv, const struct kp_pvc *pvc)
{
    if (!pv->has_claim_ref || strcmp(pv->claim_name, pvc->name) != 0 ||
        strcmp(pv->claim_ns, pvc->ns) != 0)
        return false;
    return !pv->claim_uid[0] || strcmp(pv->claim_uid, pvc->uid) == 0;
}

static int
cmp_quantity(const struct kp_quantity *a, const struct kp_quantity *b)
{
    if (a->negative != b->negative)
        return a->negative ? -1 : 1;
    if (a->nano == b->nano)
        return 0;
    return (a->nano < b->nano) != a->negative ? -1 : 1;
}

/* The cheap tests of FindMatchingVolume, before node affinity. */
static bool
pv_candidate(const struct kp_pv *pv, const struct kp_pvc *pvc,
             const struct kp_pv *const *excluded, size_t nexcluded)
{
    size_t i;

    for (i = 0; i < nexcluded; i++)
        if (excluded[i] == pv)
            return false;
    if (pv->has_claim_ref && !bound_to_claim(pv, pvc))
        return false;
    if (cmp_quantity(&pv->capacity, &pvc->request) < 0)
        return false;
    /* volumeMode and (VolumeAttributesClass on) the class must match */
    return pv->block == pvc->block && strcmp(pv->vac, pvc->vac) == 0 &&
           !pv->deleting;
}

/*
 * FindMatchingVolume on the scheduler path (node set, delayBinding): the
 * PV pre-bound to the claim (if its node affinity fits, else none), or
 * the smallest Available PV of the claim's class that fits.
 */
static const struct kp_pv *
find_matching_volume(const struct kp_snapshot *snap, const struct kp_pvc *pvc,
                     const struct kp_node *node,
                     const struct kp_pv *const *excluded, size_t nexcluded)
{
    const struct kp_pv *best = NULL;
    size_t i;

    for (i = 0; i < snap->npvs; i++) {
        const struct kp_pv *pv = snap->pvs[i];
        bool fits;

        /* ListPVs(class): the PVs of the claim's class */
        if (strcmp(pv->storage_class, pvc->storage_class) != 0 ||
            !pv_candidate(pv, pvc, excluded, nexcluded))
            continue;
        fits = kp_pv_matches_node(pv, node);
        if (bound_to_claim(pv, pvc))
            return fits ? pv : NULL;
        if (!pv->available ||
            (!pvc->selector.is_null &&
             !kp_selector_matches(&pvc->selector, &pv->labels)) || !fits ||
            (pvc->access_modes & ~pv->access_modes) != 0)
            continue;
        if (!best || cmp_quantity(&best->capacity, &pv->capacity) > 0)
            best = pv;
    }
    return best;
}

/* byPVCSize (stable: equal sizes keep the pod's volume order) */
static void
sort_by_size(const struct kp_pvc **v, size_t n)
{
    size_t i, j;

    for (i = 1; i < n; i++)
        for (j = i; j > 0 && cmp_quantity(&v[j - 1]->request,
                                          &v[j]->request) > 0; j--) {
            const struct kp_pvc *t = v[j];

            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* MatchTopologySelectorTerms: no terms match every node. */
static bool
topology_matches(const struct kp_storage_class *sc, const struct kp_node *n)
{
    size_t i, j;

    if (sc->nallowed == 0)
        return true;
    for (i = 0; i < sc->nallowed; i++) {
        const struct kp_topology_term *t = &sc->allowed[i];
        bool ok = t->nexprs > 0 && !t->invalid;

        for (j = 0; ok && j < t->nexprs; j++)
            ok = kp_requirement_matches(&t->exprs[j], &n->labels);
        if (ok)
            return true;
    }
    return false;
}

/* checkVolumeProvisions (capacity: CSIStorageCapacity is not loaded) */
static void
check_volume_provisions(const struct kp_cycle *c,
                        const struct kp_pvc *const *claims, size_t n,
                        const struct kp_node *node, struct find_result *r)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const struct kp_pvc *pvc = claims[i];
        const struct kp_storage_class *sc;

        if (!pvc->storage_class[0]) {
            r->error = kp_volume_msg(c->scratch, "no class for claim "
                                     "\"%s/%s\"", pvc->ns, pvc->name);
            return;
        }
        sc = kp_snapshot_storage_class(c->cl->snap, pvc->storage_class);
        if (!sc) {
            r->error = kp_volume_msg(c->scratch, "failed to find storage "
                                     "class \"%s\"", pvc->storage_class);
            return;
        }
        if (!sc->provisioner[0] ||
            strcmp(sc->provisioner, NO_PROVISIONER) == 0 ||
            !topology_matches(sc, node)) {
            r->unbound_ok = false;
            return;
        }
    }
    r->unbound_ok = true;
}

/* The unbound WaitForFirstConsumer claims of FindPodVolumes. */
static void
check_unbound_claims(const struct kp_cycle *c, const struct vb_state *s,
                     const struct kp_node *node, struct find_result *r)
{
    size_t n = s->ndelay, nfind = 0, nprov = 0, nchosen = 0, i;
    const struct kp_pvc **find = kp_arena_alloc(c->scratch,
                                                (n + 1) * sizeof(void *));
    const struct kp_pvc **prov = kp_arena_alloc(c->scratch,
                                                (n + 1) * sizeof(void *));
    const struct kp_pv **chosen = kp_arena_alloc(c->scratch,
                                                 (n + 1) * sizeof(void *));

    for (i = 0; i < n; i++) {
        const struct kp_pvc *pvc = s->delay[i];

        if (pvc->selected_node && strcmp(pvc->selected_node,
                                         node->name) != 0) {
            r->unbound_ok = false;      /* fast path: another node */
            return;
        }
        if (pvc->selected_node)
            prov[nprov++] = pvc;
        else
            find[nfind++] = pvc;
    }
    sort_by_size(find, nfind);
    for (i = 0; i < nfind; i++) {
        const struct kp_pv *pv = find_matching_volume(c->cl->snap, find[i],
                                                      node, chosen, nchosen);

        if (pv) {
            chosen[nchosen++] = pv;
        } else {
            prov[nprov++] = find[i];
            r->unbound_ok = false;
        }
    }
    if (nprov)
        check_volume_provisions(c, prov, nprov, node, r);
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    const struct vb_state *s = c->state[idx];
    struct find_result r = {true, true, true, true, NULL};
    struct kp_status st;

    if (!s)
        return kp_status_ok();
    if (s->nbound)
        check_bound_claims(c, s, ni->node, &r);
    if (s->ndelay)
        check_unbound_claims(c, s, ni->node, &r);
    if (r.error)
        return kp_status_new(KP_ERROR, r.error);
    st = kp_status_new(KP_UNRESOLVABLE, NULL);
    if (!r.bound_ok)
        kp_status_add_reason(&st, KP_REASON_VOLUME_NODE_CONFLICT);
    if (!r.unbound_ok)
        kp_status_add_reason(&st, KP_REASON_VOLUME_BIND_CONFLICT);
    if (!r.storage_ok)
        kp_status_add_reason(&st, KP_REASON_NOT_ENOUGH_SPACE);
    if (!r.bound_found)
        kp_status_add_reason(&st, KP_REASON_PV_NOT_EXIST);
    return st.nreasons ? st : kp_status_ok();
}

static void *
clone_state(struct kp_arena *a, const void *state)
{
    (void)a;
    return (void *)state;   /* read-only after PreFilter */
}

const struct kp_plugin kp_plugin_volume_binding = {
    .name = "VolumeBinding",
    .pre_filter = pre_filter,
    .filter = filter,
    .clone_state = clone_state,
};
