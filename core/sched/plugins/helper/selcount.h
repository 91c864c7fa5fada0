/*
 * selcount.h - how many pods of each node match a selector, kept across
 * the pods of a run.
 *
 * PodTopologySpread (PreFilter, PreScore, Score) counts, node by node,
 * the pods of one namespace its constraint's selector matches
 * (countPodsMatchSelector); InterPodAffinity's PreScore asks the same of
 * every preferred term of a pod that has some (processExistingPod over
 * every pod of the cluster).  The pods of one workload ask it with the
 * same selector, one after another: the counts are kept per node and
 * per (selector, namespace rule), each stamped with the generation of
 * the NodeInfo it was counted from (kp_node_info.gen, bumped by every
 * pod added or removed), and a node's count is counted again only when
 * its NodeInfo changed since (the queue placed or removed a pod there).
 * A new entry whose selector needs a label (an In or Exists requirement)
 * is counted on every node at once, from the pods carrying it
 * (label_index.h) each on the node it is on now; KP_NO_LABEL_INDEX=1, or
 * a selector needing none, leaves each node to be counted from its pods
 * when asked.
 *
 * An entry is found (or made) once per pod and constraint or term, on
 * the thread running the cycle; kp_selcount_node may then be called for
 * different nodes from several threads.  The cache holds at most
 * KP_SELCOUNT_MAX entries, dropping the least recently used.
 */
#ifndef KP_SELCOUNT_H
#define KP_SELCOUNT_H

#include <stdint.h>

#include "framework.h"

#define KP_SELCOUNT_MAX 128
/*
 * An entry stays valid for KP_SELCOUNT_MAX - 1 lookups after its own (the
 * least recently used entry is the one reused): a caller holding more
 * than KP_SELCOUNT_HOLD entries at once counts without the cache.
 */
#define KP_SELCOUNT_HOLD 32

struct kp_selcount_entry;

/* The cluster's cache (NULL: none yet); freed by kp_selcount_free. */
struct kp_selcount;
void kp_selcount_free(struct kp_selcount *sc);
/*
 * Independent mode analyses pods on several threads at once: each thread
 * keeps its entries in a cache of its own, *own (made on first use, freed
 * by the caller with kp_selcount_free), from this call until it is made
 * again with NULL (the cluster's cache again).  Entries are found by key
 * and cluster, so a thread's cache never serves another cluster's.
 */
void kp_selcount_thread_cache(struct kp_selcount **own);
/* The calling thread's slot set by kp_selcount_thread_cache, or NULL. */
struct kp_selcount **kp_selcount_thread_cache_get(void);

/*
 * countPodsMatchSelector: the pods of ns, not being deleted, that sel
 * matches (none for an empty selector).  sel is copied.
 */
struct kp_selcount_entry *kp_selcount_spread(const struct kp_cluster *cl,
                                             const struct kp_selector *sel,
                                             const char *ns);
/*
 * The pods an incoming pod's affinity term matches
 * (kp_incoming_term_matches with the term's merged namespace selection
 * nssel, snap->nnamespaces long or NULL, and the owner's namespace).
 * The term must live as long as the snapshot; nssel is copied.
 */
struct kp_selcount_entry *
kp_selcount_term(const struct kp_cluster *cl, const struct kp_affinity_term *t,
                 const unsigned char *nssel, const char *owner_ns);
/*
 * The entry's count on ni, one of the cluster's NodeInfos (anything else,
 * a clone, is counted afresh).
 */
int64_t kp_selcount_node(struct kp_selcount_entry *e,
                         const struct kp_node_info *ni);
/*
 * Whether a term entry (kp_selcount_term) matches pod q
 * (kp_incoming_term_matches), remembered per pod of the snapshot for as
 * long as the entry: the preemption dry run asks it of every victim,
 * removed and put back, for every pod of a workload.  made is
 * kp_selcount_made(e) when e was found: an entry since reused for
 * another key (KP_SELCOUNT_MAX lookups later) matches afresh.  Any
 * thread, while no entry is looked up.
 */
unsigned long kp_selcount_made(const struct kp_selcount_entry *e);
bool kp_selcount_term_matches(struct kp_selcount_entry *e, unsigned long made,
                              const struct kp_affinity_term *t,
                              const unsigned char *nssel,
                              const char *owner_ns, const struct kp_pod *q);
/*
 * The same for a pod q whose snapshot index the caller has at hand
 * (kp_victim_table.sidx: snap->pods[sidx] == q, or -1), read without
 * reading q when the answer is remembered.
 */
bool kp_selcount_term_matches_at(struct kp_selcount_entry *e,
                                 unsigned long made,
                                 const struct kp_affinity_term *t,
                                 const unsigned char *nssel,
                                 const char *owner_ns,
                                 const struct kp_pod *q, int32_t sidx);
/*
 * A term entry's (kp_selcount_term) counts summed over the cluster's
 * nodes by their value of the topology key (nodes without it left out):
 * the incoming pod's term in InterPodAffinity's PreFilter, whose maps
 * are these sums.  Kept with the entry for up to two keys and brought up
 * to date from the cluster's changed list; NULL when not kept (a spread
 * entry, KP_NO_SELCOUNT=1, KP_NO_TERM_DOMAINS=1, a third key): the
 * caller counts node by node.  The thread running the cycle, while the
 * cluster does not change.  made: kp_selcount_made(e) when e was found
 * (an entry since reused for another key gives NULL).
 */
struct kp_tpcount;
const struct kp_tpcount *kp_selcount_domains(struct kp_selcount_entry *e,
                                             unsigned long made,
                                             const char *key);
/* The count walked from ni's pods, without the cache (the self-check). */
int64_t kp_selcount_recount(const struct kp_selcount_entry *e,
                            const struct kp_node_info *ni);

/*
 * The existing pods' pod affinity terms that InterPodAffinity's PreScore
 * reads (required affinity, preferred affinity and anti-affinity),
 * interned by content per cluster: the pods of a workload carry equal
 * terms, which then match an incoming pod or not alike, so a node's
 * table lists them as (id, how many) and PreScore matches each id once.
 * Interned from the thread that changes the cluster; read by any.
 */
enum kp_term_kind {
    KP_TERM_REQ_AFF, KP_TERM_PREF_AFF, KP_TERM_PREF_ANTI,
    KP_TERM_REQ_ANTI            /* InterPodAffinity's PreFilter */
};

struct kp_term_ref {
    const struct kp_affinity_term *t;   /* the first one seen */
    const char *owner_ns;
    enum kp_term_kind kind;
};

uint32_t kp_term_intern(const struct kp_cluster *cl,
                        const struct kp_affinity_term *t,
                        const char *owner_ns, enum kp_term_kind kind);
const struct kp_term_ref *kp_term_get(const struct kp_cluster *cl,
                                      uint32_t id);
size_t kp_term_count(const struct kp_cluster *cl);
/*
 * The (id, count) groups of the terms of ni's pods, in the order first
 * met (pods in the NodeInfo's order; a pod's list whose terms do not all
 * parse is left out, as kp_affinity_terms_usable); malloc'ed arrays.
 * anti: the required anti-affinity terms alone (KP_TERM_REQ_ANTI), else
 * the three kinds PreScore reads.
 */
size_t kp_term_groups(const struct kp_cluster *cl,
                      const struct kp_node_info *ni, bool anti,
                      uint32_t **ids, int32_t **mult);

#endif
