/*
 * config_load.c - a KubeSchedulerConfiguration file to profiles: decode
 * (strictly, as kube-scheduler's codec), SetDefaults_KubeSchedulerConfiguration
 * (pkg/scheduler/apis/config/v1/defaults.go), ValidateKubeSchedulerConfiguration
 * (pkg/scheduler/apis/config/validation/validation.go), then what
 * profile.NewMap and the framework check when they build each profile
 * (pkg/scheduler/profile/profile.go, framework/runtime/framework.go).
 * OpenShift's scheduler profiles are the configurations of
 * openshift/cluster-kube-scheduler-operator's
 * bindata/assets/config/defaultconfig-postbootstrap-*.yaml.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_int.h"
#include "framework.h"
#include "json_util.h"
#include "yaml_json.h"

#define V1 "kubescheduler.config.k8s.io/v1"

/* ---- OpenShift's profiles ---- */

static const struct {
    const char *name, *yaml;
} openshift_profiles[] = {
    {"LowNodeUtilization",
     "apiVersion: " V1 "\nkind: KubeSchedulerConfiguration\n"},
    {"HighNodeUtilization",
     "apiVersion: " V1 "\nkind: KubeSchedulerConfiguration\n"
     "profiles:\n"
     "  - schedulerName: default-scheduler\n"
     "    pluginConfig:\n"
     "      - args:\n"
     "          scoringStrategy:\n"
     "            type: MostAllocated\n"
     "        name: NodeResourcesFit\n"
     "    plugins:\n"
     "      score:\n"
     "        disabled:\n"
     "        - name: \"NodeResourcesBalancedAllocation\"\n"
     "        enabled:\n"
     "        - name: \"NodeResourcesFit\"\n"
     "          weight: 5\n"},
    {"NoScoring",
     "apiVersion: " V1 "\nkind: KubeSchedulerConfiguration\n"
     "profiles:\n"
     "  - schedulerName: default-scheduler\n"
     "    plugins:\n"
     "      preScore:\n"
     "        disabled:\n"
     "        - name: \"*\"\n"
     "      score:\n"
     "        disabled:\n"
     "        - name: \"*\"\n"},
};

/* ---- errors ---- */

static int
fail_errors(const struct kp_cfg_errors *e, const char *name,
            const char *prefix, struct kp_error *err)
{
    size_t i, len = 0, n = e->n < KP_CFG_MAX_ERRORS ? e->n :
                           KP_CFG_MAX_ERRORS;

    err->exit_code = KP_EXIT_ERROR;
    err->msg[0] = '\0';
    for (i = 0; i < n && len < sizeof(err->msg); i++)
        len += (size_t)snprintf(err->msg + len, sizeof(err->msg) - len,
                                "%s%s: %s%s", i ? "\nerror: " : "", name,
                                prefix, e->line[i]);
    return -1;
}

static void
warnf(struct kp_sched_config *cfg, const char *fmt, const char *a,
      const char *b)
{
    char line[512];
    const char **w = kp_arena_alloc(&cfg->arena, (cfg->nwarnings + 1) *
                                    sizeof(*w));

    snprintf(line, sizeof(line), fmt, a, b);
    if (cfg->nwarnings)
        memcpy(w, cfg->warnings, cfg->nwarnings * sizeof(*w));
    w[cfg->nwarnings++] = kp_arena_strdup(&cfg->arena, line);
    cfg->warnings = w;
}

/* ---- the document ---- */

