/*
 * test_node_template.c - the fixes' re-runs copy their NodeInfos from a
 * cluster made once (framework.c kp_cluster_init_from, issue 31): the
 * copy must be what adding every bound pod gives (pods in order, sums,
 * allocatable, host ports, anti-affinity count), fall back to adding
 * them when the resource slots differ, and KP_NO_NODE_TEMPLATE=1 must
 * turn the copy off.  Also the victim table's node-local PDB numbers
 * (pdb_index.h) that filterPodsWithPDBViolation counts by.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "helpers.h"
#include "pdb_index.h"

#define XNODE(name)                                                        \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},"            \
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"16Gi\","     \
    "\"pods\":\"10\",\"example.com/a\":\"8\",\"example.com/b\":\"8\"}}}"

#define XPOD(name, node, extra)                                            \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\""     \
    name "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},"            \
    "\"spec\":{\"priority\":1,\"nodeName\":\"" node "\","                 \
    "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"        \
    "{\"cpu\":\"1\",\"example.com/a\":\"1\",\"example.com/b\":\"2\"}}"    \
    extra "}]},\"status\":{\"phase\":\"Running\"}}"

#define PORT ",\"ports\":[{\"containerPort\":80,\"hostPort\":8080}]"

static const char *cluster = LIST(
    XNODE("n1") "," XNODE("n2") "," XNODE("n3") ","
    XPOD("p1", "n1", PORT) "," XPOD("p2", "n1", "") ","
    XPOD("p3", "n2", "") ","
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"want\","
    "\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"spec\":{"
    "\"priority\":5,\"containers\":[{\"name\":\"c\",\"resources\":"
    "{\"requests\":{\"cpu\":\"1\",\"example.com/a\":\"1\"}}}]},"
    "\"status\":{\"phase\":\"Pending\"}}");

/* every NodeInfo of c as f has it */
static void
check_same_nodes(const struct kp_cluster *c, const struct kp_cluster *f)
{
    static const struct kp_host_port hp = {"0.0.0.0", "TCP", 8080};
    size_t i;
    int id;

    CHECK_EQ_INT(c->nres, f->nres);
    for (i = 0; i < f->snap->nnodes; i++) {
        const struct kp_node_info *a = &c->nodes[i], *b = &f->nodes[i];

        CHECK(a->node == b->node);
        CHECK_EQ_INT(a->index, b->index);
        CHECK_EQ_INT(a->npods, b->npods);
        CHECK(a->npods == b->npods &&
              (a->npods == 0 ||
               memcmp(a->pods, b->pods, a->npods * sizeof(*a->pods)) == 0));
        CHECK(a->pods != b->pods || a->npods == 0);
        CHECK_EQ_INT(a->nanti, b->nanti);
        CHECK_EQ_INT(a->gen, b->gen);
        for (id = 0; id < (int)f->snap->nres; id++) {
            CHECK_EQ_INT(kp_ni_used(a, id), kp_ni_used(b, id));
            CHECK_EQ_INT(kp_ni_alloc(a, id), kp_ni_alloc(b, id));
        }
        CHECK_EQ_INT(a->ports.n, b->ports.n);
        CHECK(kp_port_set_conflict(&a->ports, &hp) ==
              kp_port_set_conflict(&b->ports, &hp));
    }
}

