/*
 * podinfo.h - the parts of pkg/scheduler/framework/types.go that
 * InterPodAffinity and PodTopologySpread share: AffinityTerm.Matches,
 * the parse errors NewPodInfo reports, and LabelSelectorAsSelector's
 * error text for selectors the loader kept as "invalid"; and the
 * namespaceSelector handling of plugins/interpodaffinity/plugin.go
 * (mergeAffinityTermNamespacesIfNotEmpty, GetNamespaceLabelsSnapshot).
 *
 * A term's namespaces: those listed, or the owner's own namespace when
 * none is listed and namespaceSelector is null; plus, for a non-null
 * namespaceSelector, the namespaces whose labels it matches (`{}`: all).
 * The incoming pod's terms have their selector resolved once against the
 * snapshot's Namespaces (the merge); an existing pod's term matches the
 * incoming pod's namespace labels.  A snapshot without any Namespace
 * object cannot tell: a selector other than `{}` then selects nothing
 * (kp_snapshot_finish() warns).
 */
#ifndef KP_PODINFO_H
#define KP_PODINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "model.h"
#include "snapshot.h"

/*
 * GetNamespaceLabelsSnapshot: the labels of p's Namespace; an empty set
 * when the snapshot has Namespaces but not that one (the lister's "not
 * found"); NULL when the snapshot has no Namespace at all.
 */
const struct kp_labels *kp_pod_namespace_labels(const struct kp_snapshot *s,
                                                const struct kp_pod *p);
/*
 * mergeAffinityTermNamespacesIfNotEmpty for each of the incoming pod's n
 * terms: NULL for a term whose namespaceSelector is null or `{}` (nothing
 * to merge), else one byte per snapshot namespace (by index), 1 where the
 * selector matches its labels.  Allocated in a; NULL when n is 0.
 */
const unsigned char **kp_affinity_terms_merge_namespaces(
    struct kp_arena *a, const struct kp_snapshot *s,
    const struct kp_affinity_term *t, size_t n);
/*
 * Whether a pod of namespace ns is in the namespaces t names (its owner's
 * when none); with no namespaceSelector, no other pod can match t.
 */
bool kp_term_ns_listed(const struct kp_affinity_term *t, const char *owner_ns,
                       const char *ns);
/*
 * AffinityTerm.Matches(q, nil) for a term of the incoming pod (owner_ns)
 * after the merge: q's namespace is one of the term's, or selected (sel
 * from kp_affinity_terms_merge_namespaces, may be NULL), or the selector
 * is `{}`; and the labelSelector matches q's labels.
 */
bool kp_incoming_term_matches(const struct kp_affinity_term *t,
                              const unsigned char *sel,
                              const char *owner_ns, const struct kp_pod *q);
/*
 * AffinityTerm.Matches(pod, nsLabels) for a term of an existing pod
 * (owner_ns) against the incoming pod: pod's namespace is one of the
 * term's, or the namespaceSelector matches ns_labels (pod's namespace
 * labels, kp_pod_namespace_labels(); NULL: only `{}` matches); and the
 * labelSelector matches pod's labels.
 */
bool kp_existing_term_matches(const struct kp_affinity_term *t,
                              const char *owner_ns, const struct kp_pod *pod,
                              const struct kp_labels *ns_labels);
/* The term's selectors parse (neither is marked invalid). */
bool kp_affinity_term_valid(const struct kp_affinity_term *t);
/*
 * GetAffinityTerms: a list with one term that fails to parse is dropped
 * as a whole.  Returns n, or 0 when some term is invalid.
 */
size_t kp_affinity_terms_usable(const struct kp_affinity_term *t, size_t n);
/*
 * The aggregated NewPodInfo error ("requiredAffinityTerms: values[0][k]:
 * Invalid value: ..."), or NULL when all four term lists parse.  The
 * string lives in a.
 */
const char *kp_pod_info_parse_error(struct kp_arena *a,
                                    const struct kp_pod *p);
/*
 * LabelSelectorAsSelector's error for a selector marked invalid (the
 * first requirement with invalid values), or NULL when it parses.
 */
const char *kp_selector_parse_error(struct kp_arena *a,
                                    const struct kp_selector *s);

#endif
