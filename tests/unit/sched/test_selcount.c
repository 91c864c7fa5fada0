/*
 * test_selcount.c - the per-node matching-pod counts kept across pods
 * (core/sched/plugins/selcount.h): pods of one workload share an entry,
 * a count follows the pods the queue places and removes (NodeInfo
 * generations), the rules of countPodsMatchSelector (namespace, pods
 * being deleted, the empty selector) and of an incoming affinity term
 * hold, and an entry reused for another selector counts afresh; the
 * existing pods' affinity terms interned per node (equal terms share an
 * id and count per pod), and the label columns of topology keys; the
 * sums by topology domain kept for InterPodAffinity's PreFilter (an
 * incoming term's, and the existing pods' required anti-affinity
 * terms', term_domains.h) follow the queue too.
 */
#include <stdlib.h>

#include "plugin_rows.h"
#include "selcount.h"
#include "term_domains.h"
#include "tpcount.h"

#define SPREAD_A                                                           \
    T_SPREAD(T_TSC(1, "zone", T_SOFT, T_IN("app", Q("a")), ""))
#define PREF_A                                                             \
    ",\"affinity\":{\"podAffinity\":{" T_PREF ":["                         \
    T_WTERM(5, T_TERM(T_IN("app", Q("a")), "zone")) "]}}"

static const char *const cluster =
    T_LIST(T_NODE("n1", L("zone", "z1")) ","
           T_NODE("n2", L("zone", "z2")) ","
           T_POD("a1", "n1", L("app", "a"), "") ","
           T_POD("a2", "n1", L("app", "a"), "") ","
           T_POD("b1", "n1", L("app", "b"), "") ","
           T_POD_X("other", "a3", "n2", L("app", "a"), "", "") ","
           T_POD_X("default", "a4", "n2", L("app", "a"), T_TERMINATING,
                   "") ","
           T_POD("p1", "", L("app", "a"), SPREAD_A PREF_A) ","
           T_POD("p2", "", L("app", "a"), SPREAD_A PREF_A) ","
           T_POD("e1", "", L("app", "a"),
                 T_SPREAD(T_TSC(1, "zone", T_SOFT, "{}", ""))));

static void
test_selcount__workload_shares_entry_and_follows_the_queue(void)
{
    struct row_fixture fx;
    const struct kp_pod *p1, *p2;
    struct kp_selcount_entry *e1, *e2;

    CHECK(row_setup(&fx, cluster, "p1"));
    p1 = kp_snapshot_pod(&fx.s, "default", "p1");
    p2 = kp_snapshot_pod(&fx.s, "default", "p2");
    e1 = kp_selcount_spread(&fx.cl, &p1->spread[0].selector, p1->ns);
    CHECK_EQ_INT(kp_selcount_node(e1, &fx.cl.nodes[0]), 2);
    /* a3 is in another namespace, a4 is being deleted */
    CHECK_EQ_INT(kp_selcount_node(e1, &fx.cl.nodes[1]), 0);
    /* p2's selector is another copy of the same one */
    e2 = kp_selcount_spread(&fx.cl, &p2->spread[0].selector, p2->ns);
    CHECK(e1 == e2);
    CHECK(kp_selcount_spread(&fx.cl, &p1->spread[0].selector, "other") !=
          e1);
    /* the queue places p1 on n2, then removes a1 from n1 */
    kp_cluster_place(&fx.cl, p1, 1);
    CHECK_EQ_INT(kp_selcount_node(e2, &fx.cl.nodes[1]), 1);
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "a1"));
    CHECK_EQ_INT(kp_selcount_node(e2, &fx.cl.nodes[0]), 1);
    CHECK_EQ_INT(kp_selcount_node(e2, &fx.cl.nodes[0]),
                 kp_selcount_recount(e2, &fx.cl.nodes[0]));
    row_teardown(&fx);
}

