/*
 * config_args.c - a profile's pluginConfig: the args of DefaultPreemption,
 * NodeResourcesFit, NodeResourcesBalancedAllocation, InterPodAffinity and
 * PodTopologySpread decoded, defaulted (pkg/scheduler/apis/config/v1/
 * defaults.go SetDefaults_*Args) and validated with kube-scheduler's
 * texts (pkg/scheduler/apis/config/validation/validation_pluginargs.go,
 * validatePluginConfig of validation.go).  NodeResourcesFit's args are
 * checked where kube-scheduler checks them: when the plugin is built
 * (noderesources.NewFit), without a field path prefix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_int.h"
#include "json_util.h"
#include "quantity.h"

#define V1 "kubescheduler.config.k8s.io/v1"

static const char *const removed_plugins[] = {
    "AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits", NULL
};

bool
kp_cfg_plugin_removed(const char *name)
{
    size_t i;

    for (i = 0; removed_plugins[i]; i++)
        if (strcmp(removed_plugins[i], name) == 0)
            return true;
    return false;
}

static int
get_int(const cJSON *o, const char *key, int64_t *v, bool *set,
        const char *path, struct kp_error *err)
{
    if (kp_json_int(o, key, INT32_MIN, INT32_MAX, v, set, err) < 0)
        return kp_error_path(err, "%s", path);
    return 0;
}

/* ---- DefaultPreemptionArgs ---- */

static int
args_default_preemption(const cJSON *args, const char *path,
                        struct kp_profile *p, struct kp_cfg_errors *e,
                        struct kp_error *err)
{
    static const char *const keys[] = {"apiVersion", "kind",
        "minCandidateNodesPercentage", "minCandidateNodesAbsolute", NULL};
    int64_t pct = 10, abs = 100;
    bool set;

    if (kp_cfg_check_keys(args, keys, path, err) < 0 ||
        get_int(args, "minCandidateNodesPercentage", &pct, &set, path,
                err) < 0 ||
        get_int(args, "minCandidateNodesAbsolute", &abs, &set, path,
                err) < 0)
        return -1;
    if (!kp_json_get(args, "minCandidateNodesPercentage"))
        pct = 10;
    if (!kp_json_get(args, "minCandidateNodesAbsolute"))
        abs = 100;
    if (pct < 0 || pct > 100)
        kp_cfg_add_error(e, "%s.minCandidateNodesPercentage: Invalid value: "
                         "%lld: not in valid range [0, 100]", path,
                         (long long)pct);
    if (abs < 0)
        kp_cfg_add_error(e, "%s.minCandidateNodesAbsolute: Invalid value: "
                         "%lld: not in valid range [0, inf)", path,
                         (long long)abs);
    if (pct == 0 && abs == 0) {
        kp_cfg_add_error(e, "%s.minCandidateNodesPercentage: Invalid value: "
                         "0: cannot be zero at the same time as "
                         "minCandidateNodesAbsolute", path);
        kp_cfg_add_error(e, "%s.minCandidateNodesAbsolute: Invalid value: "
                         "0: cannot be zero at the same time as "
                         "minCandidateNodesPercentage", path);
    }
    p->min_candidate_nodes_percentage = (int)pct;
    p->min_candidate_nodes_absolute = (int)abs;
    return 0;
}

/* ---- InterPodAffinityArgs ---- */

static int
args_inter_pod_affinity(const cJSON *args, const char *path,
                        struct kp_profile *p, struct kp_cfg_errors *e,
                        struct kp_error *err)
{
    static const char *const keys[] = {"apiVersion", "kind",
        "hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods", NULL};
    int64_t w = 1;
    bool set, ign = false;

    if (kp_cfg_check_keys(args, keys, path, err) < 0 ||
        get_int(args, "hardPodAffinityWeight", &w, &set, path, err) < 0 ||
        kp_json_bool(args, "ignorePreferredTermsOfExistingPods", &ign,
                     err) < 0)
        return -1;
    if (!set)
        w = 1;
    if (w < 0 || w > 100)
        kp_cfg_add_error(e, "%s.hardPodAffinityWeight: Invalid value: %lld: "
                         "not in valid range [0, 100]", path, (long long)w);
    p->hard_pod_affinity_weight = w;
    p->ignore_preferred_terms_of_existing_pods = ign;
    return 0;
}

/* ---- ResourceSpec lists ---- */

