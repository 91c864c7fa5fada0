/*
 * run.c - kp_run(): load the snapshot (files or live cluster), analyse,
 * select the reported pods, render, and decide the exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp.h"
#include "add.h"
#include "fix_add_node.h"
#include "fixes.h"
#include "baseline.h"
#include "input.h"
#include "live.h"
#include "render_kubectl.h"
#include "report.h"
#include "rollout.h"
#include "run.h"
#include "recording.h"
#include "run_config.h"
#include "select.h"
#include "simulate.h"
#include "whatif.h"

void
kp_options_init(struct kp_options *o)
{
    memset(o, 0, sizeof(*o));
    o->mode = KP_MODE_QUEUE;
    o->output = KP_OUTPUT_TABLE;
    o->min_candidate_nodes_percentage = 10;
    o->min_candidate_nodes_absolute = 100;
    o->scheduler_name = "default-scheduler";
    o->insecure_skip_tls_verify = -1;
    o->allow_missing_template_keys = true;
}

/* --add, then the node what-ifs: the change to the loaded cluster */
static int
apply_changes(struct kp_snapshot *s, const struct kp_options *o,
              const char *default_ns, struct kp_whatif *w,
              struct kp_error *err)
{
    size_t i;

    /* --add: pods of manifests not yet applied, created after all others */
    for (i = 0; i < o->nadds; i++)
        if (kp_snapshot_add_manifests(s, o->adds[i], o->namespace ?
                                      o->namespace : default_ns, err) < 0)
            return -1;
    /* --cordon, --drain, --remove-node, --add-node: issue 19 */
    if (w && kp_whatif_requested(o) && kp_whatif_apply(w, s, o, err) < 0)
        return -1;
    return 0;
}

/* The cluster as read: -f's files, else the live cluster. */
static int
load_cluster(struct kp_snapshot *s, const struct kp_options *o,
             const char *const *live_resources, char *default_ns,
             size_t ns_len, struct kp_error *err)
{
    struct kp_input in = {o->recursive, "", o->at_ms, 0};
    size_t i;

    /* explain --from DIR: the window's victims restored (recording.h) */
    if (o->from_dir) {
        long long end = o->at_ms > 0 ? o->at_ms : kp_recording_now_ms();

        in.from_ms = end - (o->since_ms > 0 ? o->since_ms : 3600000LL);
    }

    if (o->nfiles == 0) {
        if (live_resources ? kp_load_live_resources(s, o, live_resources,
                                                    default_ns, ns_len,
                                                    err) < 0 :
            kp_load_live(s, o, default_ns, ns_len, err) < 0)
            return -1;
    }
    /* the same object in two -f files: merged when identical */
    s->merge_duplicates = o->nfiles > 1;
    for (i = 0; i < o->nfiles; i++)
        if (kp_input_load(s, &in, o->files[i], err) < 0)
            return -1;
    kp_input_warn_missing(s, &in);
    return 0;
}

int
kp_run_load(struct kp_snapshot *s, const struct kp_options *o,
            const char *const *live_resources, char *default_ns,
            size_t ns_len, struct kp_whatif *w, struct kp_error *err)
{
    if (load_cluster(s, o, live_resources, default_ns, ns_len, err) < 0)
        return -1;
    return apply_changes(s, o, default_ns, w, err);
}

/* kp_fix_add_node's loader: the -f files again, changes applied */
static int
load_for_fix(struct kp_snapshot *s, const struct kp_options *o,
             struct kp_whatif *w, struct kp_error *err)
{
    char default_ns[256] = "default";

    return kp_run_load(s, o, NULL, default_ns, sizeof(default_ns), w, err);
}

/* A run with a change, analysed against the cluster without it. */
static bool
change_requested(const struct kp_options *o)
{
    return o->nadds || kp_whatif_requested(o) || o->compare_config ||
           o->compare_profile || o->compare_kube_version;
}

