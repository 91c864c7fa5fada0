/*
 * test_filters.c - each Filter plugin on one node, checked through the
 * FitError text a user sees (reason strings as kube-scheduler's).
 */
#include "check.h"
#include "helpers.h"

static const char *
message_for(const char *json, const char *pod)
{
    static char buf[2048];
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    buf[0] = '\0';
    if (load_snapshot(&s, json) < 0)
        return "load failed";
    if (analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0) {
        pr = report_for(&rep, pod);
        snprintf(buf, sizeof(buf), "%s", pr && pr->message ? pr->message
                                                          : "(none)");
        kp_report_release(&rep);
    }
    kp_snapshot_release(&s);
    return buf;
}

#define PENDING(name, spec)                                                \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\""     \
    name "\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]" spec "}}"

static void
test_filters__unschedulable_node(void)
{
    CHECK_EQ_STR(message_for(LIST(
        "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":"
        "{\"unschedulable\":true},\"status\":{\"allocatable\":{\"pods\":"
        "\"10\"}}}," PENDING("p", "")), "p"),
        "0/1 nodes are available: 1 node(s) were unschedulable. no new "
        "claims to deallocate, preemption: 0/1 nodes are available: 1 "
        "Preemption is not helpful for scheduling.");
}

static void
test_filters__unschedulable_node_tolerated(void)
{
    CHECK_EQ_STR(message_for(LIST(
        "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":"
        "{\"unschedulable\":true},\"status\":{\"allocatable\":{\"pods\":"
        "\"10\"}}}," PENDING("p", ",\"tolerations\":[{\"key\":"
        "\"node.kubernetes.io/unschedulable\",\"operator\":\"Exists\","
        "\"effect\":\"NoSchedule\"}]")), "p"),
        "fits on node n without preemption");
}

static void
test_filters__untolerated_taint(void)
{
    CHECK_EQ_STR(message_for(LIST(
        "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":"
        "{\"taints\":[{\"key\":\"k\",\"value\":\"v\",\"effect\":"
        "\"NoExecute\"}]},\"status\":{\"allocatable\":{\"pods\":\"10\"}}},"
        PENDING("p", ",\"tolerations\":[{\"key\":\"k\",\"value\":\"w\"}]")),
        "p"),
        "0/1 nodes are available: 1 node(s) had untolerated taint(s). no new "
        "claims to deallocate, preemption: 0/1 nodes are available: 1 "
        "Preemption is not helpful for scheduling.");
}

static void
test_filters__prefer_no_schedule_taint_is_ignored(void)
{
    CHECK_EQ_STR(message_for(LIST(
        "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":"
        "{\"taints\":[{\"key\":\"k\",\"effect\":\"PreferNoSchedule\"}]},"
        "\"status\":{\"allocatable\":{\"pods\":\"10\"}}}," PENDING("p", "")),
        "p"), "fits on node n without preemption");
}

static void
test_filters__node_selector_mismatch(void)
{
    CHECK_EQ_STR(message_for(LIST(
        "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\",\"labels\":{\"a\":"
        "\"b\"}},\"status\":{\"allocatable\":{\"pods\":\"10\"}}},"
        PENDING("p", ",\"nodeSelector\":{\"a\":\"c\"}")), "p"),
        "0/1 nodes are available: 1 node(s) didn't match Pod's node "
        "affinity/selector. no new claims to deallocate, preemption: 0/1 "
        "nodes are available: 1 Preemption is not helpful for scheduling.");
}

static void
test_filters__too_many_pods_and_insufficient_cpu(void)
{
    CHECK_EQ_STR(message_for(LIST(
        NODE("n", "1", "1") "," POD("d", "r", "0", "500m", "n", "") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"p\"},"
        "\"spec\":{\"priority\":-1,\"containers\":[{\"name\":\"c\","
        "\"resources\":{\"requests\":{\"cpu\":\"600m\"}}}]}}"), "p"),
        "0/1 nodes are available: 1 Insufficient cpu, 1 Too many pods. no new "
        "claims to deallocate, preemption: 0/1 nodes are available: 1 No "
        "preemption victims found for incoming pod.");
}

