/*
 * json_stream.c - see json_stream.h.
 *
 * What client-go's pager reads a page for (the items, then
 * metadata.continue), done as the bytes come: a state machine for the
 * top-level object and, for values, a resumable scanner that only knows
 * strings (with escapes) and nesting depth.  An item's text is checked
 * with kp_json_scan_value() once complete; the small members are parsed
 * with cJSON.  Nothing but the item in progress and the small members is
 * kept, so a page costs the size of its largest item.
 */
#include "json_stream.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "json_util.h"

/* the items are at depth 2 of the page, as in the file loader */
#define MAX_NESTING 512
#define MAX_ITEM KP_MAX_OBJECT_BYTES
#define MAX_MEMBER ((size_t)1 << 20)
#define MAX_KEY 32

enum state {
    S_START,            /* before '{' */
    S_KEY_OR_END,       /* after '{': a member name or '}' */
    S_KEY_NEXT,         /* after ',': a member name */
    S_KEY,              /* inside a member name */
    S_COLON,
    S_VALUE,            /* before a member's value */
    S_MEMBER,           /* inside a member's value */
    S_AFTER_MEMBER,     /* ',' or '}' */
    S_ITEM_OR_END,      /* after "items": [ */
    S_ITEM_NEXT,        /* after ',' in items */
    S_ITEM,             /* inside an item */
    S_AFTER_ITEM,       /* ',' or ']' */
    S_DONE,             /* after the closing '}' */
    S_FAILED
};

enum member { M_OTHER, M_KIND, M_API_VERSION, M_METADATA, M_ITEMS };

/*
 * Where a value being scanned is: enough to resume at any byte.  open
 * has a bit per nesting level, set for '{' and clear for '[', so that a
 * closing bracket of the wrong type ends nothing.
 */
struct vscan {
    int depth;
    bool in_str, esc, scalar;
    unsigned char open[MAX_NESTING / 8 + 1];
};

struct growbuf {
    char *data;
    size_t len, cap;
};

struct kp_list_stream {
    const char *list_kind, *api_version;
    kp_list_item_fn fn;
    void *ctx;
    enum state state;
    size_t pos;                 /* bytes of the page consumed */
    struct vscan vs;
    char key[MAX_KEY + 1];
    size_t keylen;
    bool key_esc, key_long;
    enum member member;
    bool seen[M_ITEMS + 1];
    struct growbuf mbuf;        /* value of kind, apiVersion, metadata */
    struct growbuf ibuf;        /* the item in progress */
    size_t item_start;          /* its offset in the page */
    long nitems;
    size_t mlen;                /* bytes of the member value so far */
    size_t outside;             /* bytes of the page outside items */
    size_t ws_run;              /* white space bytes in a row */
    const struct kp_redact *redact;
    char *cont;
    char *rv;                   /* metadata.resourceVersion, or NULL */
    struct kp_error err;        /* sticky, once S_FAILED */
};

struct kp_list_stream *
kp_list_stream_new(const char *list_kind, const char *api_version,
                   kp_list_item_fn fn, void *ctx)
{
    struct kp_list_stream *ls = kp_xcalloc(1, sizeof(*ls));

    ls->list_kind = list_kind;
    ls->api_version = api_version;
    ls->fn = fn;
    ls->ctx = ctx;
    return ls;
}

void
kp_list_stream_set_redact(struct kp_list_stream *ls,
                          const struct kp_redact *r)
{
    ls->redact = r;
}

void
kp_list_stream_free(struct kp_list_stream *ls)
{
    if (!ls)
        return;
    free(ls->mbuf.data);
    free(ls->ibuf.data);
    free(ls->cont);
    free(ls->rv);
    free(ls);
}

void
kp_list_stream_reset(struct kp_list_stream *ls)
{
    ls->state = S_START;
    ls->pos = 0;
    memset(&ls->vs, 0, sizeof(ls->vs));
    ls->keylen = 0;
    ls->mlen = ls->ws_run = ls->outside = 0;
    memset(ls->seen, 0, sizeof(ls->seen));
    ls->mbuf.len = 0;
    ls->ibuf.len = 0;
    ls->nitems = 0;
    free(ls->cont);
    ls->cont = NULL;
    free(ls->rv);
    ls->rv = NULL;
    ls->err.msg[0] = '\0';
    /* a big item's buffer is not kept for the next page */
    if (ls->ibuf.cap > ((size_t)1 << 20)) {
        free(ls->ibuf.data);
        memset(&ls->ibuf, 0, sizeof(ls->ibuf));
    }
}

