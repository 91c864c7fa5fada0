/*
 * test_labels.c - core/api/labels.c against the tables of
 * staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go,
 * apimachinery/pkg/apis/meta/v1/helpers_test.go and
 * component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go.
 *
 * Upstream builds selectors from Go structs or the selector string syntax;
 * here each row is the equivalent API JSON.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "check.h"
#include "labels.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Parse test JSON; NULL text stands for an absent field. */
static cJSON *
json(const char *text)
{
    cJSON *j;

    if (!text)
        return NULL;
    j = cJSON_Parse(text);
    if (!j) {
        printf("#   bad test JSON: %s\n", text);
        abort();
    }
    return j;
}

static struct kp_labels
labels_of(struct kp_arena *a, const char *text)
{
    struct kp_labels l = { 0, NULL };
    struct kp_error err;
    cJSON *j = json(text);

    if (kp_labels_from_json(a, j, &l, &err) < 0) {
        printf("#   labels %s: %s\n", text, err.msg);
        CHECK(0);
    }
    cJSON_Delete(j);
    return l;
}

/* Decode a LabelSelector; returns the decoder's result. */
static int
selector_of(struct kp_arena *a, const char *text, struct kp_selector *s,
            struct kp_error *err)
{
    cJSON *j = json(text);
    int rc;

    memset(err, 0, sizeof(*err));
    rc = kp_selector_from_json(a, j, s, err);
    cJSON_Delete(j);
    return rc;
}

static int
node_selector_of(struct kp_arena *a, const char *text,
                 struct kp_node_selector *ns, struct kp_error *err)
{
    cJSON *j = json(text);
    int rc;

    memset(err, 0, sizeof(*err));
    rc = kp_node_selector_from_json(a, j, ns, err);
    cJSON_Delete(j);
    return rc;
}

/* A one-term node selector holding the single expression expr. */
static struct kp_node_selector
one_expr(struct kp_arena *a, const char *expr)
{
    char buf[1024];
    struct kp_node_selector ns;
    struct kp_error err;

    snprintf(buf, sizeof(buf),
             "{\"nodeSelectorTerms\":[{\"matchExpressions\":[%s]}]}", expr);
    if (node_selector_of(a, buf, &ns, &err) < 0) {
        printf("#   %s: %s\n", buf, err.msg);
        CHECK(0);
    }
    return ns;
}

static bool
selector_matches(const char *sel, const char *labels)
{
    struct kp_arena a;
    struct kp_selector s;
    struct kp_labels l;
    struct kp_error err;
    bool m = false;

    kp_arena_init(&a);
    l = labels_of(&a, labels);
    if (selector_of(&a, sel, &s, &err) < 0) {
        printf("#   selector %s: %s\n", sel, err.msg);
        CHECK(0);
    } else {
        m = kp_selector_matches(&s, &l);
    }
    kp_arena_release(&a);
    return m;
}

static bool
node_matches(const char *ns_json, const char *labels, const char *name)
{
    struct kp_arena a;
    struct kp_node_selector ns;
    struct kp_labels l;
    struct kp_error err;
    bool m = false;

    kp_arena_init(&a);
    l = labels_of(&a, labels);
    if (node_selector_of(&a, ns_json, &ns, &err) < 0) {
        printf("#   node selector %s: %s\n", ns_json, err.msg);
        CHECK(0);
    } else {
        m = kp_node_selector_matches(&ns, &l, name);
    }
    kp_arena_release(&a);
    return m;
}

/* A selector's JSON, labels, and whether the selector matches them. */
struct match_row {
    const char *sel;
    const char *labels;
    bool want;
};

/* A JSON text the decoder refuses, and the exact message. */
struct error_row {
    const char *json;
    const char *msg;
};

/* The decoders, each reduced to its result. */
static int
decode_labels(struct kp_arena *a, const char *text, struct kp_error *err)
{
    struct kp_labels l;
    cJSON *j = json(text);
    int rc;

    memset(err, 0, sizeof(*err));
    rc = kp_labels_from_json(a, j, &l, err);
    cJSON_Delete(j);
    return rc;
}

static int
decode_selector(struct kp_arena *a, const char *text, struct kp_error *err)
{
    struct kp_selector s;

    return selector_of(a, text, &s, err);
}

static int
decode_node_selector(struct kp_arena *a, const char *text,
                     struct kp_error *err)
{
    struct kp_node_selector ns;

    return node_selector_of(a, text, &ns, err);
}

/* Each row fails to decode, with its message and KP_EXIT_ERROR. */
static void
check_decode_errors(int (*decode)(struct kp_arena *, const char *,
                                  struct kp_error *),
                    const struct error_row *rows, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        struct kp_arena a;
        struct kp_error err;

        kp_arena_init(&a);
        CHECK(decode(&a, rows[i].json, &err) == -1);
        CHECK_EQ_STR(err.msg, rows[i].msg);
        CHECK_EQ_INT(err.exit_code, KP_EXIT_ERROR);
        kp_arena_release(&a);
    }
}

/* metadata.labels: an object of strings, in document order. */
static void
test_labels__from_json_reads_string_values(void)
{
    struct kp_arena a;
    struct kp_labels l;

    kp_arena_init(&a);
    l = labels_of(&a, "{\"app\":\"web\",\"tier\":\"\",\"k8s.io/x\":\"1\"}");
    CHECK_EQ_INT(l.n, 3);
    CHECK_EQ_STR(kp_labels_get(&l, "app"), "web");
    CHECK_EQ_STR(kp_labels_get(&l, "tier"), "");
    CHECK_EQ_STR(kp_labels_get(&l, "k8s.io/x"), "1");
    CHECK(kp_labels_get(&l, "App") == NULL);
    CHECK(kp_labels_get(&l, "missing") == NULL);
    CHECK(kp_labels_get(NULL, "app") == NULL);
    kp_arena_release(&a);
}

/*
 * Each decoded label keeps its pair's hash (a null value's too), the one
 * the topology counters compute; kp_labels_find gives the label itself.
 */
