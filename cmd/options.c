/*
 * options.c - the flag table and its parser (spf13/pflag's rules, as
 * kubectl parses its flags).  Only the int
 * handler parses numbers; every value is checked before it is used.
 */
#include "options.h"
#include "options_int.h"

#include "quantity.h"
#include "recording.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
parse_long(const char *flag, const char *arg, long min, long max, long *out,
           struct kp_error *err)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(arg, &end, 10);
    if (errno || end == arg || *end || v < min || v > max)
        return kp_errorf(err, KP_EXIT_USAGE, "invalid value '%s' for --%s: "
                         "expected an integer in [%ld, %ld]", arg, flag, min,
                         max);
    *out = v;
    return 0;
}

static void *
xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);

    if (!q) {
        fputs("fatal: out of memory\n", stderr);
        abort();
    }
    return q;
}

static void
push(const char ***arr, size_t *n, const char *v)
{
    *arr = xrealloc((void *)*arr, (*n + 1) * sizeof(char *));
    (*arr)[(*n)++] = v;
}

static int
h_filename(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    push(&o->files, &o->nfiles, a);
    return 0;
}

/* -o yaml, name, jsonpath=T, ... (issue 17): KP_OUTPUT_YAML + index */
static int
h_output_kubectl(struct kp_options *o, const char *a, struct kp_error *e)
{
    static const char *const f[] = {"yaml", "name", "jsonpath",
        "jsonpath-file", "custom-columns", "custom-columns-file"};
    size_t i, n;

    for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        n = strlen(f[i]);
        if (strncmp(a, f[i], n) == 0 && (!a[n] || (i > 1 && a[n] == '='))) {
            o->output = (enum kp_output)(KP_OUTPUT_YAML + i);
            o->output_arg = a[n] ? a + n + 1 : "";
            return 0;
        }
    }
    return kp_errorf(e, KP_EXIT_USAGE, "invalid output format '%s': "
                     "expected table, wide, json, yaml, name, summary, "
                     "describe, jsonpath=TEMPLATE, jsonpath-file=FILE, "
                     "custom-columns=SPEC or custom-columns-file=FILE", a);
}

static int
h_sort_by(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->sort_by = a[0] ? a : NULL;
    return 0;
}

/* pflag's bool: --allow-missing-template-keys[=true|false] */
static int
h_allow_missing(struct kp_options *o, const char *a, struct kp_error *e)
{
    static const char *const t[] = {"", "1", "t", "T", "true", "TRUE",
                                    "True"};
    static const char *const f[] = {"0", "f", "F", "false", "FALSE",
                                    "False"};
    size_t i;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (strcmp(a, t[i]) == 0)
            return (o->allow_missing_template_keys = true) ? 0 : 0;
    for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
        if (strcmp(a, f[i]) == 0)
            return (o->allow_missing_template_keys = false) ? 0 : 0;
    return kp_errorf(e, KP_EXIT_USAGE, "invalid value '%s' for "
                     "--allow-missing-template-keys: expected true or false",
                     a);
}

static int
h_output(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (strcmp(a, "table") == 0)
        o->output = KP_OUTPUT_TABLE;
    else if (strcmp(a, "wide") == 0)
        o->output = KP_OUTPUT_WIDE;
    else if (strcmp(a, "json") == 0)
        o->output = KP_OUTPUT_JSON;
    else if (strcmp(a, "summary") == 0)
        o->output = KP_OUTPUT_SUMMARY;
    else if (strcmp(a, "describe") == 0)
        o->output = KP_OUTPUT_DESCRIBE;
    else
        return h_output_kubectl(o, a, e);
    return 0;
}

/* --add, --only-added (issue 5) */
static int
h_add(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (!a[0])
        return kp_errorf(e, KP_EXIT_USAGE, "--add needs a file name");
    push(&o->adds, &o->nadds, a);
    return 0;
}

/* node what-if (issue 19): each flag repeatable, its value not empty */
static int
push_value(const char ***arr, size_t *n, const char *flag, const char *a,
           struct kp_error *e)
{
    if (!a[0])
        return kp_errorf(e, KP_EXIT_USAGE, "--%s needs a value", flag);
    push(arr, n, a);
    return 0;
}

static int
h_cordon(struct kp_options *o, const char *a, struct kp_error *e)
{
    return push_value(&o->cordon, &o->ncordon, "cordon", a, e);
}

static int
h_drain(struct kp_options *o, const char *a, struct kp_error *e)
{
    return push_value(&o->drain, &o->ndrain, "drain", a, e);
}

static int
h_drain_selector(struct kp_options *o, const char *a, struct kp_error *e)
{
    return push_value(&o->drain_selectors, &o->ndrain_selectors,
                      "drain-selector", a, e);
}

static int
h_remove_node(struct kp_options *o, const char *a, struct kp_error *e)
{
    return push_value(&o->remove_nodes, &o->nremove, "remove-node", a, e);
}

