/*
 * jsonpath.c - client-go's util/jsonpath (parser.go, jsonpath.go) and the
 * comparisons of its forked text/template funcs, over cJSON.
 *
 * The parser follows parser.go's scanner step for step (its error texts,
 * its quirks: "[?(" filters split at the first operator character, union
 * members parsed as separate actions, quotes unquoted as Go string
 * literals).  Evaluation follows jsonpath.go: FindResults with its range/
 * end counters and the "last end node" fast-forward, evalArray's bounds
 * checks, evalFilter's one-value comparisons.  Values are cJSON nodes or
 * literals of the template (struct kp_jp_value).
 */
#include "jsonpath.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

enum jp_type {
    N_TEXT, N_LIST, N_FIELD, N_ARRAY, N_FILTER, N_INT, N_FLOAT, N_BOOL,
    N_WILDCARD, N_RECURSIVE, N_UNION, N_IDENT
};

struct jp_param {
    long long value;
    bool known, derived;
};

struct jp_node {
    enum jp_type type;
    char *text;                 /* TEXT, FIELD, IDENT, FILTER operator */
    long long ival;
    double fval;
    bool bval;
    struct jp_param params[3];
    size_t n, cap;
    struct jp_node **kids;      /* LIST, UNION (lists), FILTER (l, r) */
};

struct kp_jsonpath {
    char *name;
    struct jp_node *root;
    bool allow_missing;
    int begin_range, in_range, end_range;
    long last_end;              /* index in root of the last end, or -1 */
    long max_steps;             /* KP_JP_MAX_STEPS unless set */
};

struct parser {
    const char *in;
    size_t len, pos, start, width;
    struct jp_node *root;
    char *msg;
    size_t msglen;
};

#define JP_EOF (-1)

/* see find_from */
#define KP_JP_MAX_STEPS 20000000