static void
test_labels__from_json_keeps_pair_hashes(void)
{
    struct kp_arena a;
    struct kp_labels l;
    const struct kp_label *f;
    size_t i;

    kp_arena_init(&a);
    l = labels_of(&a, "{\"app\":\"web\",\"tier\":null,\"k8s.io/x\":\"1\"}");
    CHECK_EQ_INT(l.n, 3);
    for (i = 0; i < l.n; i++)
        CHECK(l.items[i].h == kp_label_hash(l.items[i].key,
                                            l.items[i].value));
    CHECK(kp_label_hash("app", "web") != kp_label_hash("ap", "pweb"));
    f = kp_labels_find(&l, "tier");
    CHECK(f == &l.items[1]);
    CHECK_EQ_STR(f->value, "");
    CHECK(kp_labels_find(&l, "missing") == NULL);
    CHECK(kp_labels_find(NULL, "app") == NULL);
    kp_arena_release(&a);
}

/* Absent and null read as no labels; a null value as "" (Go). */
static void
test_labels__from_json_absent_is_empty(void)
{
    struct kp_arena a;
    struct kp_labels l;
    struct kp_error err;

    kp_arena_init(&a);
    CHECK(kp_labels_from_json(&a, NULL, &l, &err) == 0);
    CHECK_EQ_INT(l.n, 0);
    l = labels_of(&a, "null");
    CHECK_EQ_INT(l.n, 0);
    l = labels_of(&a, "{}");
    CHECK_EQ_INT(l.n, 0);
    l = labels_of(&a, "{\"a\":null}");
    CHECK_EQ_STR(kp_labels_get(&l, "a"), "");
    kp_arena_release(&a);
}

static void
test_labels__from_json_rejects_bad_types(void)
{
    static const struct error_row rows[] = {
        { "[]", "expected an object" },
        { "\"app=web\"", "expected an object" },
        { "{\"app\":\"web\",\"tier\":1}", "tier: expected a string" },
        { "{\"on\":true}", "on: expected a string" },
        { "{\"o\":{}}", "o: expected a string" },
    };

    check_decode_errors(decode_labels, rows, NELEM(rows));
}

/* TestSetMatches, TestSelectorMatches: SelectorFromSet(set).Matches. */
static void
test_labels__set_matches(void)
{
    static const struct {
        const char *set;
        const char *labels;
        bool want;
    } rows[] = {
        { "{}", "{\"foo\":\"bar\",\"baz\":\"blah\"}", true },
        { "{\"foo\":\"bar\"}", "{\"foo\":\"bar\",\"baz\":\"blah\"}", true },
        { "{\"baz\":\"blah\"}", "{\"foo\":\"bar\",\"baz\":\"blah\"}", true },
        { "{\"foo\":\"bar\",\"baz\":\"blah\"}",
          "{\"foo\":\"bar\",\"baz\":\"blah\"}", true },
        { "{\"foo\":\"blah\"}", "{\"foo\":\"bar\",\"baz\":\"blah\"}", false },
        { "{\"foo\":\"bar\",\"foobar\":\"bar\",\"baz\":\"blah\"}",
          "{\"foo\":\"bar\",\"baz\":\"blah\"}", false },
        { "{\"x\":\"z\"}", "{}", false },
        { "{\"x\":\"\"}", "{}", false },
        { "{\"x\":\"\"}", "{\"x\":\"\"}", true },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_arena a;
        struct kp_labels set, l;

        kp_arena_init(&a);
        set = labels_of(&a, rows[i].set);
        l = labels_of(&a, rows[i].labels);
        CHECK_EQ_INT(kp_labels_set_matches(&set, &l), rows[i].want);
        kp_arena_release(&a);
    }
}

/* TestLabelSelectorAsSelector. */
static void
test_labels__label_selector_as_selector(void)
{
    struct kp_arena a;
    struct kp_selector s;
    struct kp_labels l;
    struct kp_error err;

    kp_arena_init(&a);
    l = labels_of(&a, "{\"foo\":\"bar\",\"baz\":\"qux\"}");
    /* nil: labels.Nothing() */
    CHECK(selector_of(&a, NULL, &s, &err) == 0);
    CHECK(s.is_null && !kp_selector_matches(&s, &l));
    CHECK(selector_of(&a, "null", &s, &err) == 0);
    CHECK(s.is_null && !kp_selector_matches(&s, &l));
    /* {}: labels.Everything() */
    CHECK(selector_of(&a, "{}", &s, &err) == 0);
    CHECK(!s.is_null && s.nreq == 0 && kp_selector_matches(&s, &l));
    CHECK(selector_of(&a, "{\"matchLabels\":null,\"matchExpressions\":[]}",
                      &s, &err) == 0);
    CHECK(s.nreq == 0 && kp_selector_matches(&s, &l));
    /* "foo=bar" */
    CHECK(selector_of(&a, "{\"matchLabels\":{\"foo\":\"bar\"}}", &s,
                      &err) == 0);
    CHECK_EQ_INT(s.nreq, 1);
    CHECK_EQ_STR(s.reqs[0].key, "foo");
    CHECK_EQ_INT(s.reqs[0].op, KP_OP_IN);
    CHECK_EQ_INT(s.reqs[0].nvalues, 1);
    CHECK_EQ_STR(s.reqs[0].values[0], "bar");
    CHECK(kp_selector_matches(&s, &l));
    /* "baz in (norf,qux)" */
    CHECK(selector_of(&a, "{\"matchExpressions\":[{\"key\":\"baz\","
                      "\"operator\":\"In\",\"values\":[\"qux\",\"norf\"]}]}",
                      &s, &err) == 0);
    CHECK_EQ_INT(s.nreq, 1);
    CHECK_EQ_INT(s.reqs[0].nvalues, 2);
    CHECK(kp_selector_matches(&s, &l));
    /* "baz in (norf,qux),foo=bar" */
    CHECK(selector_of(&a, "{\"matchLabels\":{\"foo\":\"bar\"},"
                      "\"matchExpressions\":[{\"key\":\"baz\","
                      "\"operator\":\"In\",\"values\":[\"qux\",\"norf\"]}]}",
                      &s, &err) == 0);
    CHECK_EQ_INT(s.nreq, 2);
    CHECK(kp_selector_matches(&s, &l));
    /* Exists with values: an error */
    CHECK(selector_of(&a, "{\"matchExpressions\":[{\"key\":\"baz\","
                      "\"operator\":\"Exists\",\"values\":[\"qux\"]}]}",
                      &s, &err) == -1);
    kp_arena_release(&a);
}

