/*
 * test_at_turn.c - kp_analyze_at_turn (simulate.h, issue 26): a pod's
 * turn in the queue again, the decisions of the pods before it applied
 * as the run made them, the pod as it is now; what fixes.c re-runs a
 * fix with in queue mode.  And the numbers diagnosis_detail.c adds to
 * the diagnosis of a pod a spread constraint or a PDB holds back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "helpers.h"

/* n1 has room for one 2-CPU pod; a (priority 10) and b (5) both want it */
#define TWO_FOR_ONE                                                        \
    LIST(NODE("n1", "2", "110") ","                                        \
         POD("d", "a", "10", "2", "", "") ","                              \
         POD("d", "b", "5", "2", "", ""))

static struct kp_pod *
pod_named(struct kp_snapshot *s, const char *name)
{
    size_t i;

    for (i = 0; i < s->npods; i++)
        if (strcmp(s->pods[i]->name, name) == 0)
            return s->pods[i];
    return NULL;
}

/* b's turn comes after a took n1: Unschedulable, as in the run */
static void
test_at_turn__the_decisions_before_it_are_applied(void)
{
    struct kp_snapshot s;
    struct kp_report rep, out;
    struct kp_options o;
    struct kp_pod *b;

    CHECK(load_snapshot(&s, TWO_FOR_ONE) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    CHECK_EQ_INT(report_for(&rep, "a")->result, KP_RESULT_FITS);
    CHECK_EQ_INT(report_for(&rep, "b")->result, KP_RESULT_UNSCHEDULABLE);
    kp_options_init(&o);
    b = pod_named(&s, "b");
    CHECK(kp_analyze_at_turn(&s, &o, &rep, b, &out));
    CHECK_EQ_INT(out.npods, 1);
    CHECK_EQ_INT(out.pods[0].result, KP_RESULT_UNSCHEDULABLE);
    CHECK_EQ_INT(out.pods[0].queue_position, 2);
    kp_report_release(&out);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* raised above a, b's turn comes first: n1 is free then */
static void
test_at_turn__a_raised_priority_takes_the_earlier_turn(void)
{
    struct kp_snapshot s;
    struct kp_report rep, out;
    struct kp_options o;
    struct kp_pod *b;

    CHECK(load_snapshot(&s, TWO_FOR_ONE) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_QUEUE) == 0);
    kp_options_init(&o);
    b = pod_named(&s, "b");
    b->priority = 20;
    CHECK(kp_analyze_at_turn(&s, &o, &rep, b, &out));
    CHECK_EQ_INT(out.pods[0].result, KP_RESULT_FITS);
    CHECK_EQ_STR(s.nodes[out.pods[0].node]->name, "n1");
    CHECK_EQ_INT(out.pods[0].queue_position, 1);
    b->priority = 5;
    kp_report_release(&out);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* independent mode has no turn: the caller runs the pod alone */
static void
test_at_turn__not_in_independent_mode(void)
{
    struct kp_snapshot s;
    struct kp_report rep, out;
    struct kp_options o;

    CHECK(load_snapshot(&s, TWO_FOR_ONE) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    kp_options_init(&o);
    o.mode = KP_MODE_INDEPENDENT;
    CHECK(!kp_analyze_at_turn(&s, &o, &rep, pod_named(&s, "b"), &out));
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* the analysis with -o json's diagnosis */
static int
analyze_json(struct kp_snapshot *s, struct kp_report *rep)
{
    struct kp_options o;
    struct kp_error err = {0, ""};
    size_t i;

    kp_options_init(&o);
    o.output = KP_OUTPUT_JSON;
    kp_analyze_queue(s, &o, rep);
    for (i = 0; i < rep->npods; i++)
        rep->pods[i].reported = true;
    return kp_analyze_run(s, &o, rep, &err);
}

#define ZONED(name, zone, cpu)                                             \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":"  \
    "{\"zone\":\"" zone "\"}},\"status\":{\"allocatable\":{\"cpu\":\"" cpu  \
    "\",\"memory\":\"16Gi\",\"pods\":\"110\"}}}"
#define WEB(name, node)                                                    \
    POD("d", name, "5", "100m", node, ",\"labels\":{\"app\":\"web\"}")

/*
 * PodTopologySpread's numbers: zone a holds 2 web pods, b 1 (n2 has no
 * room left for the pod), n3 no zone label: minimum 1; a would be 3 - 1
 * = 2 > 1
 */
static void
test_diagnosis__spread_domains_minimum_and_skew(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, LIST(
        ZONED("n1", "a", "4") "," ZONED("n2", "b", "150m") ","
        NODE("n3", "4", "110") ","
        WEB("w1", "n1") "," WEB("w2", "n1") "," WEB("w3", "n2") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"p\","
        "\"labels\":{\"app\":\"web\"}},\"spec\":{\"priority\":5,"
        "\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":"
        "\"zone\",\"whenUnsatisfiable\":\"DoNotSchedule\",\"labelSelector\":"
        "{\"matchLabels\":{\"app\":\"web\"}}}],\"containers\":[{\"name\":"
        "\"c\",\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}]}}")) == 0);
    CHECK(analyze_json(&s, &rep) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->diagnosis_json);
    if (pr && pr->diagnosis_json) {
        CHECK(strstr(pr->diagnosis_json, "\"globalMinimum\": 1, "
                     "\"domainCount\": 2, \"domains\": [{\"value\": \"a\", "
                     "\"matchingPods\": 2, \"exceedsSkew\": true}, "
                     "{\"value\": \"b\", \"matchingPods\": 1, "
                     "\"exceedsSkew\": false}], \"domainsExceedingSkew\": 1, "
                     "\"nodesWithoutKey\": 1") != NULL);
        CHECK(strstr(pr->diagnosis_text, "selector app=web: 2 domain(s), "
                     "minimum 1; 1 would exceed maxSkew with the pod (a 2)")
              != NULL);
    }
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

int
main(void)
{
    RUN(test_at_turn__the_decisions_before_it_are_applied);
    RUN(test_at_turn__a_raised_priority_takes_the_earlier_turn);
    RUN(test_at_turn__not_in_independent_mode);
    RUN(test_diagnosis__spread_domains_minimum_and_skew);
    return check_done();
}
