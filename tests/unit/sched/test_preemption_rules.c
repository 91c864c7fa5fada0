/*
 * test_preemption_rules.c - rules of the preemption core that the
 * mutation run (tests/mutation, issue 24) found untested: each test here
 * kills the mutant its comment names.  Sources:
 * pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
 * (PodEligibleToPreemptOthers, SelectVictimsOnNode),
 * pkg/scheduler/framework/preemption/preemption.go (SelectCandidate's
 * pickOneNodeForPreemption, prepareCandidate's
 * getLowerPriorityNominatedPods), pkg/scheduler/util (GetPodStartTime),
 * and the victim memo that core/sched/plugins/defaultpreemption/ kept
 * until the fifth session (SelectVictimsOnNode on sums, empty_on_sums,
 * came to cost less than its lookups, and replaced it): its cases stay,
 * as rules any answer kept or worked out faster must keep.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "helpers.h"

#define T0 "2026-01-01T00:00:00Z"
#define T1 "2026-01-01T00:00:01Z"
#define T2 "2026-01-01T00:00:02Z"

/* labels, taints: ",\"labels\":{...}" / ",\"taints\":[...]" or "" */
#define XNODE(name, cpu, labels, spec)                                     \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"" labels "},"  \
    "\"spec\":{\"x\":0" spec "},"                                           \
    "\"status\":{\"allocatable\":{\"cpu\":\"" cpu "\",\"memory\":\"16Gi\"," \
    "\"pods\":\"110\"}}}"

/*
 * A pod of namespace d: md, spec, status are extra members (",\"k\":v")
 * of metadata, spec and status; node "" is a pending pod.
 */
#define XPOD(name, prio, cpu, node, created, md, spec, status)            \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"" name \
    "\",\"uid\":\"uid-" name "\",\"creationTimestamp\":\"" created "\""    \
    md "},\"spec\":{\"priority\":" prio ",\"nodeName\":\"" node "\""       \
    spec ",\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"  \
    "{\"cpu\":\"" cpu "\"}}}]},\"status\":{\"x\":0" status "}}"

#define RUNNING ",\"phase\":\"Running\",\"startTime\":\"" T0 "\""
#define READY ",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]"
#define PENDING ",\"phase\":\"Pending\""
#define NOMINATED(n) ",\"nominatedNodeName\":\"" n "\""
#define TERMINATING_BY_PREEMPTION                                          \
    ",\"conditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\"," \
    "\"reason\":\"PreemptionByScheduler\"}]"
#define DELETING                                                           \
    ",\"deletionTimestamp\":\"" T1 "\",\"deletionGracePeriodSeconds\":30"

static const char *
node_name(const struct kp_snapshot *s, int node)
{
    return node >= 0 ? s->nodes[node]->name : "<none>";
}

/*
 * PodEligibleToPreemptOthers: only a terminating preemption victim of
 * LOWER priority on the nominated node makes the pod wait; one of equal
 * priority does not (mutant: "a terminating victim of EQUAL priority
 * blocks eligibility").
 */
static void
test_rules__equal_priority_terminating_pod_does_not_block(void)
{
    static const char *prio[2] = {"10", "5"};
    static const enum kp_result_kind want[2] = {KP_RESULT_UNSCHEDULABLE,
                                           KP_RESULT_NOT_ELIGIBLE};
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;
    char json[4096];
    int i;

    for (i = 0; i < 2; i++) {
        snprintf(json, sizeof(json), LIST(
            XNODE("n1", "1", "", "") ","
            XPOD("t", "%s", "1", "n1", T0, DELETING, "",
                 RUNNING TERMINATING_BY_PREEMPTION) ","
            XPOD("p", "10", "1", "", T1, "", "", PENDING NOMINATED("n1"))),
            prio[i]);
        CHECK(load_snapshot(&s, json) == 0);
        CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
        pr = report_for(&rep, "p");
        CHECK(pr != NULL);
        if (pr)
            CHECK_EQ_INT(pr->result, want[i]);
        kp_report_release(&rep);
        kp_snapshot_release(&s);
    }
}

