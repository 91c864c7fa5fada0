/*
 * score.h - the default profile's Score plugins and the host selection of
 * pkg/scheduler/schedule_one.go (numFeasibleNodesToFind, prioritizeNodes,
 * selectHost), with the weights of
 * pkg/scheduler/apis/config/v1/default_plugins.go.
 *
 * Each plugin has upstream's PreScore / Score / NormalizeScore.  All
 * memory comes from the cycle's scratch arena.
 */
#ifndef KP_SCORE_H
#define KP_SCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "framework.h"

/* The nodes being scored (feasible nodes, node indexes, input order). */
struct kp_score_nodes {
    const struct kp_cycle *c;
    const int *nodes;
    size_t n;
};

struct kp_score_plugin {
    const char *name;
    int64_t weight;
    /* PreScore: *state for Score; false means Skip (no score at all). */
    bool (*pre_score)(const struct kp_score_nodes *f, void **state);
    /* Score of f->nodes[i]. */
    int64_t (*score)(const struct kp_score_nodes *f, void *state, size_t i);
    /* NormalizeScore over scores[0..f->n), or NULL. */
    void (*normalize)(const struct kp_score_nodes *f, void *state,
                      int64_t *scores);
};

/* The NodeInfo of f->nodes[i]. */
static inline const struct kp_node_info *
kp_score_node_info(const struct kp_score_nodes *f, size_t i)
{
    return &f->c->cl->nodes[f->nodes[i]];
}

/* ImageLocality's index of the nodes' images (kp_cluster.images). */
struct kp_image_index;
void kp_image_index_free(struct kp_image_index *ix, size_t nnodes);

/* In the default profile's order (MultiPoint list). */
extern const struct kp_score_plugin kp_score_taint_toleration;
extern const struct kp_score_plugin kp_score_node_affinity;
extern const struct kp_score_plugin kp_score_node_resources_fit;
extern const struct kp_score_plugin kp_score_pod_topology_spread;
extern const struct kp_score_plugin kp_score_inter_pod_affinity;
extern const struct kp_score_plugin kp_score_balanced_allocation;
extern const struct kp_score_plugin kp_score_image_locality;

extern const struct kp_score_plugin *const kp_score_plugins[];
extern const size_t kp_nscore_plugins;

/* helper.DefaultNormalizeScore */
void kp_default_normalize_score(int64_t max_priority, bool reverse,
                                int64_t *scores, size_t n);
/*
 * One plugin's normalized, unweighted scores for f's nodes (all 0 when
 * its PreScore skips).  For tests and the wide output.
 */
void kp_score_plugin_run(const struct kp_score_plugin *pl,
                         const struct kp_score_nodes *f, int64_t *scores);
/* numFeasibleNodesToFind with the default percentageOfNodesToScore. */
size_t kp_num_feasible_nodes_to_find(size_t nall);
/* prioritizeNodes: the weighted sum over every plugin, per node of f. */
void kp_prioritize_nodes(const struct kp_score_nodes *f, int64_t *totals);
/* selectHost: the node chosen among the n feasible ones (score.c). */
int kp_select_host(struct kp_cycle *c, const int *feasible, size_t n);

#endif
