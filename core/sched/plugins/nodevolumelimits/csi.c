/*
 * csi.c - mirrors pkg/scheduler/framework/plugins/
 * nodevolumelimits/csi.go (CSILimits): per CSI driver, the volumes the
 * pods on the node attach plus the new pod's volumes that are not among
 * them must not exceed the driver's allocatable.count in the node's
 * CSINode, else "node(s) exceed max volume count" (Unschedulable).
 *
 * A volume is "<driver>/<handle>": a PVC bound to a CSI PV; a PVC bound
 * to an in-tree PV (AWS EBS, GCE PD, Azure Disk, Cinder, Portworx) or an
 * inline volume of those types when the node has a CSINode (translated as
 * csi-translation-lib names them); an unbound PVC by its StorageClass's
 * provisioner, one volume per claim.  Not loaded, hence not counted:
 * VolumeAttachment objects (newer releases count attachments in
 * progress) and CSIDriver (preventPodSchedulingIfMissing); Node
 * allocatable "attachable-volumes-*" limits (older releases) are not read.
 */
#include <string.h>

#include "plugins.h"
#include "volume.h"

struct attached {
    const char *key;        /* volumeUniqueName "<driver>/<handle>" */
    const char *driver;     /* the limit key: the driver */
};

struct attach_set {
    size_t n, cap;
    struct attached *v;
};

static void
set_put(struct kp_arena *a, struct attach_set *s, const char *driver,
        const char *handle)
{
    const char *key = kp_volume_msg(a, "%s/%s", driver, handle);
    size_t i;

    for (i = 0; i < s->n; i++)
        if (strcmp(s->v[i].key, key) == 0) {
            s->v[i].driver = driver;
            return;
        }
    if (s->n == s->cap) {
        struct attached *nv;

        s->cap = s->cap ? s->cap * 2 : 8;
        nv = kp_arena_alloc(a, s->cap * sizeof(*nv));
        if (s->n)
            memcpy(nv, s->v, s->n * sizeof(*nv));
        s->v = nv;
    }
    s->v[s->n].key = key;
    s->v[s->n].driver = driver;
    s->n++;
}

/* getCSIDriverInfoFromSC: an unbound claim counts by its provisioner. */
static void
driver_from_class(const struct kp_cycle *c, const struct kp_csinode *cn,
                  const struct kp_pvc *pvc, const char **driver,
                  const char **handle)
{
    const struct kp_storage_class *sc;

    *driver = *handle = NULL;
    if (!pvc->storage_class[0])
        return;
    sc = kp_snapshot_storage_class(c->cl->snap, pvc->storage_class);
    if (!sc)
        return;
    /* randomVolumeIDPrefix: a handle no real volume has */
    *handle = kp_volume_msg(c->scratch, "\001-%s/%s", pvc->ns, pvc->name);
    if (kp_provisioner_is_in_tree(sc->provisioner))
        *driver = cn ? kp_provisioner_csi_driver(sc->provisioner) : NULL;
    else
        *driver = sc->provisioner;
}

/* getCSIDriverInfo */
static void
driver_info(const struct kp_cycle *c, const struct kp_csinode *cn,
            const struct kp_pvc *pvc, const char **driver,
            const char **handle)
{
    const struct kp_pv *pv = pvc->volume_name ?
        kp_snapshot_pv(c->cl->snap, pvc->volume_name) : NULL;

    *driver = *handle = NULL;
    if (!pv) {
        driver_from_class(c, cn, pvc, driver, handle);
        return;
    }
    if (pv->kind == KP_PV_CSI) {
        *driver = pv->driver;
        *handle = pv->id;
    } else if (cn && kp_pv_csi_driver(pv->kind)) {
        /* a migrated in-tree plugin (isCSIMigrationOn needs a CSINode) */
        *driver = kp_pv_csi_driver(pv->kind);
        *handle = kp_pv_csi_handle(c->scratch, pv);
    }
}

/*
 * filterAttachableVolumes: the pod's volumes into out.  A missing PVC of
 * the new pod is UnschedulableAndUnresolvable; other failures are errors.
 */
static struct kp_status
attachable_volumes(const struct kp_cycle *c, const struct kp_pod *p,
                   const struct kp_csinode *cn, bool new_pod,
                   struct attach_set *out)
{
    bool evaluated = kp_volumes_evaluated(c);
    size_t i;

