/*
 * jsonpath.h - kubectl's template language (client-go util/jsonpath:
 * parser.go, jsonpath.go) over cJSON trees.
 *
 * JSON objects behave as kubectl's unstructured maps: wildcard and
 * recursive descent visit members in document order (Go's map order is
 * random), and an object printed as JSON has its keys sorted (Go's
 * json.Marshal of a map).  Integral JSON numbers are int64, others
 * float64, as apimachinery decodes them.  Error texts are upstream's.
 */
#ifndef KP_JSONPATH_H
#define KP_JSONPATH_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "buf.h"

struct kp_jsonpath;

/* One value a template found: a JSON value or a literal of the template. */
enum kp_jp_kind {
    KP_JP_INVALID,              /* no value (an empty range's pass) */
    KP_JP_JSON,
    KP_JP_STRING,               /* literal text */
    KP_JP_INT,                  /* int literal */
    KP_JP_UINT8,                /* a byte of a string (wildcard) */
    KP_JP_FLOAT,
    KP_JP_BOOL
};

struct kp_jp_value {
    enum kp_jp_kind kind;
    const cJSON *json;
    const char *s;
    long long i;
    double f;
};

/* FindResults: one list of values per top-level node printed. */
struct kp_jp_list {
    size_t n, cap;
    struct kp_jp_value *v;
};

struct kp_jp_results {
    size_t n, cap;
    struct kp_jp_list *lists;
};

/*
 * Parse text (jsonpath.New(name).Parse(text)).  Returns NULL with the
 * parser's message in msg ("unclosed action", ...).  Free with
 * kp_jsonpath_free().
 */
struct kp_jsonpath *kp_jsonpath_parse(const char *name, const char *text,
                                      char *msg, size_t msglen);
void kp_jsonpath_free(struct kp_jsonpath *jp);
void kp_jsonpath_allow_missing_keys(struct kp_jsonpath *jp, bool allow);
/*
 * The bound on top-level nodes walked by one execution (20,000,000 unless
 * set; {range}s without their {end} double the work each): past it the
 * execution fails with "template walks more than N nodes".
 */
void kp_jsonpath_set_max_steps(struct kp_jsonpath *jp, long max_steps);

/*
 * FindResults on data; values borrow from data and the template.  -1
 * with upstream's message in msg.  Release r with kp_jp_results_release.
 */
int kp_jsonpath_find(struct kp_jsonpath *jp, const cJSON *data,
                     struct kp_jp_results *r, char *msg, size_t msglen);
void kp_jp_results_release(struct kp_jp_results *r);

/* Execute: the results printed as PrintResults does, into out. */
int kp_jsonpath_execute(struct kp_jsonpath *jp, const cJSON *data,
                        struct kp_buf *out, char *msg, size_t msglen);

/*
 * The parse tree in preorder, root left out, " | " between nodes (the
 * walk of parser_test.go's collectNode): text(hello), list, field(a),
 * array(1,3,_) (_ unknown, 4d derived), filter(<), int(3), float(1.5),
 * bool(1), *, .., union, ident(range).
 */
void kp_jsonpath_dump(const struct kp_jsonpath *jp, struct kp_buf *b);

/* fmt.Sprint of a value (custom-columns cells). */
void kp_jp_sprint(struct kp_buf *b, const struct kp_jp_value *v);
/* json.Marshal of a JSON value: compact, keys sorted, HTML escaped. */
void kp_jp_marshal(struct kp_buf *b, const cJSON *j);
/* Go's %v of a float64. */
void kp_jp_format_float(struct kp_buf *b, double f);
/* sortorder.NaturalLess, as kubectl sorts strings. */
bool kp_natural_less(const char *a, const char *b);

#endif