static int
check_document(const cJSON *root, const char *name, struct kp_error *err)
{
    static const char *const keys[] = {
        "apiVersion", "kind", "parallelism", "leaderElection",
        "clientConnection", "healthzBindAddress", "metricsBindAddress",
        "enableProfiling", "enableContentionProfiling",
        "percentageOfNodesToScore", "podInitialBackoffSeconds",
        "podMaxBackoffSeconds", "profiles", "extenders",
        "delayCacheUntilActive", NULL
    };
    const cJSON *v = kp_json_get(root, "apiVersion");
    const cJSON *k = kp_json_get(root, "kind");

    if (!cJSON_IsObject(root))
        return kp_errorf(err, KP_EXIT_ERROR, "%s: not a "
                         "KubeSchedulerConfiguration", name);
    if (!cJSON_IsString(k) || !k->valuestring[0])
        return kp_errorf(err, KP_EXIT_ERROR, "%s: Object 'Kind' is missing",
                         name);
    if (strcmp(k->valuestring, "KubeSchedulerConfiguration") != 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: couldn't decode as "
                         "KubeSchedulerConfiguration, got kind \"%s\"", name,
                         k->valuestring);
    if (!cJSON_IsString(v) || strcmp(v->valuestring, V1) != 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: no kind "
                         "\"KubeSchedulerConfiguration\" is registered for "
                         "version \"%s\"", name, cJSON_IsString(v) ?
                         v->valuestring : "");
    if (kp_cfg_check_keys(root, keys, "", err) < 0)
        return kp_error_path(err, "%s: ", name) ;
    return 0;
}

struct raw_profile {
    const cJSON *obj;
    const char *name;               /* NULL: not given */
    int64_t pct;
    bool pct_set;
    struct kp_cfg_plugins custom, merged;
};

static int
decode_profile(struct kp_arena *a, const cJSON *o, size_t i,
               struct raw_profile *rp, struct kp_error *err)
{
    static const char *const keys[] = {"schedulerName",
        "percentageOfNodesToScore", "plugins", "pluginConfig", NULL};
    char path[64];

    snprintf(path, sizeof(path), "profiles[%zu]", i);
    rp->obj = o;
    if (kp_cfg_check_keys(o, keys, path, err) < 0 ||
        kp_json_str(a, o, "schedulerName", &rp->name, err) < 0 ||
        kp_json_int(o, "percentageOfNodesToScore", INT32_MIN, INT32_MAX,
                    &rp->pct, &rp->pct_set, err) < 0) {
        if (strncmp(err->msg, "strict", 6) != 0)
            kp_error_path(err, "%s", path);
        return -1;
    }
    snprintf(path, sizeof(path), "profiles[%zu].plugins", i);
    return kp_cfg_decode_plugins(a, kp_json_get(o, "plugins"), &rp->custom,
                                 path, err);
}

/* validatePluginSetForInvalidPlugins over every extension point */
static void
check_removed_plugins(const struct raw_profile *rp, size_t i,
                      struct kp_cfg_errors *e)
{
    size_t k;
    int x;

    for (x = 0; x < KP_EXT_N; x++)
        for (k = 0; k < rp->merged.ext[x].nen; k++)
            if (kp_cfg_plugin_removed(rp->merged.ext[x].en[k].name))
                kp_cfg_add_error(e, "profiles[%zu].plugins.%s.enabled[%zu]: "
                                 "Invalid value: \"%s\": was invalid in "
                                 "version \"%s\" (KubeSchedulerConfiguration "
                                 "is version \"%s\")", i, kp_cfg_ext_key(x),
                                 k, rp->merged.ext[x].en[k].name, V1, V1);
}

static bool
same_set(const struct kp_cfg_set *a, const struct kp_cfg_set *b)
{
    size_t i;

    if (a->nen != b->nen || a->ndis != b->ndis)
        return false;
    for (i = 0; i < a->nen; i++)
        if (strcmp(a->en[i].name, b->en[i].name) != 0 ||
            a->en[i].weight != b->en[i].weight)
            return false;
    for (i = 0; i < a->ndis; i++)
        if (strcmp(a->dis[i].name, b->dis[i].name) != 0)
            return false;
    return true;
}

