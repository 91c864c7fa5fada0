/*
 * config.c - see config.h.  Reads a KubeSchedulerConfiguration as
 * kube-scheduler does: defaults (pkg/scheduler/apis/config/v1/defaults.go),
 * the default plugins and their merge (default_plugins.go getDefaultPlugins,
 * mergePlugins, mergePluginSet), validation (validation.go,
 * validation_pluginargs.go) and the framework's plugin lists
 * (pkg/scheduler/framework/runtime/framework.go updatePluginList,
 * expandMultiPointPlugins, getScoreWeights).  The profile's argument
 * parsing and validation is in config_args.c.
 */
#include "config.h"
#include "config_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "yaml_json.h"

/* The extension points, in the order of the framework's getExtensionPoints. */
static const char *const ext_type[KP_EXT_N] = {
    "PreFilterPlugin", "FilterPlugin", "PostFilterPlugin", "ReservePlugin",
    "PreScorePlugin", "ScorePlugin", "PreBindPlugin", "BindPlugin",
    "PostBindPlugin", "PermitPlugin", "PreEnqueuePlugin", "QueueSortPlugin"
};

static const char *const ext_key[KP_EXT_N] = {
    "preFilter", "filter", "postFilter", "reserve", "preScore", "score",
    "preBind", "bind", "postBind", "permit", "preEnqueue", "queueSort"
};

#define B(e) (1u << (e))
#define PF B(KP_EXT_PRE_FILTER)
#define F B(KP_EXT_FILTER)
#define SC (B(KP_EXT_PRE_SCORE) | B(KP_EXT_SCORE))

/* The in-tree registry (pkg/scheduler/framework/plugins/registry.go). */
static const struct {
    const char *name;
    unsigned ext;
} registry[] = {
    {"SchedulingGates", B(KP_EXT_PRE_ENQUEUE)},
    {"PrioritySort", B(KP_EXT_QUEUE_SORT)},
    {"NodeUnschedulable", F},
    {"NodeName", F},
    {"TaintToleration", F | SC},
    {"NodeAffinity", PF | F | SC},
    {"NodePorts", PF | F},
    {"NodeResourcesFit", PF | F | SC},
    {"VolumeRestrictions", PF | F},
    {"NodeVolumeLimits", PF | F},
    {"VolumeBinding", PF | F | B(KP_EXT_RESERVE) | B(KP_EXT_PRE_BIND) | SC},
    {"VolumeZone", PF | F},
    {"PodTopologySpread", PF | F | SC},
    {"InterPodAffinity", PF | F | SC},
    {"DynamicResources", B(KP_EXT_PRE_ENQUEUE) | PF | F |
     B(KP_EXT_POST_FILTER) | B(KP_EXT_RESERVE) | B(KP_EXT_PRE_BIND)},
    {"DefaultPreemption", B(KP_EXT_POST_FILTER)},
    {"NodeResourcesBalancedAllocation", SC},
    {"ImageLocality", B(KP_EXT_SCORE)},
    {"DefaultBinder", B(KP_EXT_BIND)},
    {"NodeDeclaredFeatures", PF | F},
};

/* getDefaultPlugins for v1.35-v1.37 (DynamicResources GA since v1.34). */
static const struct kp_cfg_plugin default_multipoint[] = {
    {"SchedulingGates", 0, false}, {"PrioritySort", 0, false},
    {"NodeUnschedulable", 0, false}, {"NodeName", 0, false},
    {"TaintToleration", 3, true}, {"NodeAffinity", 2, true},
    {"NodePorts", 0, false}, {"NodeResourcesFit", 1, true},
    {"VolumeRestrictions", 0, false}, {"NodeVolumeLimits", 0, false},
    {"VolumeBinding", 0, false}, {"VolumeZone", 0, false},
    {"PodTopologySpread", 2, true}, {"InterPodAffinity", 2, true},
    {"DynamicResources", 0, false}, {"DefaultPreemption", 0, false},
    {"NodeResourcesBalancedAllocation", 1, true},
    {"ImageLocality", 1, true}, {"DefaultBinder", 0, false},
};

/*
 * The simulated Filter plugins in kp_filter_plugins' order, with whether
 * the simulation has a PreFilter for them, and the simulated Score
 * plugins in kp_score_plugins' order (core/sched/plugins/registry.c): a
 * profile's switches and weights are kept by these indexes.  Upstream
 * names the plugins in the configuration
 * (pkg/scheduler/apis/config/v1/default_plugins.go) and maps the names to
 * plugins in the framework (pkg/scheduler/framework/plugins/registry.go);
 * here too config/ reads names only, and test_registry checks that the
 * lists agree with the tables.
 */