static int
fail(char *msg, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- nodes ---- */

static struct jp_node *
node_new(enum jp_type t, const char *text, size_t n)
{
    struct jp_node *nd = kp_xmalloc(sizeof(*nd));

    memset(nd, 0, sizeof(*nd));
    nd->type = t;
    if (text) {
        nd->text = kp_xmalloc(n + 1);
        memcpy(nd->text, text, n);
        nd->text[n] = '\0';
    }
    return nd;
}

static void
node_append(struct jp_node *list, struct jp_node *kid)
{
    if (list->n == list->cap) {
        list->cap = list->cap ? 2 * list->cap : 4;
        list->kids = kp_xrealloc(list->kids, list->cap * sizeof(*list->kids));
    }
    list->kids[list->n++] = kid;
}

static void
node_free(struct jp_node *nd)
{
    size_t i;

    if (!nd)
        return;
    for (i = 0; i < nd->n; i++)
        node_free(nd->kids[i]);
    free(nd->kids);
    free(nd->text);
    free(nd);
}

/* ---- scanner (parser.go) ---- */

/* The next rune's value, UTF-8 decoded; p->width bytes. */
static long
p_next(struct parser *p)
{
    const unsigned char *s = (const unsigned char *)p->in + p->pos;
    size_t left = p->len - p->pos, w = 1;
    long r;

    if (p->pos >= p->len) {
        p->width = 0;
        return JP_EOF;
    }
    r = s[0];
    if (r >= 0xC0 && r < 0xE0 && left >= 2)
        r = ((r & 0x1F) << 6) | (s[1] & 0x3F), w = 2;
    else if (r >= 0xE0 && r < 0xF0 && left >= 3)
        r = ((r & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F), w = 3;
    else if (r >= 0xF0 && left >= 4)
        r = ((r & 0x07) << 18) | ((s[1] & 0x3F) << 12) |
            ((s[2] & 0x3F) << 6) | (s[3] & 0x3F), w = 4;
    p->width = w;
    p->pos += w;
    return r;
}

static void
p_backup(struct parser *p)
{
    p->pos -= p->width;
}

static long
p_peek(struct parser *p)
{
    long r = p_next(p);

    p_backup(p);
    return r;
}

static bool
has_prefix(const struct parser *p, const char *pre)
{
    size_t n = strlen(pre);

    return p->len - p->pos >= n && memcmp(p->in + p->pos, pre, n) == 0;
}

static bool
is_terminator(long r)
{
    return r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == JP_EOF ||
           r == '.' || r == ',' || r == '[' || r == ']' || r == '$' ||
           r == '@' || r == '{' || r == '}';
}

/* unicode.IsLetter/IsDigit: ASCII exactly, every non-ASCII rune a letter */
static bool
is_alnum(long r)
{
    return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') ||
           (r >= '0' && r <= '9') || r >= 0x80;
}

static bool
is_digit(long r)
{
    return r >= '0' && r <= '9';
}

static struct jp_node *
consume_node(struct parser *p, enum jp_type t)
{
    struct jp_node *nd = node_new(t, p->in + p->start, p->pos - p->start);

    p->start = p->pos;
    return nd;
}

static void
consume(struct parser *p)
{
    p->start = p->pos;
}

static struct jp_node *parse_string(const char *text, size_t len,
                                    char *msg, size_t msglen);

/* parseAction: text parsed as "{text}", its first list returned. */
static struct jp_node *
parse_action(const char *text, size_t len, char *msg, size_t msglen)
{
    char *t = kp_xmalloc(len + 3);
    struct jp_node *root, *list;

    t[0] = '{';
    memcpy(t + 1, text, len);
    t[len + 1] = '}';
    t[len + 2] = '\0';
    root = parse_string(t, len + 2, msg, msglen);
    free(t);
    if (!root)
        return NULL;
    list = root->kids[0];
    root->kids[0] = NULL;
    node_free(root);
    return list;
}

static int
go_atoi(const char *s, size_t n, long long *out)
{
    char buf[32];
    char *end;
    size_t i = 0;

    if (n == 0 || n >= sizeof(buf))
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (buf[0] == '+' || buf[0] == '-')
        i = 1;
    if (!buf[i])
        return -1;
    for (; buf[i]; i++)
        if (!is_digit(buf[i]))
            return -1;
    errno = 0;
    *out = strtoll(buf, &end, 10);
    return errno ? -1 : 0;
}

static int
parse_number(struct parser *p, struct jp_node *cur)
{
    long r = p_peek(p);
    long long i;
    struct jp_node *nd;
    char buf[64], *end;
    size_t n;

    if (r == '+' || r == '-')
        p_next(p);
    for (;;) {
        r = p_next(p);
        if (r != '.' && !is_digit(r)) {
            p_backup(p);
            break;
        }
    }
    n = p->pos - p->start;
    nd = consume_node(p, N_INT);
    if (go_atoi(nd->text, n, &i) == 0) {
        nd->ival = i;
        node_append(cur, nd);
        return 0;
    }
    nd->type = N_FLOAT;
    if (n < sizeof(buf) && n > 0) {
        memcpy(buf, nd->text, n + 1);
        errno = 0;
        nd->fval = strtod(buf, &end);
        if (!*end && end != buf && strcmp(buf, "+") && strcmp(buf, "-")) {
            node_append(cur, nd);
            return 0;
        }
    }
    fail(p->msg, p->msglen, "cannot parse number %s", nd->text);
    node_free(nd);
    return -1;
}

static int
parse_identifier(struct parser *p, struct jp_node *cur)
{
    struct jp_node *nd;

    for (;;) {
        if (is_terminator(p_next(p))) {
            p_backup(p);
            break;
        }
    }
    nd = consume_node(p, N_IDENT);
    if (strcmp(nd->text, "true") == 0 || strcmp(nd->text, "false") == 0) {
        nd->type = N_BOOL;
        nd->bval = nd->text[0] == 't';
    }
    node_append(cur, nd);
    return 0;
}

static int
parse_field(struct parser *p, struct jp_node *cur)
{
    struct jp_node *nd;
    size_t i, j;

    consume(p);
    for (;;) {
        long r = p_next(p);

        if (r == '\\') {
            p_next(p);
        } else if (is_terminator(r)) {
            p_backup(p);
            break;
        }
    }
    nd = consume_node(p, N_FIELD);
    if (strcmp(nd->text, "*") == 0) {
        nd->type = N_WILDCARD;
    } else {
        for (i = j = 0; nd->text[i]; i++)
            if (nd->text[i] != '\\')
                nd->text[j++] = nd->text[i];
        nd->text[j] = '\0';
    }
    node_append(cur, nd);
    return 0;
}

static int
parse_recursive(struct parser *p, struct jp_node *cur)
{
    if (cur->n && cur->kids[cur->n - 1]->type == N_RECURSIVE)
        return fail(p->msg, p->msglen, "invalid multiple recursive descent");
    p->pos += 2;
    consume(p);
    node_append(cur, node_new(N_RECURSIVE, NULL, 0));
    if (is_alnum(p_peek(p)))
        return parse_field(p, cur);
    return 0;
}

/* ---- quotes: strconv.UnquoteChar with ' allowed as the quote ---- */

static int
hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void
put_rune(struct kp_buf *b, unsigned long r)
{
    char u[4];

    if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF))
        r = 0xFFFD;
    if (r < 0x80) {
        u[0] = (char)r;
        kp_buf_add(b, u, 1);
    } else if (r < 0x800) {
        u[0] = (char)(0xC0 | (r >> 6));
        u[1] = (char)(0x80 | (r & 0x3F));
        kp_buf_add(b, u, 2);
    } else if (r < 0x10000) {
        u[0] = (char)(0xE0 | (r >> 12));
        u[1] = (char)(0x80 | ((r >> 6) & 0x3F));
        u[2] = (char)(0x80 | (r & 0x3F));
        kp_buf_add(b, u, 3);
    } else {
        u[0] = (char)(0xF0 | (r >> 18));
        u[1] = (char)(0x80 | ((r >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((r >> 6) & 0x3F));
        u[3] = (char)(0x80 | (r & 0x3F));
        kp_buf_add(b, u, 4);
    }
}

/* One escape after the backslash at s[0]; bytes used, or 0: bad. */
static size_t
unquote_escape(const char *s, size_t n, char quote, struct kp_buf *b)
{
    static const char from[] = "abfnrtv\\", to[] = "\a\b\f\n\r\t\v\\";
    const char *k;
    size_t digits, i;
    unsigned long v = 0;

    if (n < 2)
        return 0;
    k = strchr(from, s[1]);
    if (k && s[1]) {
        kp_buf_add(b, &to[k - from], 1);
        return 2;
    }
    if (s[1] == '\'' || s[1] == '"') {
        if (s[1] != quote)
            return 0;
        kp_buf_add(b, &s[1], 1);
        return 2;
    }
    if (s[1] >= '0' && s[1] <= '7') {
        if (n < 4)
            return 0;
        for (i = 1; i < 4; i++) {
            if (s[i] < '0' || s[i] > '7')
                return 0;
            v = v * 8 + (unsigned long)(s[i] - '0');
        }
        if (v > 255)
            return 0;
        kp_buf_add(b, (char[]){(char)v}, 1);
        return 4;
    }
    digits = s[1] == 'x' ? 2 : s[1] == 'u' ? 4 : s[1] == 'U' ? 8 : 0;
    if (!digits || n < 2 + digits)
        return 0;
    for (i = 0; i < digits; i++) {
        int h = hexval((unsigned char)s[2 + i]);

        if (h < 0)
            return 0;
        v = v * 16 + (unsigned long)h;
    }
    if (s[1] == 'x')
        kp_buf_add(b, (char[]){(char)v}, 1);
    else if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    else
        put_rune(b, v);
    return 2 + digits;
}

/* UnquoteExtend: 0 and the text in b, or -1 (ErrSyntax). */
static int
unquote_extend(const char *s, size_t n, struct kp_buf *b)
{
    char quote;
    size_t i, k;

    if (n < 2 || s[0] != s[n - 1] || (s[0] != '"' && s[0] != '\''))
        return -1;
    quote = s[0];
    s++;
    n -= 2;
    for (i = 0; i < n;) {
        if (s[i] == quote)
            return -1;
        if (s[i] != '\\') {
            kp_buf_add(b, &s[i++], 1);
            continue;
        }
        k = unquote_escape(s + i, n - i, quote, b);
        if (!k)
            return -1;
        i += k;
    }
    return 0;
}

static int
parse_quote(struct parser *p, struct jp_node *cur, long end)
{
    struct kp_buf b;
    struct jp_node *nd;
    long r;

    for (;;) {
        r = p_next(p);
        if (r == JP_EOF || r == '\n')
            return fail(p->msg, p->msglen, "unterminated quoted string");
        if (r == end && p->in[p->pos - 2] != '\\')
            break;
    }
    kp_buf_init(&b);
    if (unquote_extend(p->in + p->start, p->pos - p->start, &b) < 0) {
        kp_buf_release(&b);
        return fail(p->msg, p->msglen, "unquote string %.*s error invalid "
                    "syntax", (int)(p->pos - p->start), p->in + p->start);
    }
    consume(p);
    nd = node_new(N_TEXT, b.data ? b.data : "", b.len);
    kp_buf_release(&b);
    node_append(cur, nd);
    return 0;
}

/* sliceOperatorRex ^(-?\d*)(:-?\d*)?(:-?\d*)?$: the three groups */
static bool
slice_groups(const char *t, size_t n, size_t g[3][2])
{
    size_t i = 0, k;

    for (k = 0; k < 3; k++) {
        g[k][0] = g[k][1] = i;
        if (k > 0) {
            if (i >= n || t[i] != ':')
                continue;
            i++;
        }
        if (i < n && t[i] == '-')
            i++;
        while (i < n && is_digit(t[i]))
            i++;
        g[k][1] = i;
    }
    return i == n;
}

static int
parse_slice(struct parser *p, struct jp_node *cur, const char *t, size_t n)
{
    struct jp_node *nd;
    size_t g[3][2], k;

    if (!slice_groups(t, n, g))
        return fail(p->msg, p->msglen, "invalid array index %.*s", (int)n, t);
    nd = node_new(N_ARRAY, NULL, 0);
    for (k = 0; k < 3; k++) {
        const char *v = t + g[k][0];
        size_t len = g[k][1] - g[k][0];

        if (len) {
            if (k > 0)
                v++, len--;
            if (k > 0 && len == 0) {
                nd->params[k].known = false;
            } else {
                nd->params[k].known = true;
                if (go_atoi(v, len, &nd->params[k].value) < 0) {
                    node_free(nd);
                    return fail(p->msg, p->msglen, "array index %.*s is not "
                                "a number", (int)len, v);
                }
            }
        } else if (k == 1) {
            nd->params[1].known = true;
            nd->params[1].value = nd->params[0].value + 1;
            nd->params[1].derived = true;
        }
    }
    node_append(cur, nd);
    return 0;
}

static int
parse_union(struct parser *p, struct jp_node *cur, const char *t, size_t n)
{
    struct jp_node *u = node_new(N_UNION, NULL, 0);
    size_t a = 0, b;

    while (a <= n) {
        const char *c = memchr(t + a, ',', n - a);
        size_t e = c ? (size_t)(c - t) : n, s = a;
        char *item;
        struct jp_node *list;

        while (s < e && t[s] == ' ')
            s++;
        b = e;
        while (b > s && t[b - 1] == ' ')
            b--;
        item = kp_xmalloc(b - s + 3);
        item[0] = '[';
        memcpy(item + 1, t + s, b - s);
        item[b - s + 1] = ']';
        item[b - s + 2] = '\0';
        list = parse_action(item, b - s + 2, p->msg, p->msglen);
        free(item);
        if (!list) {
            node_free(u);
            return -1;
        }
        node_append(u, list);
        a = e + 1;
    }
    node_append(cur, u);
    return 0;
}

static int
parse_array(struct parser *p, struct jp_node *cur)
{
    const char *t;
    size_t n, i;
    struct jp_node *list;

    for (;;) {
        long r = p_next(p);

        if (r == JP_EOF || r == '\n')
            return fail(p->msg, p->msglen, "unterminated array");
        if (r == ']')
            break;
    }
    t = p->in + p->start + 1;
    n = p->pos - p->start - 2;
    consume(p);
    if (n == 1 && t[0] == '*')
        t = ":";
    if (memchr(t, ',', n))
        return parse_union(p, cur, t, n);
    if (n >= 2 && t[0] == '\'' && t[n - 1] == '\'' &&
        !memchr(t + 1, '\'', n - 2)) {
        char *f = kp_xmalloc(n);

        f[0] = '.';
        memcpy(f + 1, t + 1, n - 2);
        list = parse_action(f, n - 1, p->msg, p->msglen);
        free(f);
        if (!list)
            return -1;
        for (i = 0; i < list->n; i++) {
            node_append(cur, list->kids[i]);
            list->kids[i] = NULL;
        }
        node_free(list);
        return 0;
    }
    return parse_slice(p, cur, t, n);
}

static bool
is_op(char c)
{
    return c == '!' || c == '<' || c == '>' || c == '=';
}

static int
parse_filter_expr(struct parser *p, struct jp_node *cur, const char *t,
                  size_t n)
{
    struct jp_node *f = node_new(N_FILTER, NULL, 0), *l, *r;
    size_t i = 0, j;

    while (i < n && !is_op(t[i]))
        i++;
    j = i;
    while (j < n && is_op(t[j]))
        j++;
    if (j == n && j > i)
        j--;                    /* (.+?) needs one character */
    if (i == 0 || i == n || j == i) {
        f->text = kp_xstrdup("exists");
        l = parse_action(t, n, p->msg, p->msglen);
        r = l ? node_new(N_LIST, NULL, 0) : NULL;
    } else {
        f->text = kp_xmalloc(j - i + 1);
        memcpy(f->text, t + i, j - i);
        f->text[j - i] = '\0';
        l = parse_action(t, i, p->msg, p->msglen);
        r = l ? parse_action(t + j, n - j, p->msg, p->msglen) : NULL;
    }
    if (!l || !r) {
        node_free(l);
        node_free(f);
        return -1;
    }
    node_append(f, l);
    node_append(f, r);
    node_append(cur, f);
    return 0;
}

static int
parse_filter(struct parser *p, struct jp_node *cur)
{
    bool begin = false, end = false;
    long pair = 0, r;
    size_t n;

    p->pos += 3;
    consume(p);
    for (;;) {
        r = p_next(p);
        if (r == JP_EOF || r == '\n')
            return fail(p->msg, p->msglen, "unterminated filter");
        if (r == '"' || r == '\'') {
            if (!begin) {
                begin = true;
                pair = r;
                continue;
            }
            if (p->in[p->pos - 2] != '\\' && r == pair)
                end = true;
        } else if (r == ')' && begin == end) {
            break;
        }
    }
    if (p_next(p) != ']')
        return fail(p->msg, p->msglen, "unclosed array expect ]");
    n = p->pos - p->start - 2;
    r = parse_filter_expr(p, cur, p->in + p->start, n);
    consume(p);
    return (int)r;
}

static void
format_rune(char *out, size_t len, long r)
{
    bool printable = r >= 0x20 && r != 0x7F && !(r >= 0x80 && r < 0xA0);
    char u[5] = {0};

    if (r < 0x80) {
        u[0] = (char)r;
    } else {
        struct kp_buf b;

        kp_buf_init(&b);
        put_rune(&b, (unsigned long)r);
        memcpy(u, b.data, b.len < 4 ? b.len : 4);
        kp_buf_release(&b);
    }
    if (printable)
        snprintf(out, len, "U+%04lX '%s'", r, u);
    else
        snprintf(out, len, "U+%04lX", r);
}

/* Inside {}: 1 once the closing } is consumed, 0 to go on, -1 error. */
static int
parse_inside_step(struct parser *p, struct jp_node *cur)
{
    char ru[32];
    long r;

    if (has_prefix(p, "}")) {
        p->pos++;
        consume(p);
        return 1;
    }
    if (has_prefix(p, "[?("))
        return parse_filter(p, cur);
    if (has_prefix(p, ".."))
        return parse_recursive(p, cur);
    r = p_next(p);
    if (r == JP_EOF || r == '\r' || r == '\n')
        return fail(p->msg, p->msglen, "unclosed action");
    if (r == ' ' || r == '@' || r == '$') {
        consume(p);
        return 0;
    }
    if (r == '[')
        return parse_array(p, cur);
    if (r == '"' || r == '\'')
        return parse_quote(p, cur, r);
    if (r == '.')
        return parse_field(p, cur);
    if (r == '+' || r == '-' || is_digit(r)) {
        p_backup(p);
        return parse_number(p, cur);
    }
    if (is_alnum(r)) {
        p_backup(p);
        return parse_identifier(p, cur);
    }
    format_rune(ru, sizeof(ru), r);
    return fail(p->msg, p->msglen, "unrecognized character in action: %s",
                ru);
}

static struct jp_node *
parse_string(const char *text, size_t len, char *msg, size_t msglen)
{
    struct parser p = {text, len, 0, 0, 0, NULL, msg, msglen};
    struct jp_node *list;
    int rc;

    p.root = node_new(N_LIST, NULL, 0);
    for (;;) {
        if (has_prefix(&p, "{")) {
            if (p.pos > p.start)
                node_append(p.root, consume_node(&p, N_TEXT));
            p.pos++;
            consume(&p);
            list = node_new(N_LIST, NULL, 0);
            node_append(p.root, list);
            while ((rc = parse_inside_step(&p, list)) == 0)
                ;
            if (rc < 0) {
                node_free(p.root);
                return NULL;
            }
            continue;
        }
        if (p_next(&p) == JP_EOF)
            break;
    }
    if (p.pos > p.start)
        node_append(p.root, consume_node(&p, N_TEXT));
    return p.root;
}

struct kp_jsonpath *
kp_jsonpath_parse(const char *name, const char *text, char *msg,
                  size_t msglen)
{
    struct jp_node *root = parse_string(text, strlen(text), msg, msglen);
    struct kp_jsonpath *jp;

    if (!root)
        return NULL;
    jp = kp_xmalloc(sizeof(*jp));
    memset(jp, 0, sizeof(*jp));
    jp->name = kp_xstrdup(name);
    jp->root = root;
    jp->last_end = -1;
    jp->max_steps = KP_JP_MAX_STEPS;
    return jp;
}

void
kp_jsonpath_free(struct kp_jsonpath *jp)
{
    if (!jp)
        return;
    node_free(jp->root);
    free(jp->name);
    free(jp);
}

void
kp_jsonpath_allow_missing_keys(struct kp_jsonpath *jp, bool allow)
{
    jp->allow_missing = allow;
}

void
kp_jsonpath_set_max_steps(struct kp_jsonpath *jp, long max_steps)
{
    jp->max_steps = max_steps;
}

/* ---- values ---- */

static void
list_push(struct kp_jp_list *l, const struct kp_jp_value *v)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->v = kp_xrealloc(l->v, l->cap * sizeof(*l->v));
    }
    l->v[l->n++] = *v;
}