static int
h_remove_selector(struct kp_options *o, const char *a, struct kp_error *e)
{
    return push_value(&o->remove_selectors, &o->nremove_selectors,
                      "remove-nodes-selector", a, e);
}

static int
h_add_node(struct kp_options *o, const char *a, struct kp_error *e)
{
    return push_value(&o->add_nodes, &o->nadd_nodes, "add-node", a, e);
}

static int
h_add_node_file(struct kp_options *o, const char *a, struct kp_error *e)
{
    return push_value(&o->add_node_files, &o->nadd_node_files,
                      "add-node-file", a, e);
}

static int
h_force(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->force = strcmp(a, "true") == 0;
    return 0;
}

static int
h_only_added(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->only_added = strcmp(a, "true") == 0;
    return 0;
}

static int
h_no_headers(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->no_headers = strcmp(a, "true") == 0;
    return 0;
}

static int
h_explain_nodes(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->explain_nodes = strcmp(a, "true") == 0;
    return 0;
}

static int
h_namespace(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (!a[0])
        return kp_errorf(e, KP_EXIT_USAGE, "--namespace needs a name");
    o->namespace = a;
    return 0;
}

static int
h_recursive(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->recursive = strcmp(a, "true") == 0;
    return 0;
}

static int
h_all_namespaces(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->all_namespaces = strcmp(a, "true") == 0;
    return 0;
}

static int
h_selector(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->selector = a;
    return 0;
}

static int
h_mode(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (strcmp(a, "queue") == 0)
        o->mode = KP_MODE_QUEUE;
    else if (strcmp(a, "independent") == 0)
        o->mode = KP_MODE_INDEPENDENT;
    else
        return kp_errorf(e, KP_EXIT_USAGE, "invalid mode '%s': expected "
                         "queue or independent", a);
    return 0;
}

static int
h_pct(struct kp_options *o, const char *a, struct kp_error *e)
{
    long v;

    if (parse_long("min-candidate-nodes-percentage", a, 0, 100, &v, e) < 0)
        return -1;
    o->min_candidate_nodes_percentage = (int)v;
    o->preemption_args_set = o->min_candidate_nodes_percentage_set = true;
    return 0;
}

static int
h_abs(struct kp_options *o, const char *a, struct kp_error *e)
{
    long v;

    if (parse_long("min-candidate-nodes-absolute", a, 0, INT_MAX, &v, e) < 0)
        return -1;
    o->min_candidate_nodes_absolute = (int)v;
    o->preemption_args_set = o->min_candidate_nodes_absolute_set = true;
    return 0;
}

static int
h_offset(struct kp_options *o, const char *a, struct kp_error *e)
{
    return parse_long("offset", a, 0, LONG_MAX, &o->offset, e);
}

/* --fail-on A,B or repeated */
static int
h_fail_on(struct kp_options *o, const char *a, struct kp_error *e)
{
    static const struct {
        const char *name;
        unsigned bit;
    } conds[] = {
        {"preemption", KP_FAIL_PREEMPTION},
        {"pdb-violation", KP_FAIL_PDB_VIOLATION},
        {"unschedulable", KP_FAIL_UNSCHEDULABLE},
        {"drain-blocked", KP_FAIL_DRAIN_BLOCKED},
        {"rollout-blocked", KP_FAIL_ROLLOUT_BLOCKED},
        {"newly-unschedulable", KP_FAIL_NEWLY_UNSCHEDULABLE},
        {"new-preemption", KP_FAIL_NEW_PREEMPTION},
        {"new-pdb-violation", KP_FAIL_NEW_PDB_VIOLATION},
        {"regression", KP_FAIL_NEWLY_UNSCHEDULABLE | KP_FAIL_NEW_PREEMPTION |
                       KP_FAIL_NEW_PDB_VIOLATION},
    };
    const char *p = a;

    do {
        size_t n = strcspn(p, ","), i;

        for (i = 0; i < sizeof(conds) / sizeof(conds[0]); i++)
            if (strlen(conds[i].name) == n &&
                strncmp(p, conds[i].name, n) == 0)
                break;
        if (i == sizeof(conds) / sizeof(conds[0]))
            return kp_errorf(e, KP_EXIT_USAGE, "invalid value '%.*s' for "
                             "--fail-on: expected preemption, pdb-violation, "
                             "unschedulable, drain-blocked, rollout-blocked, "
                             "newly-unschedulable, new-preemption, "
                             "new-pdb-violation or regression", (int)n, p);
        o->fail_on |= conds[i].bit;
        p += n;
    } while (*p++ == ',');
    return 0;
}

static int
h_scheduler(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (!a[0])
        return kp_errorf(e, KP_EXIT_USAGE, "--scheduler-name needs a name");
    o->scheduler_name = a;
    o->scheduler_name_set = true;
    return 0;
}

static int
h_config(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (!a[0])
        return kp_errorf(e, KP_EXIT_USAGE, "--config needs a file");
    o->config_file = a;
    return 0;
}

