/*
 * test_whatif.c - the drain steps of whatif.c: kubectl drain's filters
 * (k8s.io/kubectl/pkg/drain/filters.go), the Eviction subresource's PDB
 * check (pkg/registry/core/pod/storage/eviction.go), the budgets a lost
 * node spends (countHealthyPods, pkg/controller/disruption) and the
 * waves that let refused evictions through.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "report.h"
#include "simulate.h"
#include "snapshot.h"
#include "snapshot_load.h"
#include "whatif.h"

#define WNODE(name)                                                        \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},"            \
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"16Gi\","      \
    "\"pods\":\"110\"}}}"

/* owner: OWNER(kind) or ""; ready: "True" or "False"; phase: Running... */
#define OWNER(kind)                                                        \
    ",\"ownerReferences\":[{\"kind\":\"" kind "\",\"name\":\"o\","         \
    "\"controller\":true}]"
#define WPOD(name, node, owner, app, ready, phase, extra_md)               \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"prod\",\"name\":\""  \
    name "\",\"labels\":{\"app\":\"" app "\"}" owner extra_md "},"        \
    "\"spec\":{\"nodeName\":\"" node "\",\"containers\":[{\"name\":\"c\"," \
    "\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},"                     \
    "\"status\":{\"phase\":\"" phase "\",\"conditions\":[{\"type\":"       \
    "\"Ready\",\"status\":\"" ready "\"}]}}"

#define WPDB(name, app, allowed)                                           \
    "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"namespace\":"       \
    "\"prod\",\"name\":\"" name "\"},\"spec\":{\"selector\":"              \
    "{\"matchLabels\":{\"app\":\"" app "\"}}},\"status\":"                 \
    "{\"disruptionsAllowed\":" allowed "}}"

/* spec_extra / status_extra: ",\"key\":value" members, or "" */
#define WPDBX(name, app, allowed, spec_extra, status_extra)                \
    "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"namespace\":"       \
    "\"prod\",\"name\":\"" name "\"},\"spec\":{\"selector\":"              \
    "{\"matchLabels\":{\"app\":\"" app "\"}}" spec_extra "},\"status\":"  \
    "{\"disruptionsAllowed\":" allowed status_extra "}}"
#define HEALTHY(cur, want)                                                 \
    ",\"currentHealthy\":" cur ",\"desiredHealthy\":" want
#define POLICY(p) ",\"unhealthyPodEvictionPolicy\":\"" p "\""

#define WLIST(...) "{\"kind\":\"List\",\"items\":[" __VA_ARGS__ "]}"

struct fixture {
    struct kp_snapshot s;
    struct kp_whatif w;
    struct kp_options o;
    const char *drain[1], *remove[1];
};

