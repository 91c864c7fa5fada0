/*
 * test_pod_topology_spread.c - rows of kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go
 * (TestSingleConstraint, TestMultipleConstraints, TestPreFilterState,
 * TestPreFilterStateAddPod, TestPreFilterStateRemovePod) on snapshots
 * built from JSON, plus matchLabelKeys and the selector parse error.
 *
 * Translation: NodeInclusionPolicyInPodTopologySpread is GA, so rows run
 * with it enabled (rows that only differ by the disabled gate give the
 * same result with the default policies).  A pod "added" or "removed"
 * by AddPod/RemovePod is a pending pod of the snapshot, so PreFilter
 * does not count it.
 */
#include "plugin_rows.h"
#include "plugin_state.h"

#define PLUGIN "PodTopologySpread"
#define R_SPREAD "node(s) didn't match pod topology spread constraints"
#define R_LABEL "node(s) didn't match pod topology spread constraints " \
    "(missing required label)"

struct pts_row {
    const char *name;
    const char *json;
    const char *want;   /* S, U, R per node */
};

static void
run_rows(const struct pts_row *rows, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        struct row_fixture fx;
        bool ok = row_setup(&fx, rows[i].json, "p") &&
                  fx.pre.code == KP_SUCCESS &&
                  row_check_filter(&fx, PLUGIN, rows[i].want, R_SPREAD,
                                   R_LABEL);

        if (!ok)
            printf("#   row: %s\n", rows[i].name);
        CHECK(ok);
        row_teardown(&fx);
    }
}

#define PN(name, zone) T_NODE(name, L("zone", zone) "," L("node", name))
#define NODES4 PN("node-a", "zone1") "," PN("node-b", "zone1") ","        \
    PN("node-x", "zone2") "," PN("node-y", "zone2")
#define FOO L("foo", "")
#define BAR L("bar", "")
#define FOO_SEL T_EXISTS("foo")
#define BAR_SEL T_EXISTS("bar")
#define ON(name, node) T_POD(name, node, FOO, "")
#define P_HARD(skew, key, sel, extra) T_TSC(skew, key, T_HARD, sel, extra)
#define P(labels, ...) T_POD("p", "", labels, T_SPREAD(__VA_ARGS__))
#define P_X(labels, spec, ...)                                             \
    T_POD("p", "", labels, spec T_SPREAD(__VA_ARGS__))
#define SPREAD_2103 ON("p-a1", "node-a") "," ON("p-a2", "node-a") ","      \
    ON("p-b1", "node-b") "," ON("p-y1", "node-y") "," ON("p-y2", "node-y") \
    "," ON("p-y3", "node-y")
#define NODE_AFF(op, key, vals)                                            \
    ",\"affinity\":{\"nodeAffinity\":{" T_REQ ":{\"nodeSelectorTerms\":"    \
    "[{\"matchExpressions\":[" T_EXPR(key, op, vals) "]}]}}}"
#define NODE_SEL_FOO ",\"nodeSelector\":{\"foo\":\"\"}"
#define UNSCHED_TAINT "\"taints\":[{\"key\":"                              \
    "\"node.kubernetes.io/unschedulable\",\"effect\":\"NoSchedule\"}]"
#define IN_NODE(name, node_labels)                                         \
    T_NODE(name, L("node", name) "," node_labels)
#define IGNORE_AFF ",\"nodeAffinityPolicy\":\"Ignore\""
#define HONOR_TAINTS ",\"nodeTaintsPolicy\":\"Honor\""
#define MIN_DOMAINS(n) ",\"minDomains\":" #n

/* ---- TestSingleConstraint ---- */

