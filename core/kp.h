/*
 * kp.h - the library interface cmd/ uses: options, load, analyze, render.
 *
 * kp_run() does the whole job into an output buffer; nothing is printed
 * by core/.  Warnings are returned for the caller to print on stderr.
 * The one exception is asked for by the caller: options.stream.
 */
#ifndef KP_KP_H
#define KP_KP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "buf.h"
#include "error.h"

#define KP_VERSION "0.1.0"

enum kp_mode {
    KP_MODE_QUEUE,
    KP_MODE_INDEPENDENT
};

enum kp_output {
    KP_OUTPUT_TABLE,
    KP_OUTPUT_WIDE,
    KP_OUTPUT_JSON,
    KP_OUTPUT_SUMMARY,              /* per PriorityClass and namespace */
    KP_OUTPUT_DESCRIBE,             /* per pod, why, with numbers */
    /* as kubectl prints (render_kubectl.c); template in output_arg */
    KP_OUTPUT_YAML,
    KP_OUTPUT_NAME,
    KP_OUTPUT_JSONPATH,
    KP_OUTPUT_JSONPATH_FILE,
    KP_OUTPUT_CUSTOM_COLUMNS,
    KP_OUTPUT_CUSTOM_COLUMNS_FILE
};

enum kp_fail_on {
    KP_FAIL_PREEMPTION = 1 << 0,
    KP_FAIL_PDB_VIOLATION = 1 << 1,
    KP_FAIL_UNSCHEDULABLE = 1 << 2,
    KP_FAIL_DRAIN_BLOCKED = 1 << 3, /* a --drain would hang or stop */
    KP_FAIL_ROLLOUT_BLOCKED = 1 << 8, /* an --add rollout never finishes */
    /* compared with the run without the change (issue 25, baseline.h) */
    KP_FAIL_NEWLY_UNSCHEDULABLE = 1 << 9,
    KP_FAIL_NEW_PREEMPTION = 1 << 10,
    KP_FAIL_NEW_PDB_VIOLATION = 1 << 11
};

struct kp_run_result;
struct kp_sched_config;
struct kp_cluster;

/*
 * kubectl's connection flags beyond the basics (issue 29): impersonation
 * (--as, --as-group, --as-uid), client certificate, --tls-server-name,
 * basic auth, --disable-compression; they override the kubeconfig as
 * client-go's clientcmd overrides do.  NULL / empty: not given.
 */
struct kp_conn_flags {
    const char *as, *as_uid;
    size_t nas_groups;
    const char **as_groups;
    const char *client_certificate, *client_key;
    const char *tls_server_name;
    const char *username, *password;
    bool disable_compression;
};

