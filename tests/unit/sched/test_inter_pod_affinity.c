/*
 * test_inter_pod_affinity.c - rows of kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go
 * (TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes,
 * TestPreFilterStateAddRemovePod,
 * TestGetTPMapMatchingIncomingAffinityAntiAffinity) on snapshots built
 * from JSON, plus the nominated-pod and preemption paths.
 *
 * Translation: upstream pods without a namespace live in "default";
 * unnamed pods get names; a pending pod never has spec.nodeName (one
 * upstream row sets it on the incoming pod; it is dropped, the plugin
 * does not read it); upstream's namespace "" is "default".  The
 * NamespaceSelector rows run, as upstream, with the four team Namespaces
 * of scoring_test.go; more tests below pin down what a snapshot adds
 * (no Namespace at all, a pod's Namespace missing, the
 * kubernetes.io/metadata.name label).
 */
#include "plugin_rows.h"
#include "plugin_state.h"

#define PLUGIN "InterPodAffinity"
#define R_AFF "node(s) didn't match pod affinity rules"
#define R_ANTI "node(s) didn't match pod anti-affinity rules"
#define R_EXISTING "node(s) didn't satisfy existing pods anti-affinity rules"

struct ipa_row {
    const char *name;
    const char *json;
    char pre;           /* S: PreFilter ran, K: Skip, R: Unresolvable */
    const char *want;   /* Filter letters per node (rows with pre S) */
    const char *ns;     /* the pending pod's namespace; NULL: default */
};

/* Filter status letter -> reason: U is anti-affinity or existing. */
static bool
check_row(const struct ipa_row *r)
{
    struct row_fixture fx;
    int idx = row_plugin_index(PLUGIN);
    bool ok = row_setup_ns(&fx, r->json, r->ns ? r->ns : "default", "p");
    size_t i;

    if (ok && r->pre == 'R')
        ok = fx.pre.code == KP_UNRESOLVABLE;
    else if (ok && r->pre == 'K')
        ok = fx.pre.code == KP_SUCCESS && fx.c.skip[idx];
    else if (ok)
        ok = fx.pre.code == KP_SUCCESS && !fx.c.skip[idx];
    for (i = 0; ok && r->pre == 'S' && i < fx.s.nnodes; i++) {
        struct kp_status st = row_filter(&fx, idx, i);
        char w = r->want[i];
        const char *reason = w == 'R' ? R_AFF : w == 'A' ? R_ANTI :
                             w == 'X' ? R_EXISTING : NULL;
        char code = w == 'A' || w == 'X' ? 'U' : w;

        ok = row_code_letter(st.code) == code &&
             (!reason || (st.nreasons == 1 &&
                          strcmp(st.reasons[0], reason) == 0));
        if (!ok)
            printf("#   node %s: got %c (%s), want %c\n",
                   fx.s.nodes[i]->name, row_code_letter(st.code),
                   st.nreasons ? st.reasons[0] : "", w);
    }
    if (!ok)
        printf("#   row: %s\n", r->name);
    row_teardown(&fx);
    return ok;
}

static void
run_rows(const struct ipa_row *rows, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        CHECK(check_row(&rows[i]));
}

/* ---- TestRequiredAffinitySingleNode ---- */

#define N1 T_NODE("node1", L("region", "r1") "," L("zone", "z11"))
#define SECSCAN L("service", "securityscan")
#define S1 L("security", "S1")
#define EXISTING T_POD("existing", "node1", SECSCAN, "")
#define SVC_IN Q("securityscan") "," Q("value2")
#define ANTIVIRUS Q("antivirusscan") "," Q("value2")
/* upstream runs this table with its four team namespaces */
#define N1NS N1 "," T_TEAM_NAMESPACES
#define TEAM1_SEL ",\"namespaceSelector\":" T_IN("team", Q("team1"))

/* Letters: S fits, R affinity (Unresolvable), A anti-affinity, X existing
 * pods' anti-affinity (both Unschedulable). */