static const struct pts_row single_rows[] = {
    {"no existing pods",
     T_LIST(NODES4 "," P(FOO, P_HARD(1, "zone", FOO_SEL, ""))), "SSSS"},
    {"no existing pods, incoming pod doesn't match itself",
     T_LIST(NODES4 "," P(FOO, P_HARD(1, "zone", BAR_SEL, ""))), "SSSS"},
    {"existing pods in a different namespace do not count",
     T_LIST(NODES4 "," T_POD_X("ns1", "p-a1", "node-a", FOO, "", "") ","
            T_POD_X("ns2", "p-b1", "node-a", FOO, "", "") ","
            ON("p-x1", "node-x") "," ON("p-y1", "node-y") ","
            P(FOO, P_HARD(1, "zone", FOO_SEL, ""))), "SSUU"},
    {"existing pods do not match null selector",
     T_LIST(NODES4 "," ON("p-x1", "node-x") "," ON("p-y1", "node-y") ","
            P(FOO, P_HARD(1, "zone", "null", ""))), "SSSS"},
    {"pods spread across zones as 3/3, all nodes fit",
     T_LIST(NODES4 "," SPREAD_2103 "," P(FOO, P_HARD(1, "zone", FOO_SEL, ""))),
     "SSSS"},
    {"pods spread across zones as 1/2 due to absence of label 'zone' on "
     "node-b",
     T_LIST(PN("node-a", "zone1") ","
            T_NODE("node-b", L("zon", "zone1") "," L("node", "node-b")) ","
            PN("node-x", "zone2") "," PN("node-y", "zone2") ","
            ON("p-a1", "node-a") "," ON("p-b1", "node-b") ","
            ON("p-x1", "node-x") "," ON("p-y1", "node-y") ","
            P(FOO, P_HARD(1, "zone", FOO_SEL, ""))), "SRUU"},
    {"pod cannot be scheduled as all nodes don't have label 'rack'",
     T_LIST(PN("node-a", "zone1") "," PN("node-x", "zone2") ","
            P(FOO, P_HARD(1, "rack", FOO_SEL, ""))), "RR"},
    {"pods spread across nodes as 2/1/0/3, only node-x fits",
     T_LIST(NODES4 "," SPREAD_2103 "," P(FOO, P_HARD(1, "node", FOO_SEL, ""))),
     "UUSU"},
    {"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x "
     "fit",
     T_LIST(NODES4 "," SPREAD_2103 "," P(FOO, P_HARD(2, "node", FOO_SEL, ""))),
     "USSU"},
    {"pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
     T_LIST(NODES4 "," SPREAD_2103 "," P(BAR, P_HARD(1, "node", FOO_SEL, ""))),
     "USSU"},
    {"incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence "
     "node-a fits",
     T_LIST(NODES4 "," SPREAD_2103 "," P_X(FOO,
            NODE_AFF("In", "node", Q("node-a") "," Q("node-y")),
            P_HARD(1, "node", FOO_SEL, ""))), "SSSU"},
    {"terminating Pods should be excluded",
     T_LIST(T_NODE("node-a", L("node", "node-a")) ","
            T_NODE("node-b", L("node", "node-b")) ","
            T_POD_X("default", "p-a", "node-a", FOO, T_TERMINATING, "") ","
            ON("p-b", "node-b") "," P(FOO, P_HARD(1, "node", FOO_SEL, ""))),
     "SU"},
    {"incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a "
     "fits",
     T_LIST(NODES4 "," ON("p-b1", "node-b") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") "," P_X(FOO,
            NODE_AFF("NotIn", "node", Q("node-b")),
            P_HARD(1, "zone", FOO_SEL, ""))), "SSUU"},
    {"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of "
     "domains < minDomains, then the third node fits",
     T_LIST(T_NODE("node-a", L("node", "node-a")) ","
            T_NODE("node-b", L("node", "node-b")) ","
            T_NODE("node-c", L("node", "node-c")) ","
            ON("p-a1", "node-a") "," ON("p-a2", "node-a") ","
            ON("p-b1", "node-b") "," ON("p-b2", "node-b") ","
            ON("p-c1", "node-c") ","
            P(FOO, P_HARD(2, "node", FOO_SEL, MIN_DOMAINS(4)))), "UUS"},
    {"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of "
     "domains > minDomains, then the all nodes fit",
     T_LIST(T_NODE("node-a", L("node", "node-a")) ","
            T_NODE("node-b", L("node", "node-b")) ","
            T_NODE("node-c", L("node", "node-c")) ","
            ON("p-a1", "node-a") "," ON("p-a2", "node-a") ","
            ON("p-b1", "node-b") "," ON("p-b2", "node-b") ","
            ON("p-c1", "node-c") ","
            P(FOO, P_HARD(2, "node", FOO_SEL, MIN_DOMAINS(2)))), "SSS"},
    {"pods spread across zone as 2/1, maxSkew is 2 and the number of "
     "domains < minDomains, then the third and fourth nodes fit",
     T_LIST(NODES4 "," ON("p-b1", "node-a") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") ","
            P(FOO, P_HARD(2, "zone", FOO_SEL, MIN_DOMAINS(3)))), "UUSS"},
    {"pods spread across zone as 2/1, maxSkew is 2 and the number of "
     "domains > minDomains, then the all nodes fit",
     T_LIST(NODES4 "," ON("p-b1", "node-a") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") ","
            P(FOO, P_HARD(2, "zone", FOO_SEL, MIN_DOMAINS(1)))), "SSSS"},
    {"NodeAffinityPolicy honored with labelSelectors",
     T_LIST(IN_NODE("node-a", FOO) "," IN_NODE("node-b", FOO) ","
            IN_NODE("node-x", FOO) "," T_NODE("node-y", L("node", "node-y"))
            "," ON("p-b1", "node-a") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") ","
            P_X(FOO, NODE_SEL_FOO, P_HARD(1, "node", FOO_SEL, ""))), "UUSS"},
    {"NodeAffinityPolicy ignored with labelSelectors",
     T_LIST(IN_NODE("node-a", FOO) "," IN_NODE("node-b", FOO) ","
            IN_NODE("node-x", FOO) "," T_NODE("node-y", L("node", "node-y"))
            "," ON("p-b1", "node-a") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") ","
            P_X(FOO, NODE_SEL_FOO, P_HARD(1, "node", FOO_SEL, IGNORE_AFF))),
     "UUSU"},
    {"NodeAffinityPolicy honored with nodeAffinity",
     T_LIST(IN_NODE("node-a", FOO) "," IN_NODE("node-b", FOO) ","
            IN_NODE("node-x", FOO) "," T_NODE("node-y", L("node", "node-y"))
            "," ON("p-b1", "node-a") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") ","
            P_X(FOO, NODE_AFF("In", "foo", Q("")),
                P_HARD(1, "node", FOO_SEL, ""))), "UUSS"},
    {"NodeAffinityPolicy ignored with labelSelectors (nodeAffinity row)",
     T_LIST(IN_NODE("node-a", FOO) "," IN_NODE("node-b", FOO) ","
            IN_NODE("node-x", FOO) "," T_NODE("node-y", L("node", "node-y"))
            "," ON("p-b1", "node-a") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") ","
            P_X(FOO, NODE_AFF("In", "foo", Q("")),
                P_HARD(1, "node", FOO_SEL, IGNORE_AFF))), "UUSU"},
    {"NodeTaintsPolicy honored",
     T_LIST(IN_NODE("node-a", FOO) "," IN_NODE("node-b", FOO) ","
            IN_NODE("node-x", FOO) ","
            T_NODE_X("node-y", L("node", "node-y"), UNSCHED_TAINT,
                     "\"pods\":\"110\"") ","
            ON("p-b1", "node-a") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") ","
            P(FOO, P_HARD(1, "node", FOO_SEL, HONOR_TAINTS))), "UUSS"},
    {"NodeTaintsPolicy ignored",
     T_LIST(IN_NODE("node-a", FOO) "," IN_NODE("node-b", FOO) ","
            IN_NODE("node-x", FOO) ","
            T_NODE_X("node-y", L("node", "node-y"), UNSCHED_TAINT,
                     "\"pods\":\"110\"") ","
            ON("p-b1", "node-a") "," ON("p-b2", "node-b") ","
            ON("p-y1", "node-y") ","
            P(FOO, P_HARD(1, "node", FOO_SEL, ""))), "UUSU"},
};

