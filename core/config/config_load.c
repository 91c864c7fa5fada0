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
#include "json_util.h"
#include "read_file.h"
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
    /* whole lines only; what does not fit is counted on a last line */
    for (i = 0; i < n; i++) {
        char one[600];
        size_t l = (size_t)snprintf(one, sizeof(one), "%s%s: %s%s",
                                    i ? "\nerror: " : "", name, prefix,
                                    e->line[i]);

        if (len + l + 64 >= sizeof(err->msg))
            break;
        memcpy(err->msg + len, one, l + 1);
        len += l;
    }
    if (i < e->n)
        snprintf(err->msg + len, sizeof(err->msg) - len, "\nerror: %.200s: "
                 "%zu more validation error(s)", name, e->n - i);
    return -1;
}

/* "FILE: " before the message (a path or not) */
static int
named(struct kp_error *err, const char *name)
{
    char old[sizeof(err->msg)];
    size_t n;

    memcpy(old, err->msg, sizeof(old));
    n = (size_t)snprintf(err->msg, sizeof(err->msg), "%.300s: ", name);
    memcpy(err->msg + n, old, sizeof(err->msg) - n - 1);
    err->msg[sizeof(err->msg) - 1] = '\0';
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
        return named(err, name);
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

/* ---- leaderElection, clientConnection, extenders ---- */

/*
 * Go's time.ParseDuration: a sign, then numbers with an optional
 * fraction, each with its unit (ns, us, µs, μs, ms, s, m, h); "0" alone.
 */
static bool
parse_duration(const char *s, double *ns)
{
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"ns", 1}, {"us", 1e3}, {"\xc2\xb5s", 1e3},
                 {"\xce\xbcs", 1e3}, {"ms", 1e6}, {"s", 1e9},
                 {"m", 6e10}, {"h", 3.6e12}};
    double total = 0, sign = 1;

    if (*s == '-' || *s == '+')
        sign = *s++ == '-' ? -1 : 1;
    if (strcmp(s, "0") == 0) {
        *ns = 0;
        return true;
    }
    if (!*s)
        return false;
    while (*s) {
        double v = 0, scale = 1;
        bool digits = false;
        size_t u, best = 0, blen = 0;

        for (; *s >= '0' && *s <= '9'; s++, digits = true)
            v = v * 10 + (*s - '0');
        if (*s == '.')
            for (s++; *s >= '0' && *s <= '9'; s++, digits = true)
                v += (*s - '0') * (scale /= 10);
        if (!digits)
            return false;
        for (u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
            size_t l = strlen(units[u].unit);

            if (strncmp(s, units[u].unit, l) == 0 && l > blen) {
                best = u;
                blen = l;
            }
        }
        if (!blen)
            return false;
        total += v * units[best].ns;
        s += blen;
    }
    *ns = sign * total;
    return true;
}

/* Go's time.Duration.String ("1m30s", "500ms", "0s", "-2s") */
static void
format_duration(double ns_d, char *buf, size_t n)
{
    long long ns = (long long)ns_d;
    unsigned long long u = ns < 0 ? (unsigned long long)-ns
                                  : (unsigned long long)ns;
    const char *sign = ns < 0 ? "-" : "";
    char frac[24] = "";
    unsigned long long h, m, sec, rest;
    int w;

    if (u == 0) {
        snprintf(buf, n, "0s");
        return;
    }
    if (u < 1000000000ULL) {
        const char *unit = u < 1000 ? "ns" : u < 1000000 ? "\xc2\xb5s"
                                                         : "ms";
        unsigned long long div = u < 1000 ? 1 : u < 1000000 ? 1000
                                                             : 1000000;

        rest = u % div;
        for (w = 0; rest; w++)
            rest /= 10;
        rest = u % div;
        if (rest) {
            int digits = div == 1000 ? 3 : 6;

            snprintf(frac, sizeof(frac), ".%0*llu", digits, rest);
            for (w = (int)strlen(frac) - 1; frac[w] == '0'; w--)
                frac[w] = '\0';
        }
        snprintf(buf, n, "%s%llu%s%s", sign, u / div, frac, unit);
        return;
    }
    h = u / 3600000000000ULL;
    m = u / 60000000000ULL % 60;
    sec = u / 1000000000ULL % 60;
    rest = u % 1000000000ULL;
    if (rest) {
        snprintf(frac, sizeof(frac), ".%09llu", rest);
        for (w = (int)strlen(frac) - 1; frac[w] == '0'; w--)
            frac[w] = '\0';
    }
    if (h)
        snprintf(buf, n, "%s%lluh%llum%llu%ss", sign, h, m, sec, frac);
    else if (m)
        snprintf(buf, n, "%s%llum%llu%ss", sign, m, sec, frac);
    else
        snprintf(buf, n, "%s%llu%ss", sign, sec, frac);
}

