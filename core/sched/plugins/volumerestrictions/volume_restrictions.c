/*
 * volume_restrictions.c - mirrors pkg/scheduler/framework/plugins/
 * volumerestrictions/volume_restrictions.go.
 *
 * Filter: a GCE PD, AWS EBS, RBD or iSCSI volume of the pod conflicts with
 * the same disk used by a pod on the node (isVolumeConflict), and a
 * ReadWriteOncePod claim of the pod already used by a pod anywhere in the
 * cluster fails every node; both Unschedulable, so preemption may free
 * them.  PreFilter looks up every PVC of the pod (a missing one rejects
 * the pod: persistentvolumeclaim "x" not found) and counts the pods using
 * its ReadWriteOncePod claims; AddPod/RemovePod keep that count in step,
 * as updateWithPod does (by claim name, whatever the namespace).
 */
#include <string.h>

#include "plugins.h"
#include "volume.h"

struct vr_state {
    size_t nclaims;
    const char **claims;    /* readWriteOncePodPVCs: claim names */
    int64_t conflicts;      /* conflictingPVCRefCount */
};

/* haveOverlap */
static bool
have_overlap(const struct kp_volume *a, const struct kp_volume *b)
{
    size_t i, j;

    for (i = 0; i < a->nmonitors; i++)
        for (j = 0; j < b->nmonitors; j++)
            if (strcmp(a->monitors[i], b->monitors[j]) == 0)
                return true;
    return false;
}

/* isVolumeConflict for one volume of each pod (same source type). */
static bool
volumes_conflict(const struct kp_volume *v, const struct kp_volume *e)
{
    if (v->kind != e->kind)
        return false;
    switch (v->kind) {
    case KP_VOL_GCE_PD:
    case KP_VOL_ISCSI:
        /* same disk (IQN) unless both mount it read-only */
        return strcmp(v->id, e->id) == 0 && !(v->read_only && e->read_only);
    case KP_VOL_AWS_EBS:
        return strcmp(v->id, e->id) == 0;
    case KP_VOL_RBD:
        return have_overlap(v, e) && strcmp(v->pool, e->pool) == 0 &&
               strcmp(v->id, e->id) == 0 && !(v->read_only && e->read_only);
    default:
        return false;
    }
}

/* needsRestrictionsCheck */
static bool
needs_check(const struct kp_volume *v)
{
    return v->kind == KP_VOL_GCE_PD || v->kind == KP_VOL_AWS_EBS ||
           v->kind == KP_VOL_RBD || v->kind == KP_VOL_ISCSI;
}

static bool
has_claim(const struct vr_state *s, const char *name)
{
    size_t i;

    for (i = 0; i < s->nclaims; i++)
        if (strcmp(s->claims[i], name) == 0)
            return true;
    return false;
}

/* IsPVCUsedByPods: some pod on a node of the cluster uses ns/name. */
static bool
claim_used(const struct kp_cluster *cl, const char *ns, const char *name)
{
    size_t i, j, k;

    for (i = 0; i < cl->snap->nnodes; i++)
        for (j = 0; j < cl->nodes[i].npods; j++) {
            const struct kp_pod *q = cl->nodes[i].pods[j];

            if (strcmp(q->ns, ns) != 0)
                continue;
            for (k = 0; k < q->nvolumes; k++)
                if (q->volumes[k].kind == KP_VOL_PVC &&
                    strcmp(q->volumes[k].id, name) == 0)
                    return true;
        }
    return false;
}