static void
list_release(struct kp_jp_list *l)
{
    free(l->v);
    memset(l, 0, sizeof(*l));
}

static struct kp_jp_value
json_value(const cJSON *j)
{
    struct kp_jp_value v = {KP_JP_JSON, j, NULL, 0, 0};

    return v;
}

static bool
is_nil(const struct kp_jp_value *v)
{
    return v->kind == KP_JP_JSON && cJSON_IsNull(v->json);
}

static bool
json_is_int(const cJSON *j)
{
    double d = j->valuedouble;

    return d == floor(d) && fabs(d) < 9.2e18;
}

/* Go's reflect kind names, for "%v is not array or slice". */
static const char *
type_name(const struct kp_jp_value *v)
{
    switch (v->kind) {
    case KP_JP_STRING: return "string";
    case KP_JP_INT: return "int";
    case KP_JP_UINT8: return "uint8";
    case KP_JP_FLOAT: return "float64";
    case KP_JP_BOOL: return "bool";
    case KP_JP_INVALID: return "<nil>";
    case KP_JP_JSON: break;
    }
    if (cJSON_IsObject(v->json))
        return "map[string]interface {}";
    if (cJSON_IsArray(v->json))
        return "[]interface {}";
    if (cJSON_IsString(v->json))
        return "string";
    if (cJSON_IsNumber(v->json))
        return json_is_int(v->json) ? "int64" : "float64";
    if (cJSON_IsBool(v->json))
        return "bool";
    return "interface {}";
}

