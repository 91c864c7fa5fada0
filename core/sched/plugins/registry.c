/*
 * registry.c - the Filter and Score plugins of the default profile, in
 * upstream order (pkg/scheduler/framework/plugins/registry.go names them;
 * pkg/scheduler/apis/config/v1/default_plugins.go orders them), and
 * kp_cluster_free_caches, which frees the caches the plugins keep on the
 * cluster.  Moved verbatim from framework.c (kp_cluster_free_caches: from
 * cluster_state.c) and score.c (issue 28).
 */
#include "framework.h"
#include "label_index.h"
#include "plugins.h"
#include "score.h"
#include "selcount.h"
#include "term_domains.h"

#include <stdint.h>
#include <stdlib.h>

/* ---- the default profile's Filter plugins, in upstream order ---- */

const struct kp_plugin *const kp_filter_plugins[] = {
    &kp_plugin_node_unschedulable,
    &kp_plugin_node_name,
    &kp_plugin_taint_toleration,
    &kp_plugin_node_affinity,
    &kp_plugin_node_ports,
    &kp_plugin_node_resources_fit,
    &kp_plugin_volume_restrictions,
    &kp_plugin_node_volume_limits,
    &kp_plugin_volume_binding,
    &kp_plugin_volume_zone,
    &kp_plugin_pod_topology_spread,
    &kp_plugin_inter_pod_affinity,
};

const size_t kp_nfilter_plugins =
    sizeof(kp_filter_plugins) / sizeof(kp_filter_plugins[0]);

/* ---- the default profile's Score plugins, in upstream order ---- */

const struct kp_score_plugin *const kp_score_plugins[] = {
    &kp_score_taint_toleration,
    &kp_score_node_affinity,
    &kp_score_node_resources_fit,
    &kp_score_pod_topology_spread,
    &kp_score_inter_pod_affinity,
    &kp_score_balanced_allocation,
    &kp_score_image_locality,
};

const size_t kp_nscore_plugins =
    sizeof(kp_score_plugins) / sizeof(kp_score_plugins[0]);

/* ---- the caches the plugins keep on the cluster ---- */

void
kp_cluster_free_caches(struct kp_cluster *cl)
{
    size_t i;

    struct kp_caches *cc = cl->caches;

    if (!cc)
        return;
    kp_selcount_free(cc->selcount);
    kp_term_domains_free(cc->term_domains);
    /* decided stays: a cluster's tables do not make them again */
    cc->term_domains = NULL;
    /* a template's indexes are the template's to free */
    if (!cc->index_home) {
        kp_image_index_free(cc->images, cl->snap ? cl->snap->nnodes : 0);
        kp_label_index_free(cc->label_index);
    }
    cc->label_index = NULL;
    cc->index_home = NULL;
    for (i = 0; i < cc->ncolumns; i++) {
        free(cc->column[i]);
        free(cc->column_h[i]);
        free(cc->column_key[i]);
    }
    free(cc->largest_alloc);
    free(cc->largest_node);
    cc->largest_alloc = NULL;
    cc->largest_node = NULL;
    cc->selcount = NULL;
    cc->images = NULL;
    cc->ncolumns = 0;
}
