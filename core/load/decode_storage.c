/*
 * decode_storage.c - PersistentVolumeClaim and PersistentVolume (core/v1),
 * StorageClass and CSINode (storage.k8s.io/v1) JSON into the model: what
 * the volume plugins of pkg/scheduler/framework/plugins read.
 *
 * Storage classes follow k8s.io/component-helpers/storage/volume
 * (GetPersistentVolumeClaimClass, GetPersistentVolumeClass: the beta
 * annotation wins over spec.storageClassName).  Values the API server
 * would refuse (an unknown access mode, phase or binding mode) are
 * errors; fields it defaults are defaulted the same way (an RBD pool
 * "rbd", volumeBindingMode Immediate).
 */
#include <string.h>

#include "json_util.h"
#include "quantity.h"
#include "snapshot.h"

#define ANN_STORAGE_CLASS "volume.beta.kubernetes.io/storage-class"
#define ANN_BIND_COMPLETED "pv.kubernetes.io/bind-completed"
#define ANN_SELECTED_NODE "volume.kubernetes.io/selected-node"

/* The annotations object (NULL when absent) and one of its values. */
static int
annotation(struct kp_arena *a, const cJSON *md, const char *key,
           const char **out, bool *present, struct kp_error *err)
{
    const cJSON *ann;

    *out = NULL;
    if (present)
        *present = false;
    if (kp_json_obj(md, "annotations", &ann, err) < 0)
        return -1;
    if (kp_json_str(a, ann, key, out, err) < 0)
        return kp_error_path(err, "annotations");
    if (present)
        *present = kp_json_get(ann, key) != NULL;
    return 0;
}

static int
decode_access_modes(const cJSON *spec, unsigned *out, struct kp_error *err)
{
    static const struct {
        const char *name;
        unsigned bit;
    } modes[] = {
        {"ReadWriteOnce", KP_AM_RWO}, {"ReadOnlyMany", KP_AM_ROX},
        {"ReadWriteMany", KP_AM_RWX}, {"ReadWriteOncePod", KP_AM_RWOP},
    };
    const cJSON *arr, *it;
    size_t i = 0, j;

    *out = 0;
    if (kp_json_arr(spec, "accessModes", &arr, err) < 0)
        return -1;
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsString(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "accessModes[%zu]: expected a string", i);
        for (j = 0; j < sizeof(modes) / sizeof(modes[0]); j++)
            if (strcmp(it->valuestring, modes[j].name) == 0)
                break;
        if (j == sizeof(modes) / sizeof(modes[0]))
            return kp_errorf(err, KP_EXIT_ERROR, "accessModes[%zu]: "
                             "unsupported value '%s'", i, it->valuestring);
        *out |= modes[j].bit;
        i++;
    }
    return 0;
}

/* spec.volumeMode: Filesystem (also when unset) or Block. */
static int
decode_volume_mode(struct kp_snapshot *s, const cJSON *spec, bool *block,
                   struct kp_error *err)
{
    const char *mode;

    if (kp_json_istr(&s->arena, spec, "volumeMode", &mode, err) < 0)
        return -1;
    if (mode && strcmp(mode, "Block") != 0 &&
        strcmp(mode, "Filesystem") != 0)
        return kp_errorf(err, KP_EXIT_ERROR,
                         "volumeMode: unsupported value '%s'", mode);
    *block = mode && strcmp(mode, "Block") == 0;
    return 0;
}

/* The storage entry of a ResourceList ({storage: quantity}). */
static int
decode_storage_size(const cJSON *list, struct kp_quantity *q,
                    struct kp_error *err)
{
    memset(q, 0, sizeof(*q));
    if (list && !cJSON_IsObject(list))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    if (kp_quantity_from_json(kp_json_get(list, "storage"), q, err) < 0)
        return kp_error_prefix(err, "storage");
    return 0;
}