/* Drop the warnings from the first new one on that repeat an older one. */
static void
drop_repeated_warnings(struct kp_snapshot *s, size_t first)
{
    size_t i, j, k = first;

    for (i = first; i < s->nwarnings; i++) {
        for (j = 0; j < first; j++)
            if (strcmp(s->warnings[i], s->warnings[j]) == 0)
                break;
        if (j < first)
            free(s->warnings[i]);
        else
            s->warnings[k++] = s->warnings[i];
    }
    s->nwarnings = k;
}

/*
 * Issue 25: analyse the finished snapshot as read (the baseline, same
 * mode), keep its answers in base, then apply the change to the same
 * snapshot and finish it again: the load is shared.  With
 * --compare-config/--compare-profile, *o becomes oo2 (cfg2 loaded):
 * the run's scheduler.  The warnings of finishing again that repeat
 * earlier ones are dropped.
 */
/*
 * Move the warnings [from, to) of s before index at (at <= from), as
 * they would have come had they been raised there.
 */
static void
move_warnings(struct kp_snapshot *s, size_t at, size_t from, size_t to)
{
    char **tmp;
    size_t n = to - from;

    if (n == 0 || at == from)
        return;
    tmp = kp_xmalloc(n * sizeof(*tmp));
    memcpy(tmp, s->warnings + from, n * sizeof(*tmp));
    memmove(s->warnings + at + n, s->warnings + at,
            (from - at) * sizeof(*tmp));
    memcpy(s->warnings + at, tmp, n * sizeof(*tmp));
    free(tmp);
}

/*
 * --compare-config/--compare-profile: *oin2 = *oin with them as
 * --config/--profile, oo2 and cfg2 set up from it (before the load, so
 * that a bad file fails at once, as --config does).
 */
static int
compare_setup(const struct kp_options *oin, struct kp_options *oin2,
              struct kp_options *oo2, struct kp_sched_config *cfg2,
              struct kp_error *err)
{
    *oin2 = *oin;
    /* what is not compared stays as the run has it */
    if (oin->compare_config || oin->compare_profile) {
        oin2->config_file = oin->compare_config;
        oin2->openshift_profile = oin->compare_profile;
    }
    if (oin->compare_kube_version)
        oin2->kube_version = oin->compare_kube_version;
    return kp_run_config_setup(oin2, oo2, cfg2, err);
}

/*
 * What kp_run_config_mark_pods changes for a version and the other
 * version must find again: the pods' requests (before 1.34 and 1.33 they
 * are read otherwise) and the PDBs' empty-selector rule (1.38).
 */
struct version_state {
    size_t npods, npdbs, nnodes;
    struct kp_node **nodes;
    struct kp_resvec *alloc;    /* their allocatable (1.38: #141305) */
    struct kp_pod **pods;
    struct kp_resvec *req;
    int64_t *nonzero_cpu, *nonzero_mem;
    struct kp_host_port **ports;    /* before 1.33 sidecars' are left out */
    size_t *nports, *nsidecar_ports;
    bool *empty_all;
};