const struct kp_cfg_sim_plugin kp_cfg_sim_filters[] = {
    {"NodeUnschedulable", false},
    {"NodeName", false},
    {"TaintToleration", false},
    {"NodeAffinity", true},
    {"NodePorts", true},
    {"NodeResourcesFit", false},
    {"VolumeRestrictions", true},
    {"NodeVolumeLimits", true},
    {"VolumeBinding", true},
    {"VolumeZone", true},
    {"PodTopologySpread", true},
    {"InterPodAffinity", true},
};
const size_t kp_cfg_nsim_filters =
    sizeof(kp_cfg_sim_filters) / sizeof(kp_cfg_sim_filters[0]);

const char *const kp_cfg_sim_scores[] = {
    "TaintToleration",
    "NodeAffinity",
    "NodeResourcesFit",
    "PodTopologySpread",
    "InterPodAffinity",
    "NodeResourcesBalancedAllocation",
    "ImageLocality",
};
const size_t kp_cfg_nsim_scores =
    sizeof(kp_cfg_sim_scores) / sizeof(kp_cfg_sim_scores[0]);

int
kp_cfg_add_error(struct kp_cfg_errors *e, const char *fmt, ...)
{
    va_list ap;

    if (e->n < KP_CFG_MAX_ERRORS) {
        va_start(ap, fmt);
        vsnprintf(e->line[e->n], sizeof(e->line[e->n]), fmt, ap);
        va_end(ap);
    }
    e->n++;
    return -1;
}

static int
registry_find(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
        if (strcmp(registry[i].name, name) == 0)
            return (int)i;
    return -1;
}

static bool
implements(const char *name, int ext)
{
    int r = registry_find(name);

    return r >= 0 && (registry[r].ext & B(ext));
}

bool
kp_cfg_known_plugin(const char *name)
{
    return registry_find(name) >= 0;
}

/* ---- decoding plugin sets ---- */

int
kp_cfg_check_keys(const cJSON *obj, const char *const *allowed,
                  const char *path, struct kp_error *err)
{
    const cJSON *m;
    size_t i;

    if (!cJSON_IsObject(obj))
        return kp_errorf(err, KP_EXIT_ERROR, "%s: expected an object",
                         path[0] ? path : "configuration");
    for (m = obj->child; m; m = m->next) {
        for (i = 0; allowed[i]; i++)
            if (strcmp(allowed[i], m->string) == 0)
                break;
        if (!allowed[i])
            return kp_errorf(err, KP_EXIT_ERROR, "strict decoding error: "
                             "unknown field \"%s%s%s\"", path,
                             path[0] ? "." : "", m->string);
    }
    return 0;
}

static int
decode_plugin(struct kp_arena *a, const cJSON *o, struct kp_cfg_plugin *p,
              const char *path, struct kp_error *err)
{
    static const char *const keys[] = {"name", "weight", NULL};
    int64_t w = 0;

    memset(p, 0, sizeof(*p));
    if (kp_cfg_check_keys(o, keys, path, err) < 0 ||
        kp_json_str(a, o, "name", &p->name, err) < 0 ||
        kp_json_int(o, "weight", INT32_MIN, INT32_MAX, &w, &p->has_weight,
                    err) < 0)
        return kp_error_path(err, "%s", path);
    if (!p->name)
        p->name = "";
    p->weight = w;
    return 0;
}

static int
decode_list(struct kp_arena *a, const cJSON *set, const char *key,
            struct kp_cfg_plugin **out, size_t *n, const char *path,
            struct kp_error *err)
{
    const cJSON *arr, *it;
    char sub[400];
    size_t i = 0;

    if (kp_json_arr(set, key, &arr, err) < 0)
        return kp_error_path(err, "%s", path);
    *n = arr ? (size_t)cJSON_GetArraySize(arr) : 0;
    *out = kp_arena_alloc(a, (*n + 1) * sizeof(**out));
    for (it = arr ? arr->child : NULL; it; it = it->next, i++) {
        snprintf(sub, sizeof(sub), "%.150s.%s[%zu]", path, key, i);
        if (decode_plugin(a, it, &(*out)[i], sub, err) < 0)
            return -1;
    }
    return 0;
}

