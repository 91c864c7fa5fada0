/*
 * render_kubectl.c - the report as kubectl prints objects: YAMLPrinter
 * (through libyaml's emitter), NamePrinter, JSONPathPrinter, kubectl
 * get's CustomColumnsPrinter (customcolumn.go) and its sorter
 * (sorter.go), on the -o json document.  Error texts are kubectl's.
 */
#include "render_kubectl.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <yaml.h>

#include "arena.h"
#include "jsonpath.h"
#include "quantity.h"
#include "read_file.h"
#include "term_escape.h"

#define MSG 512

bool
kp_kubectl_output(const struct kp_options *o)
{
    return o->output >= KP_OUTPUT_YAML;
}

/* ---- reading templates ---- */

/* A template file, at most KP_CAP_TEMPLATE bytes (read_file.h). */
static char *
read_template(const char *path, char *why, size_t whylen)
{
    char *text, cap[32];
    size_t len;
    int e = kp_read_file(path, KP_CAP_TEMPLATE, 0, &text, &len);

    if (e == 0)
        return text;
    if (e == EFBIG)
        snprintf(why, whylen, "read %s: larger than %s, the cap for "
                 "templates", path, kp_cap_text(KP_CAP_TEMPLATE, cap,
                                                sizeof(cap)));
    else
        snprintf(why, whylen, "%s %s: %s", e == EISDIR ? "read" : "open",
                 path, strerror(e));
    return NULL;
}

/* The jsonpath template of o (-o jsonpath= or the file's text). */
static char *
jsonpath_template(const struct kp_options *o, struct kp_error *err)
{
    char why[300];
    char *t;

    if (o->output == KP_OUTPUT_JSONPATH_FILE) {
        if (!o->output_arg[0]) {
            kp_errorf(err, KP_EXIT_ERROR, "template format specified but "
                      "no template given");
            return NULL;
        }
        t = read_template(o->output_arg, why, sizeof(why));
        if (!t)
            kp_errorf(err, KP_EXIT_ERROR, "error reading --template %s, %s",
                      o->output_arg, why);
        return t;
    }
    if (!o->output_arg[0]) {
        kp_errorf(err, KP_EXIT_ERROR, "template format specified but no "
                  "template given");
        return NULL;
    }
    return kp_xstrdup(o->output_arg);
}

/*
 * A template as error messages quote it: whole, as kubectl does, up to
 * 512 bytes; a longer one is cut (its length said), so that the reason
 * after it still fits the one error line.
 */
static void
shown_template(struct kp_buf *b, const char *tmpl)
{
    size_t n = strlen(tmpl);

    kp_buf_init(b);
    if (n <= 512)
        kp_buf_puts(b, tmpl);
    else
        kp_buf_printf(b, "%.256s... (%zu bytes)", tmpl, n);
    kp_buf_add(b, "", 1);
}

static struct kp_jsonpath *
jsonpath_printer(const struct kp_options *o, char **tmpl,
                 struct kp_error *err)
{
    struct kp_jsonpath *jp;
    char msg[MSG];

    *tmpl = jsonpath_template(o, err);
    if (!*tmpl)
        return NULL;
    jp = kp_jsonpath_parse("out", *tmpl, msg, sizeof(msg));
    if (!jp) {
        struct kp_buf shown;

        shown_template(&shown, *tmpl);
        kp_errorf(err, KP_EXIT_ERROR, "error parsing jsonpath %s, %s",
                  shown.data, msg);
        kp_buf_release(&shown);
        free(*tmpl);
        *tmpl = NULL;
        return NULL;
    }
    kp_jsonpath_allow_missing_keys(jp, o->allow_missing_template_keys);
    return jp;
}

/* ---- custom columns (customcolumn.go) ---- */

struct column {
    char *header;
    char *spec;                 /* the relaxed path, malloc'ed */
};

struct columns {
    size_t n;
    struct column *c;
};

