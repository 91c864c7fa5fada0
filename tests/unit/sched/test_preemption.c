/*
 * test_preemption.c - SelectVictimsOnNode, the PDB split, SelectCandidate
 * and queue-mode effects, each on a small snapshot built from JSON.
 * Cites default_preemption.go / preemption.go behaviour per test.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "helpers.h"

/* The reprieve loop keeps the more important pod when one victim is enough */
static void
test_preemption__reprieve_keeps_more_important_pod(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "2", "10") ","
        POD("d", "low", "1", "1", "n1", "") ","
        POD("d", "mid", "5", "1", "n1", "") ","
        POD("d", "p", "10", "1", "", ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    CHECK_EQ_INT(pr->nvictims, 1);
    CHECK_EQ_STR(pr->victims[0].pod->name, "low");
    CHECK_EQ_STR(pr->decided_by, "onlyCandidate");
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* filterPodsWithPDBViolation: budget consumed in importance order */
static void
test_preemption__pdb_budget_consumed_in_importance_order(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "2", "10") ","
        POD("d", "a", "1", "1", "n1", ",\"labels\":{\"app\":\"x\"}") ","
        POD("d", "b", "0", "1", "n1", ",\"labels\":{\"app\":\"x\"}") ","
        "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"namespace\":\"d\","
        "\"name\":\"pdb\"},\"spec\":{\"selector\":{\"matchLabels\":"
        "{\"app\":\"x\"}}},\"status\":{\"disruptionsAllowed\":1}},"
        POD("d", "p", "10", "2", "", ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    CHECK_EQ_INT(pr->nvictims, 2);
    CHECK_EQ_STR(pr->victims[0].pod->name, "a");
    CHECK(!pr->victims[0].violates_pdb);
    CHECK(pr->victims[1].violates_pdb);
    CHECK_EQ_INT(pr->pdb_violations, 1);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* pickOneNodeForPreemption: fewer PDB violations beats fewer victims */
static void
test_preemption__fewest_pdb_violations_wins(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "1", "10") "," NODE("n2", "2", "10") ","
        POD("d", "guarded", "0", "1", "n1", ",\"labels\":{\"app\":\"x\"}") ","
        POD("d", "v1", "0", "1", "n2", "") ","
        POD("d", "v2", "0", "1", "n2", "") ","
        "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"namespace\":\"d\","
        "\"name\":\"pdb\"},\"spec\":{\"selector\":{\"matchLabels\":"
        "{\"app\":\"x\"}}},\"status\":{\"disruptionsAllowed\":0}},"
        POD("d", "p", "10", "1", "", ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    CHECK_EQ_STR(s.nodes[pr->nominated_node]->name, "n2");
    CHECK_EQ_STR(pr->decided_by, "pdbViolations");
    CHECK_EQ_INT(pr->ncandidates, 2);
    /* non-violating candidates come first in DryRunPreemption order */
    CHECK_EQ_STR(s.nodes[pr->candidates[0].node]->name, "n2");
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* a full tie on every criterion: the first candidate, said so */
static void
test_preemption__full_tie_picks_first_candidate(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "1", "10") "," NODE("n2", "1", "10") ","
        POD("d", "v1", "0", "1", "n1", "") ","
        POD("d", "v2", "0", "1", "n2", "") ","
        POD("d", "p", "10", "1", "", ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    CHECK_EQ_STR(s.nodes[pr->nominated_node]->name, "n1");
    CHECK_EQ_STR(pr->decided_by, "firstCandidate");
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* PodEligibleToPreemptOthers: preemptionPolicy Never */
static void
test_preemption__never_policy_is_not_eligible(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "1", "10") ","
        POD("d", "v1", "0", "1", "n1", "") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"p\"},"
        "\"spec\":{\"priority\":10,\"preemptionPolicy\":\"Never\","
        "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
        "{\"cpu\":\"1\"}}}]}}")) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_NOT_ELIGIBLE);
    CHECK(pr && strstr(pr->message,
                       "preemption: not eligible due to "
                       "preemptionPolicy=Never.") != NULL);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* queue mode: the first preemptor's nomination blocks an equal pod */
static void
test_preemption__queue_nomination_reserves_room(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *a, *b;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "1", "10") ","
        POD("d", "v1", "0", "1", "n1", "") ","
        POD("d", "p1", "10", "1", "", "") ","
        POD("d", "p2", "5", "1", "", ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    a = report_for(&rep, "p1");
    b = report_for(&rep, "p2");
    CHECK(a && a->result == KP_RESULT_PREEMPTS);
    /* v1 is gone, but p1's nomination holds n1 against p2 */
    CHECK(b && b->result == KP_RESULT_UNSCHEDULABLE);
    kp_report_release(&rep);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    b = report_for(&rep, "p2");
    CHECK(b && b->result == KP_RESULT_PREEMPTS);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* queue mode: a pod that fits fills the node for the next one */
static void
test_preemption__queue_placement_fills_node(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *b;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "1", "10") ","
        POD("d", "p1", "10", "1", "", "") ","
        POD("d", "p2", "10", "1", "", ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    CHECK(rep.pods[0].result == KP_RESULT_FITS);
    b = report_for(&rep, "p2");
    CHECK(b && b->result == KP_RESULT_UNSCHEDULABLE);
    CHECK(b && strstr(b->message, "1 No preemption victims found for "
                      "incoming pod") != NULL);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * schedule_one.go: with 100 nodes or more the filter pass stops after
 * numFeasibleNodesToFind (here 100 of 200) and the next cycle starts
 * where this one stopped (nextStartNodeIndex), so the second pod is
 * placed among nodes 100-199 and the third back among 0-99.
 */
static void
test_preemption__queue_filter_pass_rotates_start_node(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;
    char *json = malloc(200 * 256 + 4096);
    size_t len = 0, i;

    CHECK(json != NULL);
    len += (size_t)sprintf(json + len, "{\"kind\":\"List\",\"items\":[");
    for (i = 0; i < 200; i++) {
        char name[16];

        snprintf(name, sizeof(name), "n%03zu", i);
        len += (size_t)sprintf(json + len,
                               "{\"kind\":\"Node\",\"metadata\":{\"name\":"
                               "\"%s\"},\"status\":{\"allocatable\":"
                               "{\"cpu\":\"4\",\"memory\":\"16Gi\","
                               "\"pods\":\"110\"}}},", name);
    }
    len += (size_t)sprintf(json + len, "%s", POD("d", "p1", "10", "1", "", "")
                           "," POD("d", "p2", "10", "1", "", "") ","
                           POD("d", "p3", "10", "1", "", "") "]}");
    CHECK(load_snapshot(&s, json) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    pr = report_for(&rep, "p1");
    CHECK(pr && pr->result == KP_RESULT_FITS);
    CHECK(pr && pr->node == 0);
    pr = report_for(&rep, "p2");
    CHECK(pr && pr->result == KP_RESULT_FITS);
    CHECK(pr && pr->node == 100);
    pr = report_for(&rep, "p3");
    CHECK(pr && pr->result == KP_RESULT_FITS);
    CHECK(pr && pr->node == 1);
    kp_report_release(&rep);
    /* independent mode: every pod starts from the first node */
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p2");
    CHECK(pr && pr->node == 0);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
    free(json);
}

/*
 * NodeAffinity's PreFilter narrows the cycle to the nodes named by a
 * metadata.name field requirement; other nodes are not filtered at all
 * and get "didn't satisfy plugin(s) [NodeAffinity]", even when an
 * earlier filter (here NodeUnschedulable) would also reject them.
 */
static void
test_preemption__prefilter_node_names_narrow_the_pass(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n0\"},"
        "\"spec\":{\"unschedulable\":true},\"status\":{\"allocatable\":"
        "{\"cpu\":\"4\",\"memory\":\"16Gi\",\"pods\":\"10\"}}},"
        NODE("n1", "1", "10") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\","
        "\"name\":\"p\"},\"spec\":{\"priority\":10,\"affinity\":"
        "{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuring"
        "Execution\":{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":"
        "\"metadata.name\",\"operator\":\"In\",\"values\":[\"n1\"]}]}]}}},"
        "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
        "{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Pending\"}}")) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_UNSCHEDULABLE);
    CHECK(pr && strstr(pr->message, "0/2 nodes are available: 1 Insufficient "
                       "cpu, 1 node(s) didn't satisfy plugin(s) "
                       "[NodeAffinity].") != NULL);
    if (pr && !strstr(pr->message, "[NodeAffinity]."))
        printf("#   message: %s\n", pr->message);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * Queue mode: the victims of one preemption are gone for the next dry
 * run on the same node, the survivors are still candidates, and the
 * nominated pod of higher priority keeps its room (addGENominatedPods).
 */
static void
test_preemption__queue_second_dry_run_sees_removed_victims(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "3", "10") ","
        POD("d", "c1", "1", "1", "n1", "") ","
        POD("d", "c2", "2", "1", "n1", "") ","
        POD("d", "c3", "3", "1", "n1", "") ","
        POD("d", "p", "10", "1", "", "") ","
        POD("d", "q", "9", "1", "", ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS && pr->nvictims == 1);
    CHECK(pr && pr->nvictims == 1 &&
          strcmp(pr->victims[0].pod->name, "c1") == 0);
    pr = report_for(&rep, "q");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS && pr->nvictims == 1);
    CHECK(pr && pr->nvictims == 1 &&
          strcmp(pr->victims[0].pod->name, "c2") == 0);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/*
 * The victim table of a node: its pods most important first; rebuilt
 * when the cluster places or removes a pod, and built afresh when the
 * NodeInfo was changed another way.
 */
static void
test_preemption__victim_table_follows_node_changes(void)
{
    struct kp_snapshot s;
    struct kp_cluster cl;
    struct kp_arena a;
    const struct kp_victim_table *vt;

    CHECK(load_snapshot(&s, LIST(
        NODE("n1", "4", "10") ","
        POD("d", "low", "1", "1", "n1", "") ","
        POD("d", "high", "7", "2", "n1", "") ","
        POD("d", "mid", "3", "1", "", ""))) == 0);
    kp_cluster_init(&cl, &s, "default-scheduler");
    kp_arena_init(&a);
    vt = kp_victim_table_get(&cl, 0, &a);
    CHECK(vt == cl.vt[0] && vt->n == 2);
    CHECK(vt->n == 2 && strcmp(vt->pods[0]->name, "high") == 0 &&
          vt->prio[1] == 1);
    /* tail sums: row 0 is every pod's cpu, row 1 the last pod's */
    CHECK(vt->tail_req[0 * vt->nres + KP_RES_CPU] == 3000);
    CHECK(vt->tail_req[1 * vt->nres + KP_RES_CPU] == 1000);
    kp_cluster_place(&cl, kp_snapshot_pod(&s, "d", "mid"), 0);
    vt = kp_victim_table_get(&cl, 0, &a);
    CHECK(vt == cl.vt[0] && vt->n == 3);
    CHECK(vt->n == 3 && strcmp(vt->pods[1]->name, "mid") == 0 &&
          vt->pos[1] == 2);
    kp_cluster_remove(&cl, kp_snapshot_pod(&s, "d", "high"));
    vt = kp_victim_table_get(&cl, 0, &a);
    CHECK(vt->n == 2 && strcmp(vt->pods[0]->name, "mid") == 0);
    /* changed behind the cluster's back: a fresh table, not the stale one */
    kp_node_info_add(&cl.nodes[0], kp_snapshot_pod(&s, "d", "high"));
    vt = kp_victim_table_get(&cl, 0, &a);
    CHECK(vt != cl.vt[0] && vt->n == 3);
    CHECK(vt->n == 3 && strcmp(vt->pods[0]->name, "high") == 0 &&
          vt->pos[0] == 2);
    kp_node_info_remove(&cl.nodes[0], kp_snapshot_pod(&s, "d", "high"));
    kp_arena_release(&a);
    kp_cluster_release(&cl);
    kp_snapshot_release(&s);
}

/* zero nodes: kube-scheduler's ErrNoNodesAvailable */
static void
test_preemption__no_nodes_is_unschedulable(void)
{
    struct kp_snapshot s;
    struct kp_report rep;

    CHECK(load_snapshot(&s, LIST(POD("d", "p", "10", "1", "", ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    CHECK(rep.npods == 1 && rep.pods[0].result == KP_RESULT_UNSCHEDULABLE);
    CHECK_EQ_STR(rep.pods[0].message, "no nodes available to schedule pods");
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

int
main(void)
{
    RUN(test_preemption__reprieve_keeps_more_important_pod);
    RUN(test_preemption__pdb_budget_consumed_in_importance_order);
    RUN(test_preemption__fewest_pdb_violations_wins);
    RUN(test_preemption__full_tie_picks_first_candidate);
    RUN(test_preemption__never_policy_is_not_eligible);
    RUN(test_preemption__queue_nomination_reserves_room);
    RUN(test_preemption__queue_placement_fills_node);
    RUN(test_preemption__no_nodes_is_unschedulable);
    RUN(test_preemption__queue_second_dry_run_sees_removed_victims);
    RUN(test_preemption__victim_table_follows_node_changes);
    RUN(test_preemption__queue_filter_pass_rotates_start_node);
    RUN(test_preemption__prefilter_node_names_narrow_the_pass);
    return check_done();
}
