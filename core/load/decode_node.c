/*
 * decode_node.c - Node JSON into struct kp_node: labels, spec.unschedulable,
 * spec.taints, status.allocatable, status.images (k8s.io/api core/v1).
 */
#include <stdlib.h>
#include <string.h>

#include "kube_version.h"
#include "json_util.h"
#include "quantity.h"
#include "snapshot.h"
#include "snapshot_load.h"

static bool
is_scalar_resource(const char *name)
{
    return strncmp(name, "hugepages-", 10) == 0 ||
           strncmp(name, "attachable-volumes-", 19) == 0 ||
           strchr(name, '/') != NULL;
}

static int
cmp_entry(const void *a, const void *b)
{
    const struct kp_res_entry *x = a, *y = b;

    return (x->id > y->id) - (x->id < y->id);
}

int
kp_decode_quantities(struct kp_snapshot *s, const cJSON *obj,
                     struct kp_res_quantity *out, size_t cap, size_t *n,
                     struct kp_error *err)
{
    const cJSON *it;

    *n = 0;
    if (!obj)
        return 0;
    if (!cJSON_IsObject(obj))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    cJSON_ArrayForEach(it, obj) {
        struct kp_quantity q;

        if (kp_quantity_from_json(it, &q, err) < 0)
            return kp_error_prefix(err, "%s", it->string);
        if (strcmp(it->string, "cpu") != 0 &&
            strcmp(it->string, "memory") != 0 &&
            strcmp(it->string, "ephemeral-storage") != 0 &&
            strcmp(it->string, "pods") != 0 &&
            !is_scalar_resource(it->string))
            continue;       /* the scheduler ignores other names */
        /*
         * The API server refuses a negative quantity (validation.go
         * ValidateNonnegativeQuantity); a positive one whose int64 value
         * wraps negative before v1.38 is stored and read as such.
         */
        if (q.negative)
            return kp_errorf(err, KP_EXIT_ERROR,
                             "%s: must be greater than or equal to 0",
                             it->string);
        if (q.nano == 0)
            continue;
        if (*n == cap)
            return kp_errorf(err, KP_EXIT_ERROR, "more than %zu "
                             "resources (not supported)", cap);
        out[*n].id = kp_snapshot_resource_id(s, it->string);
        out[*n].q = q;
        (*n)++;
    }
    return 0;
}

int64_t
kp_quantity_read(struct kp_snapshot *s, int id, const struct kp_quantity *q)
{
    /* framework.Resource.Add: MilliValue for cpu, Value the rest */
    int64_t v = id == KP_RES_CPU ? kp_quantity_milli_value(q)
                                 : kp_quantity_value(q);
    int64_t v_old = id == KP_RES_CPU ? kp_quantity_milli_value_wrap(q)
                                     : kp_quantity_value_wrap(q);

    if (v != v_old)
        s->quantity_wraps = true;
    return s->quantity_saturate ? v : v_old;
}

int
kp_decode_resources(struct kp_snapshot *s, const cJSON *obj,
                    struct kp_resvec *out, struct kp_error *err)
{
    struct kp_res_quantity rq[64];
    struct kp_res_entry tmp[64];
    size_t nq, n = 0, i;

    out->n = 0;
    out->e = NULL;
    if (kp_decode_quantities(s, obj, rq, 64, &nq, err) < 0)
        return -1;
    for (i = 0; i < nq; i++) {
        int64_t v = kp_quantity_read(s, rq[i].id, &rq[i].q);

        if (v == 0)
            continue;
        tmp[n].id = rq[i].id;
        tmp[n].value = v;
        n++;
    }
    qsort(tmp, n, sizeof(tmp[0]), cmp_entry);
    out->n = n;
    out->e = kp_arena_memdup(&s->arena, tmp, n * sizeof(tmp[0]));
    return 0;
}

