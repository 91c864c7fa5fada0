/*
 * yaml_json.c - YAML (libyaml events) into cJSON.
 *
 * Mirrors what kubectl does with a manifest: sigs.k8s.io/yaml's
 * YAMLToJSON over go-yaml v2, whose resolve.go reads plain scalars with
 * YAML 1.1 rules (y/yes/on are true, 0755 is octal, ~ is null).  Quoted
 * and block scalars are strings; so are timestamps (go-yaml v2 keeps them
 * as strings when decoding into interface{}) and .inf/.nan, which JSON
 * cannot hold.  The tree is built with an explicit stack: no recursion on
 * input depth.  Anchors and aliases are go-yaml v2's (an alias is a copy
 * of its anchor's value; "document contains excessive aliasing" past
 * MAX_ALIAS_NODES copied nodes), and so are merge keys ("<<: *base",
 * decode.go's d.merge: a mapping, or a sequence of them, the earlier
 * taking precedence; keys of the mapping itself override merged ones).
 */
#include "yaml_json.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "arena.h"

#define MAX_DEPTH 512

enum scalar_kind {
    SC_STRING,
    SC_NULL,
    SC_BOOL,
    SC_NUMBER
};

struct scalar {
    enum scalar_kind kind;
    bool b;
    double num;
};

/* what aliases may copy in one document, all together (nodes) */
#define MAX_ALIAS_NODES 1000000

/* The key "<<" in plain style (go-yaml's !!merge tag), while it waits. */
static char MERGE_KEY[] = "<<";

struct frame {
    cJSON *node;
    char *key;                  /* mapping: key waiting for its value;
                                 * MERGE_KEY for a merge key */
    cJSON *merge_into;          /* the node is a merge value: merged into
                                 * this mapping at its end, then kept */
    cJSON *merged;              /* keys merged in (an object of nulls):
                                 * an explicit key may override them */
};

struct anchor {
    char *name;
    cJSON *node;                /* in the document (or kept) */
    bool open;                  /* its collection has not ended */
};

struct builder {
    struct frame stack[MAX_DEPTH];
    int depth;
    cJSON *root;
    bool have_root;
    struct anchor *anchors;
    size_t nanchors, capanchors;
    cJSON *kept;                /* merge values, alive for their anchors */
    size_t alias_nodes;
    /*
     * split: the elements of the root mapping's "items" sequence are
     * taken out one by one as each is complete (into ready), so that
     * the root holds "items" as an empty array (kp_yaml_reader); not
     * once the document has an anchor (an alias may name a node of an
     * item taken out): such a document is read whole (kp_yaml_headers)
     */
    bool split;
    cJSON *items;
    cJSON *ready;
};

static bool
one_of(const char *s, const char *const *list)
{
    size_t i;

    for (i = 0; list[i]; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

static int
digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* strconv.ParseInt(s, 0, 64), or ParseUint for what overflows it. */
static bool
parse_int(const char *s, double *out)
{
    unsigned long long v = 0;
    bool neg = false;
    int base = 10;

    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
        base = 8;
        s += 2;
    } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    } else if (s[0] == '0' && s[1]) {
        base = 8;
        s++;
    }
    if (!*s)
        return false;
    for (; *s; s++) {
        int d = digit_value(*s);

        if (d < 0 || d >= base ||
            v > (ULLONG_MAX - (unsigned)d) / (unsigned)base)
            return false;
        v = v * (unsigned)base + (unsigned)d;
    }
    if (neg && v > (unsigned long long)LLONG_MAX + 1)
        return false;
    *out = neg ? -(double)v : (double)v;
    return true;
}

static size_t
skip_digits(const char **p)
{
    size_t n = 0;

    while (**p >= '0' && **p <= '9') {
        (*p)++;
        n++;
    }
    return n;
}

/* ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static bool
is_float(const char *p)
{
    if (*p == '+' || *p == '-')
        p++;
    if (*p == '.') {
        p++;
        if (!skip_digits(&p))
            return false;
    } else {
        if (!skip_digits(&p))
            return false;
        if (*p == '.') {
            p++;
            skip_digits(&p);
        }
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!skip_digits(&p))
            return false;
    }
    return *p == '\0';
}

/* A number per resolve.go: underscores dropped, int first, then float. */
static bool
resolve_number(const char *text, double *out)
{
    size_t n = strlen(text), i, j = 0;
    char *plain;
    bool ok = false;

    if (n == 0 || !strchr("+-.0123456789", text[0]))
        return false;
    plain = kp_xmalloc(n + 1);
    for (i = 0; i < n; i++)
        if (text[i] != '_')
            plain[j++] = text[i];
    plain[j] = '\0';
    if (parse_int(plain, out)) {
        ok = true;
    } else if (is_float(plain)) {
        *out = strtod(plain, NULL);
        ok = isfinite(*out);
    }
    free(plain);
    return ok;
}

static struct scalar
resolve_plain(const char *text)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL",
                                        NULL};
    static const char *const trues[] = {"y", "Y", "yes", "Yes", "YES",
                                        "true", "True", "TRUE", "on", "On",
                                        "ON", NULL};
    static const char *const falses[] = {"n", "N", "no", "No", "NO",
                                         "false", "False", "FALSE", "off",
                                         "Off", "OFF", NULL};
    struct scalar sc = {SC_STRING, false, 0};

    if (one_of(text, nulls)) {
        sc.kind = SC_NULL;
    } else if (one_of(text, trues) || one_of(text, falses)) {
        sc.kind = SC_BOOL;
        sc.b = one_of(text, trues);
    } else if (resolve_number(text, &sc.num)) {
        sc.kind = SC_NUMBER;
    }
    return sc;
}

