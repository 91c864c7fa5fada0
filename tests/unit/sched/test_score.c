/*
 * test_score.c - the default profile's Score plugins and host selection,
 * with rows of kubernetes/kubernetes pkg/scheduler/framework/plugins:
 * tainttoleration TestTaintTolerationScore, nodeaffinity
 * TestNodeAffinityPriority, noderesources TestLeastAllocatedScoringStrategy
 * and TestNodeResourcesBalancedAllocation, imagelocality
 * TestImageLocalityPriority, interpodaffinity TestPreferredAffinity,
 * interpodaffinity TestPreferredAffinityWithHardPodAffinitySymmetricWeight,
 * podtopologyspread TestPodTopologySpreadScore; and
 * pkg/scheduler/schedule_one_test.go TestNumFeasibleNodesToFind.
 *
 * Each row runs one plugin's PreScore, Score and NormalizeScore on the
 * candidate nodes (the others exist in the snapshot only).  Translation:
 * a pod that upstream builds without containers is written without
 * containers (the non-zero defaults apply per container); a pending pod
 * never has spec.nodeName (dropped where upstream sets it); upstream's
 * namespace "" is "default" (in a term's namespaces too); the "system
 * defaulting ... pods match service" row is run twice: with the
 * Service, as upstream, and with a ReplicaSet owner and no Service
 * (spread.h: the own-labels rule of an input without Services).
 */
#include "plugin_rows.h"
#include "config.h"
#include "resource_allocation.h"

#define MAXN 8

struct score_row {
    const char *name;
    const char *json;
    const char *nodes;          /* candidate node names, space separated */
    int64_t want[MAXN];
};

/* A row whose pending pod is in namespace ns. */
struct ns_score_row {
    const char *ns;
    struct score_row r;
};

/* Scores of plugin pl for the candidate nodes of a row. */
static bool
run_score_row_ns(const struct kp_score_plugin *pl, const struct score_row *r,
                 const char *ns)
{
    struct row_fixture fx;
    int idx[MAXN];
    int64_t got[MAXN];
    struct kp_score_nodes f;
    size_t n = 0, i;
    bool ok = row_setup_ns(&fx, r->json, ns, "p");
    const char *s = r->nodes;

    while (ok && *s && n < MAXN) {
        char name[64];
        size_t len = strcspn(s, " ");

        snprintf(name, sizeof(name), "%.*s", (int)len, s);
        idx[n++] = row_node(&fx, name);
        s += len + (s[len] == ' ');
    }
    f.c = &fx.c;
    f.nodes = idx;
    f.n = n;
    if (ok)
        kp_score_plugin_run(pl, &f, got);
    for (i = 0; ok && i < n; i++) {
        if (got[i] != r->want[i]) {
            printf("#   node %s: got %lld, want %lld\n",
                   fx.s.nodes[idx[i]]->name, (long long)got[i],
                   (long long)r->want[i]);
            ok = false;
        }
    }
    if (!ok)
        printf("#   row: %s\n", r->name);
    row_teardown(&fx);
    return ok;
}

static bool
run_score_row(const struct kp_score_plugin *pl, const struct score_row *r)
{
    return run_score_row_ns(pl, r, "default");
}

static void
run_score_rows(const struct kp_score_plugin *pl, const struct score_row *rows,
               size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        CHECK(run_score_row(pl, &rows[i]));
}

#define ROWS(pl, rows) run_score_rows(pl, rows, sizeof(rows) / sizeof(rows[0]))

/* ---- TaintToleration ---- */

#define TAINT(k, v, e)                                                     \
    "{\"key\":\"" k "\",\"value\":\"" v "\",\"effect\":\"" e "\"}"
#define TNODE(name, taints)                                                \
    T_NODE_X(name, "", "\"taints\":[" taints "]", "\"pods\":\"110\"")
#define TOL(k, v, e)                                                       \
    "{\"key\":\"" k "\",\"operator\":\"Equal\",\"value\":\"" v "\","        \
    "\"effect\":\"" e "\"}"
#define TPOD(tols) T_POD("p", "", "", ",\"tolerations\":[" tols "]")
#define PNS "PreferNoSchedule"

static const struct score_row taint_rows[] = {
    {"node with taints tolerated by the pod, gets a higher score than those "
     "node with intolerable taints",
     T_LIST(TNODE("nodeA", TAINT("foo", "bar", PNS)) ","
            TNODE("nodeB", TAINT("foo", "blah", PNS)) ","
            TPOD(TOL("foo", "bar", PNS))), "nodeA nodeB", {100, 0}},
    {"the nodes that all of their taints are tolerated by the pod, get the "
     "same score, no matter how many tolerable taints a node has",
     T_LIST(TNODE("nodeA", "") "," TNODE("nodeB", TAINT("cpu-type", "arm64",
            PNS)) "," TNODE("nodeC", TAINT("cpu-type", "arm64", PNS) ","
            TAINT("disk-type", "ssd", PNS)) ","
            TPOD(TOL("cpu-type", "arm64", PNS) "," TOL("disk-type", "ssd",
                 PNS))), "nodeA nodeB nodeC", {100, 100, 100}},
    {"the more intolerable taints a node has, the lower score it gets.",
     T_LIST(TNODE("nodeA", "") "," TNODE("nodeB", TAINT("cpu-type", "arm64",
            PNS)) "," TNODE("nodeC", TAINT("cpu-type", "arm64", PNS) ","
            TAINT("disk-type", "ssd", PNS)) "," TPOD(TOL("foo", "bar", PNS))),
     "nodeA nodeB nodeC", {100, 50, 0}},
    {"only taints and tolerations that have effect PreferNoSchedule are "
     "checked by taints-tolerations priority function",
     T_LIST(TNODE("nodeA", "") "," TNODE("nodeB", TAINT("cpu-type", "arm64",
            "NoSchedule")) "," TNODE("nodeC", TAINT("cpu-type", "arm64", PNS)
            "," TAINT("disk-type", "ssd", PNS)) ","
            TPOD(TOL("cpu-type", "arm64", "NoSchedule") "," TOL("disk-type",
                 "ssd", "NoSchedule"))), "nodeA nodeB nodeC", {100, 100, 0}},
    {"Default behaviour No taints and tolerations, lands on node with no "
     "taints",
     T_LIST(TNODE("nodeA", "") "," TNODE("nodeB", TAINT("cpu-type", "arm64",
            PNS)) "," TPOD("")), "nodeA nodeB", {100, 0}},
};

static void
test_score__taint_toleration(void)
{
    ROWS(&kp_score_taint_toleration, taint_rows);
}

/* ---- NodeAffinity ---- */

#define NA_TERM(w, exprs)                                                  \
    "{\"weight\":" #w ",\"preference\":{\"matchExpressions\":[" exprs "]}}"
