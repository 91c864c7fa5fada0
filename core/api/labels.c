/*
 * labels.c - label sets, LabelSelector and NodeSelector.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/labels/selector.go
 * (NewRequirement, Requirement.Matches, SelectorFromSet),
 * apimachinery/pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector) and
 * component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
 * (NewLazyErrorNodeSelector, nodeSelectorTerm.match).  Label key and value
 * syntax is apimachinery/pkg/api/validate/content/kube.go and dns.go
 * (IsLabelKey, IsLabelValue, IsDNS1123Subdomain).
 */
#include "labels.h"

#include <stdio.h>
#include <string.h>

#include "quantity.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A requirement as written in JSON, before its operator is checked. */
struct raw_req {
    const char *key;
    const char *op;
    size_t nvalues;
    const char **values;
};

static const struct {
    const char *name;
    enum kp_op op;
} op_table[] = {
    { "In", KP_OP_IN }, { "NotIn", KP_OP_NOT_IN },
    { "Exists", KP_OP_EXISTS }, { "DoesNotExist", KP_OP_DOES_NOT_EXIST },
    { "Gt", KP_OP_GT }, { "Lt", KP_OP_LT },
};

/* An arena array of n elements of size sz; NULL when n is 0. */
static void *
alloc_array(struct kp_arena *a, size_t n, size_t sz)
{
    return n ? kp_arena_alloc(a, n * sz) : NULL;
}

/* The operator named s (case-sensitive), or -1. */
static int
op_from_name(const char *s)
{
    size_t i;

    for (i = 0; i < NELEM(op_table); i++)
        if (strcmp(op_table[i].name, s) == 0)
            return (int)op_table[i].op;
    return -1;
}

static bool
is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

static bool
is_lower_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 characters. */
static bool
is_name_part(const char *s, size_t n)
{
    size_t i;

    if (n == 0 || n > 63 || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
        return false;
    for (i = 1; i + 1 < n; i++)
        if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
            return false;
    return true;
}

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? */
static bool
is_dns1123_label(const char *s, size_t n)
{
    size_t i;

    if (n == 0 || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
        return false;
    for (i = 1; i + 1 < n; i++)
        if (!is_lower_alnum(s[i]) && s[i] != '-')
            return false;
    return true;
}

/* IsDNS1123Subdomain: dot-separated labels, at most 253 characters. */
static bool
is_dns1123_subdomain(const char *s, size_t n)
{
    size_t i, start = 0;

    if (n == 0 || n > 253)
        return false;
    for (i = 0; i <= n; i++) {
        if (i < n && s[i] != '.')
            continue;
        if (!is_dns1123_label(s + start, i - start))
            return false;
        start = i + 1;
    }
    return true;
}

/* IsLabelKey: [prefix/]name, prefix a DNS-1123 subdomain. */
static bool
is_label_key(const char *k)
{
    const char *slash = strchr(k, '/');

    if (!slash)
        return is_name_part(k, strlen(k));
    if (strchr(slash + 1, '/'))
        return false;
    return is_dns1123_subdomain(k, (size_t)(slash - k)) &&
           is_name_part(slash + 1, strlen(slash + 1));
}

/* IsLabelValue: empty, or a name part. */
static bool
is_label_value(const char *v)
{
    size_t n = strlen(v);

    return n == 0 || is_name_part(v, n);
}

static bool
values_valid(const struct raw_req *r)
{
    size_t i;

    for (i = 0; i < r->nvalues; i++)
        if (!is_label_value(r->values[i]))
            return false;
    return true;
}

/* The member key of obj, or NULL when absent or JSON null. */
static const cJSON *
member(const cJSON *obj, const char *key)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);

    return cJSON_IsNull(j) ? NULL : j;
}

/*
 * A string member; absent or null reads as "" (Go's zero value).  Returns
 * -1 for any other type.
 */