/* The uid of the controller ownerReference (metav1.GetControllerOf). */
static int
controller_uid(struct kp_snapshot *s, const cJSON *md, const char **out,
               struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    *out = NULL;
    if (kp_json_arr(md, "ownerReferences", &arr, err) < 0)
        return -1;
    cJSON_ArrayForEach(it, arr) {
        const char *uid;
        bool controller;

        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "ownerReferences[%zu]: expected an object", i);
        if (kp_json_bool(it, "controller", &controller, err) < 0 ||
            kp_json_istr(&s->arena, it, "uid", &uid, err) < 0)
            return kp_error_path(err, "ownerReferences[%zu]", i);
        if (controller && !*out)
            *out = uid ? uid : "";
        i++;
    }
    return 0;
}

static int
decode_pvc_metadata(struct kp_snapshot *s, const cJSON *md, struct kp_pvc *p,
                    struct kp_error *err)
{
    const char *value;
    int64_t t;

    if (kp_json_istr(&s->arena, md, "name", &p->name, err) < 0 ||
        kp_json_istr(&s->arena, md, "namespace", &p->ns, err) < 0 ||
        kp_json_istr(&s->arena, md, "uid", &p->uid, err) < 0 ||
        kp_json_time(md, "deletionTimestamp", &t, &p->deleting, err) < 0 ||
        controller_uid(s, md, &p->owner_uid, err) < 0 ||
        annotation(&s->arena, md, ANN_STORAGE_CLASS, &p->storage_class,
                   NULL, err) < 0 ||
        annotation(&s->arena, md, ANN_SELECTED_NODE, &p->selected_node,
                   NULL, err) < 0 ||
        annotation(&s->arena, md, ANN_BIND_COMPLETED, &value,
                   &p->bind_completed, err) < 0)
        return -1;
    if (!p->name || !p->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "name: missing");
    if (!p->ns || !p->ns[0])
        p->ns = "default";
    if (!p->uid)
        p->uid = "";
    return 0;
}

static int
decode_pvc_spec(struct kp_snapshot *s, const cJSON *spec, struct kp_pvc *p,
                struct kp_error *err)
{
    const cJSON *res, *req;
    const char *sc;

    if (kp_json_istr(&s->arena, spec, "volumeName", &p->volume_name,
                     err) < 0 ||
        kp_json_istr(&s->arena, spec, "storageClassName", &sc, err) < 0 ||
        kp_json_istr(&s->arena, spec, "volumeAttributesClassName", &p->vac,
                     err) < 0 ||
        decode_access_modes(spec, &p->access_modes, err) < 0 ||
        decode_volume_mode(s, spec, &p->block, err) < 0 ||
        kp_json_obj(spec, "resources", &res, err) < 0)
        return -1;
    if (kp_json_obj(res, "requests", &req, err) < 0)
        return kp_error_path(err, "resources");
    if (decode_storage_size(req, &p->request, err) < 0)
        return kp_error_path(err, "resources.requests");
    if (kp_selector_from_json(&s->arena, kp_json_get(spec, "selector"),
                              &p->selector, err) < 0)
        return kp_error_path(err, "selector");
    if (p->volume_name && !p->volume_name[0])
        p->volume_name = NULL;
    if (!p->storage_class)
        p->storage_class = sc ? sc : "";
    if (!p->vac)
        p->vac = "";
    return 0;
}

static int
decode_claim_phase(struct kp_snapshot *s, const cJSON *status,
                   enum kp_claim_phase *out, struct kp_error *err)
{
    const char *phase;

    *out = KP_CLAIM_PENDING;
    if (kp_json_istr(&s->arena, status, "phase", &phase, err) < 0)
        return -1;
    if (!phase || strcmp(phase, "Pending") == 0)
        return 0;
    if (strcmp(phase, "Bound") == 0)
        *out = KP_CLAIM_BOUND;
    else if (strcmp(phase, "Lost") == 0)
        *out = KP_CLAIM_LOST;
    else
        return kp_errorf(err, KP_EXIT_ERROR,
                         "phase: unsupported value '%s'", phase);
    return 0;
}

int
kp_decode_pvc(struct kp_snapshot *s, const cJSON *obj, struct kp_pvc *p,
              struct kp_error *err)
{
    const cJSON *md, *spec, *status;