static void
validate_profiles(const struct raw_profile *rp, size_t n,
                  struct kp_cfg_errors *e)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        if (!rp[i].name || !rp[i].name[0])
            kp_cfg_add_error(e, "profiles[%zu].schedulerName: Required "
                             "value", i);
        if (rp[i].pct_set && (rp[i].pct < 0 || rp[i].pct > 100))
            kp_cfg_add_error(e, "profiles[%zu].percentageOfNodesToScore: "
                             "Invalid value: %lld: not in valid range "
                             "[0-100]", i, (long long)rp[i].pct);
        check_removed_plugins(&rp[i], i, e);
        for (j = 0; j < i; j++)
            if (rp[j].name && rp[i].name &&
                strcmp(rp[j].name, rp[i].name) == 0) {
                kp_cfg_add_error(e, "profiles[%zu].schedulerName: Duplicate "
                                 "value: \"%s\"", i, rp[i].name);
                break;
            }
    }
    if (rp[0].merged.ext[KP_EXT_QUEUE_SORT].nen > 1)
        kp_cfg_add_error(e, "profiles[0].plugins.queueSort.Enabled: Invalid "
                         "value: %zu: only one queue sort plugin can be "
                         "enabled", rp[0].merged.ext[KP_EXT_QUEUE_SORT].nen);
    for (i = 1; i < n; i++)
        if (!same_set(&rp[0].merged.ext[KP_EXT_QUEUE_SORT],
                      &rp[i].merged.ext[KP_EXT_QUEUE_SORT]))
            kp_cfg_add_error(e, "profiles[%zu].plugins.queueSort: Invalid "
                             "value: ...: must be the same for all profiles",
                             i);
}

static void
validate_global(const cJSON *root, struct kp_cfg_errors *e)
{
    const cJSON *par = kp_json_get(root, "parallelism");
    const cJSON *pct = kp_json_get(root, "percentageOfNodesToScore");
    const cJSON *ib = kp_json_get(root, "podInitialBackoffSeconds");
    const cJSON *mb = kp_json_get(root, "podMaxBackoffSeconds");
    long long vpar = cJSON_IsNumber(par) ? (long long)par->valuedouble : 16;
    long long vib = cJSON_IsNumber(ib) ? (long long)ib->valuedouble : 1;
    long long vmb = cJSON_IsNumber(mb) ? (long long)mb->valuedouble : 10;

    if (vpar <= 0)
        kp_cfg_add_error(e, "parallelism: Invalid value: %lld: should be an "
                         "integer value greater than zero", vpar);
    if (cJSON_IsNumber(pct) && (pct->valuedouble < 0 ||
                                pct->valuedouble > 100))
        kp_cfg_add_error(e, "percentageOfNodesToScore: Invalid value: %lld: "
                         "not in valid range [0-100]",
                         (long long)pct->valuedouble);
    if (vib <= 0)
        kp_cfg_add_error(e, "podInitialBackoffSeconds: Invalid value: %lld: "
                         "must be greater than 0", vib);
    if (vmb < vib)
        kp_cfg_add_error(e, "podMaxBackoffSeconds: Invalid value: %lld: must "
                         "be greater than or equal to "
                         "PodInitialBackoffSeconds", vmb);
}

/* ---- building the profiles (profile.NewMap, NewFramework) ---- */

static bool
fit_needed(const struct kp_cfg_plugins *pl)
{
    size_t i;
    int x;

    for (i = 0; i < pl->multi.nen; i++)
        if (strcmp(pl->multi.en[i].name, "NodeResourcesFit") == 0)
            return true;
    for (x = 0; x < KP_EXT_N; x++)
        for (i = 0; i < pl->ext[x].nen; i++)
            if (strcmp(pl->ext[x].en[i].name, "NodeResourcesFit") == 0)
                return true;
    return false;
}

static int
build_profile(struct kp_sched_config *cfg, struct raw_profile *rp,
              struct kp_profile *p, const char *name, struct kp_error *err)
{
    struct kp_cfg_errors e = {0};
    struct kp_cfg_lists l;
    char prefix[400];