#define NA_POD(terms)                                                      \
    T_POD("p", "", "", ",\"affinity\":{\"nodeAffinity\":{" T_PREF ":["     \
          terms "]}}")
#define AFFINITY1 NA_TERM(2, T_EXPR("foo", "In", Q("bar")))
#define AFFINITY2                                                          \
    NA_TERM(2, T_EXPR("foo", "In", Q("bar"))) ","                          \
    NA_TERM(4, T_EXPR("key", "In", Q("value"))) ","                        \
    NA_TERM(5, T_EXPR("foo", "In", Q("bar")) "," T_EXPR("key", "In",       \
            Q("value")) "," T_EXPR("az", "In", Q("az1")))
#define LABEL1 L("foo", "bar")
#define LABEL2 L("key", "value")
#define LABEL3 L("az", "az1")
#define LABEL4 L("abc", "az11") "," L("def", "az22")
#define LABEL5 L("foo", "bar") "," L("key", "value") "," L("az", "az1")

static const struct score_row node_affinity_rows[] = {
    {"all nodes are same priority as NodeAffinity is nil",
     T_LIST(T_NODE("node1", LABEL1) "," T_NODE("node2", LABEL2) ","
            T_NODE("node3", LABEL3) "," T_POD("p", "", "", "")),
     "node1 node2 node3", {0, 0, 0}},
    {"no node matches preferred scheduling requirements in NodeAffinity of "
     "pod so all nodes' priority is zero",
     T_LIST(T_NODE("node1", LABEL4) "," T_NODE("node2", LABEL2) ","
            T_NODE("node3", LABEL3) "," NA_POD(AFFINITY1)),
     "node1 node2 node3", {0, 0, 0}},
    {"only node1 matches the preferred scheduling requirements of pod",
     T_LIST(T_NODE("node1", LABEL1) "," T_NODE("node2", LABEL2) ","
            T_NODE("node3", LABEL3) "," NA_POD(AFFINITY1)),
     "node1 node2 node3", {100, 0, 0}},
    {"all nodes matches the preferred scheduling requirements of pod but "
     "with different priorities ",
     T_LIST(T_NODE("node1", LABEL1) "," T_NODE("node5", LABEL5) ","
            T_NODE("node2", LABEL2) "," NA_POD(AFFINITY2)),
     "node1 node5 node2", {18, 100, 36}},
};

static void
test_score__node_affinity(void)
{
    ROWS(&kp_score_node_affinity, node_affinity_rows);
}

/* ---- NodeResourcesFit (LeastAllocated) ---- */

#define CAP(name, cpu, mem)                                                \
    T_NODE_X(name, "", "", "\"cpu\":\"" cpu "\",\"memory\":\"" mem "\"")
#define NOCAP(name) T_NODE_X(name, "", "", "\"pods\":\"110\"")
#define REQ(cpu, mem)                                                      \
    "{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\","   \
    "\"memory\":\"" mem "\"}}}"
/* A pod with the given containers (possibly none). */
#define RPOD(name, node, containers)                                       \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":\"" \
    name "\"},\"spec\":{\"nodeName\":\"" node "\",\"containers\":["        \
    containers "]}}"
#define REQ_1_2 REQ("1000", "2000") "," REQ("2000", "3000")

static const struct score_row least_rows[] = {
    {"nothing scheduled, nothing requested",
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "4000", "10000")
            "," RPOD("p", "", "")), "node1 node2", {100, 100}},
    {"nothing scheduled, resources requested, differently sized nodes",
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "6000", "10000")
            "," RPOD("p", "", REQ_1_2)), "node1 node2", {37, 50}},
    {"no resources requested, pods scheduled",
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "4000", "10000")
            "," RPOD("e1", "node1", "") "," RPOD("e2", "node1", "") ","
            RPOD("e3", "node2", "") "," RPOD("e4", "node2", "") ","
            RPOD("p", "", "")), "node1 node2", {100, 100}},
    {"no resources requested, pods scheduled with resources",
     T_LIST(CAP("node1", "10000", "20000") "," CAP("node2", "10000", "20000")
            "," RPOD("e1", "node1", REQ("3000", "0")) ","
            RPOD("e2", "node1", REQ("3000", "0")) ","
            RPOD("e3", "node2", REQ("3000", "0")) ","
            RPOD("e4", "node2", REQ("3000", "5000")) "," RPOD("p", "", "")),
     "node1 node2", {70, 57}},
    {"resources requested, pods scheduled with resources",
     T_LIST(CAP("node1", "10000", "20000") "," CAP("node2", "10000", "20000")
            "," RPOD("e1", "node1", REQ("3000", "0")) ","
            RPOD("e2", "node2", REQ("3000", "5000")) ","
            RPOD("p", "", REQ_1_2)), "node1 node2", {57, 45}},
    {"resources requested, pods scheduled with resources, differently sized "
     "nodes",
     T_LIST(CAP("node1", "10000", "20000") "," CAP("node2", "10000", "50000")
            "," RPOD("e1", "node1", REQ("3000", "0")) ","
            RPOD("e2", "node2", REQ("3000", "5000")) ","
            RPOD("p", "", REQ_1_2)), "node1 node2", {57, 60}},
    {"requested resources exceed node capacity",
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "4000", "10000")
            "," RPOD("e1", "node1", REQ("3000", "0")) ","
            RPOD("e2", "node2", REQ("3000", "5000")) ","
            RPOD("p", "", REQ("3000", "0"))), "node1 node2", {50, 25}},
    {"zero node resources, pods scheduled with resources",
     T_LIST(NOCAP("node1") "," NOCAP("node2") ","
            RPOD("e1", "node1", REQ("3000", "0")) ","
            RPOD("e2", "node2", REQ("3000", "5000")) "," RPOD("p", "", "")),
     "node1 node2", {0, 0}},
};

static void
test_score__least_allocated(void)
{
    ROWS(&kp_score_node_resources_fit, least_rows);
}

/* ---- NodeResourcesBalancedAllocation ---- */

#define BNODE(name, mcpu, mem)                                             \
    T_NODE_X(name, "", "", "\"cpu\":\"" mcpu "m\",\"memory\":\"" mem "\"")
#define CPU_ONLY REQ("1000m", "0") "," REQ("2000m", "0")
#define CPU_AND_MEMORY REQ("1000m", "2000") "," REQ("2000m", "3000")

/*
 * Up to v1.35: the balance with the pod alone.  Rows of
 * TestNodeResourcesBalancedAllocation before kubernetes/kubernetes#135573.
 */