static const struct ipa_row single_node_rows[] = {
    {"A pod that has no required pod affinity scheduling rules can "
     "schedule onto a node with no existing pods",
     T_LIST(N1NS "," T_POD("p", "", "", "")), 'K', "", NULL},
    {"satisfies with requiredDuringSchedulingIgnoredDuringExecution in "
     "PodAffinity using In operator that matches the existing pod",
     T_LIST(N1NS "," EXISTING "," T_POD("p", "", S1,
            T_AFF(T_TERM(T_IN("service", SVC_IN), "region")))),
     'S', "S", NULL},
    {"satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution "
     "in PodAffinity using not in operator in labelSelector that matches "
     "the existing pod",
     T_LIST(N1NS "," EXISTING "," T_POD("p", "", S1,
            T_AFF(T_TERM(T_NOTIN("service", Q("securityscan3") ","
                                 Q("value3")), "region")))), 'S', "S", NULL},
    {"Does not satisfy the PodAffinity with labelSelector because of diff "
     "Namespace",
     T_LIST(N1NS "," T_POD_X("ns", "existing", "node1", SECSCAN, "", "") ","
            T_POD("p", "", S1, T_AFF(T_TERM_X(T_IN("service", SVC_IN), "",
                  ",\"namespaces\":[\"DiffNameSpace\"]")))), 'S', "R", NULL},
    {"Doesn't satisfy the PodAffinity because of unmatching labelSelector "
     "with the existing pod",
     T_LIST(N1NS "," EXISTING "," T_POD("p", "", SECSCAN,
            T_AFF(T_TERM(T_IN("service", ANTIVIRUS), "")))), 'S', "R", NULL},
    {"satisfies the PodAffinity with different label Operators in multiple "
     "RequiredDuringSchedulingIgnoredDuringExecution ",
     T_LIST(N1NS "," EXISTING "," T_POD("p", "", S1, T_AFF(
            T_TERM(T_SEL("{\"key\":\"service\",\"operator\":\"Exists\"},"
                          "{\"key\":\"wrongkey\",\"operator\":"
                          "\"DoesNotExist\"}"), "region") ","
            T_TERM(T_SEL(T_EXPR("service", "In", Q("securityscan")) ","
                         T_EXPR("service", "NotIn", Q("WrongValue"))),
                   "region")))), 'S', "S", NULL},
    {"The labelSelector requirements(items of matchExpressions) are ANDed, "
     "the pod cannot schedule onto the node because one of the "
     "matchExpression item don't match.",
     T_LIST(N1NS "," EXISTING "," T_POD("p", "", S1, T_AFF(
            T_TERM(T_SEL("{\"key\":\"service\",\"operator\":\"Exists\"},"
                          "{\"key\":\"wrongkey\",\"operator\":"
                          "\"DoesNotExist\"}"), "region") ","
            T_TERM(T_SEL(T_EXPR("service", "In", Q("securityscan2")) ","
                         T_EXPR("service", "NotIn", Q("WrongValue"))),
                   "region")))), 'S', "R", NULL},
    {"satisfies the PodAffinity and PodAntiAffinity with the existing pod",
     T_LIST(N1NS "," EXISTING "," T_POD("p", "", S1, T_AFF_ANTI(
            T_TERM(T_IN("service", SVC_IN), "region"),
            T_TERM(T_IN("service", ANTIVIRUS), "node")))), 'S', "S", NULL},
    {"satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity "
     "symmetry with the existing pod",
     T_LIST(N1NS "," T_POD("existing", "node1", SECSCAN,
                         T_ANTI(T_TERM(T_IN("service", ANTIVIRUS), "node")))
            "," T_POD("p", "", S1, T_AFF_ANTI(
            T_TERM(T_IN("service", SVC_IN), "region"),
            T_TERM(T_IN("service", ANTIVIRUS), "node")))), 'S', "S", NULL},
    {"satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity "
     "with the existing pod",
     T_LIST(N1NS "," EXISTING "," T_POD("p", "", S1, T_AFF_ANTI(
            T_TERM(T_IN("service", SVC_IN), "region"),
            T_TERM(T_IN("service", SVC_IN), "zone")))), 'S', "A", NULL},
    {"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy "
     "PodAntiAffinity symmetry with the existing pod",
     T_LIST(N1NS "," T_POD("existing", "node1", SECSCAN,
                         T_ANTI(T_TERM(T_IN("service", SVC_IN), "zone")))
            "," T_POD("p", "", SECSCAN, T_AFF_ANTI(
            T_TERM(T_IN("service", SVC_IN), "region"),
            T_TERM(T_IN("service", ANTIVIRUS), "node")))), 'S', "X", NULL},
    {"pod matches its own Label in PodAffinity and that matches the "
     "existing pod Labels",
     T_LIST(N1NS "," T_POD("existing", "node2", SECSCAN, "") ","
            T_POD("p", "", SECSCAN,
                  T_AFF(T_TERM(T_NOTIN("service", SVC_IN), "region")))),
     'S', "R", NULL},
    {"verify that PodAntiAffinity from existing pod is respected when pod "
     "has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity "
     "symmetry with the existing pod",
     T_LIST(N1NS "," T_POD("existing", "node1", SECSCAN,
                         T_ANTI(T_TERM(T_IN("service", SVC_IN), "zone")))
            "," T_POD("p", "", SECSCAN, "")), 'S', "X", NULL},
    {"verify that PodAntiAffinity from existing pod is respected when pod "
     "has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry "
     "with the existing pod",
     T_LIST(N1NS "," T_POD("existing", "node1", SECSCAN,
                         T_ANTI(T_TERM(T_NOTIN("service", SVC_IN), "zone")))
            "," T_POD("p", "", SECSCAN, "")), 'K', "", NULL},
    {"satisfies the PodAntiAffinity with existing pod but doesn't satisfy "
     "PodAntiAffinity symmetry with incoming pod",
     T_LIST(N1NS "," T_POD("existing", "node1", S1,
                         T_ANTI(T_TERM(T_EXISTS("security"), "zone")))
            "," T_POD("p", "", SECSCAN, T_ANTI(
            T_TERM(T_EXISTS("service"), "region") ","
            T_TERM(T_EXISTS("security"), "region")))), 'S', "A", NULL},
    {"PodAntiAffinity symmetry check a1: incoming pod and existing pod "
     "partially match each other on AffinityTerms",
     T_LIST(N1NS "," T_POD("existing", "node1", S1,
                         T_ANTI(T_TERM(T_EXISTS("security"), "zone")))
            "," T_POD("p", "", SECSCAN, T_ANTI(
            T_TERM(T_EXISTS("service"), "zone") ","
            T_TERM(T_EXISTS("security"), "zone")))), 'S', "A", NULL},
    {"PodAntiAffinity symmetry check a2: incoming pod and existing pod "
     "partially match each other on AffinityTerms",
     T_LIST(N1NS "," T_POD("existing", "node1", SECSCAN, T_ANTI(
            T_TERM(T_EXISTS("service"), "zone") ","
            T_TERM(T_EXISTS("security"), "zone"))) ","
            T_POD("p", "", S1,
                  T_ANTI(T_TERM(T_EXISTS("security"), "zone")))),
     'S', "X", NULL},
    {"PodAntiAffinity symmetry check b1: incoming pod and existing pod "
     "partially match each other on AffinityTerms",
     T_LIST(N1NS "," T_POD("existing", "node1", L("def", "") "," L("xyz", ""),
                         T_ANTI(T_TERM(T_EXISTS("abc"), "zone") ","
                                T_TERM(T_EXISTS("def"), "zone"))) ","
            T_POD("p", "", L("abc", "") "," L("xyz", ""),
                  T_ANTI(T_TERM(T_EXISTS("abc"), "zone") ","
                         T_TERM(T_EXISTS("def"), "zone")))), 'S', "A", NULL},
    {"PodAntiAffinity symmetry check b2: incoming pod and existing pod "
     "partially match each other on AffinityTerms",
     T_LIST(N1NS "," T_POD("existing", "node1", L("abc", "") "," L("xyz", ""),
                         T_ANTI(T_TERM(T_EXISTS("abc"), "zone") ","
                                T_TERM(T_EXISTS("def"), "zone"))) ","
            T_POD("p", "", L("def", "") "," L("xyz", ""),
                  T_ANTI(T_TERM(T_EXISTS("abc"), "zone") ","
                         T_TERM(T_EXISTS("def"), "zone")))), 'S', "A", NULL},
    {"affinity with NamespaceSelector",
     T_LIST(N1NS "," T_POD_X("subteam1.team1", "existing", "node1", SECSCAN,
                             "", "") ","
            T_POD("p", "", S1, T_AFF(T_TERM_X(T_IN("service", SVC_IN),
                  "region", TEAM1_SEL)))), 'S', "S", NULL},
    {"affinity with non-matching NamespaceSelector",
     T_LIST(N1NS "," T_POD_X("subteam1.team2", "existing", "node1", SECSCAN,
                             "", "") ","
            T_POD("p", "", S1, T_AFF(T_TERM_X(T_IN("service", SVC_IN),
                  "region", TEAM1_SEL)))), 'S', "R", NULL},
    {"anti-affinity with matching NamespaceSelector",
     T_LIST(N1NS "," T_POD_X("subteam2.team1", "existing", "node1", SECSCAN,
                             "", "") ","
            T_POD_X("subteam1.team1", "p", "", S1, "",
                    T_ANTI(T_TERM_X(T_IN("service", SVC_IN), "zone",
                                    TEAM1_SEL)))), 'S', "A",
     "subteam1.team1"},
    {"anti-affinity with matching all NamespaceSelector",
     T_LIST(N1NS "," T_POD_X("subteam2.team1", "existing", "node1", SECSCAN,
                             "", "") ","
            T_POD_X("subteam1.team1", "p", "", S1, "",
                    T_ANTI(T_TERM_X(T_IN("service", SVC_IN), "zone",
                                    ",\"namespaceSelector\":{}")))), 'S', "A",
     "subteam1.team1"},
    {"anti-affinity with non-matching NamespaceSelector",
     T_LIST(N1NS "," T_POD_X("subteam1.team2", "existing", "node1", SECSCAN,
                             "", "") ","
            T_POD_X("subteam1.team1", "p", "", S1, "",
                    T_ANTI(T_TERM_X(T_IN("service", SVC_IN), "zone",
                                    TEAM1_SEL)))), 'S', "S",
     "subteam1.team1"},
};