static int
decode_set(struct kp_arena *a, const cJSON *plugins, const char *key,
           struct kp_cfg_set *s, const char *path, struct kp_error *err)
{
    static const char *const keys[] = {"enabled", "disabled", NULL};
    const cJSON *set = kp_json_get(plugins, key);
    char sub[400];

    memset(s, 0, sizeof(*s));
    if (!set)
        return 0;
    snprintf(sub, sizeof(sub), "%.150s.%s", path, key);
    if (kp_cfg_check_keys(set, keys, sub, err) < 0 ||
        decode_list(a, set, "enabled", &s->en, &s->nen, sub, err) < 0 ||
        decode_list(a, set, "disabled", &s->dis, &s->ndis, sub, err) < 0)
        return -1;
    return 0;
}

int
kp_cfg_decode_plugins(struct kp_arena *a, const cJSON *plugins,
                      struct kp_cfg_plugins *out, const char *path,
                      struct kp_error *err)
{
    static const char *const keys[] = {
        "multiPoint", "preFilter", "filter", "postFilter", "reserve",
        "preScore", "score", "preBind", "bind", "postBind", "permit",
        "preEnqueue", "queueSort", NULL
    };
    int e;

    memset(out, 0, sizeof(*out));
    if (!plugins)
        return 0;
    if (kp_cfg_check_keys(plugins, keys, path, err) < 0 ||
        decode_set(a, plugins, "multiPoint", &out->multi, path, err) < 0)
        return -1;
    for (e = 0; e < KP_EXT_N; e++)
        if (decode_set(a, plugins, ext_key[e], &out->ext[e], path, err) < 0)
            return -1;
    return 0;
}

/* ---- mergePlugins ---- */

static bool
set_disables(const struct kp_cfg_set *s, const char *name)
{
    size_t i;

    for (i = 0; i < s->ndis; i++)
        if (strcmp(s->dis[i].name, name) == 0)
            return true;
    return false;
}

/* mergePluginSet: custom into def (whose disabled list is empty here). */
void
kp_cfg_merge_set(struct kp_arena *a, const struct kp_cfg_set *def,
                 const struct kp_cfg_set *custom, struct kp_cfg_set *out)
{
    bool *replaced = kp_arena_alloc(a, (custom->nen + 1) * sizeof(bool));
    size_t i, j;

    memset(replaced, 0, (custom->nen + 1) * sizeof(bool));
    out->nen = 0;
    out->en = kp_arena_alloc(a, (def->nen + custom->nen + 1) *
                             sizeof(*out->en));
    out->ndis = custom->ndis + def->ndis;
    out->dis = kp_arena_alloc(a, (out->ndis + 1) * sizeof(*out->dis));
    if (custom->ndis)
        memcpy(out->dis, custom->dis, custom->ndis * sizeof(*out->dis));
    if (def->ndis)
        memcpy(out->dis + custom->ndis, def->dis,
               def->ndis * sizeof(*out->dis));
    for (i = 0; !set_disables(out, "*") && i < def->nen; i++) {
        struct kp_cfg_plugin p = def->en[i];
        size_t last = custom->nen;

        if (set_disables(out, p.name))
            continue;
        /* the map of custom plugins keeps the last of a name */
        for (j = 0; j < custom->nen; j++)
            if (strcmp(custom->en[j].name, p.name) == 0)
                last = j;
        if (last < custom->nen) {
            p = custom->en[last];
            replaced[last] = true;
        }
        out->en[out->nen++] = p;
    }
    for (j = 0; j < custom->nen; j++)
        if (!replaced[j])
            out->en[out->nen++] = custom->en[j];
}

void
kp_cfg_merge_plugins(struct kp_arena *a, const struct kp_cfg_plugins *custom,
                     struct kp_cfg_plugins *out)
{
    struct kp_cfg_set def = {0};
    int e;

    def.en = (struct kp_cfg_plugin *)default_multipoint;
    def.nen = sizeof(default_multipoint) / sizeof(default_multipoint[0]);
    kp_cfg_merge_set(a, &def, &custom->multi, &out->multi);
    memset(&def, 0, sizeof(def));
    for (e = 0; e < KP_EXT_N; e++)
        kp_cfg_merge_set(a, &def, &custom->ext[e], &out->ext[e]);
}

/* ---- the framework's plugin lists ---- */

static bool
list_has(const struct kp_cfg_plugin *l, size_t n, const char *name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(l[i].name, name) == 0)
            return true;
    return false;
}