static int
decode_resources(struct kp_arena *a, const cJSON *o, const char *path,
                 struct kp_res_spec *out, size_t *n, struct kp_error *err)
{
    static const char *const keys[] = {"name", "weight", NULL};
    const cJSON *arr, *it;
    char sub[400];
    size_t i = 0;

    if (kp_json_arr(o, "resources", &arr, err) < 0)
        return kp_error_path(err, "%s", path);
    for (it = arr ? arr->child : NULL; it; it = it->next, i++) {
        int64_t w = 0;
        bool set;

        snprintf(sub, sizeof(sub), "%.150s.resources[%zu]", path, i);
        if (i >= KP_CFG_MAX_RES)
            return kp_errorf(err, KP_EXIT_ERROR, "%s: more than %d "
                             "resources", sub, KP_CFG_MAX_RES);
        if (kp_cfg_check_keys(it, keys, sub, err) < 0 ||
            kp_json_str(a, it, "name", &out[i].name, err) < 0 ||
            get_int(it, "weight", &w, &set, sub, err) < 0)
            return -1;
        if (!out[i].name)
            out[i].name = "";
        out[i].weight = w;
    }
    *n = i;
    return 0;
}

/* defaultResourceSpec, and a weight of 0 read as 1 */
static void
default_resources(struct kp_res_spec *r, size_t *n)
{
    size_t i;

    if (*n == 0) {
        r[0].name = "cpu";
        r[1].name = "memory";
        r[0].weight = r[1].weight = 1;
        *n = 2;
    }
    for (i = 0; i < *n; i++)
        if (r[i].weight == 0)
            r[i].weight = 1;
}

static bool
is_default_resources(const struct kp_res_spec *r, size_t n)
{
    return n == 2 && strcmp(r[0].name, "cpu") == 0 && r[0].weight == 1 &&
           strcmp(r[1].name, "memory") == 0 && r[1].weight == 1;
}

/* ---- NodeResourcesBalancedAllocationArgs ---- */

static int
args_balanced(struct kp_arena *a, const cJSON *args, const char *path,
              struct kp_profile *p, struct kp_cfg_errors *e,
              struct kp_error *err)
{
    static const char *const keys[] = {"apiVersion", "kind", "resources",
                                       NULL};
    size_t i, j;

    p->nba_res = 0;
    if (kp_cfg_check_keys(args, keys, path, err) < 0 ||
        decode_resources(a, args, path, p->ba_res, &p->nba_res, err) < 0)
        return -1;
    default_resources(p->ba_res, &p->nba_res);
    for (i = 0; i < p->nba_res; i++) {
        for (j = 0; j < i; j++)
            if (strcmp(p->ba_res[j].name, p->ba_res[i].name) == 0)
                break;
        if (j < i)
            kp_cfg_add_error(e, "%s.resources[%zu].name: Duplicate value: "
                             "\"%s\"", path, i, p->ba_res[i].name);
        if (p->ba_res[i].weight != 1)
            kp_cfg_add_error(e, "%s.resources[%zu].weight: Invalid value: "
                             "%lld: must be 1", path, i,
                             (long long)p->ba_res[i].weight);
    }
    p->ba_default = is_default_resources(p->ba_res, p->nba_res);
    return 0;
}

/* ---- PodTopologySpreadArgs ---- */