struct kp_options {
    enum kp_mode mode;
    enum kp_output output;
    bool no_headers;
    int verbose;
    unsigned fail_on;
    int min_candidate_nodes_percentage;
    int min_candidate_nodes_absolute;
    long offset;
    const char *scheduler_name;
    bool scheduler_name_set;        /* --scheduler-name given */
    bool preemption_args_set;       /* --min-candidate-nodes-* given */
    /* which: with --config or --profile they override that argument of
     * every profile's DefaultPreemptionArgs */
    bool min_candidate_nodes_percentage_set, min_candidate_nodes_absolute_set;
    const char *namespace;          /* -n; NULL: all namespaces */
    bool all_namespaces;
    const char *selector;           /* -l */
    size_t nfiles;
    const char **files;             /* -f */
    const char *program_name;       /* in --help: "kubectl preempt" as a
                                       plugin; NULL: "kubectl-preempt" */
    bool recursive;                 /* -R: -f directories' subdirectories */
    size_t npods;
    const char **pods;              /* POD... */
    /* live cluster */
    const char *kubeconfig, *context, *cluster, *user;
    const char *server, *token, *certificate_authority;
    int insecure_skip_tls_verify;   /* -1 unset */
    struct kp_conn_flags conn;      /* --as, --client-certificate, ... */
    long request_timeout_ms;
    const char *snapshot_out;
    /*
     * "record" (recorder.h): --dir, --snapshot-interval, --max-disk,
     * --max-age; reading a recording: --at (at_ms, 0: the last moment),
     * explain's --from DIR and --since (since_ms, 0: unset).
     */
    const char *record_dir;
    long long record_interval_ms, record_max_disk, record_max_age_ms;
    long long at_ms, since_ms;
    const char *from_dir;
    /* manifests not yet applied (--add), and --only-added */
    size_t nadds;
    const char **adds;
    bool only_added;
    /* node what-if (issue 19, whatif.h); each list is repeatable */
    size_t ncordon, ndrain, ndrain_selectors, nremove, nremove_selectors;
    size_t nadd_nodes, nadd_node_files;
    const char **cordon, **drain, **drain_selectors, **remove_nodes;
    const char **remove_selectors, **add_nodes, **add_node_files;
    bool force;                     /* --force: drain deletes bare pods */
    /* --explain-nodes: per-node filter and preemption status */
    bool explain_nodes;
    /* -o jsonpath=T etc.: T or the file; --sort-by; default true */
    const char *output_arg;
    const char *sort_by;
    bool allow_missing_template_keys;
    /*
     * -o json, when stream is set: once the analysis is done (nothing
     * can fail any more), before_stream gets r with every warning (to
     * print, not to free: the report's "warnings" are r's), then the
     * report is written to stream as it is rendered,
     * a megabyte at a time: the largest reports (every candidate of every
     * pod) are not held whole.  r->out keeps the last part, not written
     * yet; r->out.sink_error says a write failed.
     */
    FILE *stream;
    /*
     * The scheduler replayed: --config FILE, --profile NAME (OpenShift's),
     * --ignore-unknown-plugins, --kube-version X.Y.  sched_config is
     * kp_run's (NULL: kube-scheduler's default profile, as always).
     */
    const char *config_file;
    const char *openshift_profile;
    bool ignore_unknown_plugins;
    const char *kube_version;
    /*
     * --compare-config FILE, --compare-profile NAME,
     * --compare-kube-version X.Y (issue 25): the scheduler the run is
     * analysed under, compared with the cluster under --config/--profile
     * and the version (given or detected); NULL: none.
     */
    const char *compare_config, *compare_profile;
    const char *compare_kube_version;   /* --compare-kube-version X.Y */
    const struct kp_sched_config *sched_config;
    /* with sched_config: scheduler_name is NULL (every profile's pods) */
    const char *report_scheduler_name;
    int kube_minor;                 /* --kube-version's minor, else 0 */
    void (*before_stream)(void *ctx, struct kp_run_result *r);
    void *stream_ctx;
    /*
     * Progress (issue 26), when set: called at each phase of a run
     * ("reading the cluster", "analysing pending pods", "rendering"),
     * with done/total where it counts (else 0/0), and once with phase
     * NULL when the run is over.  cmd/ sets it only for a terminal.
     */
    void (*progress)(void *ctx, const char *phase, size_t done,
                     size_t total);
    void *progress_ctx;
    /*
     * The fixes' re-runs (fixes.c): a cluster of the same snapshot whose
     * NodeInfos a run may copy instead of adding every bound pod again
     * (kp_cluster_init_tables); NULL for any other run.
     */
    const struct kp_cluster *node_template;
};

void kp_options_init(struct kp_options *o);
/* Whether o asks for any node what-if (--cordon, --drain, ...). */
bool kp_whatif_requested(const struct kp_options *o);

/*
 * "kubectl-preempt version" and --version: the version (first line:
 * "kubectl-preempt X.Y.Z"), the Kubernetes releases whose kube-scheduler
 * is replayed and the libraries' versions, appended to out (version.c).
 */
void kp_version_text(struct kp_buf *out);

/*
 * --kube-version's argument: "1.35", "v1.35" or "1.35.2", a minor from
 * 1.31 to 1.38 (kube_version.c); *minor (if not NULL) gets the minor.
 */
int kp_kube_version_parse(const char *s, int *minor, struct kp_error *err);

struct kp_run_result {
    struct kp_buf out;              /* what goes to stdout */
    /*
     * Every warning of the run, in the order raised (run.h), each once:
     * for stderr, and the same list is -o json's "warnings".  Freed by
     * kp_run_result_release.
     */
    size_t nwarnings;
    char **warnings;
    int exit_code;                  /* 0 or KP_EXIT_FAIL_ON */
    /*
     * For stderr after the report, as kubectl's "No resources found":
     * "No pending pods found in namespace X." when a table, wide or
     * summary report is empty; else "".
     */
    char notice[320];
    /* under -v: the scheduler replayed, for stderr before the notice */
    char scheduler_note[1024];
    /*
     * With exit_code KP_EXIT_FAIL_ON: one line per pod (or drain, or past
     * preemption) and --fail-on condition it matched, for stderr after
     * the report ("fail-on preemption: pod prod/checkout-0 ...").
     */
    struct kp_buf fail_notes;
    /*
     * The --fail-on conditions on the change that matched (issue 25):
     * one line per pod and why, for stderr after the report; "" if none.
     */
    struct kp_buf regressions;
};

/* Load, analyse and render.  On failure nothing is in r->out. */
int kp_run(const struct kp_options *o, struct kp_run_result *r,
           struct kp_error *err);
void kp_run_result_release(struct kp_run_result *r);

/*
 * "kubectl-preempt explain": past preemptions from the -f files' Events
 * and DisruptionTarget conditions (explain.c), rendered into r->out.
 */
int kp_explain(const struct kp_options *o, struct kp_run_result *r,
               struct kp_error *err);

#endif
