/*
 * test_node_report.c - the per-node view of --explain-nodes: each node's
 * filter status and what DryRunPreemption made of it (preemption.go,
 * DryRunPreemption and findCandidates), and that the FitError histograms
 * of the message are exactly these statuses counted (framework/types.go,
 * FitError.Error: "0/N nodes are available: <count> <reason>, ...").
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "helpers.h"

#define NODE_UNSCHEDULABLE(name)                                           \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},"            \
    "\"spec\":{\"unschedulable\":true},"                                   \
    "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"16Gi\","      \
    "\"pods\":\"10\"}}}"

#define PDB_ZERO_ALLOWED                                                   \
    "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"namespace\":\"d\"," \
    "\"name\":\"pdb\"},\"spec\":{\"selector\":{\"matchLabels\":"           \
    "{\"app\":\"x\"}}},\"status\":{\"disruptionsAllowed\":0}}"

#define APP_X ",\"labels\":{\"app\":\"x\"}"

/* Analyse with --explain-nodes, every pod reported. */
static int
analyze_explained(struct kp_snapshot *s, struct kp_report *rep,
                  enum kp_mode mode, int pct, int abs)
{
    struct kp_options o;
    struct kp_error err = {0, ""};

    kp_options_init(&o);
    o.mode = mode;
    o.explain_nodes = true;
    o.min_candidate_nodes_percentage = pct;
    o.min_candidate_nodes_absolute = abs;
    return kp_analyze(s, &o, rep, &err);
}

static int
node_index(const struct kp_snapshot *s, const char *name)
{
    const struct kp_node *n = kp_snapshot_node(s, name);

    return n ? n->index : -1;
}

static const struct kp_node_report *
node_of(const struct kp_snapshot *s, const struct kp_pod_report *pr,
        const char *name)
{
    int i = node_index(s, name);

    return pr && pr->nodes && i >= 0 ? &pr->nodes[i] : NULL;
}

/* Statuses rebuilt from the view: the filter's, or the dry run's. */
static void
rebuild(const struct kp_snapshot *s, const struct kp_pod_report *pr,
        bool dry, struct kp_status *st)
{
    size_t i;
    int r;

    for (i = 0; i < s->nnodes; i++) {
        const struct kp_node_status *v = dry ? pr->nodes[i].preemption
                                             : pr->nodes[i].filter;

        st[i] = kp_status_ok();
        if (!v)
            continue;
        st[i].code = v->code;
        for (r = 0; r < v->nreasons; r++)
            kp_status_add_reason(&st[i], v->reasons[r]);
    }
}

/*
 * The message's "0/N nodes are available: H." is H counted over the
 * per-node filter reasons; for a pod without candidates its
 * "preemption: 0/N nodes are available: H'." over the dry run's.
 */
static void
check_reaggregates(const struct kp_snapshot *s,
                   const struct kp_pod_report *pr)
{
    struct kp_status *st = calloc(s->nnodes + 1, sizeof(*st));
    struct kp_arena a;
    char want[4096];

    kp_arena_init(&a);
    CHECK(pr->nodes != NULL);
    if (pr->nodes && pr->result != KP_RESULT_FITS) {
        rebuild(s, pr, false, st);
        snprintf(want, sizeof(want), "0/%zu nodes are available: %s.",
                 s->nnodes, kp_reason_histogram(&a, st, s->nnodes, NULL));
        if (strncmp(pr->message, want, strlen(want)) != 0)
            printf("#   %s: message '%s', per-node '%s'\n",
                   pr->pod->name, pr->message, want);
        CHECK(strncmp(pr->message, want, strlen(want)) == 0);
    }
    if (pr->nodes && pr->result == KP_RESULT_UNSCHEDULABLE) {
        rebuild(s, pr, true, st);
        snprintf(want, sizeof(want), "preemption: 0/%zu nodes are "
                 "available: %s.", s->nnodes,
                 kp_reason_histogram(&a, st, s->nnodes, NULL));
        if (!strstr(pr->message, want))
            printf("#   %s: message '%s', per-node '%s'\n",
                   pr->pod->name, pr->message, want);
        CHECK(strstr(pr->message, want) != NULL);
    }
    kp_arena_release(&a);
    free(st);
}

static void
check_all_reaggregate(const struct kp_snapshot *s,
                      const struct kp_report *rep)
{
    size_t i;

    for (i = 0; i < rep->npods; i++)
        check_reaggregates(s, &rep->pods[i]);
}