/* --compare-config, --compare-profile (issue 25) */
static int
h_compare_config(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (!a[0])
        return kp_errorf(e, KP_EXIT_USAGE, "--compare-config needs a file");
    o->compare_config = a;
    return 0;
}

static int
h_compare_profile(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (strcmp(a, "LowNodeUtilization") != 0 &&
        strcmp(a, "HighNodeUtilization") != 0 && strcmp(a, "NoScoring") != 0)
        return kp_errorf(e, KP_EXIT_USAGE, "invalid argument \"%s\" for "
                         "\"--compare-profile\" flag: must be one of "
                         "LowNodeUtilization, HighNodeUtilization, NoScoring",
                         a);
    o->compare_profile = a;
    return 0;
}

static int
h_compare_kube_version(struct kp_options *o, const char *a,
                       struct kp_error *e)
{
    if (kp_kube_version_parse(a, NULL, e) < 0)
        return -1;
    o->compare_kube_version = a;
    return 0;
}

static int
h_profile(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (strcmp(a, "LowNodeUtilization") != 0 &&
        strcmp(a, "HighNodeUtilization") != 0 && strcmp(a, "NoScoring") != 0)
        return kp_errorf(e, KP_EXIT_USAGE, "invalid argument \"%s\" for "
                         "\"--profile\" flag: must be one of "
                         "LowNodeUtilization, HighNodeUtilization, NoScoring",
                         a);
    o->openshift_profile = a;
    return 0;
}

static int
h_ignore_unknown(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->ignore_unknown_plugins = strcmp(a, "true") == 0;
    return 0;
}

/* X.Y, vX.Y or X.Y.Z of a supported minor (kube_version.c checks it) */
static int
h_kube_version(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (kp_kube_version_parse(a, NULL, e) < 0)
        return -1;
    o->kube_version = a;
    return 0;
}

#define STR_HANDLER(fn, field)                                           \
    static int fn(struct kp_options *o, const char *a, struct kp_error *e) \
    {                                                                    \
        (void)e;                                                         \
        o->field = a;                                                    \
        return 0;                                                        \
    }

STR_HANDLER(h_kubeconfig, kubeconfig)
STR_HANDLER(h_context, context)
STR_HANDLER(h_cluster, cluster)
STR_HANDLER(h_user, user)
STR_HANDLER(h_server, server)
STR_HANDLER(h_token, token)
STR_HANDLER(h_ca, certificate_authority)
STR_HANDLER(h_snapshot_out, snapshot_out)
STR_HANDLER(h_as, conn.as)
STR_HANDLER(h_as_uid, conn.as_uid)
STR_HANDLER(h_client_cert, conn.client_certificate)
STR_HANDLER(h_client_key, conn.client_key)
STR_HANDLER(h_tls_server_name, conn.tls_server_name)
STR_HANDLER(h_username, conn.username)
STR_HANDLER(h_password, conn.password)

/* --as-group: pflag's StringArray, one group per flag, commas kept */
static int
h_as_group(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    push(&o->conn.as_groups, &o->conn.nas_groups, a);
    return 0;
}

static int
h_disable_compression(struct kp_options *o, const char *a,
                      struct kp_error *e)
{
    (void)e;
    o->conn.disable_compression = strcmp(a, "true") == 0;
    return 0;
}

STR_HANDLER(h_dir, record_dir)

/* record: --snapshot-interval, --max-age (Go durations); --max-disk */
static int
h_snapshot_interval(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (kp_parse_duration("snapshot-interval", a, &o->record_interval_ms,
                          e) < 0)
        return -1;
    if (o->record_interval_ms < 1000)
        return kp_errorf(e, KP_EXIT_USAGE, "invalid value '%s' for "
                         "--snapshot-interval: at least 1s", a);
    return 0;
}

static int
h_max_age(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (kp_parse_duration("max-age", a, &o->record_max_age_ms, e) < 0)
        return -1;
    if (o->record_max_age_ms < 1000)
        return kp_errorf(e, KP_EXIT_USAGE, "invalid value '%s' for "
                         "--max-age: at least 1s", a);
    return 0;
}

static int
h_max_disk(struct kp_options *o, const char *a, struct kp_error *e)
{
    struct kp_quantity q;
    struct kp_error qe;
    int64_t v;

    if (kp_quantity_parse(a, &q, &qe) < 0 ||
        (v = kp_quantity_value(&q)) < ((int64_t)1 << 14))
        return kp_errorf(e, KP_EXIT_USAGE, "invalid value '%s' for "
                         "--max-disk: expected a size of at least 16Ki, such "
                         "as 500Mi or 2Gi", a);
    o->record_max_disk = v;
    return 0;
}

/* reading a recording: --at TIME, explain's --since and --from DIR */
static int
h_at(struct kp_options *o, const char *a, struct kp_error *e)
{
    return kp_parse_time("at", a, &o->at_ms, e);
}

