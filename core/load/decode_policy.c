/*
 * decode_policy.c - PodDisruptionBudget (policy/v1) and PriorityClass
 * (scheduling.k8s.io/v1) JSON into the model.
 */
#include <string.h>

#include "json_util.h"
#include "quantity.h"
#include "snapshot.h"

static int
decode_disrupted(struct kp_snapshot *s, const cJSON *status,
                 struct kp_pdb *p, struct kp_error *err)
{
    const cJSON *dp, *it;
    size_t i = 0;

    if (kp_json_obj(status, "disruptedPods", &dp, err) < 0)
        return -1;
    if (!dp)
        return 0;
    p->disrupted = kp_arena_alloc(&s->arena, sizeof(char *) *
                                  (size_t)cJSON_GetArraySize(dp));
    cJSON_ArrayForEach(it, dp)
        p->disrupted[i++] = kp_arena_intern(&s->arena, it->string);
    p->ndisrupted = i;
    return 0;
}

/*
 * spec.unhealthyPodEvictionPolicy: AlwaysAllow or IfHealthyBudget (unset
 * reads as IfHealthyBudget).  The API server's validation refuses any
 * other value; the Eviction API (eviction.go) treats whatever is not
 * AlwaysAllow as IfHealthyBudget, and so does the tool, with a warning.
 */
static int
decode_unhealthy_policy(struct kp_snapshot *s, const cJSON *spec,
                        struct kp_pdb *p, struct kp_error *err)
{
    const char *policy;

    if (kp_json_istr(&s->arena, spec, "unhealthyPodEvictionPolicy", &policy,
                     err) < 0)
        return kp_error_path(err, "spec");
    p->unhealthy_always_allow = policy && strcmp(policy, "AlwaysAllow") == 0;
    if (policy && !p->unhealthy_always_allow &&
        strcmp(policy, "IfHealthyBudget") != 0)
        kp_snapshot_warn(s, "PodDisruptionBudget '%s/%s': spec."
                         "unhealthyPodEvictionPolicy: unsupported value "
                         "'%s': read as IfHealthyBudget, as the Eviction "
                         "API reads it", p->ns, p->name, policy);
    return 0;
}

/*
 * spec.minAvailable or spec.maxUnavailable: 3 or "30%".  Only explain
 * reads it (kube-scheduler does not): a value the disruption controller
 * could not scale either (GetScaledValueFromIntOrPercent: a string that
 * is not a percentage) leaves budget_kind 0, and explain then goes by
 * status.disruptionsAllowed, the number the disruption controller
 * publishes (what the eviction API checks: checkAndDecrement,
 * pkg/registry/core/pod/storage/eviction.go).
 */
static void
decode_budget(const cJSON *spec, struct kp_pdb *p)
{
    static const char *const keys[] = {"minAvailable", "maxUnavailable"};
    const cJSON *v;
    int i;

    for (i = 0; i < 2; i++) {
        v = kp_json_get(spec, keys[i]);
        if (!v || cJSON_IsNull(v))
            continue;
        if (cJSON_IsNumber(v) && v->valuedouble >= 0 &&
            v->valuedouble <= INT32_MAX &&
            v->valuedouble == (double)(int32_t)v->valuedouble) {
            p->budget_kind = i == 0 ? 'm' : 'u';
            p->budget_value = (int32_t)v->valuedouble;
            return;
        }
        if (cJSON_IsString(v)) {
            const char *q = v->valuestring;
            size_t n = strlen(q);
            int64_t x;

            if (n > 1 && q[n - 1] == '%' &&
                kp_parse_int64(q, n - 1, &x) == 0 && x >= 0 && x <= 100) {
                p->budget_kind = i == 0 ? 'm' : 'u';
                p->budget_value = (int32_t)x;
                p->budget_pct = true;
            }
        }
        return;
    }
}

int
kp_decode_pdb(struct kp_snapshot *s, const cJSON *obj, struct kp_pdb *p,
              struct kp_error *err)
{
    const cJSON *md, *spec, *status;
    int64_t v;

    if (kp_json_obj(obj, "metadata", &md, err) < 0 ||
        kp_json_obj(obj, "spec", &spec, err) < 0 ||
        kp_json_obj(obj, "status", &status, err) < 0)
        return -1;
    if (kp_json_istr(&s->arena, md, "name", &p->name, err) < 0 ||
        kp_json_istr(&s->arena, md, "namespace", &p->ns, err) < 0)
        return kp_error_path(err, "metadata");
    if (!p->name || !p->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: missing");
    if (!p->ns || !p->ns[0])
        p->ns = "default";
    if (kp_selector_from_json(&s->arena, kp_json_get(spec, "selector"),
                              &p->selector, err) < 0)
        return kp_error_path(err, "spec.selector");
    decode_budget(spec, p);
    if (kp_json_int(status, "disruptionsAllowed", INT32_MIN, INT32_MAX, &v,
                    NULL, err) < 0 ||
        decode_disrupted(s, status, p, err) < 0)
        return kp_error_path(err, "status");
    /*
     * The API server's status validation (ValidatePodDisruptionBudgetStatus
     * -> ValidateNonnegativeField) never stores a negative budget, and
     * filterPodsWithPDBViolation would count it down past INT32_MIN.
     */
    if (v < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "status.disruptionsAllowed: "
                         "%lld: must be greater than or equal to 0",
                         (long long)v);
    p->disruptions_allowed = (int32_t)v;
    if (kp_json_int(status, "currentHealthy", INT32_MIN, INT32_MAX, &v,
                    NULL, err) < 0)
        return kp_error_path(err, "status");
    p->current_healthy = (int32_t)v;
    if (kp_json_int(status, "desiredHealthy", INT32_MIN, INT32_MAX, &v,
                    NULL, err) < 0)
        return kp_error_path(err, "status");
    p->desired_healthy = (int32_t)v;
    {
        /* read by explain alone, not by kube-scheduler: never refused */
        struct kp_error ignored = {0, ""};

        if (kp_json_int(status, "expectedPods", 0, INT32_MAX, &v,
                        &p->has_expected_pods, &ignored) < 0)
            p->has_expected_pods = false;
        p->expected_pods = (int32_t)v;
    }
    return decode_unhealthy_policy(s, spec, p, err);
}

int
kp_decode_priority_class(struct kp_snapshot *s, const cJSON *obj,
                         struct kp_priority_class *pc, struct kp_error *err)
{
    const cJSON *md;
    const char *policy;
    bool set;
    int64_t v;

    if (kp_json_obj(obj, "metadata", &md, err) < 0)
        return -1;
    if (kp_json_istr(&s->arena, md, "name", &pc->name, err) < 0)
        return kp_error_path(err, "metadata");
    if (!pc->name || !pc->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: missing");
    if (kp_json_int(obj, "value", INT32_MIN, INT32_MAX, &v, &set, err) < 0)
        return -1;
    if (!set)
        return kp_errorf(err, KP_EXIT_ERROR, "value: missing");
    pc->value = (int32_t)v;
    if (kp_json_bool(obj, "globalDefault", &pc->global_default, err) < 0 ||
        kp_json_istr(&s->arena, obj, "preemptionPolicy", &policy, err) < 0)
        return -1;
    if (policy && strcmp(policy, "Never") != 0 &&
        strcmp(policy, "PreemptLowerPriority") != 0)
        return kp_errorf(err, KP_EXIT_ERROR,
                         "preemptionPolicy: unsupported value '%s'", policy);
    pc->preempt_never = policy && strcmp(policy, "Never") == 0;
    return 0;
}