    snprintf(prefix, sizeof(prefix), "initializing profiles: creating "
             "profile for scheduler name %s: ", p->scheduler_name);
    if (fit_needed(&rp->merged)) {
        kp_cfg_check_fit(p, &e);
        if (e.n > 0) {
            size_t len = strlen(prefix);

            snprintf(prefix + len, sizeof(prefix) - len, "initializing "
                     "plugin \"NodeResourcesFit\": ");
            return fail_errors(&e, name, prefix, err);
        }
    }
    if (kp_cfg_build_lists(&cfg->arena, &rp->merged, &l, err) < 0 ||
        kp_cfg_check_weights(&rp->merged, &l, err) < 0) {
        char msg[sizeof(err->msg)];

        snprintf(msg, sizeof(msg), "%s", err->msg);
        return kp_errorf(err, KP_EXIT_ERROR, "%s: %s%s", name, prefix, msg);
    }
    kp_cfg_fill_profile(&rp->merged, &l, p);
    return 0;
}

static void
profile_warnings(struct kp_sched_config *cfg, const struct kp_profile *p,
                 const struct kp_cfg_unknown *u)
{
    size_t i;

    for (i = 0; i < u->n; i++)
        warnf(cfg, "profile '%s': plugin '%s' is not an in-tree plugin; "
              "simulated without it (--ignore-unknown-plugins)",
              p->scheduler_name, u->names[i]);
    for (i = 0; i < kp_nfilter_plugins && i < KP_CFG_MAX_FILTERS; i++)
        if (p->filter_on[i] && !p->pre_filter_on[i] &&
            kp_filter_plugins[i]->pre_filter)
            warnf(cfg, "profile '%s': %s is a Filter without its PreFilter "
                  "(kube-scheduler fails its pods with an error); simulated "
                  "without that Filter", p->scheduler_name,
                  kp_filter_plugins[i]->name);
}

static int
decode_profiles(struct kp_sched_config *cfg, const cJSON *root,
                struct raw_profile **out, size_t *n, struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    if (kp_json_arr(root, "profiles", &arr, err) < 0)
        return -1;
    *n = arr ? (size_t)cJSON_GetArraySize(arr) : 0;
    *out = kp_arena_alloc(&cfg->arena, (*n + 1) * sizeof(**out));
    memset(*out, 0, (*n + 1) * sizeof(**out));
    for (it = arr ? arr->child : NULL; it; it = it->next, i++)
        if (decode_profile(&cfg->arena, it, i, &(*out)[i], err) < 0)
            return -1;
    if (*n == 0)
        *n = 1;                     /* one profile {} */
    if (*n == 1 && !(*out)[0].name)
        (*out)[0].name = "default-scheduler";
    return 0;
}

static int
load_root(struct kp_sched_config *cfg, const cJSON *root, const char *name,
          bool ignore_unknown, struct kp_error *err)
{
    struct raw_profile *rp;
    struct kp_cfg_errors e = {0};
    struct kp_cfg_unknown *u;
    const cJSON *gpct = kp_json_get(root, "percentageOfNodesToScore");
    size_t i, n;

    if (check_document(root, name, err) < 0)
        return -1;
    if (decode_profiles(cfg, root, &rp, &n, err) < 0)
        return kp_error_path(err, "%s: ", name);
    cfg->nprofiles = n;
    cfg->profiles = kp_arena_alloc(&cfg->arena, n * sizeof(*cfg->profiles));
    memset(cfg->profiles, 0, n * sizeof(*cfg->profiles));
    u = kp_arena_alloc(&cfg->arena, n * sizeof(*u));
    memset(u, 0, n * sizeof(*u));
    for (i = 0; i < n; i++) {
        struct kp_profile *p = &cfg->profiles[i];

        p->scheduler_name = rp[i].name ? rp[i].name : "";
        kp_cfg_profile_defaults(p);
        if (ignore_unknown)
            kp_cfg_drop_unknown(&rp[i].custom, &u[i]);
        kp_cfg_merge_plugins(&cfg->arena, &rp[i].custom, &rp[i].merged);
        p->percentage_of_nodes_to_score = rp[i].pct_set ? (int)rp[i].pct :
            cJSON_IsNumber(gpct) ? (int)gpct->valuedouble : 0;
        if (rp[i].obj && kp_cfg_plugin_config(&cfg->arena, rp[i].obj, i, p,
                                              &e, err) < 0)
            return kp_error_path(err, "%s: ", name);
    }
    validate_profiles(rp, n, &e);
    validate_global(root, &e);
    if (e.n > 0)
        return fail_errors(&e, name, "", err);
    for (i = 0; i < n; i++) {
        if (build_profile(cfg, &rp[i], &cfg->profiles[i], name, err) < 0)
            return -1;
        profile_warnings(cfg, &cfg->profiles[i], &u[i]);
    }
    return 0;
}