static void
test_inter_pod_affinity__required_affinity_single_node(void)
{
    run_rows(single_node_rows,
             sizeof(single_node_rows) / sizeof(single_node_rows[0]));
}

/* "PodAffinity fails PreFilter with an invalid affinity label syntax" and
 * "PodAntiAffinity fails PreFilter with an invalid antiaffinity label
 * syntax": NewPodInfo's error, word for word. */
static void
test_inter_pod_affinity__invalid_label_value_fails_pre_filter(void)
{
    static const char *const json[] = {
        T_LIST(N1 "," T_POD("p", "", SECSCAN, T_AFF(
            T_TERM(T_IN("service", Q("{{.bad-value.}}")), "region") ","
            T_TERM(T_IN("service", ANTIVIRUS), "node")))),
        T_LIST(N1 "," T_POD("p", "", SECSCAN, T_AFF(
            T_TERM(T_IN("service", Q("foo")), "region") ","
            T_TERM(T_IN("service", Q("{{.bad-value.}}")), "node")))),
    };
    static const char want[] =
        "parsing pod: requiredAffinityTerms: values[0][service]: Invalid "
        "value: \"{{.bad-value.}}\": a valid label must be an empty string "
        "or consist of alphanumeric characters, '-', '_' or '.', and must "
        "start and end with an alphanumeric character (e.g. 'MyValue',  or "
        "'my_value',  or '12345', regex used for validation is "
        "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    size_t i;

    for (i = 0; i < 2; i++) {
        struct row_fixture fx;

        CHECK(row_setup(&fx, json[i], "p"));
        CHECK_EQ_INT(fx.pre.code, KP_UNRESOLVABLE);
        CHECK_EQ_STR(fx.pre.nreasons ? fx.pre.reasons[0] : "", want);
        CHECK_EQ_STR(fx.pre.plugin, PLUGIN);
        row_teardown(&fx);
    }
}

/* ---- TestRequiredAffinityMultipleNodes ---- */

#define NA_RZH(n, z) T_NODE(n, L("region", "r1") "," L("zone", z) ","     \
                            L("hostname", n))
#define CHINA L("region", "China")
#define CHINA_AZ1 L("region", "China") "," L("az", "az1")
#define INDIA L("region", "India")
#define NODES_Z1_Z2 NA_RZH("nodeA", "z1") "," NA_RZH("nodeB", "z2")
#define FOO_BAR L("foo", "") "," L("bar", "")
/* foo exists (topology key k1), bar exists (k2) */
#define FOO_BAR_TERMS(k1, k2)                                              \
    T_TERM(T_EXISTS("foo"), k1) "," T_TERM(T_EXISTS("bar"), k2)
/* Existing pod's anti-affinity: e1 on nodeA has the terms, p foo and bar */
#define EXISTING_ANTI(terms)                                               \
    T_LIST(NODES_Z1_Z2 "," T_POD("e1", "nodeA", "", T_ANTI(terms)) ","     \
           T_POD("p", "", FOO_BAR, ""))
/* Incoming pod's anti-affinity: pod e on nodeA has foo and bar, p the
 * terms */
#define INCOMING_ANTI(e, terms)                                            \
    T_LIST(NODES_Z1_Z2 "," T_POD(e, "nodeA", FOO_BAR, "") ","              \
           T_POD("p", "", "", T_ANTI(terms)))