static int
h_since(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (kp_parse_duration("since", a, &o->since_ms, e) < 0)
        return -1;
    if (o->since_ms <= 0)
        return kp_errorf(e, KP_EXIT_USAGE, "invalid value '%s' for "
                         "--since: expected a duration over 0", a);
    return 0;
}

static int
h_from(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (!a[0])
        return kp_errorf(e, KP_EXIT_USAGE, "--from needs a directory");
    o->from_dir = a;
    push(&o->files, &o->nfiles, a);
    return 0;
}

static int
h_insecure(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)e;
    o->insecure_skip_tls_verify = strcmp(a, "true") == 0;
    return 0;
}

/* kubectl's --request-timeout: "0", "30" (seconds), "5s", "1m", "500ms" */
static int
h_timeout(struct kp_options *o, const char *a, struct kp_error *e)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(a, &end);
    if (errno || end == a || v < 0 || v > 86400000)
        goto bad;
    if (!*end || strcmp(end, "s") == 0)
        o->request_timeout_ms = (long)(v * 1000);
    else if (strcmp(end, "ms") == 0)
        o->request_timeout_ms = (long)v;
    else if (strcmp(end, "m") == 0)
        o->request_timeout_ms = (long)(v * 60000);
    else if (strcmp(end, "h") == 0)
        o->request_timeout_ms = (long)(v * 3600000);
    else
        goto bad;
    return 0;
bad:
    return kp_errorf(e, KP_EXIT_USAGE, "invalid value '%s' for "
                     "--request-timeout: expected a duration such as 30s, "
                     "1m or 0", a);
}

static int
h_help(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)o;
    (void)e;
    return strcmp(a, "true") == 0 ? 1 : 0;
}

static int
h_version(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)o;
    (void)e;
    return strcmp(a, "true") == 0 ? 2 : 0;
}