/* Elements of a map, slice or string (wildcard, recursive descent). */
static void
children(const struct kp_jp_value *v, struct kp_jp_list *out)
{
    const cJSON *c;
    size_t i;

    if (v->kind == KP_JP_STRING) {
        for (i = 0; v->s[i]; i++) {
            struct kp_jp_value b = {KP_JP_UINT8, NULL, NULL,
                                    (unsigned char)v->s[i], 0};

            list_push(out, &b);
        }
        return;
    }
    if (v->kind != KP_JP_JSON)
        return;
    if (cJSON_IsObject(v->json) || cJSON_IsArray(v->json)) {
        for (c = v->json->child; c; c = c->next) {
            struct kp_jp_value cv = json_value(c);

            list_push(out, &cv);
        }
    } else if (cJSON_IsString(v->json)) {
        struct kp_jp_value s = {KP_JP_STRING, NULL, v->json->valuestring,
                                0, 0};

        children(&s, out);
    }
}

/* ---- evaluation (jsonpath.go) ---- */

struct eval {
    struct kp_jsonpath *jp;
    char *msg;
    size_t msglen;
    long steps;                 /* top-level nodes walked (range_step) */
};

static int walk(struct eval *e, const struct kp_jp_list *in,
                const struct jp_node *nd, struct kp_jp_list *out);

static int
eval_list(struct eval *e, const struct kp_jp_list *in,
          const struct jp_node *nd, struct kp_jp_list *out)
{
    struct kp_jp_list cur = {0, 0, NULL}, next;
    size_t i;

    for (i = 0; i < in->n; i++)
        list_push(&cur, &in->v[i]);
    for (i = 0; i < nd->n; i++) {
        memset(&next, 0, sizeof(next));
        if (walk(e, &cur, nd->kids[i], &next) < 0) {
            /* what upstream returns with the error: an exists filter
             * counts it */
            list_release(&cur);
            *out = next;
            return -1;
        }
        list_release(&cur);
        cur = next;
    }
    *out = cur;
    return 0;
}

static int
eval_field(struct eval *e, const struct kp_jp_list *in,
           const struct jp_node *nd, struct kp_jp_list *out)
{
    size_t i;

    if (in->n == 0)
        return 0;
    for (i = 0; i < in->n; i++) {
        const struct kp_jp_value *v = &in->v[i];
        const cJSON *r;

        if (is_nil(v) || v->kind != KP_JP_JSON || !cJSON_IsObject(v->json))
            continue;
        r = cJSON_GetObjectItemCaseSensitive(v->json, nd->text);
        if (r) {
            struct kp_jp_value rv = json_value(r);

            list_push(out, &rv);
        }
    }
    if (out->n == 0 && !e->jp->allow_missing)
        return fail(e->msg, e->msglen, "%s is not found", nd->text);
    return 0;
}

static long long
value_len(const struct kp_jp_value *v)
{
    return cJSON_GetArraySize(v->json);
}

static int
eval_array_one(struct eval *e, const struct kp_jp_value *v,
               const struct jp_node *nd, struct kp_jp_list *out, bool *stop)
{
    struct jp_param p[3];
    long long len = value_len(v), i, step = 1;
    const cJSON *c;

    memcpy(p, nd->params, sizeof(p));
    if (!p[0].known)
        p[0].value = 0;
    if (p[0].value < 0)
        p[0].value += len;
    if (!p[1].known)
        p[1].value = len;
    if (p[1].value < 0 || (p[1].value == 0 && p[1].derived))
        p[1].value += len;
    if (p[1].value == p[0].value) {
        *stop = true;
        return 0;
    }
    if (p[0].value >= len || p[0].value < 0)
        return fail(e->msg, e->msglen, "array index out of bounds: index "
                    "%lld, length %lld", p[0].value, len);
    if (p[1].value > len || p[1].value < 0)
        return fail(e->msg, e->msglen, "array index out of bounds: index "
                    "%lld, length %lld", p[1].value - 1, len);
    if (p[0].value > p[1].value)
        return fail(e->msg, e->msglen, "starting index %lld is greater than "
                    "ending index %lld", p[0].value, p[1].value);
    if (p[2].known) {
        if (p[2].value <= 0)
            return fail(e->msg, e->msglen, "step must be > 0");
        step = p[2].value;
    }
    for (i = 0, c = v->json->child; c && i < p[1].value; i++, c = c->next) {
        if (i >= p[0].value && (i - p[0].value) % step == 0) {
            struct kp_jp_value cv = json_value(c);

            list_push(out, &cv);
        }
    }
    return 0;
}

