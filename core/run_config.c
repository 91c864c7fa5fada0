/*
 * run_config.c - kp_run's part of the scheduler replayed: load --config or
 * --profile, decide the version (--kube-version, else the API server's
 * /version, else the newest kubelet minor among the nodes), mark the pods of the configuration's profiles,
 * and describe what was assumed for the report (JSON "scheduler", the -v
 * line and -o wide's header note).
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "kp.h"
#include "kube_version.h"
#include "report.h"
#include "run_config.h"
#include "snapshot.h"

static void json_str(char *buf, size_t n, const char *s);
static int use_config(const struct kp_options *o, struct kp_options *oo,
                      struct kp_sched_config *cfg, int minor,
                      struct kp_error *err);

/*
 * --kube-version alone: the default profile for --scheduler-name's
 * scheduler, written as the configuration kube-scheduler would default.
 */
static int
implicit_config(const struct kp_options *o, struct kp_sched_config *cfg,
                struct kp_error *err)
{
    char name[600], yaml[800];
    size_t i;

    json_str(name, sizeof(name), o->scheduler_name);
    snprintf(yaml, sizeof(yaml), "apiVersion: kubescheduler.config.k8s.io/"
             "v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
             "- schedulerName: %s\n", name);
    kp_arena_release(&cfg->arena);
    if (kp_sched_config_parse(cfg, "--kube-version", yaml, strlen(yaml),
                              false, err) < 0)
        return -1;
    /* no --config: --min-candidate-nodes-* are DefaultPreemption's args */
    for (i = 0; i < cfg->nprofiles; i++) {
        cfg->profiles[i].min_candidate_nodes_percentage =
            o->min_candidate_nodes_percentage;
        cfg->profiles[i].min_candidate_nodes_absolute =
            o->min_candidate_nodes_absolute;
    }
    return 0;
}

/*
 * --min-candidate-nodes-percentage/-absolute with --config or --profile:
 * the argument given replaces that one of every profile's
 * DefaultPreemptionArgs (the other keeps the configuration's value), and
 * the result is validated as ValidateDefaultPreemptionArgs would.
 */
static int
override_preemption_args(const struct kp_options *o,
                         struct kp_sched_config *cfg, struct kp_error *err)
{
    size_t i;

    for (i = 0; i < cfg->nprofiles; i++) {
        struct kp_profile *p = &cfg->profiles[i];

        if (o->min_candidate_nodes_percentage_set)
            p->min_candidate_nodes_percentage =
                o->min_candidate_nodes_percentage;
        if (o->min_candidate_nodes_absolute_set)
            p->min_candidate_nodes_absolute = o->min_candidate_nodes_absolute;
        if (p->min_candidate_nodes_percentage == 0 &&
            p->min_candidate_nodes_absolute == 0)
            return kp_errorf(err, KP_EXIT_ERROR, "%s: profile %s: "
                             "minCandidateNodesPercentage: Invalid value: 0: "
                             "cannot be zero at the same time as "
                             "minCandidateNodesAbsolute (--min-candidate-"
                             "nodes-%s 0)", cfg->file ? cfg->file :
                             cfg->profile_label, p->scheduler_name,
                             o->min_candidate_nodes_percentage_set ?
                             "percentage" : "absolute");
    }
    return 0;
}

/* What --kube-version changes in every profile (README, --kube-version). */
static void
apply_version(struct kp_sched_config *cfg, int minor)
{
    size_t i;

    for (i = 0; i < cfg->nprofiles; i++) {
        cfg->profiles[i].kube_minor = minor;
        /* DynamicResources on by default from v1.34 (its gate before) */
        if (!kp_kube_rule_on(KP_RULE_DRA_POST_FILTER, minor))
            cfg->profiles[i].dra_post_filter = false;
    }
}

int
kp_run_config_setup(const struct kp_options *o, struct kp_options *oo,
                    struct kp_sched_config *cfg, struct kp_error *err)
{
    int rc = 0, minor = 0;

    *oo = *o;
    memset(cfg, 0, sizeof(*cfg));
    kp_arena_init(&cfg->arena);
    if (o->config_file) {
        kp_arena_release(&cfg->arena);
        rc = kp_sched_config_load(cfg, o->config_file,
                                  o->ignore_unknown_plugins, err);
    } else if (o->openshift_profile) {
        kp_arena_release(&cfg->arena);
        rc = kp_sched_config_openshift(cfg, o->openshift_profile, err);
    } else if (o->kube_version) {
        rc = implicit_config(o, cfg, err);
    }
    if (rc < 0 || !cfg->nprofiles)
        return rc;
    if ((o->config_file || o->openshift_profile) &&
        override_preemption_args(o, cfg, err) < 0)
        return -1;
    if (o->kube_version &&
        kp_kube_version_parse(o->kube_version, &minor, err) < 0)
        return -1;
    return use_config(o, oo, cfg, minor, err);
}

