/*
 * test_tpcount.c - the counter maps of InterPodAffinity and
 * PodTopologySpread (core/sched/plugins/helper/tpcount.h): a clone
 * overlays its source, so two clones of one unchanging source are
 * independent (what the dry run's node copy and its nominated-pods copy
 * rely on, issue 13), zeroed entries leave len() as Go's delete does,
 * and kp_tpcount_same tells counts apart as the self-check needs.
 */
#include "check.h"
#include "tpcount.h"

#define HOST "kubernetes.io/hostname"
#define ZONE "topology.kubernetes.io/zone"

static void
test_tpcount__two_clones_of_one_source_are_independent(void)
{
    struct kp_tpcount base, a, b;
    struct kp_arena ar;
    char why[200];

    kp_arena_init(&ar);
    kp_tpcount_init(&base);
    kp_tpcount_add(&ar, &base, HOST, "n1", 1);
    kp_tpcount_add(&ar, &base, HOST, "n2", 1);
    kp_tpcount_clone(&a, &base);
    kp_tpcount_clone(&b, &base);
    /* the node copy takes its victim out, the nominated copy too ... */
    kp_tpcount_add(&ar, &a, HOST, "n1", -1);
    kp_tpcount_add(&ar, &b, HOST, "n1", -1);
    /* ... adds a nominated pod, then both put the victim back */
    kp_tpcount_add(&ar, &b, HOST, "n1", 1);
    kp_tpcount_add(&ar, &a, HOST, "n1", 1);
    kp_tpcount_add(&ar, &b, HOST, "n1", 1);
    CHECK_EQ_INT(kp_tpcount_get(&a, HOST, "n1"), 1);
    CHECK_EQ_INT(kp_tpcount_get(&b, HOST, "n1"), 2);
    CHECK_EQ_INT(kp_tpcount_get(&base, HOST, "n1"), 1);
    CHECK(kp_tpcount_same(&a, &base, true, why, sizeof(why)));
    CHECK(!kp_tpcount_same(&b, &base, true, why, sizeof(why)));
    CHECK_EQ_STR(why, "(kubernetes.io/hostname=n1): 2, want 1");
    kp_arena_release(&ar);
}

/* A count back at 0 leaves len() (nonzero) as a deleted Go map key. */
static void
test_tpcount__zeroed_entry_leaves_len(void)
{
    struct kp_tpcount base, c;
    struct kp_arena ar;

    kp_arena_init(&ar);
    kp_tpcount_init(&base);
    kp_tpcount_clone(&c, &base);
    kp_tpcount_add(&ar, &c, HOST, "n1", 1);
    CHECK_EQ_INT(c.nonzero, 1);
    kp_tpcount_add(&ar, &c, HOST, "n1", -1);
    CHECK_EQ_INT(c.nonzero, 0);
    CHECK_EQ_INT(base.nonzero, 0);
    kp_arena_release(&ar);
}

/* Domains: a present entry with 0 differs from an absent one. */
static void
test_tpcount__same_tells_domains_apart(void)
{
    struct kp_tpcount a, b;
    struct kp_arena ar;
    char why[200];

    kp_arena_init(&ar);
    kp_tpcount_init(&a);
    kp_tpcount_init(&b);
    kp_tpcount_add(&ar, &a, HOST, "n1", 0);
    CHECK(kp_tpcount_same(&a, &b, false, why, sizeof(why)));
    CHECK(!kp_tpcount_same(&a, &b, true, why, sizeof(why)));
    kp_arena_release(&ar);
}

/*
 * PodTopologySpread PreScore's processAllNode finds each node's domain
 * entry on the threads (kp_tpcount_entry) and adds to it afterwards
 * (kp_tpcount_add_entry): the same counts and len() as kp_tpcount_add,
 * and no entry for a value that is not a domain.
 */
static void
test_tpcount__add_entry_counts_as_add(void)
{
    struct kp_tpcount m, ref;
    struct kp_tpcount_slot *e1, *e2;
    struct kp_arena ar;
    char why[200];

    kp_arena_init(&ar);
    kp_tpcount_init(&m);
    kp_tpcount_init(&ref);
    kp_tpcount_add(&ar, &m, ZONE, "a", 0);
    kp_tpcount_add(&ar, &m, ZONE, "b", 0);
    kp_tpcount_add(&ar, &ref, ZONE, "a", 0);
    kp_tpcount_add(&ar, &ref, ZONE, "b", 0);
    CHECK(kp_tpcount_entry(&m, ZONE, "c") == NULL);
    e1 = kp_tpcount_entry(&m, ZONE, "a");
    e2 = kp_tpcount_entry(&m, ZONE, "b");
    CHECK(e1 != NULL && e2 != NULL && e1 != e2);
    kp_tpcount_add_entry(&m, e1, 3);
    kp_tpcount_add_entry(&m, e1, 2);
    kp_tpcount_add_entry(&m, e2, 0);
    kp_tpcount_add(&ar, &ref, ZONE, "a", 3);
    kp_tpcount_add(&ar, &ref, ZONE, "a", 2);
    CHECK_EQ_INT(kp_tpcount_get(&m, ZONE, "a"), 5);
    CHECK_EQ_INT(kp_tpcount_get(&m, ZONE, "b"), 0);
    CHECK_EQ_INT(m.nonzero, 1);
    CHECK_EQ_INT(m.used, 2);
    CHECK(kp_tpcount_same(&m, &ref, true, why, sizeof(why)));
    kp_tpcount_add_entry(&m, e1, -5);
    CHECK_EQ_INT(kp_tpcount_get(&m, ZONE, "a"), 0);
    CHECK_EQ_INT(m.nonzero, 0);
    kp_arena_release(&ar);
}