static const struct score_row balanced_rows_135[] = {
    {"nothing scheduled, nothing requested, skip in PreScore",
     T_LIST(BNODE("node1", "4000", "10000") "," BNODE("node2", "4000",
            "10000") "," RPOD("p", "", "")), "node1 node2", {0, 0}},
    {"nothing scheduled, resources requested, differently sized nodes",
     T_LIST(BNODE("node1", "4000", "10000") "," BNODE("node2", "6000",
            "10000") "," RPOD("p", "", CPU_AND_MEMORY)),
     "node1 node2", {87, 100}},
    {"resources requested, pods scheduled with resources",
     T_LIST(BNODE("node1", "10000", "20000") "," BNODE("node2", "10000",
            "20000") "," RPOD("e1", "node1", CPU_ONLY) ","
            RPOD("e2", "node2", CPU_AND_MEMORY) ","
            RPOD("p", "", CPU_AND_MEMORY)), "node1 node2", {82, 95}},
    {"resources requested, pods scheduled with resources, differently sized "
     "nodes",
     T_LIST(BNODE("node1", "10000", "20000") "," BNODE("node2", "10000",
            "50000") "," RPOD("e1", "node1", CPU_ONLY) ","
            RPOD("e2", "node2", CPU_AND_MEMORY) ","
            RPOD("p", "", CPU_AND_MEMORY)), "node1 node2", {82, 80}},
    {"requested resources at node capacity",
     T_LIST(BNODE("node1", "6000", "10000") "," BNODE("node2", "6000",
            "10000") "," RPOD("e1", "node1", CPU_ONLY) ","
            RPOD("e2", "node2", CPU_AND_MEMORY) ","
            RPOD("p", "", CPU_ONLY)), "node1 node2", {50, 75}},
};

/*
 * From v1.36 (#135573): 50 + (50 + withPod - withoutPod) / 2.  The same
 * rows, scored as the PR's table scores them: "requested resources at
 * node capacity" is its 62/62 row (node1 cpu 50% -> 100%, memory 0%:
 * 75 -> 50; node2 cpu 50% -> 100%, memory 50%: 100 -> 75).
 */
static const struct score_row balanced_rows_136[] = {
    {"nothing scheduled, nothing requested, skip in PreScore",
     T_LIST(BNODE("node1", "4000", "10000") "," BNODE("node2", "4000",
            "10000") "," RPOD("p", "", "")), "node1 node2", {0, 0}},
    /* node1 0/0 -> 75%/50%: 100 -> 87; node2 0/0 -> 50%/50%: 100 -> 100 */
    {"nothing scheduled, resources requested, differently sized nodes",
     T_LIST(BNODE("node1", "4000", "10000") "," BNODE("node2", "6000",
            "10000") "," RPOD("p", "", CPU_AND_MEMORY)),
     "node1 node2", {68, 75}},
    /* node1 30%/0 -> 60%/25%: 85 -> 82; node2 30%/25% -> 60%/50%: 97 -> 95 */
    {"resources requested, pods scheduled with resources",
     T_LIST(BNODE("node1", "10000", "20000") "," BNODE("node2", "10000",
            "20000") "," RPOD("e1", "node1", CPU_ONLY) ","
            RPOD("e2", "node2", CPU_AND_MEMORY) ","
            RPOD("p", "", CPU_AND_MEMORY)), "node1 node2", {73, 74}},
    /* node2 30%/10% -> 60%/20%: 90 -> 80 */
    {"resources requested, pods scheduled with resources, differently sized "
     "nodes",
     T_LIST(BNODE("node1", "10000", "20000") "," BNODE("node2", "10000",
            "50000") "," RPOD("e1", "node1", CPU_ONLY) ","
            RPOD("e2", "node2", CPU_AND_MEMORY) ","
            RPOD("p", "", CPU_AND_MEMORY)), "node1 node2", {73, 70}},
    {"requested resources at node capacity",
     T_LIST(BNODE("node1", "6000", "10000") "," BNODE("node2", "6000",
            "10000") "," RPOD("e1", "node1", CPU_ONLY) ","
            RPOD("e2", "node2", CPU_AND_MEMORY) ","
            RPOD("p", "", CPU_ONLY)), "node1 node2", {62, 62}},
};

/* Rows scored by a default profile replaying minor (0: the default). */
static void
run_score_rows_minor(const struct kp_score_plugin *pl,
                     const struct score_row *rows, size_t n, int minor)
{
    struct kp_profile prof;
    struct row_fixture fx;
    size_t i, j;

    memset(&prof, 0, sizeof(prof));
    prof.fit_default = prof.ba_default = true;
    prof.kube_minor = minor;
    for (i = 0; i < n; i++) {
        const struct score_row *r = &rows[i];
        int idx[MAXN];
        int64_t got[MAXN];
        struct kp_score_nodes f;
        size_t nn = 0;
        const char *s = r->nodes;
        bool ok = row_setup(&fx, r->json, "p");

        while (ok && *s && nn < MAXN) {
            char name[64];
            size_t len = strcspn(s, " ");

            snprintf(name, sizeof(name), "%.*s", (int)len, s);
            idx[nn++] = row_node(&fx, name);
            s += len + (s[len] == ' ');
        }
        fx.c.profile = &prof;
        f.c = &fx.c;
        f.nodes = idx;
        f.n = nn;
        if (ok)
            kp_score_plugin_run(pl, &f, got);
        for (j = 0; ok && j < nn; j++)
            if (got[j] != r->want[j]) {
                printf("#   1.%d node %s: got %lld, want %lld\n", minor,
                       fx.s.nodes[idx[j]]->name, (long long)got[j],
                       (long long)r->want[j]);
                ok = false;
            }
        if (!ok)
            printf("#   row: %s\n", r->name);
        row_teardown(&fx);
        CHECK(ok);
    }
}

#define ROWS_MINOR(pl, rows, minor)                                        \
    run_score_rows_minor(pl, rows, sizeof(rows) / sizeof(rows[0]), minor)

static void
test_score__balanced_allocation(void)
{
    /* no profile: the default, 1.37 */
    ROWS(&kp_score_balanced_allocation, balanced_rows_136);
}

static void
test_score__balanced_allocation_versions(void)
{
    ROWS_MINOR(&kp_score_balanced_allocation, balanced_rows_135, 31);
    ROWS_MINOR(&kp_score_balanced_allocation, balanced_rows_135, 35);
    ROWS_MINOR(&kp_score_balanced_allocation, balanced_rows_136, 36);
    ROWS_MINOR(&kp_score_balanced_allocation, balanced_rows_136, 38);
}

static void
test_score__balanced_change_score(void)
{
    CHECK_EQ_INT(kp_balanced_change_score(90, 90), 75);
    CHECK_EQ_INT(kp_balanced_change_score(50, 100), 50);
    CHECK_EQ_INT(kp_balanced_change_score(100, 50), 100);
    /* Go's int64 division truncates: 50 + 43/2 */
    CHECK_EQ_INT(kp_balanced_change_score(93, 100), 71);
}