/* TestSelectorMatches, with the selector strings as LabelSelectors. */
static void
test_labels__selector_matches(void)
{
    static const struct match_row rows[] = {
        /* "" */
        { "{}", "{\"x\":\"y\"}", true },
        /* "x=y" */
        { "{\"matchLabels\":{\"x\":\"y\"}}", "{\"x\":\"y\"}", true },
        /* "x=y,z=w" */
        { "{\"matchLabels\":{\"x\":\"y\",\"z\":\"w\"}}",
          "{\"x\":\"y\",\"z\":\"w\"}", true },
        /* "x!=y,z!=w" */
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"NotIn\","
          "\"values\":[\"y\"]},{\"key\":\"z\",\"operator\":\"NotIn\","
          "\"values\":[\"w\"]}]}", "{\"x\":\"z\",\"z\":\"a\"}", true },
        /* "notin=in" */
        { "{\"matchLabels\":{\"notin\":\"in\"}}", "{\"notin\":\"in\"}",
          true },
        /* "x" */
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"Exists\"}]}",
          "{\"x\":\"z\"}", true },
        /* "!x" */
        { "{\"matchExpressions\":[{\"key\":\"x\","
          "\"operator\":\"DoesNotExist\"}]}", "{\"y\":\"z\"}", true },
        /* "x=z" against {} */
        { "{\"matchLabels\":{\"x\":\"z\"}}", "{}", false },
        /* "x=y" against x=z */
        { "{\"matchLabels\":{\"x\":\"y\"}}", "{\"x\":\"z\"}", false },
        /* "x=y,z=w" */
        { "{\"matchLabels\":{\"x\":\"y\",\"z\":\"w\"}}",
          "{\"x\":\"w\",\"z\":\"w\"}", false },
        /* "x!=y,z!=w" */
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"NotIn\","
          "\"values\":[\"y\"]},{\"key\":\"z\",\"operator\":\"NotIn\","
          "\"values\":[\"w\"]}]}", "{\"x\":\"z\",\"z\":\"w\"}", false },
        /* "x" against y=z */
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"Exists\"}]}",
          "{\"y\":\"z\"}", false },
        /* "!x" against x=z */
        { "{\"matchExpressions\":[{\"key\":\"x\","
          "\"operator\":\"DoesNotExist\"}]}", "{\"x\":\"z\"}", false },
        /* "foo=bar,foobar=bar,baz=blah" */
        { "{\"matchLabels\":{\"foo\":\"bar\",\"foobar\":\"bar\","
          "\"baz\":\"blah\"}}", "{\"foo\":\"bar\",\"baz\":\"blah\"}", false },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        if (selector_matches(rows[i].sel, rows[i].labels) != rows[i].want) {
            printf("#   row %zu: %s on %s\n", i, rows[i].sel,
                   rows[i].labels);
            CHECK(0);
        }
    }
}

/* TestRequirementSelectorMatching (Gt rows through a NodeSelector). */
static void
test_labels__requirement_selector_matching(void)
{
    static const struct match_row rows[] = {
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"In\","
          "\"values\":[\"foo\"]},{\"key\":\"y\",\"operator\":\"NotIn\","
          "\"values\":[\"alpha\"]}]}", "{\"x\":\"foo\",\"y\":\"baz\"}",
          true },
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"In\","
          "\"values\":[\"foo\"]},{\"key\":\"y\",\"operator\":\"In\","
          "\"values\":[\"alpha\"]}]}", "{\"x\":\"foo\",\"y\":\"baz\"}",
          false },
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"NotIn\","
          "\"values\":[\"\"]},{\"key\":\"y\",\"operator\":\"Exists\"}]}",
          "{\"y\":\"\"}", true },
        { "{\"matchExpressions\":[{\"key\":\"x\","
          "\"operator\":\"DoesNotExist\"},{\"key\":\"y\","
          "\"operator\":\"Exists\"}]}", "{\"y\":\"\"}", true },
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"NotIn\","
          "\"values\":[\"\"]},{\"key\":\"y\","
          "\"operator\":\"DoesNotExist\"}]}", "{\"y\":\"\"}", false },
        { "{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"In\","
          "\"values\":[\"\"]}]}", "{\"y\":\"baz\"}", false },
    };
    /* {z: 2} matches z>1, {z: v2} does not; x>1 / x<1 of TestSelectorMatches */
    static const struct match_row node_rows[] = {
        { "{\"nodeSelectorTerms\":[{\"matchExpressions\":"
          "[{\"key\":\"z\",\"operator\":\"Gt\","
          "\"values\":[\"1\"]}]}]}", "{\"z\":\"2\"}", true },
        { "{\"nodeSelectorTerms\":[{\"matchExpressions\":"
          "[{\"key\":\"z\",\"operator\":\"Gt\","
          "\"values\":[\"1\"]}]}]}", "{\"z\":\"v2\"}", false },
        { "{\"nodeSelectorTerms\":[{\"matchExpressions\":"
          "[{\"key\":\"x\",\"operator\":\"Lt\","
          "\"values\":[\"1\"]}]}]}", "{\"x\":\"0\"}", true },
        { "{\"nodeSelectorTerms\":[{\"matchExpressions\":"
          "[{\"key\":\"x\",\"operator\":\"Gt\","
          "\"values\":[\"1\"]}]}]}", "{\"x\":\"0\"}", false },
        { "{\"nodeSelectorTerms\":[{\"matchExpressions\":"
          "[{\"key\":\"x\",\"operator\":\"Lt\","
          "\"values\":[\"1\"]}]}]}", "{\"x\":\"2\"}", false },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++)
        CHECK_EQ_INT(selector_matches(rows[i].sel, rows[i].labels),
                     rows[i].want);
    for (i = 0; i < NELEM(node_rows); i++)
        CHECK_EQ_INT(node_matches(node_rows[i].sel, node_rows[i].labels, "n"),
                     node_rows[i].want);
}

/*
 * What LabelSelectorAsSelector and the API server's validation reject is
 * a decoding error naming the field relative to the selector.
 */