/* oo runs cfg's profiles, as kube-scheduler minor (0: the default). */
static int
use_config(const struct kp_options *o, struct kp_options *oo,
           struct kp_sched_config *cfg, int minor, struct kp_error *err)
{
    size_t i;

    if (minor)
        apply_version(cfg, minor);
    /* StorageCapacityScoring on by default from v1.37 */
    for (i = 0; minor &&
                !kp_kube_rule_on(KP_RULE_STORAGE_CAPACITY_SCORING, minor) &&
                i < cfg->nprofiles; i++)
        if (cfg->profiles[i].vb_shape)
            return kp_errorf(err, KP_EXIT_ERROR, "%s: profile %s: "
                             "VolumeBindingArgs.shape: Invalid value: "
                             "unexpected field `shape`, remove it or turn "
                             "on the feature gate StorageCapacityScoring "
                             "(off by default before 1.37)",
                             cfg->file ? cfg->file : "--kube-version",
                             cfg->profiles[i].scheduler_name);
    if (o->scheduler_name_set &&
        !kp_sched_config_profile(cfg, o->scheduler_name))
        return kp_errorf(err, KP_EXIT_ERROR, "--scheduler-name %s: no "
                         "profile of %s has this schedulerName",
                         o->scheduler_name, cfg->file ? cfg->file :
                         cfg->profile_label);
    oo->sched_config = cfg;
    oo->scheduler_name = NULL;      /* every profile's pods are queued */
    oo->report_scheduler_name = o->scheduler_name_set ? o->scheduler_name
                                                      : NULL;
    oo->kube_minor = minor;
    return 0;
}

/*
 * The version the cluster runs, without --kube-version: the API server's
 * /version (live), else the newest kubelet minor among the nodes; -1
 * when neither says.  *from says which.
 */
static int
detected(const struct kp_snapshot *snap, const char **from)
{
    int newest = -1;
    size_t i;

    if (snap->server_minor > 0) {
        *from = snap->server_minor_recorded ? "snapshot's API server "
                                              "/version" :
                                              "API server /version";
        return snap->server_minor;
    }
    for (i = 0; i < snap->nnodes; i++)
        if (snap->nodes[i]->kubelet_minor > newest)
            newest = snap->nodes[i]->kubelet_minor;
    *from = newest > 0 ? "newest kubelet" : "default";
    return newest > 0 ? newest : -1;
}

int
kp_run_config_detect(const struct kp_snapshot *snap,
                     const struct kp_options *o, struct kp_options *oo,
                     struct kp_sched_config *cfg, struct kp_error *err)
{
    const char *from;
    int minor;

    if (o->kube_version)
        return 0;
    minor = detected(snap, &from);
    if (minor < 0)
        return 0;
    if (minor < KP_KUBE_MINOR_MIN || minor > KP_KUBE_MINOR_MAX)
        return kp_errorf(err, KP_EXIT_ERROR, "the cluster runs Kubernetes "
                         "1.%d (from the %s): the versions replayed are "
                         "1.%d to 1.%d; choose one with --kube-version",
                         minor, from, KP_KUBE_MINOR_MIN, KP_KUBE_MINOR_MAX);
    /* the default, 1.37: nothing changes */
    if (minor == KP_KUBE_MINOR_DEFAULT)
        return 0;
    if (!cfg->nprofiles && implicit_config(o, cfg, err) < 0)
        return -1;
    return use_config(o, oo, cfg, minor, err);
}

/*
 * NodeDeclaredFeatures (on by default from v1.36) rejects a node that
 * lacks a feature the pod needs, the needs being inferred from the pod's
 * spec by component-helpers' nodedeclaredfeatures registry, whose features
 * and rules change with every release: it is not simulated.  It can only
 * tell nodes apart when their status.declaredFeatures differ (kubelets of
 * several versions), and then every report says so.
 */
static void
declared_features(struct kp_snapshot *snap, int minor)
{
    size_t i;

    if (!kp_kube_rule_on(KP_RULE_NODE_DECLARED_FEATURES, minor))
        return;
    for (i = 1; i < snap->nnodes; i++) {
        const char *a = snap->nodes[0]->declared_features;
        const char *b = snap->nodes[i]->declared_features;

        if (a != b) {
            kp_snapshot_warn(snap, "nodes '%s' and '%s' declare different "
                             "features (status.declaredFeatures): "
                             "NodeDeclaredFeatures is not simulated, a pod "
                             "that needs a feature some nodes lack may be "
                             "placed where kube-scheduler 1.%d would not",
                             snap->nodes[0]->name, snap->nodes[i]->name,
                             minor);
            return;
        }
    }
}

