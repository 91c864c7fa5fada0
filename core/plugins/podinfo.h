/*
 * podinfo.h - the parts of pkg/scheduler/framework/types.go that
 * InterPodAffinity and PodTopologySpread share: AffinityTerm.Matches,
 * the parse errors NewPodInfo reports, and LabelSelectorAsSelector's
 * error text for selectors the loader kept as "invalid".
 *
 * Namespace labels are not in a snapshot.  A namespaceSelector `{}`
 * selects every namespace (exact); a null one selects nothing beyond
 * the term's namespaces (exact); a non-empty one is taken to match no
 * namespace (mergeAffinityTermNamespacesIfNotEmpty lists none), so only
 * the listed namespaces count.
 */
#ifndef KP_PODINFO_H
#define KP_PODINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "../arena.h"
#include "../model.h"

/*
 * AffinityTerm.Matches: pod's namespace is one of the term's namespaces
 * (the owner's own namespace when none is listed and namespaceSelector
 * is null) or namespaceSelector is `{}`, and the labelSelector matches
 * pod's labels.  owner_ns is the namespace of the pod holding the term.
 */
bool kp_affinity_term_matches(const struct kp_affinity_term *t,
                              const char *owner_ns, const struct kp_pod *pod);
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