const struct kp_flag kp_flags[] = {
    {"filename", 'f', KP_ARG_REQUIRED, "FILE", NULL,
     "snapshot file or directory (kubectl get ... -o json or -o yaml, "
     "kubectl cluster-info dump); repeatable; - is stdin", h_filename},
    {"recursive", 'R', KP_ARG_NONE, NULL, NULL,
     "read the -f directories' subdirectories too", h_recursive},
    {"output", 'o', KP_ARG_REQUIRED, "FORMAT", "table wide json yaml name "
     "summary describe jsonpath= jsonpath-file= custom-columns= "
     "custom-columns-file=",
     "output format: table, wide, json, yaml, name, summary, describe, "
     "jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=SPEC or "
     "custom-columns-file=FILE", h_output},
    {"sort-by", 0, KP_ARG_REQUIRED, "JSONPATH", NULL,
     "sort the reported pods by this field of each pod of the report, "
     "e.g. '{.priority}'", h_sort_by},
    {"allow-missing-template-keys", 0, KP_ARG_NONE, NULL, NULL,
     "-o jsonpath: a missing key prints nothing (the default); =false "
     "makes it an error", h_allow_missing},
    {"add", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "also schedule the pods of these manifests (YAML or JSON: Pod, "
     "Deployment, ReplicaSet, ReplicationController, StatefulSet, Job, "
     "CronJob, DaemonSet); repeatable; - is stdin", h_add},
    {"only-added", 0, KP_ARG_NONE, NULL, NULL,
     "report only the pods whose answer the change touches: those --add "
     "or a node what-if brought in, and the pending pods whose answer "
     "differs from the run without the change", h_only_added},
    {"cordon", 0, KP_ARG_REQUIRED, "NODE", NULL,
     "what-if: the node is cordoned (unschedulable); repeatable",
     h_cordon},
    {"drain", 0, KP_ARG_REQUIRED, "NODE", NULL,
     "what-if: kubectl drain --ignore-daemonsets --delete-emptydir-data "
     "of the node; evicted pods come back pending; repeatable", h_drain},
    {"drain-selector", 0, KP_ARG_REQUIRED, "SELECTOR", NULL,
     "what-if: drain every node matching this label selector",
     h_drain_selector},
    {"force", 0, KP_ARG_NONE, NULL, NULL,
     "with --drain: delete pods that declare no controller, as kubectl "
     "drain --force (else the drain stops)", h_force},
    {"remove-node", 0, KP_ARG_REQUIRED, "NODE", NULL,
     "what-if: the node is lost with its pods; controller-owned pods come "
     "back pending; repeatable", h_remove_node},
    {"remove-nodes-selector", 0, KP_ARG_REQUIRED, "SELECTOR", NULL,
     "what-if: every node matching this label selector is lost (a zone)",
     h_remove_selector},
    {"add-node", 0, KP_ARG_REQUIRED, "NAME[=COUNT]", NULL,
     "what-if: COUNT (1) empty copies of node NAME, named NAME-copy-N, "
     "with its DaemonSet pods queued; repeatable", h_add_node},
    {"add-node-file", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "what-if: add the Node objects of FILE (JSON or YAML); repeatable",
     h_add_node_file},
    {"no-headers", 0, KP_ARG_NONE, NULL, NULL,
     "do not print the table header", h_no_headers},
    {"explain-nodes", 0, KP_ARG_NONE, NULL, NULL,
     "per node: the filter that rejected it and what preemption found "
     "there (lines under each pod, nodes that read the same grouped "
     "unless -v; nodes in -o json)",
     h_explain_nodes},
    {"namespace", 'n', KP_ARG_REQUIRED, "NAMESPACE", NULL,
     "report pending pods of this namespace only (live default: the "
     "context's namespace)", h_namespace},
    {"all-namespaces", 'A', KP_ARG_NONE, NULL, NULL,
     "report pending pods of every namespace (the default with -f)",
     h_all_namespaces},
    {"selector", 'l', KP_ARG_REQUIRED, "SELECTOR", NULL,
     "report pending pods matching this label selector", h_selector},
    {"mode", 0, KP_ARG_REQUIRED, "MODE", "queue independent",
     "queue: decisions carry forward; independent: each pod alone",
     h_mode},
    {"min-candidate-nodes-percentage", 0, KP_ARG_REQUIRED, "N", NULL,
     "DefaultPreemptionArgs minCandidateNodesPercentage (default 10)",
     h_pct},
    {"min-candidate-nodes-absolute", 0, KP_ARG_REQUIRED, "N", NULL,
     "DefaultPreemptionArgs minCandidateNodesAbsolute (default 100)",
     h_abs},
    {"offset", 0, KP_ARG_REQUIRED, "N", NULL,
     "index of the first potential node DryRunPreemption tries (default 0)",
     h_offset},
    {"fail-on", 0, KP_ARG_REQUIRED, "CONDITION",
     "preemption pdb-violation unschedulable drain-blocked rollout-blocked "
     "newly-unschedulable new-preemption new-pdb-violation regression",
     "exit 3 when a reported pod preempts, violates a PDB or is "
     "unschedulable, a --drain would hang or stop, or an --add rollout "
     "would never finish; against the run without the change: a pod "
     "newly unschedulable, a pod newly preempted, a new PDB violation, or "
     "any of them (regression); stderr says which; comma-separated, "
     "repeatable", h_fail_on},
    {"scheduler-name", 0, KP_ARG_REQUIRED, "NAME", NULL,
     "analyse pods of this scheduler (default default-scheduler)",
     h_scheduler},
    {"config", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "the cluster's KubeSchedulerConfiguration (kubescheduler.config.k8s.io/"
     "v1, YAML or JSON): profiles, plugins, weights and args replayed",
     h_config},
    {"profile", 0, KP_ARG_REQUIRED, "NAME",
     "LowNodeUtilization HighNodeUtilization NoScoring",
     "an OpenShift scheduler profile: LowNodeUtilization, "
     "HighNodeUtilization or NoScoring", h_profile},
    {"compare-config", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "what-if: the cluster under this KubeSchedulerConfiguration, "
     "compared with it under --config (or the default)", h_compare_config},
    {"compare-profile", 0, KP_ARG_REQUIRED, "NAME",
     "LowNodeUtilization HighNodeUtilization NoScoring",
     "what-if: the cluster under this OpenShift scheduler profile, "
     "compared with it under --config/--profile (or the default)",
     h_compare_profile},
    {"compare-kube-version", 0, KP_ARG_REQUIRED, "X.Y", NULL,
     "what-if: the cluster under this kube-scheduler version, compared "
     "with it under --kube-version (or the detected one)",
     h_compare_kube_version},
    {"ignore-unknown-plugins", 0, KP_ARG_NONE, NULL, NULL,
     "--config: run without out-of-tree plugins and extenders (each "
     "report warns) instead of failing", h_ignore_unknown},
    {"kube-version", 0, KP_ARG_REQUIRED, "X.Y",
     "1.31 1.32 1.33 1.34 1.35 1.36 1.37 1.38",
     "kube-scheduler version replayed, 1.31 to 1.38 (default: the live "
     "cluster's, or the newest kubelet of the snapshot's nodes)",
     h_kube_version},
    {"kubeconfig", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "kubeconfig file for a live cluster", h_kubeconfig},
    {"context", 0, KP_ARG_REQUIRED, "NAME", NULL,
     "kubeconfig context to use", h_context},
    {"cluster", 0, KP_ARG_REQUIRED, "NAME", NULL,
     "kubeconfig cluster to use", h_cluster},
    {"user", 0, KP_ARG_REQUIRED, "NAME", NULL,
     "kubeconfig user to use", h_user},
    {"server", 's', KP_ARG_REQUIRED, "URL", NULL,
     "API server address", h_server},
    {"token", 0, KP_ARG_REQUIRED, "TOKEN", NULL,
     "bearer token for the API server", h_token},
    {"certificate-authority", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "CA certificate file for the API server", h_ca},
    {"insecure-skip-tls-verify", 0, KP_ARG_NONE, NULL, NULL,
     "do not verify the API server's certificate (insecure)", h_insecure},
    {"tls-server-name", 0, KP_ARG_REQUIRED, "NAME", NULL,
     "server name to check the API server's certificate against (and "
     "send as SNI)", h_tls_server_name},
    {"client-certificate", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "client certificate file for TLS", h_client_cert},
    {"client-key", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "client key file for TLS", h_client_key},
    {"username", 0, KP_ARG_REQUIRED, "NAME", NULL,
     "username for basic authentication to the API server", h_username},
    {"password", 0, KP_ARG_REQUIRED, "PASSWORD", NULL,
     "password for basic authentication (never printed)", h_password},
    {"as", 0, KP_ARG_REQUIRED, "USER", NULL,
     "impersonate this user (Impersonate-User), as kubectl --as",
     h_as},
    {"as-group", 0, KP_ARG_REQUIRED, "GROUP", NULL,
     "impersonate this group too (Impersonate-Group); repeatable",
     h_as_group},
    {"as-uid", 0, KP_ARG_REQUIRED, "UID", NULL,
     "impersonate this UID (Impersonate-Uid)", h_as_uid},
    {"disable-compression", 0, KP_ARG_NONE, NULL, NULL,
     "do not ask the API server for compressed responses",
     h_disable_compression},
    {"request-timeout", 0, KP_ARG_REQUIRED, "DURATION", NULL,
     "timeout of each API request, e.g. 30s (default 0: none)", h_timeout},
    {"snapshot-out", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "write what was fetched from the cluster as a List", h_snapshot_out},
    {"dir", 0, KP_ARG_REQUIRED, "DIR", NULL,
     "record: the directory the recording is kept in", h_dir},
    {"snapshot-interval", 0, KP_ARG_REQUIRED, "DURATION", NULL,
     "record: a full snapshot this often, changes between (default 10m)",
     h_snapshot_interval},
    {"max-disk", 0, KP_ARG_REQUIRED, "SIZE", NULL,
     "record: drop the oldest snapshots past this size (default 1Gi)",
     h_max_disk},
    {"max-age", 0, KP_ARG_REQUIRED, "DURATION", NULL,
     "record: drop what is older than this (default 24h)", h_max_age},
    {"at", 0, KP_ARG_REQUIRED, "TIME", NULL,
     "-f RECORDING, explain --from: the cluster as it was at this time "
     "(RFC 3339, e.g. 2026-11-27T03:00:00Z; default: the last recorded)",
     h_at},
    {"since", 0, KP_ARG_REQUIRED, "DURATION", NULL,
     "explain --from: the preemptions of this last while (default 1h)",
     h_since},
    {"from", 0, KP_ARG_REQUIRED, "DIR", NULL,
     "explain: read a recording (kubectl-preempt record), the victims of "
     "the window restored as they were", h_from},
    {"verbose", 'v', KP_ARG_LEVEL, NULL, NULL,
     "print more on stderr (ignored kinds, notes); repeatable, or a "
     "level: -v=N, -v N, --v=N", NULL},
    {"help", 'h', KP_ARG_NONE, NULL, NULL, "show this help", h_help},
    {"version", 0, KP_ARG_NONE, NULL, NULL, "show the version", h_version},
};