static void
test_pod_topology_spread__single_constraint(void)
{
    run_rows(single_rows, sizeof(single_rows) / sizeof(single_rows[0]));
}

/* ---- TestMultipleConstraints ---- */

#define ZONE_NODE(zsel, zx, nsel, nx)                                      \
    P_HARD(1, "zone", zsel, zx) "," P_HARD(1, "node", nsel, nx)
#define FOO_BAR FOO "," BAR
#define ZN(name, zone, extra)                                              \
    T_NODE(name, L("zone", zone) "," L("node", name) extra)
#define ZN_T(name, zone, extra)                                            \
    T_NODE_X(name, L("zone", zone) "," L("node", name) extra,              \
             UNSCHED_TAINT, "\"pods\":\"110\"")

static const struct pts_row multi_rows[] = {
    {"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
     T_LIST(NODES4 "," SPREAD_2103 ","
            P(FOO, ZONE_NODE(FOO_SEL, "", FOO_SEL, ""))), "UUSU"},
    {"two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
     T_LIST(NODES4 "," SPREAD_2103 "," ON("p-y4", "node-y") ","
            P(FOO, ZONE_NODE(FOO_SEL, "", FOO_SEL, ""))), "UUUU"},
    {"Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
     T_LIST(NODES4 "," ON("p-a1", "node-a") ","
            T_POD("p-y1", "node-y", BAR, "") ","
            P(FOO_BAR, ZONE_NODE(FOO_SEL, "", BAR_SEL, ""))), "UUSU"},
    {"Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
     T_LIST(NODES4 "," ON("p-a1", "node-a") ","
            T_POD("p-x1", "node-x", BAR, "") ","
            T_POD("p-y1", "node-y", BAR, "") ","
            P(FOO_BAR, ZONE_NODE(FOO_SEL, "", BAR_SEL, ""))), "UUUU"},
    {"Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
     T_LIST(NODES4 "," ON("p-a1", "node-a") ","
            T_POD("p-a2", "node-a", FOO_BAR, "") "," ON("p-y1", "node-y") ","
            T_POD("p-y2", "node-y", FOO_BAR, "") "," ON("p-y3", "node-y") ","
            P(FOO_BAR, ZONE_NODE(FOO_SEL, "", BAR_SEL, ""))), "USUU"},
    {"Constraints hold different labelSelectors but pod doesn't match itself "
     "on 'zone' constraint",
     T_LIST(NODES4 "," ON("p-a1", "node-a") ","
            T_POD("p-x1", "node-x", BAR, "") ","
            T_POD("p-y1", "node-y", BAR, "") ","
            P(BAR, ZONE_NODE(FOO_SEL, "", BAR_SEL, ""))), "SSUU"},
    {"two Constraints on zone and node, absence of label 'node' on node-x, "
     "spreads = [1/1, 1/0/0/1]",
     T_LIST(PN("node-a", "zone1") "," PN("node-b", "zone1") ","
            T_NODE("node-x", L("zone", "zone2")) "," PN("node-y", "zone2")
            "," ON("p-a1", "node-a") "," ON("p-y3", "node-y") ","
            P(FOO, ZONE_NODE(FOO_SEL, "", FOO_SEL, ""))), "USRU"},
    {"two node inclusion Constraints, zone: honor/ignore, node: "
     "ignore/ignore",
     T_LIST(ZN("node-a", "zone1", "," FOO) "," ZN("node-b", "zone1", ","
            FOO) "," ZN("node-x", "zone2", "," FOO) ","
            ZN("node-y", "zone2", "") "," ON("p-a1", "node-a") ","
            ON("p-b1", "node-b") "," ON("p-y1", "node-y") ","
            P_X(FOO, NODE_SEL_FOO,
                ZONE_NODE(FOO_SEL, "", FOO_SEL, IGNORE_AFF))), "UUSU"},
    {"two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
     T_LIST(ZN("node-a", "zone1", "," FOO) "," ZN("node-b", "zone1", ","
            FOO) "," ZN("node-x", "zone2", "," FOO) ","
            ZN_T("node-y", "zone2", "") "," ON("p-a1", "node-a") ","
            ON("p-b1", "node-b") "," ON("p-y1", "node-y") ","
            P(FOO, ZONE_NODE(FOO_SEL, HONOR_TAINTS, FOO_SEL, ""))), "UUSU"},
    {"two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
     T_LIST(ZN("node-a", "zone1", "," FOO) "," ZN("node-b", "zone1", "") ","
            ZN("node-x", "zone2", "," FOO) "," ZN_T("node-y", "zone2", ","
            FOO) "," ON("p-a1", "node-a") "," ON("p-b1", "node-b") ","
            ON("p-y1", "node-y") ","
            P_X(FOO, NODE_SEL_FOO, ZONE_NODE(FOO_SEL, "", FOO_SEL, ""))),
     "USSU"},
    {"two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
     T_LIST(ZN("node-a", "zone1", "," FOO) "," ZN("node-b", "zone1", "") ","
            ZN("node-x", "zone2", "," FOO) "," ZN_T("node-y", "zone2", ","
            FOO) "," ON("p-a1", "node-a") "," ON("p-b1", "node-b") ","
            ON("p-y1", "node-y") ","
            P_X(FOO, NODE_SEL_FOO,
                ZONE_NODE(FOO_SEL, HONOR_TAINTS, FOO_SEL, IGNORE_AFF))),
     "UUSU"},
};