    if (kp_json_obj(obj, "metadata", &md, err) < 0 ||
        kp_json_obj(obj, "spec", &spec, err) < 0 ||
        kp_json_obj(obj, "status", &status, err) < 0)
        return -1;
    if (decode_pvc_metadata(s, md, p, err) < 0)
        return kp_error_path(err, "metadata");
    if (decode_pvc_spec(s, spec, p, err) < 0)
        return kp_error_path(err, "spec");
    if (decode_claim_phase(s, status, &p->phase, err) < 0)
        return kp_error_path(err, "status");
    return 0;
}

/* ---- PersistentVolume ---- */

/* One in-tree or CSI source: key, kind, the member naming the volume. */
static const struct {
    const char *key;
    enum kp_pv_source kind;
    const char *id;
} pv_sources[] = {
    {"csi", KP_PV_CSI, "volumeHandle"},
    {"gcePersistentDisk", KP_PV_GCE_PD, "pdName"},
    {"awsElasticBlockStore", KP_PV_AWS_EBS, "volumeID"},
    {"azureDisk", KP_PV_AZURE_DISK, "diskURI"},
    {"cinder", KP_PV_CINDER, "volumeID"},
    {"portworxVolume", KP_PV_PORTWORX, "volumeID"},
};

static int
decode_pv_source(struct kp_snapshot *s, const cJSON *spec, struct kp_pv *p,
                 struct kp_error *err)
{
    size_t i;

    p->kind = KP_PV_OTHER;
    p->driver = p->id = "";
    for (i = 0; i < sizeof(pv_sources) / sizeof(pv_sources[0]); i++) {
        const cJSON *src;
        const char *id;

        if (kp_json_obj(spec, pv_sources[i].key, &src, err) < 0)
            return -1;
        if (!src)
            continue;
        if (kp_json_istr(&s->arena, src, pv_sources[i].id, &id, err) < 0 ||
            (pv_sources[i].kind == KP_PV_CSI &&
             kp_json_istr(&s->arena, src, "driver", &p->driver, err) < 0))
            return kp_error_path(err, "%s", pv_sources[i].key);
        p->kind = pv_sources[i].kind;
        p->id = id ? id : "";
        if (!p->driver)
            p->driver = "";
        return 0;
    }
    return 0;
}

static int
decode_claim_ref(struct kp_snapshot *s, const cJSON *spec, struct kp_pv *p,
                 struct kp_error *err)
{
    const cJSON *ref;

    p->claim_ns = p->claim_name = p->claim_uid = "";
    if (kp_json_obj(spec, "claimRef", &ref, err) < 0)
        return -1;
    if (!ref)
        return 0;
    p->has_claim_ref = true;
    if (kp_json_istr(&s->arena, ref, "namespace", &p->claim_ns, err) < 0 ||
        kp_json_istr(&s->arena, ref, "name", &p->claim_name, err) < 0 ||
        kp_json_istr(&s->arena, ref, "uid", &p->claim_uid, err) < 0)
        return kp_error_path(err, "claimRef");
    if (!p->claim_ns)
        p->claim_ns = "";
    if (!p->claim_name)
        p->claim_name = "";
    if (!p->claim_uid)
        p->claim_uid = "";
    return 0;
}

static int
decode_pv_spec(struct kp_snapshot *s, const cJSON *spec, struct kp_pv *p,
               struct kp_error *err)
{
    const cJSON *cap, *na;
    const char *sc;

    if (kp_json_istr(&s->arena, spec, "storageClassName", &sc, err) < 0 ||
        kp_json_istr(&s->arena, spec, "volumeAttributesClassName", &p->vac,
                     err) < 0 ||
        decode_access_modes(spec, &p->access_modes, err) < 0 ||
        decode_volume_mode(s, spec, &p->block, err) < 0 ||
        decode_claim_ref(s, spec, p, err) < 0 ||
        decode_pv_source(s, spec, p, err) < 0 ||
        kp_json_obj(spec, "capacity", &cap, err) < 0 ||
        kp_json_obj(spec, "nodeAffinity", &na, err) < 0)
        return -1;
    if (decode_storage_size(cap, &p->capacity, err) < 0)
        return kp_error_path(err, "capacity");
    if (kp_node_selector_from_json(&s->arena, kp_json_get(na, "required"),
                                   &p->node_affinity, err) < 0)
        return kp_error_path(err, "nodeAffinity.required");
    if (!p->storage_class)
        p->storage_class = sc ? sc : "";
    if (!p->vac)
        p->vac = "";
    return 0;
}