static int
eval_array(struct eval *e, const struct kp_jp_list *in,
           const struct jp_node *nd, struct kp_jp_list *out)
{
    bool stop = false;
    size_t i;

    for (i = 0; i < in->n && !stop; i++) {
        const struct kp_jp_value *v = &in->v[i];

        if (is_nil(v))
            continue;
        if (v->kind != KP_JP_JSON || !cJSON_IsArray(v->json))
            return fail(e->msg, e->msglen, "%s is not array or slice",
                        type_name(v));
        if (eval_array_one(e, v, nd, out, &stop) < 0)
            return -1;
    }
    return 0;
}

static int
eval_recursive(struct eval *e, const struct kp_jp_list *in,
               struct kp_jp_list *out)
{
    size_t i;

    for (i = 0; i < in->n; i++) {
        struct kp_jp_list kids = {0, 0, NULL};
        int rc = 0;

        if (is_nil(&in->v[i]))
            continue;
        children(&in->v[i], &kids);
        if (kids.n) {
            list_push(out, &in->v[i]);
            rc = eval_recursive(e, &kids, out);
        }
        list_release(&kids);
        if (rc < 0)
            return -1;
    }
    return 0;
}

enum basic_kind { K_BAD, K_BOOL, K_INT, K_UINT, K_FLOAT, K_STRING };

static enum basic_kind
basic_kind(const struct kp_jp_value *v, long long *i, double *f,
           const char **s)
{
    switch (v->kind) {
    case KP_JP_STRING: *s = v->s; return K_STRING;
    case KP_JP_INT: *i = v->i; return K_INT;
    case KP_JP_UINT8: *i = v->i; return K_UINT;
    case KP_JP_FLOAT: *f = v->f; return K_FLOAT;
    case KP_JP_BOOL: *i = v->i; return K_BOOL;
    case KP_JP_INVALID: return K_BAD;
    case KP_JP_JSON: break;
    }
    if (cJSON_IsString(v->json)) {
        *s = v->json->valuestring;
        return K_STRING;
    }
    if (cJSON_IsBool(v->json)) {
        *i = cJSON_IsTrue(v->json);
        return K_BOOL;
    }
    if (cJSON_IsNumber(v->json)) {
        *f = v->json->valuedouble;
        *i = (long long)*f;
        return json_is_int(v->json) ? K_INT : K_FLOAT;
    }
    return K_BAD;
}

#define ERR_BAD_TYPE "invalid type for comparison"
#define ERR_BAD_CMP "incompatible types for comparison"

/* template.Less / Equal: -1 error, else cmp <0, 0, >0 in *c. */
static int
compare(struct eval *e, const struct kp_jp_value *a,
        const struct kp_jp_value *b, bool equality, int *c)
{
    long long ia = 0, ib = 0;
    double fa = 0, fb = 0;
    const char *sa = NULL, *sb = NULL;
    enum basic_kind ka = basic_kind(a, &ia, &fa, &sa);
    enum basic_kind kb = basic_kind(b, &ib, &fb, &sb);

    if (ka == K_BAD || kb == K_BAD)
        return fail(e->msg, e->msglen, ERR_BAD_TYPE);
    if (ka != kb) {
        if (!((ka == K_INT && kb == K_UINT) || (ka == K_UINT && kb == K_INT)))
            return fail(e->msg, e->msglen, ERR_BAD_CMP);
    } else if (ka == K_BOOL && !equality) {
        return fail(e->msg, e->msglen, ERR_BAD_TYPE);
    }
    if (ka == K_STRING)
        *c = strcmp(sa, sb);
    else if (ka == K_FLOAT)
        *c = fa < fb ? -1 : fa > fb;
    else
        *c = ia < ib ? -1 : ia > ib;
    return 0;
}

static int
filter_pass(struct eval *e, const char *op, const struct kp_jp_value *l,
            const struct kp_jp_value *r, bool *pass)
{
    bool eq_op = strcmp(op, "==") == 0 || strcmp(op, "!=") == 0;
    int c, c2;

    if (!eq_op && strcmp(op, "<") && strcmp(op, ">") && strcmp(op, "<=") &&
        strcmp(op, ">="))
        return fail(e->msg, e->msglen, "unrecognized filter operator %s",
                    op);
    /* LessEqual/Greater call Less, then Equal */
    if (compare(e, l, r, eq_op, &c) < 0)
        return -1;
    if ((strcmp(op, "<=") == 0 || strcmp(op, ">") == 0) && c >= 0 &&
        compare(e, l, r, true, &c2) < 0)
        return -1;
    if (strcmp(op, "==") == 0)
        *pass = c == 0;
    else if (strcmp(op, "!=") == 0)
        *pass = c != 0;
    else if (strcmp(op, "<") == 0)
        *pass = c < 0;
    else if (strcmp(op, ">") == 0)
        *pass = c > 0;
    else if (strcmp(op, "<=") == 0)
        *pass = c <= 0;
    else
        *pass = c >= 0;
    return 0;
}

/* One side of a comparison: exactly one value, or skip (0). */
static int
one_side(struct eval *e, const struct kp_jp_value *item,
         const struct jp_node *side, struct kp_jp_value *v, bool *skip)
{
    struct kp_jp_list in = {1, 1, (struct kp_jp_value *)item}, res;
    int rc;

    memset(&res, 0, sizeof(res));
    rc = eval_list(e, &in, side, &res);
    if (rc == 0 && res.n > 1)
        rc = fail(e->msg, e->msglen, "can only compare one element at a "
                  "time");
    *skip = res.n == 0;
    if (res.n)
        *v = res.v[0];
    list_release(&res);
    return rc;
}



static int
not_filterable(struct eval *e, const struct kp_jp_value *v)
{
    struct kp_buf b;

    kp_buf_init(&b);
    kp_jp_sprint(&b, v);
    fail(e->msg, e->msglen, "%.*s is not array or slice and cannot be "
         "filtered", (int)(b.len > 200 ? 200 : b.len), b.data ? b.data : "");
    kp_buf_release(&b);
    return -1;
}

static int
filter_item(struct eval *e, const struct jp_node *nd,
            const struct kp_jp_value *item, bool *pass)
{
    struct kp_jp_value l, r;
    bool skip;

    *pass = false;
    if (strcmp(nd->text, "exists") == 0) {
        struct kp_jp_list in = {1, 1, (struct kp_jp_value *)item}, res;
        char keep[512];

        memset(&res, 0, sizeof(res));
        memcpy(keep, e->msg, e->msglen < 512 ? e->msglen : 512);
        eval_list(e, &in, nd->kids[0], &res);
        memcpy(e->msg, keep, e->msglen < 512 ? e->msglen : 512);
        *pass = res.n > 0;
        list_release(&res);
        return 0;
    }
    if (one_side(e, item, nd->kids[0], &l, &skip) < 0)
        return -1;
    if (skip)
        return 0;
    if (one_side(e, item, nd->kids[1], &r, &skip) < 0)
        return -1;
    if (skip)
        return 0;
    return filter_pass(e, nd->text, &l, &r, pass);
}

static int
eval_filter(struct eval *e, const struct kp_jp_list *in,
            const struct jp_node *nd, struct kp_jp_list *out)
{
    size_t i;
    const cJSON *c;

    for (i = 0; i < in->n; i++) {
        const struct kp_jp_value *v = &in->v[i];

        if (v->kind != KP_JP_JSON || !cJSON_IsArray(v->json))
            return not_filterable(e, v);
        for (c = v->json->child; c; c = c->next) {
            struct kp_jp_value item = json_value(c);
            bool pass;

            if (filter_item(e, nd, &item, &pass) < 0)
                return -1;
            if (pass)
                list_push(out, &item);
        }
    }
    return 0;
}