/* ---- ImageLocality ---- */

#define IMG(names, mb) "{\"names\":[" names "],\"sizeBytes\":" #mb "}"
#define INODE(name, images)                                                \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},\"status\":"  \
    "{\"images\":[" images "]}}"
#define N403002000                                                          \
    IMG(Q("gcr.io/40:latest") "," Q("gcr.io/40:v1") "," Q("gcr.io/40:v1"),  \
        41943040) "," IMG(Q("gcr.io/300:latest") "," Q("gcr.io/300:v1"),    \
        314572800) "," IMG(Q("gcr.io/2000:latest"), 2097152000)
#define N25010 IMG(Q("gcr.io/250:latest"), 262144000) ","                  \
    IMG(Q("gcr.io/10:latest") "," Q("gcr.io/10:v1"), 10485760)
#define N60040900 IMG(Q("gcr.io/600:latest"), 629145600) ","               \
    IMG(Q("gcr.io/40:latest"), 41943040) ","                               \
    IMG(Q("gcr.io/900:latest"), 943718400)
#define N300600900 IMG(Q("gcr.io/300:latest"), 314572800) ","              \
    IMG(Q("gcr.io/600:latest"), 629145600) ","                             \
    IMG(Q("gcr.io/900:latest"), 943718400)
#define N400030 IMG(Q("gcr.io/4000:latest"), 4194304000) ","               \
    IMG(Q("gcr.io/30:latest"), 31457280)
#define N203040 IMG(Q("gcr.io/20:latest"), 20971520) ","                   \
    IMG(Q("gcr.io/30:latest"), 31457280) ","                               \
    IMG(Q("gcr.io/40:latest"), 41943040)
#define C(image) "{\"name\":\"c\",\"image\":\"" image "\"}"
#define IPOD(containers, init)                                             \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\","           \
    "\"name\":\"p\"},\"spec\":{\"containers\":[" containers "]" init "}}"

static const struct score_row image_rows[] = {
    {"two images spread on two nodes, prefer the larger image one",
     T_LIST(INODE("node1", N403002000) "," INODE("node2", N25010) ","
            IPOD(C("gcr.io/40") "," C("gcr.io/250"), "")),
     "node1 node2", {0, 5}},
    {"two images on one node, prefer this node",
     T_LIST(INODE("node1", N403002000) "," INODE("node2", N25010) ","
            IPOD(C("gcr.io/40") "," C("gcr.io/300"), "")),
     "node1 node2", {7, 0}},
    {"if exceed limit, use limit",
     T_LIST(INODE("node1", N400030) "," INODE("node2", N25010) ","
            IPOD(C("gcr.io/10") "," C("gcr.io/4000"), "")),
     "node1 node2", {100, 0}},
    {"if exceed limit, use limit (with node which has no images present)",
     T_LIST(INODE("node1", N400030) "," INODE("node2", N25010) ","
            INODE("node3", "") "," IPOD(C("gcr.io/10") "," C("gcr.io/4000"),
                                        "")),
     "node1 node2 node3", {66, 0, 0}},
    {"pod with multiple large images, node2 is preferred",
     T_LIST(INODE("node1", N60040900) "," INODE("node2", N300600900) ","
            INODE("node3", "") "," IPOD(C("gcr.io/300") "," C("gcr.io/600")
                                        "," C("gcr.io/900"), "")),
     "node1 node2 node3", {32, 36, 0}},
    {"pod with multiple small images",
     T_LIST(INODE("node1", N203040) "," INODE("node2", N400030) ","
            IPOD(C("gcr.io/30") "," C("gcr.io/40"), "")),
     "node1 node2", {1, 0}},
    {"include InitContainers: two images spread on two nodes, prefer the "
     "larger image one",
     T_LIST(INODE("node1", N403002000) "," INODE("node2", N203040) ","
            IPOD(C("gcr.io/30"), ",\"initContainers\":[" C("gcr.io/300")
                 "]")), "node1 node2", {6, 0}},
};

static void
test_score__image_locality(void)
{
    ROWS(&kp_score_image_locality, image_rows);
}

/* ---- InterPodAffinity ---- */

#define CHINA L("region", "China")
#define INDIA L("region", "India")
#define AZ1 L("az", "az1")
#define AZ2 L("az", "az2")
#define CHINA_AZ1 L("region", "China") "," L("az", "az1")
#define SEC1 L("security", "S1")
#define SEC2 L("security", "S2")
#define WT(w, sel, key) T_WTERM(w, T_TERM(sel, key))
#define PREF_AFF(terms) "\"podAffinity\":{" T_PREF ":[" terms "]}"
#define PREF_ANTI(terms) "\"podAntiAffinity\":{" T_PREF ":[" terms "]}"
#define AFFX(...) ",\"affinity\":{" __VA_ARGS__ "}"
#define STAY_S1_REGION PREF_AFF(WT(5, T_IN("security", Q("S1")), "region"))
#define STAY_S2_REGION PREF_AFF(WT(6, T_IN("security", Q("S2")), "region"))
#define AWAY_S1_AZ PREF_ANTI(WT(5, T_IN("security", Q("S1")), "az"))
#define AWAY_S2_AZ PREF_ANTI(WT(5, T_IN("security", Q("S2")), "az"))
#define STAY_S1_AWAY_S2                                                    \
    PREF_AFF(WT(8, T_IN("security", Q("S1")), "region")) ","               \
    PREF_ANTI(WT(5, T_IN("security", Q("S2")), "az"))
#define AFFINITY3 PREF_AFF(                                                \
    WT(8, T_SEL(T_EXPR("security", "NotIn", Q("S1")) ","                   \
                T_EXPR("security", "In", Q("S2"))), "region") ","         \
    WT(2, T_SEL("{\"key\":\"security\",\"operator\":\"Exists\"},"          \
                "{\"key\":\"wrongkey\",\"operator\":\"DoesNotExist\"}"),   \
       "region"))
#define HARD_AFFINITY "\"podAffinity\":{" T_REQ ":["                      \
    T_TERM(T_IN("security", Q("S1") "," Q("value2")), "region") ","       \
    T_TERM(T_SEL("{\"key\":\"security\",\"operator\":\"Exists\"},"         \
                 "{\"key\":\"wrongkey\",\"operator\":\"DoesNotExist\"}"),  \
           "region") "]}"

