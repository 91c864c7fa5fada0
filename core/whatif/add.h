/*
 * add.h - "--add FILE": manifests not yet applied, expanded into the
 * pending pods their controllers would create.
 */
#ifndef KP_ADD_H
#define KP_ADD_H

#include "error.h"
#include "snapshot.h"

/*
 * Read path ("-" for standard input: JSON, or YAML of one or more
 * documents) and add to s, marked from_add, the pods its objects would
 * create: a Pod as written; Deployment, ReplicaSet and
 * ReplicationController spec.replicas pods named <name>-added-<i>;
 * StatefulSet <name>-<ordinal>; Job min(parallelism, completions) pods
 * <name>-<i> (none when suspended); CronJob one run of its jobTemplate,
 * the Job <name>-added; DaemonSet <name>-<node> on each node it would
 * run on.  Objects without a namespace go to default_ns.  Every added pod
 * is created after every pod already in s, in manifest order.
 * PriorityClasses are added too; an object of another kind with a pod
 * template is an error; the rest make no pods and are counted in one
 * warning per file.  Call before kp_snapshot_finish(),
 * which resolves the added pods' priorities.  Errors read
 * "<file>: document <n>: <kind> '<ns>/<name>': <field>: <what>".
 */
int kp_snapshot_add_manifests(struct kp_snapshot *s, const char *path,
                              const char *default_ns,
                              struct kp_error *err);

#endif
