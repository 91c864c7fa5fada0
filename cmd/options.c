/*
 * options.c - the flag table and its parser (getopt_long).  Only the int
 * handler parses numbers; every value is checked before it is used.
 */
#include "options.h"

#include <errno.h>
#include <getopt.h>
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
                     "jsonpath=TEMPLATE, jsonpath-file=FILE, "
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

static int
h_only_added(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)a;
    (void)e;
    o->only_added = true;
    return 0;
}

static int
h_no_headers(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)a;
    (void)e;
    o->no_headers = true;
    return 0;
}

static int
h_explain_nodes(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)a;
    (void)e;
    o->explain_nodes = true;
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
h_all_namespaces(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)a;
    (void)e;
    o->all_namespaces = true;
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
    return 0;
}

static int
h_abs(struct kp_options *o, const char *a, struct kp_error *e)
{
    long v;

    if (parse_long("min-candidate-nodes-absolute", a, 0, INT_MAX, &v, e) < 0)
        return -1;
    o->min_candidate_nodes_absolute = (int)v;
    return 0;
}

static int
h_offset(struct kp_options *o, const char *a, struct kp_error *e)
{
    return parse_long("offset", a, 0, LONG_MAX, &o->offset, e);
}

static int
h_fail_on(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (strcmp(a, "preemption") == 0)
        o->fail_on |= KP_FAIL_PREEMPTION;
    else if (strcmp(a, "pdb-violation") == 0)
        o->fail_on |= KP_FAIL_PDB_VIOLATION;
    else if (strcmp(a, "unschedulable") == 0)
        o->fail_on |= KP_FAIL_UNSCHEDULABLE;
    else
        return kp_errorf(e, KP_EXIT_USAGE, "invalid value '%s' for "
                         "--fail-on: expected preemption, pdb-violation or "
                         "unschedulable", a);
    return 0;
}

static int
h_scheduler(struct kp_options *o, const char *a, struct kp_error *e)
{
    if (!a[0])
        return kp_errorf(e, KP_EXIT_USAGE, "--scheduler-name needs a name");
    o->scheduler_name = a;
    return 0;
}

static int
h_verbose(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)a;
    (void)e;
    o->verbose++;
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

static int
h_insecure(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)a;
    (void)e;
    o->insecure_skip_tls_verify = 1;
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
    (void)a;
    (void)e;
    return 1;
}

static int
h_version(struct kp_options *o, const char *a, struct kp_error *e)
{
    (void)o;
    (void)a;
    (void)e;
    return 2;
}

const struct kp_flag kp_flags[] = {
    {"filename", 'f', KP_ARG_REQUIRED, "FILE", NULL,
     "snapshot file (kubectl get ... -o json); repeatable; - is stdin",
     h_filename},
    {"output", 'o', KP_ARG_REQUIRED, "FORMAT", "table wide json yaml name "
     "summary jsonpath= jsonpath-file= custom-columns= custom-columns-file=",
     "output format: table, wide, json, yaml, name, summary, "
     "jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=SPEC or "
     "custom-columns-file=FILE", h_output},
    {"sort-by", 0, KP_ARG_REQUIRED, "JSONPATH", NULL,
     "sort the reported pods by this field of each pod of the report, "
     "e.g. '{.priority}'", h_sort_by},
    {"allow-missing-template-keys", 0, KP_ARG_OPTIONAL, NULL, NULL,
     "-o jsonpath: a missing key prints nothing (the default); =false "
     "makes it an error", h_allow_missing},
    {"add", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "also schedule the pods of these manifests (YAML or JSON: Pod, "
     "Deployment, ReplicaSet, StatefulSet, Job, DaemonSet); repeatable; "
     "- is stdin", h_add},
    {"only-added", 0, KP_ARG_NONE, NULL, NULL,
     "report only the pods that --add brought in", h_only_added},
    {"no-headers", 0, KP_ARG_NONE, NULL, NULL,
     "do not print the table header", h_no_headers},
    {"explain-nodes", 0, KP_ARG_NONE, NULL, NULL,
     "per node: the filter that rejected it and what preemption found "
     "there (lines under each pod; nodes in -o json)",
     h_explain_nodes},
    {"namespace", 'n', KP_ARG_REQUIRED, "NAMESPACE", NULL,
     "report pending pods of this namespace only", h_namespace},
    {"all-namespaces", 'A', KP_ARG_NONE, NULL, NULL,
     "report pending pods of every namespace (the default)",
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
     "preemption pdb-violation unschedulable",
     "exit 3 when a reported pod preempts, violates a PDB or is "
     "unschedulable; repeatable", h_fail_on},
    {"scheduler-name", 0, KP_ARG_REQUIRED, "NAME", NULL,
     "analyse pods of this scheduler (default default-scheduler)",
     h_scheduler},
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
    {"request-timeout", 0, KP_ARG_REQUIRED, "DURATION", NULL,
     "timeout of each API request, e.g. 30s (default 0: none)", h_timeout},
    {"snapshot-out", 0, KP_ARG_REQUIRED, "FILE", NULL,
     "write what was fetched from the cluster as a List", h_snapshot_out},
    {"verbose", 'v', KP_ARG_NONE, NULL, NULL,
     "print more on stderr (ignored kinds, notes)", h_verbose},
    {"help", 'h', KP_ARG_NONE, NULL, NULL, "show this help", h_help},
    {"version", 0, KP_ARG_NONE, NULL, NULL, "show the version", h_version},
};