static const struct score_row ipa_rows[] = {
    {"Affinity: pod that matches topology key & pods in nodes will get high "
     "score comparing to otherswhich doesn't match either pods in nodes or "
     "in topology key",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", INDIA) ","
            T_NODE("node3", AZ1) "," T_POD("e1", "node1", SEC1, "") ","
            T_POD("e2", "node2", SEC2, "") "," T_POD("e3", "node3", SEC1, "")
            "," T_POD("p", "", SEC1, AFFX(STAY_S1_REGION))),
     "node1 node2 node3", {100, 0, 0}},
    {"All the nodes that have the same topology key & label value with one "
     "of them has an existing pod that match the affinity rules, have the "
     "same score",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", CHINA_AZ1) ","
            T_NODE("node3", INDIA) "," T_POD("e1", "node1", SEC1, "") ","
            T_POD("p", "", "", AFFX(STAY_S1_REGION))),
     "node1 node2 node3", {100, 100, 0}},
    {"Affinity: nodes in one region has more matching pods comparing to "
     "other region, so the region which has more matches will get high score",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", INDIA) ","
            T_NODE("node3", CHINA) "," T_NODE("node4", CHINA) ","
            T_NODE("node5", INDIA) "," T_POD("e1", "node1", SEC2, "") ","
            T_POD("e2", "node1", SEC2, "") "," T_POD("e3", "node2", SEC2, "")
            "," T_POD("e4", "node3", SEC2, "") ","
            T_POD("e5", "node4", SEC2, "") "," T_POD("e6", "node5", SEC2, "")
            "," T_POD("p", "", SEC1, AFFX(STAY_S2_REGION))),
     "node1 node2 node3 node4 node5", {100, 0, 100, 100, 0}},
    {"Affinity: different Label operators and values for pod affinity "
     "scheduling preference, including some match failures ",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", INDIA) ","
            T_NODE("node3", AZ1) "," T_POD("e1", "node1", SEC1, "") ","
            T_POD("e2", "node2", SEC2, "") "," T_POD("e3", "node3", SEC1, "")
            "," T_POD("p", "", SEC1, AFFX(AFFINITY3))),
     "node1 node2 node3", {20, 100, 0}},
    {"Affinity symmetry: considered only the "
     "preferredDuringSchedulingIgnoredDuringExecution in pod affinity "
     "symmetry",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", INDIA) ","
            T_NODE("node3", AZ1) "," T_POD("e1", "node1", SEC1,
            AFFX(STAY_S1_REGION)) "," T_POD("e2", "node2", SEC2,
            AFFX(STAY_S2_REGION)) "," T_POD("p", "", SEC2, "")),
     "node1 node2 node3", {0, 100, 0}},
    {"Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuring"
     "Execution in pod affinity symmetry",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", INDIA) ","
            T_NODE("node3", AZ1) "," T_POD("e1", "node1", SEC1,
            AFFX(HARD_AFFINITY)) "," T_POD("e2", "node2", SEC2,
            AFFX(HARD_AFFINITY)) "," T_POD("p", "", SEC1, "")),
     "node1 node2 node3", {100, 100, 0}},
    {"Anti Affinity: pod that does not match existing pods in node will get "
     "high score ",
     T_LIST(T_NODE("node1", AZ1) "," T_NODE("node2", CHINA) ","
            T_POD("e1", "node1", SEC1, "") "," T_POD("e2", "node2", SEC2, "")
            "," T_POD("p", "", SEC1, AFFX(AWAY_S1_AZ))),
     "node1 node2", {0, 100}},
    {"Anti Affinity: pod that does not match topology key & match the pods "
     "in nodes will get higher score comparing to others ",
     T_LIST(T_NODE("node1", AZ1) "," T_NODE("node2", CHINA) ","
            T_POD("e1", "node1", SEC1, "") "," T_POD("e2", "node2", SEC1, "")
            "," T_POD("p", "", SEC1, AFFX(AWAY_S1_AZ))),
     "node1 node2", {0, 100}},
    {"Anti Affinity: one node has more matching pods comparing to other "
     "node, so the node which has more unmatches will get high score",
     T_LIST(T_NODE("node1", AZ1) "," T_NODE("node2", INDIA) ","
            T_POD("e1", "node1", SEC1, "") "," T_POD("e2", "node1", SEC1, "")
            "," T_POD("e3", "node2", SEC2, "") ","
            T_POD("p", "", SEC1, AFFX(AWAY_S1_AZ))),
     "node1 node2", {0, 100}},
    {"Anti Affinity symmetry: the existing pods in node which has anti "
     "affinity match will get high score",
     T_LIST(T_NODE("node1", AZ1) "," T_NODE("node2", AZ2) ","
            T_POD("e1", "node1", SEC1, AFFX(AWAY_S2_AZ)) ","
            T_POD("e2", "node2", SEC2, AFFX(AWAY_S1_AZ)) ","
            T_POD("p", "", SEC2, "")), "node1 node2", {0, 100}},
    {"Affinity and Anti Affinity: considered only "
     "preferredDuringSchedulingIgnoredDuringExecution in both pod affinity "
     "& anti affinity",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", AZ1) ","
            T_POD("e1", "node1", SEC1, "") "," T_POD("e2", "node2", SEC1, "")
            "," T_POD("p", "", SEC1, AFFX(STAY_S1_AWAY_S2))),
     "node1 node2", {100, 0}},
    {"Affinity and Anti Affinity: considering both affinity and "
     "anti-affinity, the pod to schedule and existing pods have the same "
     "labels",
     T_LIST(T_NODE("node1", CHINA_AZ1) "," T_NODE("node2", INDIA) ","
            T_NODE("node3", CHINA) "," T_NODE("node4", CHINA) ","
            T_NODE("node5", INDIA) "," T_POD("e1", "node1", SEC1, "") ","
            T_POD("e2", "node1", SEC1, "") "," T_POD("e3", "node2", SEC1, "")
            "," T_POD("e4", "node3", SEC1, "") ","
            T_POD("e5", "node3", SEC1, "") "," T_POD("e6", "node4", SEC1, "")
            "," T_POD("e7", "node5", SEC1, "") ","
            T_POD("p", "", SEC1, AFFX(STAY_S1_AWAY_S2))),
     "node1 node2 node3 node4 node5", {100, 0, 100, 100, 0}},
    {"Affinity and Anti Affinity and symmetry: considered only "
     "preferredDuringSchedulingIgnoredDuringExecution in both pod affinity "
     "& anti affinity & symmetry",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", AZ1) ","
            T_NODE("node3", INDIA) "," T_NODE("node4", AZ2) ","
            T_POD("e1", "node1", SEC1, "") "," T_POD("e2", "node2", SEC2, "")
            "," T_POD("e3", "node3", "", AFFX(STAY_S1_AWAY_S2)) ","
            T_POD("e4", "node4", "", AFFX(AWAY_S1_AZ)) ","
            T_POD("p", "", SEC1, AFFX(STAY_S1_AWAY_S2))),
     "node1 node2 node3 node4", {100, 0, 100, 0}},
    {"Avoid panic when partial nodes in a topology don't have pods with "
     "affinity",
     T_LIST(T_NODE("node1", CHINA) "," T_NODE("node2", CHINA) ","
            T_POD("e1", "node1", SEC1, "") ","
            T_POD("e2", "node2", "", AFFX(STAY_S1_AWAY_S2)) ","
            T_POD("p", "", SEC1, "")), "node1 node2", {0, 0}},
    /*
     * Not upstream's: nodes with both keys a term names add the scores
     * of both (Score ranges over topologyScore's keys): node1 8 - 5,
     * node2 8, node3 0.
     */
    {"Affinity on region and anti-affinity on az of the same nodes: both "
     "keys count",
     T_LIST(T_NODE("node1", CHINA_AZ1) "," T_NODE("node2", CHINA ","
            L("az", "az2")) "," T_NODE("node3", INDIA "," L("az", "az2"))
            "," T_POD("e1", "node1", SEC1, "") ","
            T_POD("e2", "node1", SEC2, "") ","
            T_POD("p", "", SEC1, AFFX(STAY_S1_AWAY_S2))),
     "node1 node2 node3", {37, 100, 0}},
};