/*
 * PodEligibleToPreemptOthers: a nominated node the pod can never use
 * (UnschedulableAndUnresolvable: here its taint) does not make it wait
 * for the terminating victim there; it preempts elsewhere (mutant: "an
 * UnschedulableAndUnresolvable nominated node still blocks
 * eligibility").
 */
static void
test_rules__unresolvable_nominated_node_does_not_block(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "1", "", ",\"taints\":[{\"key\":\"k\",\"value\":"
              "\"v\",\"effect\":\"NoSchedule\"}]") ","
        XNODE("n2", "1", "", "") ","
        XPOD("t", "5", "1", "n1", T0, DELETING, "",
             RUNNING TERMINATING_BY_PREEMPTION) ","
        XPOD("v", "5", "1", "n2", T0, "", "", RUNNING) ","
        XPOD("p", "10", "1", "", T1, "", "", PENDING NOMINATED("n1"))))
          == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr != NULL);
    if (pr) {
        CHECK_EQ_INT(pr->result, KP_RESULT_PREEMPTS);
        CHECK_EQ_STR(node_name(&s, pr->nominated_node), "n2");
    }
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * GetPodStartTime: a pod without status.startTime started "now", so it
 * is the later start and its node wins the last criterion (mutant: "a
 * missing start time reads as the oldest").
 */
static void
test_rules__missing_start_time_is_the_latest(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "1", "", "") "," XNODE("n2", "1", "", "") ","
        XPOD("old", "1", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("new", "1", "1", "n2", T0, "", "",
             ",\"phase\":\"Running\"") ","
        XPOD("p", "10", "1", "", T1, "", "", PENDING))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    if (pr && pr->result == KP_RESULT_PREEMPTS) {
        CHECK_EQ_STR(node_name(&s, pr->nominated_node), "n2");
        CHECK_EQ_STR(pr->decided_by, "latestStartTime");
    }
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * pickOneNodeForPreemption: the sum of (priority + MaxInt32 + 1) ties at
 * 0 for victims of priority -2147483648, so the fewest victims decide
 * (mutant: "SelectCandidate prefers more victims").
 */
static void
test_rules__fewest_victims_decide_when_sums_tie(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "2", "", "") "," XNODE("n2", "2", "", "") ","
        XPOD("a1", "-2147483648", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("a2", "-2147483648", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("b1", "-2147483648", "2", "n2", T0, "", "", RUNNING) ","
        XPOD("p", "0", "2", "", T1, "", "", PENDING))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    if (pr && pr->result == KP_RESULT_PREEMPTS) {
        CHECK_EQ_STR(node_name(&s, pr->nominated_node), "n2");
        CHECK_EQ_STR(pr->decided_by, "victimCount");
    }
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * prepareCandidate clears the nominations of LOWER-priority pods on the
 * node only: n (equal priority, nominated to n1) keeps its room, so q,
 * queued between p and n, finds n1 full (mutant: "a preemption clears
 * nominations of EQUAL priority on the node").
 */
static void
test_rules__equal_priority_nomination_survives_a_preemption(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *p, *q;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "2", "", "") ","
        XPOD("v", "0", "2", "n1", T0, "", "", RUNNING) ","
        XPOD("p", "10", "1", "", T0, "", "", PENDING) ","
        XPOD("q", "10", "1", "", T1, "", "", PENDING) ","
        XPOD("n", "10", "1", "", T2, "", "", PENDING NOMINATED("n1")))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    p = report_for(&rep, "p");
    q = report_for(&rep, "q");
    CHECK(p && p->result == KP_RESULT_PREEMPTS);
    CHECK(q != NULL);
    if (q)
        CHECK_EQ_INT(q->result, KP_RESULT_UNSCHEDULABLE);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * The victim memo, queue mode.  r-0 finds n1 held by p's nomination and
 * cannot preempt there; p then runs on n2 and its nomination goes, the
 * pods of n1 unchanged: r-1, same signature, must see n1 afresh and
 * preempt v (mutant: "the victim memo ignores nomination changes").
 */
static void
test_rules__memo_sees_a_cleared_nomination(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *r0, *r1, *p;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "4", ",\"labels\":{\"pool\":\"x\"}", "") ","
        XNODE("n2", "2", ",\"labels\":{\"pool\":\"y\"}", "") ","
        XPOD("h", "1000", "2", "n1", T0, "", "", RUNNING) ","
        XPOD("v", "0", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("r-0", "100", "2", "", T0, "",
             ",\"nodeSelector\":{\"pool\":\"x\"}", PENDING) ","
        XPOD("p", "100", "2", "", T1, "", "", PENDING NOMINATED("n1")) ","
        XPOD("r-1", "100", "2", "", T2, "",
             ",\"nodeSelector\":{\"pool\":\"x\"}", PENDING))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    r0 = report_for(&rep, "r-0");
    p = report_for(&rep, "p");
    r1 = report_for(&rep, "r-1");
    CHECK(r0 && r0->result == KP_RESULT_UNSCHEDULABLE);
    CHECK(p && p->result == KP_RESULT_FITS);
    CHECK(r1 != NULL);
    if (r1) {
        CHECK_EQ_INT(r1->result, KP_RESULT_PREEMPTS);
        CHECK_EQ_STR(node_name(&s, r1->nominated_node), "n1");
    }
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * The victim memo and a node that changed: r-0's answer on n1 (evict v)
 * is kept while r-0 goes to n2; f then fills n1's free cpu, and r-1, same
 * signature, can no longer preempt there (mutant: "the victim memo
 * ignores node changes").
 */
static void
test_rules__memo_sees_a_node_that_filled_up(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *r0, *f, *r1;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "3", "", "") "," XNODE("n2", "2", "", "") ","
        XPOD("u", "1000", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("v", "0", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("w", "-5", "2", "n2", T0, "", "", RUNNING) ","
        XPOD("r-0", "10", "2", "", T0, "", "", PENDING) ","
        XPOD("f", "10", "1", "", T1, "", "", PENDING) ","
        XPOD("r-1", "10", "2", "", T2, "", "", PENDING))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    r0 = report_for(&rep, "r-0");
    f = report_for(&rep, "f");
    r1 = report_for(&rep, "r-1");
    CHECK(r0 && r0->result == KP_RESULT_PREEMPTS);
    if (r0 && r0->result == KP_RESULT_PREEMPTS)
        CHECK_EQ_STR(node_name(&s, r0->nominated_node), "n2");
    CHECK(f && f->result == KP_RESULT_FITS);
    if (f && f->result == KP_RESULT_FITS)
        CHECK_EQ_STR(node_name(&s, f->node), "n1");
    CHECK(r1 != NULL);
    if (r1)
        CHECK_EQ_INT(r1->result, KP_RESULT_UNSCHEDULABLE);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * The victim memo is bypassed on the pod's own nominated node: r-1 sees
 * r-0's nomination there (equal priority) and fails, r-0 leaves itself
 * out and preempts v (mutant: "the victim memo also serves the pod's own
 * nominated node").
 */
static void
test_rules__memo_bypassed_on_own_nominated_node(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *r0, *r1;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "1", "", "") ","
        XPOD("v", "0", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("r-1", "10", "1", "", T0, "", "", PENDING) ","
        XPOD("r-0", "10", "1", "", T1, "", "", PENDING NOMINATED("n1"))))
          == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    r0 = report_for(&rep, "r-0");
    r1 = report_for(&rep, "r-1");
    CHECK(r1 && r1->result == KP_RESULT_UNSCHEDULABLE);
    CHECK(r0 != NULL);
    if (r0)
        CHECK_EQ_INT(r0->result, KP_RESULT_PREEMPTS);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * The victim memo's answers are per signature: b (priority 10) may not
 * be served a's answer on n1, whose victims include x (priority 15)
 * (mutant: "the victim memo serves another signature's answer").
 */
static void
test_rules__memo_signature_holds_the_priority(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *a, *b;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "2", "", "") "," XNODE("n2", "2", "", "") ","
        XPOD("x", "15", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("w", "5", "1", "n1", T0, "", "", RUNNING) ","
        XPOD("y", "1", "2", "n2", T0, "", "", RUNNING) ","
        XPOD("a", "20", "2", "", T0, "", "", PENDING) ","
        XPOD("b", "10", "2", "", T1, "", "", PENDING))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    a = report_for(&rep, "a");
    b = report_for(&rep, "b");
    CHECK(a && a->result == KP_RESULT_PREEMPTS);
    if (a && a->result == KP_RESULT_PREEMPTS)
        CHECK_EQ_STR(node_name(&s, a->nominated_node), "n2");
    CHECK(b != NULL);
    if (b)
        CHECK_EQ_INT(b->result, KP_RESULT_UNSCHEDULABLE);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * The victim memo and the PDB budgets: a's preemption on n2 uses the
 * PDB's one disruption, so b's victim on n1 now violates it; an answer
 * kept from a's dry run (non-violating) must not be served (mutants:
 * "the victim memo ignores PDB budget changes", "... serves a changed
 * PDB split").
 */
static void
test_rules__memo_sees_a_spent_pdb_budget(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *a, *b;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "1", "", "") "," XNODE("n2", "1", "", "") ","
        XPOD("g2", "2", "1", "n1", T0, ",\"labels\":{\"app\":\"g\"}", "",
             RUNNING READY) ","
        XPOD("g1", "1", "1", "n2", T0, ",\"labels\":{\"app\":\"g\"}", "",
             RUNNING READY) ","
        "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"namespace\":\"d\","
        "\"name\":\"pdb\"},\"spec\":{\"selector\":{\"matchLabels\":"
        "{\"app\":\"g\"}}},\"status\":{\"disruptionsAllowed\":1}},"
        XPOD("a", "10", "1", "", T0, "", "", PENDING) ","
        XPOD("b", "10", "1", "", T1, "", "", PENDING))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    a = report_for(&rep, "a");
    b = report_for(&rep, "b");
    CHECK(a && a->result == KP_RESULT_PREEMPTS && a->pdb_violations == 0);
    if (a && a->result == KP_RESULT_PREEMPTS)
        CHECK_EQ_STR(node_name(&s, a->nominated_node), "n2");
    CHECK(b && b->result == KP_RESULT_PREEMPTS);
    if (b && b->result == KP_RESULT_PREEMPTS) {
        CHECK_EQ_STR(node_name(&s, b->nominated_node), "n1");
        CHECK_EQ_INT(b->pdb_violations, 1);
        CHECK(b->nvictims == 1 && b->victims[0].violates_pdb);
    }
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * The dry run cut and the victim memo: with one candidate kept of each
 * kind, a's dry run keeps n1 (PDB-violating) and stops n2's reprieve
 * loop at w1, its first PDB-violating victim (kp_candidate.partial);
 * that partial answer is kept.  a preempts v1 on n1, where it is then
 * nominated, so b (same signature) finds no victims there and n2 comes
 * first in its walk: its answer there must be the whole one, both w1 and
 * w2 (mutants: "the victim memo serves a partial answer to a lookup that
 * needs the whole", "... keeps a partial answer as a whole one").
 */
static void
test_rules__memo_keeps_partial_answers_apart(void)
{
    struct kp_snapshot s;
    struct kp_options o;
    struct kp_report rep;
    struct kp_error err = {0, ""};
    const struct kp_pod_report *a, *b;
    size_t i;

    CHECK(load_snapshot(&s, LIST(
        XNODE("n1", "2", "", "") "," XNODE("n2", "2", "", "") ","
        XPOD("v1", "1", "2", "n1", T0, ",\"labels\":{\"app\":\"g\"}", "",
             RUNNING READY) ","
        XPOD("w1", "1", "1", "n2", T0, ",\"labels\":{\"app\":\"g\"}", "",
             RUNNING READY) ","
        XPOD("w2", "1", "1", "n2", T1, ",\"labels\":{\"app\":\"g\"}", "",
             RUNNING READY) ","
        "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"namespace\":\"d\","
        "\"name\":\"pdb\"},\"spec\":{\"selector\":{\"matchLabels\":"
        "{\"app\":\"g\"}}},\"status\":{\"disruptionsAllowed\":0}},"
        XPOD("a", "10", "2", "", T0, "", "", PENDING) ","
        XPOD("b", "10", "2", "", T1, "", "", PENDING))) == 0);
    /* the cut is taken on one thread alone */
    setenv("KUBECTL_PREEMPT_PARALLELISM", "1", 1);
    kp_options_init(&o);
    o.mode = KP_MODE_QUEUE;
    o.min_candidate_nodes_percentage = 1;
    o.min_candidate_nodes_percentage_set = true;
    o.min_candidate_nodes_absolute = 1;
    o.min_candidate_nodes_absolute_set = true;
    CHECK(kp_analyze(&s, &o, &rep, &err) == 0);
    for (i = 0; i < rep.npods; i++)
        rep.pods[i].reported = true;
    a = report_for(&rep, "a");
    b = report_for(&rep, "b");
    CHECK(a && a->result == KP_RESULT_PREEMPTS);
    if (a && a->result == KP_RESULT_PREEMPTS)
        CHECK_EQ_STR(node_name(&s, a->nominated_node), "n1");
    CHECK(b && b->result == KP_RESULT_PREEMPTS);
    if (b && b->result == KP_RESULT_PREEMPTS) {
        CHECK_EQ_STR(node_name(&s, b->nominated_node), "n2");
        CHECK_EQ_INT(b->nvictims, 2);
        CHECK_EQ_INT(b->pdb_violations, 2);
    }
    kp_report_release(&rep);
    kp_snapshot_release(&s);
    unsetenv("KUBECTL_PREEMPT_PARALLELISM");
}

/*
 * SelectVictimsOnNode on sums (default_preemption.c, empty_on_sums and
 * reprieve_sums) counts pods as NodeResourcesFit does: n1 takes 2 pods
 * and holds a (priority 5) and b (priority 1).  p (priority 10) needs
 * one gone: the reprieve loop puts a back, then b does not fit, so b
 * alone is the victim.  With q nominated to n1 at p's own priority, the
 * nominated copy holds one pod more: neither fits back, and both go
 * (mutant: "on sums, the emptied node still counts its potential
 * victims as pods").
 */
#define POD_NODE(name)                                                     \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},"          \
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"16Gi\","       \
    "\"pods\":\"2\"}}}"

static void
test_rules__sums_count_the_pods(void)
{
    static const char *extra[2] = {"", "," XPOD("q", "10", "100m", "", T0,
                                                 "", "",
                                                 PENDING NOMINATED("n1"))};
    static const size_t want[2] = {1, 2};
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;
    char json[4096];
    int i;

    for (i = 0; i < 2; i++) {
        snprintf(json, sizeof(json), LIST(
            POD_NODE("n1") ","
            XPOD("a", "5", "100m", "n1", T0, "", "", RUNNING) ","
            XPOD("b", "1", "100m", "n1", T0, "", "", RUNNING) ","
            XPOD("p", "10", "100m", "", T1, "", "", PENDING) "%s"),
            extra[i]);
        CHECK(load_snapshot(&s, json) == 0);
        CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
        pr = report_for(&rep, "p");
        CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
        if (pr && pr->result == KP_RESULT_PREEMPTS) {
            CHECK_EQ_INT(pr->nvictims, want[i]);
            if (pr->nvictims == 1)
                CHECK_EQ_STR(pr->victims[0].pod->name, "b");
        }
        kp_report_release(&rep);
        kp_snapshot_release(&s);
    }
}

int
main(void)
{
    RUN(test_rules__equal_priority_terminating_pod_does_not_block);
    RUN(test_rules__unresolvable_nominated_node_does_not_block);
    RUN(test_rules__missing_start_time_is_the_latest);
    RUN(test_rules__fewest_victims_decide_when_sums_tie);
    RUN(test_rules__equal_priority_nomination_survives_a_preemption);
    RUN(test_rules__memo_sees_a_cleared_nomination);
    RUN(test_rules__memo_sees_a_node_that_filled_up);
    RUN(test_rules__memo_bypassed_on_own_nominated_node);
    RUN(test_rules__memo_signature_holds_the_priority);
    RUN(test_rules__memo_sees_a_spent_pdb_budget);
    RUN(test_rules__memo_keeps_partial_answers_apart);
    RUN(test_rules__sums_count_the_pods);
    return check_done();
}