const size_t kp_nflags = sizeof(kp_flags) / sizeof(kp_flags[0]);

static bool
reads_stdin_twice(const struct kp_options *o)
{
    size_t i, n = 0, nadd = 0;

    for (i = 0; i < o->nfiles; i++)
        n += strcmp(o->files[i], "-") == 0;
    for (i = 0; i < o->nadds; i++)
        nadd += strcmp(o->adds[i], "-") == 0;
    return nadd > 0 && n + nadd > 1;
}

/* ---- the parser: spf13/pflag's rules (flag.go, parseArgs) ---- */

/* kubectl's WordSepNormalizeFunc: "_" in a flag name reads as "-" */
static bool
same_name(const char *want, const char *name, size_t n)
{
    size_t i;

    if (strlen(want) != n)
        return false;
    for (i = 0; i < n; i++)
        if (want[i] != (name[i] == '_' ? '-' : name[i]))
            return false;
    return true;
}

static const struct kp_flag *
find_long(const char *name, size_t n)
{
    size_t i;

    for (i = 0; i < kp_nflags; i++)
        if (same_name(kp_flags[i].long_name, name, n))
            return &kp_flags[i];
    /* kubectl's (klog's) spelling of the verbosity */
    if (n == 1 && name[0] == 'v')
        return find_long("verbose", 7);
    return NULL;
}

static const struct kp_flag *
find_short(char c)
{
    size_t i;

    for (i = 0; i < kp_nflags; i++)
        if (kp_flags[i].short_name && kp_flags[i].short_name == c)
            return &kp_flags[i];
    return NULL;
}