/* a duration member, defaulted when absent or zero; -1 when unreadable */
static int
get_duration(const cJSON *obj, const char *key, double def, double *out,
             const char *path, struct kp_error *err)
{
    const cJSON *v = kp_json_get(obj, key);

    *out = def;
    if (!v || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsString(v))
        return kp_errorf(err, KP_EXIT_ERROR, "%s.%s: expected a duration "
                         "string, e.g. \"15s\"", path, key);
    if (!parse_duration(v->valuestring, out))
        return kp_errorf(err, KP_EXIT_ERROR, "%s.%s: time: invalid duration "
                         "\"%.100s\"", path, key, v->valuestring);
    if (*out == 0)
        *out = def;                 /* RecommendedDefaultLeaderElection... */
    return 0;
}

/* ValidateLeaderElectionConfiguration after the v1 defaults */
static int
leader_election(const cJSON *root, struct kp_cfg_errors *e,
                struct kp_error *err)
{
    static const char *const keys[] = {"leaderElect", "leaseDuration",
        "renewDeadline", "retryPeriod", "resourceLock", "resourceName",
        "resourceNamespace", NULL};
    const cJSON *le = kp_json_get(root, "leaderElection");
    const char *p = "leaderElection";
    double lease, renew, retry;
    bool elect = true;
    const cJSON *lock;
    char d[48];

    if (!le || cJSON_IsNull(le))
        return 0;
    if (!cJSON_IsObject(le))
        return kp_errorf(err, KP_EXIT_ERROR, "%s: expected an object", p);
    if (kp_cfg_check_keys(le, keys, p, err) < 0 ||
        kp_json_bool(le, "leaderElect", &elect, err) < 0)
        return -1;
    /* leaderElect defaults to true */
    if (!kp_json_get(le, "leaderElect") ||
        cJSON_IsNull(kp_json_get(le, "leaderElect")))
        elect = true;
    if (get_duration(le, "leaseDuration", 15e9, &lease, p, err) < 0 ||
        get_duration(le, "renewDeadline", 10e9, &renew, p, err) < 0 ||
        get_duration(le, "retryPeriod", 2e9, &retry, p, err) < 0)
        return -1;
    lock = kp_json_get(le, "resourceLock");
    if (lock && !cJSON_IsNull(lock) && !cJSON_IsString(lock))
        return kp_errorf(err, KP_EXIT_ERROR, "%s.resourceLock: expected a "
                         "string", p);
    if (!elect)
        return 0;
    if (lease <= 0) {
        format_duration(lease, d, sizeof(d));
        kp_cfg_add_error(e, "%s.leaseDuration: Invalid value: %s: must be "
                         "greater than zero", p, d);
    }
    if (renew <= 0) {
        format_duration(renew, d, sizeof(d));
        kp_cfg_add_error(e, "%s.renewDeadline: Invalid value: %s: must be "
                         "greater than zero", p, d);
    }
    if (retry <= 0) {
        format_duration(retry, d, sizeof(d));
        kp_cfg_add_error(e, "%s.retryPeriod: Invalid value: %s: must be "
                         "greater than zero", p, d);
    }
    if (lease <= renew) {
        format_duration(renew, d, sizeof(d));
        kp_cfg_add_error(e, "%s.leaseDuration: Invalid value: %s: must be "
                         "greater than `RenewDeadline`", p, d);
    }
    if (cJSON_IsString(lock) && lock->valuestring[0] &&
        strcmp(lock->valuestring, "leases") != 0)
        kp_cfg_add_error(e, "%s.resourceLock: Invalid value: \"%.100s\": "
                         "resourceLock value must be \"leases\"", p,
                         lock->valuestring);
    return 0;
}

