/*
 * volume_zone.c - mirrors pkg/scheduler/framework/plugins/volumezone/
 * volume_zone.go.
 *
 * PreFilter reads the zone and region labels (beta and GA) of the PVs
 * bound to the pod's PVC volumes; a missing PVC, PV or StorageClass, or
 * an unbound claim of an Immediate class, rejects the pod
 * (UnschedulableAndUnresolvable); unbound WaitForFirstConsumer claims
 * are skipped.  Filter: a node carrying any of the four labels must
 * carry, for every PV label, one of the label's "__"-separated values
 * (a beta PV label may be matched by the node's GA label), else "node(s)
 * had no available volume zone" (UnschedulableAndUnresolvable).
 */
#include <string.h>

#include "plugins.h"
#include "volume.h"

#define BETA_ZONE "failure-domain.beta.kubernetes.io/zone"
#define BETA_REGION "failure-domain.beta.kubernetes.io/region"
#define GA_ZONE "topology.kubernetes.io/zone"
#define GA_REGION "topology.kubernetes.io/region"

static const char *const topology_labels[] = {BETA_ZONE, BETA_REGION,
                                              GA_ZONE, GA_REGION};
#define NLABELS (sizeof(topology_labels) / sizeof(topology_labels[0]))

struct pv_topology {
    const char *key;
    size_t nvalues;
    const char **values;
};

struct vz_state {
    size_t n;
    struct pv_topology *topo;   /* podPVTopologies */
};

static bool
is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
           ch == '\v' || ch == '\f';
}

/*
 * volumehelpers.LabelZonesToSet: split on "__", trim spaces; an empty
 * element makes the label unusable (false: the label is ignored).
 */
static bool
label_zones(struct kp_arena *a, const char *value, struct pv_topology *t)
{
    const char *p = value;
    size_t n = 1, k = 0;

    while ((p = strstr(p, "__")) != NULL) {
        n++;
        p += 2;
    }
    t->values = kp_arena_alloc(a, n * sizeof(char *));
    for (p = value;; ) {
        const char *sep = strstr(p, "__");
        const char *end = sep ? sep : p + strlen(p);

        while (p < end && is_space(*p))
            p++;
        while (end > p && is_space(end[-1]))
            end--;
        if (end == p)
            return false;
        t->values[k++] = kp_arena_strndup(a, p, (size_t)(end - p));
        if (!sep)
            break;
        p = sep + 2;
    }
    t->nvalues = k;
    return true;
}

/* The PV of one PVC volume: NULL with *skip (unbound, delayed) or *st. */
static const struct kp_pv *
volume_pv(struct kp_cycle *c, const char *claim, bool *skip,
          struct kp_status *st)
{
    const struct kp_snapshot *s = c->cl->snap;
    const struct kp_pvc *pvc;
    const struct kp_storage_class *sc;
    const struct kp_pv *pv;

    *skip = false;
    if (!claim[0]) {
        *st = kp_status_new(KP_UNRESOLVABLE,
                            "PersistentVolumeClaim had no name");
        return NULL;
    }
    pvc = kp_snapshot_pvc(s, c->pod->ns, claim);
    if (!pvc) {
        *st = kp_status_new(KP_UNRESOLVABLE,
                            kp_pvc_not_found(c->scratch, claim));
        return NULL;
    }
    if (!pvc->volume_name) {
        if (!pvc->storage_class[0]) {
            *st = kp_status_new(KP_UNRESOLVABLE, "PersistentVolumeClaim had "
                                "no pv name and storageClass name");
            return NULL;
        }
        sc = kp_snapshot_storage_class(s, pvc->storage_class);
        if (!sc)
            *st = kp_status_new(KP_UNRESOLVABLE,
                                kp_sc_not_found(c->scratch,
                                                pvc->storage_class));
        else if (sc->binding_mode == KP_BINDING_WAIT_FOR_FIRST_CONSUMER)
            *skip = true;
        else
            *st = kp_status_new(KP_UNRESOLVABLE,
                                "PersistentVolume had no name");
        return NULL;
    }
    pv = kp_snapshot_pv(s, pvc->volume_name);
    if (!pv)
        *st = kp_status_new(KP_UNRESOLVABLE,
                            kp_pv_not_found(c->scratch, pvc->volume_name));
    return pv;
}

/* getPVbyPod */
static struct kp_status
pv_topologies(struct kp_cycle *c, struct vz_state *s)
{
    const struct kp_pod *p = c->pod;
    size_t i, j;

    s->topo = kp_arena_alloc(c->scratch, (p->nvolumes * NLABELS + 1) *
                             sizeof(*s->topo));
    for (i = 0; i < p->nvolumes; i++) {
        struct kp_status st = kp_status_ok();
        const struct kp_pv *pv;
        bool skip;

        if (p->volumes[i].kind != KP_VOL_PVC)
            continue;
        pv = volume_pv(c, p->volumes[i].id, &skip, &st);
        if (skip)
            continue;
        if (!pv)
            return st;
        for (j = 0; j < NLABELS; j++) {
            const char *v = kp_labels_get(&pv->labels, topology_labels[j]);

            if (!v || !label_zones(c->scratch, v, &s->topo[s->n]))
                continue;   /* a label that cannot be parsed is ignored */
            s->topo[s->n++].key = topology_labels[j];
        }
    }
    return kp_status_ok();
}

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    struct vz_state *s;
    struct kp_status st;

    if (!kp_volumes_evaluated(c))
        return kp_status_new(KP_SKIP, NULL);
    s = kp_arena_alloc(c->scratch, sizeof(*s));
    st = pv_topologies(c, s);
    if (st.code != KP_SUCCESS)
        return st;
    if (s->n == 0)
        return kp_status_new(KP_SKIP, NULL);
    c->state[idx] = s;
    return kp_status_ok();
}

/* translateToGALabel */
static const char *
ga_label(const char *key)
{
    if (strcmp(key, BETA_REGION) == 0)
        return GA_REGION;
    if (strcmp(key, BETA_ZONE) == 0)
        return GA_ZONE;
    return key;
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    const struct vz_state *s = c->state[idx];
    const struct kp_labels *nl = &ni->node->labels;
    bool constrained = false;
    size_t i, j;

    for (i = 0; i < NLABELS; i++)
        if (kp_labels_get(nl, topology_labels[i]))
            constrained = true;
    /* a node without zone labels: a single-zone cluster */
    if (!s || !constrained)
        return kp_status_ok();
    for (i = 0; i < s->n; i++) {
        const struct pv_topology *t = &s->topo[i];
        const char *v = kp_labels_get(nl, t->key);

        if (!v)
            v = kp_labels_get(nl, ga_label(t->key));
        for (j = 0; v && j < t->nvalues; j++)
            if (strcmp(t->values[j], v) == 0)
                break;
        if (!v || j == t->nvalues)
            return kp_status_new(KP_UNRESOLVABLE, KP_REASON_VOLUME_ZONE);
    }
    return kp_status_ok();
}

static void *
clone_state(struct kp_arena *a, const void *state)
{
    (void)a;
    return (void *)state;   /* read-only after PreFilter */
}

const struct kp_plugin kp_plugin_volume_zone = {
    .name = "VolumeZone",
    .pre_filter = pre_filter,
    .filter = filter,
    .clone_state = clone_state,
};