static const struct ipa_row multi_node_rows[] = {
    {"A pod can be scheduled onto all the nodes that have the same topology "
     "key & label value with one of them has an existing pod that matches "
     "the affinity rules",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", CHINA_AZ1) ","
            T_NODE("node3", INDIA) ","
            T_POD("p1", "node1", L("foo", "bar"), "") ","
            T_POD("p", "", "", T_AFF(T_TERM(T_IN("foo", Q("bar")),
                                            "region")))), 'S', "SSR", NULL},
    {"The affinity rule is to schedule all of the pods of this collection to "
     "the same zone. The first pod of the collection should not be blocked "
     "from being scheduled onto any node, even there's no existing pod that "
     "matches the rule anywhere.",
     T_LIST(T_NODE("nodeA", L("zone", "az1") "," L("hostname", "h1")) ","
            T_NODE("nodeB", L("zone", "az2") "," L("hostname", "h2")) ","
            T_POD("p1", "nodeA", L("foo", "bar"), "") ","
            T_POD("p", "", L("foo", "bar") "," SECSCAN, T_AFF(
                T_TERM(T_IN("foo", Q("bar")), "zone") ","
                T_TERM(T_IN("service", Q("securityscan")), "zone")))),
     'S', "SS", NULL},
    {"The first pod of the collection can only be scheduled on nodes "
     "labelled with the requested topology keys",
     T_LIST(T_NODE("nodeA", L("zoneLabel", "az1") "," L("hostname", "h1"))
            "," T_NODE("nodeB", L("zoneLabel", "az2") "," L("hostname", "h2"))
            "," T_POD("p1", "nodeA", L("foo", "bar"), "") ","
            T_POD("p", "", L("foo", "bar") "," SECSCAN, T_AFF(
                T_TERM(T_IN("foo", Q("bar")), "zone") ","
                T_TERM(T_IN("service", Q("securityscan")), "zone")))),
     'S', "RR", NULL},
    {"NodeA and nodeB have same topologyKey and label value. NodeA has an "
     "existing pod that matches the inter pod affinity rule. The pod can not "
     "be scheduled onto nodeA and nodeB.",
     T_LIST(T_NODE("nodeA", L("region", "r1") "," L("hostname", "nodeA")) ","
            T_NODE("nodeB", L("region", "r1") "," L("hostname", "nodeB")) ","
            T_POD("e1", "nodeA", L("foo", "abc"), "") ","
            T_POD("p", "", "", T_ANTI(T_TERM(T_IN("foo", Q("abc")),
                                             "region")))), 'S', "AA", NULL},
    {"This test ensures that anti-affinity matches a pod when any term of "
     "the anti-affinity rule matches a pod.",
     T_LIST(NA_RZH("nodeA", "z1") "," NA_RZH("nodeB", "z2") ","
            T_POD("e1", "nodeA", L("foo", "abc") "," SECSCAN, "") ","
            T_POD("p", "", "", T_ANTI(
                T_TERM(T_IN("foo", Q("abc")), "region") ","
                T_TERM(T_IN("service", Q("securityscan")), "zone")))),
     'S', "AA", NULL},
    {"NodeA and nodeB have same topologyKey and label value. NodeA has an "
     "existing pod that matches the inter pod affinity rule. The pod can not "
     "be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
     T_LIST(T_NODE("nodeA", CHINA) "," T_NODE("nodeB", CHINA_AZ1) ","
            T_NODE("nodeC", INDIA) ","
            T_POD("e1", "nodeA", L("foo", "abc"), "") ","
            T_POD("p", "", "", T_ANTI(T_TERM(T_IN("foo", Q("abc")),
                                             "region")))), 'S', "AAS", NULL},
    {"NodeA and nodeB have same topologyKey and label value. NodeA has an "
     "existing pod that matches the inter pod affinity rule. The pod can not "
     "be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC "
     "(NodeC has an existing pod that match the inter pod affinity rule but "
     "in different namespace)",
     T_LIST(T_NODE("nodeA", CHINA) "," T_NODE("nodeB", CHINA_AZ1) ","
            T_NODE("nodeC", INDIA) ","
            T_POD_X("NS1", "e1", "nodeA", L("foo", "bar"), "", "") ","
            T_POD_X("NS2", "e2", "nodeC", "", "",
                    T_ANTI(T_TERM(T_IN("foo", Q("123")), "region"))) ","
            T_POD_X("NS1", "p", "", L("foo", "123"), "",
                    T_ANTI(T_TERM(T_IN("foo", Q("bar")), "region")))),
     'S', "AAS", "NS1"},
    {"Test existing pod's anti-affinity: if an existing pod has a term with "
     "invalid topologyKey, labelSelector of the term is firstly checked, and "
     "then topologyKey of the term is also checked",
     T_LIST(NA_RZH("nodeA", "z1") "," NA_RZH("nodeB", "z1") ","
            T_POD("e1", "nodeA", "", T_ANTI(T_TERM(T_EXISTS("foo"),
                                                   "invalid-node-label")))
            "," T_POD("p", "", L("foo", ""), "")), 'K', "", NULL},
    {"Test incoming pod's anti-affinity: even if labelSelector matches, we "
     "still check if topologyKey matches",
     T_LIST(NA_RZH("nodeA", "z1") "," NA_RZH("nodeB", "z1") ","
            T_POD("e1", "nodeA", L("foo", ""), "") ","
            T_POD("p", "", "", T_ANTI(T_TERM(T_EXISTS("foo"),
                                             "invalid-node-label")))),
     'S', "SS", NULL},
    {"Test existing pod's anti-affinity: incoming pod wouldn't considered as "
     "a fit as it violates each existingPod's terms on all nodes",
     T_LIST(NODES_Z1_Z2 ","
            T_POD("e1", "nodeA", "", T_ANTI(T_TERM(T_EXISTS("foo"), "zone")))
            "," T_POD("e2", "nodeA", "",
                      T_ANTI(T_TERM(T_EXISTS("bar"), "region"))) ","
            T_POD("p", "", FOO_BAR, "")),
     'S', "XX", NULL},
    {"Test incoming pod's anti-affinity: incoming pod wouldn't considered as "
     "a fit as it at least violates one anti-affinity rule of existingPod",
     T_LIST(NODES_Z1_Z2 ","
            T_POD("e1", "nodeA", L("foo", ""), "") ","
            T_POD("e2", "nodeB", L("bar", ""), "") ","
            T_POD("p", "", "", T_ANTI(FOO_BAR_TERMS("zone", "region")))),
     'S', "AA", NULL},
    {"Test existing pod's anti-affinity: only when labelSelector and "
     "topologyKey both match, it's counted as a single term match - case "
     "when one term has invalid topologyKey",
     EXISTING_ANTI(FOO_BAR_TERMS("invalid-node-label", "zone")),
     'S', "XS", NULL},
    {"Test incoming pod's anti-affinity: only when labelSelector and "
     "topologyKey both match, it's counted as a single term match - case "
     "when one term has invalid topologyKey",
     INCOMING_ANTI("podA", FOO_BAR_TERMS("invalid-node-label", "zone")),
     'S', "AS", NULL},
    {"Test existing pod's anti-affinity: only when labelSelector and "
     "topologyKey both match, it's counted as a single term match - case "
     "when all terms have valid topologyKey",
     EXISTING_ANTI(FOO_BAR_TERMS("region", "zone")), 'S', "XX", NULL},
    {"Test incoming pod's anti-affinity: only when labelSelector and "
     "topologyKey both match, it's counted as a single term match - case "
     "when all terms have valid topologyKey",
     INCOMING_ANTI("e1", FOO_BAR_TERMS("region", "zone")), 'S', "AA", NULL},
    {"Test existing pod's anti-affinity: existingPod on nodeA and nodeB has "
     "at least one anti-affinity term matches incoming pod, so incoming pod "
     "can only be scheduled to nodeC",
     T_LIST(NODES_Z1_Z2 "," NA_RZH("nodeC", "z3") ","
            T_POD("e1", "nodeA", "", T_ANTI(
                T_TERM(T_EXISTS("foo"), "zone") ","
                T_TERM(T_EXISTS("labelA"), "zone"))) ","
            T_POD("e2", "nodeB", "", T_ANTI(
                T_TERM(T_EXISTS("bar"), "zone") ","
                T_TERM(T_EXISTS("labelB"), "zone"))) ","
            T_POD("p", "", FOO_BAR, "")),
     'S', "XXS", NULL},
    {"Test incoming pod's affinity: firstly check if all affinityTerms "
     "match, and then check if all topologyKeys match",
     T_LIST(NA_RZH("nodeA", "z1") "," NA_RZH("nodeB", "z1") ","
            T_POD("pod1", "nodeA", FOO_BAR, "") ","
            T_POD("p", "", "", T_AFF(FOO_BAR_TERMS("region", "zone")))),
     'S', "SS", NULL},
    {"Test incoming pod's affinity: firstly check if all affinityTerms "
     "match, and then check if all topologyKeys match, and the match logic "
     "should be satisfied on the same pod",
     T_LIST(NODES_Z1_Z2 ","
            T_POD("pod1", "nodeA", L("foo", ""), "") ","
            T_POD("pod2", "nodeB", L("bar", ""), "") ","
            T_POD("p", "", "", T_AFF(FOO_BAR_TERMS("region", "zone")))),
     'S', "RR", NULL},
};

static void
test_inter_pod_affinity__required_affinity_multiple_nodes(void)
{
    run_rows(multi_node_rows,
             sizeof(multi_node_rows) / sizeof(multi_node_rows[0]));
}

/* ---- TestPreFilterStateAddRemovePod ---- */