/*
 * More reasons than a status keeps inline (KP_MAX_REASONS, framework.h):
 * a pod lacking seven resources on a full node, every one counted, in
 * the histogram's order
 */
static void
test_filters__seven_reasons_on_one_node(void)
{
    CHECK_EQ_STR(message_for(LIST(
        "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},"
        "\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"1Gi\","
        "\"ephemeral-storage\":\"1Gi\",\"pods\":\"1\",\"x.io/a\":\"1\","
        "\"x.io/b\":\"1\",\"x.io/c\":\"1\"}}},"
        POD("d", "r", "10", "0", "n", "") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"p\"},"
        "\"spec\":{\"priority\":5,\"containers\":[{\"name\":\"c\","
        "\"resources\":{\"requests\":{\"cpu\":\"2\",\"memory\":\"2Gi\","
        "\"ephemeral-storage\":\"2Gi\",\"x.io/a\":\"2\",\"x.io/b\":\"2\","
        "\"x.io/c\":\"2\"},\"limits\":{\"x.io/a\":\"2\",\"x.io/b\":\"2\","
        "\"x.io/c\":\"2\"}}}]}}"), "p"),
        "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient "
        "ephemeral-storage, 1 Insufficient memory, 1 Insufficient x.io/a, 1 "
        "Insufficient x.io/b, 1 Insufficient x.io/c, 1 Too many pods. no new "
        "claims to deallocate, preemption: 0/1 nodes are available: 1 "
        "Preemption is not helpful for scheduling.");
}

static void
test_filters__request_above_allocatable_is_unresolvable(void)
{
    CHECK_EQ_STR(message_for(LIST(
        NODE("n", "1", "10") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"p\"},"
        "\"spec\":{\"priority\":5,\"containers\":[{\"name\":\"c\","
        "\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]}}"), "p"),
        "0/1 nodes are available: 1 Insufficient cpu. no new claims to "
        "deallocate, preemption: 0/1 nodes are available: 1 Preemption is "
        "not helpful for scheduling.");
}

static void
test_filters__host_port_conflict(void)
{
    CHECK_EQ_STR(message_for(LIST(
        NODE("n", "4", "10") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"r\"},"
        "\"spec\":{\"nodeName\":\"n\",\"priority\":100,\"containers\":[{"
        "\"name\":\"c\",\"ports\":[{\"containerPort\":80,\"hostPort\":8080,"
        "\"hostIP\":\"10.0.0.1\"}]}]}},"
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"p\"},"
        "\"spec\":{\"containers\":[{\"name\":\"c\",\"ports\":[{"
        "\"containerPort\":80,\"hostPort\":8080}]}]}}"), "p"),
        "0/1 nodes are available: 1 node(s) didn't have free ports for the "
        "requested pod ports. no new claims to deallocate, preemption: 0/1 "
        "nodes are available: 1 No preemption victims found for incoming "
        "pod.");
}

static void
test_filters__sidecar_counts_next_to_app_containers(void)
{
    /* init 2 cpu; sidecar 1 cpu + app 1 cpu = 2: request is 2, fits 2 */
    CHECK_EQ_STR(message_for(LIST(
        NODE("n", "2", "10") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"p\"},"
        "\"spec\":{\"initContainers\":[{\"name\":\"s\",\"restartPolicy\":"
        "\"Always\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}},{\"name\":"
        "\"i\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"containers\":"
        "[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}"),
        "p"), "fits on node n without preemption");
}

int
main(void)
{
    RUN(test_filters__unschedulable_node);
    RUN(test_filters__unschedulable_node_tolerated);
    RUN(test_filters__untolerated_taint);
    RUN(test_filters__prefer_no_schedule_taint_is_ignored);
    RUN(test_filters__node_selector_mismatch);
    RUN(test_filters__too_many_pods_and_insufficient_cpu);
    RUN(test_filters__seven_reasons_on_one_node);
    RUN(test_filters__request_above_allocatable_is_unresolvable);
    RUN(test_filters__host_port_conflict);
    RUN(test_filters__sidecar_counts_next_to_app_containers);
    return check_done();
}