/* ValidateClientConnectionConfiguration after the v1 defaults */
static int
client_connection(const cJSON *root, struct kp_cfg_errors *e,
                  struct kp_error *err)
{
    static const char *const keys[] = {"kubeconfig", "acceptContentTypes",
        "contentType", "qps", "burst", NULL};
    const cJSON *cc = kp_json_get(root, "clientConnection"), *qps;
    int64_t burst = 0;
    bool set;

    if (!cc || cJSON_IsNull(cc))
        return 0;
    if (!cJSON_IsObject(cc))
        return kp_errorf(err, KP_EXIT_ERROR, "clientConnection: expected an "
                         "object");
    qps = kp_json_get(cc, "qps");
    if (kp_cfg_check_keys(cc, keys, "clientConnection", err) < 0 ||
        kp_json_int(cc, "burst", INT32_MIN, INT32_MAX, &burst, &set,
                    err) < 0)
        return kp_error_path(err, "clientConnection");
    if (qps && !cJSON_IsNull(qps) && !cJSON_IsNumber(qps))
        return kp_errorf(err, KP_EXIT_ERROR, "clientConnection.qps: "
                         "expected a number");
    if (burst < 0)
        kp_cfg_add_error(e, "clientConnection.burst: Invalid value: %lld: "
                         "must be non-negative", (long long)burst);
    return 0;
}

/* v1helper.IsExtendedResourceName, on a name IsQualifiedName accepts */
static bool
extended_resource_name(const char *n)
{
    const char *slash = strchr(n, '/');

    if (!slash || slash == n || !slash[1] || strchr(slash + 1, '/'))
        return false;
    if (strncmp(n, "kubernetes.io/", 14) == 0 ||
        (slash - n > 14 && strncmp(slash - 14, ".kubernetes.io", 14) == 0))
        return false;
    return strncmp(n, "requests.", 9) != 0;
}

/*
 * validateExtenders, then what this tool does with them: an extender
 * kube-scheduler calls to filter, prioritize or preempt changes answers
 * that cannot be replayed (it is an HTTP service of the cluster).  It is
 * an error naming it; --ignore-unknown-plugins runs without it, and every
 * report then says so.  A binder alone changes no decision.
 */
static int
extenders(struct kp_sched_config *cfg, const cJSON *root,
          bool ignore_unknown, struct kp_cfg_errors *e,
          struct kp_error *err)
{
    static const char *const keys[] = {"urlPrefix", "filterVerb",
        "preemptVerb", "prioritizeVerb", "weight", "bindVerb", "enableHTTPS",
        "tlsConfig", "httpTimeout", "nodeCacheCapable", "managedResources",
        "ignorable", NULL};
    static const char *const mkeys[] = {"name", "ignoredByScheduler", NULL};
    static const char *const verbs[] = {"filterVerb", "prioritizeVerb",
                                        "preemptVerb"};
    const cJSON *arr, *x;
    const char *seen[64];
    size_t i = 0, nseen = 0, binders = 0, bad = 0, v;
    char path[64], what[64], url[256];