static void
columns_release(struct columns *cs)
{
    size_t i;

    for (i = 0; i < cs->n; i++) {
        free(cs->c[i].header);
        free(cs->c[i].spec);
    }
    free(cs->c);
    memset(cs, 0, sizeof(*cs));
}

char *
kp_relaxed_jsonpath(const char *in, struct kp_error *err)
{
    size_t n = strlen(in);
    const char *s = in;
    char *out;

    if (n == 0)
        return kp_xstrdup("");
    if (n >= 2 && in[0] == '{' && in[n - 1] == '}') {
        s = in + 1;
        n -= 2;
    }
    if (n > 1 && s[0] == '.')
        s++, n--;
    if (n == 0 || memchr(s, '{', n) || memchr(s, '}', n))
        return kp_errorf(err, KP_EXIT_ERROR, "unexpected path string, "
                         "expected a 'name1.name2' or '.name1.name2' or "
                         "'{name1.name2}' or '{.name1.name2}'"), NULL;
    /* as long as the path is: nothing cut (it was at 1 KiB) */
    out = kp_xmalloc(n + 4);
    out[0] = '{';
    out[1] = '.';
    memcpy(out + 2, s, n);
    out[n + 2] = '}';
    out[n + 3] = '\0';
    return out;
}

static int
add_column(struct columns *cs, const char *h, size_t hn, const char *spec,
           struct kp_error *err)
{
    struct column *c;

    cs->c = kp_xrealloc(cs->c, (cs->n + 1) * sizeof(*cs->c));
    c = &cs->c[cs->n++];
    c->header = kp_xmalloc(hn + 1);
    memcpy(c->header, h, hn);
    c->header[hn] = '\0';
    c->spec = kp_relaxed_jsonpath(spec, err);
    return c->spec ? 0 : -1;
}

/* NewCustomColumnsPrinterFromSpec */
static int
columns_from_spec(const char *spec, struct columns *cs, struct kp_error *err)
{
    char *dup, *part, *next, *colon;

    memset(cs, 0, sizeof(*cs));
    if (!spec[0])
        return kp_errorf(err, KP_EXIT_ERROR, "custom-columns format "
                         "specified but no custom columns given");
    dup = kp_xstrdup(spec);
    for (part = dup; part; part = next) {
        next = strchr(part, ',');
        if (next)
            *next++ = '\0';
        colon = strchr(part, ':');
        if (!colon) {
            kp_errorf(err, KP_EXIT_ERROR, "unexpected custom-columns spec: "
                      "%s, expected <header>:<json-path-expr>", part);
            break;
        }
        if (add_column(cs, part, (size_t)(colon - part), colon + 1, err) < 0)
            break;
    }
    free(dup);
    if (part) {
        columns_release(cs);
        return -1;
    }
    return 0;
}

/* bufio.ScanWords of one line: n words into w (pointers into line). */
static size_t
split_words(char *line, char ***w)
{
    size_t n = 0;
    char *t;

    *w = NULL;
    for (t = strtok_r(line, " \t\r\v\f", &line); t;
         t = strtok_r(NULL, " \t\r\v\f", &line)) {
        *w = kp_xrealloc(*w, (n + 1) * sizeof(**w));
        (*w)[n++] = t;
    }
    return n;
}

#define TEMPLATE_FORMAT "Expected format is one line of space separated " \
    "headers, one line of space separated column specs."

static int
columns_from_lines(char *text, struct columns *cs, struct kp_error *err)
{
    char *l1 = text, *l2 = strchr(text, '\n'), **h = NULL, **s = NULL;
    size_t nh, ns, i;
    int rc = 0;

    memset(cs, 0, sizeof(*cs));
    if (!text[0])
        return kp_errorf(err, KP_EXIT_ERROR, "invalid template, missing "
                         "header line. " TEMPLATE_FORMAT);
    if (!l2 || !l2[1])
        return kp_errorf(err, KP_EXIT_ERROR, "invalid template, missing "
                         "spec line. " TEMPLATE_FORMAT);
    *l2++ = '\0';
    if (strchr(l2, '\n'))
        *strchr(l2, '\n') = '\0';
    nh = split_words(l1, &h);
    ns = split_words(l2, &s);
    if (nh != ns)
        rc = kp_errorf(err, KP_EXIT_ERROR, "number of headers (%zu) does "
                       "not match number of specs (%zu)", nh, ns);
    for (i = 0; rc == 0 && i < nh; i++)
        rc = add_column(cs, h[i], strlen(h[i]), s[i], err);
    free(h);
    free(s);
    if (rc < 0)
        columns_release(cs);
    return rc;
}

