/*
 * test_label_index.c - the snapshot's pods by label
 * (core/sched/framework/label_index.h) and what the selector counts make
 * of it (selcount.c, fill_from_index): the lists by (key, value) and by
 * key hold pending and bound pods alike, the narrowest In/Exists
 * requirement is picked and none for selectors that need no label, and
 * an entry first made after the queue placed and removed pods counts on
 * every node what the node-by-node count finds there
 * (countPodsMatchSelector in podtopologyspread/common.go for a spread
 * selector; an incoming term counts pods being deleted too), with and
 * without KP_NO_LABEL_INDEX=1.
 */
#include <stdlib.h>

#include "label_index.h"
#include "plugin_rows.h"
#include "selcount.h"

#define SPREAD_TIER                                                        \
    T_SPREAD(T_TSC(1, "zone", T_SOFT,                                      \
                   T_SEL(T_EXPR("app", "In", Q("a")) ","                   \
                         T_EXPR("tier", "Exists", "")), ""))
#define PREF_TIER                                                          \
    ",\"affinity\":{\"podAffinity\":{" T_PREF ":["                         \
    T_WTERM(5, T_TERM(T_IN("tier", Q("web") "," Q("db")), "zone")) "]}}"

static const char *const cluster =
    T_LIST(T_NODE("n1", L("zone", "z1")) ","
           T_NODE("n2", L("zone", "z2")) ","
           T_POD("a1", "n1", L("app", "a") "," L("tier", "web"), "") ","
           T_POD("a2", "n1", L("app", "a"), "") ","
           T_POD("a5", "n1", L("app", "a") "," L("tier", "x"), "") ","
           T_POD("b1", "n1", L("app", "b") "," L("tier", "web"), "") ","
           T_POD("a3", "n2", L("app", "a") "," L("tier", "db"), "") ","
           T_POD_X("other", "o1", "n2", L("app", "a") "," L("tier", "db"),
                   "", "") ","
           T_POD_X("default", "d1", "n2", L("app", "a") "," L("tier", "db"),
                   T_TERMINATING, "") ","
           T_POD("p1", "", L("app", "a"), SPREAD_TIER PREF_TIER) ","
           T_POD("p2", "", L("app", "a") "," L("tier", "web"), "") ","
           T_POD("q", "", L("app", "q"), ""));

static void
test_label_index__lists_and_narrowest(void)
{
    struct row_fixture fx;
    struct kp_label_index *ix;
    const struct kp_requirement *r;
    const struct kp_pod *p1;
    const uint32_t *pods;
    size_t n, total;

    CHECK(row_setup(&fx, cluster, "q"));
    ix = kp_label_index_get(&fx.cl);
    CHECK(ix == kp_label_index_get(&fx.cl));
    /* bound and pending pods alike, every namespace */
    kp_label_index_pods(ix, "app", "a", &n);
    CHECK_EQ_INT(n, 8);
    pods = kp_label_index_pods(ix, "tier", NULL, &n);
    CHECK_EQ_INT(n, 7);
    CHECK(n > 0 && fx.s.pods[pods[0]] ==
                   kp_snapshot_pod(&fx.s, "default", "a1"));
    pods = kp_label_index_pods(ix, "tier", "web", &n);
    CHECK_EQ_INT(n, 3);
    kp_label_index_pods(ix, "app", "nope", &n);
    CHECK_EQ_INT(n, 0);
    kp_label_index_pods(ix, "nope", NULL, &n);
    CHECK_EQ_INT(n, 0);
    /* app In (a) lists 8 pods, tier Exists 7: the second is narrower */
    p1 = kp_snapshot_pod(&fx.s, "default", "p1");
    r = kp_label_index_narrowest(ix, &p1->spread[0].selector, &total);
    CHECK(r != NULL);
    CHECK(r && strcmp(r->key, "tier") == 0 && r->op == KP_OP_EXISTS);
    CHECK_EQ_INT(total, 7);
    /* two values: the pods of both */
    r = kp_label_index_narrowest(ix, &p1->pref_affinity[0].selector, &total);
    CHECK(r && strcmp(r->key, "tier") == 0 && r->op == KP_OP_IN);
    CHECK_EQ_INT(total, 6);
    row_teardown(&fx);
}

/* Selectors whose pods need no label: no list, every pod is read. */
static void
test_label_index__no_list_without_a_label_requirement(void)
{
    static const char *const sels =
        T_LIST(T_NODE("n1", "") ","
               T_POD("a", "", L("app", "a"),
                     T_SPREAD(T_TSC(1, "zone", T_SOFT, "{}", "") ","
                              T_TSC(1, "zone", T_SOFT,
                                    T_NOTIN("app", Q("b")), "") ","
                              T_TSC(1, "zone", T_SOFT,
                                    T_SEL(T_EXPR("app", "DoesNotExist", "")),
                                    ""))));
    struct row_fixture fx;
    struct kp_label_index *ix;
    const struct kp_pod *a;
    size_t total, i;

    CHECK(row_setup(&fx, sels, "a"));
    ix = kp_label_index_get(&fx.cl);
    a = kp_snapshot_pod(&fx.s, "default", "a");
    CHECK_EQ_INT(a->nspread, 3);
    for (i = 0; i < a->nspread; i++)
        CHECK(kp_label_index_narrowest(ix, &a->spread[i].selector, &total) ==
              NULL);
    row_teardown(&fx);
}

/*
 * Entries first made once the queue has moved pods: p2 placed on n2, a1
 * removed from n1.  The spread selector (app In a, tier Exists, in
 * default, not being deleted) then counts a5 on n1 and a3, p2 on n2;
 * the term (tier In web, db, p1's namespace) b1 on n1 and a3, d1, p2 on
 * n2.
 */
static void
check_counts_after_moves(bool off)
{
    struct row_fixture fx;
    const struct kp_pod *p1;
    struct kp_selcount_entry *e;

    if (off)
        setenv("KP_NO_LABEL_INDEX", "1", 1);
    CHECK(row_setup(&fx, cluster, "q"));
    p1 = kp_snapshot_pod(&fx.s, "default", "p1");
    kp_cluster_place(&fx.cl, kp_snapshot_pod(&fx.s, "default", "p2"), 1);
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "a1"));
    e = kp_selcount_spread(&fx.cl, &p1->spread[0].selector, p1->ns);
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[0]), 1);
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[1]), 2);
    CHECK_EQ_INT(kp_selcount_recount(e, &fx.cl.nodes[1]), 2);
    e = kp_selcount_term(&fx.cl, &p1->pref_affinity[0], NULL, p1->ns);
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[0]), 1);
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[1]), 3);
    /* the counts then follow the queue as before */
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "a3"));
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[1]), 2);
    row_teardown(&fx);
    unsetenv("KP_NO_LABEL_INDEX");
}

static void
test_label_index__fresh_entry_counts_where_the_pods_are_now(void)
{
    check_counts_after_moves(false);
}

static void
test_label_index__the_same_node_by_node(void)
{
    check_counts_after_moves(true);
}

int
main(void)
{
    RUN(test_label_index__lists_and_narrowest);
    RUN(test_label_index__no_list_without_a_label_requirement);
    RUN(test_label_index__fresh_entry_counts_where_the_pods_are_now);
    RUN(test_label_index__the_same_node_by_node);
    return check_done();
}