/* examples/cluster.json: the reasons a user sees for checkout-0 */
static void
test_node_report__example_checkout_nodes(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    struct kp_error err = {0, ""};
    const struct kp_pod_report *pr;
    const struct kp_node_report *nr;

    kp_snapshot_init(&s);
    CHECK(kp_snapshot_load_file(&s, "examples/cluster.json", &err) == 0);
    CHECK(kp_snapshot_finish(&s, "default-scheduler", &err) == 0);
    CHECK(analyze_explained(&s, &rep, KP_MODE_QUEUE, 10, 100) == 0);
    pr = report_for(&rep, "checkout-0");
    nr = node_of(&s, pr, "gpu-1");
    CHECK(nr && nr->filter && nr->preemption);
    if (nr && nr->filter && nr->preemption) {
        CHECK_EQ_INT(nr->filter->code, KP_UNRESOLVABLE);
        CHECK_EQ_STR(nr->filter->plugin, "TaintToleration");
        CHECK_EQ_INT(nr->filter->nreasons, 1);
        CHECK_EQ_STR(nr->filter->reasons[0],
                     "node(s) had untolerated taint(s)");
        CHECK_EQ_INT(nr->preemption->outcome, KP_NODE_NOT_TRIED);
        CHECK_EQ_STR(nr->preemption->reasons[0],
                     "Preemption is not helpful for scheduling");
    }
    nr = node_of(&s, pr, "node-a");
    CHECK(nr && nr->filter && nr->preemption);
    if (nr && nr->filter && nr->preemption) {
        CHECK_EQ_STR(nr->filter->plugin, "NodeResourcesFit");
        CHECK_EQ_STR(nr->filter->reasons[0], "Insufficient cpu");
        CHECK_EQ_INT(nr->preemption->outcome, KP_NODE_CANDIDATE);
        CHECK_EQ_INT(nr->nvictims, 2);
        CHECK_EQ_INT(nr->num_pdb_violations, 1);
        CHECK_EQ_INT(pr->nominated_node, node_index(&s, "node-a"));
    }
    /* sidecar-light fits: no dry run, every node filtered */
    pr = report_for(&rep, "sidecar-light");
    nr = node_of(&s, pr, "node-b");
    CHECK(nr && nr->filter && nr->filter->code == KP_SUCCESS &&
          !nr->preemption);
    /* backfill-0 may not preempt: filter statuses, no dry run */
    pr = report_for(&rep, "backfill-0");
    nr = node_of(&s, pr, "node-c");
    CHECK(nr && nr->filter && nr->filter->code == KP_UNSCHEDULABLE &&
          !nr->preemption);
    check_all_reaggregate(&s, &rep);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* examples/cluster.json, each pod alone: the same re-aggregation */
static void
test_node_report__example_independent_reaggregates(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    struct kp_error err = {0, ""};

    kp_snapshot_init(&s);
    CHECK(kp_snapshot_load_file(&s, "examples/cluster.json", &err) == 0);
    CHECK(kp_snapshot_finish(&s, "default-scheduler", &err) == 0);
    CHECK(analyze_explained(&s, &rep, KP_MODE_INDEPENDENT, 10, 100) == 0);
    check_all_reaggregate(&s, &rep);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * SelectVictimsOnNode fails two ways: no lower-priority pod on n1, and on
 * n2 the pod does not fit even without its victim; n3 is cordoned
 * (UnschedulableAndUnresolvable: not tried).
 */
static void
test_node_report__victims_that_do_not_help(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;
    const struct kp_node_report *nr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "2", "10") "," NODE("n2", "4", "10") ","
        NODE_UNSCHEDULABLE("n3") ","
        POD("d", "hi1", "100", "2", "n1", "") ","
        POD("d", "hi2", "100", "3", "n2", "") ","
        POD("d", "low", "1", "1", "n2", "") ","
        POD("d", "p", "10", "2", "", ""))) == 0);
    CHECK(analyze_explained(&s, &rep, KP_MODE_INDEPENDENT, 10, 100) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_UNSCHEDULABLE);
    nr = node_of(&s, pr, "n1");
    CHECK(nr && nr->preemption &&
          nr->preemption->outcome == KP_NODE_NO_VICTIMS_HELP);
    if (nr && nr->preemption) {
        CHECK_EQ_INT(nr->preemption->code, KP_UNRESOLVABLE);
        CHECK_EQ_STR(nr->preemption->reasons[0],
                     "No preemption victims found for incoming pod");
    }
    nr = node_of(&s, pr, "n2");
    CHECK(nr && nr->preemption &&
          nr->preemption->outcome == KP_NODE_NO_VICTIMS_HELP);
    if (nr && nr->preemption) {
        CHECK_EQ_INT(nr->preemption->code, KP_UNSCHEDULABLE);
        CHECK_EQ_STR(nr->preemption->plugin, "NodeResourcesFit");
        CHECK_EQ_STR(nr->preemption->reasons[0], "Insufficient cpu");
    }
    nr = node_of(&s, pr, "n3");
    CHECK(nr && nr->filter && nr->preemption);
    if (nr && nr->filter && nr->preemption) {
        CHECK_EQ_STR(nr->filter->plugin, "NodeUnschedulable");
        CHECK_EQ_STR(nr->filter->reasons[0], "node(s) were unschedulable");
        CHECK_EQ_INT(nr->preemption->outcome, KP_NODE_NOT_TRIED);
    }
    CHECK_EQ_STR(pr->message, "0/3 nodes are available: 1 node(s) were "
                 "unschedulable, 2 Insufficient cpu. no new claims to "
                 "deallocate, preemption: 0/3 nodes are available: 1 "
                 "Insufficient cpu, 1 No preemption victims found for "
                 "incoming pod, 1 Preemption is not helpful for "
                 "scheduling.");
    check_all_reaggregate(&s, &rep);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * One candidate wanted (percentage 0, absolute 1): n1 violates the PDB
 * and is kept, n2 too but the violating list is full (dropped), n3 is
 * PDB-free and ends the dry run, n4 is never reached (notEvaluated).
 */