static void
check_constraint(const cJSON *arr, const cJSON *c, size_t i,
                 const char *path, struct kp_cfg_errors *e)
{
    const cJSON *skew = kp_json_get(c, "maxSkew");
    const cJSON *key = kp_json_get(c, "topologyKey");
    const cJSON *wu = kp_json_get(c, "whenUnsatisfiable"), *o;
    const char *k = cJSON_IsString(key) ? key->valuestring : "";
    const char *w = cJSON_IsString(wu) ? wu->valuestring : "";
    size_t j = 0;

    if (!cJSON_IsNumber(skew) || skew->valuedouble <= 0)
        kp_cfg_add_error(e, "%s.defaultConstraints[%zu].maxSkew: Invalid "
                         "value: %lld: not in valid range (0, inf)", path, i,
                         cJSON_IsNumber(skew) ? (long long)skew->valuedouble
                                              : 0LL);
    if (!k[0])
        kp_cfg_add_error(e, "%s.defaultConstraints[%zu].topologyKey: "
                         "Required value: can not be empty", path, i);
    if (!w[0])
        kp_cfg_add_error(e, "%s.defaultConstraints[%zu].whenUnsatisfiable: "
                         "Required value: can not be empty", path, i);
    else if (strcmp(w, "DoNotSchedule") != 0 &&
             strcmp(w, "ScheduleAnyway") != 0)
        kp_cfg_add_error(e, "%s.defaultConstraints[%zu].whenUnsatisfiable: "
                         "Unsupported value: \"%s\": supported values: "
                         "\"DoNotSchedule\", \"ScheduleAnyway\"", path, i, w);
    if (kp_json_get(c, "labelSelector"))
        kp_cfg_add_error(e, "%s.defaultConstraints[%zu].labelSelector: "
                         "Forbidden: constraint must not define a selector, "
                         "as they deduced for each pod", path, i);
    for (o = arr->child; o && o != c; o = o->next, j++) {
        const cJSON *ok = kp_json_get(o, "topologyKey");
        const cJSON *ow = kp_json_get(o, "whenUnsatisfiable");

        if (strcmp(cJSON_IsString(ok) ? ok->valuestring : "", k) == 0 &&
            strcmp(cJSON_IsString(ow) ? ow->valuestring : "", w) == 0) {
            kp_cfg_add_error(e, "%s.defaultConstraints[%zu]: Duplicate "
                             "value: \"{%s, %s}\"", path, i, k, w);
            break;
        }
    }
}

/* defaultConstraints as the plugin builds them (filterTopologySpread-
 * Constraints: minDomains 1 when unset, Honor and Ignore policies) */
static int
pts_defaults(struct kp_arena *a, const cJSON *arr, const char *path,
             struct kp_profile *p, struct kp_error *err)
{
    size_t n = arr ? (size_t)cJSON_GetArraySize(arr) : 0, i = 0;
    struct kp_pts_default *d = kp_arena_alloc(a, (n + 1) * sizeof(*d));
    const cJSON *c;

    for (c = arr ? arr->child : NULL; c; c = c->next, i++) {
        const char *w = NULL, *ap = NULL, *tp = NULL;
        int64_t skew = 0, md = 1;
        bool set;

        memset(&d[i], 0, sizeof(d[i]));
        if (kp_json_str(a, c, "topologyKey", &d[i].topology_key, err) < 0 ||
            kp_json_str(a, c, "whenUnsatisfiable", &w, err) < 0 ||
            kp_json_str(a, c, "nodeAffinityPolicy", &ap, err) < 0 ||
            kp_json_str(a, c, "nodeTaintsPolicy", &tp, err) < 0 ||
            kp_json_int(c, "maxSkew", INT32_MIN, INT32_MAX, &skew, &set,
                        err) < 0 ||
            kp_json_int(c, "minDomains", 1, INT32_MAX, &md, &set, err) < 0)
            return kp_error_path(err, "%s.defaultConstraints[%zu]", path, i);
        if (!set)
            md = 1;
        d[i].max_skew = (int32_t)skew;
        d[i].min_domains = (int32_t)md;
        d[i].hard = w && strcmp(w, "DoNotSchedule") == 0;
        d[i].affinity_honor = !ap || strcmp(ap, "Ignore") != 0;
        d[i].taints_honor = tp && strcmp(tp, "Honor") == 0;
        if (!d[i].topology_key)
            d[i].topology_key = "";
    }
    p->npts_defaults = n;
    p->pts_defaults = d;
    return 0;
}

static int
args_topology_spread(struct kp_arena *a, const cJSON *args, const char *path,
                     struct kp_profile *p, struct kp_cfg_errors *e,
                     struct kp_error *err)
{
    static const char *const keys[] = {"apiVersion", "kind",
        "defaultConstraints", "defaultingType", NULL};
    const cJSON *arr, *c;
    const char *type = NULL;
    size_t i = 0;

    if (kp_cfg_check_keys(args, keys, path, err) < 0 ||
        kp_json_str(a, args, "defaultingType", &type, err) < 0 ||
        kp_json_arr(args, "defaultConstraints", &arr, err) < 0)
        return kp_error_path(err, "%s", path);
    if (!type || !type[0])
        type = "System";
    if (strcmp(type, "System") != 0 && strcmp(type, "List") != 0)
        kp_cfg_add_error(e, "%s.defaultingType: Unsupported value: \"%s\": "
                         "supported values: \"System\", \"List\"", path,
                         type);
    else if (strcmp(type, "System") == 0 && arr &&
             cJSON_GetArraySize(arr) > 0)
        kp_cfg_add_error(e, "%s.defaultingType: Invalid value: \"System\": "
                         "when .defaultConstraints are not empty", path);
    for (c = arr ? arr->child : NULL; c; c = c->next, i++)
        check_constraint(arr, c, i, path, e);
    p->pts_list_defaulting = strcmp(type, "List") == 0;
    if (p->pts_list_defaulting)
        return pts_defaults(a, arr, path, p, err);
    return 0;
}