static void
test_labels__selector_decode_errors(void)
{
    static const struct error_row rows[] = {
        { "[]", "expected an object" },
        { "\"app=web\"", "expected an object" },
        { "{\"matchLabels\":[]}", "matchLabels: expected an object" },
        { "{\"matchLabels\":{\"app\":1}}",
          "matchLabels.app: expected a string" },
        { "{\"matchLabels\":{\"a b\":\"x\"}}",
          "matchLabels: invalid label key 'a b'" },
        { "{\"matchLabels\":{\"app\":\"a b\"}}",
          "matchLabels.app: invalid label value 'a b'" },
        { "{\"matchExpressions\":{}}",
          "matchExpressions: expected an array" },
        { "{\"matchExpressions\":[1]}",
          "matchExpressions[0]: expected an object" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Foo\"}]}",
          "matchExpressions[0].operator: unknown operator 'Foo'" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"in\","
          "\"values\":[\"x\"]}]}",
          "matchExpressions[0].operator: unknown operator 'in'" },
        { "{\"matchExpressions\":[{\"key\":\"a\"}]}",
          "matchExpressions[0].operator: unknown operator ''" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Gt\","
          "\"values\":[\"1\"]}]}",
          "matchExpressions[0].operator: operator 'Gt' is not valid in a "
          "label selector" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Lt\","
          "\"values\":[\"1\"]}]}",
          "matchExpressions[0].operator: operator 'Lt' is not valid in a "
          "label selector" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\"}]}",
          "matchExpressions[0].values: must be non-empty for operator "
          "'In'" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"NotIn\","
          "\"values\":[]}]}",
          "matchExpressions[0].values: must be non-empty for operator "
          "'NotIn'" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Exists\","
          "\"values\":[\"x\"]}]}",
          "matchExpressions[0].values: must be empty for operator "
          "'Exists'" },
        { "{\"matchExpressions\":[{\"key\":\"a\","
          "\"operator\":\"DoesNotExist\",\"values\":[\"\"]}]}",
          "matchExpressions[0].values: must be empty for operator "
          "'DoesNotExist'" },
        { "{\"matchExpressions\":[{\"operator\":\"Exists\"}]}",
          "matchExpressions[0].key: missing" },
        { "{\"matchExpressions\":[{\"key\":\"\",\"operator\":\"Exists\"}]}",
          "matchExpressions[0].key: missing" },
        { "{\"matchExpressions\":[{\"key\":1,\"operator\":\"Exists\"}]}",
          "matchExpressions[0].key: expected a string" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":5}]}",
          "matchExpressions[0].operator: expected a string" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\","
          "\"values\":\"x\"}]}",
          "matchExpressions[0].values: expected an array" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\","
          "\"values\":[\"x\",1]}]}",
          "matchExpressions[0].values[1]: expected a string" },
        { "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Exists\"},"
          "{\"key\":\"a b\",\"operator\":\"Exists\"}]}",
          "matchExpressions[1].key: invalid label key 'a b'" },
    };

    check_decode_errors(decode_selector, rows, NELEM(rows));
}

/*
 * A matchExpressions value that is not a label value fails
 * LabelSelectorAsSelector, but the API server keeps such selectors from
 * before it validated them (AllowInvalidLabelValueInSelector): it decodes,
 * is flagged invalid and matches nothing (a PDB's "does not match").
 */
static void
test_labels__selector_invalid_value_matches_nothing(void)
{
    struct kp_arena a;
    struct kp_selector s;
    struct kp_labels l;
    struct kp_error err;

    kp_arena_init(&a);
    l = labels_of(&a, "{\"app\":\"web\"}");
    CHECK(selector_of(&a, "{\"matchExpressions\":[{\"key\":\"app\","
                      "\"operator\":\"NotIn\",\"values\":[\"a b\"]}]}",
                      &s, &err) == 0);
    CHECK(s.invalid);
    CHECK(!kp_selector_matches(&s, &l));
    CHECK(selector_of(&a, "{\"matchExpressions\":[{\"key\":\"app\","
                      "\"operator\":\"NotIn\",\"values\":[\"a-b\"]}]}",
                      &s, &err) == 0);
    CHECK(!s.invalid);
    CHECK(kp_selector_matches(&s, &l));
    kp_arena_release(&a);
}

/* TestRequirementConstructor: NewRequirement's checks, on node terms. */
static void
test_labels__requirement_constructor(void)
{
    static const struct {
        const char *expr;
        bool ok;
    } rows[] = {
        { "{\"key\":\"x\",\"operator\":\"In\"}", false },
        { "{\"key\":\"x\",\"operator\":\"NotIn\",\"values\":[]}", false },
        { "{\"key\":\"x\",\"operator\":\"In\",\"values\":[\"foo\"]}", true },
        { "{\"key\":\"x\",\"operator\":\"NotIn\",\"values\":[\"foo\"]}",
          true },
        { "{\"key\":\"x\",\"operator\":\"Exists\"}", true },
        { "{\"key\":\"x\",\"operator\":\"DoesNotExist\"}", true },
        { "{\"key\":\"1foo\",\"operator\":\"In\",\"values\":[\"bar\"]}",
          true },
        { "{\"key\":\"1234\",\"operator\":\"In\",\"values\":[\"bar\"]}",
          true },
        { "{\"key\":\"y\",\"operator\":\"Gt\",\"values\":[\"1\"]}", true },
        { "{\"key\":\"z\",\"operator\":\"Lt\",\"values\":[\"6\"]}", true },
        { "{\"key\":\"foo\",\"operator\":\"Gt\",\"values\":[\"bar\"]}",
          false },
        { "{\"key\":\"barz\",\"operator\":\"Lt\",\"values\":[\"blah\"]}",
          false },
        /* beyond the upstream table */
        { "{\"key\":\"x\",\"operator\":\"Exists\",\"values\":[\"a\"]}",
          false },
        { "{\"key\":\"x\",\"operator\":\"Gt\",\"values\":[\"1\",\"2\"]}",
          false },
        { "{\"key\":\"x\",\"operator\":\"Gt\"}", false },
        /* "-1" parses, but is not a label value */
        { "{\"key\":\"x\",\"operator\":\"Lt\",\"values\":[\"-1\"]}", false },
        { "{\"key\":\"x\",\"operator\":\"Gt\",\"values\":[\"+1\"]}", false },
        { "{\"key\":\"x\",\"operator\":\"Gt\","
          "\"values\":[\"9223372036854775808\"]}", false },
        { "{\"key\":\"x\",\"operator\":\"Equals\",\"values\":[\"a\"]}",
          false },
        { "{\"key\":\"x\",\"operator\":\"in\",\"values\":[\"a\"]}", false },
        { "{\"key\":\"\",\"operator\":\"Exists\"}", false },
        { "{\"key\":\"x\",\"operator\":\"In\",\"values\":[\"a b\"]}",
          false },
        { "{\"key\":\"x\",\"operator\":\"In\",\"values\":[\"\"]}", true },
    };
    char key254[255], expr[400];
    struct kp_arena a;
    struct kp_node_selector ns;
    size_t i;

    kp_arena_init(&a);
    for (i = 0; i < NELEM(rows); i++) {
        ns = one_expr(&a, rows[i].expr);
        CHECK_EQ_INT(ns.nterms, 1);
        if (ns.nterms == 1 && ns.terms[0].invalid == rows[i].ok) {
            printf("#   %s: invalid == %d\n", rows[i].expr,
                   ns.terms[0].invalid);
            CHECK(0);
        }
    }
    /* breaks DNS rule that len(key) <= 253 */
    memset(key254, 'a', 254);
    key254[254] = '\0';
    snprintf(expr, sizeof(expr), "{\"key\":\"%s\",\"operator\":\"Exists\"}",
             key254);
    ns = one_expr(&a, expr);
    CHECK(ns.terms[0].invalid);
    kp_arena_release(&a);
}