static int
fw_error(struct kp_error *err, const char *fmt, const char *name,
         const char *type)
{
    return kp_errorf(err, KP_EXIT_ERROR, fmt, type, name);
}

/* updatePluginList over set->en, into out (n). */
static int
update_plugin_list(int e, const struct kp_cfg_set *set,
                   struct kp_cfg_plugin *out, size_t *n,
                   struct kp_error *err)
{
    size_t i;

    *n = 0;
    for (i = 0; i < set->nen; i++) {
        const char *name = set->en[i].name;

        if (!kp_cfg_known_plugin(name))
            return fw_error(err, "%s \"%s\" does not exist", name,
                            ext_type[e]);
        if (!implements(name, e))
            return kp_errorf(err, KP_EXIT_ERROR, "plugin \"%s\" does not "
                             "extend %s plugin", name, ext_type[e]);
        if (list_has(out, *n, name))
            return kp_errorf(err, KP_EXIT_ERROR, "plugin \"%s\" already "
                             "registered as \"%s\"", name, ext_type[e]);
        out[(*n)++] = set->en[i];
    }
    return 0;
}

/* expandMultiPointPlugins for one extension point. */
static int
expand_multipoint(int e, const struct kp_cfg_plugins *pl,
                  struct kp_cfg_plugin *list, size_t *n, struct kp_arena *a,
                  struct kp_error *err)
{
    const struct kp_cfg_set *set = &pl->ext[e];
    size_t nmp = 0, nov = 0, i, k = 0, cap = *n + pl->multi.nen + 1;
    struct kp_cfg_plugin *mp = kp_arena_alloc(a, cap * sizeof(*mp));
    struct kp_cfg_plugin *ov = kp_arena_alloc(a, cap * sizeof(*ov));
    struct kp_cfg_plugin *res = kp_arena_alloc(a, cap * sizeof(*res));

    if (set_disables(set, "*"))
        return 0;
    for (i = 0; i < pl->multi.nen; i++) {
        const struct kp_cfg_plugin *p = &pl->multi.en[i];

        if (!kp_cfg_known_plugin(p->name))
            return fw_error(err, "%s \"%s\" does not exist", p->name,
                            ext_type[e]);
        if (!implements(p->name, e) || set_disables(set, p->name))
            continue;
        if (list_has(list, *n, p->name)) {
            if (!list_has(ov, nov, p->name))
                ov[nov++] = *p;
            continue;
        }
        if (list_has(mp, nmp, p->name))
            return kp_errorf(err, KP_EXIT_ERROR, "plugin \"%s\" already "
                             "registered as \"%s\"", p->name, ext_type[e]);
        mp[nmp++] = *p;
    }
    /* overrides (as in the extension point's own list), multiPoint, rest */
    for (i = 0; i < *n; i++)
        if (list_has(ov, nov, list[i].name))
            res[k++] = list[i];
    memcpy(res + k, mp, nmp * sizeof(*mp));
    k += nmp;
    for (i = 0; i < *n; i++)
        if (!list_has(ov, nov, list[i].name))
            res[k++] = list[i];
    memcpy(list, res, k * sizeof(*res));
    *n = k;
    return 0;
}

int
kp_cfg_build_lists(struct kp_arena *a, const struct kp_cfg_plugins *pl,
                   struct kp_cfg_lists *out, struct kp_error *err)
{
    int e;

    for (e = 0; e < KP_EXT_N; e++) {
        size_t cap = pl->ext[e].nen + pl->multi.nen + 1;

        out->l[e] = kp_arena_alloc(a, cap * sizeof(*out->l[e]));
        if (update_plugin_list(e, &pl->ext[e], out->l[e], &out->n[e],
                               err) < 0)
            return -1;
    }
    if (pl->multi.nen > 0)
        for (e = 0; e < KP_EXT_N; e++)
            if (expand_multipoint(e, pl, out->l[e], &out->n[e], a, err) < 0)
                return -1;
    if (out->n[KP_EXT_QUEUE_SORT] == 0)
        return kp_errorf(err, KP_EXIT_ERROR, "no queue sort plugin is "
                         "enabled");
    if (out->n[KP_EXT_QUEUE_SORT] > 1)
        return kp_errorf(err, KP_EXIT_ERROR, "only one queue sort plugin "
                         "can be enabled");
    if (out->n[KP_EXT_BIND] == 0)
        return kp_errorf(err, KP_EXIT_ERROR, "at least one bind plugin is "
                         "needed");
    return 0;
}

