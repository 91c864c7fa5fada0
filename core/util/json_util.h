/*
 * json_util.h - strict, typed access to cJSON objects for the decoders.
 *
 * Absent keys and JSON null read as "not set".  A value of the wrong type
 * is an error "<key>: expected <type>".  kp_error_path() prepends a field
 * path segment so that errors read "spec.containers[0].image: ...".
 */
#ifndef KP_JSON_UTIL_H
#define KP_JSON_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "error.h"

/* Prepend "<segment>." to err's message (a field path); returns -1. */
int kp_error_path(struct kp_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The member, or NULL when absent or JSON null. */
const cJSON *kp_json_get(const cJSON *obj, const char *key);

int kp_json_str(struct kp_arena *a, const cJSON *obj, const char *key,
                const char **out, struct kp_error *err);
/* Like kp_json_str, but the string is interned. */
int kp_json_istr(struct kp_arena *a, const cJSON *obj, const char *key,
                 const char **out, struct kp_error *err);
int kp_json_obj(const cJSON *obj, const char *key, const cJSON **out,
                struct kp_error *err);
int kp_json_arr(const cJSON *obj, const char *key, const cJSON **out,
                struct kp_error *err);
int kp_json_bool(const cJSON *obj, const char *key, bool *out,
                 struct kp_error *err);
/* An integer in [min, max]; *set tells whether it was present. */
int kp_json_int(const cJSON *obj, const char *key, int64_t min, int64_t max,
                int64_t *out, bool *set, struct kp_error *err);
/* An RFC 3339 time string as ns since the epoch; *set as above. */
int kp_json_time(const cJSON *obj, const char *key, int64_t *out,
                 bool *set, struct kp_error *err);
/* Parse RFC 3339 ("2024-05-01T10:00:00Z", fractions, offsets). */
int kp_parse_rfc3339(const char *s, int64_t *ns);
/* An array of strings (interned). */
int kp_json_str_array(struct kp_arena *a, const cJSON *obj, const char *key,
                      size_t *n, const char ***out, struct kp_error *err);

/*
 * Validate a parsed document: duplicate keys in any object, invalid UTF-8
 * in any string or key, nesting deeper than max_depth.  The error names
 * the path to the offending value.
 */
int kp_json_validate(const cJSON *root, int max_depth, struct kp_error *err);
/*
 * The same for a value found at nesting level depth of its document (the
 * path in errors starts at v).  The members of v named skip (if not NULL)
 * are not descended into: a List's items are validated one by one.
 */
int kp_json_validate_at(const cJSON *v, int depth, int max_depth,
                        const char *skip, struct kp_error *err);
/*
 * kp_json_validate_at for a value parsed from text kp_json_scan_marks
 * found to be ASCII (ascii true): its strings are not checked for UTF-8
 * again (KP_NO_ASCII_SKIP=1: they are).
 */
int kp_json_validate_ascii_at(const cJSON *v, int depth, int max_depth,
                              const char *skip, bool ascii,
                              struct kp_error *err);

/*
 * Check the JSON text of one document (buf starts at its first byte) for
 * what cJSON accepts but RFC 8259 does not, and for what would make it
 * fail without saying why: raw control characters in strings, numbers
 * with leading zeros or a bare point, nesting deeper than max_depth, an
 * end of input inside the document.  Returns 0, or -1 with *at the
 * offset of the problem and *what a description ("truncated input" for
 * the last one).  A document that does not start with '{' or '[' is left
 * to cJSON.
 */
int kp_json_scan(const char *buf, size_t len, int max_depth, size_t *at,
                 const char **what);
/*
 * The same checks for one value of any type at buf[0] (no byte order
 * mark): on success *at is the offset just after an object, array,
 * string or number, or 0 for anything else (left to cJSON).  kp_json_scan
 * sets *at the same way after an object or array.
 */
int kp_json_scan_value(const char *buf, size_t len, int max_depth,
                       size_t *at, const char **what);
/*
 * kp_json_scan_value that also records in marks (grown with
 * kp_xrealloc; the caller frees off) the offset of every ',' directly
 * inside the value: for an array, where its elements are separated.
 */
struct kp_json_marks {
    size_t *off;
    size_t n, cap;
    /*
     * Set when a byte of the value is 0x80 or above.  Unset, every string
     * cJSON parses from it is valid UTF-8 (its \u escapes decode to
     * valid sequences: the scan refuses lone surrogates), so
     * kp_json_validate_ascii_at need not look again.
     */
    bool non_ascii;
};
int kp_json_scan_marks(const char *buf, size_t len, int max_depth,
                       size_t *at, const char **what,
                       struct kp_json_marks *marks);

/*
 * Parse trees without malloc: with the hooks on (kp_json_arena_hooks,
 * while no other thread uses cJSON), what cJSON allocates on a thread
 * whose tree arena is set (kp_json_tree_arena; NULL: none) comes from
 * that arena, and cJSON's frees there do nothing: such a tree is never
 * given to cJSON_Delete, the arena is reset instead.  Elsewhere cJSON
 * uses malloc and free as without the hooks.
 */
void kp_json_arena_hooks(bool on);
void kp_json_tree_arena(struct kp_arena *a);

/* "a number", "a string", "an array", "a boolean", "null", "an object" */
const char *kp_json_type_name(const cJSON *v);

#endif
