/*
 * test_res_slots.c - scalar resources kept sparse in the NodeInfos
 * (cluster_state.c init_res_slots, issue 27): only cpu, memory,
 * ephemeral-storage, pods and the scalars some pod without a node
 * requests get a slot in the dense arrays; the amount of any other
 * resource is still NodeInfo.Requested (kp_ni_used sums the pods), and
 * KP_NO_SPARSE_RESOURCES=1 gives every resource a slot, as before.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "helpers.h"
#include "strmap.h"

#define XNODE(name, res)                                                   \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},"            \
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"16Gi\","     \
    "\"pods\":\"10\",\"example.com/" res "\":\"8\"}}}"

#define XPOD(name, node, res, n)                                           \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\""     \
    name "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},"            \
    "\"spec\":{\"priority\":1,\"nodeName\":\"" node "\","                 \
    "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"        \
    "{\"cpu\":\"1\",\"example.com/" res "\":\"" n "\"}}}]},"              \
    "\"status\":{\"phase\":\"Running\"}}"

static const char *cluster = LIST(
    XNODE("n1", "a") "," XNODE("n2", "b") ","
    XPOD("a1", "n1", "a", "2") "," XPOD("a2", "n1", "a", "3") ","
    XPOD("b1", "n2", "b", "5") "," XPOD("b2", "n2", "b", "1") ","
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":"
    "\"want-a\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":"
    "\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\","
    "\"example.com/a\":\"4\"}}}]},\"status\":{\"phase\":\"Pending\"}}");

static int
res_id(const struct kp_snapshot *s, const char *name)
{
    return (int)(uintptr_t)kp_strmap_get(&s->res_ids, name) - 1;
}

static void
check_amounts(const struct kp_cluster *cl, int a, int b)
{
    const struct kp_node_info *n1 = &cl->nodes[0], *n2 = &cl->nodes[1];

    CHECK_EQ_INT(kp_ni_used(n1, a), 5);
    CHECK_EQ_INT(kp_ni_used(n2, b), 6);
    CHECK_EQ_INT(kp_ni_used(n1, b), 0);
    CHECK_EQ_INT(kp_ni_used(n1, KP_RES_CPU), 2000);
    CHECK_EQ_INT(kp_ni_alloc(n1, a), 8);
    CHECK_EQ_INT(kp_ni_alloc(n2, b), 8);
    CHECK_EQ_INT(kp_ni_alloc(n1, b), 0);
    CHECK_EQ_INT(kp_ni_alloc(n2, KP_RES_PODS), 10);
}

static void
test_res_slots__only_requested_scalars_are_dense(void)
{
    struct kp_snapshot s;
    struct kp_cluster cl;
    struct kp_arena ar;
    const struct kp_victim_table *vt;
    int a, b;

    if (load_snapshot(&s, cluster) < 0) {
        CHECK(0);
        return;
    }
    a = res_id(&s, "example.com/a");
    b = res_id(&s, "example.com/b");
    CHECK(a >= KP_RES_FIRST_SCALAR && b >= KP_RES_FIRST_SCALAR);
    kp_cluster_init(&cl, &s, "default-scheduler");
    /* example.com/b: no pending pod asks for it */
    CHECK_EQ_INT(cl.nres, KP_RES_FIRST_SCALAR + 1);
    CHECK(kp_ni_slot(&cl.nodes[1], b) < 0);
    CHECK(kp_ni_slot(&cl.nodes[0], a) == KP_RES_FIRST_SCALAR);
    check_amounts(&cl, a, b);
    kp_arena_init(&ar);
    vt = kp_victim_table_get(&cl, 1, &ar);
    CHECK(vt && vt->nres == cl.nres);
    /* the dry run's removal and the queue's placement keep the sums */
    kp_cluster_remove(&cl, kp_snapshot_pod(&s, "d", "b1"));
    CHECK_EQ_INT(kp_ni_used(&cl.nodes[1], b), 1);
    kp_cluster_place(&cl, kp_snapshot_pod(&s, "d", "want-a"), 1);
    CHECK_EQ_INT(kp_ni_used(&cl.nodes[1], a), 4);
    CHECK_EQ_INT(kp_ni_used(&cl.nodes[1], b), 1);
    kp_arena_release(&ar);
    kp_cluster_release(&cl);

    setenv("KP_NO_SPARSE_RESOURCES", "1", 1);
    kp_cluster_init(&cl, &s, "default-scheduler");
    unsetenv("KP_NO_SPARSE_RESOURCES");
    CHECK_EQ_INT(cl.nres, s.nres);
    CHECK(kp_ni_slot(&cl.nodes[1], b) == b);
    check_amounts(&cl, a, b);
    kp_cluster_release(&cl);
    kp_snapshot_release(&s);
}

/* The report is the same with and without the switch. */
static void
test_res_slots__same_report_either_way(void)
{
    struct kp_snapshot s;
    struct kp_report r1, r2;
    const struct kp_pod_report *p1, *p2;

    if (load_snapshot(&s, cluster) < 0) {
        CHECK(0);
        return;
    }
    CHECK(analyze(&s, &r1, KP_MODE_QUEUE) == 0);
    setenv("KP_NO_SPARSE_RESOURCES", "1", 1);
    CHECK(analyze(&s, &r2, KP_MODE_QUEUE) == 0);
    unsetenv("KP_NO_SPARSE_RESOURCES");
    p1 = report_for(&r1, "want-a");
    p2 = report_for(&r2, "want-a");
    /* 4 of example.com/a: n1 has 3 left (preempts), n2 has none */
    CHECK(p1 && p2 && p1->result == KP_RESULT_PREEMPTS &&
          p2->result == p1->result && p1->nvictims == p2->nvictims &&
          p1->nvictims == 1);
    kp_report_release(&r1);
    kp_report_release(&r2);
    kp_snapshot_release(&s);
}

int
main(void)
{
    RUN(test_res_slots__only_requested_scalars_are_dense);
    RUN(test_res_slots__same_report_either_way);
    return check_done();
}