static void
test_selcount__empty_selector_counts_nothing(void)
{
    struct row_fixture fx;
    const struct kp_pod *e;
    struct kp_selcount_entry *ent;

    CHECK(row_setup(&fx, cluster, "e1"));
    e = kp_snapshot_pod(&fx.s, "default", "e1");
    ent = kp_selcount_spread(&fx.cl, &e->spread[0].selector, e->ns);
    CHECK_EQ_INT(kp_selcount_node(ent, &fx.cl.nodes[0]), 0);
    row_teardown(&fx);
}

/* An incoming term counts pods of any state in its namespaces. */
static void
test_selcount__incoming_term_counts_as_processed_one_by_one(void)
{
    struct row_fixture fx;
    const struct kp_pod *p1;
    struct kp_selcount_entry *e;

    CHECK(row_setup(&fx, cluster, "p1"));
    p1 = kp_snapshot_pod(&fx.s, "default", "p1");
    e = kp_selcount_term(&fx.cl, &p1->pref_affinity[0], NULL, p1->ns);
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[0]), 2);
    /* a4 is being deleted but still counts here; a3 is elsewhere */
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[1]), 1);
    CHECK(e == kp_selcount_term(&fx.cl,
                                &kp_snapshot_pod(&fx.s, "default",
                                                 "p2")->pref_affinity[0],
                                NULL, "default"));
    row_teardown(&fx);
}

/*
 * More selectors than the cache holds: the least recently used entry is
 * reused and counts its new selector afresh, not the old one's stamps.
 */
static void
test_selcount__reused_entry_counts_afresh(void)
{
    struct row_fixture fx;
    const struct kp_pod *p1;
    struct kp_selcount_entry *e;
    char ns[32];
    int i;

    CHECK(row_setup(&fx, cluster, "p1"));
    p1 = kp_snapshot_pod(&fx.s, "default", "p1");
    e = kp_selcount_spread(&fx.cl, &p1->spread[0].selector, "default");
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[0]), 2);
    for (i = 0; i < KP_SELCOUNT_MAX; i++) {
        snprintf(ns, sizeof(ns), "ns-%d", i);
        CHECK_EQ_INT(kp_selcount_node(
            kp_selcount_spread(&fx.cl, &p1->spread[0].selector, ns),
            &fx.cl.nodes[0]), 0);
    }
    /* "default" was the least recently used: its slot went to ns-0 ... */
    e = kp_selcount_spread(&fx.cl, &p1->spread[0].selector, "default");
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[0]), 2);
    CHECK_EQ_INT(kp_selcount_node(e, &fx.cl.nodes[1]), 0);
    row_teardown(&fx);
}

/*
 * Two pods of a workload with equal required anti-affinity terms on one
 * node: one interned term, counted twice; another namespace is another
 * term; the groups follow the pods the queue removes.
 */
#define ANTI_A T_ANTI(T_TERM(T_IN("app", Q("a")), "zone"))
static const char *const anti_cluster =
    T_LIST(T_NODE("n1", L("zone", "z1")) ","
           T_NODE("n2", "") ","
           T_POD("w1", "n1", L("app", "w"), ANTI_A) ","
           T_POD("w2", "n1", L("app", "w"), ANTI_A) ","
           T_POD_X("other", "w3", "n1", L("app", "w"), "", ANTI_A) ","
           T_POD("p", "", L("app", "a"), ""));

static void
test_selcount__equal_terms_share_an_id_and_follow_the_queue(void)
{
    struct row_fixture fx;
    uint32_t *ids;
    int32_t *mult;
    size_t n;

    CHECK(row_setup(&fx, anti_cluster, "p"));
    n = kp_term_groups(&fx.cl, &fx.cl.nodes[0], true, &ids, &mult);
    CHECK_EQ_INT(n, 2);
    if (n == 2) {
        CHECK_EQ_INT(mult[0], 2);
        CHECK_EQ_INT(mult[1], 1);
        CHECK(ids[0] != ids[1]);
        CHECK_EQ_INT(kp_term_get(&fx.cl, ids[0])->kind, KP_TERM_REQ_ANTI);
    }
    free(ids);
    free(mult);
    /* the table the cluster keeps says the same, and follows removals */
    CHECK(fx.cl.vt[0]->grp_ready);
    CHECK_EQ_INT(fx.cl.vt[0]->nanti_grp, 2);
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "w1"));
    CHECK_EQ_INT(fx.cl.vt[0]->nanti_grp, 2);
    CHECK_EQ_INT(fx.cl.vt[0]->anti_grp_mult[0], 1);
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "w2"));
    CHECK_EQ_INT(fx.cl.vt[0]->nanti_grp, 1);
    /* the PreScore kinds: none of these pods has any */
    CHECK_EQ_INT(fx.cl.vt[0]->ngrp, 0);
    row_teardown(&fx);
}

