/*
 * test_select.c - the table and the pod selection that the run and
 * explain share (table.c, select.c): columns padded to the widest cell
 * plus three spaces, the last not padded, nothing for no rows; POD
 * arguments in the current namespace or NAMESPACE/NAME, -n, -A, -l.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kp.h"
#include "select.h"
#include "table.h"

static void
test_table__columns_pad_to_the_widest_cell_but_the_last(void)
{
    static const char *const h[] = {"NAME", "PRIORITY", "NOTE"};
    struct kp_table t;
    struct kp_buf b;
    char *r1[3], *r2[3];

    kp_buf_init(&b);
    kp_table_init(&t, 3, h);
    r1[0] = kp_xstrdup("search-0");
    r1[1] = kp_cellf("%d", 100000);
    r1[2] = kp_xstrdup("x");
    r2[0] = kp_xstrdup("a");
    r2[1] = kp_cellf("%d", 5);
    r2[2] = kp_xstrdup("longer note");
    kp_table_row(&t, r1);
    kp_table_row_after(&t, r2, kp_xstrdup("  under a\n"));
    kp_table_print(&t, false, &b);
    kp_buf_add(&b, "", 1);
    CHECK_EQ_STR(b.data, "NAME       PRIORITY   NOTE\n"
                         "search-0   100000     x\n"
                         "a          5          longer note\n"
                         "  under a\n");
    kp_buf_release(&b);
}

static void
test_table__no_headers_and_no_rows(void)
{
    static const char *const h[] = {"A-VERY-LONG-HEADER", "B"};
    struct kp_table t;
    struct kp_buf b;
    char *r[2];

    kp_buf_init(&b);
    kp_table_init(&t, 2, h);
    kp_table_print(&t, false, &b);
    CHECK_EQ_INT(b.len, 0);             /* no rows: not even headers */
    kp_table_init(&t, 2, h);
    r[0] = kp_xstrdup("x");
    r[1] = kp_xstrdup("y");
    kp_table_row(&t, r);
    kp_table_print(&t, true, &b);       /* headers do not widen */
    kp_buf_add(&b, "", 1);
    CHECK_EQ_STR(b.data, "x   y\n");
    kp_buf_release(&b);
}

static void
test_select__pod_arguments(void)
{
    struct kp_options o;
    struct kp_select s;
    struct kp_arena a;
    struct kp_error err = {0, ""};
    char ns[64];
    const char *name;

    kp_options_init(&o);
    kp_arena_init(&a);
    CHECK(kp_select_init(&s, &o, "ctx-ns", &a, &err) == 0);
    kp_select_split(&s, "api-0", ns, sizeof(ns), &name);
    CHECK_EQ_STR(ns, "ctx-ns");
    CHECK_EQ_STR(name, "api-0");
    kp_select_split(&s, "prod/api-0", ns, sizeof(ns), &name);
    CHECK_EQ_STR(ns, "prod");
    CHECK_EQ_STR(name, "api-0");
    CHECK(kp_select_names(&s, "api-0", "ctx-ns", "api-0"));
    CHECK(!kp_select_names(&s, "api-0", "prod", "api-0"));
    CHECK(kp_select_names(&s, "prod/api-0", "prod", "api-0"));
    CHECK(!kp_select_names(&s, "pro/api-0", "prod", "api-0"));
    CHECK(!kp_select_names(&s, "prod/api-0", NULL, "api-0"));
    /* -n: the namespace of a bare name, and the only one selected */
    o.namespace = "batch";
    CHECK(kp_select_init(&s, &o, "ctx-ns", &a, &err) == 0);
    CHECK(kp_select_names(&s, "w-0", "batch", "w-0"));
    CHECK(kp_select_namespace(&s, "batch"));
    CHECK(!kp_select_namespace(&s, "prod"));
    CHECK(!kp_select_namespace(&s, NULL));
    o.all_namespaces = true;
    CHECK(kp_select_namespace(&s, "prod"));
    kp_arena_release(&a);
}

static void
test_select__a_bad_selector_is_an_error(void)
{
    struct kp_options o;
    struct kp_select s;
    struct kp_arena a;
    struct kp_error err = {0, ""};

    kp_options_init(&o);
    kp_arena_init(&a);
    o.selector = "app in (a";
    CHECK(kp_select_init(&s, &o, "default", &a, &err) < 0);
    CHECK_EQ_INT(err.exit_code, KP_EXIT_USAGE);     /* as kubectl: exit 2 */
    o.selector = "app=x";
    CHECK(kp_select_init(&s, &o, "default", &a, &err) == 0);
    CHECK(s.has_selector);
    kp_arena_release(&a);
}

int
main(void)
{
    RUN(test_table__columns_pad_to_the_widest_cell_but_the_last);
    RUN(test_table__no_headers_and_no_rows);
    RUN(test_select__pod_arguments);
    RUN(test_select__a_bad_selector_is_an_error);
    return check_done();
}