int
kp_sched_config_parse(struct kp_sched_config *cfg, const char *name,
                      const char *text, size_t len, bool ignore_unknown,
                      struct kp_error *err)
{
    cJSON *docs = NULL;
    const cJSON *root = NULL, *d;
    int rc;

    memset(cfg, 0, sizeof(*cfg));
    kp_arena_init(&cfg->arena);
    if (kp_yaml_to_json(text, len, &docs, err) < 0)
        return kp_error_path(err, "%s: ", name);
    for (d = docs ? docs->child : NULL; d && !root; d = d->next)
        if (!cJSON_IsNull(d))
            root = d;
    if (!root) {
        cJSON_Delete(docs);
        return kp_errorf(err, KP_EXIT_ERROR, "%s: no "
                         "KubeSchedulerConfiguration in the file", name);
    }
    rc = kp_json_validate(root, 64, err) < 0 ? kp_error_path(err, "%s: ",
                                                             name) :
         load_root(cfg, root, name, ignore_unknown, err);
    cJSON_Delete(docs);
    return rc;
}

int
kp_sched_config_load(struct kp_sched_config *cfg, const char *path,
                     bool ignore_unknown, struct kp_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t len = 0, cap = 4096, r;
    int rc;

    memset(cfg, 0, sizeof(*cfg));
    kp_arena_init(&cfg->arena);
    if (!f)
        return kp_errorf(err, KP_EXIT_ERROR, "open %s: %s", path,
                         strerror(errno));
    buf = kp_xmalloc(cap + 1);
    while ((r = fread(buf + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap && cap < (64u << 20)) {
            cap *= 2;
            buf = kp_xrealloc(buf, cap + 1);
        } else if (len == cap) {
            break;
        }
    }
    fclose(f);
    buf[len] = '\0';
    kp_arena_release(&cfg->arena);
    rc = kp_sched_config_parse(cfg, path, buf, len, ignore_unknown, err);
    free(buf);
    if (rc == 0)
        cfg->file = kp_arena_strdup(&cfg->arena, path);
    return rc;
}

int
kp_sched_config_openshift(struct kp_sched_config *cfg, const char *name,
                          struct kp_error *err)
{
    size_t i, n = sizeof(openshift_profiles) / sizeof(openshift_profiles[0]);

    for (i = 0; i < n; i++)
        if (strcmp(openshift_profiles[i].name, name) == 0)
            break;
    if (i == n) {
        memset(cfg, 0, sizeof(*cfg));
        kp_arena_init(&cfg->arena);
        return kp_errorf(err, KP_EXIT_USAGE, "invalid argument \"%s\" for "
                         "\"--profile\" flag: must be one of "
                         "LowNodeUtilization, HighNodeUtilization, NoScoring",
                         name);
    }
    if (kp_sched_config_parse(cfg, openshift_profiles[i].name,
                              openshift_profiles[i].yaml,
                              strlen(openshift_profiles[i].yaml), false,
                              err) < 0)
        return -1;
    cfg->profile_label = openshift_profiles[i].name;
    return 0;
}

void
kp_sched_config_release(struct kp_sched_config *cfg)
{
    kp_arena_release(&cfg->arena);
    memset(cfg, 0, sizeof(*cfg));
}

const struct kp_profile *
kp_sched_config_profile(const struct kp_sched_config *cfg, const char *name)
{
    size_t i;

    for (i = 0; cfg && i < cfg->nprofiles; i++)
        if (strcmp(cfg->profiles[i].scheduler_name, name) == 0)
            return &cfg->profiles[i];
    return NULL;
}