/*
 * Label keys are IsLabelKey names (content/kube.go), values IsLabelValue;
 * the keys of TestSetSelectorParser among them.
 */
static void
test_labels__label_key_and_value_syntax(void)
{
    static const struct {
        const char *key;
        bool ok;
    } keys[] = {
        { "x", true }, { "1foo", true }, { "1234", true },
        { "this-is-a-dns.domain.com/key-with-dash", true },
        { "this-is-another-dns.domain.com/key-with-dash", true },
        { "0.1.2.domain/99", true }, { "app.kubernetes.io/name", true },
        { "a_b.c-D", true }, { "GPU", true }, { "kernel-version", true },
        { "", false }, { "a b", false }, { "-a", false }, { "a-", false },
        { "_a", false }, { "a/b/c", false }, { "/a", false }, { "a/", false },
        { "Example.com/a", false }, { "ex_ample.com/a", false },
        { "a..b.com/x", false }, { ".a.com/x", false }, { "a-.com/x", false },
        { "\xc3\xa9", false }, { "invalid key", false },
    };
    static const struct {
        const char *value;
        bool ok;
    } values[] = {
        { "", true }, { "a", true }, { "A_b-c.d", true },
        { "10.10.100.1", true }, { "tick.tack.clock", true },
        { "a b", false }, { "-a", false },
        { "a-", false }, { "_a", false }, { "a/b", false },
        { "invalid value: ___@#$%^", false },
    };
    char buf[512], name[80], prefix[300];
    struct kp_arena a;
    struct kp_selector s;
    struct kp_node_selector ns;
    struct kp_error err;
    size_t i;

    kp_arena_init(&a);
    for (i = 0; i < NELEM(keys); i++) {
        snprintf(buf, sizeof(buf), "{\"matchExpressions\":[{\"key\":\"%s\","
                 "\"operator\":\"Exists\"}]}", keys[i].key);
        if ((selector_of(&a, buf, &s, &err) == 0) != keys[i].ok) {
            printf("#   key '%s': %s\n", keys[i].key, err.msg);
            CHECK(0);
        }
    }
    for (i = 0; i < NELEM(values); i++) {
        snprintf(buf, sizeof(buf), "{\"key\":\"k\",\"operator\":\"In\","
                 "\"values\":[\"%s\"]}", values[i].value);
        ns = one_expr(&a, buf);
        CHECK_EQ_INT(!ns.terms[0].invalid, values[i].ok);
    }
    /* name part at most 63 characters, prefix at most 253 */
    memset(name, 'n', 64);
    name[63] = '\0';
    memset(prefix, 'p', 254);
    prefix[253] = '\0';
    snprintf(buf, sizeof(buf), "{\"matchLabels\":{\"%s/%s\":\"%s\"}}",
             prefix, name, name);
    CHECK(selector_of(&a, buf, &s, &err) == 0);
    name[63] = 'n';
    name[64] = '\0';
    snprintf(buf, sizeof(buf), "{\"matchLabels\":{\"%s\":\"v\"}}", name);
    CHECK(selector_of(&a, buf, &s, &err) == -1);
    snprintf(buf, sizeof(buf), "{\"matchLabels\":{\"k\":\"%s\"}}", name);
    CHECK(selector_of(&a, buf, &s, &err) == -1);
    prefix[253] = 'p';
    prefix[254] = '\0';
    snprintf(buf, sizeof(buf), "{\"matchLabels\":{\"%s/n\":\"v\"}}",
             prefix);
    CHECK(selector_of(&a, buf, &s, &err) == -1);
    kp_arena_release(&a);
}

/*
 * TestNodeSelectorMatch.  Its first row wants NewNodeSelector's error for
 * terms 0 and 2; the scheduler uses the lazy form, where those terms
 * simply match nothing and term 1 still counts.
 */
static void
test_labels__node_selector_match(void)
{
    static const char *invalid =
        "{\"nodeSelectorTerms\":["
        "{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\","
        "\"values\":[\"host_1\",\"host_2\"]}]},"
        "{\"matchExpressions\":[{\"key\":\"label_1\",\"operator\":\"In\","
        "\"values\":[\"label_1_val\"]}],"
        "\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\","
        "\"values\":[\"host_1\"]}]},"
        "{\"matchExpressions\":[{\"key\":\"invalid key\",\"operator\":\"In\","
        "\"values\":[\"label_value\"]}]}]}";
    static const char *both =
        "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"label_1\","
        "\"operator\":\"In\",\"values\":[\"label_1_val\"]}],"
        "\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\","
        "\"values\":[\"host_1\"]}]}]}";
    static const char *second =
        "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"label_1\","
        "\"operator\":\"In\",\"values\":[\"label_1_val\"]}]},"
        "{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\","
        "\"values\":[\"host_1\"]}]}]}";
    struct kp_arena a;
    struct kp_node_selector ns;
    struct kp_error err;

    kp_arena_init(&a);
    CHECK(node_selector_of(&a, invalid, &ns, &err) == 0);
    CHECK_EQ_INT(ns.nterms, 3);
    CHECK(ns.terms[0].invalid && !ns.terms[1].invalid && ns.terms[2].invalid);
    kp_arena_release(&a);
    CHECK(node_matches(invalid, "{\"label_1\":\"label_1_val\"}", "host_1"));
    CHECK(!node_matches(invalid, "{}", "host_1"));
    /* node matches field selector, but not labels */
    CHECK(!node_matches(both, "{}", "host_1"));
    /* node matches field selector and label selector */
    CHECK(node_matches(both, "{\"label_1\":\"label_1_val\"}", "host_1"));
    /* second term matches */
    CHECK(node_matches(second, "{}", "host_1"));
}

