/*
 * term_domains.h - where the existing pods' required anti-affinity terms
 * stand, by topology domain, kept across the pods of a run.
 *
 * InterPodAffinity's PreFilter (getExistingAntiAffinityCounts) walks
 * every node's pods for the required anti-affinity terms that match the
 * incoming pod and adds, per term, one at the node's value of the term's
 * topology key.  The sum over the nodes of one interned term (selcount.h
 * kp_term_intern, KP_TERM_REQ_ANTI) does not depend on the incoming pod:
 * only whether the term matches it does.  So the cluster keeps, per
 * term, (topology key, value) -> pods carrying the term on the nodes
 * with that value, changed by rebuild_table (victim_table.c) as the
 * queue places and removes pods, from the node's table before and after;
 * PreFilter then matches each term once and adds its domains.
 *
 * The same for the terms PreScore reads of the existing pods (required
 * affinity, preferred affinity and anti-affinity: the table's grp_*
 * groups; processExistingPod adds each matching term's weight at the
 * node's value of its key): PreScore matches each term once and adds
 * its weight times its domains' pods.
 *
 * Kept only for a cluster whose every node has a table (not tables_lazy):
 * made as the first table is built (kp_cluster_init_tables builds them
 * all); KP_NO_TERM_DOMAINS=1: none, PreFilter walks the nodes.  Changed by the
 * thread that changes the cluster; read by any while it does not.
 */
#ifndef KP_TERM_DOMAINS_H
#define KP_TERM_DOMAINS_H

#include <stdint.h>

#include "framework.h"
#include "tpcount.h"

struct kp_term_domains;

void kp_term_domains_free(struct kp_term_domains *d);
/*
 * A node's table's required anti-affinity groups (kp_victim_table
 * anti_grp_*) added (sign 1: the table just built) or taken away (-1:
 * the table about to go); nothing when cl has none.  The first table
 * built makes cl's (unless switched off).
 */
void kp_term_domains_table(struct kp_cluster *cl,
                           const struct kp_victim_table *vt, int node,
                           int sign);
/* cl's, or NULL: none kept (the caller walks the nodes). */
const struct kp_term_domains *kp_term_domains_of(const struct kp_cluster *cl);
/*
 * The required anti-affinity term ids that have been counted, *n of them
 * (a term whose pods have all gone has an empty map).
 */
const uint32_t *kp_term_domains_ids(const struct kp_term_domains *d,
                                    size_t *n);
/*
 * fn for each counted id of the required anti-affinity terms (scored
 * false) or of PreScore's (true) whose label selector may match a pod
 * with labels: the ids listed under one of the labels (by the values of
 * their selector's first In requirement) and those without an In
 * requirement; an id not visited does not match.  Each id at most once,
 * in no set order.  KP_NO_TERM_INDEX=1: every counted id, in the order
 * first met.
 */
void kp_term_domains_visit(const struct kp_cluster *cl,
                           const struct kp_term_domains *d, bool scored,
                           const struct kp_labels *labels,
                           void (*fn)(void *arg, uint32_t id), void *arg);
/* The domains of term id: (its topology key, value) -> pods. */
const struct kp_tpcount *kp_term_domains_get(const struct kp_term_domains *d,
                                             uint32_t id);

/*
 * Whether cl's sums are those counted afresh from every node's table
 * (the self-check); why gets the first difference.  True without any.
 */
bool kp_term_domains_check(const struct kp_cluster *cl, char *why,
                           size_t whylen);

#endif