static int
columns_of(const struct kp_options *o, struct columns *cs,
           struct kp_error *err)
{
    char why[300], *text;
    int rc;

    if (o->output == KP_OUTPUT_CUSTOM_COLUMNS)
        return columns_from_spec(o->output_arg, cs, err);
    if (!o->output_arg[0])
        return kp_errorf(err, KP_EXIT_ERROR, "custom-columns format "
                         "specified but no custom columns given");
    text = read_template(o->output_arg, why, sizeof(why));
    if (!text)
        return kp_errorf(err, KP_EXIT_ERROR, "error reading template %s, %s",
                         o->output_arg, why);
    rc = columns_from_lines(text, cs, err);
    free(text);
    return rc;
}

static int
column_parsers(const struct columns *cs, struct kp_jsonpath ***jps,
               struct kp_error *err)
{
    char msg[MSG], name[32];
    size_t i;

    *jps = kp_xmalloc((cs->n + 1) * sizeof(**jps));
    for (i = 0; i < cs->n; i++) {
        snprintf(name, sizeof(name), "column%zu", i);
        (*jps)[i] = kp_jsonpath_parse(name, cs->c[i].spec, msg, sizeof(msg));
        if (!(*jps)[i]) {
            while (i--)
                kp_jsonpath_free((*jps)[i]);
            free(*jps);
            return kp_errorf(err, KP_EXIT_ERROR, "%s", msg);
        }
        kp_jsonpath_allow_missing_keys((*jps)[i], true);
    }
    return 0;
}

static void
free_parsers(struct kp_jsonpath **jps, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        kp_jsonpath_free(jps[i]);
    free(jps);
}

int
kp_kubectl_check(const struct kp_options *o, struct kp_error *err)
{
    struct kp_jsonpath *jp, **jps;
    struct columns cs;
    char *tmpl, *spec;
    int rc = 0;

    if (o->sort_by) {
        spec = kp_relaxed_jsonpath(o->sort_by, err);
        if (!spec)
            return -1;
        free(spec);
    }
    if (o->output == KP_OUTPUT_JSONPATH ||
        o->output == KP_OUTPUT_JSONPATH_FILE) {
        jp = jsonpath_printer(o, &tmpl, err);
        kp_jsonpath_free(jp);
        free(tmpl);
        return jp ? 0 : -1;
    }
    if (o->output == KP_OUTPUT_CUSTOM_COLUMNS ||
        o->output == KP_OUTPUT_CUSTOM_COLUMNS_FILE) {
        if (columns_of(o, &cs, err) < 0)
            return -1;
        rc = column_parsers(&cs, &jps, err);
        if (rc == 0)
            free_parsers(jps, cs.n);
        columns_release(&cs);
    }
    return rc;
}

/* ---- tabwriter (GetNewTabWriter: minwidth 6, padding 3) ---- */

struct grid {
    size_t ncols, nrows;
    char **cells;               /* nrows * ncols, owned */
};