/*
 * The namespaceSelector rows, with upstream's four team Namespaces.
 * TestPreferredAffinityWithHardPodAffinitySymmetricWeight's "with zero
 * weight" is not ported: hardPodAffinityWeight is always 1 here.
 */
#define NS_TERM(w)                                                         \
    T_WTERM(w, T_TERM_X(T_IN("security", Q("S1")), "region",             \
                        ",\"namespaces\":[\"subteam2.team2\"],"          \
                        "\"namespaceSelector\":" T_IN("team", Q("team1"))))
#define AFF_NS_SELECTOR PREF_AFF(NS_TERM(5))
#define ANTI_NS_SELECTOR PREF_ANTI(NS_TERM(5))
#define HARD_POD_AFFINITY "\"podAffinity\":{" T_REQ ":["                   \
    T_TERM_X(T_IN("service", Q("S1")), "region",                          \
             ",\"namespaces\":[\"default\",\"subteam2.team2\"],"        \
             "\"namespaceSelector\":" T_IN("team", Q("team1"))) "]}"
#define NS_POD(ns, name, node, aff)                                        \
    T_POD_X(ns, name, node, SEC1, "", aff)
#define NS_POD_SPREAD(aff, ns3)                                            \
    T_LIST(T_TEAM_NAMESPACES "," T_NODE("node1", CHINA) ","               \
           T_NODE("node2", INDIA) ","                                      \
           NS_POD("subteam1.team1", "e1", "node1", "") ","                 \
           NS_POD("subteam1.team1", "e2", "node1", "") ","                 \
           NS_POD(ns3, "e3", "node1", "") ","                              \
           NS_POD("subteam2.team1", "e4", "node2", "") ","                 \
           NS_POD("subteam1.team1", "p", "", AFFX(aff)))
#define HARD_SYM(ns)                                                       \
    T_LIST(T_TEAM_NAMESPACES "," T_NODE("node1", CHINA) ","               \
           T_NODE("node2", INDIA) "," T_NODE("node3", AZ1) ","             \
           T_POD("e1", "node1", "", AFFX(HARD_POD_AFFINITY)) ","           \
           T_POD("e2", "node2", "", AFFX(HARD_POD_AFFINITY)) ","           \
           T_POD_X(ns, "p", "", L("service", "S1"), "", ""))

/* Upstream's two anti-affinity rows repeat the affinity rows' names. */
static const struct ns_score_row ipa_namespace_rows[] = {
    {"subteam1.team1", {"Affinity symmetry with namespace selector",
     T_LIST(T_TEAM_NAMESPACES "," T_NODE("node1", CHINA) ","
            T_NODE("node2", INDIA) "," T_NODE("node3", AZ1) ","
            T_POD("e1", "node1", SEC1, AFFX(AFF_NS_SELECTOR)) ","
            T_POD("e2", "node2", SEC2, AFFX(STAY_S2_REGION)) ","
            NS_POD("subteam1.team1", "p", "", "")),
     "node1 node2 node3", {100, 0, 0}}},
    {"subteam1.team1", {"AntiAffinity symmetry with namespace selector",
     T_LIST(T_TEAM_NAMESPACES "," T_NODE("node1", CHINA) ","
            T_NODE("node2", INDIA) "," T_NODE("node3", AZ1) ","
            T_POD("e1", "node1", SEC1, AFFX(ANTI_NS_SELECTOR)) ","
            T_POD("e2", "node2", SEC2, AFFX(STAY_S2_REGION)) ","
            NS_POD("subteam1.team1", "p", "", "")),
     "node1 node2 node3", {0, 100, 100}}},
    {"subteam1.team1", {"Affinity with pods matching NamespaceSelector",
     NS_POD_SPREAD(AFF_NS_SELECTOR, "subteam1.team2"), "node1 node2",
     {100, 0}}},
    {"subteam1.team1", {"Affinity with pods matching both "
     "NamespaceSelector and Namespaces fields",
     NS_POD_SPREAD(AFF_NS_SELECTOR, "subteam2.team2"), "node1 node2",
     {100, 0}}},
    {"subteam1.team1", {"Affinity with pods matching NamespaceSelector "
     "(anti-affinity)",
     NS_POD_SPREAD(ANTI_NS_SELECTOR, "subteam1.team2"), "node1 node2",
     {0, 100}}},
    {"subteam1.team1", {"Affinity with pods matching both "
     "NamespaceSelector and Namespaces fields (anti-affinity)",
     NS_POD_SPREAD(ANTI_NS_SELECTOR, "subteam2.team2"), "node1 node2",
     {0, 100}}},
    /* TestPreferredAffinityWithHardPodAffinitySymmetricWeight */
    {"default", {"with default weight", HARD_SYM("default"),
     "node1 node2 node3", {100, 100, 0}}},
    {"subteam1.team2", {"with no matching namespace",
     HARD_SYM("subteam1.team2"), "node1 node2 node3", {0, 0, 0}}},
    {"subteam1.team1", {"with matching NamespaceSelector",
     HARD_SYM("subteam1.team1"), "node1 node2 node3", {100, 100, 0}}},
    {"subteam2.team2", {"with matching Namespaces",
     HARD_SYM("subteam2.team2"), "node1 node2 node3", {100, 100, 0}}},
};

static void
test_score__inter_pod_affinity(void)
{
    size_t i;

    ROWS(&kp_score_inter_pod_affinity, ipa_rows);
    for (i = 0; i < sizeof(ipa_namespace_rows) /
                    sizeof(ipa_namespace_rows[0]); i++)
        CHECK(run_score_row_ns(&kp_score_inter_pod_affinity,
                               &ipa_namespace_rows[i].r,
                               ipa_namespace_rows[i].ns));
}