#define ANTI_FOO_BAR T_TERM(T_IN("foo", Q("bar")), "region")
#define COMPLEX_TERMS                                                      \
    T_TERM(T_IN("foo", Q("bar") "," Q("buzz")), "region") ","              \
    T_TERM(T_NOTIN("service", Q("bar") "," Q("security") "," Q("test")),   \
           "zone")
#define AR_NODES                                                           \
    T_NODE("nodeA", L("region", "r1") "," L("zone", "z11")) ","            \
    T_NODE("nodeB", L("region", "r1") "," L("zone", "z12")) ","            \
    T_NODE("nodeC", L("region", "r2") "," L("zone", "z21"))
/* The rows' List: p1 on nodeA, p2 on nodeC with p2_spec, the pod "added"
 * and the pending p, all but p2 labelled foo=bar. */
#define AR_LIST(p2_spec, added_spec, p_spec)                               \
    T_LIST(AR_NODES "," T_POD("p1", "nodeA", L("foo", "bar"), "") ","      \
           T_POD("p2", "nodeC", "", p2_spec) ","                           \
           T_POD("added", "", L("foo", "bar"), added_spec) ","             \
           T_POD("p", "", L("foo", "bar"), p_spec))

struct tp_want {
    enum kp_ipa_counts which;
    const char *key, *value;
    int64_t n;
};

/* Add "added" on node, compare counts, remove it, compare again. */
static void
check_add_remove(const char *json, const char *node,
                 const struct tp_want *want, size_t nwant,
                 size_t len_anti, size_t len_aff)
{
    struct row_fixture fx;
    int idx = row_plugin_index(PLUGIN);
    const struct kp_pod *added;
    struct kp_node_info *ni;
    size_t i, before[3];

    CHECK(row_setup(&fx, json, "p"));
    added = kp_snapshot_pod(&fx.s, "default", "added");
    ni = row_clone_node(&fx, row_node(&fx, node));
    for (i = 0; i < 3; i++)
        before[i] = kp_ipa_state_len(fx.c.state[idx], (enum kp_ipa_counts)i);
    kp_cycle_add_pod(&fx.c, ni, added);
    for (i = 0; i < nwant; i++)
        CHECK_EQ_INT(kp_ipa_state_count(fx.c.state[idx], want[i].which,
                                        want[i].key, want[i].value),
                     want[i].n);
    CHECK_EQ_INT(kp_ipa_state_len(fx.c.state[idx], KP_IPA_ANTI), len_anti);
    CHECK_EQ_INT(kp_ipa_state_len(fx.c.state[idx], KP_IPA_AFFINITY),
                 len_aff);
    kp_cycle_remove_pod(&fx.c, ni, added);
    for (i = 0; i < 3; i++)
        CHECK_EQ_INT(kp_ipa_state_len(fx.c.state[idx],
                                      (enum kp_ipa_counts)i), before[i]);
    row_teardown(&fx);
}

/* "preFilterState anti-affinity terms are updated correctly after adding
 * and removing a pod" (first row) */
static void
test_inter_pod_affinity__add_remove_pod_updates_anti_affinity(void)
{
    static const struct tp_want want[] = {
        {KP_IPA_ANTI, "region", "r1", 2},
    };

    check_add_remove(AR_LIST(T_ANTI(ANTI_FOO_BAR), T_ANTI(ANTI_FOO_BAR),
                             T_ANTI(ANTI_FOO_BAR)),
                     "nodeB", want, 1, 1, 0);
}

/* Same name, second row: two anti-affinity terms. */
static void
test_inter_pod_affinity__add_remove_pod_updates_complex_anti_affinity(void)
{
    static const struct tp_want want[] = {
        {KP_IPA_ANTI, "region", "r1", 2},
        {KP_IPA_ANTI, "zone", "z11", 2},
        {KP_IPA_ANTI, "zone", "z21", 1},
    };

    check_add_remove(AR_LIST(T_ANTI(ANTI_FOO_BAR), T_ANTI(COMPLEX_TERMS),
                             T_ANTI(COMPLEX_TERMS)),
                     "nodeA", want, 3, 3, 0);
}

/* "preFilterState matching pod affinity and anti-affinity are updated
 * correctly after adding and removing a pod" */
static void
test_inter_pod_affinity__add_remove_pod_updates_affinity(void)
{
    static const struct tp_want want[] = {
        {KP_IPA_AFFINITY, "region", "r1", 2},
        {KP_IPA_AFFINITY, "zone", "z11", 2},
    };

    check_add_remove(AR_LIST(T_AFF_ANTI(COMPLEX_TERMS, ANTI_FOO_BAR),
                             T_ANTI(COMPLEX_TERMS), T_AFF(COMPLEX_TERMS)),
                     "nodeA", want, 2, 0, 2);
}

/* ---- TestGetTPMapMatchingIncomingAffinityAntiAffinity ---- */

struct tpmap_row {
    const char *name;
    const char *existing_labels;
    const char *pod_spec;
    int64_t want_aff, want_anti;     /* counts of hostname=nodeA */
};

#define AFF_EX(k) T_TERM(T_EXISTS(k), "hostname")

static const struct tpmap_row tpmap_rows[] = {
    {"incoming pod without affinity/anti-affinity causes a no-op",
     L("aaa", ""), "", 0, 0},
    {"no pod has label that violates incoming pod's affinity and "
     "anti-affinity", L("bbb", ""),
     T_AFF_ANTI(AFF_EX("aaa"), AFF_EX("aaa")), 0, 0},
    {"existing pod matches incoming pod's affinity and anti-affinity - "
     "single term case", L("aaa", ""),
     T_AFF_ANTI(AFF_EX("aaa"), AFF_EX("aaa")), 1, 1},
    {"existing pod matches incoming pod's affinity and anti-affinity - "
     "multiple terms case", L("aaa", "") "," L("bbb", ""),
     T_AFF_ANTI(AFF_EX("aaa") "," AFF_EX("bbb"), AFF_EX("aaa")), 2, 1},
    {"existing pod not match incoming pod's affinity but matches "
     "anti-affinity", L("aaa", ""),
     T_AFF_ANTI(AFF_EX("aaa") "," AFF_EX("bbb"),
                AFF_EX("aaa") "," AFF_EX("bbb")), 0, 1},
    {"incoming pod's anti-affinity has more than one term - existing pod "
     "violates partial term - case 1", L("aaa", "") "," L("bbb", ""),
     T_AFF_ANTI(AFF_EX("aaa") "," AFF_EX("ccc"),
                AFF_EX("aaa") "," AFF_EX("ccc")), 0, 1},
    {"incoming pod's anti-affinity has more than one term - existing pod "
     "violates partial term - case 2", L("bbb", ""),
     T_AFF_ANTI(AFF_EX("aaa") "," AFF_EX("bbb"),
                AFF_EX("aaa") "," AFF_EX("bbb")), 0, 1},
};

