/*
 * podinfo.c - see podinfo.h.  Mirrors pkg/scheduler/framework/types.go
 * (AffinityTerm.Matches, newAffinityTerm, getNamespacesFromPodAffinityTerm,
 * PodInfo.Update's parse errors), plugins/interpodaffinity/plugin.go
 * (mergeAffinityTermNamespacesIfNotEmpty, GetNamespaceLabelsSnapshot),
 * the errors of
 * apimachinery/pkg/labels/selector.go (NewRequirement, validateLabelValue)
 * and apimachinery/pkg/util/validation/validation.go (IsValidLabelValue),
 * and utilerrors.NewAggregate's Error().
 */
#include "podinfo.h"

#include <stdio.h>
#include <string.h>

#define LABEL_VALUE_MAX 63
#define LABEL_VALUE_REGEX_MSG                                              \
    "a valid label must be an empty string or consist of alphanumeric "   \
    "characters, '-', '_' or '.', and must start and end with an "        \
    "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "        \
    "'12345', regex used for validation is "                              \
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define MAX_ERRORS 8

/* namespaceSelector `{}`: labels.Everything() survives the merge. */
static bool
ns_selector_everything(const struct kp_affinity_term *t)
{
    return t->has_ns_selector && !t->ns_selector.is_null &&
           !t->ns_selector.invalid && t->ns_selector.nreq == 0;
}

bool
kp_term_ns_listed(const struct kp_affinity_term *t, const char *owner_ns,
                  const char *ns)
{
    size_t i;

    /* namespaces are interned: equal ones are mostly the same pointer */
    if (t->nnamespaces == 0 && !t->has_ns_selector)
        return owner_ns == ns || strcmp(owner_ns, ns) == 0;
    for (i = 0; i < t->nnamespaces; i++)
        if (t->namespaces[i] == ns || strcmp(t->namespaces[i], ns) == 0)
            return true;
    return false;
}

const struct kp_labels *
kp_pod_namespace_labels(const struct kp_snapshot *s, const struct kp_pod *p)
{
    static const struct kp_labels none = {0, NULL};

    if (s->nnamespaces == 0)
        return NULL;
    return p->ns_obj ? &p->ns_obj->labels : &none;
}

const unsigned char **
kp_affinity_terms_merge_namespaces(struct kp_arena *a,
                                   const struct kp_snapshot *s,
                                   const struct kp_affinity_term *t, size_t n)
{
    const unsigned char **out;
    size_t i, j;

    if (n == 0)
        return NULL;
    out = kp_arena_alloc(a, n * sizeof(*out));
    for (i = 0; i < n; i++) {
        unsigned char *sel;

        if (!t[i].has_ns_selector || ns_selector_everything(&t[i]))
            continue;
        sel = kp_arena_alloc(a, s->nnamespaces + 1);
        for (j = 0; j < s->nnamespaces; j++)
            sel[j] = kp_selector_matches(&t[i].ns_selector,
                                         &s->namespaces[j]->labels);
        out[i] = sel;
    }
    return out;
}

bool
kp_incoming_term_matches(const struct kp_affinity_term *t,
                         const unsigned char *sel, const char *owner_ns,
                         const struct kp_pod *q)
{
    if (!kp_term_ns_listed(t, owner_ns, q->ns) && !ns_selector_everything(t) &&
        !(sel && q->ns_obj && sel[q->ns_obj->index]))
        return false;
    return kp_selector_matches(&t->selector, &q->labels);
}

bool
kp_existing_term_matches(const struct kp_affinity_term *t,
                         const char *owner_ns, const struct kp_pod *pod,
                         const struct kp_labels *ns_labels)
{
    if (!kp_term_ns_listed(t, owner_ns, pod->ns) && !ns_selector_everything(t) &&
        !(t->has_ns_selector && ns_labels &&
          kp_selector_matches(&t->ns_selector, ns_labels)))
        return false;
    return kp_selector_matches(&t->selector, &pod->labels);
}

bool
kp_affinity_term_valid(const struct kp_affinity_term *t)
{
    return !t->selector.invalid &&
           !(t->has_ns_selector && t->ns_selector.invalid);
}

size_t
kp_affinity_terms_usable(const struct kp_affinity_term *t, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (!kp_affinity_term_valid(&t[i]))
            return 0;
    return n;
}

/* ---- error texts ---- */

static bool
is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

static bool
label_value_regex_ok(const char *v)
{
    size_t n = strlen(v), i;

    if (n == 0)
        return true;
    if (!is_alnum(v[0]) || !is_alnum(v[n - 1]))
        return false;
    for (i = 1; i + 1 < n; i++)
        if (!is_alnum(v[i]) && v[i] != '-' && v[i] != '_' && v[i] != '.')
            return false;
    return true;
}