const char *
kp_list_stream_continue(const struct kp_list_stream *ls)
{
    return ls->cont;
}

const char *
kp_list_stream_resource_version(const struct kp_list_stream *ls)
{
    return ls->rv;
}

long
kp_list_stream_nitems(const struct kp_list_stream *ls)
{
    return ls->nitems;
}

/* ---- helpers ---------------------------------------------------------- */

static int
fail(struct kp_list_stream *ls, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct kp_list_stream *ls, const char *fmt, ...)
{
    va_list ap;

    char *p;

    va_start(ap, fmt);
    vsnprintf(ls->err.msg, sizeof(ls->err.msg), fmt, ap);
    va_end(ap);
    /* one line: what the page said is quoted as is */
    for (p = ls->err.msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            *p = '?';
    ls->err.exit_code = KP_EXIT_ERROR;
    ls->state = S_FAILED;
    return -1;
}

/* A syntax error at page offset at. */
static int
bad_syntax(struct kp_list_stream *ls, size_t at, const char *what)
{
    if (ls->state == S_ITEM || ls->state == S_ITEM_NEXT ||
        ls->state == S_AFTER_ITEM || ls->state == S_ITEM_OR_END)
        return fail(ls, "invalid JSON at byte %zu (in items[%ld]): %s", at,
                    ls->nitems, what);
    return fail(ls, "invalid JSON at byte %zu: %s", at, what);
}

static bool
is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static int
append(struct growbuf *b, const char *p, size_t n, size_t max)
{
    if (b->len + n > max)
        return -1;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;

        while (cap < b->len + n)
            cap *= 2;
        b->data = kp_xrealloc(b->data, cap);
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

static bool
scalar_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}

/* Start scanning a value whose first byte is c; -1 if none can start so. */
static int
vscan_start(struct vscan *v, char c)
{
    memset(v, 0, sizeof(*v));
    if (c == '"')
        v->in_str = true;
    else if (c == '{' || c == '[') {
        v->depth = 1;
        v->open[0] = c == '{';
    } else if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' ||
             c == 'n')
        v->scalar = true;
    else
        return -1;
    return 0;
}

/*
 * Scan p[0..n) of a value started by vscan_start (p[0] is the byte after
 * the first).  Returns 1 when the value ended, *used bytes into p (the
 * byte that ends a number or word is not part of it), 0 when it goes on
 * past p (*used = n), -1 with *what set and *used at the offending byte.
 */
static int
vscan_run(struct vscan *v, const char *p, size_t n, size_t *used,
          const char **what)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char c = p[i];

        if (v->in_str) {
            if (v->esc)
                v->esc = false;
            else if (c == '\\')
                v->esc = true;
            else if (c == '"') {
                v->in_str = false;
                if (v->depth == 0)
                    break;
            }
        } else if (v->scalar) {
            if (!scalar_char(c)) {
                *used = i;
                return 1;
            }
        } else if (c == '"') {
            v->in_str = true;
        } else if (c == '{' || c == '[') {
            unsigned char bit = (unsigned char)(1u << (v->depth % 8));

            if (v->depth >= MAX_NESTING) {
                *used = i;
                *what = "nesting too deep";
                return -1;
            }
            if (c == '{')
                v->open[v->depth / 8] |= bit;
            else
                v->open[v->depth / 8] &= (unsigned char)~bit;
            v->depth++;
        } else if (c == '}' || c == ']') {
            int d = v->depth - 1;
            bool brace = (v->open[d / 8] >> (d % 8)) & 1;

            if (brace != (c == '}')) {
                *used = i;
                *what = brace ? "expected '}'" : "expected ']'";
                return -1;
            }
            if (--v->depth == 0)
                break;
        }
    }
    if (i == n) {
        *used = n;
        return 0;
    }
    *used = i + 1;
    return 1;
}

/* ---- members ---------------------------------------------------------- */