static void
test_node_report__dry_run_cap_drops_and_stops(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;
    const struct kp_node_report *nr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "1", "10") "," NODE("n2", "1", "10") ","
        NODE("n3", "1", "10") "," NODE("n4", "1", "10") ","
        PDB_ZERO_ALLOWED ","
        POD("d", "v1", "1", "1", "n1", APP_X) ","
        POD("d", "v2", "1", "1", "n2", APP_X) ","
        POD("d", "v3", "1", "1", "n3", "") ","
        POD("d", "v4", "1", "1", "n4", "") ","
        POD("d", "p", "10", "1", "", ""))) == 0);
    CHECK(analyze_explained(&s, &rep, KP_MODE_INDEPENDENT, 0, 1) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    CHECK_EQ_INT(pr->nominated_node, node_index(&s, "n3"));
    nr = node_of(&s, pr, "n1");
    CHECK(nr && nr->preemption &&
          nr->preemption->outcome == KP_NODE_CANDIDATE);
    CHECK(nr && nr->num_pdb_violations == 1);
    nr = node_of(&s, pr, "n2");
    CHECK(nr && nr->preemption &&
          nr->preemption->outcome == KP_NODE_DROPPED);
    CHECK(nr && nr->nvictims == 1 && nr->num_pdb_violations == 1);
    nr = node_of(&s, pr, "n3");
    CHECK(nr && nr->preemption &&
          nr->preemption->outcome == KP_NODE_CANDIDATE);
    CHECK(nr && nr->nvictims == 1 && nr->num_pdb_violations == 0);
    nr = node_of(&s, pr, "n4");
    CHECK(nr && nr->preemption &&
          nr->preemption->outcome == KP_NODE_NOT_EVALUATED);
    CHECK_EQ_INT(pr->ncandidates, 2);
    check_all_reaggregate(&s, &rep);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* 120 nodes that all fit: the filter pass stops after 100 */
static void
test_node_report__fits_pass_leaves_nodes_unevaluated(void)
{
    struct kp_buf b;
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;
    int i;

    kp_buf_init(&b);
    kp_buf_puts(&b, "{\"kind\":\"List\",\"items\":[");
    for (i = 0; i < 120; i++)
        kp_buf_printf(&b, "{\"kind\":\"Node\",\"metadata\":{\"name\":"
                      "\"n%03d\"},\"status\":{\"allocatable\":{\"cpu\":"
                      "\"2\",\"pods\":\"10\"}}},", i);
    kp_buf_puts(&b, POD("d", "p", "10", "1", "", "") "]}");
    CHECK(load_snapshot(&s, b.data) == 0);
    kp_buf_release(&b);
    CHECK(analyze_explained(&s, &rep, KP_MODE_INDEPENDENT, 10, 100) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_FITS && pr->nodes);
    if (pr && pr->nodes) {
        CHECK(pr->nodes[0].filter &&
              pr->nodes[0].filter->code == KP_SUCCESS);
        CHECK(pr->nodes[99].filter != NULL);
        CHECK(pr->nodes[100].filter == NULL);
        CHECK(pr->nodes[119].filter == NULL);
        CHECK(pr->nodes[0].preemption == NULL);
    }
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* Only reported pods keep a view, and none without the flag */
static void
test_node_report__kept_only_for_reported_pods_with_the_flag(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    struct kp_options o;
    struct kp_error err = {0, ""};
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "2", "10") ","
        POD("d", "low", "1", "1", "n1", "") ","
        POD("d", "p", "10", "2", "", "") ","
        POD("d", "q", "5", "1", "", ""))) == 0);
    kp_options_init(&o);
    o.explain_nodes = true;
    kp_analyze_queue(&s, &o, &rep);
    pr = report_for(&rep, "q");
    CHECK(pr != NULL);
    if (pr)
        rep.pods[pr->queue_position - 1].reported = true;
    CHECK(kp_analyze_run(&s, &o, &rep, &err) == 0);
    CHECK(report_for(&rep, "q")->nodes != NULL);
    CHECK(report_for(&rep, "p")->nodes == NULL);
    kp_report_release(&rep);
    o.explain_nodes = false;
    CHECK(kp_analyze(&s, &o, &rep, &err) == 0);
    CHECK(report_for(&rep, "p")->nodes == NULL);
    CHECK(report_for(&rep, "q")->nodes == NULL);
    CHECK_EQ_INT(rep.node_statuses.n, 0);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

int
main(void)
{
    RUN(test_node_report__example_checkout_nodes);
    RUN(test_node_report__example_independent_reaggregates);
    RUN(test_node_report__victims_that_do_not_help);
    RUN(test_node_report__dry_run_cap_drops_and_stops);
    RUN(test_node_report__fits_pass_leaves_nodes_unevaluated);
    RUN(test_node_report__kept_only_for_reported_pods_with_the_flag);
    return check_done();
}