/* TestNodeSelectorRequirementsAsSelector. */
static void
test_labels__node_selector_requirements_as_selector(void)
{
    struct kp_arena a;
    struct kp_node_selector ns;
    struct kp_labels l;

    kp_arena_init(&a);
    l = labels_of(&a, "{\"foo\":\"baz\",\"bar\":\"3\"}");
    /* nil and empty: labels.Nothing() */
    ns = one_expr(&a, "");
    CHECK(!ns.terms[0].invalid && ns.terms[0].nexprs == 0);
    CHECK(!kp_node_selector_matches(&ns, &l, "n"));
    /* "foo in (baz,bar)" */
    ns = one_expr(&a, "{\"key\":\"foo\",\"operator\":\"In\","
                  "\"values\":[\"bar\",\"baz\"]}");
    CHECK(!ns.terms[0].invalid && ns.terms[0].nexprs == 1);
    CHECK(kp_node_selector_matches(&ns, &l, "n"));
    /* Exists with values: error */
    ns = one_expr(&a, "{\"key\":\"foo\",\"operator\":\"Exists\","
                  "\"values\":[\"bar\",\"baz\"]}");
    CHECK(ns.terms[0].invalid);
    CHECK(!kp_node_selector_matches(&ns, &l, "n"));
    /* "foo>1": the value is kept parsed */
    ns = one_expr(&a, "{\"key\":\"foo\",\"operator\":\"Gt\","
                  "\"values\":[\"1\"]}");
    CHECK(!ns.terms[0].invalid);
    CHECK_EQ_INT(ns.terms[0].exprs[0].op, KP_OP_GT);
    CHECK(ns.terms[0].exprs[0].num_ok);
    CHECK_EQ_INT(ns.terms[0].exprs[0].num, 1);
    /* "bar<7" */
    ns = one_expr(&a, "{\"key\":\"bar\",\"operator\":\"Lt\","
                  "\"values\":[\"7\"]}");
    CHECK_EQ_INT(ns.terms[0].exprs[0].op, KP_OP_LT);
    CHECK_EQ_INT(ns.terms[0].exprs[0].num, 7);
    CHECK(kp_node_selector_matches(&ns, &l, "n"));
    kp_arena_release(&a);
}

static const struct {
    const char *name;
    const char *node_selector;  /* pod.spec.nodeSelector, NULL if unset */
    const char *affinity;       /* required node affinity, NULL if unset */
    const char *labels;
    const char *node_name;
    bool want;
} pod_rows[] = {
    { "no selector", NULL, NULL, "{}", "", true },
    { "missing labels", "{\"foo\":\"bar\"}", NULL, "{}", "", false },
    { "same labels", "{\"foo\":\"bar\"}", NULL, "{\"foo\":\"bar\"}", "",
      true },
    { "node labels are superset", "{\"foo\":\"bar\"}", NULL,
      "{\"foo\":\"bar\",\"baz\":\"blah\"}", "", true },
    { "node labels are subset", "{\"foo\":\"bar\",\"baz\":\"blah\"}", NULL,
      "{\"foo\":\"bar\"}", "", false },
    { "In operator that matches the existing node", NULL,
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"foo\","
      "\"operator\":\"In\",\"values\":[\"bar\",\"value2\"]}]}]}",
      "{\"foo\":\"bar\"}", "", true },
    { "Gt operator that matches the existing node", NULL,
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":"
      "\"kernel-version\",\"operator\":\"Gt\",\"values\":[\"0204\"]}]}]}",
      "{\"kernel-version\":\"0206\"}", "", true },
    { "NotIn operator that matches the existing node", NULL,
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":"
      "\"mem-type\",\"operator\":\"NotIn\",\"values\":[\"DDR\",\"DDR2\"]}]}]}",
      "{\"mem-type\":\"DDR3\"}", "", true },
    { "Exists operator that matches the existing node", NULL,
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"GPU\","
      "\"operator\":\"Exists\"}]}]}", "{\"GPU\":\"NVIDIA-GRID-K1\"}", "",
      true },
    { "affinity that don't match node's labels won't schedule", NULL,
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"foo\","
      "\"operator\":\"In\",\"values\":[\"value1\",\"value2\"]}]}]}",
      "{\"foo\":\"bar\"}", "", false },
    { "a nil []NodeSelectorTerm in affinity", NULL,
      "{\"nodeSelectorTerms\":null}", "{\"foo\":\"bar\"}", "", false },
    { "an empty []NodeSelectorTerm in affinity", NULL,
      "{\"nodeSelectorTerms\":[]}", "{\"foo\":\"bar\"}", "", false },
    { "empty MatchExpressions is not a valid value", NULL,
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[]}]}",
      "{\"foo\":\"bar\"}", "", false },
    { "no Affinity will schedule onto a node", NULL, NULL,
      "{\"foo\":\"bar\"}", "", true },
    { "Affinity but nil NodeSelector will schedule onto a node", NULL,
      "null", "{\"foo\":\"bar\"}", "", true },
    { "multiple matchExpressions ANDed that matches the existing node",
      NULL, "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"GPU\","
      "\"operator\":\"Exists\"},{\"key\":\"GPU\",\"operator\":\"NotIn\","
      "\"values\":[\"AMD\",\"INTER\"]}]}]}", "{\"GPU\":\"NVIDIA-GRID-K1\"}",
      "", true },
    { "multiple matchExpressions ANDed that doesn't match the existing node",
      NULL, "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"GPU\","
      "\"operator\":\"Exists\"},{\"key\":\"GPU\",\"operator\":\"In\","
      "\"values\":[\"AMD\",\"INTER\"]}]}]}", "{\"GPU\":\"NVIDIA-GRID-K1\"}",
      "", false },
    { "multiple NodeSelectorTerms ORed in affinity", NULL,
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"foo\","
      "\"operator\":\"In\",\"values\":[\"bar\",\"value2\"]}]},"
      "{\"matchExpressions\":[{\"key\":\"diffkey\",\"operator\":\"In\","
      "\"values\":[\"wrong\",\"value2\"]}]}]}", "{\"foo\":\"bar\"}", "",
      true },
    { "Affinity and a PodSpec.NodeSelector both are satisfied",
      "{\"foo\":\"bar\"}", "{\"nodeSelectorTerms\":[{\"matchExpressions\":"
      "[{\"key\":\"foo\",\"operator\":\"Exists\"}]}]}", "{\"foo\":\"bar\"}",
      "", true },
    { "Affinity matches but the PodSpec.NodeSelector is not satisfied",
      "{\"foo\":\"bar\"}", "{\"nodeSelectorTerms\":[{\"matchExpressions\":"
      "[{\"key\":\"foo\",\"operator\":\"Exists\"}]}]}",
      "{\"foo\":\"barrrrrr\"}", "", false },
    { "an invalid value in Affinity term won't be scheduled", NULL,
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"foo\","
      "\"operator\":\"NotIn\",\"values\":[\"invalid value: ___@#$%^\"]}]}]}",
      "{\"foo\":\"bar\"}", "", false },
    { "matchFields using In operator that matches the existing node", NULL,
      "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\","
      "\"operator\":\"In\",\"values\":[\"node_1\"]}]}]}", "{}", "node_1",
      true },
    { "matchFields using In operator that does not match the existing node",
      NULL, "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":"
      "\"metadata.name\",\"operator\":\"In\",\"values\":[\"node_1\"]}]}]}",
      "{}", "node_2", false },
    { "two terms: matchFields does not match, but matchExpressions matches",
      NULL, "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":"
      "\"metadata.name\",\"operator\":\"In\",\"values\":[\"node_1\"]}]},"
      "{\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"In\","
      "\"values\":[\"bar\"]}]}]}", "{\"foo\":\"bar\"}", "node_2", true },
    { "one term: matchFields does not match, but matchExpressions matches",
      NULL, "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":"
      "\"metadata.name\",\"operator\":\"In\",\"values\":[\"node_1\"]}],"
      "\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"In\","
      "\"values\":[\"bar\"]}]}]}", "{\"foo\":\"bar\"}", "node_2", false },
    { "one term: both matchFields and matchExpressions match", NULL,
      "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\","
      "\"operator\":\"In\",\"values\":[\"node_1\"]}],"
      "\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"In\","
      "\"values\":[\"bar\"]}]}]}", "{\"foo\":\"bar\"}", "node_1", true },
    { "two terms: both matchFields and matchExpressions do not match", NULL,
      "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\","
      "\"operator\":\"In\",\"values\":[\"node_1\"]}]},"
      "{\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"In\","
      "\"values\":[\"not-match-to-bar\"]}]}]}", "{\"foo\":\"bar\"}",
      "node_2", false },
};