static enum member
member_of(const struct kp_list_stream *ls)
{
    static const struct {
        const char *name;
        enum member m;
    } tab[] = {{"kind", M_KIND}, {"apiVersion", M_API_VERSION},
               {"metadata", M_METADATA}, {"items", M_ITEMS}};
    size_t i;

    if (ls->key_long)
        return M_OTHER;
    for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (strlen(tab[i].name) == ls->keylen &&
            memcmp(tab[i].name, ls->key, ls->keylen) == 0)
            return tab[i].m;
    return M_OTHER;
}

static int
check_string(struct kp_list_stream *ls, const cJSON *v, const char *name,
             const char *want)
{
    if (!cJSON_IsString(v))
        return fail(ls, "%s: expected a string", name);
    if (want && strcmp(v->valuestring, want) != 0) {
        char got[64];
        char *clean = kp_redact_dup(ls->redact, v->valuestring,
                                    strlen(v->valuestring), NULL);

        snprintf(got, sizeof(got), "%.60s", clean ? clean : v->valuestring);
        free(clean);
        return fail(ls, "%s is '%s', expected '%s'", name, got, want);
    }
    return 0;
}

static int
take_metadata(struct kp_list_stream *ls, const cJSON *md)
{
    const cJSON *c;
    struct kp_error e;

    if (!cJSON_IsObject(md))
        return fail(ls, "metadata: expected an object");
    if (kp_json_validate_at(md, 1, 64, NULL, &e) < 0)
        return fail(ls, "metadata.%s", e.msg);
    c = kp_json_get(md, "continue");
    if (c && !cJSON_IsString(c))
        return fail(ls, "metadata.continue: expected a string");
    if (c && c->valuestring[0])
        ls->cont = kp_xstrdup(c->valuestring);
    c = kp_json_get(md, "resourceVersion");
    if (c && !cJSON_IsString(c))
        return fail(ls, "metadata.resourceVersion: expected a string");
    if (c && c->valuestring[0] && strlen(c->valuestring) < 128)
        ls->rv = kp_xstrdup(c->valuestring);
    return 0;
}

/* A small member's value is complete in mbuf. */
static int
end_member(struct kp_list_stream *ls)
{
    cJSON *v = cJSON_ParseWithLength(ls->mbuf.data, ls->mbuf.len);
    int r = 0;

    if (!v)
        return fail(ls, "invalid JSON at byte %zu (in member '%s')",
                    ls->pos - ls->mbuf.len, ls->key);
    if (ls->member == M_KIND)
        r = check_string(ls, v, "kind", ls->list_kind);
    else if (ls->member == M_API_VERSION)
        r = check_string(ls, v, "apiVersion", ls->api_version);
    else if (ls->member == M_METADATA && !cJSON_IsNull(v))
        r = take_metadata(ls, v);
    else if (ls->member == M_ITEMS && !cJSON_IsNull(v))
        r = fail(ls, "items: expected an array");
    cJSON_Delete(v);
    return r;
}

/* An item is complete: check its text and hand it over. */
static int
end_item(struct kp_list_stream *ls, const char *text, size_t len)
{
    const char *what = NULL;
    size_t at = 0;

    if (kp_json_scan_value(text, len, MAX_NESTING - 2, &at, &what) < 0) {
        if (at < len && text[at] == '\0')
            return fail(ls, "NUL byte at offset %zu (in items[%ld])",
                        ls->item_start + at, ls->nitems);
        return bad_syntax(ls, ls->item_start + at, what);
    }
    if (ls->fn(ls->ctx, text, len, ls->nitems, &ls->err) < 0) {
        ls->state = S_FAILED;
        return -1;
    }
    ls->nitems++;
    ls->ibuf.len = 0;
    ls->state = S_AFTER_ITEM;
    return 0;
}

/* ---- the state machine ------------------------------------------------ */

static int
on_key_byte(struct kp_list_stream *ls, char c)
{
    if (++ls->mlen > KP_MAX_OBJECT_BYTES)
        return fail(ls, "a member name is larger than %zu MiB",
                    KP_MAX_OBJECT_BYTES >> 20);
    if (ls->key_esc) {
        ls->key_esc = false;
        ls->key_long = true;    /* an escaped name is none we look for */
    } else if (c == '\\') {
        ls->key_esc = true;
    } else if (c == '"') {
        ls->member = member_of(ls);
        if (ls->member != M_OTHER && ls->seen[ls->member])
            return fail(ls, "duplicate member '%s'", ls->key);
        ls->seen[ls->member] = true;
        ls->state = S_COLON;
        return 0;
    } else if ((unsigned char)c < 0x20) {
        return bad_syntax(ls, ls->pos, "control character in a string");
    }
    if (ls->keylen < MAX_KEY)
        ls->key[ls->keylen++] = c;
    else
        ls->key_long = true;
    ls->key[ls->keylen] = '\0';
    return 0;
}