static void
version_save(struct version_state *v, const struct kp_snapshot *s)
{
    size_t i;

    v->npods = s->npods;
    v->npdbs = s->npdbs;
    v->pods = kp_xmalloc((s->npods + 1) * sizeof(*v->pods));
    v->req = kp_xmalloc((s->npods + 1) * sizeof(*v->req));
    v->nonzero_cpu = kp_xmalloc((s->npods + 1) * sizeof(int64_t));
    v->nonzero_mem = kp_xmalloc((s->npods + 1) * sizeof(int64_t));
    v->ports = kp_xmalloc((s->npods + 1) * sizeof(*v->ports));
    v->nports = kp_xmalloc((s->npods + 1) * sizeof(size_t));
    v->nsidecar_ports = kp_xmalloc((s->npods + 1) * sizeof(size_t));
    v->empty_all = kp_xmalloc(s->npdbs + 1);
    for (i = 0; i < s->npods; i++) {
        v->pods[i] = s->pods[i];
        v->req[i] = s->pods[i]->req;
        v->nonzero_cpu[i] = s->pods[i]->nonzero_cpu;
        v->nonzero_mem[i] = s->pods[i]->nonzero_mem;
        v->ports[i] = s->pods[i]->host_ports;
        v->nports[i] = s->pods[i]->nhost_ports;
        v->nsidecar_ports[i] = s->pods[i]->nsidecar_host_ports;
    }
    for (i = 0; i < s->npdbs; i++)
        v->empty_all[i] = s->pdbs[i]->empty_selector_matches_all;
    v->nnodes = s->nnodes;
    v->nodes = kp_xmalloc((s->nnodes + 1) * sizeof(*v->nodes));
    v->alloc = kp_xmalloc((s->nnodes + 1) * sizeof(*v->alloc));
    for (i = 0; i < s->nnodes; i++) {
        v->nodes[i] = s->nodes[i];
        v->alloc[i] = s->nodes[i]->allocatable;
    }
}

/* Put back what version_save kept (the PDBs: the first npdbs). */
static void
version_restore(const struct version_state *v, struct kp_snapshot *s)
{
    size_t i;

    for (i = 0; i < v->npods; i++) {
        v->pods[i]->req = v->req[i];
        v->pods[i]->nonzero_cpu = v->nonzero_cpu[i];
        v->pods[i]->nonzero_mem = v->nonzero_mem[i];
        v->pods[i]->host_ports = v->ports[i];
        v->pods[i]->nhost_ports = v->nports[i];
        v->pods[i]->nsidecar_host_ports = v->nsidecar_ports[i];
    }
    for (i = 0; i < v->npdbs && i < s->npdbs; i++)
        s->pdbs[i]->empty_selector_matches_all = v->empty_all[i];
    for (i = 0; i < v->nnodes; i++)
        v->nodes[i]->allocatable = v->alloc[i];
}

static void
version_release(struct version_state *v)
{
    free(v->pods);
    free(v->req);
    free(v->nonzero_cpu);
    free(v->nonzero_mem);
    free(v->ports);
    free(v->nports);
    free(v->nsidecar_ports);
    free(v->empty_all);
    free(v->alloc);
    free(v->nodes);
    memset(v, 0, sizeof(*v));
}

static int
baseline_then_change(struct kp_snapshot *snap, const struct kp_options *oin,
                     const struct kp_options **o, const struct kp_options *oin2,
                     struct kp_options *oo2, struct kp_sched_config *cfg2,
                     const char *default_ns, size_t nload,
                     const struct version_state *vs, struct kp_whatif *w,
                     struct kp_baseline *base, struct kp_error *err)
{
    struct kp_options bo = **o;
    struct kp_report brep;
    size_t nw;
    bool cmp = oin->compare_config || oin->compare_profile ||
               oin->compare_kube_version;

    bo.explain_nodes = false;
    memset(&brep, 0, sizeof(brep));
    if (kp_analyze(snap, &bo, &brep, err) < 0) {
        kp_report_release(&brep);
        return -1;
    }
    if (cmp && !oin->nadds && !kp_whatif_requested(oin))
        kp_baseline_take(base, snap, &brep, "the current scheduler "
                         "configuration", "under the current scheduler "
                         "configuration");
    else
        kp_baseline_take(base, snap, &brep, "the cluster without the "
                         "change", "without the change");
    kp_report_release(&brep);
    /* --compare-kube-version: the pods as read, for the other's rules */
    version_restore(vs, snap);
    nw = snap->nwarnings;
    if (apply_changes(snap, *o, default_ns, w, err) < 0)
        return -1;
    /* --add's and the what-ifs' warnings come with the reading's (run.h) */
    move_warnings(snap, nload, nw, snap->nwarnings);
    nw = snap->nwarnings;
    if (cmp) {
        if (kp_run_config_detect(snap, oin2, oo2, cfg2, err) < 0)
            return -1;
        *o = oo2;
    }
    kp_run_config_mark_pods(snap, *o);
    if (kp_snapshot_finish(snap, (*o)->scheduler_name, err) < 0)
        return -1;
    drop_repeated_warnings(snap, nw);
    return 0;
}