static void
test_pod_topology_spread__multiple_constraints(void)
{
    run_rows(multi_rows, sizeof(multi_rows) / sizeof(multi_rows[0]));
}

/* ---- TestPreFilterState ---- */

struct domain_want {
    size_t constraint;
    const char *value;
    int64_t n;
};

/* Compare TpValueToMatchNum entries, domain counts and minimums. */
static void
check_state(const char *name, const void *st,
            const struct domain_want *want, size_t nwant,
            const size_t *domains, const int64_t *mins, size_t ncons)
{
    bool ok = kp_pts_state_nconstraints(st) == ncons;
    size_t i;

    for (i = 0; ok && i < nwant; i++)
        ok = kp_pts_state_match_num(st, want[i].constraint,
                                    want[i].value) == want[i].n;
    for (i = 0; ok && i < ncons; i++)
        ok = kp_pts_state_domains(st, i) == domains[i] &&
             kp_pts_state_min_match(st, i) == mins[i];
    if (!ok)
        printf("#   row: %s\n", name);
    CHECK(ok);
}

static void
test_pod_topology_spread__pre_filter_state(void)
{
    static const struct domain_want w1[] = {{0, "zone1", 0}, {0, "zone2", 0}};
    static const struct domain_want w2[] = {{0, "zone1", 3}, {0, "zone2", 2}};
    static const struct domain_want w3[] = {
        {0, "zone1", 3}, {0, "zone2", 2}, {0, "zone3", 0}};
    static const struct domain_want w4[] = {{0, "zone1", 2}, {0, "zone2", 1}};
    static const struct domain_want w5[] = {
        {0, "zone1", 3}, {0, "zone2", 4}, {1, "node-a", 2},
        {1, "node-b", 1}, {1, "node-x", 0}, {1, "node-y", 4}};
    static const size_t d2[] = {2}, d3[] = {3}, d24[] = {2, 4};
    static const int64_t m0[] = {0}, m2[] = {2}, m1[] = {1}, m30[] = {3, 0};
    struct row_fixture fx;
    int idx = row_plugin_index(PLUGIN);

    CHECK(row_setup(&fx, T_LIST(NODES4 "," P(FOO, P_HARD(5, "zone",
          "{\"matchLabels\":{\"foo\":\"bar\"}}", ""))), "p"));
    check_state("clean cluster with one spreadConstraint", fx.c.state[idx],
                w1, 2, d2, m0, 1);
    row_teardown(&fx);
    CHECK(row_setup(&fx, T_LIST(NODES4 "," ON("p-a1", "node-a") ","
          ON("p-a2", "node-a") "," ON("p-b1", "node-b") ","
          ON("p-y1", "node-y") "," ON("p-y2", "node-y") ","
          P(FOO, P_HARD(1, "zone", FOO_SEL, ""))), "p"));
    check_state("normal case with one spreadConstraint", fx.c.state[idx],
                w2, 2, d2, m2, 1);
    row_teardown(&fx);
    CHECK(row_setup(&fx, T_LIST(NODES4 "," ON("p-a1", "node-a") ","
          ON("p-y1", "node-y") "," P(FOO, P_HARD(1, "zone", "null", ""))),
          "p"));
    check_state("normal case with null label selector", fx.c.state[idx],
                w1, 2, d2, m0, 1);
    row_teardown(&fx);
    CHECK(row_setup(&fx, T_LIST(NODES4 "," PN("node-o", "zone3") ","
          PN("node-p", "zone3") "," ON("p-a1", "node-a") ","
          ON("p-a2", "node-a") "," ON("p-b1", "node-b") ","
          ON("p-y1", "node-y") "," ON("p-y2", "node-y") ","
          P(FOO, P_HARD(1, "zone", FOO_SEL, ""))), "p"));
    check_state("normal case with one spreadConstraint, on a 3-zone cluster",
                fx.c.state[idx], w3, 3, d3, m0, 1);
    row_teardown(&fx);
    CHECK(row_setup(&fx, T_LIST(NODES4 "," ON("p-a1", "node-a") ","
          T_POD_X("ns1", "p-a2", "node-a", FOO, "", "") ","
          ON("p-b1", "node-b") ","
          T_POD_X("ns2", "p-y1", "node-y", FOO, "", "") ","
          ON("p-y2", "node-y") "," P(FOO, P_HARD(1, "zone", FOO_SEL, ""))),
          "p"));
    check_state("namespace mismatch doesn't count", fx.c.state[idx], w4, 2,
                d2, m1, 1);
    row_teardown(&fx);
    CHECK(row_setup(&fx, T_LIST(NODES4 "," SPREAD_2103 ","
          ON("p-y4", "node-y") "," P(FOO, ZONE_NODE(FOO_SEL, "", FOO_SEL,
          ""))), "p"));
    check_state("normal case with two spreadConstraints", fx.c.state[idx],
                w5, 6, d24, m30, 2);
    row_teardown(&fx);
}