/* ---- NodeResourcesFitArgs: decoded here, checked by NewFit ---- */

static int
decode_shape(const cJSON *rtcr, const char *path, struct kp_profile *p,
             struct kp_error *err)
{
    static const char *const keys[] = {"utilization", "score", NULL};
    const cJSON *arr, *it;
    char sub[400];
    bool set;

    p->nshape = 0;
    if (kp_json_arr(rtcr, "shape", &arr, err) < 0)
        return kp_error_path(err, "%s", path);
    for (it = arr ? arr->child : NULL; it; it = it->next) {
        snprintf(sub, sizeof(sub), "%.150s.shape[%zu]", path, p->nshape);
        if (p->nshape >= KP_CFG_MAX_SHAPE)
            return kp_errorf(err, KP_EXIT_ERROR, "%s: more than %d points",
                             sub, KP_CFG_MAX_SHAPE);
        if (kp_cfg_check_keys(it, keys, sub, err) < 0 ||
            get_int(it, "utilization", &p->shape[p->nshape].utilization,
                    &set, sub, err) < 0 ||
            get_int(it, "score", &p->shape[p->nshape].score, &set, sub,
                    err) < 0)
            return -1;
        p->nshape++;
    }
    return 0;
}

static int
decode_strategy(struct kp_arena *a, const cJSON *ss, const char *path,
                struct kp_profile *p, struct kp_error *err)
{
    static const char *const keys[] = {"type", "resources",
                                       "requestedToCapacityRatio", NULL};
    static const char *const rkeys[] = {"shape", NULL};
    const cJSON *rtcr = kp_json_get(ss, "requestedToCapacityRatio");
    char sub[400];

    snprintf(sub, sizeof(sub), "%.150s.scoringStrategy", path);
    if (kp_cfg_check_keys(ss, keys, sub, err) < 0 ||
        kp_json_str(a, ss, "type", &p->scoring_name, err) < 0)
        return -1;
    if (!p->scoring_name)
        p->scoring_name = "";
    if (decode_resources(a, ss, sub, p->fit_res, &p->nfit_res, err) < 0)
        return -1;
    p->has_rtcr = rtcr != NULL;
    snprintf(sub, sizeof(sub), "%.150s.scoringStrategy.requestedToCapacityRatio",
             path);
    if (rtcr && (kp_cfg_check_keys(rtcr, rkeys, sub, err) < 0 ||
                 decode_shape(rtcr, sub, p, err) < 0))
        return -1;
    return 0;
}

static int
args_fit(struct kp_arena *a, const cJSON *args, const char *path,
         struct kp_profile *p, struct kp_error *err)
{
    static const char *const keys[] = {"apiVersion", "kind",
        "ignoredResources", "ignoredResourceGroups", "scoringStrategy",
        NULL};
    const cJSON *ss = kp_json_get(args, "scoringStrategy");

    if (kp_cfg_check_keys(args, keys, path, err) < 0 ||
        kp_json_str_array(a, args, "ignoredResources", &p->nignored,
                          &p->ignored, err) < 0 ||
        kp_json_str_array(a, args, "ignoredResourceGroups",
                          &p->nignored_groups, &p->ignored_groups, err) < 0)
        return kp_error_path(err, "%s", path);
    p->nfit_res = 0;
    p->scoring_name = "LeastAllocated";
    p->has_rtcr = false;
    if (ss && decode_strategy(a, ss, path, p, err) < 0)
        return -1;
    default_resources(p->fit_res, &p->nfit_res);
    return 0;
}

static void
check_shape(const struct kp_profile *p, const char *sp,
            struct kp_cfg_errors *e)
{
    size_t i;