static int
eval_identifier(struct eval *e, const struct kp_jp_list *in,
                const struct jp_node *nd, struct kp_jp_list *out)
{
    size_t i;

    if (strcmp(nd->text, "range") == 0) {
        e->jp->begin_range++;
        for (i = 0; i < in->n; i++)
            list_push(out, &in->v[i]);
        return 0;
    }
    if (strcmp(nd->text, "end") == 0) {
        if (e->jp->in_range > 0) {
            e->jp->end_range++;
            return 0;
        }
        return fail(e->msg, e->msglen, "not in range, nothing to end");
    }
    return fail(e->msg, e->msglen, "unrecognized identifier %s", nd->text);
}

static int walk_node(struct eval *e, const struct kp_jp_list *in,
                     const struct jp_node *nd, struct kp_jp_list *out);

/*
 * walk: on an error, evalArray, evalUnion, evalFilter and an unknown
 * identifier hand back their input with it, the others what they found.
 */
static int
walk(struct eval *e, const struct kp_jp_list *in, const struct jp_node *nd,
     struct kp_jp_list *out)
{
    size_t i;

    if (walk_node(e, in, nd, out) == 0)
        return 0;
    if (nd->type == N_ARRAY || nd->type == N_UNION || nd->type == N_FILTER ||
        (nd->type == N_IDENT && strcmp(nd->text, "end") != 0)) {
        out->n = 0;
        for (i = 0; i < in->n; i++)
            list_push(out, &in->v[i]);
    }
    return -1;
}

static int
walk_node(struct eval *e, const struct kp_jp_list *in,
          const struct jp_node *nd, struct kp_jp_list *out)
{
    struct kp_jp_value lit = {KP_JP_INVALID, NULL, NULL, 0, 0};
    size_t i;

    switch (nd->type) {
    case N_LIST:
        return eval_list(e, in, nd, out);
    case N_TEXT:
        lit.kind = KP_JP_STRING;
        lit.s = nd->text;
        list_push(out, &lit);
        return 0;
    case N_FIELD:
        return eval_field(e, in, nd, out);
    case N_ARRAY:
        return eval_array(e, in, nd, out);
    case N_FILTER:
        return eval_filter(e, in, nd, out);
    case N_INT:
    case N_FLOAT:
    case N_BOOL:
        lit.kind = nd->type == N_INT ? KP_JP_INT : nd->type == N_FLOAT ?
                   KP_JP_FLOAT : KP_JP_BOOL;
        lit.i = nd->type == N_BOOL ? nd->bval : nd->ival;
        lit.f = nd->fval;
        for (i = 0; i < in->n; i++)
            list_push(out, &lit);
        return 0;
    case N_WILDCARD:
        for (i = 0; i < in->n; i++)
            if (!is_nil(&in->v[i]))
                children(&in->v[i], out);
        return 0;
    case N_RECURSIVE:
        return eval_recursive(e, in, out);
    case N_UNION:
        for (i = 0; i < nd->n; i++) {
            struct kp_jp_list t = {0, 0, NULL};
            size_t k;

            if (eval_list(e, in, nd->kids[i], &t) < 0) {
                list_release(&t);
                return -1;
            }
            for (k = 0; k < t.n; k++)
                list_push(out, &t.v[k]);
            list_release(&t);
        }
        return 0;
    case N_IDENT:
        return eval_identifier(e, in, nd, out);
    }
    return 0;
}

static void
results_push(struct kp_jp_results *r, struct kp_jp_list *l)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 8;
        r->lists = kp_xrealloc(r->lists, r->cap * sizeof(*r->lists));
    }
    r->lists[r->n++] = *l;
    memset(l, 0, sizeof(*l));
}

void
kp_jp_results_release(struct kp_jp_results *r)
{
    size_t i;

    for (i = 0; i < r->n; i++)
        list_release(&r->lists[i]);
    free(r->lists);
    memset(r, 0, sizeof(*r));
}

/*
 * FindResults without recursion.  Upstream calls itself once per value of
 * a {range}, for the nodes after it; nested ranges, or ranges without
 * their {end}, then nest as deep as the template has ranges, and 50,000
 * of them overflowed the C stack.  Here each of those calls is a frame of
 * an explicit stack: what it walks (data, node index) and, while a range
 * at its node runs, the range's values and the one being visited.
 *
 * A {range} without its {end} runs the rest of the template once per
 * value and then, as upstream (no last end node to fast-forward to),
 * goes on with the node after it: each such range doubles the work.
 * KP_JP_MAX_STEPS bounds the nodes walked so that a template does not
 * run for ever; kubectl has no such bound (it would run, or hold the
 * goroutine's stack, until killed).
 */
struct range_frame {
    struct kp_jp_value data;
    size_t i;                   /* the node walked next, or the range's */
    bool ranging;               /* a range at node i is running */
    bool none;                  /* ... over no value: its results dropped */
    size_t k;                   /* the range's value being visited */
    struct kp_jp_list res;      /* the range's values */
    struct kp_jp_results discard;
    long out;                   /* where results go: -1 the caller's, or
                                 * the discard of frame `out` */
};

struct range_stack {
    size_t n, cap;
    struct range_frame *f;
};

static void
range_push(struct range_stack *st, const struct kp_jp_value *data,
           size_t start, long out)
{
    struct range_frame *f;

    if (st->n == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 16;
        st->f = kp_xrealloc(st->f, st->cap * sizeof(*st->f));
    }
    f = &st->f[st->n++];
    memset(f, 0, sizeof(*f));
    f->data = *data;
    f->i = start;
    f->out = out;
}

static void
range_pop(struct range_stack *st)
{
    struct range_frame *f = &st->f[--st->n];

    list_release(&f->res);
    kp_jp_results_release(&f->discard);
}

/* The range at top's node i has run for every value: fast-forward. */
static void
range_done(struct kp_jsonpath *jp, struct range_frame *f)
{
    jp->in_range--;
    /* upstream looks for the last end node among the nodes after i */
    if (jp->last_end > (long)f->i)
        f->i = (size_t)jp->last_end;
    list_release(&f->res);
    kp_jp_results_release(&f->discard);
    f->ranging = f->none = false;
    f->i++;
}

/* A range begins at top's node i over res: its first value's frame. */
static void
range_begin(struct kp_jsonpath *jp, struct range_stack *st,
            struct kp_jp_list *res)
{
    static const struct kp_jp_value none = {KP_JP_INVALID, NULL, NULL, 0, 0};
    size_t top = st->n - 1;
    struct range_frame *f = &st->f[top];
    long out = f->out;
    size_t start = f->i + 1;

    jp->begin_range--;
    jp->in_range++;
    f->res = *res;
    memset(res, 0, sizeof(*res));
    f->ranging = true;
    f->k = 0;
    f->none = f->res.n == 0;
    if (f->none)
        range_push(st, &none, start, (long)top);
    else
        range_push(st, &f->res.v[0], start, out);
}