/* getScoreWeights: Score's own weight first, then MultiPoint's; 0 is 1. */
int
kp_cfg_score_weight(const struct kp_cfg_plugins *pl, const char *name,
                    int64_t *w)
{
    const struct kp_cfg_set *sets[2] = {&pl->ext[KP_EXT_SCORE], &pl->multi};
    size_t s, i;

    for (s = 0; s < 2; s++)
        for (i = 0; i < sets[s]->nen; i++)
            if (strcmp(sets[s]->en[i].name, name) == 0) {
                *w = sets[s]->en[i].weight ? sets[s]->en[i].weight : 1;
                return 0;
            }
    *w = 1;
    return 0;
}

/* Total weight check of getScoreWeights (MaxTotalScore = MaxInt64). */
int
kp_cfg_check_weights(const struct kp_cfg_plugins *pl,
                     const struct kp_cfg_lists *l, struct kp_error *err)
{
    int64_t total = 0, w;
    size_t i;

    for (i = 0; i < l->n[KP_EXT_SCORE]; i++) {
        kp_cfg_score_weight(pl, l->l[KP_EXT_SCORE][i].name, &w);
        if (w * KP_MAX_NODE_SCORE > INT64_MAX - total)
            return kp_errorf(err, KP_EXIT_ERROR, "total score of Score "
                             "plugins could overflow");
        total += w * KP_MAX_NODE_SCORE;
    }
    return 0;
}

/* ---- drop out-of-tree plugins (--ignore-unknown-plugins) ---- */

static bool
unknown_seen(const struct kp_cfg_unknown *u, const char *name)
{
    size_t i;

    for (i = 0; i < u->n; i++)
        if (strcmp(u->names[i], name) == 0)
            return true;
    return false;
}

static void
drop_unknown_set(struct kp_cfg_set *s, struct kp_cfg_unknown *u)
{
    size_t i, k = 0;

    for (i = 0; i < s->nen; i++) {
        if (kp_cfg_known_plugin(s->en[i].name)) {
            s->en[k++] = s->en[i];
            continue;
        }
        if (u->n < KP_CFG_MAX_UNKNOWN && !unknown_seen(u, s->en[i].name))
            u->names[u->n++] = s->en[i].name;
    }
    s->nen = k;
}

void
kp_cfg_drop_unknown(struct kp_cfg_plugins *pl, struct kp_cfg_unknown *u)
{
    int e;

    drop_unknown_set(&pl->multi, u);
    for (e = 0; e < KP_EXT_N; e++)
        drop_unknown_set(&pl->ext[e], u);
}

/* ---- the simulation's view ---- */

void
kp_cfg_fill_profile(const struct kp_cfg_plugins *pl,
                    const struct kp_cfg_lists *l, struct kp_profile *p)
{
    size_t i;

    for (i = 0; i < kp_cfg_nsim_filters && i < KP_CFG_MAX_FILTERS; i++) {
        const char *name = kp_cfg_sim_filters[i].name;

        p->pre_filter_on[i] = list_has(l->l[KP_EXT_PRE_FILTER],
                                       l->n[KP_EXT_PRE_FILTER], name);
        p->filter_on[i] = list_has(l->l[KP_EXT_FILTER], l->n[KP_EXT_FILTER],
                                   name);
    }
    for (i = 0; i < kp_cfg_nsim_scores && i < KP_CFG_MAX_SCORES; i++) {
        const char *name = kp_cfg_sim_scores[i];

        p->score_weight[i] = 0;
        if (list_has(l->l[KP_EXT_SCORE], l->n[KP_EXT_SCORE], name))
            kp_cfg_score_weight(pl, name, &p->score_weight[i]);
    }
    p->default_preemption = list_has(l->l[KP_EXT_POST_FILTER],
                                     l->n[KP_EXT_POST_FILTER],
                                     "DefaultPreemption");
    p->dra_post_filter = list_has(l->l[KP_EXT_POST_FILTER],
                                  l->n[KP_EXT_POST_FILTER],
                                  "DynamicResources");
}

const char *
kp_cfg_ext_key(int e)
{
    return ext_key[e];
}

size_t
kp_num_feasible_nodes_pct(size_t nall, int percentage)
{
    int64_t n = (int64_t)nall, pct = percentage, k;

    if (n < 100)
        return nall;
    if (pct == 0) {
        pct = 50 - n / 125;
        if (pct < 5)
            pct = 5;
    }
    k = n * pct / 100;
    return k < 100 ? 100 : (size_t)k;
}