    if (kp_json_arr(root, "extenders", &arr, err) < 0)
        return -1;
    for (x = arr ? arr->child : NULL; x; x = x->next, i++) {
        const cJSON *m, *marr, *bind, *pv, *u;
        int64_t weight = 0;
        size_t j = 0;

        snprintf(path, sizeof(path), "extenders[%zu]", i);
        if (!cJSON_IsObject(x))
            return kp_errorf(err, KP_EXIT_ERROR, "%s: expected an object",
                             path);
        if (kp_cfg_check_keys(x, keys, path, err) < 0 ||
            kp_json_int(x, "weight", INT64_MIN, INT64_MAX, &weight, NULL,
                        err) < 0 ||
            kp_json_arr(x, "managedResources", &marr, err) < 0)
            return kp_error_path(err, "%s", path);
        pv = kp_json_get(x, "prioritizeVerb");
        if (cJSON_IsString(pv) && pv->valuestring[0] && weight <= 0)
            kp_cfg_add_error(e, "%s.weight: Invalid value: %lld: must have "
                             "a positive weight applied to it", path,
                             (long long)weight);
        bind = kp_json_get(x, "bindVerb");
        if (cJSON_IsString(bind) && bind->valuestring[0])
            binders++;
        for (m = marr ? marr->child : NULL; m; m = m->next, j++) {
            const cJSON *name = kp_json_get(m, "name");
            const char *nm = cJSON_IsString(name) ? name->valuestring : "";
            size_t k;

            if (kp_cfg_check_keys(m, mkeys, path, err) < 0)
                return kp_error_path(err, "%s.managedResources[%zu]", path,
                                     j);
            if (!extended_resource_name(nm))
                kp_cfg_add_error(e, "%s.managedResources[%zu].name: Invalid "
                                 "value: \"%.100s\": is an invalid extended "
                                 "resource name", path, j, nm);
            for (k = 0; k < nseen && strcmp(seen[k], nm) != 0; k++)
                ;
            if (k < nseen)
                kp_cfg_add_error(e, "%s.managedResources[%zu].name: Invalid "
                                 "value: \"%.100s\": duplicate extender "
                                 "managed resource name", path, j, nm);
            else if (nseen < sizeof(seen) / sizeof(seen[0]))
                seen[nseen++] = nm;
        }
        /* what it does that cannot be replayed */
        what[0] = '\0';
        for (v = 0; v < 3; v++) {
            const cJSON *verb = kp_json_get(x, verbs[v]);

            if (cJSON_IsString(verb) && verb->valuestring[0])
                snprintf(what + strlen(what), sizeof(what) - strlen(what),
                         "%s%.*s", what[0] ? ", " : "",
                         (int)strlen(verbs[v]) - 4, verbs[v]);
        }
        if (!what[0])
            continue;
        u = kp_json_get(x, "urlPrefix");
        snprintf(url, sizeof(url), "%.200s", cJSON_IsString(u) ?
                 u->valuestring : "");
        if (!ignore_unknown && !bad++)
            kp_errorf(err, KP_EXIT_ERROR, "%s (%s): kube-scheduler calls "
                      "this extender to %s, which cannot be replayed; "
                      "--ignore-unknown-plugins runs without it", path, url,
                      what);
        else if (ignore_unknown)
            warnf(cfg, "extender '%s' (%s) is not simulated: the answers "
                  "assume it accepts every node and changes no score or "
                  "victim", url, what);
    }
    if (binders > 1)
        kp_cfg_add_error(e, "extenders: Invalid value: \"found %zu extenders "
                         "implementing bind\": only one extender can "
                         "implement bind", binders);
    return bad ? 1 : 0;
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
    for (i = 0; i < kp_cfg_nsim_filters && i < KP_CFG_MAX_FILTERS; i++)
        if (p->filter_on[i] && !p->pre_filter_on[i] &&
            kp_cfg_sim_filters[i].pre_filter)
            warnf(cfg, "profile '%s': %s is a Filter without its PreFilter "
                  "(kube-scheduler fails its pods with an error); simulated "
                  "without that Filter", p->scheduler_name,
                  kp_cfg_sim_filters[i].name);
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
    int ext = 0;

    if (check_document(root, name, err) < 0)
        return -1;
    if (decode_profiles(cfg, root, &rp, &n, err) < 0)
        return named(err, name);
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
            return named(err, name);
    }
    validate_profiles(rp, n, &e);
    validate_global(root, &e);
    if (client_connection(root, &e, err) < 0 ||
        leader_election(root, &e, err) < 0 ||
        (ext = extenders(cfg, root, ignore_unknown, &e, err)) < 0)
        return named(err, name);
    if (e.n > 0)
        return fail_errors(&e, name, "", err);
    if (ext > 0)
        return named(err, name);
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
        return named(err, name);
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
    char *buf, cap[32];
    size_t len = 0;
    int rc, e;

    memset(cfg, 0, sizeof(*cfg));
    kp_arena_init(&cfg->arena);
    /* at most KP_CAP_SCHED_CONFIG bytes, checked while reading */
    e = kp_read_file(path, KP_CAP_SCHED_CONFIG, 0, &buf, &len);
    if (e == EFBIG)
        return kp_errorf(err, KP_EXIT_ERROR, "read %s: larger than %s, the "
                         "cap for scheduler configurations", path,
                         kp_cap_text(KP_CAP_SCHED_CONFIG, cap, sizeof(cap)));
    if (e)
        return kp_errorf(err, KP_EXIT_ERROR, "%s %s: %s", e == EISDIR ?
                         "read" : "open", path, strerror(e));
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