/* readWriteOncePodPVCsForPod and calPreFilterState. */
static struct kp_status
read_write_once_pod_claims(struct kp_cycle *c, struct vr_state *s)
{
    const struct kp_pod *p = c->pod;
    size_t i;

    s->claims = kp_arena_alloc(c->scratch, (p->nvolumes + 1) *
                               sizeof(char *));
    for (i = 0; i < p->nvolumes; i++) {
        const struct kp_volume *v = &p->volumes[i];
        const struct kp_pvc *pvc;

        if (v->kind != KP_VOL_PVC)
            continue;
        pvc = kp_snapshot_pvc(c->cl->snap, p->ns, v->id);
        if (!pvc)
            return kp_status_new(KP_UNRESOLVABLE,
                                 kp_pvc_not_found(c->scratch, v->id));
        if ((pvc->access_modes & KP_AM_RWOP) && !has_claim(s, pvc->name))
            s->claims[s->nclaims++] = pvc->name;
    }
    for (i = 0; i < s->nclaims; i++)
        if (claim_used(c->cl, p->ns, s->claims[i]))
            s->conflicts++;     /* at most one pod may use such a claim */
    return kp_status_ok();
}

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    struct vr_state *s = kp_arena_alloc(c->scratch, sizeof(*s));
    bool check = false;
    size_t i;

    for (i = 0; i < c->pod->nvolumes; i++)
        if (needs_check(&c->pod->volumes[i]))
            check = true;
    if (kp_volumes_evaluated(c)) {
        struct kp_status st = read_write_once_pod_claims(c, s);

        if (st.code != KP_SUCCESS)
            return st;
    }
    if (!check && s->conflicts == 0)
        return kp_status_new(KP_SKIP, NULL);
    c->state[idx] = s;
    return kp_status_ok();
}

/* satisfyVolumeConflicts */
static bool
satisfy_volume_conflicts(const struct kp_pod *p,
                         const struct kp_node_info *ni)
{
    size_t i, j, k;

    for (i = 0; i < p->nvolumes; i++) {
        if (!needs_check(&p->volumes[i]))
            continue;
        for (j = 0; j < ni->npods; j++) {
            const struct kp_pod *q = ni->pods[j];

            for (k = 0; k < q->nvolumes; k++)
                if (volumes_conflict(&p->volumes[i], &q->volumes[k]))
                    return false;
        }
    }
    return true;
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    const struct vr_state *s = c->state[idx];

    if (!satisfy_volume_conflicts(c->pod, ni))
        return kp_status_new(KP_UNSCHEDULABLE, KP_REASON_DISK_CONFLICT);
    if (s && s->conflicts > 0)
        return kp_status_new(KP_UNSCHEDULABLE, KP_REASON_RWOP_CONFLICT);
    return kp_status_ok();
}

/* updateWithPod: the pod's PVC volumes naming one of the claims. */
static void
update_with_pod(struct vr_state *s, const struct kp_pod *q, int64_t mult)
{
    size_t i;

    for (i = 0; i < q->nvolumes; i++)
        if (q->volumes[i].kind == KP_VOL_PVC &&
            has_claim(s, q->volumes[i].id))
            s->conflicts += mult;
}

static void
add_pod(struct kp_cycle *c, int idx, const struct kp_pod *pod,
        const struct kp_node_info *ni)
{
    (void)ni;
    if (c->state[idx])
        update_with_pod(c->state[idx], pod, 1);
}

static void
remove_pod(struct kp_cycle *c, int idx, const struct kp_pod *pod,
           const struct kp_node_info *ni)
{
    (void)ni;
    if (c->state[idx])
        update_with_pod(c->state[idx], pod, -1);
}

static void *
clone_state(struct kp_arena *a, const void *state)
{
    return kp_arena_memdup(a, state, sizeof(struct vr_state));
}

const struct kp_plugin kp_plugin_volume_restrictions = {
    .name = "VolumeRestrictions",
    .pre_filter = pre_filter,
    .filter = filter,
    .add_pod = add_pod,
    .remove_pod = remove_pod,
    .clone_state = clone_state,
};

/* ---- read-only view for tests (plugin_state.h) ---- */

int64_t
kp_vr_state_conflicts(const void *state)
{
    return state ? ((const struct vr_state *)state)->conflicts : 0;
}