/*
 * kp_tpcount_add_hashed with kp_tpcount_hash made beforehand (the
 * InterPodAffinity count pass hashes on the pool's threads) makes the
 * map kp_tpcount_add makes, slot for slot, across growth
 */
static void
test_tpcount__add_hashed_is_add(void)
{
    struct kp_tpcount m, ref;
    struct kp_arena ar;
    char why[200], v[40][8];
    size_t i;

    kp_arena_init(&ar);
    kp_tpcount_init(&m);
    kp_tpcount_init(&ref);
    for (i = 0; i < 40; i++) {
        snprintf(v[i], sizeof(v[i]), "z%zu", i % 23);
        kp_tpcount_add(&ar, &ref, ZONE, v[i], (int64_t)(i % 3));
        kp_tpcount_add_hashed(&ar, &m, ZONE, v[i],
                              kp_tpcount_hash(ZONE, v[i]), (int64_t)(i % 3));
    }
    CHECK(kp_tpcount_same(&m, &ref, true, why, sizeof(why)));
    CHECK_EQ_INT(m.nslots, ref.nslots);
    CHECK_EQ_INT(m.cap, ref.cap);
    for (i = 0; i < m.cap; i++)
        CHECK(m.slots[i].key == ref.slots[i].key &&
              m.slots[i].value == ref.slots[i].value &&
              m.slots[i].n == ref.slots[i].n);
    CHECK_EQ_INT(kp_tpcount_get(&m, ZONE, "z5"), kp_tpcount_get(&ref, ZONE,
                                                                 "z5"));
    kp_arena_release(&ar);
}

/*
 * A map that doubles many times (each entry moved by the hash its slot
 * keeps) and a clone over it that doubles too: every entry still found,
 * with its count, and each slot's hash the pair's.
 */
static void
test_tpcount__growing_keeps_every_entry(void)
{
    struct kp_tpcount m, c;
    struct kp_arena ar;
    char v[600][12];
    size_t i, seen = 0;

    kp_arena_init(&ar);
    kp_tpcount_init(&m);
    for (i = 0; i < 600; i++) {
        snprintf(v[i], sizeof(v[i]), "node-%zu", i);
        kp_tpcount_add(&ar, &m, HOST, v[i], (int64_t)i + 1);
    }
    CHECK(m.cap >= 1024);
    kp_tpcount_clone(&c, &m);
    for (i = 0; i < 600; i += 2)
        kp_tpcount_add(&ar, &c, HOST, v[i], 1000);
    CHECK(c.cap >= 512);
    for (i = 0; i < 600; i++) {
        CHECK_EQ_INT(kp_tpcount_get(&m, HOST, v[i]), (int64_t)i + 1);
        CHECK_EQ_INT(kp_tpcount_get(&c, HOST, v[i]),
                     (int64_t)i + 1 + (i % 2 ? 0 : 1000));
    }
    for (i = 0; i < m.cap; i++)
        if (m.slots[i].key) {
            seen++;
            CHECK(m.slots[i].h == kp_tpcount_hash(m.slots[i].key,
                                                  m.slots[i].value));
        }
    CHECK_EQ_INT(seen, 600);
    CHECK_EQ_INT(m.used, 600);
    CHECK_EQ_INT(c.used, 600);
    kp_arena_release(&ar);
}

/*
 * kp_tpcount_any_label looks up only the node labels of keys the map
 * lists (tpcount.h, keys): a key a clone adds, one spelled in another
 * string, and past KP_TPCOUNT_KEYS keys (none listed: every label).
 */
static void
test_tpcount__any_label_sees_every_key(void)
{
    static const char *const extra[] = {"k1", "k2", "k3", "k4", "k5"};
    char rack[] = "example.com/rack";   /* not the literal's pointer */
    struct kp_label items[] = {
        {HOST, "n1", 0}, {ZONE, "z1", 0}, {"example.com/rack", "r1", 0},
        {"k5", "v", 0},
    };
    const struct kp_labels node = {4, items};
    struct kp_tpcount base, c, wide;
    struct kp_arena ar;
    size_t i;

    for (i = 0; i < 4; i++)
        items[i].h = kp_label_hash(items[i].key, items[i].value);
    kp_arena_init(&ar);
    kp_tpcount_init(&base);
    kp_tpcount_add(&ar, &base, HOST, "n2", 1);
    CHECK(!kp_tpcount_any_label(&base, &node));
    kp_tpcount_clone(&c, &base);
    kp_tpcount_add(&ar, &c, rack, "r1", 1);
    CHECK_EQ_INT(c.nkeys, 2);
    CHECK_EQ_INT(base.nkeys, 1);
    CHECK(kp_tpcount_any_label(&c, &node));
    CHECK(!kp_tpcount_any_label(&base, &node));
    kp_tpcount_add(&ar, &c, rack, "r1", -1);
    CHECK(!kp_tpcount_any_label(&c, &node));
    kp_tpcount_init(&wide);
    for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
        kp_tpcount_add(&ar, &wide, extra[i], "v", 1);
    CHECK(wide.nkeys > KP_TPCOUNT_KEYS);
    CHECK(kp_tpcount_any_label(&wide, &node));
    kp_arena_release(&ar);
}

int
main(void)
{
    RUN(test_tpcount__two_clones_of_one_source_are_independent);
    RUN(test_tpcount__zeroed_entry_leaves_len);
    RUN(test_tpcount__same_tells_domains_apart);
    RUN(test_tpcount__add_entry_counts_as_add);
    RUN(test_tpcount__add_hashed_is_add);
    RUN(test_tpcount__growing_keeps_every_entry);
    RUN(test_tpcount__any_label_sees_every_key);
    return check_done();
}