static void
test_inter_pod_affinity__incoming_affinity_anti_affinity_counts(void)
{
    char json[4096];
    size_t i;

    for (i = 0; i < sizeof(tpmap_rows) / sizeof(tpmap_rows[0]); i++) {
        const struct tpmap_row *r = &tpmap_rows[i];
        struct row_fixture fx;
        int idx = row_plugin_index(PLUGIN);
        const void *st;

        snprintf(json, sizeof(json), "%s%s%s%s%s%s%s",
                 "{\"kind\":\"List\",\"items\":["
                 T_NODE("nodeA", L("hostname", "nodeA")) ","
                 "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\","
                 "\"name\":\"normal\",\"labels\":{", r->existing_labels,
                 "}},\"spec\":{\"nodeName\":\"nodeA\",\"containers\":"
                 "[{\"name\":\"c\"}]}},",
                 "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\","
                 "\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]",
                 r->pod_spec, "}}", "]}");
        CHECK(row_setup(&fx, json, "p"));
        st = fx.c.state[idx];
        if (kp_ipa_state_count(st, KP_IPA_AFFINITY, "hostname", "nodeA") !=
                r->want_aff ||
            kp_ipa_state_count(st, KP_IPA_ANTI, "hostname", "nodeA") !=
                r->want_anti) {
            printf("#   row: %s\n", r->name);
            CHECK(false);
        }
        row_teardown(&fx);
    }
}

/* ---- framework paths: nominated pods and preemption ---- */

/* Pod "nom", priority 100, nominated to node1, with anti-affinity to the
 * pods labelled app on its host. */
#define NOMINATED_ANTI_APP                                                 \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\","           \
    "\"name\":\"nom\"},\"spec\":{\"priority\":100,\"containers\":"         \
    "[{\"name\":\"c\"}],\"affinity\":{\"podAntiAffinity\":{" T_REQ ":["    \
    T_TERM(T_EXISTS("app"), "hostname") "]}}},\"status\":"                 \
    "{\"nominatedNodeName\":\"node1\"}}"

/* RunFilterPluginsWithNominatedPods: a higher-priority pod nominated to
 * node1 with anti-affinity against p makes node1 fail (AddPod).  The
 * filler pod keeps node1 non-empty: kp_node_info_clone() passes a NULL
 * pods array to memcpy for an empty node (UBSan). */
static void
test_inter_pod_affinity__nominated_pod_anti_affinity_is_added(void)
{
    struct row_fixture fx;
    struct kp_status st;

    CHECK(row_setup(&fx, T_LIST(
        T_NODE("node1", L("hostname", "node1")) ","
        T_NODE("node2", L("hostname", "node2")) ","
        T_POD("filler", "node1", "", "") ","
        NOMINATED_ANTI_APP ","
        T_POD("p", "", L("app", "x"), T_ANTI(T_TERM(T_EXISTS("none"),
                                                    "hostname")))), "p"));
    st = kp_run_filters_with_nominated(&fx.c, &fx.cl.nodes[0]);
    CHECK_EQ_INT(st.code, KP_UNSCHEDULABLE);
    CHECK_EQ_STR(st.nreasons ? st.reasons[0] : "", R_EXISTING);
    st = kp_run_filters_with_nominated(&fx.c, &fx.cl.nodes[1]);
    CHECK_EQ_INT(st.code, KP_SUCCESS);
    row_teardown(&fx);
}

/* SelectVictimsOnNode: removing the lower-priority pod whose existing
 * anti-affinity matches the preemptor clears the node (RemovePod). */
static void
test_inter_pod_affinity__victim_with_anti_affinity_is_preempted(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, T_LIST(
        T_NODE("node1", L("hostname", "node1")) ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\","
        "\"name\":\"low\"},\"spec\":{\"nodeName\":\"node1\",\"priority\":1,"
        "\"containers\":[{\"name\":\"c\"}],\"affinity\":{\"podAntiAffinity\""
        ":{" T_REQ ":[" T_TERM(T_EXISTS("app"), "hostname") "]}}}},"
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\","
        "\"name\":\"p\",\"labels\":{\"app\":\"x\"}},\"spec\":{\"priority\":"
        "10,\"containers\":[{\"name\":\"c\"}]}}")) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    CHECK(pr && pr->nvictims == 1 &&
          strcmp(pr->victims[0].pod->name, "low") == 0);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* Affinity is Unresolvable: removing matching lower-priority pods never
 * helps, so the node is not a preemption candidate. */
static void
test_inter_pod_affinity__affinity_failure_is_not_preempted(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, T_LIST(
        T_NODE("node1", L("zone", "a")) ","
        T_POD("other", "node1", L("app", "y"), "") ","
        T_POD("p", "", "", T_AFF(T_TERM(T_IN("app", Q("y")), "rack"))))) ==
          0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_UNSCHEDULABLE);
    CHECK(pr && strstr(pr->message, "1 node(s) didn't match pod affinity "
                       "rules") != NULL);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* Upstream quirk kept: with no terms of its own and no existing pod's
 * anti-affinity matching, PreFilter skips the plugin for the cycle, so a
 * nominated pod's anti-affinity is not added either. */
static void
test_inter_pod_affinity__skip_ignores_nominated_anti_affinity(void)
{
    struct row_fixture fx;

    CHECK(row_setup(&fx, T_LIST(
        T_NODE("node1", L("hostname", "node1")) ","
        T_POD("filler", "node1", "", "") ","
        NOMINATED_ANTI_APP ","
        T_POD("p", "", L("app", "x"), "")), "p"));
    CHECK(fx.c.skip[row_plugin_index(PLUGIN)]);
    CHECK_EQ_INT(kp_run_filters_with_nominated(&fx.c, &fx.cl.nodes[0]).code,
                 KP_SUCCESS);
    row_teardown(&fx);
}

/* ---- namespaceSelector: what a snapshot adds to upstream's rows ---- */

#define HOST_NODES                                                         \
    T_NODE("node1", L("hostname", "node1")) ","                            \
    T_NODE("node2", L("hostname", "node2"))
#define NS_SEL(sel) ",\"namespaceSelector\":" sel
#define TEAM_EXISTS "{\"matchExpressions\":[{\"key\":\"team\","              \
    "\"operator\":\"DoesNotExist\"}]}"

