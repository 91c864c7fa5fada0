/*
 * labels.h - label sets, LabelSelector and NodeSelector.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/labels/selector.go,
 * apimachinery/pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector) and
 * component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
 * All memory comes from the arena passed to the decoders.
 */
#ifndef KP_LABELS_H
#define KP_LABELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "error.h"
#include "hash.h"

struct kp_label {
    const char *key;
    const char *value;
    uint64_t h;                 /* kp_label_hash(key, value) */
};

/*
 * The hash of a (key, value) pair: a label's, kept in it wherever one is
 * made or changed, and the counters' of topology pairs (tpcount.h), which
 * take a node label's instead of hashing its strings again.
 */
static inline uint64_t
kp_label_hash(const char *key, const char *value)
{
    return kp_hash_str(kp_hash_byte(kp_hash_str(KP_HASH_SEED, key), 0xffu),
                       value);
}

/* A label set, in document order; keys and values are interned. */
struct kp_labels {
    size_t n;
    const struct kp_label *items;
};

enum kp_op {
    KP_OP_IN,
    KP_OP_NOT_IN,
    KP_OP_EXISTS,
    KP_OP_DOES_NOT_EXIST,
    KP_OP_GT,
    KP_OP_LT
};

struct kp_requirement {
    const char *key;
    enum kp_op op;
    size_t nvalues;
    const char **values;
    bool num_ok;        /* Gt/Lt: the single value parsed as int64 */
    int64_t num;
};

/* A LabelSelector: the AND of its requirements (matchLabels become In). */
struct kp_selector {
    bool is_null;       /* absent or JSON null: matches nothing */
    /*
     * Set when a matchExpressions value is not a valid label value: the
     * API server keeps such selectors from before it checked values
     * (AllowInvalidLabelValueInSelector), LabelSelectorAsSelector fails on
     * them, and the scheduler then treats them as matching nothing.
     */
    bool invalid;
    size_t nreq;        /* 0 and !is_null: empty selector, matches all */
    struct kp_requirement *reqs;
};

/*
 * One nodeSelectorTerms entry.  The requirements are kept as written
 * (those with an unknown operator dropped), even when the term is
 * invalid, so that NodeAffinity's PreFilter can read the matchFields.
 */
struct kp_node_selector_term {
    /*
     * newNodeSelectorTerm found a parse error (unknown operator, bad value
     * count, invalid key or value, Gt/Lt value not an integer, matchFields
     * not In/NotIn with one value): the term matches nothing.
     */
    bool invalid;
    size_t nexprs;
    struct kp_requirement *exprs;   /* on node labels */
    size_t nfields;
    struct kp_requirement *fields;  /* metadata.name; other keys read "" */
};

/* NodeSelector: terms are ORed; absent means "no constraint" (is_null). */
struct kp_node_selector {
    bool is_null;
    size_t nterms;
    struct kp_node_selector_term *terms;
};

/*
 * Decode a metadata.labels-style object of string values.  NULL or JSON
 * null give no labels; a null value reads as "" (Go's zero value).
 * Errors: "expected an object", "<key>: expected a string".
 */
int kp_labels_from_json(struct kp_arena *a, const cJSON *obj,
                        struct kp_labels *out, struct kp_error *err);
/* Value of key, or NULL when absent (l may be NULL). */
const char *kp_labels_get(const struct kp_labels *l, const char *key);
/* The label of key, or NULL when absent (l may be NULL). */
const struct kp_label *kp_labels_find(const struct kp_labels *l,
                                      const char *key);
/*
 * labels.SelectorFromSet(set).Matches(l): every key of set is in l with
 * the same value.  An empty set matches everything (pod.spec.nodeSelector).
 */
bool kp_labels_set_matches(const struct kp_labels *set,
                           const struct kp_labels *l);

/*
 * Decode a metav1.LabelSelector (NULL or JSON null gives is_null).
 * Wrong types, unknown operators (Gt and Lt included), value lists that
 * the API would reject ("In" with no values, "Exists" with values), a
 * missing or invalid key and invalid matchLabels values are errors naming
 * the offending field relative to the selector, e.g.
 * "matchExpressions[0].operator: unknown operator 'Foo'".  An invalid
 * matchExpressions value sets invalid instead (see struct kp_selector).
 */
int kp_selector_from_json(struct kp_arena *a, const cJSON *json,
                          struct kp_selector *out, struct kp_error *err);
/* AND of the requirements; is_null and invalid match nothing. */
bool kp_selector_matches(const struct kp_selector *s,
                         const struct kp_labels *l);
/*
 * Requirement.Matches: In (present, value listed), NotIn (absent or not
 * listed), Exists, DoesNotExist, Gt/Lt (present, the value parses as an
 * int64 and compares with num; false unless num_ok).
 */
bool kp_requirement_matches(const struct kp_requirement *r,
                            const struct kp_labels *l);

/*
 * Decode a core/v1 NodeSelector ({nodeSelectorTerms: [...]}); NULL or JSON
 * null give is_null.  Only wrong JSON types are errors, e.g.
 * "nodeSelectorTerms[0].matchExpressions: expected an array"; what
 * nodeaffinity.go fails to parse marks the term invalid.
 */
int kp_node_selector_from_json(struct kp_arena *a, const cJSON *json,
                               struct kp_node_selector *out,
                               struct kp_error *err);
/*
 * AND of the expressions on node_labels and the fields on node_name (a
 * node without a name has no fields: they are skipped, as upstream).  An
 * invalid term and a term with neither expressions nor fields match
 * nothing.
 */
bool kp_node_selector_term_matches(const struct kp_node_selector_term *t,
                                   const struct kp_labels *node_labels,
                                   const char *node_name);
/* OR of the terms; no terms match nothing; is_null matches every node. */
bool kp_node_selector_matches(const struct kp_node_selector *ns,
                              const struct kp_labels *node_labels,
                              const char *node_name);

#endif