    if (p->nshape == 0) {
        kp_cfg_add_error(e, "%s: Required value: at least one point must "
                         "be specified", sp);
        return;
    }
    for (i = 1; i < p->nshape; i++)
        if (p->shape[i - 1].utilization >= p->shape[i].utilization) {
            kp_cfg_add_error(e, "%s[%zu].utilization: Invalid value: %lld: "
                             "values must be sorted in increasing order", sp,
                             i, (long long)p->shape[i].utilization);
            break;
        }
    for (i = 0; i < p->nshape; i++) {
        if (p->shape[i].utilization < 0 || p->shape[i].utilization > 100)
            kp_cfg_add_error(e, "%s[%zu].utilization: Invalid value: %lld: "
                             "not in valid range [0, 100]", sp, i,
                             (long long)p->shape[i].utilization);
        if (p->shape[i].score < 0 || p->shape[i].score > 10)
            kp_cfg_add_error(e, "%s[%zu].score: Invalid value: %lld: not in "
                             "valid range [0, 10]", sp, i,
                             (long long)p->shape[i].score);
    }
}

/* ValidateNodeResourcesFitArgs(nil, args), as NewFit calls it */
void
kp_cfg_check_fit(struct kp_profile *p, struct kp_cfg_errors *e)
{
    const char *t = p->scoring_name;
    size_t i;

    for (i = 0; i < p->nignored_groups; i++)
        if (strchr(p->ignored_groups[i], '/'))
            kp_cfg_add_error(e, "ignoredResourceGroups[%zu]: Invalid value: "
                             "\"%s\": resource group name can't contain "
                             "'/'", i, p->ignored_groups[i]);
    if (strcmp(t, "LeastAllocated") == 0)
        p->scoring = KP_LEAST_ALLOCATED;
    else if (strcmp(t, "MostAllocated") == 0)
        p->scoring = KP_MOST_ALLOCATED;
    else if (strcmp(t, "RequestedToCapacityRatio") == 0)
        p->scoring = KP_REQUESTED_TO_CAPACITY_RATIO;
    else
        kp_cfg_add_error(e, "scoringStrategy.type: Unsupported value: "
                         "\"%s\": supported values: \"LeastAllocated\", "
                         "\"MostAllocated\", \"RequestedToCapacityRatio\"",
                         t);
    for (i = 0; i < p->nfit_res; i++)
        if (p->fit_res[i].weight <= 0 || p->fit_res[i].weight > 100)
            kp_cfg_add_error(e, "scoringStrategy.resources[%zu].weight: "
                             "Invalid value: %lld: resource weight of %s not "
                             "in valid range (0, 100]", i,
                             (long long)p->fit_res[i].weight,
                             p->fit_res[i].name);
    if (strcmp(t, "RequestedToCapacityRatio") == 0 && !p->has_rtcr)
        kp_cfg_add_error(e, "scoringStrategy.requestedToCapacityRatio: "
                         "Required value: must be specified when type is "
                         "RequestedToCapacityRatio");
    else if (strcmp(t, "RequestedToCapacityRatio") == 0)
        check_shape(p, "scoringStrategy.requestedToCapacityRatio.shape", e);
    else if (p->has_rtcr)
        kp_cfg_add_error(e, "scoringStrategy.requestedToCapacityRatio: "
                         "Forbidden: must be nil when type is not "
                         "RequestedToCapacityRatio");
    p->fit_default = p->scoring == KP_LEAST_ALLOCATED &&
                     is_default_resources(p->fit_res, p->nfit_res);
}

/* ---- NodeAffinityArgs ---- */

static int
added_preferred(struct kp_arena *a, const cJSON *arr, const char *path,
                struct kp_profile *p, struct kp_error *err)
{
    size_t n = (size_t)cJSON_GetArraySize(arr), i = 0;
    struct kp_node_selector_term *terms = kp_arena_alloc(a, (n + 1) *
                                                         sizeof(*terms));
    int64_t *w = kp_arena_alloc(a, (n + 1) * sizeof(*w));
    const cJSON *it;