static int
string_member(struct kp_arena *a, const cJSON *obj, const char *key,
              const char **out)
{
    const cJSON *j = member(obj, key);

    *out = "";
    if (!j)
        return 0;
    if (!cJSON_IsString(j) || !j->valuestring)
        return -1;
    *out = kp_arena_intern(a, j->valuestring);
    return 0;
}

/* The "values" array of a requirement at where. */
static int
decode_values(struct kp_arena *a, const cJSON *obj, const char *where,
              struct raw_req *r, struct kp_error *err)
{
    const cJSON *arr = member(obj, "values"), *it;

    r->nvalues = 0;
    r->values = NULL;
    if (!arr)
        return 0;
    if (!cJSON_IsArray(arr))
        return kp_errorf(err, KP_EXIT_ERROR, "%s.values: expected an array",
                         where);
    r->values = alloc_array(a, (size_t)cJSON_GetArraySize(arr),
                            sizeof(*r->values));
    cJSON_ArrayForEach(it, arr) {
        if (cJSON_IsNull(it)) {
            r->values[r->nvalues++] = "";
            continue;
        }
        if (!cJSON_IsString(it) || !it->valuestring)
            return kp_errorf(err, KP_EXIT_ERROR,
                             "%s.values[%zu]: expected a string", where,
                             r->nvalues);
        r->values[r->nvalues++] = kp_arena_intern(a, it->valuestring);
    }
    return 0;
}

/*
 * {key, operator, values} at where; JSON null is the zero value.  Only
 * wrong JSON types are errors here.
 */
static int
decode_raw_req(struct kp_arena *a, const cJSON *obj, const char *where,
               struct raw_req *r, struct kp_error *err)
{
    memset(r, 0, sizeof(*r));
    r->key = r->op = "";
    if (cJSON_IsNull(obj))
        return 0;
    if (!cJSON_IsObject(obj))
        return kp_errorf(err, KP_EXIT_ERROR, "%s: expected an object",
                         where);
    if (string_member(a, obj, "key", &r->key) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s.key: expected a string",
                         where);
    if (string_member(a, obj, "operator", &r->op) < 0)
        return kp_errorf(err, KP_EXIT_ERROR,
                         "%s.operator: expected a string", where);
    return decode_values(a, obj, where, r, err);
}

static void
fill_requirement(struct kp_requirement *r, const struct raw_req *raw,
                 enum kp_op op)
{
    memset(r, 0, sizeof(*r));
    r->key = raw->key;
    r->op = op;
    r->nvalues = raw->nvalues;
    r->values = raw->values;
    if ((op == KP_OP_GT || op == KP_OP_LT) && raw->nvalues == 1)
        r->num_ok = kp_parse_int64(raw->values[0], strlen(raw->values[0]),
                                   &r->num) == 0;
}

int
kp_labels_from_json(struct kp_arena *a, const cJSON *obj,
                    struct kp_labels *out, struct kp_error *err)
{
    struct kp_label *items;
    const cJSON *it;
    size_t n = 0;

    out->n = 0;
    out->items = NULL;
    if (!obj || cJSON_IsNull(obj))
        return 0;
    if (!cJSON_IsObject(obj))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    items = alloc_array(a, (size_t)cJSON_GetArraySize(obj), sizeof(*items));
    cJSON_ArrayForEach(it, obj) {
        const char *v = "";

        if (!cJSON_IsNull(it) && (!cJSON_IsString(it) || !it->valuestring))
            return kp_errorf(err, KP_EXIT_ERROR, "%s: expected a string",
                             it->string);
        if (cJSON_IsString(it))
            v = kp_arena_intern(a, it->valuestring);
        items[n].key = kp_arena_intern(a, it->string);
        items[n].value = v;
        items[n].h = kp_label_hash(items[n].key, v);
        n++;
    }
    out->n = n;
    out->items = items;
    return 0;
}