/* TestPodMatchesNodeSelectorAndAffinityTerms (GetRequiredNodeAffinity). */
static void
test_labels__pod_matches_node_selector_and_affinity_terms(void)
{
    size_t i;

    for (i = 0; i < NELEM(pod_rows); i++) {
        struct kp_arena a;
        struct kp_labels sel, l;
        struct kp_node_selector ns;
        struct kp_error err;
        bool got;

        kp_arena_init(&a);
        sel = labels_of(&a, pod_rows[i].node_selector);
        l = labels_of(&a, pod_rows[i].labels);
        CHECK(node_selector_of(&a, pod_rows[i].affinity, &ns, &err) == 0);
        got = kp_labels_set_matches(&sel, &l) &&
              kp_node_selector_matches(&ns, &l, pod_rows[i].node_name);
        if (got != pod_rows[i].want) {
            printf("#   %s: got %d\n", pod_rows[i].name, got);
            CHECK(0);
        }
        kp_arena_release(&a);
    }
}

/* Requirement.Matches for Gt/Lt: strconv.ParseInt on the label. */
static void
test_labels__gt_lt_compare_as_int64(void)
{
    static const struct {
        const char *op;
        const char *value;
        const char *label;      /* NULL: label absent */
        bool want;
    } rows[] = {
        { "Gt", "1", "2", true }, { "Gt", "1", "1", false },
        { "Lt", "1", "0", true }, { "Lt", "1", "1", false },
        { "Gt", "0204", "0206", true }, { "Gt", "4", "+5", true },
        { "Lt", "0", "-3", true }, { "Gt", "1", NULL, false },
        { "Gt", "1", "v2", false }, { "Gt", "1", " 5", false },
        { "Gt", "1", "", false }, { "Gt", "1", "1e3", false },
        { "Gt", "1", "9223372036854775808", false },
        { "Lt", "0", "-9223372036854775808", true },
        { "Gt", "9223372036854775806", "9223372036854775807", true },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_arena a;
        struct kp_node_selector ns;
        struct kp_labels l;
        char expr[256], labels[128];

        kp_arena_init(&a);
        snprintf(expr, sizeof(expr), "{\"key\":\"k\",\"operator\":\"%s\","
                 "\"values\":[\"%s\"]}", rows[i].op, rows[i].value);
        if (rows[i].label)
            snprintf(labels, sizeof(labels), "{\"k\":\"%s\"}",
                     rows[i].label);
        else
            snprintf(labels, sizeof(labels), "{\"other\":\"1\"}");
        ns = one_expr(&a, expr);
        l = labels_of(&a, labels);
        CHECK(!ns.terms[0].invalid);
        if (kp_requirement_matches(&ns.terms[0].exprs[0], &l) !=
            rows[i].want) {
            printf("#   %s %s on %s\n", rows[i].op, rows[i].value, labels);
            CHECK(0);
        }
        kp_arena_release(&a);
    }
}

/*
 * matchFields (nodeSelectorRequirementsAsFieldSelector): In/NotIn with one
 * value; other keys read "" from the node's fields.Set; a node without a
 * name has no fields, and the field requirements are skipped.
 */