static size_t
runes(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void
grid_print(struct grid *g, struct kp_buf *out)
{
    size_t *w = kp_xmalloc((g->ncols + 1) * sizeof(*w)), r, c, k;

    for (c = 0; c < g->ncols; c++) {
        w[c] = 6;
        for (r = 0; r < g->nrows; r++)
            if (runes(g->cells[r * g->ncols + c]) + 3 > w[c])
                w[c] = runes(g->cells[r * g->ncols + c]) + 3;
    }
    for (r = 0; r < g->nrows; r++) {
        for (c = 0; c < g->ncols; c++) {
            const char *s = g->cells[r * g->ncols + c];

            kp_buf_puts(out, s);
            if (c + 1 < g->ncols)
                for (k = runes(s); k < w[c]; k++)
                    kp_buf_add(out, " ", 1);
        }
        kp_buf_add(out, "\n", 1);
    }
    for (k = 0; k < g->nrows * g->ncols; k++)
        free(g->cells[k]);
    free(g->cells);
    free(w);
}

/* printOneObject's cell: every value, "," between, <none> if none. */
static int
column_cell(struct kp_jsonpath *jp, const cJSON *item, char **cell,
            struct kp_error *err)
{
    struct kp_jp_results r;
    struct kp_buf b, v;
    char msg[MSG];
    size_t i, k;
    bool first = true;

    if (kp_jsonpath_find(jp, item, &r, msg, sizeof(msg)) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s", msg);
    kp_buf_init(&b);
    if (r.n == 0 || r.lists[0].n == 0) {
        kp_buf_puts(&b, "<none>");
        first = false;
    }
    for (i = 0; i < r.n; i++) {
        for (k = 0; k < r.lists[i].n; k++) {
            if (!first)
                kp_buf_add(&b, ",", 1);
            first = false;
            kp_buf_init(&v);
            kp_jp_sprint(&v, &r.lists[i].v[k]);
            kp_buf_add(&v, "", 1);
            /* printers.EscapeTerminal, widened to every control
             * (term_escape.h) */
            kp_term_escape(&b, v.data, strlen(v.data), KP_TERM_CELL);
            kp_buf_release(&v);
        }
    }
    kp_buf_add(&b, "", 1);
    *cell = b.data;
    kp_jp_results_release(&r);
    return 0;
}

static int
render_columns(const struct kp_options *o, const cJSON *doc,
               const char *items, struct kp_buf *out, struct kp_error *err)
{
    const cJSON *pods = cJSON_GetObjectItemCaseSensitive(doc, items), *p;
    struct kp_jsonpath **jps;
    struct columns cs;
    struct grid g = {0, 0, NULL};
    size_t c, k = 0;
    int rc = 0;

    if (columns_of(o, &cs, err) < 0)
        return -1;
    if (column_parsers(&cs, &jps, err) < 0) {
        columns_release(&cs);
        return -1;
    }
    g.ncols = cs.n;
    g.nrows = (size_t)cJSON_GetArraySize(pods) + !o->no_headers;
    g.cells = kp_xmalloc((g.nrows * g.ncols + 1) * sizeof(char *));
    if (!o->no_headers)
        for (c = 0; c < cs.n; c++)
            g.cells[k++] = kp_xstrdup(cs.c[c].header);
    cJSON_ArrayForEach(p, pods) {
        for (c = 0; c < cs.n && rc == 0; c++)
            if ((rc = column_cell(jps[c], p, &g.cells[k], err)) == 0)
                k++;
        if (rc < 0)
            break;
    }
    if (rc < 0) {
        while (k > 0)
            free(g.cells[--k]);
        free(g.cells);
    } else {
        grid_print(&g, out);
    }
    free_parsers(jps, cs.n);
    columns_release(&cs);
    return rc;
}

/* ---- jsonpath, name ---- */

/* Go's %q of s. */
static void
go_quote(struct kp_buf *b, const char *s)
{
    kp_buf_add(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\')
            kp_buf_printf(b, "\\%c", c);
        else if (c == '\n')
            kp_buf_puts(b, "\\n");
        else if (c == '\t')
            kp_buf_puts(b, "\\t");
        else if (c == '\r')
            kp_buf_puts(b, "\\r");
        else if (c < 0x20 || c == 0x7F)
            kp_buf_printf(b, "\\x%02x", c);
        else
            kp_buf_add(b, (const char *)&c, 1);
    }
    kp_buf_add(b, "\"", 1);
}

static int
render_jsonpath(const struct kp_options *o, const cJSON *doc,
                struct kp_buf *out, struct kp_error *err)
{
    struct kp_jsonpath *jp;
    struct kp_buf q;
    char *tmpl, msg[MSG];
    int rc;

    jp = jsonpath_printer(o, &tmpl, err);
    if (!jp)
        return -1;
    rc = kp_jsonpath_execute(jp, doc, out, msg, sizeof(msg));
    if (rc < 0) {
        /* kubectl adds a dump of the object (%#v); it is left out */
        struct kp_buf shown;

        shown_template(&shown, tmpl);
        kp_buf_init(&q);
        go_quote(&q, shown.data);
        kp_buf_add(&q, "", 1);
        kp_errorf(err, KP_EXIT_ERROR, "error executing jsonpath %s: Error "
                  "executing template: %s. Printing more information for "
                  "debugging the template:\n\ttemplate was:\n\t\t%s", q.data,
                  msg, shown.data);
        kp_buf_release(&q);
        kp_buf_release(&shown);
    }
    kp_jsonpath_free(jp);
    free(tmpl);
    return rc;
}

static void
render_name(const cJSON *doc, const char *items, struct kp_buf *out)
{
    const cJSON *p, *name;

    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, items)) {
        name = cJSON_GetObjectItemCaseSensitive(p, "name");
        if (cJSON_IsString(name))
            kp_buf_printf(out, "pod/%s\n", name->valuestring);
    }
}