const struct kp_label *
kp_labels_find(const struct kp_labels *l, const char *key)
{
    size_t i;

    if (!l || !key)
        return NULL;
    /*
     * A snapshot's label keys and selector keys are interned in its
     * arena: the same key is most often the same pointer, found without
     * a strcmp.  Keys of one map are unique, so the first hit is the one.
     */
    for (i = 0; i < l->n; i++)
        if (l->items[i].key == key)
            return &l->items[i];
    for (i = 0; i < l->n; i++)
        if (strcmp(l->items[i].key, key) == 0)
            return &l->items[i];
    return NULL;
}

const char *
kp_labels_get(const struct kp_labels *l, const char *key)
{
    const struct kp_label *f = kp_labels_find(l, key);

    return f ? f->value : NULL;
}

bool
kp_labels_set_matches(const struct kp_labels *set, const struct kp_labels *l)
{
    size_t i;

    for (i = 0; set && i < set->n; i++) {
        const char *v = kp_labels_get(l, set->items[i].key);

        if (!v || strcmp(v, set->items[i].value) != 0)
            return false;
    }
    return true;
}

/* matchLabels: each entry an In requirement with one value. */
static int
selector_labels(struct kp_arena *a, const cJSON *ml, struct kp_selector *s,
                struct kp_error *err)
{
    const cJSON *it;

    cJSON_ArrayForEach(it, ml) {
        struct raw_req raw = { it->string, "In", 1, NULL };

        raw.values = kp_arena_alloc(a, sizeof(*raw.values));
        raw.values[0] = "";
        if (!cJSON_IsNull(it) && (!cJSON_IsString(it) || !it->valuestring))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "matchLabels.%s: expected a string", it->string);
        if (!is_label_key(it->string))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "matchLabels: invalid label key '%s'",
                             it->string);
        if (cJSON_IsString(it))
            raw.values[0] = kp_arena_intern(a, it->valuestring);
        if (!is_label_value(raw.values[0]))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "matchLabels.%s: invalid label value '%s'",
                             it->string, raw.values[0]);
        raw.key = kp_arena_intern(a, it->string);
        fill_requirement(&s->reqs[s->nreq++], &raw, KP_OP_IN);
    }
    return 0;
}

/* LabelSelectorAsSelector's operator switch, then NewRequirement's checks. */
static int
check_selector_expr(const struct raw_req *raw, int op, const char *where,
                    struct kp_error *err)
{
    if (op == KP_OP_GT || op == KP_OP_LT)
        return kp_errorf(err, KP_EXIT_ERROR, "%s.operator: operator '%s' is "
                         "not valid in a label selector", where, raw->op);
    if (op < 0)
        return kp_errorf(err, KP_EXIT_ERROR,
                         "%s.operator: unknown operator '%s'", where,
                         raw->op);
    if (!*raw->key)
        return kp_errorf(err, KP_EXIT_ERROR, "%s.key: missing", where);
    if (!is_label_key(raw->key))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "%s.key: invalid label key '%s'", where, raw->key);
    if ((op == KP_OP_IN || op == KP_OP_NOT_IN) && raw->nvalues == 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s.values: must be non-empty "
                         "for operator '%s'", where, raw->op);
    if ((op == KP_OP_EXISTS || op == KP_OP_DOES_NOT_EXIST) &&
        raw->nvalues > 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s.values: must be empty for "
                         "operator '%s'", where, raw->op);
    return 0;
}

static int
selector_exprs(struct kp_arena *a, const cJSON *me, struct kp_selector *s,
               struct kp_error *err)
{
    const cJSON *it;
    size_t i = 0;

    cJSON_ArrayForEach(it, me) {
        struct raw_req raw;
        char where[48];
        int op;

        snprintf(where, sizeof(where), "matchExpressions[%zu]", i++);
        if (decode_raw_req(a, it, where, &raw, err) < 0)
            return -1;
        op = op_from_name(raw.op);
        if (check_selector_expr(&raw, op, where, err) < 0)
            return -1;
        s->invalid = s->invalid || !values_valid(&raw);
        fill_requirement(&s->reqs[s->nreq++], &raw, (enum kp_op)op);
    }
    return 0;
}