const size_t kp_nflags = sizeof(kp_flags) / sizeof(kp_flags[0]);

void
kp_usage(struct kp_buf *out)
{
    size_t i;

    kp_buf_puts(out,
        "Usage: kubectl-preempt [flags] [POD...]\n"
        "       kubectl-preempt explain [flags] [POD...]\n"
        "       kubectl-preempt completion bash|zsh|fish\n"
        "\n"
        "Replays kube-scheduler's preemption for pending pods and reports,\n"
        "for each, whether it fits, whom it would preempt, on which node,\n"
        "and which PodDisruptionBudgets that violates.  POD is NAME or\n"
        "NAMESPACE/NAME.  Without -f the live cluster is read.\n"
        "'explain' lists past preemptions (Preempted events, DisruptionTarget\n"
        "conditions, nominated pods) found in the -f files.\n"
        "\nFlags:\n");
    for (i = 0; i < kp_nflags; i++) {
        const struct kp_flag *f = &kp_flags[i];
        char left[64];

        snprintf(left, sizeof(left), "%s%c%s--%s%s%s",
                 f->short_name ? "-" : "", f->short_name ? f->short_name : ' ',
                 f->short_name ? ", " : "  ", f->long_name,
                 f->arg_name ? " " : "", f->arg_name ? f->arg_name : "");
        kp_buf_printf(out, "  %-44s %s\n", left + (f->short_name ? 0 : 1),
                      f->help);
    }
    kp_buf_puts(out,
        "\nExit status: 0 analysis done, 1 bad input or cluster error,\n"
        "2 usage error, 3 a --fail-on condition matched.\n");
}

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

int
kp_options_parse(struct kp_options *o, int argc, char **argv,
                 struct kp_buf *out, struct kp_error *err)
{
    struct option *lo = xrealloc(NULL, (kp_nflags + 1) * sizeof(*lo));
    char shorts[130];
    size_t i, ns = 0;
    int c, rc = 0;

    memset(lo, 0, (kp_nflags + 1) * sizeof(*lo));
    for (i = 0; i < kp_nflags; i++) {
        lo[i].name = kp_flags[i].long_name;
        lo[i].has_arg = kp_flags[i].arg == KP_ARG_REQUIRED ? required_argument
                        : kp_flags[i].arg == KP_ARG_OPTIONAL ? optional_argument
                                                             : no_argument;
        lo[i].val = 256 + (int)i;
        if (kp_flags[i].short_name) {
            shorts[ns++] = kp_flags[i].short_name;
            if (kp_flags[i].arg == KP_ARG_REQUIRED)
                shorts[ns++] = ':';
        }
    }
    shorts[ns] = '\0';
    memmove(shorts + 1, shorts, ns + 1);
    shorts[0] = ':';    /* a missing argument returns ':' */
    optind = 1;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        const struct kp_flag *f = NULL;

        if (c >= 256) {
            f = &kp_flags[c - 256];
        } else {
            for (i = 0; i < kp_nflags; i++)
                if (kp_flags[i].short_name == c)
                    f = &kp_flags[i];
        }
        if (c == ':') {
            rc = kp_errorf(err, KP_EXIT_USAGE, "flag needs an argument: "
                           "'%s'", argv[optind - 1]);
            break;
        }
        if (!f) {
            rc = kp_errorf(err, KP_EXIT_USAGE, "unknown flag '%s'",
                           argv[optind - 1]);
            break;
        }
        rc = f->handle(o, optarg ? optarg : "", err);
    }
    free(lo);
    if (rc == 1)
        kp_usage(out);
    if (rc == 2)
        kp_buf_puts(out, "kubectl-preempt " KP_VERSION "\n");
    if (rc != 0)
        return rc < 0 ? -1 : 1;
    for (; optind < argc; optind++)
        push(&o->pods, &o->npods, argv[optind]);
    if (o->min_candidate_nodes_percentage == 0 &&
        o->min_candidate_nodes_absolute == 0)
        return kp_errorf(err, KP_EXIT_USAGE, "--min-candidate-nodes-"
                         "percentage and --min-candidate-nodes-absolute "
                         "cannot both be 0");
    if (o->explain_nodes && o->output == KP_OUTPUT_SUMMARY)
        return kp_errorf(err, KP_EXIT_USAGE, "--explain-nodes explains "
                         "each pod: it needs -o table, wide or json");
    if (o->only_added && o->nadds == 0)
        return kp_errorf(err, KP_EXIT_USAGE, "--only-added needs --add");
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

void
kp_options_release(struct kp_options *o)
{
    free((void *)o->files);
    free((void *)o->pods);
    free((void *)o->adds);
    o->files = o->pods = o->adds = NULL;
}