/* strconv.ParseBool's spellings */
static int
parse_bool(const char *v)
{
    static const char *const t[] = {"1", "t", "T", "TRUE", "true", "True"};
    static const char *const f[] = {"0", "f", "F", "FALSE", "false", "False"};
    size_t i;

    for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        if (strcmp(v, t[i]) == 0)
            return 1;
        if (strcmp(v, f[i]) == 0)
            return 0;
    }
    return -1;
}

static bool
all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/*
 * Give flag f its value (NULL: none was written).  A boolean takes
 * true|false; -v/--verbose without a value counts up, with one sets the
 * level.
 */
static int
apply(struct parser *p, const struct kp_flag *f, const char *value)
{
    long level;
    int b;

    if (f->arg == KP_ARG_REQUIRED)
        return f->handle(p->o, value, p->err);
    if (f->arg == KP_ARG_LEVEL) {
        if (!value) {
            p->o->verbose++;
            return 0;
        }
        if (parse_long("v", value, 0, INT_MAX, &level, p->err) < 0)
            return -1;
        p->o->verbose = (int)level;
        return 0;
    }
    b = value ? parse_bool(value) : 1;
    if (b < 0)
        return kp_errorf(p->err, KP_EXIT_USAGE, "invalid argument \"%s\" "
                         "for \"--%s\" flag: expected true or false", value,
                         f->long_name);
    /* a boolean handler gets "true" or "false" */
    return f->handle(p->o, b ? "true" : "false", p->err);
}

/* --name, --name=value, --name value */
static int
parse_long_arg(struct parser *p, const char *arg)
{
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    const struct kp_flag *f;

    if (name[0] == '-' || name[0] == '=')
        return kp_errorf(p->err, KP_EXIT_USAGE, "bad flag syntax: %s", arg);
    f = find_long(name, n);
    if (!f)
        return kp_errorf(p->err, KP_EXIT_USAGE, "unknown flag: --%.*s",
                         (int)n, name);
    if (eq)
        return apply(p, f, eq + 1);
    /* --v N (klog's level needs a value); --verbose counts up */
    if (f->arg == KP_ARG_REQUIRED || (f->arg == KP_ARG_LEVEL && n == 1)) {
        if (p->i >= p->argc)
            return kp_errorf(p->err, KP_EXIT_USAGE, "flag needs an "
                             "argument: %s", arg);
        return apply(p, f, p->argv[p->i++]);
    }
    return apply(p, f, NULL);
}

/*
 * -abc (booleans), -ovalue, -o=value, -o value, -v, -v=N, -vN, -v N.
 * As pflag: after a shorthand that takes a value, the rest of the word
 * is that value; "=" right after a shorthand starts its value.
 */