    p->nadded_pref = 0;
    for (it = arr->child; it; it = it->next, i++) {
        const cJSON *pref = kp_json_get(it, "preference");
        cJSON *wrap, *list;
        struct kp_node_selector ns;
        int64_t weight = 0;
        int rc;

        if (kp_json_int(it, "weight", 0, 100, &weight, NULL, err) < 0)
            return kp_error_path(err, "%s.addedAffinity.preferredDuring"
                                 "SchedulingIgnoredDuringExecution[%zu]",
                                 path, i);
        if (!pref)
            continue;
        wrap = cJSON_CreateObject();
        list = cJSON_AddArrayToObject(wrap, "nodeSelectorTerms");
        cJSON_AddItemReferenceToArray(list, (cJSON *)pref);
        rc = kp_node_selector_from_json(a, wrap, &ns, err);
        cJSON_Delete(wrap);
        if (rc < 0)
            return kp_error_path(err, "%s.addedAffinity.preferredDuring"
                                 "SchedulingIgnoredDuringExecution[%zu]",
                                 path, i);
        if (ns.nterms != 1 || weight == 0)
            continue;
        terms[p->nadded_pref] = ns.terms[0];
        w[p->nadded_pref++] = weight;
    }
    p->added_pref = terms;
    p->added_pref_weight = w;
    return 0;
}

/*
 * ValidateNodeAffinityArgs: component-helpers' NewNodeSelector and
 * NewPreferredSchedulingTerms parse every non-empty term and report what
 * does not parse (nodeSelectorRequirementsAsSelector, labels'
 * newRequirement, nodeSelectorRequirementsAsFieldSelector).  Label key
 * and value syntax (IsQualifiedName, IsValidLabelValue) is not checked.
 */
static void
go_strings(const cJSON *vals, char *buf, size_t n)
{
    const cJSON *v;
    size_t len;

    if (!vals || cJSON_IsNull(vals)) {
        snprintf(buf, n, "[]string(nil)");
        return;
    }
    len = (size_t)snprintf(buf, n, "[]string{");
    cJSON_ArrayForEach(v, vals)
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s\"%.60s\"",
                                    v != vals->child ? ", " : "",
                                    cJSON_IsString(v) ? v->valuestring : "");
    if (len < n)
        snprintf(buf + len, n - len, "}");
}

static void
check_requirements(const cJSON *arr, const char *path, bool fields,
                   struct kp_cfg_errors *e)
{
    const cJSON *r;
    size_t i = 0;

    for (r = cJSON_IsArray(arr) ? arr->child : NULL; r; r = r->next, i++) {
        const cJSON *opj = kp_json_get(r, "operator");
        const cJSON *vals = kp_json_get(r, "values"), *v;
        const char *op = cJSON_IsString(opj) ? opj->valuestring : "";
        int nv = cJSON_IsArray(vals) ? cJSON_GetArraySize(vals) : 0;
        char sv[200];
        size_t k = 0;

        go_strings(cJSON_IsArray(vals) ? vals : NULL, sv, sizeof(sv));
        if (fields) {
            if (strcmp(op, "In") != 0 && strcmp(op, "NotIn") != 0)
                kp_cfg_add_error(e, "%s[%zu].operator: Unsupported value: "
                                 "\"%.40s\": supported values: \"In\", "
                                 "\"NotIn\"", path, i, op);
            else if (nv != 1)
                kp_cfg_add_error(e, "%s[%zu].values: Invalid value: %s: "
                                 "must have one element", path, i, sv);
            continue;
        }
        if (strcmp(op, "In") == 0 || strcmp(op, "NotIn") == 0) {
            if (nv == 0)
                kp_cfg_add_error(e, "%s[%zu].values: Invalid value: %s: for "
                                 "'in', 'notin' operators, values set can't "
                                 "be empty", path, i, sv);
        } else if (strcmp(op, "Exists") == 0 ||
                   strcmp(op, "DoesNotExist") == 0) {
            if (nv != 0)
                kp_cfg_add_error(e, "%s[%zu].values: Invalid value: %s: "
                                 "values set must be empty for exists and "
                                 "does not exist", path, i, sv);
        } else if (strcmp(op, "Gt") == 0 || strcmp(op, "Lt") == 0) {
            if (nv != 1)
                kp_cfg_add_error(e, "%s[%zu].values: Invalid value: %s: for "
                                 "'Gt', 'Lt' operators, exactly one value is "
                                 "required", path, i, sv);
            const cJSON *list = cJSON_IsArray(vals) ? vals : NULL;

            cJSON_ArrayForEach(v, list) {
                int64_t x;
                const char *s = cJSON_IsString(v) ? v->valuestring : "";

                if (kp_parse_int64(s, strlen(s), &x) < 0)
                    kp_cfg_add_error(e, "%s[%zu].values[%zu]: Invalid value: "
                                     "\"%.60s\": for 'Gt', 'Lt' operators, "
                                     "the value must be an integer", path, i,
                                     k, s);
                k++;
            }
        } else {
            kp_cfg_add_error(e, "%s[%zu].operator: Unsupported value: "
                             "\"%.40s\": supported values: \"In\", \"NotIn\", "
                             "\"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"",
                             path, i, op);
        }
    }
}

