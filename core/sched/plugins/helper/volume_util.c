/*
 * volume_util.c - see volume.h.  Mirrors the helpers the volume plugins
 * call: k8s.io/component-helpers/storage/volume (IsDelayBindingMode,
 * CheckNodeAffinity), k8s.io/component-helpers/storage/ephemeral
 * (VolumeClaimName, VolumeIsForPod) and the in-tree plugins of
 * k8s.io/csi-translation-lib/plugins (aws_ebs.go, gce_pd.go,
 * azure_disk.go, openstack_cinder.go, portworx.go): driver names and
 * volume handles only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "volume.h"

bool
kp_volumes_evaluated(const struct kp_cycle *c)
{
    return kp_snapshot_volumes_evaluated(c->cl->snap);
}

bool
kp_volume_is_claim(const struct kp_volume *v)
{
    return v->kind == KP_VOL_PVC || v->kind == KP_VOL_EPHEMERAL;
}

const char *
kp_volume_msg(struct kp_arena *a, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return kp_arena_strdup(a, buf);
}

const char *
kp_volume_claim_name(struct kp_arena *a, const struct kp_pod *p,
                     const struct kp_volume *v)
{
    if (v->kind != KP_VOL_EPHEMERAL)
        return v->id;
    return kp_volume_msg(a, "%s-%s", p->name, v->name);
}

const char *
kp_pvc_not_found(struct kp_arena *a, const char *name)
{
    return kp_volume_msg(a, "persistentvolumeclaim \"%s\" not found", name);
}

const char *
kp_pv_not_found(struct kp_arena *a, const char *name)
{
    return kp_volume_msg(a, "persistentvolume \"%s\" not found", name);
}

const char *
kp_sc_not_found(struct kp_arena *a, const char *name)
{
    return kp_volume_msg(a, "storageclass.storage.k8s.io \"%s\" not found",
                         name);
}

const char *
kp_volume_is_for_pod(struct kp_arena *a, const struct kp_pod *p,
                     const struct kp_pvc *pvc)
{
    /* metav1.IsControlledBy: the controller reference names the pod */
    if (strcmp(p->ns, pvc->ns) == 0 && pvc->owner_uid &&
        strcmp(pvc->owner_uid, p->uid) == 0)
        return NULL;
    return kp_volume_msg(a, "PVC %s/%s was not created for pod %s/%s (pod "
                         "is not owner)", pvc->ns, pvc->name, p->ns,
                         p->name);
}

bool
kp_claim_delay_binding(const struct kp_snapshot *s, const struct kp_pvc *pvc)
{
    const struct kp_storage_class *sc;

    if (!pvc->storage_class[0])
        return false;
    sc = kp_snapshot_storage_class(s, pvc->storage_class);
    return sc && sc->binding_mode == KP_BINDING_WAIT_FOR_FIRST_CONSUMER;
}

bool
kp_pv_matches_node(const struct kp_pv *pv, const struct kp_node *node)
{
    if (pv->node_affinity.is_null)
        return true;
    return kp_node_selector_matches(&pv->node_affinity, &node->labels, "");
}

/* ---- csi-translation-lib ---- */

static const struct {
    enum kp_pv_source pv;
    enum kp_volume_kind inl;
    const char *plugin;         /* the in-tree plugin (provisioner) name */
    const char *driver;
} migrated[] = {
    {KP_PV_AWS_EBS, KP_VOL_AWS_EBS, "kubernetes.io/aws-ebs",
     "ebs.csi.aws.com"},
    {KP_PV_GCE_PD, KP_VOL_GCE_PD, "kubernetes.io/gce-pd",
     "pd.csi.storage.gke.io"},
    {KP_PV_AZURE_DISK, KP_VOL_AZURE_DISK, "kubernetes.io/azure-disk",
     "disk.csi.azure.com"},
    {KP_PV_CINDER, KP_VOL_CINDER, "kubernetes.io/cinder",
     "cinder.csi.openstack.org"},
    {KP_PV_PORTWORX, KP_VOL_PORTWORX, "kubernetes.io/portworx-volume",
     "pxd.portworx.com"},
};

#define NMIGRATED (sizeof(migrated) / sizeof(migrated[0]))

const char *
kp_pv_csi_driver(enum kp_pv_source kind)
{
    size_t i;

    for (i = 0; i < NMIGRATED; i++)
        if (migrated[i].pv == kind)
            return migrated[i].driver;
    return NULL;
}

const char *
kp_inline_csi_driver(enum kp_volume_kind kind)
{
    size_t i;

    for (i = 0; i < NMIGRATED; i++)
        if (migrated[i].inl == kind)
            return migrated[i].driver;
    return NULL;
}