int
kp_selector_from_json(struct kp_arena *a, const cJSON *json,
                      struct kp_selector *out, struct kp_error *err)
{
    const cJSON *ml, *me;
    size_t n;

    memset(out, 0, sizeof(*out));
    if (!json || cJSON_IsNull(json)) {
        out->is_null = true;
        return 0;
    }
    if (!cJSON_IsObject(json))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    ml = member(json, "matchLabels");
    me = member(json, "matchExpressions");
    if (ml && !cJSON_IsObject(ml))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "matchLabels: expected an object");
    if (me && !cJSON_IsArray(me))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "matchExpressions: expected an array");
    n = (size_t)cJSON_GetArraySize(ml) + (size_t)cJSON_GetArraySize(me);
    out->reqs = alloc_array(a, n, sizeof(*out->reqs));
    if (selector_labels(a, ml, out, err) < 0 ||
        selector_exprs(a, me, out, err) < 0)
        return -1;
    return 0;
}

/* Gt/Lt: the label is present and compares as an int64. */
static bool
compare_matches(const struct kp_requirement *r, const char *v)
{
    int64_t n;

    if (!v || !r->num_ok || r->nvalues != 1 ||
        kp_parse_int64(v, strlen(v), &n) < 0)
        return false;
    return r->op == KP_OP_GT ? n > r->num : n < r->num;
}

static bool
has_value(const struct kp_requirement *r, const char *v)
{
    size_t i;

    /* interned: the same value is usually the same pointer */
    for (i = 0; i < r->nvalues; i++)
        if (r->values[i] == v || strcmp(r->values[i], v) == 0)
            return true;
    return false;
}

bool
kp_requirement_matches(const struct kp_requirement *r,
                       const struct kp_labels *l)
{
    const char *v = kp_labels_get(l, r->key);

    switch (r->op) {
    case KP_OP_IN:
        return v && has_value(r, v);
    case KP_OP_NOT_IN:
        return !v || !has_value(r, v);
    case KP_OP_EXISTS:
        return v != NULL;
    case KP_OP_DOES_NOT_EXIST:
        return v == NULL;
    case KP_OP_GT:
    case KP_OP_LT:
        return compare_matches(r, v);
    }
    return false;
}

bool
kp_selector_matches(const struct kp_selector *s, const struct kp_labels *l)
{
    size_t i;

    if (s->is_null || s->invalid)
        return false;
    for (i = 0; i < s->nreq; i++)
        if (!kp_requirement_matches(&s->reqs[i], l))
            return false;
    return true;
}

/* NewRequirement's checks for a node label requirement. */
static bool
label_req_valid(const struct raw_req *raw, int op)
{
    int64_t n;

    if (op < 0 || !is_label_key(raw->key) || !values_valid(raw))
        return false;
    switch (op) {
    case KP_OP_IN:
    case KP_OP_NOT_IN:
        return raw->nvalues > 0;
    case KP_OP_EXISTS:
    case KP_OP_DOES_NOT_EXIST:
        return raw->nvalues == 0;
    default:
        return raw->nvalues == 1 &&
               kp_parse_int64(raw->values[0], strlen(raw->values[0]),
                              &n) == 0;
    }
}

/* nodeSelectorRequirementsAsFieldSelector: In or NotIn, one value. */
static bool
field_req_valid(const struct raw_req *raw, int op)
{
    return (op == KP_OP_IN || op == KP_OP_NOT_IN) && raw->nvalues == 1;
}

/* matchExpressions or matchFields (fields) of nodeSelectorTerms[term]. */
static int
node_reqs(struct kp_arena *a, const cJSON *t, size_t term, bool fields,
          struct kp_node_selector_term *out, struct kp_error *err)
{
    const char *name = fields ? "matchFields" : "matchExpressions";
    const cJSON *arr = member(t, name), *it;
    struct kp_requirement *reqs;
    size_t i = 0, n = 0;

