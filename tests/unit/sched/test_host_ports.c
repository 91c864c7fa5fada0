/*
 * test_host_ports.c - NodeInfo's UsedPorts (framework.h kp_port_set):
 * the rows of upstream's TestHostPortInfo_AddRemove and
 * TestHostPortInfo_Check (pkg/scheduler/framework/types_test.go) as
 * data, and the set semantics the dry run depends on (issue 13): a port
 * two pods declare is free once either is removed; a clone's set is its
 * own.
 */
#include <stdlib.h>

#include "check.h"
#include "framework.h"

struct hp {
    const char *protocol, *ip;
    int32_t port;
};

#define MAXP 12

struct add_remove_row {
    const char *name;
    struct hp added[MAXP];
    struct hp removed[MAXP];
    size_t length;
};

/* {protocol, ip, port}; a row ends at the first port-less entry {0} */
static const struct add_remove_row add_remove_rows[] = {
    {"normal add case",
     {{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80},
      {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
      {"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80},
      {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82},
      {"TCP", "0.0.0.0", 0}, {"TCP", "0.0.0.0", -1}},
     {{NULL, NULL, 0}}, 8},
    {"empty ip and protocol add should work",
     {{"", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80},
      {"", "127.0.0.1", 81}, {"", "127.0.0.1", 82}, {"", "", 79},
      {"UDP", "", 80}, {"", "", 81}, {"", "", 82}, {"", "", 0},
      {"", "", -1}},
     {{NULL, NULL, 0}}, 8},
    {"normal remove case",
     {{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80},
      {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
      {"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80},
      {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82}},
     {{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80},
      {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
      {"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80},
      {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82}},
     0},
    {"empty ip and protocol remove should work",
     {{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80},
      {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
      {"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80},
      {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82}},
     {{"", "127.0.0.1", 79}, {"", "127.0.0.1", 81},
      {"", "127.0.0.1", 82}, {"UDP", "127.0.0.1", 80}, {"", "", 79},
      {"", "", 81}, {"", "", 82}, {"UDP", "", 80}},
     0},
};

struct check_row {
    const char *name;
    struct hp added[MAXP];
    struct hp check;
    bool expect;
};

static const struct check_row check_rows[] = {
    {"empty check should check 0.0.0.0 and TCP",
     {{"TCP", "127.0.0.1", 80}}, {"", "", 81}, false},
    {"empty check should check 0.0.0.0 and TCP (conflicted)",
     {{"TCP", "127.0.0.1", 80}}, {"", "", 80}, true},
    {"empty port check should pass",
     {{"TCP", "127.0.0.1", 80}}, {"", "", 0}, false},
    {"0.0.0.0 should check all registered IPs",
     {{"TCP", "127.0.0.1", 80}}, {"TCP", "0.0.0.0", 80}, true},
    {"0.0.0.0 with different protocol should be allowed",
     {{"UDP", "127.0.0.1", 80}}, {"TCP", "0.0.0.0", 80}, false},
    {"0.0.0.0 with different port should be allowed",
     {{"TCP", "127.0.0.1", 79}, {"TCP", "127.0.0.1", 81},
      {"TCP", "127.0.0.1", 82}},
     {"TCP", "0.0.0.0", 80}, false},
    {"normal ip should check all registered 0.0.0.0",
     {{"TCP", "0.0.0.0", 80}}, {"TCP", "127.0.0.1", 80}, true},
    {"normal ip with different port/protocol should be allowed (0.0.0.0)",
     {{"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80},
      {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82}},
     {"TCP", "127.0.0.1", 80}, false},
    {"normal ip with different port/protocol should be allowed",
     {{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80},
      {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82}},
     {"TCP", "127.0.0.1", 80}, false},
};

static struct kp_host_port
to_port(const struct hp *h)
{
    struct kp_host_port p = {h->ip, h->protocol, h->port};

    return p;
}

static bool
row_end(const struct hp *h)
{
    return h->protocol == NULL;
}

static void
test_host_ports__add_remove_rows(void)
{
    size_t r, i;

    for (r = 0; r < sizeof(add_remove_rows) / sizeof(add_remove_rows[0]);
         r++) {
        const struct add_remove_row *row = &add_remove_rows[r];
        struct kp_port_set s = {0, 0, NULL, NULL, 0};

        for (i = 0; i < MAXP && !row_end(&row->added[i]); i++) {
            struct kp_host_port p = to_port(&row->added[i]);

            kp_port_set_add(&s, NULL, &p);
        }
        for (i = 0; i < MAXP && !row_end(&row->removed[i]); i++) {
            struct kp_host_port p = to_port(&row->removed[i]);

            kp_port_set_remove(&s, &p);
        }
        if (s.n != row->length)
            printf("#   row '%s'\n", row->name);
        CHECK_EQ_INT(s.n, row->length);
        kp_port_set_free(&s);
    }
}

static void
test_host_ports__check_rows(void)
{
    size_t r, i;

    for (r = 0; r < sizeof(check_rows) / sizeof(check_rows[0]); r++) {
        const struct check_row *row = &check_rows[r];
        struct kp_port_set s = {0, 0, NULL, NULL, 0};
        struct kp_host_port c = to_port(&row->check);

        for (i = 0; i < MAXP && !row_end(&row->added[i]); i++) {
            struct kp_host_port p = to_port(&row->added[i]);

            kp_port_set_add(&s, NULL, &p);
        }
        if (kp_port_set_conflict(&s, &c) != row->expect)
            printf("#   row '%s'\n", row->name);
        CHECK(kp_port_set_conflict(&s, &c) == row->expect);
        kp_port_set_free(&s);
    }
}

/*
 * A set, not a count: two holders of 8080 leave one entry, and removing
 * either frees the port (what lets kube-scheduler preempt the lower
 * holder of a port a higher-priority pod also declares).
 */
static void
test_host_ports__removing_one_of_two_holders_frees_the_port(void)
{
    struct kp_port_set s = {0, 0, NULL, NULL, 0};
    struct kp_host_port p = {"0.0.0.0", "TCP", 8080};

    kp_port_set_add(&s, NULL, &p);
    kp_port_set_add(&s, NULL, &p);
    CHECK_EQ_INT(s.n, 1);
    kp_port_set_remove(&s, &p);
    CHECK(!kp_port_set_conflict(&s, &p));
    kp_port_set_add(&s, NULL, &p);
    CHECK(kp_port_set_conflict(&s, &p));
    kp_port_set_free(&s);
}

/* A set grown in an arena is a copy: the original keeps its entries. */
static void
test_host_ports__arena_copy_is_its_own(void)
{
    struct kp_port_set s = {0, 0, NULL, NULL, 0}, c = {0, 0, NULL, NULL, 0};
    struct kp_host_port p = {"10.0.0.1", "UDP", 53};
    struct kp_host_port q = {"0.0.0.0", "TCP", 443};
    struct kp_arena a;
    size_t i;

    kp_arena_init(&a);
    kp_port_set_add(&s, NULL, &p);
    for (i = 0; i < s.n; i++)
        kp_port_set_add(&c, &a, &s.e[i]);
    for (i = 0; i < 20; i++) {
        struct kp_host_port r = {"0.0.0.0", "TCP", (int32_t)(1000 + i)};

        kp_port_set_add(&c, &a, &r);
    }
    kp_port_set_add(&c, &a, &q);
    kp_port_set_remove(&c, &p);
    CHECK_EQ_INT(c.n, 21);
    CHECK_EQ_INT(s.n, 1);
    CHECK(kp_port_set_conflict(&s, &p));
    CHECK(!kp_port_set_conflict(&s, &q));
    kp_port_set_free(&s);
    kp_arena_release(&a);
}

/*
 * From KP_PORT_HASH_MIN triples on, a set is hashed (host_port_info.c);
 * KP_NO_PORT_HASH=1 keeps it a scanned array.  Random adds, removes and
 * copies (arena and malloc) of both kinds of set give the same answers
 * to CheckConflict and to the exact-triple test, for every triple of a
 * small universe (few ports, so the hash runs hold several IPs and
 * protocols of one port, and removals shift runs).
 */
static const char *ips[] = {"0.0.0.0", "", "10.0.0.1", "10.0.0.2"};
static const char *protos[] = {"TCP", "", "UDP", "SCTP"};

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static size_t
pick(size_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (size_t)(rng % n);
}

static size_t
disagreements(const struct kp_port_set *h, const struct kp_port_set *l)
{
    size_t bad = h->n != l->n, i, j;
    int32_t port;

    for (port = 0; port < 40; port++)
        for (i = 0; i < 4; i++)
            for (j = 0; j < 4; j++) {
                struct kp_host_port q = {ips[i], protos[j], port};

                bad += kp_port_set_conflict(h, &q) !=
                       kp_port_set_conflict(l, &q);
                bad += kp_port_set_has(h, &q) != kp_port_set_has(l, &q);
            }
    return bad;
}

static void
test_host_ports__hashed_sets_answer_as_scanned_ones(void)
{
    struct kp_port_set h = {0, 0, NULL, NULL, 0}, l = {0, 0, NULL, NULL, 0};
    struct kp_port_set hc = {0, 0, NULL, NULL, 0}, lc = {0, 0, NULL, NULL, 0};
    struct kp_arena a;
    size_t step, bad = 0, hashed = 0;

    kp_arena_init(&a);
    for (step = 0; step < 6000 && !bad; step++) {
        struct kp_host_port q = {ips[pick(4)], protos[pick(4)],
                                 (int32_t)pick(40)};
        size_t op = pick(10);

        if (op < 6) {
            kp_port_set_add(&h, NULL, &q);
            setenv("KP_NO_PORT_HASH", "1", 1);
            kp_port_set_add(&l, NULL, &q);
            unsetenv("KP_NO_PORT_HASH");
        } else if (op < 9) {
            kp_port_set_remove(&h, &q);
            kp_port_set_remove(&l, &q);
        } else {
            /* a copy, then the copy is worked on and checked */
            struct kp_port_set ha, la;
            size_t k;

            kp_port_set_copy(&ha, &h, &a);
            kp_port_set_copy(&la, &l, &a);
            kp_port_set_copy(&hc, &h, NULL);
            kp_port_set_copy(&lc, &l, NULL);
            for (k = 0; k < 30; k++) {
                struct kp_host_port r = {ips[pick(4)], protos[pick(4)],
                                         (int32_t)pick(40)};

                if (pick(2)) {
                    kp_port_set_add(&ha, &a, &r);
                    kp_port_set_add(&hc, NULL, &r);
                    setenv("KP_NO_PORT_HASH", "1", 1);
                    kp_port_set_add(&la, &a, &r);
                    kp_port_set_add(&lc, NULL, &r);
                    unsetenv("KP_NO_PORT_HASH");
                } else {
                    kp_port_set_remove(&ha, &r);
                    kp_port_set_remove(&la, &r);
                    kp_port_set_remove(&hc, &r);
                    kp_port_set_remove(&lc, &r);
                }
            }
            bad += disagreements(&ha, &la) + disagreements(&hc, &lc);
        }
        hashed += h.nslots > 0;
        CHECK(l.nslots == 0);
        bad += disagreements(&h, &l);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(hashed > 1000);
    kp_port_set_free(&h);
    kp_port_set_free(&l);
    kp_port_set_free(&hc);
    kp_port_set_free(&lc);
    kp_arena_release(&a);
}

int
main(void)
{
    RUN(test_host_ports__add_remove_rows);
    RUN(test_host_ports__check_rows);
    RUN(test_host_ports__removing_one_of_two_holders_frees_the_port);
    RUN(test_host_ports__arena_copy_is_its_own);
    RUN(test_host_ports__hashed_sets_answer_as_scanned_ones);
    return check_done();
}