/* "soft spreadConstraints should be bypassed", and no hard one: Skip */
static void
test_pod_topology_spread__soft_constraints_are_bypassed(void)
{
    static const struct domain_want w[] = {
        {0, "zone1", 3}, {0, "zone2", 4}, {1, "node-a", 2},
        {1, "node-b", 1}, {1, "node-y", 4}};
    static const size_t d[] = {2, 3};
    static const int64_t m[] = {3, 1};
    struct row_fixture fx;
    int idx = row_plugin_index(PLUGIN);

    CHECK(row_setup(&fx, T_LIST(PN("node-a", "zone1") ","
          PN("node-b", "zone1") "," PN("node-y", "zone2") ","
          ON("p-a1", "node-a") "," ON("p-a2", "node-a") ","
          ON("p-b1", "node-b") "," ON("p-y1", "node-y") ","
          ON("p-y2", "node-y") "," ON("p-y3", "node-y") ","
          ON("p-y4", "node-y") "," P(FOO,
          T_TSC(1, "zone", T_SOFT, FOO_SEL, "") ","
          P_HARD(1, "zone", FOO_SEL, "") ","
          T_TSC(1, "node", T_SOFT, FOO_SEL, "") ","
          P_HARD(1, "node", FOO_SEL, ""))), "p"));
    check_state("soft spreadConstraints should be bypassed", fx.c.state[idx],
                w, 5, d, m, 2);
    row_teardown(&fx);
    CHECK(row_setup(&fx, T_LIST(NODES4 "," P(FOO, T_TSC(1, "zone", T_SOFT,
          FOO_SEL, ""))), "p"));
    CHECK(fx.c.skip[idx]);
    row_teardown(&fx);
}

/* ---- TestPreFilterStateAddPod / RemovePod ---- */