/*
 * Why a pod is not among the pending pods analysed, or NULL when it is.
 * Bound only counts for a pod named on the command line.
 */
static const char *
not_analysed_reason(const struct kp_pod *p, const char *scheduler)
{
    if (kp_pod_is_terminal(p))
        return "Terminal";
    if (p->deleting)
        return "Terminating";
    if (p->node_name)
        return "Bound";
    if (scheduler ? strcmp(p->scheduler_name, scheduler) != 0 :
        !p->in_profile)
        return "OtherScheduler";
    if (p->nscheduling_gates)
        return "SchedulingGated";
    return NULL;
}

static void
explain_reason(char *buf, size_t n, const struct kp_pod *p,
               const char *reason)
{
    static const char *const phases[] = {"Pending", "Running", "Succeeded",
                                         "Failed", "Unknown"};

    if (strcmp(reason, "Terminal") == 0)
        snprintf(buf, n, "status.phase is %s", phases[p->phase]);
    else if (strcmp(reason, "Terminating") == 0)
        snprintf(buf, n, "metadata.deletionTimestamp is set");
    else if (strcmp(reason, "Bound") == 0)
        snprintf(buf, n, "bound to node %s", p->node_name);
    else if (strcmp(reason, "OtherScheduler") == 0)
        snprintf(buf, n, "spec.schedulerName is '%s'", p->scheduler_name);
    else
        snprintf(buf, n, "spec.schedulingGates is not empty");
}

static void
add_not_analysed(struct kp_snapshot *snap, struct kp_report *rep,
                 size_t *cap, const struct kp_pod *p, const char *reason)
{
    char why[600];
    size_t i;

    for (i = 0; i < rep->nnot_analysed; i++)
        if (rep->not_analysed[i].pod == p)
            return;
    if (rep->nnot_analysed == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        rep->not_analysed = kp_xrealloc(rep->not_analysed,
                                        *cap * sizeof(*rep->not_analysed));
    }
    rep->not_analysed[rep->nnot_analysed].pod = p;
    rep->not_analysed[rep->nnot_analysed++].reason = reason;
    explain_reason(why, sizeof(why), p, reason);
    kp_snapshot_warn(snap, "pod '%s/%s' not analysed: %s (%s)", p->ns,
                     p->name, reason, why);
}

/* Unbound pods that -n/-l (or no narrowing) match but that are skipped. */
static void
matched_not_analysed(struct kp_snapshot *snap, const struct kp_options *o,
                     const struct kp_select *sel, struct kp_report *rep,
                     size_t *cap)
{
    size_t i;

    for (i = 0; i < snap->npods; i++) {
        const struct kp_pod *p = snap->pods[i];
        const char *why;

        if (p->node_name || !kp_select_pod(sel, p) ||
            (o->only_added && !kp_pod_is_added(p)))
            continue;
        why = not_analysed_reason(p, o->scheduler_name);
        if (why)
            add_not_analysed(snap, rep, cap, p, why);
    }
}

/*
 * A POD not found: kubectl's lookup is by namespace (-n, the context's,
 * else default), but a bare name that the snapshot has in other
 * namespaces is named ("did you mean 'ml/train-1'?") rather than left
 * for the user to hunt.
 */