static int
decode_pv_phase(struct kp_snapshot *s, const cJSON *status, struct kp_pv *p,
                struct kp_error *err)
{
    static const char *const phases[] = {"Pending", "Available", "Bound",
                                         "Released", "Failed"};
    const char *phase;
    size_t i;

    if (kp_json_istr(&s->arena, status, "phase", &phase, err) < 0)
        return -1;
    if (!phase)
        return 0;
    for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
        if (strcmp(phase, phases[i]) == 0)
            break;
    if (i == sizeof(phases) / sizeof(phases[0]))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "phase: unsupported value '%s'", phase);
    p->available = strcmp(phase, "Available") == 0;
    return 0;
}

int
kp_decode_pv(struct kp_snapshot *s, const cJSON *obj, struct kp_pv *p,
             struct kp_error *err)
{
    const cJSON *md, *spec, *status;
    int64_t t;

    if (kp_json_obj(obj, "metadata", &md, err) < 0 ||
        kp_json_obj(obj, "spec", &spec, err) < 0 ||
        kp_json_obj(obj, "status", &status, err) < 0)
        return -1;
    if (kp_json_istr(&s->arena, md, "name", &p->name, err) < 0 ||
        kp_json_time(md, "deletionTimestamp", &t, &p->deleting, err) < 0 ||
        annotation(&s->arena, md, ANN_STORAGE_CLASS, &p->storage_class,
                   NULL, err) < 0)
        return kp_error_path(err, "metadata");
    if (!p->name || !p->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: missing");
    if (kp_labels_from_json(&s->arena, kp_json_get(md, "labels"),
                            &p->labels, err) < 0)
        return kp_error_path(err, "metadata.labels");
    if (decode_pv_spec(s, spec, p, err) < 0)
        return kp_error_path(err, "spec");
    if (decode_pv_phase(s, status, p, err) < 0)
        return kp_error_path(err, "status");
    return 0;
}

/* ---- StorageClass ---- */

/* One allowedTopologies entry: {matchLabelExpressions: [{key, values}]}. */
static int
decode_topology_term(struct kp_snapshot *s, const cJSON *it,
                     struct kp_topology_term *t, struct kp_error *err)
{
    const cJSON *arr, *e;
    size_t i = 0;

    if (!cJSON_IsObject(it))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    if (kp_json_arr(it, "matchLabelExpressions", &arr, err) < 0)
        return -1;
    if (!arr)
        return 0;
    t->exprs = kp_arena_alloc(&s->arena, sizeof(*t->exprs) *
                              (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(e, arr) {
        struct kp_requirement *r = &t->exprs[i];

        if (!cJSON_IsObject(e))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "matchLabelExpressions[%zu]: expected an "
                             "object", i);
        if (kp_json_istr(&s->arena, e, "key", &r->key, err) < 0 ||
            kp_json_str_array(&s->arena, e, "values", &r->nvalues,
                              &r->values, err) < 0)
            return kp_error_path(err, "matchLabelExpressions[%zu]", i);
        if (!r->key)
            r->key = "";
        r->op = KP_OP_IN;
        /* labels.NewRequirement refuses In without values */
        if (r->nvalues == 0 || !r->key[0])
            t->invalid = true;
        i++;
    }
    t->nexprs = i;
    return 0;
}

/* storageutil.IsDefaultAnnotation, and the age DefaultStorageClass uses. */
static int
decode_default_class(struct kp_snapshot *s, const cJSON *md,
                     struct kp_storage_class *sc, struct kp_error *err)
{
    const char *ga, *beta;
    bool set;

