/*
 * decode_score.c - see decode_score.h.  Mirrors
 * staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests,
 * AggregateContainerRequests, applyNonMissing) as called by
 * pkg/scheduler/framework/types.go (calculateResource) and
 * noderesources/resource_allocation.go (calculatePodResourceRequest).
 */
#include "decode_score.h"

#include <string.h>

#include "json_util.h"
#include "snapshot.h"
#include "snapshot_load.h"

static const char *const nonzero_names[2] = {"cpu", "memory"};
static const int64_t nonzero_defaults[2] = {KP_DEFAULT_MILLI_CPU,
                                            KP_DEFAULT_MEMORY};

/* applyNonMissing: "found" in the requests (API defaulting filled them). */
static bool
named(const cJSON *container, const char *res)
{
    const cJSON *r = kp_json_get(container, "resources");

    return kp_json_get(kp_json_get(r, "requests"), res) ||
           kp_json_get(kp_json_get(r, "limits"), res);
}

/* the quantity or zero */
static struct kp_quantity
or_zero(const struct kp_quantity *q)
{
    struct kp_quantity z;

    if (q)
        return *q;
    memset(&z, 0, sizeof(z));
    return z;
}

/* a quantity as 1.31 reads resource i (0: cpu, 1: memory) */
static int64_t
read131(const struct kp_quantity *q, int i)
{
    return i == 0 ? kp_quantity_milli_value_wrap(q)
                  : kp_quantity_value_wrap(q);
}

/* calculateResource's ContainerFn before v1.32 (see decode_score.h) */
static void
old_container(struct kp_nonzero *nz, bool init, bool sidecar, int i,
              bool is_named, const struct kp_quantity *q)
{
    struct kp_quantity cum;
    bool any;
    int64_t v;

    if (!init) {
        v = is_named ? read131(q, i) : nonzero_defaults[i];
        nz->old_sum[i] = (int64_t)((uint64_t)nz->old_sum[i] + (uint64_t)v);
        return;
    }
    if (sidecar) {
        kp_quantity_add(&nz->old_side[i], q);
        nz->old_side_named[i] = nz->old_side_named[i] || is_named;
        cum = nz->old_side[i];
        any = nz->old_side_named[i];
    } else {
        cum = *q;
        kp_quantity_add(&cum, &nz->old_side[i]);
        any = is_named || nz->old_side_named[i];
    }
    v = any ? read131(&cum, i) : nonzero_defaults[i];
    if (v > nz->old_init[i])
        nz->old_init[i] = v;
}

void
kp_nonzero_container(struct kp_nonzero *nz, const cJSON *container,
                     bool init, bool sidecar, const struct kp_quantity *cpu,
                     const struct kp_quantity *mem)
{
    struct kp_quantity v[2];
    int i;

    v[0] = or_zero(cpu);
    v[1] = or_zero(mem);
    for (i = 0; i < 2; i++) {
        old_container(nz, init, sidecar, i,
                      named(container, nonzero_names[i]), &v[i]);
        if (!named(container, nonzero_names[i]))
            kp_quantity_scaled(&v[i], nonzero_defaults[i], i == 0 ? -3 : 0);
        if (!init) {
            kp_quantity_add(&nz->sum[i], &v[i]);
        } else if (sidecar) {
            kp_quantity_add(&nz->sum[i], &v[i]);
            kp_quantity_add(&nz->side[i], &v[i]);
            kp_quantity_max(&nz->init[i], &nz->side[i]);
        } else {
            kp_quantity_add(&v[i], &nz->side[i]);
            kp_quantity_max(&nz->init[i], &v[i]);
        }
    }
}

void
kp_nonzero_finish(struct kp_snapshot *s, struct kp_pod *p,
                  const struct kp_nonzero *nz, const cJSON *pod_requests,
                  const struct kp_quantity *const pod_level[2],
                  const struct kp_quantity *const overhead[2])
{
    static const int ids[2] = {KP_RES_CPU, KP_RES_MEMORY};
    int64_t v[2], v131[2];
    int i;

    for (i = 0; i < 2; i++) {
        struct kp_quantity q = nz->sum[i], o = or_zero(overhead[i]);

        kp_quantity_max(&q, &nz->init[i]);
        if (kp_json_get(pod_requests, nonzero_names[i]))
            q = or_zero(pod_level[i]);
        kp_quantity_add(&q, &o);
        v[i] = kp_quantity_read(s, ids[i], &q);
        /* 1.31: max(app sum, init), plus the overhead read alone */
        v131[i] = nz->old_sum[i] > nz->old_init[i] ? nz->old_sum[i]
                                                   : nz->old_init[i];
        v131[i] = (int64_t)((uint64_t)v131[i] + (uint64_t)read131(&o, i));
    }
    p->nonzero_cpu = v[0];
    p->nonzero_mem = v[1];
    p->nonzero131_cpu = v131[0];
    p->nonzero131_mem = v131[1];
}

int
kp_decode_image_volumes(struct kp_arena *a, const cJSON *spec,
                        struct kp_pod *p, struct kp_error *err)
{
    const cJSON *vols = kp_json_get(spec, "volumes"), *it;
    size_t i = 0, n = 0;

    p->nimage_volumes = 0;
    p->image_volumes = NULL;
    if (!cJSON_IsArray(vols))
        return 0;       /* decode_volumes checks the type */
    cJSON_ArrayForEach(it, vols)
        if (cJSON_IsObject(kp_json_get(it, "image")))
            n++;
    if (n == 0)
        return 0;
    p->image_volumes = kp_arena_alloc(a, n * sizeof(char *));
    cJSON_ArrayForEach(it, vols) {
        const cJSON *img = kp_json_get(it, "image");
        const char *ref;

        if (cJSON_IsObject(img)) {
            if (kp_json_istr(a, img, "reference", &ref, err) < 0)
                return kp_error_path(err, "volumes[%zu].image", i);
            p->image_volumes[p->nimage_volumes++] = ref ? ref : "";
        }
        i++;
    }
    return 0;
}

int
kp_decode_controller_kind(struct kp_arena *a, const cJSON *md,
                          struct kp_pod *p, struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    p->controller_kind = NULL;
    p->controller_api = p->controller_name = NULL;
    if (kp_json_arr(md, "ownerReferences", &arr, err) < 0)
        return -1;
    cJSON_ArrayForEach(it, arr) {
        const char *kind, *api, *name;
        bool controller = false;

        if (kp_json_bool(it, "controller", &controller, err) < 0 ||
            kp_json_istr(a, it, "kind", &kind, err) < 0 ||
            kp_json_istr(a, it, "apiVersion", &api, err) < 0 ||
            kp_json_istr(a, it, "name", &name, err) < 0)
            return kp_error_path(err, "ownerReferences[%zu]", i);
        /* metav1.GetControllerOfNoCopy: the first controller reference */
        if (controller && kind && !p->controller_kind) {
            p->controller_kind = kind;
            p->controller_api = api;
            p->controller_name = name;
        }
        i++;
    }
    return 0;
}