static const struct ipa_row namespace_rows[] = {
    /* No Namespace object at all: a selector other than {} selects no
     * namespace, on either side (the labels are unknown). */
    {"no Namespaces: the incoming pod's namespaceSelector selects nothing",
     T_LIST(HOST_NODES "," T_POD_X("subteam2.team1", "e1", "node1", SECSCAN,
                                   "", "") ","
            T_POD("p", "", S1, T_ANTI(T_TERM_X(T_IN("service", SVC_IN),
                  "hostname", TEAM1_SEL)))), 'S', "SS", NULL},
    {"no Namespaces: an existing pod's DoesNotExist namespaceSelector "
     "selects nothing",
     T_LIST(HOST_NODES "," T_POD_X("subteam2.team1", "e1", "node1", "", "",
            T_ANTI(T_TERM_X(T_IN("security", Q("S1")), "hostname",
                            NS_SEL(TEAM_EXISTS)))) ","
            T_POD("p", "", S1, "")), 'K', "", NULL},
    /* Namespaces known, the incoming pod's own missing: the lister's "not
     * found" gives it no labels, which DoesNotExist matches
     * (GetNamespaceLabelsSnapshot) ... */
    {"incoming pod's Namespace missing: existing pod's DoesNotExist "
     "namespaceSelector matches it",
     T_LIST(HOST_NODES "," T_TEAM_NAMESPACES ","
            T_POD_X("subteam2.team1", "e1", "node1", "", "",
                    T_ANTI(T_TERM_X(T_IN("security", Q("S1")), "hostname",
                                    NS_SEL(TEAM_EXISTS)))) ","
            T_POD("p", "", S1, "")), 'S', "XS", NULL},
    /* ... while a namespace that does not exist is never listed
     * (mergeAffinityTermNamespacesIfNotEmpty), and one without the label
     * is. */
    {"existing pod's Namespace missing: the incoming pod's DoesNotExist "
     "namespaceSelector does not select it",
     T_LIST(HOST_NODES "," T_TEAM_NAMESPACES ","
            T_POD_X("ghost", "e1", "node1", SECSCAN, "", "") ","
            T_POD_X("subteam1.team1", "p", "", S1, "",
                    T_ANTI(T_TERM_X(T_IN("service", SVC_IN), "hostname",
                                    NS_SEL(TEAM_EXISTS))))), 'S', "SS",
     "subteam1.team1"},
    {"a Namespace without the label is selected by DoesNotExist",
     T_LIST(HOST_NODES "," T_TEAM_NAMESPACES "," T_NS("tools", "") ","
            T_POD_X("tools", "e1", "node1", SECSCAN, "", "") ","
            T_POD_X("subteam1.team1", "p", "", S1, "",
                    T_ANTI(T_TERM_X(T_IN("service", SVC_IN), "hostname",
                                    NS_SEL(TEAM_EXISTS))))), 'S', "AS",
     "subteam1.team1"},
    /* kubernetes.io/metadata.name, set by the API server's defaulting,
     * is there even when the snapshot's Namespace lacks it. */
    {"kubernetes.io/metadata.name selects the namespace of that name",
     T_LIST(HOST_NODES "," T_NS("tools", "") "," T_NS("prod", "") ","
            T_POD_X("tools", "e1", "node1", SECSCAN, "", "") ","
            T_POD_X("prod", "e2", "node2", SECSCAN, "", "") ","
            T_POD_X("prod", "p", "", S1, "",
                    T_ANTI(T_TERM_X(T_IN("service", SVC_IN), "hostname",
                                    NS_SEL("{\"matchLabels\":{\"kubernetes."
                                           "io/metadata.name\":\"tools\"}}")
                                    )))), 'S', "AS", "prod"},
    {"kubernetes.io/metadata.name of another value is overwritten",
     T_LIST(HOST_NODES "," T_NS("tools", L("kubernetes.io/metadata.name",
                                           "prod")) ","
            T_POD_X("tools", "e1", "node1", SECSCAN, "", "") ","
            T_POD_X("tools", "p", "", S1, "",
                    T_ANTI(T_TERM_X(T_IN("service", SVC_IN), "hostname",
                                    NS_SEL("{\"matchLabels\":{\"kubernetes."
                                           "io/metadata.name\":\"prod\"}}")
                                    )))), 'S', "SS", "tools"},
    /* The incoming pod's required affinity, first pod of a series: it
     * must itself be in a selected namespace. */
    {"affinity to itself through a namespaceSelector: its own namespace "
     "selected",
     T_LIST(HOST_NODES "," T_TEAM_NAMESPACES ","
            T_POD_X("subteam1.team1", "p", "", S1, "",
                    T_AFF(T_TERM_X(T_IN("security", Q("S1")), "hostname",
                                   TEAM1_SEL)))), 'S', "SS",
     "subteam1.team1"},
    {"affinity to itself through a namespaceSelector: its own namespace "
     "not selected",
     T_LIST(HOST_NODES "," T_TEAM_NAMESPACES ","
            T_POD_X("subteam1.team2", "p", "", S1, "",
                    T_AFF(T_TERM_X(T_IN("security", Q("S1")), "hostname",
                                   TEAM1_SEL)))), 'S', "RR",
     "subteam1.team2"},
};

static void
test_inter_pod_affinity__namespace_selector_semantics(void)
{
    run_rows(namespace_rows,
             sizeof(namespace_rows) / sizeof(namespace_rows[0]));
}

/* One warning when a namespaceSelector meets a snapshot without
 * Namespaces, naming the first pod concerned; none when Namespaces are
 * there or no selector needs them.  Only an analysis asks (explain does
 * not evaluate affinity). */
static void
test_inter_pod_affinity__warns_once_without_namespaces(void)
{
    struct kp_snapshot s;
    static const char *const want =
        "pod 'subteam2.team1/e1': the namespaceSelector of its pod affinity "
        "terms cannot be evaluated: the snapshot has no Namespace objects "
        "(kubectl get namespaces); it is taken to select no namespace "
        "(1 more pod has such terms)";
#define WARN_PODS                                                          \
    T_POD_X("subteam2.team1", "e1", "node1", "", "",                        \
            T_ANTI(T_TERM_X(T_EXISTS("x"), "hostname", TEAM1_SEL))) ","     \
    T_POD("p", "", S1, T_AFF(T_TERM_X(T_EXISTS("x"), "hostname",            \
                                      NS_SEL("{}")))) ","                   \
    T_POD("q", "", S1, ",\"affinity\":{\"podAffinity\":{" T_PREF ":["      \
          T_WTERM(3, T_TERM_X(T_EXISTS("x"), "hostname", TEAM1_SEL))        \
          "]}}")

    CHECK(load_snapshot(&s, T_LIST(HOST_NODES "," WARN_PODS)) == 0);
    CHECK_EQ_INT(s.nwarnings, 0);       /* not while loading */
    kp_snapshot_check_namespace_selectors(&s, "default-scheduler");
    CHECK_EQ_INT(s.nwarnings, 1);
    CHECK_EQ_STR(s.nwarnings ? s.warnings[0] : "", want);
    kp_snapshot_release(&s);
    CHECK(load_snapshot(&s, T_LIST(HOST_NODES "," T_NS("x", "") ","
                                   WARN_PODS)) == 0);
    kp_snapshot_check_namespace_selectors(&s, "default-scheduler");
    CHECK_EQ_INT(s.nwarnings, 0);
    kp_snapshot_release(&s);
    /* {} and null need no labels */
    CHECK(load_snapshot(&s, T_LIST(HOST_NODES ","
        T_POD("p", "", S1, T_AFF(T_TERM_X(T_EXISTS("x"), "hostname",
                                          NS_SEL("{}")))))) == 0);
    kp_snapshot_check_namespace_selectors(&s, "default-scheduler");
    CHECK_EQ_INT(s.nwarnings, 0);
    kp_snapshot_release(&s);
#undef WARN_PODS
}