/* How a scalar event reads: its style and tag decide, then its text. */
static struct scalar
resolve(const yaml_event_t *ev)
{
    const char *tag = (const char *)ev->data.scalar.tag;
    const char *text = (const char *)ev->data.scalar.value;
    struct scalar str = {SC_STRING, false, 0};

    if (tag && (strcmp(tag, YAML_STR_TAG) == 0 || strcmp(tag, "!") == 0))
        return str;
    if (!tag && ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return str;
    return resolve_plain(text);
}

static cJSON *
scalar_json(const yaml_event_t *ev)
{
    struct scalar sc = resolve(ev);

    switch (sc.kind) {
    case SC_NULL:
        return cJSON_CreateNull();
    case SC_BOOL:
        return cJSON_CreateBool(sc.b);
    case SC_NUMBER:
        return cJSON_CreateNumber(sc.num);
    case SC_STRING:
        break;
    }
    return cJSON_CreateString((const char *)ev->data.scalar.value);
}

/* A mapping key as sigs.k8s.io/yaml writes it into JSON: a string. */
static char *
scalar_key(const yaml_event_t *ev)
{
    struct scalar sc = resolve(ev);
    char buf[64];

    switch (sc.kind) {
    case SC_NULL:
        return kp_xstrdup("null");
    case SC_BOOL:
        return kp_xstrdup(sc.b ? "true" : "false");
    case SC_NUMBER:
        if (sc.num == floor(sc.num) && fabs(sc.num) < 1e18)
            snprintf(buf, sizeof(buf), "%lld", (long long)sc.num);
        else
            snprintf(buf, sizeof(buf), "%.17g", sc.num);
        return kp_xstrdup(buf);
    case SC_STRING:
        break;
    }
    return kp_xstrdup((const char *)ev->data.scalar.value);
}

static int
at(struct kp_error *err, const yaml_mark_t *m, const char *what)
{
    return kp_errorf(err, KP_EXIT_ERROR, "line %zu, column %zu: %s",
                     m->line + 1, m->column + 1, what);
}

/* ---- anchors, aliases and merge keys (go-yaml v2 decode.go) ---- */

static void
anchor_set(struct builder *b, const yaml_char_t *name, cJSON *node,
           bool open)
{
    size_t i;

    if (!name)
        return;
    for (i = 0; i < b->nanchors; i++)
        if (strcmp(b->anchors[i].name, (const char *)name) == 0)
            break;
    if (i == b->nanchors) {
        if (b->nanchors == b->capanchors) {
            b->capanchors = b->capanchors ? 2 * b->capanchors : 8;
            b->anchors = kp_xrealloc(b->anchors, b->capanchors *
                                     sizeof(*b->anchors));
        }
        b->anchors[b->nanchors].name = kp_xstrdup((const char *)name);
        b->nanchors++;
    }
    b->anchors[i].node = node;
    b->anchors[i].open = open;
}

static void
anchor_close(struct builder *b, const cJSON *node)
{
    size_t i;

    for (i = 0; i < b->nanchors; i++)
        if (b->anchors[i].node == node)
            b->anchors[i].open = false;
}

static void
anchors_reset(struct builder *b)
{
    size_t i;

    for (i = 0; i < b->nanchors; i++)
        free(b->anchors[i].name);
    b->nanchors = 0;
    b->alias_nodes = 0;
    cJSON_Delete(b->kept);
    b->kept = NULL;
}

static size_t
count_nodes(const cJSON *j)
{
    const cJSON *c;
    size_t n = 1;

    /* iterative over siblings; depth is bounded by MAX_DEPTH */
    for (c = j->child; c; c = c->next)
        n += count_nodes(c);
    return n;
}

/* A copy of the anchored value; NULL with err set. */
static cJSON *
alias_value(struct builder *b, const yaml_event_t *ev, struct kp_error *err)
{
    const char *name = (const char *)ev->data.alias.anchor;
    char msg[600];
    size_t i;

    for (i = b->nanchors; i-- > 0;)
        if (strcmp(b->anchors[i].name, name) == 0)
            break;
    if (i == (size_t)-1) {
        snprintf(msg, sizeof(msg), "unknown anchor '%.500s' referenced",
                 name);
        return at(err, &ev->start_mark, msg), NULL;
    }
    if (b->anchors[i].open) {
        snprintf(msg, sizeof(msg), "anchor '%.500s' value contains itself",
                 name);
        return at(err, &ev->start_mark, msg), NULL;
    }
    b->alias_nodes += count_nodes(b->anchors[i].node);
    if (b->alias_nodes > MAX_ALIAS_NODES)
        return at(err, &ev->start_mark, "document contains excessive "
                  "aliasing"), NULL;
    return cJSON_Duplicate(b->anchors[i].node, 1);
}

static int
want_map(const yaml_mark_t *m, struct kp_error *err)
{
    return at(err, m, "map merge requires map or sequence of maps as the "
              "value");
}

/* One mapping merged into the frame's mapping: its keys set or replaced. */
static void
merge_map(struct frame *top, const cJSON *from)
{
    const cJSON *c;

    if (!top->merged)
        top->merged = cJSON_CreateObject();
    for (c = from->child; c; c = c->next) {
        cJSON *dup = cJSON_Duplicate(c, 1);

        if (cJSON_GetObjectItemCaseSensitive(top->node, c->string))
            cJSON_ReplaceItemInObjectCaseSensitive(top->node, c->string,
                                                   dup);
        else
            cJSON_AddItemToObject(top->node, c->string, dup);
        if (!cJSON_GetObjectItemCaseSensitive(top->merged, c->string))
            cJSON_AddNullToObject(top->merged, c->string);
    }
}

/* d.merge: a mapping, or a sequence of mappings (the last first). */
static int
merge_value(struct frame *top, const cJSON *v, const yaml_mark_t *m,
            struct kp_error *err)
{
    const cJSON *c;

    if (cJSON_IsObject(v)) {
        merge_map(top, v);
        return 0;
    }
    if (!cJSON_IsArray(v))
        return want_map(m, err);
    for (c = v->child; c; c = c->next)
        if (!cJSON_IsObject(c))
            return want_map(m, err);
    for (c = v->child; c && c->next; c = c->next)
        ;
    for (; c; c = c == v->child ? NULL : c->prev)
        merge_map(top, c);
    return 0;
}

/* Keep v alive to the document's end (an anchor may name it). */
static void
keep(struct builder *b, cJSON *v)
{
    if (!b->kept)
        b->kept = cJSON_CreateArray();
    cJSON_AddItemToArray(b->kept, v);
}

/* Attach v where the builder stands; takes v in every case. */
static int
attach(struct builder *b, cJSON *v, const yaml_event_t *ev,
       struct kp_error *err)
{
    struct frame *top;

    if (b->depth == 0) {
        b->root = v;
        b->have_root = true;
        return 0;
    }
    top = &b->stack[b->depth - 1];
    if (cJSON_IsArray(top->node)) {
        cJSON_AddItemToArray(top->node, v);
        return 0;
    }
    if (!top->key) {
        cJSON_Delete(v);
        return at(err, &ev->start_mark, "mapping keys must be scalars");
    }
    if (top->key == MERGE_KEY) {
        int rc = merge_value(top, v, &ev->start_mark, err);

        cJSON_Delete(v);
        top->key = NULL;
        return rc;
    }
    cJSON_AddItemToObject(top->node, top->key, v);
    free(top->key);
    top->key = NULL;
    return 0;
}

static int
on_scalar(struct builder *b, const yaml_event_t *ev, struct kp_error *err)
{
    struct frame *top = b->depth ? &b->stack[b->depth - 1] : NULL;

    if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length))
        return at(err, &ev->start_mark, "NUL character in a scalar");
    if (top && cJSON_IsObject(top->node) && !top->key) {
        char *key;

        if (ev->data.scalar.plain_implicit &&
            strcmp((const char *)ev->data.scalar.value, "<<") == 0) {
            top->key = MERGE_KEY;
            return 0;
        }
        key = scalar_key(ev);
        if (cJSON_GetObjectItemCaseSensitive(top->merged, key)) {
            /* a merged key: the mapping's own value wins */
            cJSON_DeleteItemFromObjectCaseSensitive(top->merged, key);
            cJSON_DeleteItemFromObjectCaseSensitive(top->node, key);
        } else if (cJSON_GetObjectItemCaseSensitive(top->node, key)) {
            char msg[600];

            snprintf(msg, sizeof(msg), "duplicate key '%.500s'", key);
            free(key);
            return at(err, &ev->start_mark, msg);
        }
        top->key = key;
        return 0;
    }
    {
        cJSON *v = scalar_json(ev);

        anchor_set(b, ev->data.scalar.anchor, v, false);
        return attach(b, v, ev, err);
    }
}