/* Apply AddPod (add) or RemovePod of the pending pod "q" on node. */
static void
check_update(const char *name, const char *json, const char *node, bool add,
             const struct domain_want *want, size_t nwant,
             const int64_t *mins, size_t ncons)
{
    struct row_fixture fx;
    int idx = row_plugin_index(PLUGIN);
    const struct kp_pod *q;
    struct kp_node_info *ni;
    size_t domains[4];
    size_t i;

    CHECK(row_setup(&fx, json, "p"));
    q = kp_snapshot_pod(&fx.s, "default", "q");
    if (!q)
        q = kp_snapshot_pod(&fx.s, "ns1", "q");
    ni = row_clone_node(&fx, row_node(&fx, node));
    if (add)
        kp_cycle_add_pod(&fx.c, ni, q);
    else
        kp_cycle_remove_pod(&fx.c, ni, q);
    for (i = 0; i < ncons; i++)
        domains[i] = kp_pts_state_domains(fx.c.state[idx], i);
    check_state(name, fx.c.state[idx], want, nwant, domains, mins, ncons);
    row_teardown(&fx);
}

#define Q_POD(labels) T_POD("q", "", labels, "")
#define NODE_C P_HARD(1, "node", FOO_SEL, "")
#define TWO_NODES_Z1 PN("node-a", "zone1") "," PN("node-b", "zone1")
#define A_X PN("node-a", "zone1") "," PN("node-x", "zone2")
#define A_B_X PN("node-a", "zone1") "," PN("node-b", "zone1") ","           \
    PN("node-x", "zone2")

static void
test_pod_topology_spread__add_pod_updates_counts(void)
{
    static const struct domain_want a1[] = {{0, "node-a", 1},
                                            {0, "node-b", 1}};
    static const struct domain_want a2[] = {{0, "node-a", 0},
                                            {0, "node-b", 1}};
    static const struct domain_want a3[] = {{0, "node-a", 0},
                                            {0, "node-b", 2}};
    static const struct domain_want a4[] = {
        {0, "zone1", 1}, {0, "zone2", 0}, {1, "node-a", 1}, {1, "node-x", 0}};
    static const struct domain_want a5[] = {
        {0, "zone1", 1}, {0, "zone2", 1}, {1, "node-a", 1}, {1, "node-x", 1}};
    static const struct domain_want a6[] = {
        {0, "zone1", 3}, {0, "zone2", 1}, {1, "node-a", 1},
        {1, "node-b", 2}, {1, "node-x", 1}};
    static const struct domain_want a7[] = {
        {0, "zone1", 2}, {0, "zone2", 1}, {1, "node-a", 0},
        {1, "node-b", 1}, {1, "node-x", 2}};
    static const struct domain_want a8[] = {
        {0, "zone1", 1}, {0, "zone2", 1}, {1, "node-a", 1},
        {1, "node-b", 1}, {1, "node-x", 2}};
    static const int64_t m1[] = {1}, m0[] = {0}, m00[] = {0, 0};
    static const int64_t m11[] = {1, 1}, m10[] = {1, 0};

    check_update("only node a impacts current min match",
                 T_LIST(TWO_NODES_Z1 "," ON("p-b1", "node-b") ","
                        Q_POD(FOO) "," P(FOO, NODE_C)),
                 "node-a", true, a1, 2, m1, 1);
    check_update("add a pod in a different namespace doesn't change "
                 "topologyKeyToMinPodsMap",
                 T_LIST(TWO_NODES_Z1 "," ON("p-b1", "node-b") ","
                        T_POD_X("ns1", "q", "", FOO, "", "") ","
                        P(FOO, NODE_C)),
                 "node-a", true, a2, 2, m0, 1);
    check_update("add pod on non-critical node won't trigger re-calculation",
                 T_LIST(TWO_NODES_Z1 "," ON("p-b1", "node-b") ","
                        Q_POD(FOO) "," P(FOO, NODE_C)),
                 "node-b", true, a3, 2, m0, 1);
    check_update("node a and x both impact topologyKeyToMinPodsMap on zone "
                 "and node",
                 T_LIST(A_X "," Q_POD(FOO) "," P(FOO, ZONE_NODE(FOO_SEL,
                        "", FOO_SEL, ""))),
                 "node-a", true, a4, 4, m00, 2);
    check_update("only node a impacts topologyKeyToMinPodsMap on zone and "
                 "node",
                 T_LIST(A_X "," ON("p-x1", "node-x") "," Q_POD(FOO) ","
                        P(FOO, ZONE_NODE(FOO_SEL, "", FOO_SEL, ""))),
                 "node-a", true, a5, 4, m11, 2);
    check_update("node a impacts topologyKeyToMinPodsMap on node, node x "
                 "impacts topologyKeyToMinPodsMap on zone",
                 T_LIST(A_B_X "," ON("p-b1", "node-b") "," ON("p-b2", "node-b")
                        "," ON("p-x1", "node-x") "," Q_POD(FOO) ","
                        P(FOO, ZONE_NODE(FOO_SEL, "", FOO_SEL, ""))),
                 "node-a", true, a6, 5, m11, 2);
    check_update("Constraints hold different labelSelectors, node a impacts "
                 "topologyKeyToMinPodsMap on zone",
                 T_LIST(A_B_X "," T_POD("p-b1", "node-b", FOO_BAR, "") ","
                        T_POD("p-x1", "node-x", FOO_BAR, "") ","
                        T_POD("p-x2", "node-x", BAR, "") "," Q_POD(FOO)
                        "," P(FOO_BAR, ZONE_NODE(FOO_SEL, "", BAR_SEL, ""))),
                 "node-a", true, a7, 5, m10, 2);
    check_update("Constraints hold different labelSelectors, node a impacts "
                 "topologyKeyToMinPodsMap on both zone and node",
                 T_LIST(A_B_X "," T_POD("p-b1", "node-b", BAR, "") ","
                        T_POD("p-x1", "node-x", FOO_BAR, "") ","
                        T_POD("p-x2", "node-x", BAR, "") ","
                        Q_POD(FOO_BAR) "," P(FOO_BAR, ZONE_NODE(FOO_SEL,
                        "", BAR_SEL, ""))),
                 "node-a", true, a8, 5, m11, 2);
}