static int
setup(struct fixture *f, const char *json, const char *drain,
      const char *removed, bool force)
{
    struct kp_error err = {0, ""};

    memset(f, 0, sizeof(*f));
    kp_snapshot_init(&f->s);
    kp_options_init(&f->o);
    f->o.force = force;
    if (drain) {
        f->drain[0] = drain;
        f->o.drain = f->drain;
        f->o.ndrain = 1;
    }
    if (removed) {
        f->remove[0] = removed;
        f->o.remove_nodes = f->remove;
        f->o.nremove = 1;
    }
    if (kp_snapshot_load_buffer(&f->s, json, strlen(json), "test.json",
                                &err) < 0 ||
        kp_whatif_apply(&f->w, &f->s, &f->o, &err) < 0 ||
        kp_snapshot_finish(&f->s, "default-scheduler", &err) < 0) {
        printf("#   setup failed: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static void
teardown(struct fixture *f)
{
    kp_whatif_release(&f->w);
    kp_snapshot_release(&f->s);
}

static const struct kp_drain_pod *
drain_pod(const struct fixture *f, const char *name)
{
    size_t i, j;

    for (i = 0; i < f->w.nnodes; i++)
        for (j = 0; j < f->w.nodes[i].npods; j++)
            if (strcmp(f->w.nodes[i].pods[j].pod->name, name) == 0)
                return &f->w.nodes[i].pods[j];
    return NULL;
}

static void
test_whatif__drain_keeps_daemonset_and_mirror_pods(void)
{
    struct fixture f;
    const struct kp_drain_pod *ds, *mirror, *web;

    if (setup(&f, WLIST(WNODE("a") "," WNODE("b") ","
                        WPOD("ds", "a", OWNER("DaemonSet"), "ds", "True",
                             "Running", "") ","
                        WPOD("static", "a", OWNER("Node"), "st", "True",
                             "Running",
                             ",\"annotations\":{\"kubernetes.io/config."
                             "mirror\":\"x\"}") ","
                        WPOD("web", "a", OWNER("ReplicaSet"), "web", "True",
                             "Running", "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    ds = drain_pod(&f, "ds");
    mirror = drain_pod(&f, "static");
    web = drain_pod(&f, "web");
    CHECK(ds && mirror && web);
    if (ds && mirror && web) {
        CHECK_EQ_INT(ds->outcome, KP_DRAIN_KEPT);
        CHECK_EQ_INT(mirror->outcome, KP_DRAIN_KEPT);
        CHECK_EQ_INT(web->outcome, KP_DRAIN_EVICTED);
        CHECK_EQ_STR(web->replacement->name, "web-replacement");
        CHECK(web->replacement->node_name == NULL);
    }
    /* the DaemonSet and mirror pods stay bound; web is gone */
    CHECK(kp_snapshot_pod(&f.s, "prod", "ds") != NULL);
    CHECK(kp_snapshot_pod(&f.s, "prod", "web") == NULL);
    CHECK(kp_snapshot_node(&f.s, "a")->unschedulable);
    teardown(&f);
}

static void
test_whatif__eviction_spends_the_budget_of_ready_pods_only(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") "," WPDB("p", "db", "1") ","
                        WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                             "Running", "") ","
                        WPOD("db-1", "a", OWNER("StatefulSet"), "db", "True",
                             "Running", "") ","
                        WPOD("db-2", "a", OWNER("StatefulSet"), "db", "True",
                             "Running", "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    /* db-0 is not Ready: evicted without using the one disruption */
    CHECK_EQ_INT(drain_pod(&f, "db-0")->outcome, KP_DRAIN_EVICTED);
    CHECK_EQ_INT(drain_pod(&f, "db-1")->outcome, KP_DRAIN_EVICTED);
    CHECK_EQ_INT(drain_pod(&f, "db-2")->outcome, KP_DRAIN_WAITING);
    CHECK_EQ_INT(drain_pod(&f, "db-2")->pdb, 0);
    CHECK_EQ_INT(f.s.pdbs[0]->disruptions_allowed, 0);
    CHECK(kp_whatif_blocked(&f.w));
    teardown(&f);
}

static void
test_whatif__two_pdbs_refuse_the_eviction_for_good(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") "," WPDB("p1", "db", "5") ","
                        WPDB("p2", "db", "5") ","
                        WPOD("db-0", "a", OWNER("StatefulSet"), "db", "True",
                             "Running", "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(drain_pod(&f, "db-0")->outcome, KP_DRAIN_BLOCKED);
    CHECK(strstr(drain_pod(&f, "db-0")->why, "more than one") != NULL);
    teardown(&f);
}

static void
test_whatif__pending_and_finished_pods_skip_the_pdb_check(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") "," WPDB("p", "db", "0") ","
                        WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                             "Pending", "") ","
                        WPOD("job", "a", OWNER("Job"), "db", "False",
                             "Succeeded",
                             "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(drain_pod(&f, "db-0")->outcome, KP_DRAIN_EVICTED);
    CHECK_EQ_INT(drain_pod(&f, "job")->outcome, KP_DRAIN_DELETED);
    CHECK(!kp_whatif_blocked(&f.w));
    teardown(&f);
}

static void
test_whatif__a_pod_without_controller_stops_the_drain(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") ","
                        WPOD("bare", "a", "", "x", "True", "Running", "") ","
                        WPOD("web", "a", OWNER("ReplicaSet"), "web", "True",
                             "Running", "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    CHECK(f.w.nodes[0].stopped != NULL);
    CHECK_EQ_INT(drain_pod(&f, "web")->outcome, KP_DRAIN_NOT_EVICTED);
    CHECK(kp_snapshot_pod(&f.s, "prod", "web") != NULL);
    teardown(&f);
    if (setup(&f, WLIST(WNODE("a") ","
                        WPOD("bare", "a", "", "x", "True", "Running", "")),
              "a", NULL, true) < 0) {
        CHECK(0);
        return;
    }
    CHECK(f.w.nodes[0].stopped == NULL);
    CHECK_EQ_INT(drain_pod(&f, "bare")->outcome, KP_DRAIN_LOST);
    CHECK(drain_pod(&f, "bare")->replacement == NULL);
    teardown(&f);
}

static void
test_whatif__a_lost_node_spends_the_budget_of_healthy_pods(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") "," WNODE("b") "," WPDB("p", "db", "2")
                        "," WPOD("db-0", "a", OWNER("StatefulSet"), "db",
                                 "True",
                                 "Running", "") ","
                        WPOD("db-1", "a", OWNER("StatefulSet"), "db", "False",
                             "Running", "")), NULL, "a", false) < 0) {
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(f.s.nnodes, 1);
    CHECK_EQ_INT(f.s.pdbs[0]->disruptions_allowed, 1);
    CHECK_EQ_STR(drain_pod(&f, "db-1")->replacement->displaced->reason,
                 "NodeRemoved");
    teardown(&f);
}

/* db-1 waits for db-0's replacement to run on b, then goes (wave 1). */
static void
test_whatif__a_refused_eviction_goes_through_in_the_next_wave(void)
{
    struct fixture f;
    struct kp_report rep;
    struct kp_error err = {0, ""};
    int mode;

    for (mode = 0; mode < 2; mode++) {
        if (setup(&f, WLIST(WNODE("a") "," WNODE("b") ","
                            WPDB("p", "db", "1") ","
                            WPOD("db-0", "a", OWNER("StatefulSet"), "db",
                                 "True",
                                 "Running", "") ","
                            WPOD("db-1", "a", OWNER("StatefulSet"), "db",
                                 "True",
                                 "Running", "")), "a", NULL, false) < 0) {
            CHECK(0);
            return;
        }
        f.o.mode = mode ? KP_MODE_INDEPENDENT : KP_MODE_QUEUE;
        kp_analyze_queue(&f.s, &f.o, &rep);
        rep.whatif = &f.w;
        CHECK(kp_analyze_run(&f.s, &f.o, &rep, &err) == 0);
        CHECK_EQ_INT(rep.npods, 2);
        CHECK_EQ_STR(rep.pods[1].pod->name, "db-1-replacement");
        CHECK_EQ_INT(rep.pods[1].queue_position, 2);
        CHECK_EQ_INT(drain_pod(&f, "db-1")->wave, 1);
        CHECK(!kp_whatif_blocked(&f.w));
        kp_report_release(&rep);
        teardown(&f);
    }
}

/*
 * filters.go makeFilters: daemonSetFilter lets a finished DaemonSet pod
 * through, mirrorPodFilter then keeps a mirror pod whatever its phase,
 * unreplicatedFilter lets a finished pod without a controller through
 * (issue 24 item 11).
 */
static void
test_whatif__a_finished_mirror_pod_is_kept(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") ","
                        WPOD("static", "a", "", "st", "False", "Succeeded",
                             ",\"annotations\":{\"kubernetes.io/config."
                             "mirror\":\"x\"}") ","
                        WPOD("ds", "a", OWNER("DaemonSet"), "ds", "False",
                             "Failed", "") ","
                        WPOD("bare", "a", "", "x", "False", "Succeeded",
                             "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    CHECK(f.w.nodes[0].stopped == NULL);
    CHECK_EQ_INT(drain_pod(&f, "static")->outcome, KP_DRAIN_KEPT);
    CHECK(kp_snapshot_pod(&f.s, "prod", "static") != NULL);
    CHECK_EQ_INT(drain_pod(&f, "ds")->outcome, KP_DRAIN_DELETED);
    CHECK_EQ_INT(drain_pod(&f, "bare")->outcome, KP_DRAIN_DELETED);
    CHECK(kp_snapshot_pod(&f.s, "prod", "ds") == NULL);
    teardown(&f);
}

/* eviction.go: AlwaysAllow deletes a not-Ready pod, budget untouched. */
static void
test_whatif__always_allow_evicts_a_not_ready_pod(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") ","
                        WPDBX("p", "db", "0", POLICY("AlwaysAllow"),
                              HEALTHY("1", "2")) ","
                        WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                             "Running", "") ","
                        WPOD("db-1", "a", OWNER("StatefulSet"), "db", "True",
                             "Running", "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(drain_pod(&f, "db-0")->outcome, KP_DRAIN_EVICTED);
    CHECK_EQ_INT(drain_pod(&f, "db-1")->outcome, KP_DRAIN_WAITING);
    CHECK_EQ_INT(f.s.pdbs[0]->disruptions_allowed, 0);
    teardown(&f);
}

/*
 * eviction.go, IfHealthyBudget (or unset): a not-Ready pod is deleted
 * when currentHealthy >= desiredHealthy > 0, whatever disruptionsAllowed
 * says; else checkAndDecrement decides (429 at 0).
 */
static void
test_whatif__if_healthy_budget_rows(void)
{
    static const struct {
        const char *json;
        enum kp_drain_outcome want;
    } rows[] = {
        {WLIST(WNODE("a") "," WPDBX("p", "db", "0", "", HEALTHY("2", "2"))
               "," WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                        "Running", "")), KP_DRAIN_EVICTED},
        {WLIST(WNODE("a") "," WPDBX("p", "db", "0",
                                    POLICY("IfHealthyBudget"),
                                    HEALTHY("3", "2"))
               "," WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                        "Running", "")), KP_DRAIN_EVICTED},
        {WLIST(WNODE("a") "," WPDBX("p", "db", "0", "", HEALTHY("1", "2"))
               "," WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                        "Running", "")), KP_DRAIN_WAITING},
        {WLIST(WNODE("a") "," WPDBX("p", "db", "0", "", HEALTHY("0", "0"))
               "," WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                        "Running", "")), KP_DRAIN_WAITING},
        {WLIST(WNODE("a") "," WPDBX("p", "db", "1", "", HEALTHY("1", "2"))
               "," WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                        "Running", "")), KP_DRAIN_EVICTED},
        /* a Ready pod is never let through by the healthy counts */
        {WLIST(WNODE("a") "," WPDBX("p", "db", "0", "", HEALTHY("5", "2"))
               "," WPOD("db-0", "a", OWNER("StatefulSet"), "db", "True",
                        "Running", "")), KP_DRAIN_WAITING},
    };
    struct fixture f;
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (setup(&f, rows[i].json, "a", NULL, false) < 0) {
            CHECK(0);
            return;
        }
        if (drain_pod(&f, "db-0")->outcome != rows[i].want)
            printf("#   row %zu\n", i);
        CHECK_EQ_INT(drain_pod(&f, "db-0")->outcome, rows[i].want);
        teardown(&f);
    }
}

/*
 * A lost node's healthy pod lowers currentHealthy (countHealthyPods): the
 * not-Ready pod of the drained node then fails currentHealthy >=
 * desiredHealthy and is refused.
 */
static void
test_whatif__a_lost_healthy_pod_lowers_current_healthy(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") "," WNODE("b") ","
                        WPDBX("p", "db", "0", "", HEALTHY("2", "2")) ","
                        WPOD("db-0", "a", OWNER("StatefulSet"), "db", "False",
                             "Running", "") ","
                        WPOD("db-1", "b", OWNER("StatefulSet"), "db", "True",
                             "Running", "")), "a", "b", false) < 0) {
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(drain_pod(&f, "db-0")->outcome, KP_DRAIN_WAITING);
    CHECK_EQ_INT(f.s.pdbs[0]->current_healthy, 1);
    teardown(&f);
}