/*
 * An incoming term's sums by domain: every node's count added at its
 * value of the key (a node without it left out), then brought up to
 * date with the nodes the queue changed.
 */
static void
test_selcount__incoming_term_sums_by_domain_follow_the_queue(void)
{
    struct row_fixture fx;
    const struct kp_pod *p1;
    struct kp_selcount_entry *e;
    const struct kp_tpcount *m;

    CHECK(row_setup(&fx, cluster, "p1"));
    p1 = kp_snapshot_pod(&fx.s, "default", "p1");
    e = kp_selcount_term(&fx.cl, &p1->pref_affinity[0], NULL, p1->ns);
    m = kp_selcount_domains(e, kp_selcount_made(e), "zone");
    CHECK(m != NULL);
    if (!m) {
        row_teardown(&fx);
        return;
    }
    CHECK_EQ_INT(kp_tpcount_get(m, "zone", "z1"), 2);
    CHECK_EQ_INT(kp_tpcount_get(m, "zone", "z2"), 1);
    /* no node has this key: nothing */
    CHECK_EQ_INT(kp_selcount_domains(e, kp_selcount_made(e), "rack")
                     ->nonzero, 0);
    kp_cluster_place(&fx.cl, p1, 1);
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "a1"));
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "b1"));
    m = kp_selcount_domains(e, kp_selcount_made(e), "zone");
    CHECK_EQ_INT(kp_tpcount_get(m, "zone", "z1"), 1);
    CHECK_EQ_INT(kp_tpcount_get(m, "zone", "z2"), 2);
    /* a third key is not kept: the caller counts node by node */
    CHECK(kp_selcount_domains(e, kp_selcount_made(e), "region") == NULL);
    row_teardown(&fx);
}

/*
 * The existing pods' required anti-affinity terms by domain: per
 * interned term, its pods on the nodes with each value of its key (n2
 * has none), changed as the queue places and removes pods.
 */
static const char *const anti_place_cluster =
    T_LIST(T_NODE("n1", L("zone", "z1")) ","
           T_NODE("n2", "") ","
           T_NODE("n3", L("zone", "z1")) ","
           T_POD("w1", "n1", L("app", "w"), ANTI_A) ","
           T_POD("w2", "n1", L("app", "w"), ANTI_A) ","
           T_POD("w3", "n2", L("app", "w"), ANTI_A) ","
           T_POD("w4", "", L("app", "w"), ANTI_A) ","
           T_POD("w5", "", L("app", "w"), ANTI_A));

static void
test_selcount__anti_terms_by_domain_follow_the_queue(void)
{
    struct row_fixture fx;
    const struct kp_term_domains *d;
    const uint32_t *ids;
    size_t n;

    CHECK(row_setup(&fx, anti_place_cluster, "w4"));
    d = kp_term_domains_of(&fx.cl);
    CHECK(d != NULL);
    if (!d) {
        row_teardown(&fx);
        return;
    }
    ids = kp_term_domains_ids(d, &n);
    CHECK_EQ_INT(n, 1);
    if (n != 1) {
        row_teardown(&fx);
        return;
    }
    CHECK_EQ_INT(kp_tpcount_get(kp_term_domains_get(d, ids[0]), "zone",
                                "z1"), 2);
    kp_cluster_place(&fx.cl, kp_snapshot_pod(&fx.s, "default", "w4"), 2);
    kp_cluster_place(&fx.cl, kp_snapshot_pod(&fx.s, "default", "w5"), 1);
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "w1"));
    CHECK_EQ_INT(kp_tpcount_get(kp_term_domains_get(d, ids[0]), "zone",
                                "z1"), 2);
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "w2"));
    kp_cluster_remove(&fx.cl, kp_snapshot_pod(&fx.s, "default", "w4"));
    CHECK_EQ_INT(kp_term_domains_get(d, ids[0])->nonzero, 0);
    row_teardown(&fx);
}

