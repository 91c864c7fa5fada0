/*
 * config_int.h - what config.c, config_args.c and config_load.c share:
 * the KubeSchedulerConfiguration's plugin sets as read, merged and
 * expanded (the v1 API's Plugins and PluginSet), and an error list.
 */
#ifndef KP_CONFIG_INT_H
#define KP_CONFIG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "config.h"
#include "error.h"

/* Extension points, in the framework's getExtensionPoints order. */
enum kp_ext {
    KP_EXT_PRE_FILTER,
    KP_EXT_FILTER,
    KP_EXT_POST_FILTER,
    KP_EXT_RESERVE,
    KP_EXT_PRE_SCORE,
    KP_EXT_SCORE,
    KP_EXT_PRE_BIND,
    KP_EXT_BIND,
    KP_EXT_POST_BIND,
    KP_EXT_PERMIT,
    KP_EXT_PRE_ENQUEUE,
    KP_EXT_QUEUE_SORT,
    KP_EXT_N
};

/* v1.Plugin */
struct kp_cfg_plugin {
    const char *name;
    int64_t weight;
    bool has_weight;
};

/* v1.PluginSet */
struct kp_cfg_set {
    size_t nen, ndis;
    struct kp_cfg_plugin *en, *dis;
};

/* v1.Plugins */
struct kp_cfg_plugins {
    struct kp_cfg_set multi;
    struct kp_cfg_set ext[KP_EXT_N];
};

/* The framework's plugin list per extension point. */
struct kp_cfg_lists {
    size_t n[KP_EXT_N];
    struct kp_cfg_plugin *l[KP_EXT_N];
};

#define KP_CFG_MAX_ERRORS 8

/* Validation errors, one field error each (utilerrors.Aggregate). */
struct kp_cfg_errors {
    size_t n;
    char line[KP_CFG_MAX_ERRORS][400];
};

#define KP_CFG_MAX_UNKNOWN 16

struct kp_cfg_unknown {
    size_t n;
    const char *names[KP_CFG_MAX_UNKNOWN];
};

int kp_cfg_add_error(struct kp_cfg_errors *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
bool kp_cfg_known_plugin(const char *name);
const char *kp_cfg_ext_key(int e);
/* A strict decoder's check: every member of obj is in allowed (NULL-ended). */
int kp_cfg_check_keys(const cJSON *obj, const char *const *allowed,
                      const char *path, struct kp_error *err);
int kp_cfg_decode_plugins(struct kp_arena *a, const cJSON *plugins,
                          struct kp_cfg_plugins *out, const char *path,
                          struct kp_error *err);
void kp_cfg_merge_set(struct kp_arena *a, const struct kp_cfg_set *def,
                      const struct kp_cfg_set *custom,
                      struct kp_cfg_set *out);
/* mergePlugins(getDefaultPlugins(), custom) */
void kp_cfg_merge_plugins(struct kp_arena *a,
                          const struct kp_cfg_plugins *custom,
                          struct kp_cfg_plugins *out);
void kp_cfg_drop_unknown(struct kp_cfg_plugins *pl,
                         struct kp_cfg_unknown *u);
int kp_cfg_build_lists(struct kp_arena *a, const struct kp_cfg_plugins *pl,
                       struct kp_cfg_lists *out, struct kp_error *err);
int kp_cfg_score_weight(const struct kp_cfg_plugins *pl, const char *name,
                        int64_t *w);
int kp_cfg_check_weights(const struct kp_cfg_plugins *pl,
                         const struct kp_cfg_lists *l, struct kp_error *err);
/* The simulation's plugins by name, in registry order (config.c). */
struct kp_cfg_sim_plugin {
    const char *name;
    bool pre_filter;            /* the simulation has its PreFilter */
};
extern const struct kp_cfg_sim_plugin kp_cfg_sim_filters[];
extern const size_t kp_cfg_nsim_filters;
extern const char *const kp_cfg_sim_scores[];
extern const size_t kp_cfg_nsim_scores;
void kp_cfg_fill_profile(const struct kp_cfg_plugins *pl,
                         const struct kp_cfg_lists *l, struct kp_profile *p);
/*
 * The profile's pluginConfig: defaults applied, args validated (errors
 * into e), the simulation's fields of p filled.
 */
int kp_cfg_plugin_config(struct kp_arena *a, const cJSON *prof, size_t idx,
                         struct kp_profile *p, struct kp_cfg_errors *e,
                         struct kp_error *err);
/* Removed in v1 (invalidPluginsByVersion). */
bool kp_cfg_plugin_removed(const char *name);
/* DefaultPreemption's and the other args' defaults. */
void kp_cfg_profile_defaults(struct kp_profile *p);
/* NewFit's ValidateNodeResourcesFitArgs(nil, args); sets p->scoring. */
void kp_cfg_check_fit(struct kp_profile *p, struct kp_cfg_errors *e);

#endif
