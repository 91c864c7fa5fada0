/*
 * test_arena.c - the scratch arena: zeroed and unzeroed allocations,
 * reuse of chunks after a reset, and mark/rollback (the nominated-pods
 * copy of each node in the Filter pass reuses the memory of the last).
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "arena.h"

/* the joins: aggregated messages "[a, b]" and reason lists "1 x, 2 y" */
static void
test_arena__join_puts_the_separator_between_items_only(void)
{
    struct kp_arena a;
    const char *items[] = {"1 Insufficient cpu", "2 node(s) didn't match",
                           ""};

    kp_arena_init(&a);
    CHECK_EQ_STR(kp_arena_join(&a, items, 2, ", "),
                 "1 Insufficient cpu, 2 node(s) didn't match");
    CHECK_EQ_STR(kp_arena_join(&a, items, 1, ", "), "1 Insufficient cpu");
    CHECK_EQ_STR(kp_arena_join(&a, items, 0, ", "), "");
    CHECK_EQ_STR(kp_arena_join(&a, items + 1, 2, "|"),
                 "2 node(s) didn't match|");
    CHECK_EQ_STR(kp_arena_concat(&a, "[", kp_arena_join(&a, items, 2, "; "),
                                 "]", NULL),
                 "[1 Insufficient cpu; 2 node(s) didn't match]");
    kp_arena_release(&a);
}

/* what was allocated before the mark survives; what came after goes */
static void
test_arena__rollback_keeps_what_came_before(void)
{
    struct kp_arena a;
    struct kp_arena_mark m;
    char *before, *after, *again;

    kp_arena_init(&a);
    before = kp_arena_strdup(&a, "kept");
    kp_arena_mark(&a, &m);
    after = kp_arena_alloc(&a, 100);
    kp_arena_rollback(&a, &m);
    again = kp_arena_alloc(&a, 100);
    /* the rolled-back bytes are handed out again, and zeroed */
    CHECK(again == after);
    CHECK(again[0] == 0 && again[99] == 0);
    CHECK_EQ_STR(before, "kept");
    kp_arena_release(&a);
}

/* rollback across new chunks and blocks of their own */
static void
test_arena__rollback_returns_chunks(void)
{
    struct kp_arena a;
    struct kp_arena_mark m;
    size_t total, i;
    char *first;

    kp_arena_init(&a);
    first = kp_arena_strdup(&a, "first");
    total = a.total;
    kp_arena_mark(&a, &m);
    for (i = 0; i < 64; i++)
        memset(kp_arena_alloc_uninit(&a, 64 * 1024), 0xab, 64 * 1024);
    memset(kp_arena_alloc_uninit(&a, 8 * 1024 * 1024), 0xcd, 1024);
    CHECK(a.total > total);
    kp_arena_rollback(&a, &m);
    CHECK_EQ_INT(a.total, total);
    CHECK_EQ_STR(first, "first");
    /* the chunks went to the spares: the next ones come from there */
    CHECK(a.spare != NULL);
    for (i = 0; i < 64; i++)
        CHECK(kp_arena_alloc(&a, 64 * 1024) != NULL);
    kp_arena_release(&a);
}

/* a mark on an empty arena takes everything back */
static void
test_arena__rollback_on_empty_arena(void)
{
    struct kp_arena a;
    struct kp_arena_mark m;

    kp_arena_init(&a);
    kp_arena_mark(&a, &m);
    CHECK(kp_arena_strdup(&a, "gone") != NULL);
    kp_arena_rollback(&a, &m);
    CHECK(a.head == NULL);
    CHECK_EQ_INT(a.total, 0);
    CHECK_EQ_STR(kp_arena_strdup(&a, "next"), "next");
    kp_arena_release(&a);
}

/* past 4 MiB an arena takes big chunks, and keeps them over a reset */
static void
test_arena__big_chunks_survive_reset(void)
{
    struct kp_arena a;
    size_t i;

    kp_arena_init(&a);
    for (i = 0; i < 40; i++)
        CHECK(kp_arena_alloc(&a, 200 * 1024) != NULL);
    CHECK(a.peak >= 8000 * 1024);
    kp_arena_reset(&a);
    CHECK_EQ_INT(a.total, 0);
    CHECK(a.spare != NULL);
    /* a 600 KB array (a status per node) fits a kept chunk */
    CHECK(kp_arena_alloc(&a, 600 * 1024) != NULL);
    kp_arena_release(&a);
}

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

#ifdef TEST_ASAN
#include <sanitizer/asan_interface.h>

/* The debug arena: what a reset or a rollback gave back is poisoned. */
static void
test_arena__sanitizer_build_poisons_what_was_given_back(void)
{
    struct kp_arena a;
    struct kp_arena_mark m;
    char *kept, *dropped, *again;

    kp_arena_init(&a);
    kept = kp_arena_strdup(&a, "kept");
    kp_arena_mark(&a, &m);
    dropped = kp_arena_alloc(&a, 64);
    kp_arena_rollback(&a, &m);
    CHECK(__asan_address_is_poisoned(dropped));
    CHECK(!__asan_address_is_poisoned(kept));
    again = kp_arena_alloc(&a, 64);
    CHECK(!__asan_address_is_poisoned(again));
    kp_arena_reset(&a);
    CHECK(__asan_address_is_poisoned(kept));
    kp_arena_release(&a);
}
#endif

int
main(void)
{
#ifdef TEST_ASAN
    RUN(test_arena__sanitizer_build_poisons_what_was_given_back);
#endif
    RUN(test_arena__join_puts_the_separator_between_items_only);
    RUN(test_arena__rollback_keeps_what_came_before);
    RUN(test_arena__rollback_returns_chunks);
    RUN(test_arena__rollback_on_empty_arena);
    RUN(test_arena__big_chunks_survive_reset);
    return check_done();
}