/* IsValidLabelValue's messages joined by "; ", or NULL when valid. */
static const char *
label_value_error(char *buf, size_t sz, const char *v)
{
    bool too_long = strlen(v) > LABEL_VALUE_MAX;
    bool bad = !label_value_regex_ok(v);

    if (!too_long && !bad)
        return NULL;
    snprintf(buf, sz, "%s%s%s",
             too_long ? "must be no more than 63 characters" : "",
             too_long && bad ? "; " : "", bad ? LABEL_VALUE_REGEX_MSG : "");
    return buf;
}

/* Go's %q for the printable strings label values are made of. */
static void
quote(char *out, size_t sz, const char *v)
{
    size_t o = 0;

    if (sz < 3)
        return;
    out[o++] = '"';
    for (; *v && o + 3 < sz; v++) {
        if (*v == '"' || *v == '\\')
            out[o++] = '\\';
        out[o++] = *v;
    }
    out[o++] = '"';
    out[o] = '\0';
}

/* utilerrors.NewAggregate(errs).Error(): one message, or "[a, b]". */
static const char *
aggregate(struct kp_arena *a, const char **msgs, size_t n)
{
    size_t i, j, kept = 0;
    const char *uniq[MAX_ERRORS];

    for (i = 0; i < n; i++) {
        for (j = 0; j < kept && strcmp(uniq[j], msgs[i]) != 0; j++)
            ;
        if (j == kept && kept < MAX_ERRORS)
            uniq[kept++] = msgs[i];
    }
    if (kept == 0)
        return NULL;
    if (kept == 1)
        return uniq[0];
    return kp_arena_concat(a, "[", kp_arena_join(a, uniq, kept, ", "), "]",
                           NULL);
}

/* NewRequirement's error for one requirement, or NULL. */
static const char *
requirement_error(struct kp_arena *a, const struct kp_requirement *r)
{
    const char *msgs[MAX_ERRORS];
    size_t i, n = 0;

    for (i = 0; i < r->nvalues && n < MAX_ERRORS; i++) {
        char detail[512], q[256];
        size_t sz;
        char *m;

        if (!label_value_error(detail, sizeof(detail), r->values[i]))
            continue;
        quote(q, sizeof(q), r->values[i]);
        sz = strlen(r->key) + strlen(q) + strlen(detail) + 64;
        m = kp_arena_alloc(a, sz);
        snprintf(m, sz, "values[%zu][%s]: Invalid value: %s: %s", i,
                 r->key, q, detail);
        msgs[n++] = m;
    }
    return aggregate(a, msgs, n);
}

const char *
kp_selector_parse_error(struct kp_arena *a, const struct kp_selector *s)
{
    size_t i;

    if (s->is_null || !s->invalid)
        return NULL;
    for (i = 0; i < s->nreq; i++) {
        const char *e = requirement_error(a, &s->reqs[i]);

        if (e)
            return e;
    }
    return "invalid label selector";
}

/* getAffinityTerms: the first term's error, labelSelector first. */
static const char *
terms_error(struct kp_arena *a, const struct kp_affinity_term *t, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const char *e = kp_selector_parse_error(a, &t[i].selector);

        if (!e && t[i].has_ns_selector)
            e = kp_selector_parse_error(a, &t[i].ns_selector);
        if (e)
            return e;
    }
    return NULL;
}

static void
add_list_error(struct kp_arena *a, const char **msgs, size_t *n,
               const char *what, const struct kp_affinity_term *t,
               size_t nt)
{
    const char *e = terms_error(a, t, nt);
    size_t sz;
    char *m;

    if (!e)
        return;
    sz = strlen(what) + strlen(e) + 3;
    m = kp_arena_alloc(a, sz);
    snprintf(m, sz, "%s: %s", what, e);
    msgs[(*n)++] = m;
}

const char *
kp_pod_info_parse_error(struct kp_arena *a, const struct kp_pod *p)
{
    const char *msgs[4];
    size_t n = 0;

    add_list_error(a, msgs, &n, "requiredAffinityTerms", p->affinity,
                   p->naffinity);
    add_list_error(a, msgs, &n, "requiredAntiAffinityTerms",
                   p->anti_affinity, p->nanti_affinity);
    add_list_error(a, msgs, &n, "preferredAffinityTerms", p->pref_affinity,
                   p->npref_affinity);
    add_list_error(a, msgs, &n, "preferredAntiAffinityTerms",
                   p->pref_anti_affinity, p->npref_anti_affinity);
    return aggregate(a, msgs, n);
}