static int
decode_taints(struct kp_snapshot *s, const cJSON *spec, struct kp_node *n,
              struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    if (kp_json_arr(spec, "taints", &arr, err) < 0)
        return -1;
    if (!arr)
        return 0;
    n->taints = kp_arena_alloc(&s->arena, sizeof(*n->taints) *
                                              (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(it, arr) {
        struct kp_taint *t = &n->taints[i];

        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "taints[%zu]: expected an object", i);
        if (kp_json_istr(&s->arena, it, "key", &t->key, err) < 0 ||
            kp_json_istr(&s->arena, it, "value", &t->value, err) < 0 ||
            kp_json_istr(&s->arena, it, "effect", &t->effect, err) < 0)
            return kp_error_path(err, "taints[%zu]", i);
        if (!t->key || !t->key[0])
            return kp_errorf(err, KP_EXIT_ERROR,
                             "taints[%zu].key: missing", i);
        if (!t->value)
            t->value = "";
        if (!t->effect)
            t->effect = "";
        t->reason_kv = kp_taint_reason_kv(&s->arena, t);
        i++;
    }
    n->ntaints = i;
    return 0;
}

static int
decode_images(struct kp_snapshot *s, const cJSON *status, struct kp_node *n,
              struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t cap = 0, i = 0;

    if (kp_json_arr(status, "images", &arr, err) < 0)
        return -1;
    if (!arr)
        return 0;
    cJSON_ArrayForEach(it, arr) {
        const cJSON *names = kp_json_get(it, "names");

        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "images[%zu]: expected an object", i);
        cap += names && cJSON_IsArray(names) ?
               (size_t)cJSON_GetArraySize(names) : 0;
        i++;
    }
    n->images = kp_arena_alloc(&s->arena, sizeof(*n->images) * cap);
    i = 0;
    cJSON_ArrayForEach(it, arr) {
        const char **names;
        size_t nn, j;
        int64_t size;

        if (kp_json_str_array(&s->arena, it, "names", &nn, &names, err) < 0 ||
            kp_json_int(it, "sizeBytes", 0, INT64_MAX, &size, NULL, err) < 0)
            return kp_error_path(err, "images[%zu]", i);
        for (j = 0; j < nn; j++) {
            n->images[n->nimages].name = names[j];
            n->images[n->nimages].size = size;
            n->nimages++;
        }
        i++;
    }
    return 0;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* status.declaredFeatures as one canonical string (kp_node) */
static int
decode_declared_features(struct kp_snapshot *s, const cJSON *status,
                         struct kp_node *n, struct kp_error *err)
{
    const cJSON *arr, *it;
    const char **names;
    size_t i = 0, k, len = 1;
    char *out;

    if (kp_json_arr(status, "declaredFeatures", &arr, err) < 0)
        return -1;
    if (!arr || !cJSON_GetArraySize(arr))
        return 0;
    names = kp_arena_alloc(&s->arena, sizeof(char *) *
                                          (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsString(it))
            return kp_errorf(err, KP_EXIT_ERROR, "declaredFeatures[%zu]: "
                             "expected a string", i);
        names[i++] = it->valuestring;
        len += strlen(it->valuestring) + 1;
    }
    qsort(names, i, sizeof(char *), cmp_str);
    out = kp_arena_alloc(&s->arena, len);
    for (k = 0, len = 0; k < i; k++) {
        size_t l = strlen(names[k]);

        if (k)
            out[len++] = ',';
        memcpy(out + len, names[k], l);
        len += l;
    }
    out[len] = '\0';
    n->declared_features = kp_arena_intern(&s->arena, out);
    return 0;
}

int
kp_decode_node(struct kp_snapshot *s, const cJSON *obj, struct kp_node *n,
               struct kp_error *err)
{
    const cJSON *md, *spec, *status, *alloc, *kv;
    int rc;

    if (kp_json_obj(obj, "metadata", &md, err) < 0 ||
        kp_json_obj(obj, "spec", &spec, err) < 0 ||
        kp_json_obj(obj, "status", &status, err) < 0)
        return -1;
    if (kp_json_istr(&s->arena, md, "name", &n->name, err) < 0)
        return kp_error_path(err, "metadata");
    if (!n->name || !n->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: missing");
    if (kp_labels_from_json(&s->arena, kp_json_get(md, "labels"),
                            &n->labels, err) < 0)
        return kp_error_path(err, "metadata.labels");
    if (kp_json_bool(spec, "unschedulable", &n->unschedulable, err) < 0 ||
        decode_taints(s, spec, n, err) < 0)
        return kp_error_path(err, "spec");
    if (kp_json_obj(status, "allocatable", &alloc, err) < 0 ||
        decode_images(s, status, n, err) < 0)
        return kp_error_path(err, "status");
    s->quantity_wraps = false;
    if (kp_decode_resources(s, alloc, &n->allocatable, err) < 0)
        return kp_error_path(err, "status.allocatable");
    if (s->quantity_wraps) {
        /* v1.38's reading: the quantities past int64 saturate */
        struct kp_resvec *v138 = kp_arena_alloc(&s->arena, sizeof(*v138));

        s->quantity_saturate = true;
        rc = kp_decode_resources(s, alloc, v138, err);
        s->quantity_saturate = false;
        if (rc < 0)
            return kp_error_path(err, "status.allocatable");
        n->allocatable_138 = v138;
    }
    if (decode_declared_features(s, status, n, err) < 0)
        return kp_error_path(err, "status");
    kv = kp_json_get(kp_json_get(status, "nodeInfo"), "kubeletVersion");
    n->kubelet_minor = cJSON_IsString(kv) ?
                       kp_kube_version_minor(kv->valuestring) : -1;
    return 0;
}