/* newNodeSelectorTerm's errors; an empty term is skipped */
static void
check_term(const cJSON *t, const char *path, struct kp_cfg_errors *e)
{
    const cJSON *ex = kp_json_get(t, "matchExpressions");
    const cJSON *fi = kp_json_get(t, "matchFields");
    char sub[300];

    snprintf(sub, sizeof(sub), "%.250s.matchExpressions", path);
    check_requirements(ex, sub, false, e);
    snprintf(sub, sizeof(sub), "%.250s.matchFields", path);
    check_requirements(fi, sub, true, e);
}

static void
validate_added_affinity(const cJSON *aa, const char *path,
                        struct kp_cfg_errors *e)
{
    const cJSON *req = kp_json_get(aa, "requiredDuringSchedulingIgnored"
                                   "DuringExecution");
    const cJSON *pref = kp_json_get(aa, "preferredDuringSchedulingIgnored"
                                    "DuringExecution"), *t;
    char sub[400];
    size_t i = 0;

    cJSON_ArrayForEach(t, kp_json_get(req, "nodeSelectorTerms")) {
        snprintf(sub, sizeof(sub), "%.150s.addedAffinity.requiredDuring"
                 "SchedulingIgnoredDuringExecution.nodeSelectorTerms[%zu]",
                 path, i++);
        check_term(t, sub, e);
    }
    i = 0;
    if (!cJSON_IsArray(pref))
        pref = NULL;
    cJSON_ArrayForEach(t, pref) {
        const cJSON *w = kp_json_get(t, "weight");

        snprintf(sub, sizeof(sub), "%.150s.addedAffinity.preferredDuring"
                 "SchedulingIgnoredDuringExecution[%zu]", path, i++);
        /* a 0 weight is not parsed */
        if (cJSON_IsNumber(w) && w->valuedouble != 0)
            check_term(kp_json_get(t, "preference"), sub, e);
    }
}

static int
args_node_affinity(struct kp_arena *a, const cJSON *args, const char *path,
                   struct kp_profile *p, struct kp_cfg_errors *e,
                   struct kp_error *err)
{
    static const char *const keys[] = {"apiVersion", "kind",
                                       "addedAffinity", NULL};
    const cJSON *aa = kp_json_get(args, "addedAffinity"), *pref;

    if (kp_cfg_check_keys(args, keys, path, err) < 0)
        return -1;
    if (!aa)
        return 0;
    validate_added_affinity(aa, path, e);
    p->has_added_affinity = true;
    if (kp_node_selector_from_json(a, kp_json_get(aa, "requiredDuring"
                                   "SchedulingIgnoredDuringExecution"),
                                   &p->added_required, err) < 0)
        return kp_error_path(err, "%s.addedAffinity.requiredDuring"
                             "SchedulingIgnoredDuringExecution", path);
    pref = kp_json_get(aa, "preferredDuringSchedulingIgnoredDuringExecution");
    if (cJSON_IsArray(pref))
        return added_preferred(a, pref, path, p, err);
    return 0;
}

/* ---- VolumeBindingArgs (checked, not simulated) ---- */

/*
 * ValidateVolumeBindingArgs: bindTimeoutSeconds not negative; a shape is
 * checked as a function shape when StorageCapacityScoring is on (by
 * default from v1.37), refused before (kp_run_config: vb_shape).
 */
static int
args_volume_binding(const cJSON *args, const char *path,
                    struct kp_profile *p, struct kp_cfg_errors *e,
                    struct kp_error *err)
{
    static const char *const keys[] = {"apiVersion", "kind",
        "bindTimeoutSeconds", "shape", NULL};
    struct kp_profile *tmp = kp_xcalloc(1, sizeof(*tmp));
    int64_t bt = 600;
    char sp[400];
    bool set;
    int rc = -1;

