/*
 * selector_parse.c - the label selector string syntax of -l, as
 * staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Parse) reads
 * it: "k=v", "k==v", "k!=v", "k in (a,b)", "k notin (a,b)", "k", "!k",
 * joined by commas.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"

#include "selector_parse.h"

struct lexer {
    const char *s;
    size_t i;
};

static void
skip_ws(struct lexer *l)
{
    while (l->s[l->i] == ' ' || l->s[l->i] == '\t')
        l->i++;
}

static bool
is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.' ||
           c == '/';
}

static const char *
read_name(struct kp_arena *a, struct lexer *l)
{
    size_t start;

    skip_ws(l);
    start = l->i;
    while (is_name_char(l->s[l->i]))
        l->i++;
    return kp_arena_strndup(a, l->s + start, l->i - start);
}

static bool
word(struct lexer *l, const char *w)
{
    size_t n = strlen(w);

    skip_ws(l);
    if (strncmp(l->s + l->i, w, n) != 0 || is_name_char(l->s[l->i + n]))
        return false;
    l->i += n;
    return true;
}

/* a grown array of value pointers (kp_xrealloc'ed) */
struct vals {
    size_t n, cap;
    const char **v;
};

static void
vals_push(struct vals *vs, const char *v)
{
    if (vs->n == vs->cap) {
        vs->cap = vs->cap ? 2 * vs->cap : 8;
        vs->v = kp_xrealloc(vs->v, vs->cap * sizeof(*vs->v));
    }
    vs->v[vs->n++] = v;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * "(a,b)": as parseValues, "()" is the one value "" (selector.go's
 * ClosedParToken case), and the set is sorted and without repeats (the
 * sets.List NewRequirement is given); as many values as given.
 */
static int
read_set(struct kp_arena *a, struct lexer *l, struct kp_requirement *r)
{
    struct vals vs = {0, 0, NULL};
    size_t i, k;

    skip_ws(l);
    if (l->s[l->i] != '(')
        return -1;
    l->i++;
    for (;;) {
        const char *v = read_name(a, l);

        skip_ws(l);
        vals_push(&vs, v);
        if (l->s[l->i] == ',') {
            l->i++;
            continue;
        }
        if (l->s[l->i] == ')') {
            l->i++;
            break;
        }
        free(vs.v);
        return -1;
    }
    qsort(vs.v, vs.n, sizeof(*vs.v), cmp_str);
    for (i = k = 0; i < vs.n; i++)
        if (k == 0 || strcmp(vs.v[k - 1], vs.v[i]) != 0)
            vs.v[k++] = vs.v[i];
    r->nvalues = k;
    r->values = kp_arena_memdup(a, vs.v, k * sizeof(char *));
    free(vs.v);
    return 0;
}

static int
read_one(struct kp_arena *a, struct lexer *l, struct kp_requirement *r)
{
    skip_ws(l);
    memset(r, 0, sizeof(*r));
    if (l->s[l->i] == '!') {
        l->i++;
        r->key = read_name(a, l);
        r->op = KP_OP_DOES_NOT_EXIST;
        return r->key[0] ? 0 : -1;
    }
    r->key = read_name(a, l);
    if (!r->key[0])
        return -1;
    skip_ws(l);
    if (l->s[l->i] == ',' || l->s[l->i] == '\0') {
        r->op = KP_OP_EXISTS;
        return 0;
    }
    if (strncmp(l->s + l->i, "!=", 2) == 0 ||
        strncmp(l->s + l->i, "==", 2) == 0 || l->s[l->i] == '=') {
        r->op = l->s[l->i] == '!' ? KP_OP_NOT_IN : KP_OP_IN;
        l->i += l->s[l->i + 1] == '=' ? 2 : 1;
        r->nvalues = 1;
        r->values = kp_arena_alloc(a, sizeof(char *));
        r->values[0] = read_name(a, l);
        return 0;
    }
    if (word(l, "in")) {
        r->op = KP_OP_IN;
        return read_set(a, l, r);
    }
    if (word(l, "notin")) {
        r->op = KP_OP_NOT_IN;
        return read_set(a, l, r);
    }
    return -1;
}

/* (([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])? of IsValidLabelValue */
static bool
label_value_chars_ok(const char *v)
{
    size_t n = strlen(v), i;

    if (n == 0)
        return true;
    if (!isalnum((unsigned char)v[0]) || !isalnum((unsigned char)v[n - 1]))
        return false;
    for (i = 0; i < n; i++)
        if (!isalnum((unsigned char)v[i]) && v[i] != '-' && v[i] != '_' &&
            v[i] != '.')
            return false;
    return true;
}

/*
 * NewRequirement's validateLabelValue (apimachinery pkg/labels/
 * selector.go; validation.IsValidLabelValue): each value at most 63
 * characters of the label value syntax, with upstream's field error
 * ("values[0][key]: Invalid value: ...", several as an aggregate "[a, b]").
 */
static int
check_values(const struct kp_requirement *r, struct kp_error *err)
{
    struct kp_buf b;
    size_t i, bad = 0;

    kp_buf_init(&b);
    for (i = 0; i < r->nvalues; i++) {
        const char *v = r->values[i];
        bool too_long = strlen(v) > 63, chars = !label_value_chars_ok(v);

        if (!too_long && !chars)
            continue;
        kp_buf_printf(&b, "%svalues[%zu][%s]: Invalid value: \"%s\": ",
                      bad++ ? ", " : "", i, r->key, v);
        if (too_long)
            kp_buf_printf(&b, "must be no more than 63 characters%s",
                          chars ? "; " : "");
        if (chars)
            kp_buf_puts(&b, "a valid label must be an empty string or "
                        "consist of alphanumeric characters, '-', '_' or "
                        "'.', and must start and end with an alphanumeric "
                        "character (e.g. 'MyValue',  or 'my_value',  or "
                        "'12345', regex used for validation is "
                        "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
    }
    kp_buf_add(&b, "", 1);
    if (bad)
        kp_errorf(err, KP_EXIT_USAGE, bad > 1 ? "[%s]" : "%s", b.data);
    kp_buf_release(&b);
    return bad ? -1 : 0;
}

/*
 * Parse s.  As many requirements as given: upstream has no bound (the
 * 64 of an earlier version refused selectors kubectl takes).
 */
int
kp_selector_parse(struct kp_arena *a, const char *s, struct kp_selector *out,
                  struct kp_error *err)
{
    struct kp_requirement *reqs = NULL;
    struct lexer l = {s, 0};
    size_t n = 0, cap = 0;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    skip_ws(&l);
    while (l.s[l.i] && rc == 0) {
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            reqs = kp_xrealloc(reqs, cap * sizeof(*reqs));
        }
        if (read_one(a, &l, &reqs[n]) < 0) {
            rc = kp_errorf(err, KP_EXIT_USAGE,
                           "invalid label selector '%s'", s);
            break;
        }
        if (check_values(&reqs[n], err) < 0) {
            rc = -1;
            break;
        }
        n++;
        skip_ws(&l);
        if (l.s[l.i] == ',') {
            l.i++;
            if (!l.s[l.i])
                rc = kp_errorf(err, KP_EXIT_USAGE,
                               "invalid label selector '%s'", s);
        } else if (l.s[l.i]) {
            rc = kp_errorf(err, KP_EXIT_USAGE,
                           "invalid label selector '%s'", s);
        }
    }
    if (rc == 0) {
        out->nreq = n;
        out->reqs = n ? kp_arena_memdup(a, reqs, n * sizeof(reqs[0])) : NULL;
    }
    free(reqs);
    return rc;
}