/* ---- YAML (libyaml's emitter, as go-yaml's encoder drives it) ---- */

static int
yaml_write(void *data, unsigned char *buffer, size_t size)
{
    kp_buf_add(data, (const char *)buffer, size);
    return 1;
}

/*
 * go-yaml quotes a string (double quotes) when its plain form would read
 * back as another type under YAML 1.1: null, bool, int, float.
 */
static bool
resolves_to_non_string(const char *s)
{
    static const char *const words[] = {
        "", "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES",
        "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", ".inf",
        ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf",
        "-.INF", ".nan", ".NaN", ".NAN", "<<", NULL};
    static const char *const numeric =
        "^[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9][0-9_]*"
        "|([0-9][0-9_]*)?\\.[0-9_]*([eE][-+]?[0-9]+)?"
        "|[0-9][0-9_]*[eE][-+]?[0-9]+"
        "|[1-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?)$";
    /*
     * and a timestamp: go-yaml v2's resolve() tries parseTimestamp's
     * layouts on a plain scalar (resolve.go), so kubectl -o yaml prints
     * creationTimestamp: "2026-11-21T09:00:00Z" quoted
     */
    static const char *const timestamp =
        "^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
        "([Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]+)?"
        "(Z|[-+][0-9]{2}:[0-9]{2})"
        "| [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]+)?)?$";
    regex_t re;
    size_t i;
    bool m;

    for (i = 0; words[i]; i++)
        if (strcmp(s, words[i]) == 0)
            return true;
    if (!strpbrk(s, "0123456789"))
        return false;
    if (regcomp(&re, numeric, REG_EXTENDED | REG_NOSUB) != 0)
        return true;
    m = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    if (m || !strchr(s, '-'))
        return m;
    if (regcomp(&re, timestamp, REG_EXTENDED | REG_NOSUB) != 0)
        return true;
    m = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return m;
}

static int
emit(yaml_emitter_t *e, yaml_event_t *ev)
{
    return yaml_emitter_emit(e, ev) ? 0 : -1;
}

static int
emit_scalar(yaml_emitter_t *e, const char *s, yaml_scalar_style_t style)
{
    yaml_event_t ev;

    if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
                                      (int)strlen(s), 1, 1, style))
        return -1;
    return emit(e, &ev);
}

static int
emit_string(yaml_emitter_t *e, const char *s)
{
    yaml_scalar_style_t st = YAML_PLAIN_SCALAR_STYLE;

    if (strchr(s, '\n'))
        st = YAML_LITERAL_SCALAR_STYLE;
    else if (resolves_to_non_string(s))
        st = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    return emit_scalar(e, s, st);
}