/*
 * kp_term_domains_visit: a term is visited for a pod whose labels may
 * match its selector (by its first In requirement's values, a value
 * given twice visited once), a term without an In requirement for any
 * pod, a term whose selector is null for none.
 */
static const char *const visit_cluster =
    T_LIST(T_NODE("n1", L("zone", "z1")) ","
           T_POD("a1", "n1", L("app", "w"),
                 T_ANTI(T_TERM(T_SEL(T_EXPR("app", "In",
                                            Q("a") "," Q("b") "," Q("a"))),
                               "zone"))) ","
           T_POD("e1", "n1", L("app", "w"),
                 T_ANTI(T_TERM(T_EXISTS("tier"), "zone"))) ","
           T_POD("p", "", L("app", "w"), ""));

struct visits {
    const struct kp_cluster *cl;
    int in, exists, other;
};

static void
count_visit(void *arg, uint32_t id)
{
    struct visits *v = arg;
    const struct kp_selector *s = &kp_term_get(v->cl, id)->t->selector;

    if (s->nreq == 1 && s->reqs[0].op == KP_OP_IN)
        v->in++;
    else if (s->nreq == 1 && s->reqs[0].op == KP_OP_EXISTS)
        v->exists++;
    else
        v->other++;
}

static void
test_selcount__terms_visited_by_labels(void)
{
    static const struct {
        const char *labels;
        int in;
    } rows[] = {
        {"{\"app\":\"a\"}", 1},
        {"{\"app\":\"b\",\"tier\":\"x\"}", 1},
        {"{\"app\":\"c\"}", 0},
        {"{\"tier\":\"a\"}", 0},
        {"{}", 0},
    };
    struct row_fixture fx;
    const struct kp_term_domains *d;
    size_t i;

    CHECK(row_setup(&fx, visit_cluster, "p"));
    d = kp_term_domains_of(&fx.cl);
    CHECK(d != NULL);
    for (i = 0; d && i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct kp_arena a;
        struct kp_labels l;
        struct kp_error err;
        struct visits v = {&fx.cl, 0, 0, 0};
        cJSON *j = cJSON_Parse(rows[i].labels);

        kp_arena_init(&a);
        CHECK(kp_labels_from_json(&a, j, &l, &err) == 0);
        kp_term_domains_visit(&fx.cl, d, false, &l, count_visit, &v);
        CHECK_EQ_INT(v.in, rows[i].in);
        CHECK_EQ_INT(v.exists, 1);
        CHECK_EQ_INT(v.other, 0);
        cJSON_Delete(j);
        kp_arena_release(&a);
    }
    row_teardown(&fx);
}

/* A label column holds each node's value, NULL where it has none. */
static void
test_selcount__label_column(void)
{
    struct row_fixture fx;
    const char *const *col;

    CHECK(row_setup(&fx, anti_cluster, "p"));
    col = kp_cluster_label_column(&fx.cl, "zone");
    CHECK(col != NULL);
    if (col) {
        CHECK_EQ_STR(col[0], "z1");
        CHECK(col[1] == NULL);
    }
    CHECK(kp_cluster_label_column(&fx.cl, "zone") == col);
    row_teardown(&fx);
}

int
main(void)
{
    RUN(test_selcount__workload_shares_entry_and_follows_the_queue);
    RUN(test_selcount__empty_selector_counts_nothing);
    RUN(test_selcount__terms_visited_by_labels);
    RUN(test_selcount__incoming_term_counts_as_processed_one_by_one);
    RUN(test_selcount__reused_entry_counts_afresh);
    RUN(test_selcount__equal_terms_share_an_id_and_follow_the_queue);
    RUN(test_selcount__label_column);
    RUN(test_selcount__incoming_term_sums_by_domain_follow_the_queue);
    RUN(test_selcount__anti_terms_by_domain_follow_the_queue);
    return check_done();
}