/* "all nodes are same priority as Affinity is nil": PreScore skips. */
static void
test_score__inter_pod_affinity_skips_without_terms(void)
{
    struct row_fixture fx;
    int idx[1] = {0};
    struct kp_score_nodes f;
    void *state = NULL;

    CHECK(row_setup(&fx, T_LIST(T_NODE("node1", CHINA) ","
                                T_POD("p", "", SEC1, "")), "p"));
    f.c = &fx.c;
    f.nodes = idx;
    f.n = 1;
    CHECK(!kp_score_inter_pod_affinity.pre_score(&f, &state));
    row_teardown(&fx);
    /* "with no matching namespace" (hard affinity symmetric weight) */
    CHECK(row_setup_ns(&fx, HARD_SYM("subteam1.team2"), "subteam1.team2",
                       "p"));
    f.c = &fx.c;
    CHECK(!kp_score_inter_pod_affinity.pre_score(&f, &state));
    row_teardown(&fx);
}

/* ---- PodTopologySpread ---- */

#define HN(name) T_NODE(name, L("kubernetes.io/hostname", name))
#define ZHN(name, zone)                                                    \
    T_NODE(name, L("zone", zone) "," L("kubernetes.io/hostname", name))
#define FOO L("foo", "")
#define ON(name, node) T_POD(name, node, FOO, "")
#define SOFT(skew, key, sel) T_TSC(skew, key, T_SOFT, sel, "")
#define HOST "kubernetes.io/hostname"
#define SPREAD_4321 ON("p-a1", "node-a") "," ON("p-a2", "node-a") ","      \
    ON("p-a3", "node-a") "," ON("p-a4", "node-a") "," ON("p-b1", "node-b") \
    "," ON("p-b2", "node-b") "," ON("p-b3", "node-b") ","                  \
    ON("p-c1", "node-c") "," ON("p-c2", "node-c") "," ON("p-d1", "node-d")
#define SPREAD_2103 ON("p-a1", "node-a") "," ON("p-a2", "node-a") ","      \
    ON("p-b1", "node-b") "," ON("p-d1", "node-d") "," ON("p-d2", "node-d") \
    "," ON("p-d3", "node-d")
#define SPREAD_421_3 ON("p-a1", "node-a") "," ON("p-a2", "node-a") ","     \
    ON("p-a3", "node-a") "," ON("p-a4", "node-a") "," ON("p-b1", "node-b") \
    "," ON("p-b2", "node-b") "," ON("p-x1", "node-x") ","                  \
    ON("p-y1", "node-y") "," ON("p-y2", "node-y") "," ON("p-y3", "node-y")
#define ABCD HN("node-a") "," HN("node-b") "," HN("node-c") "," HN("node-d")
#define RS_OWNER                                                           \
    ",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":"          \
    "\"ReplicaSet\",\"name\":\"rs\",\"uid\":\"u\",\"controller\":true}]"

/* a Service of namespace default selecting foo="" */
#define SERVICE_FOO                                                        \
    "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{"        \
    "\"name\":\"svc\",\"namespace\":\"default\"},\"spec\":{"             \
    "\"selector\":{\"foo\":\"\"}}}"

static const struct score_row spread_rows[] = {
    {"one constraint on node, no existing pods",
     T_LIST(HN("node-a") "," HN("node-b") ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(1, HOST, T_EXISTS("foo"))))),
     "node-a node-b", {100, 100}},
    {"one constraint on node, only one node is candidate",
     T_LIST(HN("node-a") "," HN("node-b") "," ON("p-a1", "node-a") ","
            ON("p-a2", "node-a") "," ON("p-b1", "node-b") ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(1, HOST, T_EXISTS("foo"))))),
     "node-a", {100}},
    {"one constraint on node, all nodes have the same number of matching "
     "pods",
     T_LIST(HN("node-a") "," HN("node-b") "," ON("p-a1", "node-a") ","
            ON("p-b1", "node-b") ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(1, HOST, T_EXISTS("foo"))))),
     "node-a node-b", {100, 100}},
    {"one constraint on node, all 4 nodes are candidates",
     T_LIST(ABCD "," SPREAD_2103 ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(1, HOST, T_EXISTS("foo"))))),
     "node-a node-b node-c node-d", {20, 60, 100, 0}},
    {"one constraint on node, null selector",
     T_LIST(ABCD "," SPREAD_2103 ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(1, HOST, "null")))),
     "node-a node-b node-c node-d", {100, 100, 100, 100}},
    {"one constraint on node, all 4 nodes are candidates, maxSkew=2",
     T_LIST(ABCD "," SPREAD_2103 ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(2, HOST, T_EXISTS("foo"))))),
     "node-a node-b node-c node-d", {33, 66, 100, 16}},
    {"one constraint on node, all 4 nodes are candidates, maxSkew=3",
     T_LIST(ABCD "," SPREAD_4321 ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(3, HOST, T_EXISTS("foo"))))),
     "node-a node-b node-c node-d", {44, 66, 77, 100}},
    {"system defaulting, nodes don't have zone, pods match service (here: "
     "a ReplicaSet owner)",
     T_LIST(ABCD "," SPREAD_4321 ","
            T_POD_X("default", "p", "", FOO, RS_OWNER, "")),
     "node-a node-b node-c node-d", {44, 66, 77, 100}},
    /* helper.DefaultSelector: the Service's selector, no owner needed */
    {"system defaulting, nodes don't have zone, pods match service",
     T_LIST(ABCD "," SPREAD_4321 "," SERVICE_FOO ","
            T_POD("p", "", FOO, "")),
     "node-a node-b node-c node-d", {44, 66, 77, 100}},
    {"one constraint on node, 3 out of 4 nodes are candidates",
     T_LIST(HN("node-a") "," HN("node-b") "," HN("node-x") "," HN("node-y")
            "," SPREAD_421_3 ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(1, HOST, T_EXISTS("foo"))))),
     "node-a node-b node-x", {33, 83, 100}},
    {"one constraint on node, 3 out of 4 nodes are candidates, one node "
     "doesn't match topology key",
     T_LIST(HN("node-a") "," T_NODE("node-b", L("n", "node-b")) ","
            HN("node-x") "," HN("node-y") "," SPREAD_421_3 ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(1, HOST, T_EXISTS("foo"))))),
     "node-a node-b node-x", {16, 0, 100}},
    {"one constraint on zone, 3 out of 4 nodes are candidates",
     T_LIST(ZHN("node-a", "zone1") "," ZHN("node-b", "zone1") ","
            ZHN("node-x", "zone2") "," ZHN("node-y", "zone2") ","
            SPREAD_421_3 ","
            T_POD("p", "", FOO, T_SPREAD(SOFT(1, "zone", T_EXISTS("foo"))))),
     "node-a node-b node-x", {75, 75, 100}},
};

