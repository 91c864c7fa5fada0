/*
 * selector_parse.c - the label selector string syntax of -l, as
 * staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Parse) reads
 * it: "k=v", "k==v", "k!=v", "k in (a,b)", "k notin (a,b)", "k", "!k",
 * joined by commas.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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

static int
read_set(struct kp_arena *a, struct lexer *l, struct kp_requirement *r)
{
    const char **vals = NULL;
    size_t n = 0, cap = 0;

    skip_ws(l);
    if (l->s[l->i] != '(')
        return -1;
    l->i++;
    /* as many values as the set holds: none is dropped */
    for (;;) {
        const char *v = read_name(a, l);

        skip_ws(l);
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            vals = kp_xrealloc(vals, cap * sizeof(*vals));
        }
        vals[n++] = v;
        if (l->s[l->i] == ',') {
            l->i++;
            continue;
        }
        if (l->s[l->i] == ')') {
            l->i++;
            break;
        }
        free(vals);
        return -1;
    }
    r->nvalues = n;
    r->values = kp_arena_memdup(a, vals, n * sizeof(char *));
    free(vals);
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

int
kp_selector_parse(struct kp_arena *a, const char *s, struct kp_selector *out,
                  struct kp_error *err)
{
    struct kp_requirement *reqs = NULL;
    struct lexer l = {s, 0};
    size_t n = 0, cap = 0;

    memset(out, 0, sizeof(*out));
    skip_ws(&l);
    /* as many requirements as the selector has */
    while (l.s[l.i]) {
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            reqs = kp_xrealloc(reqs, cap * sizeof(*reqs));
        }
        if (read_one(a, &l, &reqs[n]) < 0)
            goto bad;
        n++;
        skip_ws(&l);
        if (l.s[l.i] == ',') {
            l.i++;
            if (!l.s[l.i])
                goto bad;
        } else if (l.s[l.i]) {
            goto bad;
        }
    }
    out->nreq = n;
    out->reqs = kp_arena_memdup(a, reqs, n * sizeof(reqs[0]));
    free(reqs);
    return 0;
bad:
    free(reqs);
    return kp_errorf(err, KP_EXIT_USAGE, "invalid label selector '%s'", s);
}