/* The next range value of the top frame, or the range's end. */
static void
range_next(struct kp_jsonpath *jp, struct range_stack *st)
{
    size_t top = st->n - 1;
    struct range_frame *f = &st->f[top];

    f->k++;
    if (!f->none && f->k < f->res.n) {
        range_push(st, &f->res.v[f->k], f->i + 1, f->out);
        return;
    }
    range_done(jp, f);
}

static struct kp_jp_results *
range_out(struct range_stack *st, struct kp_jp_results *full, long out)
{
    return out < 0 ? full : &st->f[out].discard;
}

/* One node of the top frame: 0 to go on, -1 error. */
static int
range_step(struct eval *e, struct range_stack *st, struct kp_jp_results *full)
{
    struct kp_jsonpath *jp = e->jp;
    struct range_frame *f = &st->f[st->n - 1];
    struct kp_jp_list cur = {1, 1, &f->data}, res = {0, 0, NULL};

    if (++e->steps > jp->max_steps)
        return fail(e->msg, e->msglen, "template walks more than %ld nodes "
                    "(a {range} without its {end}?)", jp->max_steps);
    if (walk(e, &cur, jp->root->kids[f->i], &res) < 0) {
        list_release(&res);
        return -1;
    }
    if (jp->end_range > 0 && jp->end_range <= jp->in_range) {
        jp->end_range--;
        jp->last_end = (long)f->i;
        list_release(&res);
        range_pop(st);
        return 0;
    }
    if (jp->begin_range > 0) {
        range_begin(jp, st, &res);
        return 0;
    }
    results_push(range_out(st, full, f->out), &res);
    f->i++;
    return 0;
}

static int
find_from(struct eval *e, const struct kp_jp_value *data,
          struct kp_jp_results *full)
{
    struct range_stack st = {0, 0, NULL};
    int rc = 0;

    range_push(&st, data, 0, -1);
    while (st.n && rc == 0) {
        struct range_frame *f = &st.f[st.n - 1];

        if (f->ranging)
            range_next(e->jp, &st);
        else if (f->i >= e->jp->root->n)
            range_pop(&st);
        else
            rc = range_step(e, &st, full);
    }
    while (st.n)
        range_pop(&st);
    free(st.f);
    return rc;
}

int
kp_jsonpath_find(struct kp_jsonpath *jp, const cJSON *data,
                 struct kp_jp_results *r, char *msg, size_t msglen)
{
    struct eval e = {jp, msg, msglen, 0};
    struct kp_jp_value root = json_value(data);

    memset(r, 0, sizeof(*r));
    jp->begin_range = jp->in_range = jp->end_range = 0;
    if (find_from(&e, &root, r) < 0) {
        kp_jp_results_release(r);
        return -1;
    }
    return 0;
}

/* ---- printing ---- */

/* Go's %v of a float64: shortest digits, %e below 1e-4 and from 1e6 */
void
kp_jp_format_float(struct kp_buf *b, double f)
{
    char buf[64];
    int p;
    long exp;

    if (isnan(f)) {
        kp_buf_puts(b, "NaN");
        return;
    }
    if (isinf(f)) {
        kp_buf_puts(b, f > 0 ? "+Inf" : "-Inf");
        return;
    }
    for (p = 1; p < 17; p++) {
        snprintf(buf, sizeof(buf), "%.*e", p - 1, f);
        if (strtod(buf, NULL) == f)
            break;
    }
    snprintf(buf, sizeof(buf), "%.*e", p - 1, f);
    exp = strtol(strchr(buf, 'e') + 1, NULL, 10);
    if (exp < -4 || exp >= 6) {
        kp_buf_puts(b, buf);
        return;
    }
    snprintf(buf, sizeof(buf), "%.*f", p - 1 - (int)exp > 0 ?
             p - 1 - (int)exp : 0, f);
    kp_buf_puts(b, buf);
}

static int
key_cmp(const void *a, const void *b)
{
    const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;

    return strcmp(x->string, y->string);
}

/* An object's members sorted by key, as Go walks a map for printing. */
static const cJSON **
sorted_members(const cJSON *j, size_t *n)
{
    const cJSON **m, *c;
    size_t k = 0;

    *n = (size_t)cJSON_GetArraySize(j);
    m = kp_xmalloc((*n ? *n : 1) * sizeof(*m));
    for (c = j->child; c; c = c->next)
        m[k++] = c;
    qsort(m, *n, sizeof(*m), key_cmp);
    return m;
}

static void
go_json_float(struct kp_buf *b, double f)
{
    double a = fabs(f);
    char buf[64], *e;
    int p;

    if (a != 0 && (a < 1e-6 || a >= 1e21)) {
        for (p = 1; p < 17; p++) {
            snprintf(buf, sizeof(buf), "%.*e", p - 1, f);
            if (strtod(buf, NULL) == f)
                break;
        }
        snprintf(buf, sizeof(buf), "%.*e", p - 1, f);
        e = strchr(buf, 'e');
        /* e-07 -> e-7 */
        if (e && (e[1] == '-' || e[1] == '+') && e[2] == '0' && e[3])
            memmove(e + 2, e + 3, strlen(e + 3) + 1);
        kp_buf_puts(b, buf);
        return;
    }
    for (p = 1; p < 17; p++) {
        snprintf(buf, sizeof(buf), "%.*e", p - 1, f);
        if (strtod(buf, NULL) == f)
            break;
    }
    snprintf(buf, sizeof(buf), "%.*e", p - 1, f);
    p = p - 1 - (int)strtol(strchr(buf, 'e') + 1, NULL, 10);
    snprintf(buf, sizeof(buf), "%.*f", p > 0 ? p : 0, f);
    kp_buf_puts(b, buf);
}

static void
go_number(struct kp_buf *b, const cJSON *j, bool json)
{
    if (json_is_int(j))
        kp_buf_printf(b, "%lld", (long long)j->valuedouble);
    else if (json)
        go_json_float(b, j->valuedouble);
    else
        kp_jp_format_float(b, j->valuedouble);
}

/* encoding/json's string: HTML-safe, invalid UTF-8 as U+FFFD */
static void
go_json_string(struct kp_buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;

    kp_buf_add(b, "\"", 1);
    while (*u) {
        unsigned char c = *u;

        if (c == '"' || c == '\\') {
            kp_buf_add(b, "\\", 1);
            kp_buf_add(b, (const char *)u, 1);
        } else if (c == '\n') {
            kp_buf_puts(b, "\\n");
        } else if (c == '\r') {
            kp_buf_puts(b, "\\r");
        } else if (c == '\t') {
            kp_buf_puts(b, "\\t");
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};

            kp_buf_add(b, e, 6);
        } else if (c == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 ||
                                                 u[2] == 0xA9)) {
            kp_buf_puts(b, u[2] == 0xA8 ? "\\u2028" : "\\u2029");
            u += 3;
            continue;
        } else {
            kp_buf_add(b, (const char *)u, 1);
        }
        u++;
    }
    kp_buf_add(b, "\"", 1);
}