/* The first byte of a member's value. */
static int
on_value_start(struct kp_list_stream *ls, char c)
{
    if (ls->member == M_ITEMS && c == '[') {
        ls->state = S_ITEM_OR_END;
        return 0;
    }
    if (vscan_start(&ls->vs, c) < 0)
        return bad_syntax(ls, ls->pos, "expected a value");
    ls->mbuf.len = 0;
    ls->mlen = 1;
    if (ls->member != M_OTHER)
        append(&ls->mbuf, &c, 1, MAX_MEMBER);
    ls->state = S_MEMBER;
    return 0;
}

/* Structural bytes outside values: one byte at a time. */
static int
on_byte(struct kp_list_stream *ls, char c)
{
    switch (ls->state) {
    case S_START:
        if (c != '{')
            return fail(ls, "the response is not a complete JSON object");
        ls->state = S_KEY_OR_END;
        return 0;
    case S_KEY_OR_END:
    case S_KEY_NEXT:
        if (c == '}' && ls->state == S_KEY_OR_END) {
            ls->state = S_DONE;
            return 0;
        }
        if (c != '"')
            return bad_syntax(ls, ls->pos, "expected a member name");
        ls->keylen = 0;
        ls->mlen = 0;
        ls->key[0] = '\0';
        ls->key_esc = ls->key_long = false;
        ls->state = S_KEY;
        return 0;
    case S_KEY:
        return on_key_byte(ls, c);
    case S_COLON:
        if (c != ':')
            return bad_syntax(ls, ls->pos, "expected ':'");
        ls->state = S_VALUE;
        return 0;
    case S_VALUE:
        return on_value_start(ls, c);
    case S_AFTER_MEMBER:
        if (c == ',' || c == '}') {
            ls->state = c == ',' ? S_KEY_NEXT : S_DONE;
            return 0;
        }
        return bad_syntax(ls, ls->pos, "expected ',' or '}'");
    case S_AFTER_ITEM:
        if (c == ',' || c == ']') {
            ls->state = c == ',' ? S_ITEM_NEXT : S_AFTER_MEMBER;
            return 0;
        }
        return bad_syntax(ls, ls->pos, "expected ',' or ']'");
    case S_ITEM_OR_END:
        if (c == ']') {
            ls->state = S_AFTER_MEMBER;
            return 0;
        }
        /* fall through */
    default:
        return bad_syntax(ls, ls->pos, "data after the end of the object");
    }
}

/* Inside a member's value: as many bytes as belong to it. */
static int
run_member(struct kp_list_stream *ls, const char *p, size_t n, size_t *used)
{
    const char *what = NULL;
    int r = vscan_run(&ls->vs, p, n, used, &what);

    if (r < 0)
        return bad_syntax(ls, ls->pos + *used, what);
    ls->mlen += *used;
    ls->outside += *used;
    if (ls->mlen > KP_MAX_OBJECT_BYTES)
        return fail(ls, "%s%s%s is larger than %zu MiB (the per-object "
                    "limit)", ls->member == M_OTHER ? "a member" : "member '",
                    ls->member == M_OTHER ? "" : ls->key,
                    ls->member == M_OTHER ? "" : "'",
                    KP_MAX_OBJECT_BYTES >> 20);
    if (ls->outside > KP_MAX_OBJECT_BYTES)
        return fail(ls, "more than %zu MiB of the page outside its items",
                    KP_MAX_OBJECT_BYTES >> 20);
    if (ls->member != M_OTHER &&
        append(&ls->mbuf, p, *used, MAX_MEMBER) < 0)
        return fail(ls, "member '%s' larger than %zu bytes", ls->key,
                    MAX_MEMBER);
    ls->pos += *used;
    if (r == 0)
        return 0;
    ls->state = S_AFTER_MEMBER;
    return ls->member == M_OTHER ? 0 : end_member(ls);
}