static void
test_node_template__copy_is_a_fresh_fill(void)
{
    struct kp_snapshot s;
    struct kp_cluster tmpl, fresh, copy;

    if (load_snapshot(&s, cluster) < 0) {
        CHECK(0);
        return;
    }
    kp_cluster_init_tables(&tmpl, &s, "default-scheduler", false, NULL);
    kp_cluster_init(&fresh, &s, "default-scheduler");
    kp_cluster_init_from(&copy, &s, "default-scheduler", false, NULL, &tmpl);
    /* example.com/b: no pending pod asks for it, so no slot */
    CHECK_EQ_INT(fresh.nres, KP_RES_FIRST_SCALAR + 1);
    CHECK_EQ_INT(copy.nodes[0].npods, 2);
    CHECK_EQ_INT(copy.nodes[0].ports.n, 1);
    check_same_nodes(&copy, &fresh);
    /* the copy is its own: adding to it leaves the template alone */
    kp_cluster_place(&copy, kp_snapshot_pod(&s, "d", "want"), 2);
    CHECK_EQ_INT(copy.nodes[2].npods, 1);
    CHECK_EQ_INT(tmpl.nodes[2].npods, 0);
    CHECK_EQ_INT(kp_ni_used(&tmpl.nodes[2], KP_RES_CPU), 0);
    kp_cluster_release(&copy);
    kp_cluster_release(&fresh);
    kp_cluster_release(&tmpl);
    kp_snapshot_release(&s);
}

static void
test_node_template__other_slots_or_switch_fill_afresh(void)
{
    struct kp_snapshot s;
    struct kp_cluster tmpl, fresh, copy;

    if (load_snapshot(&s, cluster) < 0) {
        CHECK(0);
        return;
    }
    /* a template with a slot for every resource: not the same layout */
    setenv("KP_NO_SPARSE_RESOURCES", "1", 1);
    kp_cluster_init_tables(&tmpl, &s, "default-scheduler", false, NULL);
    unsetenv("KP_NO_SPARSE_RESOURCES");
    CHECK_EQ_INT(tmpl.nres, s.nres);
    kp_cluster_init(&fresh, &s, "default-scheduler");
    kp_cluster_init_from(&copy, &s, "default-scheduler", false, NULL, &tmpl);
    check_same_nodes(&copy, &fresh);
    kp_cluster_release(&copy);
    kp_cluster_release(&tmpl);
    /* the switch: filled afresh, the same NodeInfos */
    kp_cluster_init_tables(&tmpl, &s, "default-scheduler", false, NULL);
    setenv("KP_NO_NODE_TEMPLATE", "1", 1);
    kp_cluster_init_from(&copy, &s, "default-scheduler", false, NULL, &tmpl);
    unsetenv("KP_NO_NODE_TEMPLATE");
    check_same_nodes(&copy, &fresh);
    kp_cluster_release(&copy);
    kp_cluster_release(&tmpl);
    kp_cluster_release(&fresh);
    kp_snapshot_release(&s);
}

/* the PDB entries numbered by first appearance, repeats sharing one */
static void
test_node_template__pdb_index(void)
{
    static const int32_t pdb[] = {7, 3, 7, 900, 3, 3, 0};
    uint32_t local[7];
    int32_t ids[7], *big, *bids;
    uint32_t *blocal;
    size_t m, i;

    m = kp_pdb_index_build(pdb, 7, local, ids);
    CHECK_EQ_INT(m, 4);
    CHECK_EQ_INT(ids[0], 7);
    CHECK_EQ_INT(ids[1], 3);
    CHECK_EQ_INT(ids[2], 900);
    CHECK_EQ_INT(ids[3], 0);
    for (i = 0; i < 7; i++)
        CHECK_EQ_INT(ids[local[i]], pdb[i]);
    CHECK_EQ_INT(kp_pdb_index_build(pdb, 0, local, ids), 0);
    /* past the stack's search table: 1,000 entries, 250 distinct */
    big = malloc(1000 * sizeof(*big));
    bids = malloc(1000 * sizeof(*bids));
    blocal = malloc(1000 * sizeof(*blocal));
    for (i = 0; i < 1000; i++)
        big[i] = (int32_t)((i * 7) % 250);
    m = kp_pdb_index_build(big, 1000, blocal, bids);
    CHECK_EQ_INT(m, 250);
    for (i = 0; i < 1000; i++)
        CHECK_EQ_INT(bids[blocal[i]], big[i]);
    free(big);
    free(bids);
    free(blocal);
}

int
main(void)
{
    RUN(test_node_template__copy_is_a_fresh_fill);
    RUN(test_node_template__other_slots_or_switch_fill_afresh);
    RUN(test_node_template__pdb_index);
    return check_done();
}