/*
 * The first resource a (as 1.31-1.37 read it) and b (as 1.38 does) give
 * differently, as "cpu -1000m where 1.38 reads 9223372036854775807m".
 */
static bool
first_difference(const struct kp_snapshot *snap, const struct kp_resvec *a,
                 const struct kp_resvec *b, char *out, size_t n)
{
    size_t i, k;

    for (k = 0; k < 2; k++) {
        const struct kp_resvec *v = k ? b : a;

        for (i = 0; i < v->n; i++) {
            int id = v->e[i].id;
            int64_t x = kp_resvec_get(a, id), y = kp_resvec_get(b, id);
            const char *u = id == KP_RES_CPU ? "m" : "";

            if (x != y) {
                snprintf(out, n, "%s %lld%s where 1.38 reads %lld%s",
                         snap->res_names[id], (long long)x, u,
                         (long long)y, u);
                return true;
            }
        }
    }
    return false;
}

/*
 * Before v1.38 a quantity past int64 reads as Value() and MilliValue()
 * overflow (kubernetes/kubernetes#141305 made them saturate): kept, as
 * kube-scheduler reads it, with a warning.
 */
static void
quantity_warnings(struct kp_snapshot *snap, int minor)
{
    char what[256];
    size_t i;

    for (i = 0; i < snap->nnodes; i++) {
        const struct kp_node *n = snap->nodes[i];

        if (n->allocatable_138 &&
            first_difference(snap, &n->allocatable, n->allocatable_138,
                             what, sizeof(what)))
            kp_snapshot_warn(snap, "node '%s': status.allocatable past "
                             "int64: kube-scheduler 1.%d reads %s "
                             "(Quantity.Value/MilliValue overflow before "
                             "1.38, kubernetes/kubernetes#141305)",
                             n->name, minor, what);
    }
    for (i = 0; i < snap->npods; i++) {
        const struct kp_pod *p = snap->pods[i];

        if (p->from_138 &&
            first_difference(snap, &p->req, &p->from_138->req, what,
                             sizeof(what)))
            kp_snapshot_warn(snap, "pod '%s/%s': requests past int64: "
                             "kube-scheduler 1.%d reads %s "
                             "(Quantity.Value/MilliValue overflow before "
                             "1.38, kubernetes/kubernetes#141305)",
                             p->ns, p->name, minor, what);
    }
}

void
kp_run_config_mark_pods(struct kp_snapshot *snap, const struct kp_options *o)
{
    size_t i;

    /* the pods' requests as read, before the rules below replace them */
    if (!kp_kube_rule_on(KP_RULE_QUANTITY_SATURATE, o->kube_minor))
        quantity_warnings(snap, o->kube_minor ? o->kube_minor
                                              : KP_KUBE_MINOR_DEFAULT);
    /*
     * PodLevelResources on by default from v1.34: before, spec.resources
     * is not read and the containers' requests count; before v1.33
     * (InPlacePodVerticalScaling) only their spec, not their status.
     */
    for (i = 0; !kp_kube_rule_on(KP_RULE_POD_LEVEL_RESOURCES, o->kube_minor) &&
                i < snap->npods; i++) {
        struct kp_pod *p = snap->pods[i];
        const struct kp_pod_requests *r = p->before_134;

        if (!kp_kube_rule_on(KP_RULE_INPLACE_RESIZE, o->kube_minor) &&
            p->before_133)
            r = p->before_133;
        if (r) {
            p->req = r->req;
            p->nonzero_cpu = r->nonzero_cpu;
            p->nonzero_mem = r->nonzero_mem;
        }
    }
    /*
     * before v1.33 (#132040, #133390): NodePorts does not read the host
     * ports of sidecars (restartable init containers), a prefix of
     * host_ports
     */
    for (i = 0; !kp_kube_rule_on(KP_RULE_SIDECAR_HOST_PORTS, o->kube_minor) &&
                i < snap->npods; i++) {
        struct kp_pod *p = snap->pods[i];

        if (p->nsidecar_host_ports == 0)
            continue;           /* host_ports may be NULL */
        p->host_ports += p->nsidecar_host_ports;
        p->nhost_ports -= p->nsidecar_host_ports;
        p->nsidecar_host_ports = 0;
    }
    /* v1.38 (#141305): quantities past int64 saturate, no longer wrap */
    for (i = 0; kp_kube_rule_on(KP_RULE_QUANTITY_SATURATE, o->kube_minor) &&
                i < snap->npods; i++) {
        struct kp_pod *p = snap->pods[i];

        if (p->from_138) {
            p->req = p->from_138->req;
            p->nonzero_cpu = p->from_138->nonzero_cpu;
            p->nonzero_mem = p->from_138->nonzero_mem;
        }
    }
    for (i = 0; kp_kube_rule_on(KP_RULE_QUANTITY_SATURATE, o->kube_minor) &&
                i < snap->nnodes; i++)
        if (snap->nodes[i]->allocatable_138)
            snap->nodes[i]->allocatable = *snap->nodes[i]->allocatable_138;
    declared_features(snap, o->kube_minor ? o->kube_minor
                                          : KP_KUBE_MINOR_DEFAULT);
    if (!o->sched_config)
        return;
    for (i = 0; i < snap->npods; i++)
        snap->pods[i]->in_profile =
            kp_sched_config_profile(o->sched_config,
                                    snap->pods[i]->scheduler_name) != NULL;
    for (i = 0; i < o->sched_config->nwarnings; i++)
        kp_snapshot_warn(snap, "%s", o->sched_config->warnings[i]);
    /* v1.38: an empty PDB selector matches its namespace's pods */
    for (i = 0; kp_kube_rule_on(KP_RULE_PDB_EMPTY_SELECTOR, o->kube_minor) &&
                i < snap->npdbs; i++)
        snap->pdbs[i]->empty_selector_matches_all = true;
}