    if (kp_cfg_check_keys(args, keys, path, err) < 0)
        goto out;
    if (kp_json_int(args, "bindTimeoutSeconds", INT64_MIN, INT64_MAX, &bt,
                    &set, err) < 0) {
        kp_error_path(err, "%s", path);
        goto out;
    }
    if (bt < 0)
        kp_cfg_add_error(e, "%s.bindTimeoutSeconds: Invalid value: %lld: "
                         "invalid BindTimeoutSeconds, should not be a "
                         "negative value", path, (long long)bt);
    p->vb_shape = cJSON_IsArray(kp_json_get(args, "shape"));
    if (p->vb_shape) {
        if (decode_shape(args, path, tmp, err) < 0)
            goto out;
        snprintf(sp, sizeof(sp), "%.300s.shape", path);
        check_shape(tmp, sp, e);
    }
    rc = 0;
out:
    free(tmp);
    return rc;
}

/* ---- pluginConfig ---- */

static int
one_args(struct kp_arena *a, const char *name, const cJSON *args,
         const char *path, struct kp_profile *p, struct kp_cfg_errors *e,
         struct kp_error *err)
{
    if (strcmp(name, "DefaultPreemption") == 0)
        return args_default_preemption(args, path, p, e, err);
    if (strcmp(name, "InterPodAffinity") == 0)
        return args_inter_pod_affinity(args, path, p, e, err);
    if (strcmp(name, "NodeResourcesBalancedAllocation") == 0)
        return args_balanced(a, args, path, p, e, err);
    if (strcmp(name, "PodTopologySpread") == 0)
        return args_topology_spread(a, args, path, p, e, err);
    if (strcmp(name, "NodeResourcesFit") == 0)
        return args_fit(a, args, path, p, err);
    if (strcmp(name, "NodeAffinity") == 0)
        return args_node_affinity(a, args, path, p, e, err);
    if (strcmp(name, "VolumeBinding") == 0)
        return args_volume_binding(args, path, p, e, err);
    return 0;
}

void
kp_cfg_profile_defaults(struct kp_profile *p)
{
    p->min_candidate_nodes_percentage = 10;
    p->min_candidate_nodes_absolute = 100;
    p->scoring = KP_LEAST_ALLOCATED;
    p->scoring_name = "LeastAllocated";
    default_resources(p->fit_res, &p->nfit_res);
    default_resources(p->ba_res, &p->nba_res);
    p->hard_pod_affinity_weight = 1;
    p->fit_default = p->ba_default = true;
    p->added_required.is_null = true;
}

static int
one_entry(struct kp_arena *a, const cJSON *it, const char *path,
          const char **name, struct kp_profile *p, struct kp_cfg_errors *e,
          struct kp_error *err)
{
    static const char *const keys[] = {"name", "args", NULL};
    const cJSON *args = kp_json_get(it, "args");
    char sub[400];

    if (kp_cfg_check_keys(it, keys, path, err) < 0 ||
        kp_json_str(a, it, "name", name, err) < 0)
        return kp_error_path(err, "%s", path);
    if (!*name)
        *name = "";
    if (kp_cfg_plugin_removed(*name)) {
        kp_cfg_add_error(e, "%s: Invalid value: \"%s\": was invalid in "
                         "version \"%s\" (KubeSchedulerConfiguration is "
                         "version \"%s\")", path, *name, V1, V1);
        return 0;
    }
    if (!args)
        return 0;
    snprintf(sub, sizeof(sub), "%.150s.args", path);
    return one_args(a, *name, args, sub, p, e, err);
}

int
kp_cfg_plugin_config(struct kp_arena *a, const cJSON *prof, size_t idx,
                     struct kp_profile *p, struct kp_cfg_errors *e,
                     struct kp_error *err)
{
    const cJSON *arr, *it;
    const char **seen;
    char path[128];
    size_t i = 0, j, n;

    if (kp_json_arr(prof, "pluginConfig", &arr, err) < 0)
        return kp_error_path(err, "profiles[%zu]", idx);
    n = arr ? (size_t)cJSON_GetArraySize(arr) : 0;
    seen = kp_arena_alloc(a, (n + 1) * sizeof(*seen));
    for (it = arr ? arr->child : NULL; it; it = it->next, i++) {
        snprintf(path, sizeof(path), "profiles[%zu].pluginConfig[%zu]", idx,
                 i);
        if (one_entry(a, it, path, &seen[i], p, e, err) < 0)
            return -1;
        for (j = 0; j < i; j++)
            if (strcmp(seen[j], seen[i]) == 0) {
                kp_cfg_add_error(e, "%s: Duplicate value: \"%s\"", path,
                                 seen[i]);
                break;
            }
    }
    return 0;
}