static void
test_score__pod_topology_spread(void)
{
    ROWS(&kp_score_pod_topology_spread, spread_rows);
}

/* Without constraints of its own and without a controller the pod gets no
 * system default spreading: PreScore skips. */
static void
test_score__pod_topology_spread_skips_unowned_pod(void)
{
    static const struct score_row rows[] = {
        {"no constraints, no owner",
         T_LIST(ABCD "," SPREAD_4321 "," T_POD("p", "", FOO, "")),
         "node-a node-b node-c node-d", {0, 0, 0, 0}},
    };

    ROWS(&kp_score_pod_topology_spread, rows);
}

/* ---- schedule_one.go ---- */

/* TestNumFeasibleNodesToFind with the default percentageOfNodesToScore */
static void
test_score__num_feasible_nodes_to_find(void)
{
    CHECK_EQ_INT(kp_num_feasible_nodes_to_find(10), 10);
    CHECK_EQ_INT(kp_num_feasible_nodes_to_find(99), 99);
    CHECK_EQ_INT(kp_num_feasible_nodes_to_find(100), 100);
    CHECK_EQ_INT(kp_num_feasible_nodes_to_find(199), 100);
    CHECK_EQ_INT(kp_num_feasible_nodes_to_find(1000), 420);
    CHECK_EQ_INT(kp_num_feasible_nodes_to_find(5000), 500);
    CHECK_EQ_INT(kp_num_feasible_nodes_to_find(6000), 300);
}

/* helper.DefaultNormalizeScore, reverse and not, all-zero input */
static void
test_score__default_normalize_score(void)
{
    int64_t a[3] = {2, 4, 0}, b[3] = {2, 4, 0}, z[2] = {0, 0};

    kp_default_normalize_score(100, false, a, 3);
    CHECK(a[0] == 50 && a[1] == 100 && a[2] == 0);
    kp_default_normalize_score(100, true, b, 3);
    CHECK(b[0] == 50 && b[1] == 0 && b[2] == 100);
    kp_default_normalize_score(100, true, z, 2);
    CHECK(z[0] == 100 && z[1] == 100);
}

/* The weighted sum picks the node; equal totals go to the first node. */
static void
test_score__select_host_weighs_plugins_and_breaks_ties_by_order(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, T_LIST(
        T_NODE("n1", L("disk", "hdd")) "," T_NODE("n2", L("disk", "ssd")) ","
        T_NODE("n3", L("disk", "ssd")) ","
        T_POD("tie", "", "", "") ","
        T_POD("p", "", "", ",\"affinity\":{\"nodeAffinity\":{" T_PREF
              ":[" NA_TERM(10, T_EXPR("disk", "In", Q("ssd"))) "]}}"))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_FITS);
    CHECK(pr && strcmp(s.nodes[pr->node]->name, "n2") == 0);
    pr = report_for(&rep, "tie");
    CHECK(pr && pr->result == KP_RESULT_FITS);
    CHECK(pr && strcmp(s.nodes[pr->node]->name, "n1") == 0);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* System default spreading moves a ReplicaSet's pod off the node that
 * already runs its siblings. */
static void
test_score__select_host_spreads_replica_set_pods(void)
{
    struct kp_snapshot s;
    struct kp_report rep;
    const struct kp_pod_report *pr;

    CHECK(load_snapshot(&s, T_LIST(
        HN("node-a") "," HN("node-b") ","
        T_POD_X("default", "s1", "node-a", L("app", "web"), RS_OWNER, "")
        "," T_POD_X("default", "s2", "node-a", L("app", "web"), RS_OWNER, "")
        "," T_POD_X("default", "p", "", L("app", "web"), RS_OWNER, ""))) == 0);
    CHECK(analyze(&s, &rep, KP_MODE_INDEPENDENT) == 0);
    pr = report_for(&rep, "p");
    CHECK(pr && pr->result == KP_RESULT_FITS);
    CHECK(pr && strcmp(s.nodes[pr->node]->name, "node-b") == 0);
    kp_report_release(&rep);
    kp_snapshot_release(&s);
}

/* Non-zero requests: 100m / 200Mi per container naming neither resource
 * (requests or limits); an explicit 0 stays 0; init containers take the
 * max; overhead adds. */
static void
test_score__non_zero_requests(void)
{
    struct kp_snapshot s;
    const struct kp_pod *a, *b, *c;

    CHECK(load_snapshot(&s, T_LIST(
        RPOD("a", "", "{\"name\":\"c1\"},{\"name\":\"c2\"}") ","
        RPOD("b", "", REQ("0", "0") ",{\"name\":\"c2\",\"resources\":"
             "{\"limits\":{\"cpu\":\"1\"}}}") ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\","
        "\"name\":\"c\"},\"spec\":{\"initContainers\":[{\"name\":\"i\","
        "\"resources\":{\"requests\":{\"cpu\":\"2\"}}}],\"containers\":"
        "[{\"name\":\"m\"}],\"overhead\":{\"cpu\":\"10m\"}}}")) == 0);
    a = kp_snapshot_pod(&s, "default", "a");
    b = kp_snapshot_pod(&s, "default", "b");
    c = kp_snapshot_pod(&s, "default", "c");
    CHECK(a && a->nonzero_cpu == 200 && a->nonzero_mem == 400LL << 20);
    CHECK(b && b->nonzero_cpu == 1000 && b->nonzero_mem == 200LL << 20);
    CHECK(c && c->nonzero_cpu == 2010 && c->nonzero_mem == 200LL << 20);
    CHECK(c && c->ncontainers == 2);
    kp_snapshot_release(&s);
}

int
main(void)
{
    RUN(test_score__taint_toleration);
    RUN(test_score__node_affinity);
    RUN(test_score__least_allocated);
    RUN(test_score__balanced_allocation);
    RUN(test_score__balanced_allocation_versions);
    RUN(test_score__balanced_change_score);
    RUN(test_score__image_locality);
    RUN(test_score__inter_pod_affinity);
    RUN(test_score__inter_pod_affinity_skips_without_terms);
    RUN(test_score__pod_topology_spread);
    RUN(test_score__pod_topology_spread_skips_unowned_pod);
    RUN(test_score__num_feasible_nodes_to_find);
    RUN(test_score__default_normalize_score);
    RUN(test_score__select_host_weighs_plugins_and_breaks_ties_by_order);
    RUN(test_score__select_host_spreads_replica_set_pods);
    RUN(test_score__non_zero_requests);
    return check_done();
}
