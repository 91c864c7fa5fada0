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

/*
 * a + b, saturated when both are non-negative (all v1.38 reads, which
 * saturate each quantity: kp_quantity_value), else wrapped as Go's int64
 * (before v1.38 a quantity past int64 can read negative).
 */
static int64_t
sat_add(int64_t a, int64_t b)
{
    if (a >= 0 && b >= 0)
        return a > INT64_MAX - b ? INT64_MAX : a + b;
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

void
kp_nonzero_container(struct kp_nonzero *nz, const cJSON *container,
                     bool init, bool sidecar, int64_t cpu, int64_t mem)
{
    int64_t v[2] = {cpu, mem};
    int i;

    for (i = 0; i < 2; i++) {
        if (!named(container, nonzero_names[i]))
            v[i] = nonzero_defaults[i];
        if (!init) {
            nz->sum[i] = sat_add(nz->sum[i], v[i]);
        } else if (sidecar) {
            nz->sum[i] = sat_add(nz->sum[i], v[i]);
            nz->side[i] = sat_add(nz->side[i], v[i]);
            if (nz->side[i] > nz->init[i])
                nz->init[i] = nz->side[i];
        } else if (sat_add(v[i], nz->side[i]) > nz->init[i]) {
            nz->init[i] = sat_add(v[i], nz->side[i]);
        }
    }
}

void
kp_nonzero_finish(struct kp_pod *p, const struct kp_nonzero *nz,
                  const cJSON *pod_requests,
                  const struct kp_resvec *pod_level,
                  const struct kp_resvec *overhead)
{
    static const int ids[2] = {KP_RES_CPU, KP_RES_MEMORY};
    int64_t v[2];
    int i;

    for (i = 0; i < 2; i++) {
        v[i] = nz->sum[i] > nz->init[i] ? nz->sum[i] : nz->init[i];
        if (kp_json_get(pod_requests, nonzero_names[i]))
            v[i] = kp_resvec_get(pod_level, ids[i]);
        v[i] = sat_add(v[i], kp_resvec_get(overhead, ids[i]));
    }
    p->nonzero_cpu = v[0];
    p->nonzero_mem = v[1];
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