static int
pod_not_found(const struct kp_snapshot *snap, const char *arg,
              const char *ns, const char *name, struct kp_error *err)
{
    struct kp_buf b;
    size_t i, n = 0;
    const struct kp_pod *one = NULL;

    kp_buf_init(&b);
    for (i = 0; !strchr(arg, '/') && i < snap->npods; i++) {
        const struct kp_pod *p = snap->pods[i];

        if (strcmp(p->name, name) != 0)
            continue;
        kp_buf_printf(&b, "%s%s", n ? ", " : "", p->ns);
        one = p;
        n++;
    }
    if (n == 1)
        kp_errorf(err, KP_EXIT_ERROR, "pod '%s/%s' not found; did you mean "
                  "'%s/%s'? (a name without a namespace is looked up in "
                  "namespace %s; give NAMESPACE/NAME or -n)", ns, name,
                  one->ns, one->name, ns);
    else if (n > 1)
        kp_errorf(err, KP_EXIT_ERROR, "pod '%s/%s' not found; a pod '%s' is "
                  "in namespaces %s: give NAMESPACE/NAME or -n", ns, name,
                  name, b.data);
    else
        kp_errorf(err, KP_EXIT_ERROR, "pod '%s/%s' not found", ns, name);
    kp_buf_release(&b);
    return -1;
}

/*
 * With a change, --only-added keeps the pods the change touches, known
 * only once analysed (only_added_later): every selected pod is reported
 * here and only_added_filter() drops the others after the analysis.
 */
static int
mark_reported(struct kp_snapshot *snap, const struct kp_options *o,
              const char *default_ns, struct kp_report *rep,
              bool only_added_later, struct kp_error *err)
{
    struct kp_select sel;
    size_t i, j, cap = 0;
    bool only_added = o->only_added && !only_added_later;

    if (kp_select_init(&sel, o, default_ns, &rep->arena, err) < 0)
        return -1;
    for (i = 0; i < rep->npods; i++)
        rep->pods[i].reported = o->npods == 0 &&
            kp_select_pod(&sel, rep->pods[i].pod) &&
            (!only_added || kp_pod_is_added(rep->pods[i].pod));
    if (o->npods == 0)
        matched_not_analysed(snap, o, &sel, rep, &cap);
    for (j = 0; j < o->npods; j++) {
        char ns[512];
        const char *name;
        const struct kp_pod *p;

        kp_select_split(&sel, o->pods[j], ns, sizeof(ns), &name);
        p = kp_snapshot_pod(snap, ns, name);
        for (i = 0; p && i < rep->npods; i++)
            if (rep->pods[i].pod == p)
                break;
        if (!p)
            return pod_not_found(snap, o->pods[j], ns, name, err);
        if (i == rep->npods) {
            const char *why = not_analysed_reason(p, o->scheduler_name);

            add_not_analysed(snap, rep, &cap, p, why ? why : "Terminal");
            continue;
        }
        rep->pods[i].reported = !only_added || kp_pod_is_added(p);
    }
    return 0;
}

/*
 * --only-added in a run with a change (issue 25): the added, displaced
 * and rolled pods, and the pods whose answer differs from the baseline.
 */
static void
only_added_filter(const struct kp_options *o, struct kp_report *rep,
                  struct kp_change *c)
{
    size_t i;

    if (!o->only_added)
        return;
    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod *p = rep->pods[i].pod;

        if (rep->pods[i].reported && !kp_pod_is_added(p) && !p->replaces &&
            !kp_change_touches(kp_change_of(c, p)))
            rep->pods[i].reported = false;
    }
    kp_change_count(c, rep);
}

static size_t
count_reported(const struct kp_report *rep)
{
    size_t i, n = 0;

    for (i = 0; i < rep->npods; i++)
        n += rep->pods[i].reported;
    return n;
}

/* kubectl's "No resources found in X namespace.", for the human outputs */
static void
set_notice(const struct kp_options *o, const struct kp_report *rep,
           struct kp_run_result *r)
{
    if (o->output == KP_OUTPUT_JSON || count_reported(rep))
        return;
    if (o->namespace)
        snprintf(r->notice, sizeof(r->notice), "No pending pods found in "
                 "namespace %s.", o->namespace);
    else
        snprintf(r->notice, sizeof(r->notice), "No pending pods found in "
                 "any namespace.");
}

