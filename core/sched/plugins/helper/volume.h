/*
 * volume.h - what the four volume plugins share: PVC look-ups as the
 * scheduler's listers answer them, the storage-class helpers of
 * k8s.io/component-helpers/storage/volume, the PersistentVolume node
 * affinity check and the in-tree to CSI names of k8s.io/csi-translation-lib.
 */
#ifndef KP_VOLUME_H
#define KP_VOLUME_H

#include <stdbool.h>

#include "framework.h"

#define KP_REASON_DISK_CONFLICT "node(s) had no available disk"
#define KP_REASON_RWOP_CONFLICT \
    "node has pod using PersistentVolumeClaim with the same name and " \
    "ReadWriteOncePod access mode"
#define KP_REASON_MAX_VOLUME_COUNT "node(s) exceed max volume count"
#define KP_REASON_VOLUME_NODE_CONFLICT \
    "node(s) had volume node affinity conflict"
#define KP_REASON_VOLUME_BIND_CONFLICT \
    "node(s) didn't find available persistent volumes to bind"
#define KP_REASON_NOT_ENOUGH_SPACE "node(s) did not have enough free storage"
#define KP_REASON_PV_NOT_EXIST \
    "node(s) unavailable due to one or more pvc(s) bound to " \
    "non-existent pv(s)"
#define KP_REASON_UNBOUND_IMMEDIATE \
    "pod has unbound immediate PersistentVolumeClaims"
#define KP_REASON_VOLUME_ZONE "node(s) had no available volume zone"

/*
 * Whether the PVC-dependent checks run for this input (see
 * kp_snapshot_volumes_evaluated()); when they do not, PVC and ephemeral
 * volumes are left out as if the pod did not have them.
 */
bool kp_volumes_evaluated(const struct kp_cycle *c);
/* PVC or generic ephemeral volume. */
bool kp_volume_is_claim(const struct kp_volume *v);
/*
 * The claim a PVC or ephemeral volume uses: claimName, or for an
 * ephemeral volume "<pod name>-<volume name>" (ephemeral.VolumeClaimName).
 */
const char *kp_volume_claim_name(struct kp_arena *a, const struct kp_pod *p,
                                 const struct kp_volume *v);
/* The lister's NotFound texts: persistentvolumeclaim "x" not found, ... */
const char *kp_pvc_not_found(struct kp_arena *a, const char *name);
const char *kp_pv_not_found(struct kp_arena *a, const char *name);
const char *kp_sc_not_found(struct kp_arena *a, const char *name);
/* printf into the arena (messages of statuses). */
const char *kp_volume_msg(struct kp_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * ephemeral.VolumeIsForPod: NULL when the pod controls the claim, else
 * "PVC ns/name was not created for pod ns/name (pod is not owner)".
 */
const char *kp_volume_is_for_pod(struct kp_arena *a, const struct kp_pod *p,
                                 const struct kp_pvc *pvc);
/* volume.IsDelayBindingMode (a class that does not exist: false). */
bool kp_claim_delay_binding(const struct kp_snapshot *s,
                            const struct kp_pvc *pvc);
/*
 * volume.CheckNodeAffinity: the PV's required node affinity matches the
 * node's labels (as a node without name: matchFields never match).
 */
bool kp_pv_matches_node(const struct kp_pv *pv, const struct kp_node *node);

/*
 * NodeVolumeLimits (nodevolumelimits/csi.c) on node ni: true when the
 * pod would exceed a CSI driver's attach limit there, with that driver,
 * the volumes of it the node's pods attach, the pod's new ones and the
 * CSINode's allocatable.count (for diagnosis_detail.c).
 */
struct kp_csi_excess {
    const char *driver;
    int64_t attached, adding, limit;
};
bool kp_csi_limit_excess(const struct kp_cycle *c,
                         const struct kp_node_info *ni,
                         struct kp_csi_excess *ex);

/*
 * In-tree to CSI (csi-translation-lib): the CSI driver of an in-tree
 * plugin, and the volume handle its translation gives.  NULL for sources
 * that are not migrated (or a translation error).
 */
const char *kp_pv_csi_driver(enum kp_pv_source kind);
const char *kp_pv_csi_handle(struct kp_arena *a, const struct kp_pv *pv);
const char *kp_inline_csi_driver(enum kp_volume_kind kind);
/* For an inline volume; *error is set (and NULL returned) on failure. */
const char *kp_inline_csi_handle(struct kp_arena *a,
                                 const struct kp_volume *v,
                                 const char **error);
/* The in-tree provisioner names migrated to CSI: their driver, or NULL. */
const char *kp_provisioner_csi_driver(const char *provisioner);
/* IsMigratableIntreePluginByName (also the ones never counted). */
bool kp_provisioner_is_in_tree(const char *provisioner);

#endif