#define AB_FOO T_NODE("node-a", L("zone", "zone1") "," L("node", "node-a")  \
    "," L("foo", "bar")) "," T_NODE("node-b", L("zone", "zone2") ","       \
    L("node", "node-b") "," L("foo", ""))

static void
test_pod_topology_spread__update_respects_node_inclusion(void)
{
    static const struct domain_want u1[] = {{0, "zone2", 1}};
    static const struct domain_want u2[] = {{0, "zone1", 1},
                                            {0, "zone2", 2}};
    static const struct domain_want r1[] = {{0, "zone1", 1},
                                            {0, "zone2", 0}};
    static const int64_t m1[] = {1}, m0[] = {0};

    check_update("add a pod when scheduling node affinity unmatched pod "
                 "with NodeInclusionPolicy enabled",
                 T_LIST(AB_FOO "," ON("p-a2", "node-a") ","
                        ON("p-b1", "node-b") "," Q_POD(FOO) ","
                        P_X(FOO, NODE_AFF("NotIn", "foo", Q("bar")),
                            P_HARD(1, "zone", FOO_SEL, ""))),
                 "node-a", true, u1, 1, m1, 1);
    check_update("add a pod when scheduling node affinity matched pod with "
                 "NodeInclusionPolicy enabled",
                 T_LIST(AB_FOO "," ON("p-a1", "node-a") ","
                        ON("p-b2", "node-b") "," Q_POD(FOO) ","
                        P(FOO, P_HARD(1, "zone", FOO_SEL, ""))),
                 "node-b", true, u2, 2, m1, 1);
    check_update("remove a pod when scheduling node affinity matched pod "
                 "with NodeInclusionPolicy enabled",
                 T_LIST(AB_FOO "," ON("p-a1", "node-a") ","
                        ON("p-b2", "node-b") "," Q_POD(FOO) ","
                        P(FOO, P_HARD(1, "zone", FOO_SEL, ""))),
                 "node-b", false, r1, 2, m0, 1);
}

/* ---- beyond the upstream tables ---- */

/* filterTopologySpreadConstraints: matchLabelKeys ANDs key In (value of
 * the pod's own label) into the selector. */
static void
test_pod_topology_spread__match_label_keys_narrow_the_selector(void)
{
    struct row_fixture fx;

    CHECK(row_setup(&fx, T_LIST(
        T_NODE("n1", L("node", "n1")) "," T_NODE("n2", L("node", "n2")) ","
        T_POD("a1", "n1", L("app", "a") "," L("version", "v1"), "") ","
        T_POD("a2", "n1", L("app", "a") "," L("version", "v1"), "") ","
        T_POD("b1", "n2", L("app", "a") "," L("version", "v2"), "") ","
        T_POD("b2", "n2", L("app", "a") "," L("version", "v2"), "") ","
        T_POD("b3", "n2", L("app", "a") "," L("version", "v2"), "") ","
        T_POD("p", "", L("app", "a") "," L("version", "v1"),
              T_SPREAD(P_HARD(1, "node", T_EXISTS("app"),
                              ",\"matchLabelKeys\":[\"version\"]")))), "p"));
    CHECK(row_check_filter(&fx, PLUGIN, "US", R_SPREAD, R_LABEL));
    row_teardown(&fx);
}

/* matchLabelKeys on an empty selector: the merged selector is the
 * matchLabelKeys requirement alone (memcpy of the selector's NULL
 * requirement list, found by fuzz_load, was undefined behaviour). */