static int
on_start(struct builder *b, cJSON *node, const yaml_event_t *ev,
         struct kp_error *err)
{
    struct frame *top = b->depth ? &b->stack[b->depth - 1] : NULL;
    cJSON *merge_into = NULL;
    const yaml_char_t *anchor = ev->type == YAML_MAPPING_START_EVENT ?
        ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
    bool is_items = b->split && b->depth == 1 && cJSON_IsArray(node) &&
                    cJSON_IsObject(b->stack[0].node) && b->stack[0].key &&
                    b->stack[0].key != MERGE_KEY &&
                    strcmp(b->stack[0].key, "items") == 0;

    if (b->depth == MAX_DEPTH) {
        cJSON_Delete(node);
        return at(err, &ev->start_mark, "nesting too deep");
    }
    if (top && top->key == MERGE_KEY) {
        /* "<<: {...}" or "<<: [...]": built aside, merged at its end */
        merge_into = top->node;
        top->key = NULL;
        keep(b, node);
    } else if (attach(b, node, ev, err) < 0) {
        return -1;
    } else if (is_items) {
        b->items = node;
    }
    anchor_set(b, anchor, node, true);
    memset(&b->stack[b->depth], 0, sizeof(b->stack[b->depth]));
    b->stack[b->depth].node = node;
    b->stack[b->depth].merge_into = merge_into;
    b->depth++;
    return 0;
}

static void
frame_release(struct frame *f)
{
    if (f->key != MERGE_KEY)
        free(f->key);
    cJSON_Delete(f->merged);
    f->key = NULL;
    f->merged = NULL;
}

/* A collection ends: closes its anchor, merges a merge value. */
static int
on_end(struct builder *b, const yaml_event_t *ev, struct kp_error *err)
{
    struct frame f;

    if (b->depth == 0)
        return 0;
    f = b->stack[--b->depth];
    frame_release(&b->stack[b->depth]);
    anchor_close(b, f.node);
    if (f.merge_into && b->depth > 0)
        return merge_value(&b->stack[b->depth - 1], f.node, &ev->start_mark,
                           err);
    return 0;
}

static void
builder_reset(struct builder *b)
{
    while (b->depth > 0)
        frame_release(&b->stack[--b->depth]);
    if (b->have_root)
        cJSON_Delete(b->root);
    b->root = NULL;
    b->have_root = false;
    anchors_reset(b);
    b->items = NULL;
    cJSON_Delete(b->ready);
    b->ready = NULL;
}

/*
 * split: an element of items is complete once the builder is back on it;
 * none is taken out once the document has an anchor.
 */
