/*
 * yaml_json.h - YAML manifests into cJSON, read as Kubernetes reads them
 * (sigs.k8s.io/yaml over go-yaml v2: YAML 1.1 resolution of plain
 * scalars).
 */
#ifndef KP_YAML_JSON_H
#define KP_YAML_JSON_H

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

#endif
