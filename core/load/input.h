/*
 * input.h - what -f names, read as kubectl's resource builder reads it
 * (k8s.io/cli-runtime pkg/resource/visitor.go, ExpandPathsToFileVisitors
 * and FileVisitor): a file, standard input ("-") or a directory; JSON or
 * YAML, one or more documents.
 */
#ifndef KP_INPUT_H
#define KP_INPUT_H

#include <stdbool.h>

#include "error.h"
#include "snapshot.h"

/* What the -f paths of one run had in common. */
struct kp_input {
    bool recursive;             /* -R: walk subdirectories */
    char dump_dir[512];         /* the first cluster-info dump read, or "" */
    /* a recording (recording.h) is read as it was at at_ms (0: last),
     * with what was deleted from from_ms on (0: nothing) */
    long long at_ms, from_ms;
};

/*
 * Load path into s: "-" is standard input; a directory loads its files
 * whose names end in .json, .yaml or .yml, in lexical order (with
 * in->recursive, those of its subdirectories too, depth first); a file
 * named on the command line is read whatever its name.  A file is YAML
 * when its name ends in .yaml or .yml, JSON when it ends in .json, and
 * else JSON when its first non-blank character is '{', '[' or '"' (as
 * kubectl sniffs), YAML otherwise.  YAML documents go through
 * kp_yaml_to_json() into the JSON loader: the same checks, limits and
 * error lines ("FILE: document N: pod 'ns/name': field: ...").  A
 * directory laid out as `kubectl cluster-info dump --output-directory`
 * is noted in in->dump_dir.  Warnings go to s.
 */
int kp_input_load(struct kp_snapshot *s, struct kp_input *in,
                  const char *path, struct kp_error *err);

/*
 * After every -f path: the warning that a cluster-info dump holds no
 * PodDisruptionBudgets or PriorityClasses, when none came from another
 * file.  Call before kp_snapshot_finish().
 */
void kp_input_warn_missing(struct kp_snapshot *s, const struct kp_input *in);

#endif