static void
take_ready(struct builder *b)
{
    if (b->items && b->depth == 2 && b->items->child && !b->ready &&
        b->nanchors == 0)
        b->ready = cJSON_DetachItemViaPointer(b->items, b->items->child);
}

/* One event; *done is set at the end of the stream. */
static int
on_event(struct builder *b, const yaml_event_t *ev, cJSON *docs,
         bool *done, struct kp_error *err)
{
    switch (ev->type) {
    case YAML_STREAM_END_EVENT:
        *done = true;
        return 0;
    case YAML_DOCUMENT_START_EVENT:
        builder_reset(b);
        return 0;
    case YAML_DOCUMENT_END_EVENT:
        cJSON_AddItemToArray(docs, b->have_root ? b->root
                                                : cJSON_CreateNull());
        b->root = NULL;
        b->have_root = false;
        return 0;
    case YAML_ALIAS_EVENT:
        if (b->depth && cJSON_IsObject(b->stack[b->depth - 1].node) &&
            !b->stack[b->depth - 1].key)
            return at(err, &ev->start_mark, "an alias as a mapping key is "
                      "not supported");
        {
            cJSON *v = alias_value(b, ev, err);

            return v ? attach(b, v, ev, err) : -1;
        }
    case YAML_SCALAR_EVENT:
        return on_scalar(b, ev, err);
    case YAML_SEQUENCE_START_EVENT:
        return on_start(b, cJSON_CreateArray(), ev, err);
    case YAML_MAPPING_START_EVENT:
        return on_start(b, cJSON_CreateObject(), ev, err);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return on_end(b, ev, err);
    default:
        return 0;
    }
}

static int
parser_error(const yaml_parser_t *p, struct kp_error *err)
{
    const yaml_mark_t *m = &p->problem_mark;

    return kp_errorf(err, KP_EXIT_ERROR, "invalid YAML at line %zu, "
                     "column %zu: %s%s%s%s", m->line + 1, m->column + 1,
                     p->problem ? p->problem : "parse error",
                     p->context ? " (" : "", p->context ? p->context : "",
                     p->context ? ")" : "");
}

int
kp_yaml_to_json(const char *buf, size_t len, cJSON **docs,
                struct kp_error *err)
{
    struct builder *b = kp_xcalloc(1, sizeof(*b));
    yaml_parser_t p;
    bool done = false;
    int rc = 0;

    *docs = cJSON_CreateArray();
    if (!yaml_parser_initialize(&p)) {
        free(b);
        return kp_errorf(err, KP_EXIT_ERROR, "out of memory");
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
    while (!done && rc == 0) {
        yaml_event_t ev;

        if (!yaml_parser_parse(&p, &ev)) {
            rc = parser_error(&p, err);
            break;
        }
        rc = on_event(b, &ev, *docs, &done, err);
        yaml_event_delete(&ev);
    }
    builder_reset(b);
    free(b->anchors);
    free(b);
    yaml_parser_delete(&p);
    if (rc < 0) {
        cJSON_Delete(*docs);
        *docs = NULL;
    }
    return rc;
}

/* ---- the streamed reading of input.c (issue 27: inputs that grow) ---- */

/*
 * Whether a document read with split can be loaded item by item: a
 * mapping whose "items" is a sequence and which is a List
 * (snapshot.c's is_list: kind ending in "List", or no kind).
 */
static bool
streamable(const cJSON *doc)
{
    const cJSON *kind, *items;
    size_t n;

    if (!cJSON_IsObject(doc))
        return false;
    items = cJSON_GetObjectItemCaseSensitive(doc, "items");
    kind = cJSON_GetObjectItemCaseSensitive(doc, "kind");
    if (!cJSON_IsArray(items))
        return false;
    if (!kind)
        return true;
    if (!cJSON_IsString(kind))
        return false;
    n = strlen(kind->valuestring);
    return n >= 4 && strcmp(kind->valuestring + n - 4, "List") == 0;
}

int
kp_yaml_headers(const char *buf, size_t len, cJSON **docs,
                struct kp_error *err)
{
    struct builder *b = kp_xcalloc(1, sizeof(*b));
    yaml_parser_t p;
    bool done = false;
    int rc = 0;