    if (!arr)
        return 0;
    if (!cJSON_IsArray(arr))
        return kp_errorf(err, KP_EXIT_ERROR, "nodeSelectorTerms[%zu].%s: "
                         "expected an array", term, name);
    reqs = alloc_array(a, (size_t)cJSON_GetArraySize(arr), sizeof(*reqs));
    cJSON_ArrayForEach(it, arr) {
        struct raw_req raw;
        char where[96];
        int op;

        snprintf(where, sizeof(where), "nodeSelectorTerms[%zu].%s[%zu]",
                 term, name, i++);
        if (decode_raw_req(a, it, where, &raw, err) < 0)
            return -1;
        op = op_from_name(raw.op);
        if (fields ? !field_req_valid(&raw, op) : !label_req_valid(&raw, op))
            out->invalid = true;
        if (op >= 0)
            fill_requirement(&reqs[n++], &raw, (enum kp_op)op);
    }
    if (fields) {
        out->fields = reqs;
        out->nfields = n;
    } else {
        out->exprs = reqs;
        out->nexprs = n;
    }
    return 0;
}

static int
node_term(struct kp_arena *a, const cJSON *t, size_t i,
          struct kp_node_selector_term *out, struct kp_error *err)
{
    memset(out, 0, sizeof(*out));
    if (cJSON_IsNull(t))
        return 0;       /* the zero term: empty, matches nothing */
    if (!cJSON_IsObject(t))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "nodeSelectorTerms[%zu]: expected an object", i);
    if (node_reqs(a, t, i, false, out, err) < 0 ||
        node_reqs(a, t, i, true, out, err) < 0)
        return -1;
    return 0;
}

int
kp_node_selector_from_json(struct kp_arena *a, const cJSON *json,
                           struct kp_node_selector *out,
                           struct kp_error *err)
{
    const cJSON *terms, *it;
    size_t i = 0;

    memset(out, 0, sizeof(*out));
    if (!json || cJSON_IsNull(json)) {
        out->is_null = true;
        return 0;
    }
    if (!cJSON_IsObject(json))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    terms = member(json, "nodeSelectorTerms");
    if (!terms)
        return 0;
    if (!cJSON_IsArray(terms))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "nodeSelectorTerms: expected an array");
    out->terms = alloc_array(a, (size_t)cJSON_GetArraySize(terms),
                             sizeof(*out->terms));
    cJSON_ArrayForEach(it, terms) {
        if (node_term(a, it, i, &out->terms[i], err) < 0)
            return -1;
        out->nterms = ++i;
    }
    return 0;
}

/* fields.OneTerm(Not)EqualSelector on {metadata.name: node_name}. */
static bool
field_matches(const struct kp_requirement *r, const char *node_name)
{
    const char *v = strcmp(r->key, "metadata.name") == 0 ? node_name : "";
    bool eq;

    if (r->nvalues != 1)
        return false;
    eq = strcmp(v, r->values[0]) == 0;
    return r->op == KP_OP_IN ? eq : r->op == KP_OP_NOT_IN && !eq;
}

bool
kp_node_selector_term_matches(const struct kp_node_selector_term *t,
                              const struct kp_labels *node_labels,
                              const char *node_name)
{
    size_t i;

    if (t->invalid || (t->nexprs == 0 && t->nfields == 0))
        return false;
    for (i = 0; i < t->nexprs; i++)
        if (!kp_requirement_matches(&t->exprs[i], node_labels))
            return false;
    if (!node_name || !*node_name)
        return true;    /* extractNodeFields: no name, no fields */
    for (i = 0; i < t->nfields; i++)
        if (!field_matches(&t->fields[i], node_name))
            return false;
    return true;
}

bool
kp_node_selector_matches(const struct kp_node_selector *ns,
                         const struct kp_labels *node_labels,
                         const char *node_name)
{
    size_t i;

    if (ns->is_null)
        return true;
    for (i = 0; i < ns->nterms; i++)
        if (kp_node_selector_term_matches(&ns->terms[i], node_labels,
                                          node_name))
            return true;
    return false;
}