/*
 * Inside an item: as many bytes as belong to it.  An item that starts
 * and ends within p is handed over from p, without a copy.
 */
static int
run_item(struct kp_list_stream *ls, const char *p, size_t n, size_t *used,
         bool started_here)
{
    const char *what = NULL;
    int r = vscan_run(&ls->vs, p, n, used, &what);

    if (r < 0)
        return bad_syntax(ls, ls->pos + *used, what);
    ls->pos += *used;
    if (r == 1 && started_here)
        return end_item(ls, p - 1, *used + 1);
    if (started_here && append(&ls->ibuf, p - 1, 1, MAX_ITEM) < 0)
        return -1;
    if (append(&ls->ibuf, p, *used, MAX_ITEM) < 0)
        return fail(ls, "items[%ld] is larger than %zu MiB (the per-object "
                    "limit)", ls->nitems, MAX_ITEM >> 20);
    if (r == 0)
        return 0;
    return end_item(ls, ls->ibuf.data, ls->ibuf.len);
}

/* One step from data[*i]: a structural byte or a span of a value. */
static int
step(struct kp_list_stream *ls, const char *data, size_t n, size_t *i)
{
    char c = data[*i];
    size_t used = 0;

    if (ls->state == S_MEMBER) {
        if (run_member(ls, data + *i, n - *i, &used) < 0)
            return -1;
        *i += used;
        return 0;
    }
    if (ls->state == S_ITEM) {
        if (run_item(ls, data + *i, n - *i, &used, false) < 0)
            return -1;
        *i += used;
        return 0;
    }
    if (ls->state != S_ITEM_NEXT && ls->state != S_ITEM_OR_END &&
        ls->state != S_AFTER_ITEM &&
        (ls->outside += 1) > KP_MAX_OBJECT_BYTES)
        return fail(ls, "more than %zu MiB of the page outside its items",
                    KP_MAX_OBJECT_BYTES >> 20);
    if (ls->state != S_KEY && is_ws(c)) {
        if (++ls->ws_run > KP_MAX_OBJECT_BYTES)
            return fail(ls, "more than %zu MiB of white space at byte %zu",
                        KP_MAX_OBJECT_BYTES >> 20, ls->pos);
        ls->pos++;
        (*i)++;
        return 0;
    }
    ls->ws_run = 0;
    if (c == '\0')
        return fail(ls, "NUL byte at offset %zu", ls->pos);
    if (ls->state == S_ITEM_NEXT || (ls->state == S_ITEM_OR_END &&
                                     c != ']')) {
        if (vscan_start(&ls->vs, c) < 0)
            return bad_syntax(ls, ls->pos, "expected a value");
        ls->item_start = ls->pos;
        ls->ibuf.len = 0;
        ls->state = S_ITEM;
        ls->pos++;
        (*i)++;
        if (run_item(ls, data + *i, n - *i, &used, true) < 0)
            return -1;
        *i += used;
        return 0;
    }
    if (on_byte(ls, c) < 0)
        return -1;
    ls->pos++;
    (*i)++;
    return 0;
}

int
kp_list_stream_feed(struct kp_list_stream *ls, const char *data, size_t n,
                    struct kp_error *err)
{
    size_t i = 0;

    while (ls->state != S_FAILED && i < n)
        step(ls, data, n, &i);
    if (ls->state == S_FAILED) {
        if (err)
            *err = ls->err;
        return -1;
    }
    return 0;
}

int
kp_list_stream_finish(struct kp_list_stream *ls, struct kp_error *err)
{
    /* a number or word ends the page: nothing can follow it */
    if (ls->state == S_MEMBER && ls->vs.scalar)
        fail(ls, "the response is not a complete JSON object");
    if (ls->state != S_DONE && ls->state != S_FAILED) {
        if (ls->state == S_START)
            fail(ls, "the response is not a complete JSON object");
        else
            fail(ls, "the response is not a complete JSON object: it ends "
                 "at byte %zu%s", ls->pos, ls->state == S_ITEM
                 ? ", inside an item" : "");
    }
    if (ls->state == S_FAILED) {
        if (err)
            *err = ls->err;
        return -1;
    }
    return 0;
}