    *docs = cJSON_CreateArray();
    b->split = true;
    if (!yaml_parser_initialize(&p)) {
        free(b);
        return kp_errorf(err, KP_EXIT_ERROR, "out of memory");
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
    while (!done && rc == 0) {
        yaml_event_t ev;

        if (!yaml_parser_parse(&p, &ev)) {
            rc = parser_error(&p, err);
            break;
        }
        if (ev.type == YAML_DOCUMENT_END_EVENT) {
            cJSON *doc = b->have_root ? b->root : cJSON_CreateNull();

            b->root = NULL;
            b->have_root = false;
            b->items = NULL;
            /*
             * only the header of a List is kept; others, and a List with
             * an anchor (its items were not taken out), are read again
             */
            if (!cJSON_IsNull(doc) && (!streamable(doc) || b->nanchors)) {
                cJSON_Delete(doc);
                doc = cJSON_CreateTrue();
            }
            cJSON_AddItemToArray(*docs, doc);
        } else {
            rc = on_event(b, &ev, *docs, &done, err);
            take_ready(b);
            cJSON_Delete(b->ready);
            b->ready = NULL;
        }
        yaml_event_delete(&ev);
    }
    builder_reset(b);
    free(b->anchors);
    free(b);
    yaml_parser_delete(&p);
    if (rc < 0) {
        cJSON_Delete(*docs);
        *docs = NULL;
    }
    return rc;
}

struct kp_yaml_reader {
    yaml_parser_t p;
    struct builder b;
    bool in_items;              /* between kp_yaml_reader_doc and the end */
};

struct kp_yaml_reader *
kp_yaml_reader_new(const char *buf, size_t len)
{
    struct kp_yaml_reader *r = kp_xcalloc(1, sizeof(*r));

    if (!yaml_parser_initialize(&r->p)) {
        free(r);
        return NULL;
    }
    yaml_parser_set_input_string(&r->p, (const unsigned char *)buf, len);
    return r;
}

void
kp_yaml_reader_free(struct kp_yaml_reader *r)
{
    if (!r)
        return;
    builder_reset(&r->b);
    free(r->b.anchors);
    yaml_parser_delete(&r->p);
    free(r);
}

/*
 * Events until the document ends (*doc_end) or, with stop_at_item, an
 * item is ready.  The stream was read once already (kp_yaml_headers):
 * an error here is unexpected, but said as the first reading says it.
 */
static int
reader_run(struct kp_yaml_reader *r, bool stop_at_item, bool *doc_end,
           struct kp_error *err)
{
    *doc_end = false;
    for (;;) {
        yaml_event_t ev;
        bool done = false;
        int rc = 0;

        if (!yaml_parser_parse(&r->p, &ev))
            return parser_error(&r->p, err);
        if (ev.type == YAML_DOCUMENT_END_EVENT) {
            *doc_end = true;
        } else if (ev.type == YAML_STREAM_END_EVENT) {
            rc = kp_errorf(err, KP_EXIT_ERROR, "unexpected end of the "
                           "YAML stream");
        } else {
            rc = on_event(&r->b, &ev, NULL, &done, err);
            take_ready(&r->b);
        }
        yaml_event_delete(&ev);
        if (rc < 0)
            return -1;
        if (*doc_end || (stop_at_item && r->b.ready))
            return 0;
    }
}

int
kp_yaml_reader_doc(struct kp_yaml_reader *r, bool items, cJSON **doc,
                   struct kp_error *err)
{
    bool doc_end;

    *doc = NULL;
    builder_reset(&r->b);
    r->b.split = items;
    r->in_items = items;
    if (items)
        return 0;
    if (reader_run(r, false, &doc_end, err) < 0)
        return -1;
    *doc = r->b.have_root ? r->b.root : cJSON_CreateNull();
    r->b.root = NULL;
    r->b.have_root = false;
    return 0;
}

int
kp_yaml_reader_item(void *ctx, cJSON **item, struct kp_error *err)
{
    struct kp_yaml_reader *r = ctx;
    bool doc_end;

    *item = NULL;
    if (!r->in_items)
        return 0;
    if (reader_run(r, true, &doc_end, err) < 0)
        return -1;
    if (r->b.ready) {
        *item = r->b.ready;
        r->b.ready = NULL;
        return 1;
    }
    r->in_items = false;        /* the document's end */
    builder_reset(&r->b);
    return 0;
}