/*
 * A Ready pod already in the PDB's disruptedPods: the controller never
 * counted it, so evicting it uses no disruption (issue 24 item 10); the
 * Eviction API still refuses it when the PDB allows none.
 */
static void
test_whatif__a_disrupted_pod_uses_no_disruption(void)
{
    struct fixture f;

    if (setup(&f, WLIST(WNODE("a") ","
                        WPDBX("p", "db", "1", "",
                              ",\"disruptedPods\":{\"db-0\":"
                              "\"2026-11-01T10:00:00Z\"}") ","
                        WPOD("db-0", "a", OWNER("StatefulSet"), "db", "True",
                             "Running", "") ","
                        WPOD("db-1", "a", OWNER("StatefulSet"), "db", "True",
                             "Running", "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(drain_pod(&f, "db-0")->outcome, KP_DRAIN_EVICTED);
    CHECK_EQ_INT(drain_pod(&f, "db-1")->outcome, KP_DRAIN_EVICTED);
    CHECK_EQ_INT(f.s.pdbs[0]->disruptions_allowed, 0);
    teardown(&f);
    if (setup(&f, WLIST(WNODE("a") ","
                        WPDBX("p", "db", "0", "",
                              ",\"disruptedPods\":{\"db-0\":"
                              "\"2026-11-01T10:00:00Z\"}") ","
                        WPOD("db-0", "a", OWNER("StatefulSet"), "db", "True",
                             "Running", "")), "a", NULL, false) < 0) {
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(drain_pod(&f, "db-0")->outcome, KP_DRAIN_WAITING);
    teardown(&f);
}

int
main(void)
{
    RUN(test_whatif__drain_keeps_daemonset_and_mirror_pods);
    RUN(test_whatif__eviction_spends_the_budget_of_ready_pods_only);
    RUN(test_whatif__two_pdbs_refuse_the_eviction_for_good);
    RUN(test_whatif__pending_and_finished_pods_skip_the_pdb_check);
    RUN(test_whatif__a_pod_without_controller_stops_the_drain);
    RUN(test_whatif__a_lost_node_spends_the_budget_of_healthy_pods);
    RUN(test_whatif__a_refused_eviction_goes_through_in_the_next_wave);
    RUN(test_whatif__a_finished_mirror_pod_is_kept);
    RUN(test_whatif__always_allow_evicts_a_not_ready_pod);
    RUN(test_whatif__if_healthy_budget_rows);
    RUN(test_whatif__a_lost_healthy_pod_lowers_current_healthy);
    RUN(test_whatif__a_disrupted_pod_uses_no_disruption);
    return check_done();
}
