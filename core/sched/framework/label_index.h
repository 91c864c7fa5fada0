/*
 * label_index.h - the snapshot's pods by label: from (key, value), and
 * from key alone, to the pods carrying it (issue 31).
 *
 * Upstream has no such index: countPodsMatchSelector
 * (podtopologyspread/common.go) and InterPodAffinity's PreFilter and
 * PreScore (interpodaffinity/filtering.go getIncomingAffinityAntiAffinity-
 * Counts, scoring.go processExistingPod) walk every pod of every
 * NodeInfo.  The selector counts (helper/selcount.c) use it to count a
 * new selector on every node at once, reading only the pods that carry
 * the label one of its requirements needs; the pods are then placed on
 * their node through kp_cluster.node_of and tested with the same
 * predicate the node-by-node count uses, so the counts are the same.
 *
 * When it stops holding: never while the cluster lives.  It lists every
 * pod of the snapshot (bound, pending, terminal) by the labels it was
 * loaded with, which no placement or removal changes; which node a pod
 * is on now is the cluster's (kp_cluster.node_of), not the index's.
 * Made on first use, each key's lists the first time a selector needs
 * that key, under a lock (independent mode asks from several threads); a
 * cluster made from a template (kp_cluster_init_from) uses the
 * template's index, kept there for every cluster made from it.
 * kp_cluster_free_caches frees an index the cluster owns.
 */
#ifndef KP_LABEL_INDEX_H
#define KP_LABEL_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "framework.h"

struct kp_label_index;

/*
 * cl's index (any thread): made empty on first use; each key's lists are
 * made the first time kp_label_index_pods asks for that key, in one pass
 * over the snapshot's pods reading that key alone, and never change.
 */
struct kp_label_index *kp_label_index_get(const struct kp_cluster *cl);

/*
 * The snapshot pod indices (ascending) of the pods whose label key has
 * value (value NULL: has the label key, any value); *n of them, none when
 * no pod does.  A pod is listed once per key.
 */
const uint32_t *kp_label_index_pods(struct kp_label_index *ix,
                                    const char *key, const char *value,
                                    size_t *n);

/*
 * The requirement of sel whose pods (kp_label_index_pods over its
 * values, or its key for Exists) are fewest, among those every pod sel
 * matches must meet by carrying a label: In (matchLabels) and Exists.
 * NULL when there is none (an empty, null or invalid selector; only
 * NotIn, DoesNotExist, Gt, Lt): the caller then reads every pod.  *total
 * is how many pods its lists hold together (a pod carries one value per
 * key, so they never repeat one).
 */
const struct kp_requirement *
kp_label_index_narrowest(struct kp_label_index *ix,
                         const struct kp_selector *sel, size_t *total);

/* Whether value i of r repeats an earlier one (its pods listed once). */
bool kp_label_index_value_repeats(const struct kp_requirement *r, size_t i);

void kp_label_index_free(struct kp_label_index *ix);

#endif
