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
        struct kp_port_set s = {0, 0, NULL};

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
        free(s.e);
    }
}

static void
test_host_ports__check_rows(void)
{
    size_t r, i;

    for (r = 0; r < sizeof(check_rows) / sizeof(check_rows[0]); r++) {
        const struct check_row *row = &check_rows[r];
        struct kp_port_set s = {0, 0, NULL};
        struct kp_host_port c = to_port(&row->check);

        for (i = 0; i < MAXP && !row_end(&row->added[i]); i++) {
            struct kp_host_port p = to_port(&row->added[i]);

            kp_port_set_add(&s, NULL, &p);
        }
        if (kp_port_set_conflict(&s, &c) != row->expect)
            printf("#   row '%s'\n", row->name);
        CHECK(kp_port_set_conflict(&s, &c) == row->expect);
        free(s.e);
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
    struct kp_port_set s = {0, 0, NULL};
    struct kp_host_port p = {"0.0.0.0", "TCP", 8080};

    kp_port_set_add(&s, NULL, &p);
    kp_port_set_add(&s, NULL, &p);
    CHECK_EQ_INT(s.n, 1);
    kp_port_set_remove(&s, &p);
    CHECK(!kp_port_set_conflict(&s, &p));
    kp_port_set_add(&s, NULL, &p);
    CHECK(kp_port_set_conflict(&s, &p));
    free(s.e);
}

/* A set grown in an arena is a copy: the original keeps its entries. */
static void
test_host_ports__arena_copy_is_its_own(void)
{
    struct kp_port_set s = {0, 0, NULL}, c = {0, 0, NULL};
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
    free(s.e);
    kp_arena_release(&a);
}

int
main(void)
{
    RUN(test_host_ports__add_remove_rows);
    RUN(test_host_ports__check_rows);
    RUN(test_host_ports__removing_one_of_two_holders_frees_the_port);
    RUN(test_host_ports__arena_copy_is_its_own);
    return check_done();
}