const char *
kp_provisioner_csi_driver(const char *provisioner)
{
    size_t i;

    for (i = 0; i < NMIGRATED; i++)
        if (strcmp(migrated[i].plugin, provisioner) == 0)
            return migrated[i].driver;
    return NULL;
}

bool
kp_provisioner_is_in_tree(const char *provisioner)
{
    /* also migratable, but never counted (isCSIMigrationOn: false) */
    return kp_provisioner_csi_driver(provisioner) ||
           strcmp(provisioner, "kubernetes.io/azure-file") == 0 ||
           strcmp(provisioner, "kubernetes.io/vsphere-volume") == 0;
}

/*
 * KubernetesVolumeIDToEBSVolumeID: a bare id as is; "aws://<zone>/<id>"
 * gives the path trimmed of '/', which must look like "vol-...".
 */
static const char *
ebs_volume_id(struct kp_arena *a, const char *id)
{
    const char *path, *end;

    if (strncmp(id, "aws://", 6) != 0)
        return id;
    path = strchr(id + 6, '/');
    if (!path)
        return NULL;
    while (*path == '/')
        path++;
    end = path + strlen(path);
    while (end > path && end[-1] == '/')
        end--;
    if (end - path < 4 || strncmp(path, "vol-", 4) != 0 ||
        memchr(path, '/', (size_t)(end - path)))
        return NULL;
    return kp_arena_strndup(a, path, (size_t)(end - path));
}

/* getRegionFromZones: every zone "<locale>-<region>-<zone>", one region. */
static const char *
gce_region(struct kp_arena *a, const char *zones)
{
    const char *region = NULL, *p = zones;
    size_t rlen = 0;

    for (;;) {
        const char *sep = strstr(p, "__"), *end = sep ? sep : p + strlen(p);
        const char *d1 = memchr(p, '-', (size_t)(end - p));
        const char *d2 = d1 ? memchr(d1 + 1, '-', (size_t)(end - d1 - 1))
                            : NULL;

        if (!d2 || memchr(d2 + 1, '-', (size_t)(end - d2 - 1)))
            return NULL;
        if (region && ((size_t)(d2 - p) != rlen ||
                       strncmp(region, p, rlen) != 0))
            return NULL;
        region = p;
        rlen = (size_t)(d2 - p);
        if (!sep)
            break;
        p = sep + 2;
    }
    return kp_arena_strndup(a, region, rlen);
}

/* gcePersistentDiskCSITranslator.TranslateInTreePVToCSI's volume id. */
static const char *
gce_pv_handle(struct kp_arena *a, const struct kp_pv *pv)
{
    const char *zones = kp_labels_get(&pv->labels,
                                      "failure-domain.beta.kubernetes.io/zone");
    const char *region;

    if (!zones || !zones[0])
        zones = kp_labels_get(&pv->labels, "topology.kubernetes.io/zone");
    if (!zones || !zones[0])
        return kp_volume_msg(a, "projects/UNSPECIFIED/zones/UNSPECIFIED/"
                             "disks/%s", pv->id);
    if (!strstr(zones, "__"))
        return kp_volume_msg(a, "projects/UNSPECIFIED/zones/%s/disks/%s",
                             zones, pv->id);
    region = gce_region(a, zones);
    if (!region)
        return NULL;
    return kp_volume_msg(a, "projects/UNSPECIFIED/regions/%s/disks/%s",
                         region, pv->id);
}

const char *
kp_pv_csi_handle(struct kp_arena *a, const struct kp_pv *pv)
{
    switch (pv->kind) {
    case KP_PV_AWS_EBS:
        return ebs_volume_id(a, pv->id);
    case KP_PV_GCE_PD:
        return gce_pv_handle(a, pv);
    case KP_PV_AZURE_DISK:
    case KP_PV_CINDER:
    case KP_PV_PORTWORX:
        return pv->id;
    default:
        return NULL;
    }
}

const char *
kp_inline_csi_handle(struct kp_arena *a, const struct kp_volume *v,
                     const char **error)
{
    const char *h;

    *error = NULL;
    switch (v->kind) {
    case KP_VOL_AWS_EBS:
        h = ebs_volume_id(a, v->id);
        if (!h)
            *error = kp_volume_msg(a, "converting volume(%s) from inline "
                                   "to csi: Invalid format for AWS volume "
                                   "(%s)", v->name, v->id);
        return h;
    case KP_VOL_GCE_PD:
        return kp_volume_msg(a, "projects/UNSPECIFIED/zones/UNSPECIFIED/"
                             "disks/%s", v->id);
    case KP_VOL_AZURE_DISK:
    case KP_VOL_CINDER:
    case KP_VOL_PORTWORX:
        return v->id;
    default:
        return NULL;
    }
}
