/*
 * test_diagnosis_detail.c - the NodeName part of diagnosis_detail.c
 * (issue 26), which no pending pod reaches through the CLI (a pod with
 * spec.nodeName is bound, not analysed): the node named, and whether the
 * snapshot has it.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "diagnosis_detail.h"
#include "helpers.h"

static void
node_name_detail(const char *named, const char *want_json,
                 const char *want_text)
{
    struct kp_snapshot s;
    struct kp_cluster cl;
    struct kp_arena scratch;
    struct kp_cycle c;
    struct kp_pod pod;
    struct kp_buf js, tx;

    CHECK(load_snapshot(&s, LIST(NODE("n1", "1", "110"))) == 0);
    kp_cluster_init(&cl, &s, "default-scheduler");
    kp_arena_init(&scratch);
    memset(&pod, 0, sizeof(pod));
    pod.ns = "d";
    pod.name = "p";
    pod.node_name = named;
    memset(&c, 0, sizeof(c));
    c.cl = &cl;
    c.pod = &pod;
    c.scratch = &scratch;
    kp_buf_init(&js);
    kp_buf_init(&tx);
    kp_diag_node_name(&c, &js, &tx);
    CHECK_EQ_STR(js.data, want_json);
    CHECK_EQ_STR(tx.data, want_text);
    kp_buf_release(&js);
    kp_buf_release(&tx);
    kp_arena_release(&scratch);
    kp_cluster_release(&cl);
    kp_snapshot_release(&s);
}

static void
test_diagnosis__node_name_of_a_node_not_in_the_snapshot(void)
{
    node_name_detail("n9", ", \"nodeName\": \"n9\", \"nodeExists\": false",
                     "spec.nodeName n9: no node of that name in the "
                     "snapshot");
}

static void
test_diagnosis__node_name_of_another_node(void)
{
    node_name_detail("n1", ", \"nodeName\": \"n1\", \"nodeExists\": true",
                     "spec.nodeName n1: every other node is ruled out");
}

int
main(void)
{
    RUN(test_diagnosis__node_name_of_a_node_not_in_the_snapshot);
    RUN(test_diagnosis__node_name_of_another_node);
    return check_done();
}