/*
 * The version replayed and where it comes from: --kube-version, else
 * the API server's /version (live), else the newest kubelet minor among
 * the nodes (kp_run_config_detect has refused one outside 1.31-1.38),
 * else the default, 1.37.
 */
static int
version(const struct kp_snapshot *snap, const struct kp_options *o,
        const char **from)
{
    int minor = -1;

    if (o->kube_version &&
        kp_kube_version_parse(o->kube_version, &minor, NULL) == 0) {
        *from = "--kube-version";
        return minor;
    }
    minor = detected(snap, from);
    if (minor < KP_KUBE_MINOR_MIN || minor > KP_KUBE_MINOR_MAX) {
        *from = "default";
        return KP_KUBE_MINOR_DEFAULT;
    }
    return minor;
}

static const char *
profile_names(struct kp_arena *a, const struct kp_sched_config *cfg)
{
    char buf[512];
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; cfg && i < cfg->nprofiles && len < sizeof(buf); i++)
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
                                i ? "," : "", cfg->profiles[i].scheduler_name);
    return kp_arena_strdup(a, cfg && cfg->nprofiles ? buf :
                           "default-scheduler");
}

static void
json_str(char *buf, size_t n, const char *s)
{
    size_t k = 0;

    if (!s) {
        snprintf(buf, n, "null");
        return;
    }
    buf[k++] = '"';
    for (; *s && k + 8 < n; s++) {
        if (*s == '"' || *s == '\\')
            buf[k++] = '\\';
        if ((unsigned char)*s < 0x20) {
            k += (size_t)snprintf(buf + k, n - k, "\\u%04x", *s);
            continue;
        }
        buf[k++] = *s;
    }
    buf[k++] = '"';
    buf[k] = '\0';
}

void
kp_run_config_describe(const struct kp_snapshot *snap,
                       const struct kp_options *o, struct kp_report *rep)
{
    const struct kp_sched_config *cfg = o->sched_config;
    const char *profile, *file = cfg ? cfg->file : NULL;
    char line[1400], vs[16], pj[600], fj[600], source[64];
    const char *from;
    int minor = version(snap, o, &from);

    profile = cfg && cfg->profile_label ? cfg->profile_label :
              profile_names(&rep->arena, cfg);
    snprintf(vs, sizeof(vs), "1.%d", minor);
    snprintf(source, sizeof(source), "%s%s", strcmp(from, "default") &&
             strcmp(from, "--kube-version") ? "from the " : "", from);
    snprintf(line, sizeof(line), "scheduler: kube-scheduler %s (%s), "
             "profile %s%s%s%s", vs, source, profile, file ? " (--config " :
             "", file ? file : "", file ? ")" : "");
    rep->scheduler_line = kp_arena_strdup(&rep->arena, line);
    json_str(pj, sizeof(pj), profile);
    json_str(fj, sizeof(fj), file);
    snprintf(line, sizeof(line), "{\"version\": \"%s\", \"versionFrom\": "
             "\"%s\", \"profile\": %s, \"config\": %s}", vs, from, pj, fj);
    rep->scheduler_json = kp_arena_strdup(&rep->arena, line);
    /* kept out of the JSON and the table without the new flags */
    rep->scheduler_shown = o->config_file || o->openshift_profile ||
                           o->kube_version || o->kube_minor;
}