static void
test_pod_topology_spread__match_label_keys_on_empty_selector(void)
{
    struct row_fixture fx;

    CHECK(row_setup(&fx, T_LIST(
        T_NODE("n1", L("node", "n1")) "," T_NODE("n2", L("node", "n2")) ","
        T_POD("a1", "n1", L("app", "a") "," L("version", "v1"), "") ","
        T_POD("a2", "n1", L("app", "a") "," L("version", "v1"), "") ","
        T_POD("b1", "n2", L("app", "a") "," L("version", "v2"), "") ","
        T_POD("p", "", L("app", "a") "," L("version", "v1"),
              T_SPREAD(P_HARD(1, "node", "{}",
                              ",\"matchLabelKeys\":[\"version\"]")))), "p"));
    CHECK(row_check_filter(&fx, PLUGIN, "US", R_SPREAD, R_LABEL));
    row_teardown(&fx);
}

/* An empty selector counts no pod (countPodsMatchSelector) although the
 * pod matches itself: skew is at most 1 everywhere. */
static void
test_pod_topology_spread__empty_selector_counts_nothing(void)
{
    struct row_fixture fx;

    CHECK(row_setup(&fx, T_LIST(
        T_NODE("n1", L("node", "n1")) "," T_NODE("n2", L("node", "n2")) ","
        ON("a1", "n1") "," ON("a2", "n1") ","
        P(FOO, P_HARD(1, "node", "{}", ""))), "p"));
    CHECK(row_check_filter(&fx, PLUGIN, "SS", R_SPREAD, R_LABEL));
    row_teardown(&fx);
}

/* A matchExpressions value the API no longer accepts: PreFilter errors
 * with LabelSelectorAsSelector's text. */
static void
test_pod_topology_spread__invalid_selector_errors(void)
{
    static const char want[] = "get constraints from pod: obtaining "
        "pod's hard topology spread constraints: values[0][foo]: Invalid "
        "value: \"{{.bad-value.}}\": a valid label must";
    struct row_fixture fx;

    CHECK(row_setup(&fx, T_LIST(T_NODE("n1", L("node", "n1")) "," P(FOO,
          P_HARD(1, "node", T_IN("foo", Q("{{.bad-value.}}")), ""))), "p"));
    CHECK_EQ_INT(fx.pre.code, KP_ERROR);
    CHECK(fx.pre.nreasons == 1 &&
          strncmp(fx.pre.reasons[0], want, strlen(want)) == 0);
    row_teardown(&fx);
}

/* ---- RemovePod against recomputation, on generated clusters ---- */

#define GEN_NODES 6
#define GEN_PODS 18

/* Nodes n0..n5 in zones z0..z2 (n5 without a zone label), pods app=a|b
 * spread at random; pods on node skip are left out. */
static void
gen_spread_cluster(struct gen_buf *b, unsigned seed, int skip)
{
    int i;

    b->n = 0;
    gen_printf(b, "{\"kind\":\"List\",\"items\":[");
    for (i = 0; i < GEN_NODES; i++) {
        char zone[32] = "";

        if (i != 5)
            snprintf(zone, sizeof(zone), ",\"zone\":\"z%d\"", i % 3);
        gen_printf(b, "{\"kind\":\"Node\",\"metadata\":{\"name\":"
                   "\"n%d\",\"labels\":{\"host\":\"n%d\"%s}}},", i, i, zone);
    }
    for (i = 0; i < GEN_PODS; i++) {
        int node = (int)(gen_rand(&seed) % GEN_NODES);
        char app = gen_rand(&seed) % 3 ? 'a' : 'b';

        if (node != skip)
            gen_printf(b, T_POD("e%d", "n%d", "\"app\":\"%c\"", "") ",",
                       i, app, node);
    }
    gen_printf(b, T_POD("p", "", L("app", "a"), T_SPREAD(
        T_TSC(1, "zone", T_HARD, T_IN("app", Q("a")), "%s") ","
        T_TSC(%u, "host", T_HARD, T_IN("app", Q("a")), ""))) "]}",
        gen_rand(&seed) % 2 ? MIN_DOMAINS(4) : "", 1 + gen_rand(&seed) % 2);
}

static void
test_pod_topology_spread__remove_pod_matches_recomputation(void)
{
    gen_check_remove_seeds(gen_spread_cluster, GEN_NODES, 40, PLUGIN);
}

int
main(void)
{
    RUN(test_pod_topology_spread__single_constraint);
    RUN(test_pod_topology_spread__multiple_constraints);
    RUN(test_pod_topology_spread__pre_filter_state);
    RUN(test_pod_topology_spread__soft_constraints_are_bypassed);
    RUN(test_pod_topology_spread__add_pod_updates_counts);
    RUN(test_pod_topology_spread__update_respects_node_inclusion);
    RUN(test_pod_topology_spread__match_label_keys_narrow_the_selector);
    RUN(test_pod_topology_spread__match_label_keys_on_empty_selector);
    RUN(test_pod_topology_spread__empty_selector_counts_nothing);
    RUN(test_pod_topology_spread__invalid_selector_errors);
    RUN(test_pod_topology_spread__remove_pod_matches_recomputation);
    return check_done();
}