/* --only-added with nothing to report must not pass unnoticed */
static void
warn_only_added_empty(struct kp_snapshot *snap, const struct kp_options *o,
                      const struct kp_report *rep)
{
    size_t i, nadded = 0;

    if (!o->only_added || count_reported(rep))
        return;
    if (!o->nadds && !kp_whatif_requested(o)) {
        kp_snapshot_warn(snap, "--only-added: no pod to report: the "
                         "scheduler compared with gives every pending pod "
                         "the same answer");
        return;
    }
    for (i = 0; i < snap->npods; i++)
        nadded += kp_pod_is_added(snap->pods[i]);
    kp_snapshot_warn(snap, "--only-added: no pod to report: %s made %zu "
                     "pod(s)%s", kp_whatif_requested(o) ? "--add and the "
                     "node what-ifs" : "the --add manifests", nadded, nadded ?
                     ", none of them pending and selected" : "");
}

int
kp_fail_on_status(unsigned fail_on, unsigned found)
{
    return (fail_on & found) ? KP_EXIT_FAIL_ON : KP_EXIT_OK;
}

/*
 * What --fail-on can ask about, found among the reported pods; the
 * change's findings asked for get a line each in lines.
 */
static unsigned
found_in_report(const struct kp_snapshot *snap, const struct kp_report *rep,
                unsigned fail_on, struct kp_buf *lines)
{
    unsigned found = kp_change_fail(rep->change, snap, rep, fail_on, lines);
    size_t i;

    if (kp_whatif_blocked(rep->whatif))
        found |= KP_FAIL_DRAIN_BLOCKED;
    if (kp_rollout_blocked(snap->rollouts))
        found |= KP_FAIL_ROLLOUT_BLOCKED;
    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod_report *pr = &rep->pods[i];

        if (!pr->reported)
            continue;
        if (pr->result == KP_RESULT_PREEMPTS)
            found |= KP_FAIL_PREEMPTION;
        if (pr->pdb_violations > 0)
            found |= KP_FAIL_PDB_VIOLATION;
        if (pr->result == KP_RESULT_UNSCHEDULABLE)
            found |= KP_FAIL_UNSCHEDULABLE;
    }
    return found;
}

void
kp_run_take_warnings(struct kp_run_result *r, struct kp_snapshot *s)
{
    size_t i;

    if (s->nwarnings == 0)
        return;
    r->warnings = kp_xrealloc(r->warnings, (r->nwarnings + s->nwarnings) *
                              sizeof(char *));
    for (i = 0; i < s->nwarnings; i++)
        r->warnings[r->nwarnings++] = s->warnings[i];
    s->nwarnings = 0;               /* r owns them now */
}

/* --sort-by: the reported pods take each other's places, sorted. */
static int
sort_pods(const struct kp_snapshot *snap, const struct kp_options *o,
          struct kp_report *rep, struct kp_error *err)
{
    struct kp_pod_report *sorted;
    struct kp_buf b;
    size_t n, i, k = 0;
    int *pos, rc;

    kp_buf_init(&b);
    kp_render_json(snap, rep, &b);
    rc = kp_kubectl_sort(o->sort_by, b.data, b.len, &pos, &n, err);
    kp_buf_release(&b);
    if (rc < 0)
        return -1;
    sorted = kp_xmalloc((n + 1) * sizeof(*sorted));
    for (i = 0; i < n; i++)
        for (k = 0; k < rep->npods; k++)
            if (rep->pods[k].queue_position == pos[i])
                sorted[i] = rep->pods[k];
    for (i = k = 0; i < rep->npods && k < n; i++)
        if (rep->pods[i].reported)
            rep->pods[i] = sorted[k++];
    free(sorted);
    free(pos);
    return 0;
}

static void
progress(const struct kp_options *o, const char *phase, size_t done,
         size_t total)
{
    if (o->progress)
        o->progress(o->progress_ctx, phase, done, total);
}