void
kp_jp_marshal(struct kp_buf *b, const cJSON *j)
{
    const cJSON **m, *c;
    size_t n, i;

    if (cJSON_IsObject(j)) {
        m = sorted_members(j, &n);
        kp_buf_add(b, "{", 1);
        for (i = 0; i < n; i++) {
            if (i)
                kp_buf_add(b, ",", 1);
            go_json_string(b, m[i]->string);
            kp_buf_add(b, ":", 1);
            kp_jp_marshal(b, m[i]);
        }
        kp_buf_add(b, "}", 1);
        free(m);
    } else if (cJSON_IsArray(j)) {
        kp_buf_add(b, "[", 1);
        for (c = j->child; c; c = c->next) {
            kp_jp_marshal(b, c);
            if (c->next)
                kp_buf_add(b, ",", 1);
        }
        kp_buf_add(b, "]", 1);
    } else if (cJSON_IsString(j)) {
        go_json_string(b, j->valuestring);
    } else if (cJSON_IsNumber(j)) {
        go_number(b, j, true);
    } else if (cJSON_IsBool(j)) {
        kp_buf_puts(b, cJSON_IsTrue(j) ? "true" : "false");
    } else {
        kp_buf_puts(b, "null");
    }
}

/* fmt.Sprint of a decoded JSON value */
static void
sprint_json(struct kp_buf *b, const cJSON *j)
{
    const cJSON **m, *c;
    size_t n, i;

    if (cJSON_IsObject(j)) {
        m = sorted_members(j, &n);
        kp_buf_puts(b, "map[");
        for (i = 0; i < n; i++) {
            if (i)
                kp_buf_add(b, " ", 1);
            kp_buf_puts(b, m[i]->string);
            kp_buf_add(b, ":", 1);
            sprint_json(b, m[i]);
        }
        kp_buf_add(b, "]", 1);
        free(m);
    } else if (cJSON_IsArray(j)) {
        kp_buf_add(b, "[", 1);
        for (c = j->child; c; c = c->next) {
            sprint_json(b, c);
            if (c->next)
                kp_buf_add(b, " ", 1);
        }
        kp_buf_add(b, "]", 1);
    } else if (cJSON_IsString(j)) {
        kp_buf_puts(b, j->valuestring);
    } else if (cJSON_IsNumber(j)) {
        go_number(b, j, false);
    } else if (cJSON_IsBool(j)) {
        kp_buf_puts(b, cJSON_IsTrue(j) ? "true" : "false");
    } else {
        kp_buf_puts(b, "<nil>");
    }
}

void
kp_jp_sprint(struct kp_buf *b, const struct kp_jp_value *v)
{
    switch (v->kind) {
    case KP_JP_INVALID:
        kp_buf_puts(b, "<no value>");
        break;
    case KP_JP_JSON:
        sprint_json(b, v->json);
        break;
    case KP_JP_STRING:
        kp_buf_puts(b, v->s);
        break;
    case KP_JP_INT:
    case KP_JP_UINT8:
        kp_buf_printf(b, "%lld", v->i);
        break;
    case KP_JP_FLOAT:
        kp_jp_format_float(b, v->f);
        break;
    case KP_JP_BOOL:
        kp_buf_puts(b, v->i ? "true" : "false");
        break;
    }
}

/* PrintResults: maps and slices as JSON, the rest as text */
static void
print_results(struct kp_buf *out, const struct kp_jp_list *l)
{
    size_t i;

    for (i = 0; i < l->n; i++) {
        const struct kp_jp_value *v = &l->v[i];

        /*
         * a JSON null prints "null", as kubectl does since v1.29
         * (kubernetes/kubernetes PR #119883, "Fix: null jsonpath
         * serialization"; kubectl v1.32 prints it so), not fmt's <nil>
         */
        if (v->kind == KP_JP_JSON &&
            (cJSON_IsObject(v->json) || cJSON_IsArray(v->json) ||
             cJSON_IsNull(v->json)))
            kp_jp_marshal(out, v->json);
        else
            kp_jp_sprint(out, v);
        if (i + 1 < l->n)
            kp_buf_add(out, " ", 1);
    }
}

int
kp_jsonpath_execute(struct kp_jsonpath *jp, const cJSON *data,
                    struct kp_buf *out, char *msg, size_t msglen)
{
    struct kp_jp_results r;
    size_t i;

    if (kp_jsonpath_find(jp, data, &r, msg, msglen) < 0)
        return -1;
    for (i = 0; i < r.n; i++)
        print_results(out, &r.lists[i]);
    kp_jp_results_release(&r);
    return 0;
}

static bool
isdig(char c)
{
    return c >= '0' && c <= '9';
}

bool
kp_natural_less(const char *s1, const char *s2)
{
    size_t i1 = 0, i2 = 0, l1 = strlen(s1), l2 = strlen(s2);

    while (i1 < l1 && i2 < l2) {
        bool d1 = isdig(s1[i1]), d2 = isdig(s2[i2]);
        size_t nz1, nz2, n1, n2;
        int c;

        if (d1 != d2)
            return d1;
        if (!d1) {
            if (s1[i1] != s2[i2])
                return (unsigned char)s1[i1] < (unsigned char)s2[i2];
            i1++, i2++;
            continue;
        }
        while (i1 < l1 && s1[i1] == '0')
            i1++;
        while (i2 < l2 && s2[i2] == '0')
            i2++;
        nz1 = i1, nz2 = i2;
        while (i1 < l1 && isdig(s1[i1]))
            i1++;
        while (i2 < l2 && isdig(s2[i2]))
            i2++;
        n1 = i1 - nz1, n2 = i2 - nz2;
        if (n1 != n2)
            return n1 < n2;
        c = memcmp(s1 + nz1, s2 + nz2, n1);
        if (c)
            return c < 0;
        if (nz1 != nz2)
            return nz1 < nz2;
    }
    return l1 < l2;
}

static void
dump_node(const struct jp_node *nd, struct kp_buf *b)
{
    size_t i, k;

    if (b->len)
        kp_buf_puts(b, " | ");
    switch (nd->type) {
    case N_TEXT: kp_buf_printf(b, "text(%s)", nd->text); break;
    case N_LIST: kp_buf_puts(b, "list"); break;
    case N_FIELD: kp_buf_printf(b, "field(%s)", nd->text); break;
    case N_FILTER: kp_buf_printf(b, "filter(%s)", nd->text); break;
    case N_INT: kp_buf_printf(b, "int(%lld)", nd->ival); break;
    case N_FLOAT: kp_buf_puts(b, "float("); kp_jp_format_float(b, nd->fval);
        kp_buf_puts(b, ")"); break;
    case N_BOOL: kp_buf_printf(b, "bool(%d)", nd->bval); break;
    case N_WILDCARD: kp_buf_puts(b, "*"); break;
    case N_RECURSIVE: kp_buf_puts(b, ".."); break;
    case N_UNION: kp_buf_puts(b, "union"); break;
    case N_IDENT: kp_buf_printf(b, "ident(%s)", nd->text); break;
    case N_ARRAY:
        kp_buf_puts(b, "array(");
        for (k = 0; k < 3; k++) {
            if (!nd->params[k].known)
                kp_buf_puts(b, "_");
            else
                kp_buf_printf(b, "%lld%s", nd->params[k].value,
                              nd->params[k].derived ? "d" : "");
            kp_buf_puts(b, k < 2 ? "," : ")");
        }
        break;
    }
    for (i = 0; i < nd->n; i++)
        dump_node(nd->kids[i], b);
}

void
kp_jsonpath_dump(const struct kp_jsonpath *jp, struct kp_buf *b)
{
    size_t i;

    for (i = 0; i < jp->root->n; i++)
        dump_node(jp->root->kids[i], b);
}