static int
parse_short_arg(struct parser *p, const char *arg)
{
    const char *s;
    int rc;

    for (s = arg + 1; *s; s++) {
        const struct kp_flag *f = find_short(*s);

        if (!f)
            return kp_errorf(p->err, KP_EXIT_USAGE, "unknown shorthand "
                             "flag: '%c' in %s", *s, arg);
        if (s[1] == '=')
            return apply(p, f, s + 2);
        if (f->arg == KP_ARG_REQUIRED) {
            if (s[1])
                return apply(p, f, s + 1);
            if (p->i >= p->argc)
                return kp_errorf(p->err, KP_EXIT_USAGE, "flag needs an "
                                 "argument: '%c' in %s", *s, arg);
            return apply(p, f, p->argv[p->i++]);
        }
        if (f->arg == KP_ARG_LEVEL && s[1] >= '0' && s[1] <= '9')
            return apply(p, f, s + 1);
        if (f->arg == KP_ARG_LEVEL && !s[1] && p->i < p->argc &&
            all_digits(p->argv[p->i]))
            return apply(p, f, p->argv[p->i++]);
        rc = apply(p, f, NULL);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/*
 * A POD argument: NAME, NAMESPACE/NAME, or kubectl's TYPE/NAME with TYPE
 * pod, pods or po (stripped here).
 */
static int
push_pod(struct kp_options *o, const char *arg, struct kp_error *err)
{
    static const char *const types[] = {"pod/", "pods/", "po/"};
    size_t i, n;

    for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        n = strlen(types[i]);
        if (strncmp(arg, types[i], n) != 0)
            continue;
        if (!arg[n] || strchr(arg + n, '/'))
            return kp_errorf(err, KP_EXIT_USAGE, "invalid pod '%s': "
                             "expected NAME, NAMESPACE/NAME or pod/NAME",
                             arg);
        arg += n;
        break;
    }
    push(&o->pods, &o->npods, arg);
    return 0;
}

int
parse_args(struct parser *p, const char **command)
{
    int rc = 0;

    while (rc == 0 && p->i < p->argc) {
        const char *a = p->argv[p->i++];

        if (strcmp(a, "--") == 0) {
            while (rc == 0 && p->i < p->argc)
                rc = push_pod(p->o, p->argv[p->i++], p->err);
        } else if (a[0] == '-' && a[1] == '-') {
            rc = parse_long_arg(p, a);
        } else if (a[0] == '-' && a[1]) {
            rc = parse_short_arg(p, a);
        } else if (command && !*command && p->o->npods == 0 &&
                   (strcmp(a, "explain") == 0 ||
                    strcmp(a, "record") == 0 ||
                    strcmp(a, "version") == 0 || strcmp(a, "help") == 0)) {
            *command = a;           /* the first word that is no flag's */
        } else {
            rc = push_pod(p->o, a, p->err);
        }
    }
    return rc;
}

int
check_options(struct kp_options *o, struct kp_error *err)
{
    if (o->min_candidate_nodes_percentage == 0 &&
        o->min_candidate_nodes_absolute == 0)
        return kp_errorf(err, KP_EXIT_USAGE, "--min-candidate-nodes-"
                         "percentage and --min-candidate-nodes-absolute "
                         "cannot both be 0");
    if (o->config_file && o->openshift_profile)
        return kp_errorf(err, KP_EXIT_USAGE, "--config and --profile "
                         "cannot be combined");
    if (o->explain_nodes && o->output == KP_OUTPUT_SUMMARY)
        return kp_errorf(err, KP_EXIT_USAGE, "--explain-nodes explains "
                         "each pod: it needs -o table, wide or json");
    if (o->compare_config && o->compare_profile)
        return kp_errorf(err, KP_EXIT_USAGE, "--compare-config and "
                         "--compare-profile cannot be combined");
    if (o->only_added && o->nadds == 0 && !kp_whatif_requested(o) &&
        !o->compare_config && !o->compare_profile &&
        !o->compare_kube_version)
        return kp_errorf(err, KP_EXIT_USAGE, "--only-added needs --add or "
                         "a node what-if (--drain, --remove-node, "
                         "--add-node, ...)");
    if (o->force && !o->ndrain && !o->ndrain_selectors)
        return kp_errorf(err, KP_EXIT_USAGE, "--force needs --drain or "
                         "--drain-selector");
    if (reads_stdin_twice(o))
        return kp_errorf(err, KP_EXIT_USAGE, "standard input (-) can be "
                         "read only once among -f and --add");
    if (o->all_namespaces)
        o->namespace = NULL;    /* as kubectl: -A wins over -n */
    if (o->nfiles && (o->snapshot_out || o->server || o->kubeconfig ||
                      o->context))
        return kp_errorf(err, KP_EXIT_USAGE, "-f reads a snapshot: it "
                         "cannot be combined with live-cluster flags");
    return 0;
}

/* The flags that belong to one command: record's, explain's. */
int
check_command(const struct kp_options *o, const char *command,
              struct kp_error *err)
{
    bool record = command && strcmp(command, "record") == 0;
    bool explain = command && strcmp(command, "explain") == 0;

    if (record) {
        if (!o->record_dir)
            return kp_errorf(err, KP_EXIT_USAGE, "record needs --dir DIR: "
                             "where the recording is kept");
        if (o->nfiles || o->npods || o->nadds || kp_whatif_requested(o) ||
            o->at_ms || o->snapshot_out)
            return kp_errorf(err, KP_EXIT_USAGE, "record reads the live "
                             "cluster: it takes --dir, --snapshot-interval, "
                             "--max-disk, --max-age and the connection "
                             "flags only");
        return 0;
    }
    if (o->record_dir || o->record_interval_ms || o->record_max_disk ||
        o->record_max_age_ms)
        return kp_errorf(err, KP_EXIT_USAGE, "--dir, --snapshot-interval, "
                         "--max-disk and --max-age are flags of 'record'");
    if (!explain && (o->from_dir || o->since_ms))
        return kp_errorf(err, KP_EXIT_USAGE, "--from and --since are flags "
                         "of 'explain' (-f DIR --at TIME replays a moment "
                         "of a recording)");
    if (o->since_ms && !o->from_dir)
        return kp_errorf(err, KP_EXIT_USAGE, "--since needs --from DIR (a "
                         "recording)");
    if (o->at_ms && !o->nfiles)
        return kp_errorf(err, KP_EXIT_USAGE, "--at needs a recording: -f "
                         "DIR or explain --from DIR");
    return 0;
}

void
kp_options_release(struct kp_options *o)
{
    free((void *)o->files);
    free((void *)o->pods);
    free((void *)o->adds);
    o->files = o->pods = o->adds = NULL;
    free((void *)o->cordon);
    free((void *)o->drain);
    free((void *)o->drain_selectors);
    free((void *)o->remove_nodes);
    free((void *)o->remove_selectors);
    free((void *)o->add_nodes);
    free((void *)o->add_node_files);
    free((void *)o->conn.as_groups);
    o->conn.as_groups = NULL;
    o->cordon = o->drain = o->drain_selectors = o->remove_nodes = NULL;
    o->remove_selectors = o->add_nodes = o->add_node_files = NULL;
}