/* -o yaml, name, jsonpath, custom-columns: from the JSON document */
static int
render_kubectl(const struct kp_snapshot *snap, const struct kp_options *o,
               const struct kp_report *rep, struct kp_buf *out,
               struct kp_error *err)
{
    struct kp_buf b;
    int rc;

    kp_buf_init(&b);
    kp_render_json(snap, rep, &b);
    rc = kp_render_kubectl(o, "pods", b.data, b.len, out, err);
    kp_buf_release(&b);
    return rc;
}

int
kp_run(const struct kp_options *oin, struct kp_run_result *r,
       struct kp_error *err)
{
    struct kp_options oo, oo2, oin2, live_opts;
    const struct kp_options *o = &oo;
    struct kp_sched_config cfg, cfg2;
    struct kp_baseline base;
    struct kp_change change;
    bool changing = change_requested(oin);
    struct version_state vs;
    size_t nload;
    struct kp_snapshot snap;
    struct kp_report rep;
    struct kp_whatif whatif;
    char default_ns[256] = "default";
    int rc = -1;

    memset(r, 0, sizeof(*r));
    kp_buf_init(&r->out);
    kp_snapshot_init(&snap);
    memset(&rep, 0, sizeof(rep));
    memset(&whatif, 0, sizeof(whatif));
    memset(&base, 0, sizeof(base));
    memset(&change, 0, sizeof(change));
    memset(&cfg2, 0, sizeof(cfg2));
    memset(&vs, 0, sizeof(vs));
    kp_arena_init(&cfg2.arena);
    if (kp_run_config_setup(oin, &oo, &cfg, err) < 0 ||
        ((oin->compare_config || oin->compare_profile ||
          oin->compare_kube_version) &&
         compare_setup(oin, &oin2, &oo2, &cfg2, err) < 0) ||
        kp_kubectl_check(o, err) < 0)
        goto out;
    progress(o, "reading the cluster", 0, 0);
    /* with a change, the cluster as read is analysed first (issue 25) */
    if ((changing ? load_cluster(&snap, o, NULL, default_ns,
                                 sizeof(default_ns), err) :
         kp_run_load(&snap, o, NULL, default_ns, sizeof(default_ns),
                     &whatif, err)) < 0 ||
        kp_run_config_detect(&snap, oin, &oo, &cfg, err) < 0)
        goto out;
    nload = snap.nwarnings;
    if (oin->compare_kube_version)
        version_save(&vs, &snap);
    kp_run_config_mark_pods(&snap, o);
    if (kp_snapshot_finish(&snap, o->scheduler_name, err) < 0)
        goto out;
    if (changing && baseline_then_change(&snap, oin, &o, &oin2, &oo2,
                                         &cfg2, default_ns, nload, &vs,
                                         &whatif, &base, err) < 0)
        goto out;
    /* live, as kubectl get: the context's namespace unless -n or -A */
    if (o->nfiles == 0 && !o->namespace && !o->all_namespaces) {
        live_opts = *o;
        live_opts.namespace = default_ns;
        o = &live_opts;
    }
    kp_snapshot_check_namespace_selectors(&snap, o->scheduler_name);
    progress(o, "analysing pending pods", 0, 0);
    /* reported pods first: only they keep a per-node view */
    kp_analyze_queue(&snap, o, &rep);
    rep.explain_nodes_each = o->verbose > 0;
    if (kp_whatif_requested(o))
        rep.whatif = &whatif;
    if (mark_reported(&snap, o, default_ns, &rep, changing, err) < 0 ||
        kp_analyze_run(&snap, o, &rep, err) < 0)
        goto out;
    /* issue 26: verified fixes, where the diagnosis is shown */
    if (o->output == KP_OUTPUT_JSON || o->output == KP_OUTPUT_DESCRIBE ||
        kp_kubectl_output(o)) {
        progress(o, "checking fixes", 0, 0);
        kp_suggest_fixes(&snap, o, &rep);
        kp_fix_add_node(&snap, o, &rep, load_for_fix);
    }
    if (changing) {
        kp_change_compute(&change, &base, &snap, &rep);
        only_added_filter(o, &rep, &change);
        rep.change = &change;
    }
    kp_run_config_describe(&snap, o, &rep);
    rep.one_namespace = o->namespace != NULL;
    /* -v with --config, --profile or --kube-version (scheduler_shown);
     * -v=2 and more always */
    if (o->verbose >= 2 || (o->verbose && rep.scheduler_shown))
        snprintf(r->scheduler_note, sizeof(r->scheduler_note), "%s",
                 rep.scheduler_line);
    warn_only_added_empty(&snap, o, &rep);
    if (o->sort_by && sort_pods(&snap, o, &rep, err) < 0)
        goto out;
    if (o->verbose && snap.nunknown_kinds)
        kp_snapshot_warn(&snap, "ignored %zu object(s) of other kinds",
                         snap.nunknown_kinds);
    /* no warning after this: -o json's "warnings" are r's */
    kp_run_take_warnings(r, &snap);
    rep.nwarnings = r->nwarnings;
    rep.warnings = (const char *const *)r->warnings;
    progress(o, "rendering", 0, 0);
    if (kp_kubectl_output(o)) {
        if (render_kubectl(&snap, o, &rep, &r->out, err) < 0)
            goto out;
    } else if (o->output == KP_OUTPUT_JSON && o->stream) {
        if (o->before_stream)
            o->before_stream(o->stream_ctx, r);
        kp_buf_set_sink(&r->out, o->stream);
    }
    if (kp_kubectl_output(o))
        ;
    else if (o->output == KP_OUTPUT_JSON)
        kp_render_json(&snap, &rep, &r->out);
    else if (o->output == KP_OUTPUT_SUMMARY)
        kp_render_summary(&snap, &rep, o->no_headers, &r->out);
    else if (o->output == KP_OUTPUT_DESCRIBE)
        kp_render_describe(&snap, &rep, &r->out);
    else
        kp_render_table(&snap, &rep, o->output == KP_OUTPUT_WIDE,
                        o->no_headers, &r->out);
    if (o->output == KP_OUTPUT_TABLE || o->output == KP_OUTPUT_WIDE ||
        o->output == KP_OUTPUT_SUMMARY) {
        kp_whatif_text(&snap, &rep, o->output == KP_OUTPUT_SUMMARY,
                       &r->out);
        kp_rollout_text(&snap, &rep, o->output == KP_OUTPUT_SUMMARY,
                        &r->out);
        kp_change_text(rep.change, &snap, &rep, &r->out);
    }
    r->exit_code = kp_fail_on_status(o->fail_on,
                                     found_in_report(&snap, &rep, o->fail_on,
                                                     &r->regressions));
    if (r->exit_code)
        kp_fail_on_notes(&snap, &rep, o->fail_on, &r->fail_notes);
    set_notice(o, &rep, r);
    rc = 0;
out:
    progress(o, NULL, 0, 0);
    if (rc < 0)
        kp_buf_release(&r->out);
    free(rep.not_analysed);
    kp_report_release(&rep);
    kp_whatif_release(&whatif);
    kp_change_release(&change);
    kp_baseline_release(&base);
    version_release(&vs);
    kp_snapshot_release(&snap);
    kp_sched_config_release(&cfg);
    kp_sched_config_release(&cfg2);
    return rc;
}

void
kp_run_result_release(struct kp_run_result *r)
{
    size_t i;

    for (i = 0; i < r->nwarnings; i++)
        free(r->warnings[i]);
    free(r->warnings);
    kp_buf_release(&r->out);
    kp_buf_release(&r->fail_notes);
    kp_buf_release(&r->regressions);
    memset(r, 0, sizeof(*r));
}