static void
test_labels__match_fields(void)
{
    static const struct {
        const char *field;
        const char *name;
        bool invalid;
        bool want;
    } rows[] = {
        { "{\"key\":\"metadata.name\",\"operator\":\"NotIn\","
          "\"values\":[\"node_1\"]}", "node_2", false, true },
        { "{\"key\":\"metadata.name\",\"operator\":\"NotIn\","
          "\"values\":[\"node_1\"]}", "node_1", false, false },
        { "{\"key\":\"metadata.uid\",\"operator\":\"In\","
          "\"values\":[\"x\"]}", "node_1", false, false },
        { "{\"key\":\"metadata.uid\",\"operator\":\"NotIn\","
          "\"values\":[\"x\"]}", "node_1", false, true },
        { "{\"key\":\"metadata.uid\",\"operator\":\"In\","
          "\"values\":[\"\"]}", "node_1", false, true },
        { "{\"key\":\"metadata.name\",\"operator\":\"In\","
          "\"values\":[\"node_1\"]}", "", false, true },
        { "{\"key\":\"metadata.name\",\"operator\":\"In\","
          "\"values\":[\"node_1\"]}", NULL, false, true },
        { "{\"key\":\"metadata.name\",\"operator\":\"Exists\"}", "node_1",
          true, false },
        { "{\"key\":\"metadata.name\",\"operator\":\"Gt\","
          "\"values\":[\"1\"]}", "node_1", true, false },
        { "{\"key\":\"metadata.name\",\"operator\":\"In\","
          "\"values\":[]}", "node_1", true, false },
        { "{\"key\":\"metadata.name\",\"operator\":\"Bogus\","
          "\"values\":[\"node_1\"]}", "node_1", true, false },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_arena a;
        struct kp_node_selector ns;
        struct kp_labels l = { 0, NULL };
        struct kp_error err;
        char buf[512];

        kp_arena_init(&a);
        snprintf(buf, sizeof(buf),
                 "{\"nodeSelectorTerms\":[{\"matchFields\":[%s]}]}",
                 rows[i].field);
        CHECK(node_selector_of(&a, buf, &ns, &err) == 0);
        CHECK_EQ_INT(ns.terms[0].invalid, rows[i].invalid);
        if (kp_node_selector_matches(&ns, &l, rows[i].name) !=
            rows[i].want) {
            printf("#   %s on '%s'\n", rows[i].field,
                   rows[i].name ? rows[i].name : "(null)");
            CHECK(0);
        }
        kp_arena_release(&a);
    }
}

/*
 * NodeSelector decoding: absent/null is no constraint; no terms and
 * empty (or null) terms match nothing; the term list keeps every term.
 */
static void
test_labels__node_selector_null_and_empty(void)
{
    struct kp_arena a;
    struct kp_node_selector ns;
    struct kp_labels l;
    struct kp_error err;

    kp_arena_init(&a);
    l = labels_of(&a, "{\"a\":\"1\"}");
    CHECK(node_selector_of(&a, NULL, &ns, &err) == 0);
    CHECK(ns.is_null && kp_node_selector_matches(&ns, &l, "n"));
    CHECK(node_selector_of(&a, "null", &ns, &err) == 0);
    CHECK(ns.is_null && kp_node_selector_matches(&ns, &l, "n"));
    CHECK(node_selector_of(&a, "{}", &ns, &err) == 0);
    CHECK(!ns.is_null && ns.nterms == 0);
    CHECK(!kp_node_selector_matches(&ns, &l, "n"));
    CHECK(node_selector_of(&a, "{\"nodeSelectorTerms\":[{},null,"
                           "{\"matchExpressions\":null,\"matchFields\":[]}]}",
                           &ns, &err) == 0);
    CHECK_EQ_INT(ns.nterms, 3);
    CHECK(!kp_node_selector_term_matches(&ns.terms[0], &l, "n"));
    CHECK(!kp_node_selector_term_matches(&ns.terms[1], &l, "n"));
    CHECK(!kp_node_selector_term_matches(&ns.terms[2], &l, "n"));
    CHECK(!kp_node_selector_matches(&ns, &l, "n"));
    /* an empty term next to a matching one */
    CHECK(node_selector_of(&a, "{\"nodeSelectorTerms\":[{},"
                           "{\"matchExpressions\":[{\"key\":\"a\","
                           "\"operator\":\"Exists\"}]}]}", &ns, &err) == 0);
    CHECK(kp_node_selector_matches(&ns, &l, "n"));
    kp_arena_release(&a);
}

/* Shapes the API's JSON decoding refuses are errors, with their path. */
static void
test_labels__node_selector_decode_errors(void)
{
    static const struct error_row rows[] = {
        { "[]", "expected an object" },
        { "{\"nodeSelectorTerms\":{}}",
          "nodeSelectorTerms: expected an array" },
        { "{\"nodeSelectorTerms\":[1]}",
          "nodeSelectorTerms[0]: expected an object" },
        { "{\"nodeSelectorTerms\":[{\"matchExpressions\":{}}]}",
          "nodeSelectorTerms[0].matchExpressions: expected an array" },
        { "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":1}]}]}",
          "nodeSelectorTerms[0].matchFields[0].key: expected a string" },
        { "{\"nodeSelectorTerms\":[{},{\"matchExpressions\":[{\"key\":\"a\","
          "\"operator\":\"In\",\"values\":[true]}]}]}",
          "nodeSelectorTerms[1].matchExpressions[0].values[0]: expected a "
          "string" },
        { "{\"nodeSelectorTerms\":[{\"matchExpressions\":[\"a\"]}]}",
          "nodeSelectorTerms[0].matchExpressions[0]: expected an object" },
    };

    check_decode_errors(decode_node_selector, rows, NELEM(rows));
}

int
main(void)
{
    RUN(test_labels__from_json_reads_string_values);
    RUN(test_labels__from_json_keeps_pair_hashes);
    RUN(test_labels__from_json_absent_is_empty);
    RUN(test_labels__from_json_rejects_bad_types);
    RUN(test_labels__set_matches);
    RUN(test_labels__label_selector_as_selector);
    RUN(test_labels__selector_matches);
    RUN(test_labels__requirement_selector_matching);
    RUN(test_labels__selector_decode_errors);
    RUN(test_labels__selector_invalid_value_matches_nothing);
    RUN(test_labels__requirement_constructor);
    RUN(test_labels__label_key_and_value_syntax);
    RUN(test_labels__node_selector_match);
    RUN(test_labels__node_selector_requirements_as_selector);
    RUN(test_labels__pod_matches_node_selector_and_affinity_terms);
    RUN(test_labels__gt_lt_compare_as_int64);
    RUN(test_labels__match_fields);
    RUN(test_labels__node_selector_null_and_empty);
    RUN(test_labels__node_selector_decode_errors);
    return check_done();
}