static int
emit_value(yaml_emitter_t *e, const cJSON *j)
{
    yaml_event_t ev;
    const cJSON *c;
    struct kp_buf b;
    int rc;

    if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
        if (cJSON_IsObject(j) ?
            !yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                                 YAML_BLOCK_MAPPING_STYLE) :
            !yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                                  YAML_BLOCK_SEQUENCE_STYLE))
            return -1;
        if (emit(e, &ev) < 0)
            return -1;
        cJSON_ArrayForEach(c, j) {
            if (cJSON_IsObject(j) && emit_string(e, c->string) < 0)
                return -1;
            if (emit_value(e, c) < 0)
                return -1;
        }
        if (cJSON_IsObject(j))
            yaml_mapping_end_event_initialize(&ev);
        else
            yaml_sequence_end_event_initialize(&ev);
        return emit(e, &ev);
    }
    if (cJSON_IsString(j))
        return emit_string(e, j->valuestring);
    kp_buf_init(&b);
    kp_jp_marshal(&b, j);          /* null, true, 12, 1.5 as JSON has them */
    kp_buf_add(&b, "", 1);
    rc = emit_scalar(e, b.data, YAML_PLAIN_SCALAR_STYLE);
    kp_buf_release(&b);
    return rc;
}

static int
render_yaml(const cJSON *doc, struct kp_buf *out, struct kp_error *err)
{
    yaml_emitter_t e;
    yaml_event_t ev;
    int rc = -1;

    if (!yaml_emitter_initialize(&e))
        return kp_errorf(err, KP_EXIT_ERROR, "yaml: cannot initialize the "
                         "emitter");
    yaml_emitter_set_output(&e, yaml_write, out);
    yaml_emitter_set_unicode(&e, 1);
    if (yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
        emit(&e, &ev) == 0 &&
        yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
        emit(&e, &ev) == 0 && emit_value(&e, doc) == 0 &&
        yaml_document_end_event_initialize(&ev, 1) && emit(&e, &ev) == 0 &&
        yaml_stream_end_event_initialize(&ev) && emit(&e, &ev) == 0)
        rc = 0;
    if (rc < 0)
        kp_errorf(err, KP_EXIT_ERROR, "yaml: %s", e.problem ? e.problem :
                  "cannot emit the report");
    yaml_emitter_delete(&e);
    return rc;
}

/*
 * The document kubectl's printers read (jsonpath, custom-columns,
 * --sort-by): the -o json document with its null members left out, as
 * kubectl's printers see an API object (a field with no value is absent:
 * omitempty), so that [?(@.nominatedNode)] keeps the pods that have one
 * and a column of it prints <none>.  -o json and -o yaml keep them.
 */
static void
drop_nulls(cJSON *j)
{
    cJSON *c = j ? j->child : NULL, *next;

    for (; c; c = next) {
        next = c->next;
        if (cJSON_IsObject(j) && cJSON_IsNull(c))
            cJSON_Delete(cJSON_DetachItemViaPointer(j, c));
        else if (cJSON_IsObject(c) || cJSON_IsArray(c))
            drop_nulls(c);
    }
}

/*
 * jsonpath runs on a List for kubectl: its reported items are also
 * "items" (a reference to the same array, last), so that
 * {.items[*].metadata.name} and {range .items[*]}...{end} work.
 */
static void
add_items(cJSON *doc, const char *items)
{
    cJSON *a = cJSON_GetObjectItemCaseSensitive(doc, items);

    if (a && strcmp(items, "items") != 0 &&
        !cJSON_GetObjectItemCaseSensitive(doc, "items"))
        cJSON_AddItemReferenceToObject(doc, "items", a);
}

int
kp_render_kubectl(const struct kp_options *o, const char *items,
                  const char *json, size_t len, struct kp_buf *out,
                  struct kp_error *err)
{
    cJSON *doc = cJSON_ParseWithLength(json, len);
    int rc = 0;