    if (annotation(&s->arena, md, "storageclass.kubernetes.io/"
                   "is-default-class", &ga, NULL, err) < 0 ||
        annotation(&s->arena, md, "storageclass.beta.kubernetes.io/"
                   "is-default-class", &beta, NULL, err) < 0 ||
        kp_json_time(md, "creationTimestamp", &sc->creation_time, &set,
                     err) < 0)
        return -1;
    sc->is_default = (ga && strcmp(ga, "true") == 0) ||
                     (beta && strcmp(beta, "true") == 0);
    return 0;
}

int
kp_decode_storage_class(struct kp_snapshot *s, const cJSON *obj,
                        struct kp_storage_class *sc, struct kp_error *err)
{
    const cJSON *md, *arr, *it;
    const char *mode;
    size_t i = 0;

    if (kp_json_obj(obj, "metadata", &md, err) < 0)
        return -1;
    if (kp_json_istr(&s->arena, md, "name", &sc->name, err) < 0 ||
        decode_default_class(s, md, sc, err) < 0)
        return kp_error_path(err, "metadata");
    if (!sc->name || !sc->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: missing");
    if (kp_json_istr(&s->arena, obj, "provisioner", &sc->provisioner,
                     err) < 0 ||
        kp_json_istr(&s->arena, obj, "volumeBindingMode", &mode, err) < 0 ||
        kp_json_arr(obj, "allowedTopologies", &arr, err) < 0)
        return -1;
    if (!sc->provisioner)
        sc->provisioner = "";
    if (mode && strcmp(mode, "WaitForFirstConsumer") == 0)
        sc->binding_mode = KP_BINDING_WAIT_FOR_FIRST_CONSUMER;
    else if (mode && strcmp(mode, "Immediate") != 0)
        return kp_errorf(err, KP_EXIT_ERROR, "volumeBindingMode: "
                         "unsupported value '%s'", mode);
    if (!arr)
        return 0;
    sc->allowed = kp_arena_alloc(&s->arena, sizeof(*sc->allowed) *
                                 (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(it, arr) {
        if (decode_topology_term(s, it, &sc->allowed[i], err) < 0)
            return kp_error_path(err, "allowedTopologies[%zu]", i);
        i++;
    }
    sc->nallowed = i;
    return 0;
}

/* ---- CSINode ---- */

static int
decode_csi_driver(struct kp_snapshot *s, const cJSON *it,
                  struct kp_csi_driver_info *d, struct kp_error *err)
{
    const cJSON *alloc;
    int64_t count;

    if (!cJSON_IsObject(it))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    if (kp_json_istr(&s->arena, it, "name", &d->name, err) < 0 ||
        kp_json_istr(&s->arena, it, "nodeID", &d->node_id, err) < 0 ||
        kp_json_str_array(&s->arena, it, "topologyKeys",
                          &d->ntopology_keys, &d->topology_keys, err) < 0 ||
        kp_json_obj(it, "allocatable", &alloc, err) < 0)
        return -1;
    if (!d->name || !d->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "name: missing");
    if (kp_json_int(alloc, "count", 0, INT32_MAX, &count, &d->has_count,
                    err) < 0)
        return kp_error_path(err, "allocatable");
    d->count = (int32_t)count;
    return 0;
}

int
kp_decode_csinode(struct kp_snapshot *s, const cJSON *obj,
                  struct kp_csinode *cn, struct kp_error *err)
{
    const cJSON *md, *spec, *arr, *it;
    size_t i = 0;

    if (kp_json_obj(obj, "metadata", &md, err) < 0 ||
        kp_json_obj(obj, "spec", &spec, err) < 0)
        return -1;
    if (kp_json_istr(&s->arena, md, "name", &cn->name, err) < 0)
        return kp_error_path(err, "metadata");
    if (!cn->name || !cn->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: missing");
    if (kp_json_arr(spec, "drivers", &arr, err) < 0)
        return kp_error_path(err, "spec");
    if (!arr)
        return 0;
    cn->drivers = kp_arena_alloc(&s->arena, sizeof(*cn->drivers) *
                                 (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(it, arr) {
        if (decode_csi_driver(s, it, &cn->drivers[i], err) < 0)
            return kp_error_path(err, "spec.drivers[%zu]", i);
        i++;
    }
    cn->ndrivers = i;
    return 0;
}
