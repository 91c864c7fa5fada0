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

struct kp_label {
    const char *key;
    const char *value;
};

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
    size_t nreq;        /* 0 and !is_null: empty selector, matches all */
    struct kp_requirement *reqs;
};

struct kp_node_selector_term {
    size_t nexprs;
    struct kp_requirement *exprs;   /* on node labels */
    size_t nfields;
    struct kp_requirement *fields;  /* key metadata.name only */
};

/* NodeSelector: terms are ORed; absent means "no constraint" (is_null). */
struct kp_node_selector {
    bool is_null;
    size_t nterms;
    struct kp_node_selector_term *terms;
};

/* Decode a metadata.labels-style object of string values. */
int kp_labels_from_json(struct kp_arena *a, const cJSON *obj,
                        struct kp_labels *out, struct kp_error *err);
/* Value of key, or NULL when absent. */
const char *kp_labels_get(const struct kp_labels *l, const char *key);

/*
 * Decode a metav1.LabelSelector (NULL or JSON null gives is_null).
 * Wrong types, unknown operators and value lists that the API would
 * reject ("In" with no values, "Exists" with values) are errors naming
 * the offending field relative to the selector.
 */
int kp_selector_from_json(struct kp_arena *a, const cJSON *json,
                          struct kp_selector *out, struct kp_error *err);
bool kp_selector_matches(const struct kp_selector *s,
                         const struct kp_labels *l);
bool kp_requirement_matches(const struct kp_requirement *r,
                            const struct kp_labels *l);

/* Decode a core/v1 NodeSelector ({nodeSelectorTerms: [...]}). */
int kp_node_selector_from_json(struct kp_arena *a, const cJSON *json,
                               struct kp_node_selector *out,
                               struct kp_error *err);
bool kp_node_selector_term_matches(const struct kp_node_selector_term *t,
                                   const struct kp_labels *node_labels,
                                   const char *node_name);
/* OR of the terms; a NodeSelector with no terms matches nothing. */
bool kp_node_selector_matches(const struct kp_node_selector *ns,
                              const struct kp_labels *node_labels,
                              const char *node_name);

#endif