    if (!doc)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot read back the report");
    switch (o->output) {
    case KP_OUTPUT_YAML:
        rc = render_yaml(doc, out, err);
        break;
    case KP_OUTPUT_NAME:
        render_name(doc, items, out);
        break;
    case KP_OUTPUT_JSONPATH:
    case KP_OUTPUT_JSONPATH_FILE:
        drop_nulls(doc);
        add_items(doc, items);
        rc = render_jsonpath(o, doc, out, err);
        break;
    case KP_OUTPUT_CUSTOM_COLUMNS:
    case KP_OUTPUT_CUSTOM_COLUMNS_FILE:
        drop_nulls(doc);
        rc = render_columns(o, doc, items, out, err);
        break;
    default:
        break;
    }
    cJSON_Delete(doc);
    return rc;
}

/* ---- --sort-by (sorter.go: SortObjects, RuntimeSort.Less, isLess) ---- */

struct sort_key {
    bool none;                  /* no value: Less(i, j) is true */
    struct kp_jp_value v;
    int pos;                    /* queuePosition */
};

struct sorter {
    const char *field;
    struct kp_error *err;
    bool failed;
};

static int
unsortable(struct sorter *s, const char *why)
{
    if (!s->failed)
        kp_errorf(s->err, KP_EXIT_ERROR, "Field %s in "
                  "*unstructured.Unstructured is an unsortable type: "
                  "interface, err: %s", s->field, why);
    s->failed = true;
    return 0;
}

static bool
quantity_less(const char *a, const char *b, bool *ok)
{
    struct kp_quantity qa, qb;
    struct kp_error e;

    *ok = kp_quantity_parse(a, &qa, &e) == 0 &&
          kp_quantity_parse(b, &qb, &e) == 0;
    if (!*ok)
        return false;
    if (qa.negative != qb.negative)
        return qa.negative;
    return qa.negative ? qa.nano > qb.nano : qa.nano < qb.nano;
}

static const char *
json_type(const cJSON *j)
{
    if (cJSON_IsObject(j))
        return "unsortable type: map[string]interface {}";
    if (cJSON_IsArray(j))
        return "unsortable type: []interface {}";
    return "unsortable type: bool";
}

static bool
is_int(const cJSON *j)
{
    return j->valuedouble == (double)(long long)j->valuedouble;
}

/* RuntimeSort.Less on two pods' keys */
static bool
key_less(struct sorter *s, const struct sort_key *a, const struct sort_key *b)
{
    const cJSON *x = a->v.json, *y = b->v.json;
    bool ok;

    if (a->none)
        return true;
    if (b->none)
        return false;
    if (a->v.kind != KP_JP_JSON || b->v.kind != KP_JP_JSON)
        return unsortable(s, "unsortable interface: interface");
    if (cJSON_IsNull(x))
        return !cJSON_IsNull(y);
    if (cJSON_IsNull(y))
        return false;
    if (cJSON_IsNumber(x)) {
        if (!cJSON_IsNumber(y) || is_int(x) != is_int(y))
            return unsortable(s, "unsortable interface: interface");
        return x->valuedouble < y->valuedouble;
    }
    if (cJSON_IsString(x)) {
        bool q;

        if (!cJSON_IsString(y))
            return unsortable(s, "unsortable interface: interface");
        q = quantity_less(x->valuestring, y->valuestring, &ok);
        return ok ? q : kp_natural_less(x->valuestring, y->valuestring);
    }
    return unsortable(s, json_type(x));
}

static void
merge_sort(struct sorter *s, struct sort_key *k, struct sort_key *tmp,
           size_t n)
{
    size_t m = n / 2, i = 0, j = m, o = 0;

    if (n < 2)
        return;
    merge_sort(s, k, tmp, m);
    merge_sort(s, k + m, tmp, n - m);
    while (i < m && j < n)
        tmp[o++] = key_less(s, &k[j], &k[i]) ? k[j++] : k[i++];
    while (i < m)
        tmp[o++] = k[i++];
    while (j < n)
        tmp[o++] = k[j++];
    memcpy(k, tmp, n * sizeof(*k));
}