    for (i = 0; i < p->nvolumes; i++) {
        const struct kp_volume *v = &p->volumes[i];
        const char *driver, *handle, *name, *error;
        const struct kp_pvc *pvc;

        if (!kp_volume_is_claim(v)) {
            /* an inline volume: counted once migrated (CSINode) */
            driver = kp_inline_csi_driver(v->kind);
            if (!driver || !cn)
                continue;
            handle = kp_inline_csi_handle(c->scratch, v, &error);
            if (error)
                return kp_status_new(KP_ERROR, error);
            set_put(c->scratch, out, driver, handle);
            continue;
        }
        if (!evaluated)
            continue;
        name = kp_volume_claim_name(c->scratch, p, v);
        if (!name[0])
            return kp_status_new(KP_ERROR,
                                 "PersistentVolumeClaim had no name");
        pvc = kp_snapshot_pvc(c->cl->snap, p->ns, name);
        if (!pvc && new_pod)
            return kp_status_new(KP_UNRESOLVABLE,
                kp_volume_msg(c->scratch, "looking up PVC %s/%s: %s", p->ns,
                              name, kp_pvc_not_found(c->scratch, name)));
        if (!pvc)
            continue;   /* an existing pod's claim that is gone */
        if (v->kind == KP_VOL_EPHEMERAL &&
            (error = kp_volume_is_for_pod(c->scratch, p, pvc)) != NULL)
            return kp_status_new(KP_ERROR, error);
        driver_info(c, cn, pvc, &driver, &handle);
        if (driver && handle && driver[0] && handle[0])
            set_put(c->scratch, out, driver, handle);
    }
    return kp_status_ok();
}

static bool
may_attach(const struct kp_volume *v, bool evaluated)
{
    return kp_volume_is_claim(v) ? evaluated
                                 : kp_inline_csi_driver(v->kind) != NULL;
}

static struct kp_status
pre_filter(struct kp_cycle *c, int idx)
{
    size_t i;

    (void)idx;
    for (i = 0; i < c->pod->nvolumes; i++)
        if (may_attach(&c->pod->volumes[i], kp_volumes_evaluated(c)))
            return kp_status_ok();
    return kp_status_new(KP_SKIP, NULL);
}

/* The CSINode's allocatable.count of driver, or -1 (no limit). */
static int64_t
driver_limit(const struct kp_csinode *cn, const char *driver)
{
    int64_t limit = -1;
    size_t i;

    for (i = 0; cn && i < cn->ndrivers; i++)
        if (cn->drivers[i].has_count &&
            strcmp(cn->drivers[i].name, driver) == 0)
            limit = cn->drivers[i].count;
    return limit;
}

static bool
set_has(const struct attach_set *s, const char *key)
{
    size_t i;

    for (i = 0; i < s->n; i++)
        if (strcmp(s->v[i].key, key) == 0)
            return true;
    return false;
}

/* Volumes of driver in s (and, when skip is set, not in skip). */
static int64_t
count_driver(const struct attach_set *s, const char *driver,
             const struct attach_set *skip)
{
    int64_t n = 0;
    size_t i;

    for (i = 0; i < s->n; i++)
        if (strcmp(s->v[i].driver, driver) == 0 &&
            (!skip || !set_has(skip, s->v[i].key)))
            n++;
    return n;
}

/*
 * The Filter's check; on "exceed max volume count" *ex (when not NULL)
 * gets the driver over its limit and the counts (diagnosis_detail.c).
 */
static struct kp_status
check_limits(const struct kp_cycle *c, const struct kp_node_info *ni,
             struct kp_csi_excess *ex)
{
    const struct kp_csinode *cn = kp_snapshot_csinode(c->cl->snap,
                                                      ni->node->name);
    struct attach_set fresh = {0, 0, NULL}, attached = {0, 0, NULL};
    struct kp_status st;
    size_t i;

    st = attachable_volumes(c, c->pod, cn, true, &fresh);
    if (st.code != KP_SUCCESS || fresh.n == 0)
        return st;
    for (i = 0; cn && i < cn->ndrivers && !cn->drivers[i].has_count; i++)
        ;
    if (!cn || i == cn->ndrivers)
        return kp_status_ok();  /* getVolumeLimits: the node has none */
    for (i = 0; i < ni->npods; i++) {
        st = attachable_volumes(c, ni->pods[i], cn, false, &attached);
        if (st.code != KP_SUCCESS)
            return st;
    }
    for (i = 0; i < fresh.n; i++) {
        const char *d = fresh.v[i].driver;
        int64_t limit = driver_limit(cn, d);

        if (limit >= 0 && count_driver(&attached, d, NULL) +
                          count_driver(&fresh, d, &attached) > limit) {
            if (ex) {
                ex->driver = d;
                ex->attached = count_driver(&attached, d, NULL);
                ex->adding = count_driver(&fresh, d, &attached);
                ex->limit = limit;
            }
            return kp_status_new(KP_UNSCHEDULABLE,
                                 KP_REASON_MAX_VOLUME_COUNT);
        }
    }
    return kp_status_ok();
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    (void)idx;
    return check_limits(c, ni, NULL);
}

bool
kp_csi_limit_excess(const struct kp_cycle *c, const struct kp_node_info *ni,
                    struct kp_csi_excess *ex)
{
    return check_limits(c, ni, ex).code == KP_UNSCHEDULABLE;
}

const struct kp_plugin kp_plugin_node_volume_limits = {
    .name = "NodeVolumeLimits",
    .pre_filter = pre_filter,
    .filter = filter,
};
