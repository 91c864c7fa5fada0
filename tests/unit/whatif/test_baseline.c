/*
 * test_baseline.c - issue 25: each pod of a run with a change matched to
 * its baseline (core/whatif/baseline.c) by identity (kp_pod.replaces,
 * else namespace/name), the change it shows and the regressions
 * --fail-on finds.
 */
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "check.h"
#include "helpers.h"
#include "whatif.h"

#define PENDING(ns, name, prio, cpu)                                       \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"" ns "\",\"name\":\"" \
    name "\",\"creationTimestamp\":\"2026-01-02T00:00:00Z\"},"            \
    "\"spec\":{\"priority\":" prio ",\"containers\":[{\"name\":\"c\","    \
    "\"resources\":{\"requests\":{\"cpu\":\"" cpu "\"}}}]},"              \
    "\"status\":{\"phase\":\"Pending\"}}"

/* node-a (2 CPU) runs low-0 (1 CPU, priority 10) */
#define CLUSTER(...)                                                       \
    LIST(NODE("node-a", "2", "110") ","                                    \
         POD("prod", "low-0", "10", "1", "node-a", "") "," __VA_ARGS__)

struct two_runs {
    struct kp_snapshot before, after;
    struct kp_report brep, rep;
    struct kp_baseline base;
    struct kp_change c;
};

/*
 * The baseline: old-0 (1 CPU) fits next to low-0.  The run: new-0 (2 CPU)
 * in its place must evict low-0; replaces links it to old-0 when set.
 */
static int
two_runs(struct two_runs *t, enum kp_mode mode, const char *replaces)
{
    memset(t, 0, sizeof(*t));
    if (load_snapshot(&t->before, CLUSTER(PENDING("prod", "old-0", "100",
                                                  "1"))) < 0 ||
        analyze(&t->before, &t->brep, mode) < 0)
        return -1;
    kp_baseline_take(&t->base, &t->before, &t->brep, "the cluster without "
                     "the change", "without the change");
    if (load_snapshot(&t->after, CLUSTER(PENDING("prod", "new-0", "100",
                                                 "2"))) < 0)
        return -1;
    kp_snapshot_pod(&t->after, "prod", "new-0")->replaces = (char *)replaces;
    if (analyze(&t->after, &t->rep, mode) < 0)
        return -1;
    kp_change_compute(&t->c, &t->base, &t->after, &t->rep);
    return 0;
}

static void
two_runs_release(struct two_runs *t)
{
    kp_change_release(&t->c);
    kp_baseline_release(&t->base);
    kp_report_release(&t->rep);
    kp_report_release(&t->brep);
    kp_snapshot_release(&t->after);
    kp_snapshot_release(&t->before);
}

static void
test_baseline__a_rolled_pod_is_matched_to_the_pod_it_replaces(void)
{
    struct two_runs t;
    const struct kp_pod_change *pc;
    struct kp_buf lines;
    int mode;

    for (mode = 0; mode < 2; mode++) {
        CHECK(two_runs(&t, mode ? KP_MODE_INDEPENDENT : KP_MODE_QUEUE,
                       "prod/old-0") == 0);
        pc = kp_change_of(&t.c, report_for(&t.rep, "new-0")->pod);
        CHECK(pc != NULL);
        CHECK(pc && pc->was != NULL);
        if (pc && pc->was) {
            CHECK_EQ_STR(pc->was->name, "old-0");
            CHECK_EQ_INT(pc->was->result, KP_RESULT_FITS);
            CHECK_EQ_STR(pc->was->node, "node-a");
            /* Fits -> Preempts */
            CHECK_EQ_INT(pc->kind, KP_CHANGE_WORSE);
        }
        CHECK_EQ_INT(t.c.count[KP_CHANGE_WORSE], 1);
        CHECK_EQ_INT(t.c.count[KP_CHANGE_NEW], 0);
        /* low-0 was safe: a new victim, and old-0 is accounted for */
        CHECK_EQ_INT(t.c.nnew_victims, 1);
        CHECK(t.c.matched[0]);
        kp_buf_init(&lines);
        CHECK_EQ_INT(kp_change_fail(&t.c, &t.after, &t.rep,
                                    KP_FAIL_NEW_PREEMPTION, &lines),
                     KP_FAIL_NEW_PREEMPTION);
        CHECK(lines.data && strstr(lines.data, "new-preemption: pod "
                                   "'prod/low-0' on node-a becomes a victim "
                                   "of prod/new-0") != NULL);
        kp_buf_release(&lines);
        two_runs_release(&t);
    }
}

static void
test_baseline__without_replaces_the_pod_is_new_and_the_old_one_gone(void)
{
    struct two_runs t;
    const struct kp_pod_change *pc;

    CHECK(two_runs(&t, KP_MODE_QUEUE, NULL) == 0);
    pc = kp_change_of(&t.c, report_for(&t.rep, "new-0")->pod);
    CHECK(pc && pc->kind == KP_CHANGE_NEW && !pc->was);
    CHECK_EQ_INT(t.c.count[KP_CHANGE_NEW], 1);
    CHECK(!t.c.matched[0]);
    CHECK(kp_change_touches(pc));
    two_runs_release(&t);
}

static void
test_baseline__identity_is_replaces_then_the_displaced_original(void)
{
    struct kp_pod p;
    struct kp_displaced d;
    char buf[64];

    memset(&p, 0, sizeof(p));
    memset(&d, 0, sizeof(d));
    p.ns = "prod";
    p.name = "db-0-replacement";
    CHECK_EQ_STR(kp_baseline_identity(&p, buf, sizeof(buf)),
                 "prod/db-0-replacement");
    d.original = "db-0";
    p.displaced = &d;
    CHECK_EQ_STR(kp_baseline_identity(&p, buf, sizeof(buf)), "prod/db-0");
    p.replaces = (char *)"prod/db-old";
    CHECK_EQ_STR(kp_baseline_identity(&p, buf, sizeof(buf)), "prod/db-old");
}

int
main(void)
{
    RUN(test_baseline__a_rolled_pod_is_matched_to_the_pod_it_replaces);
    RUN(test_baseline__without_replaces_the_pod_is_new_and_the_old_one_gone);
    RUN(test_baseline__identity_is_replaces_then_the_displaced_original);
    return check_done();
}