/* sort.Sort: up to 12 items Go's insertion sort, exactly; else stable. */
static void
sort_keys(struct sorter *s, struct sort_key *k, size_t n)
{
    struct sort_key t, *tmp;
    size_t i, j;

    if (n <= 12) {
        for (i = 1; i < n; i++)
            for (j = i; j > 0 && key_less(s, &k[j], &k[j - 1]); j--) {
                t = k[j];
                k[j] = k[j - 1];
                k[j - 1] = t;
            }
        return;
    }
    tmp = kp_xmalloc(n * sizeof(*tmp));
    merge_sort(s, k, tmp, n);
    free(tmp);
}

static int
sort_key_of(struct kp_jsonpath *jp, const cJSON *pod, struct sort_key *k,
            struct kp_error *err)
{
    struct kp_jp_results r;
    char msg[MSG];
    const cJSON *qp = cJSON_GetObjectItemCaseSensitive(pod, "queuePosition");

    if (kp_jsonpath_find(jp, pod, &r, msg, sizeof(msg)) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s", msg);
    k->none = r.n == 0 || r.lists[0].n == 0;
    if (!k->none)
        k->v = r.lists[0].v[0];
    k->pos = cJSON_IsNumber(qp) ? qp->valueint : 0;
    kp_jp_results_release(&r);
    return 0;
}

static int
sort_by_field(const char *field, const cJSON *pods, struct sort_key *keys,
              size_t n, struct kp_error *err)
{
    struct sorter s = {NULL, err, false};
    struct kp_jsonpath *jp;
    struct kp_buf q;
    char msg[MSG];
    const cJSON *p;
    size_t i = 0, found = 0;

    jp = kp_jsonpath_parse("sorting", field, msg, sizeof(msg));
    if (!jp)
        return kp_errorf(err, KP_EXIT_ERROR, "%s", msg);
    kp_jsonpath_allow_missing_keys(jp, true);
    cJSON_ArrayForEach(p, pods) {
        if (sort_key_of(jp, p, &keys[i], err) < 0) {
            kp_jsonpath_free(jp);
            return -1;
        }
        found += !keys[i++].none;
    }
    kp_jsonpath_free(jp);
    if (!found) {
        kp_buf_init(&q);
        go_quote(&q, field);
        kp_buf_add(&q, "", 1);
        kp_errorf(err, KP_EXIT_ERROR, "couldn't find any field with path %s "
                  "in the list of objects", q.data);
        kp_buf_release(&q);
        return -1;
    }
    s.field = field;
    sort_keys(&s, keys, n);
    return s.failed ? -1 : 0;
}

static int
sort_doc(const char *expr, const cJSON *pods, struct sort_key **keys,
         size_t *n, struct kp_error *err)
{
    char *field;
    int rc;

    *n = (size_t)cJSON_GetArraySize(pods);
    *keys = kp_xmalloc((*n + 1) * sizeof(**keys));
    if (*n == 0)
        return 0;
    field = kp_relaxed_jsonpath(expr, err);
    if (!field)
        return -1;
    rc = sort_by_field(field, pods, *keys, *n, err);
    free(field);
    return rc;
}

int
kp_kubectl_sort(const char *expr, const char *json, size_t len, int **pos,
                size_t *n, struct kp_error *err)
{
    cJSON *doc = cJSON_ParseWithLength(json, len);
    struct sort_key *keys = NULL;
    size_t i;
    int rc;

    *pos = NULL;
    *n = 0;
    if (!doc)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot read back the report");
    drop_nulls(doc);
    rc = sort_doc(expr, cJSON_GetObjectItemCaseSensitive(doc, "pods"), &keys,
                  n, err);
    if (rc == 0) {
        *pos = kp_xmalloc((*n + 1) * sizeof(**pos));
        for (i = 0; i < *n; i++)
            (*pos)[i] = keys[i].pos;
    }
    free(keys);
    cJSON_Delete(doc);
    return rc;
}
