/*
 * yaml_json.h - YAML manifests into cJSON, read as Kubernetes reads them
 * (sigs.k8s.io/yaml over go-yaml v2: YAML 1.1 resolution of plain
 * scalars).
 */
#ifndef KP_YAML_JSON_H
#define KP_YAML_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "error.h"

/*
 * Parse a YAML stream of one or more documents ("---" separated) into a
 * new cJSON array holding one value per document (an empty document is
 * JSON null).  Plain scalars resolve as YAML 1.1 does (null: ~ null "";
 * bools: true/false, yes/no, on/off, y/n in their three spellings; ints:
 * decimal, 0x, 0o, 0b, leading-zero octal, underscores allowed; floats);
 * every other scalar, and every quoted or block scalar, is a string.
 * Aliases, non-scalar keys, duplicate keys and NUL characters are
 * errors ("line L, column C: ...").  The caller owns *docs (cJSON_Delete).
 */
int kp_yaml_to_json(const char *buf, size_t len, cJSON **docs,
                    struct kp_error *err);

/*
 * Streamed reading, for large inputs (input.c; issue 27): the stream is
 * read twice, never held as one tree.
 *
 * kp_yaml_headers reads it all, with the checks and errors of
 * kp_yaml_to_json, into one value per document: null for an empty one;
 * for a List (a mapping whose "items" is a sequence, kind ending in
 * "List" or no kind) the mapping with "items" an empty array, its
 * elements built one at a time and dropped; true for any other document
 * (built and dropped too: read again whole).
 *
 * A kp_yaml_reader then reads the same text again, a document at a
 * time: kp_yaml_reader_doc with items false returns the next document
 * whole (as kp_yaml_to_json would), with items true prepares the next
 * document's items for kp_yaml_reader_item (a kp_item_pull_fn: 1 and
 * the next element, 0 at the document's end).
 */
int kp_yaml_headers(const char *buf, size_t len, cJSON **docs,
                    struct kp_error *err);
struct kp_yaml_reader;
/* NULL when libyaml cannot start (out of memory) */
struct kp_yaml_reader *kp_yaml_reader_new(const char *buf, size_t len);
void kp_yaml_reader_free(struct kp_yaml_reader *r);
int kp_yaml_reader_doc(struct kp_yaml_reader *r, bool items, cJSON **doc,
                       struct kp_error *err);
int kp_yaml_reader_item(void *ctx, cJSON **item, struct kp_error *err);

#endif