/* AddPod of a nominated pod goes through the merged namespaces too. */
static void
test_inter_pod_affinity__nominated_pod_in_selected_namespace(void)
{
    struct row_fixture fx;
    struct kp_status st;

    CHECK(row_setup_ns(&fx, T_LIST(HOST_NODES "," T_TEAM_NAMESPACES ","
        T_POD("filler", "node1", "", "") ","
        T_POD("filler2", "node2", "", "") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"subteam2.team1\","
        "\"name\":\"nom\",\"labels\":{" SECSCAN "}},\"spec\":{\"priority\":"
        "100,\"containers\":[{\"name\":\"c\"}]},\"status\":"
        "{\"nominatedNodeName\":\"node1\"}},"
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"subteam1.team2\","
        "\"name\":\"nom2\",\"labels\":{" SECSCAN "}},\"spec\":{\"priority\":"
        "100,\"containers\":[{\"name\":\"c\"}]},\"status\":"
        "{\"nominatedNodeName\":\"node2\"}},"
        T_POD_X("subteam1.team1", "p", "", S1, "",
                T_ANTI(T_TERM_X(T_IN("service", SVC_IN), "hostname",
                                TEAM1_SEL)))), "subteam1.team1", "p"));
    st = kp_run_filters_with_nominated(&fx.c, &fx.cl.nodes[0]);
    CHECK_EQ_INT(st.code, KP_UNSCHEDULABLE);
    CHECK_EQ_STR(st.nreasons ? st.reasons[0] : "", R_ANTI);
    st = kp_run_filters_with_nominated(&fx.c, &fx.cl.nodes[1]);
    CHECK_EQ_INT(st.code, KP_SUCCESS);
    row_teardown(&fx);
}

/* A lower-priority pod in a namespace the anti-affinity selects is a
 * victim (RemovePod); with no Namespaces the node fits as it is. */
static void
test_inter_pod_affinity__namespace_selector_victim_is_preempted(void)
{
#define VICTIM_CLUSTER(nses)                                               \
    T_LIST(T_NODE("node1", L("hostname", "node1")) nses ","               \
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"subteam2.team1\"," \
        "\"name\":\"low\",\"labels\":{" SECSCAN "}},\"spec\":{\"nodeName\":" \
        "\"node1\",\"priority\":1,\"containers\":[{\"name\":\"c\"}]}},"      \
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"subteam1.team1\","  \
        "\"name\":\"p\",\"labels\":{" S1 "}},\"spec\":{\"priority\":10,"     \
        "\"containers\":[{\"name\":\"c\"}]" T_ANTI(T_TERM_X(                \
            T_IN("service", SVC_IN), "hostname", TEAM1_SEL)) "}}")
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, VICTIM_CLUSTER("," T_TEAM_NAMESPACES)) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_PREEMPTS);
    CHECK(pr && pr->nvictims == 1 &&
          strcmp(pr->victims[0].pod->name, "low") == 0);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
    CHECK(load_snapshot(&s, VICTIM_CLUSTER("")) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_FITS);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
#undef VICTIM_CLUSTER
}

/* ---- RemovePod against recomputation, on generated clusters ---- */

#define GEN_NODES 6
#define GEN_PODS 18

/* Nodes n0..n5 in zones z0..z2; pods app=a|b|c, a quarter of them with
 * anti-affinity to app=a (zone or host); pods on node skip left out. */
static void
gen_ipa_cluster(struct gen_buf *b, unsigned seed, int skip)
{
    static const char *const keys[] = {"zone", "host"};
    int i;

    b->n = 0;
    gen_printf(b, "{\"kind\":\"List\",\"items\":[");
    for (i = 0; i < GEN_NODES; i++)
        gen_printf(b, "{\"kind\":\"Node\",\"metadata\":{\"name\":"
                   "\"n%d\",\"labels\":{\"host\":\"n%d\",\"zone\":"
                   "\"z%d\"}}},", i, i, i % 3);
    for (i = 0; i < GEN_PODS; i++) {
        int node = (int)(gen_rand(&seed) % GEN_NODES);
        char app = (char)('a' + gen_rand(&seed) % 3);
        bool anti = gen_rand(&seed) % 4 == 0;
        const char *key = keys[gen_rand(&seed) % 2];

        if (node == skip)
            continue;
        gen_printf(b, T_POD("e%d", "n%d", "\"app\":\"%c\"", "%s%s%s") ",",
                   i, app, node, anti ? ",\"affinity\":{\"podAntiAffinity\":"
                   "{" T_REQ ":[{\"labelSelector\":" T_IN("app", Q("a"))
                   ",\"topologyKey\":\"" : "", anti ? key : "",
                   anti ? "\"}]}}" : "");
    }
    gen_printf(b, "%s", T_POD("p", "", L("app", "a"), T_AFF_ANTI(
        T_TERM(T_IN("app", Q("b")), "zone"),
        T_TERM(T_IN("app", Q("c")), "host"))) "]}");
}

static void
test_inter_pod_affinity__remove_pod_matches_recomputation(void)
{
    gen_check_remove_seeds(gen_ipa_cluster, GEN_NODES, 40, PLUGIN);
}

int
main(void)
{
    RUN(test_inter_pod_affinity__required_affinity_single_node);
    RUN(test_inter_pod_affinity__invalid_label_value_fails_pre_filter);
    RUN(test_inter_pod_affinity__required_affinity_multiple_nodes);
    RUN(test_inter_pod_affinity__add_remove_pod_updates_anti_affinity);
    RUN(test_inter_pod_affinity__add_remove_pod_updates_complex_anti_affinity);
    RUN(test_inter_pod_affinity__add_remove_pod_updates_affinity);
    RUN(test_inter_pod_affinity__incoming_affinity_anti_affinity_counts);
    RUN(test_inter_pod_affinity__nominated_pod_anti_affinity_is_added);
    RUN(test_inter_pod_affinity__skip_ignores_nominated_anti_affinity);
    RUN(test_inter_pod_affinity__victim_with_anti_affinity_is_preempted);
    RUN(test_inter_pod_affinity__affinity_failure_is_not_preempted);
    RUN(test_inter_pod_affinity__remove_pod_matches_recomputation);
    RUN(test_inter_pod_affinity__namespace_selector_semantics);
    RUN(test_inter_pod_affinity__warns_once_without_namespaces);
    RUN(test_inter_pod_affinity__nominated_pod_in_selected_namespace);
    RUN(test_inter_pod_affinity__namespace_selector_victim_is_preempted);
    return check_done();
}
