/*
 * plugin_state.h - read-only views of the PreFilter states of
 * InterPodAffinity, PodTopologySpread and VolumeRestrictions, so that
 * unit tests can port the upstream rows that compare those states (TestPreFilterState,
 * TestPreFilterStateAddRemovePod, ...).  state is c->state[idx] after
 * kp_cycle_pre_filter(); NULL reads as empty.
 */
#ifndef KP_PLUGIN_STATE_H
#define KP_PLUGIN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum kp_ipa_counts {
    KP_IPA_EXISTING_ANTI,       /* existingAntiAffinityCounts */
    KP_IPA_AFFINITY,            /* affinityCounts */
    KP_IPA_ANTI                 /* antiAffinityCounts */
};

/* InterPodAffinity: the count of (key, value), 0 when absent. */
int64_t kp_ipa_state_count(const void *state, enum kp_ipa_counts which,
                           const char *key, const char *value);
/* len() of the Go map (pairs whose count is not 0). */
size_t kp_ipa_state_len(const void *state, enum kp_ipa_counts which);

/* PodTopologySpread: number of hard constraints kept by PreFilter. */
size_t kp_pts_state_nconstraints(const void *state);
/* TpValueToMatchNum[i][value]; -1 when value is not a domain. */
int64_t kp_pts_state_match_num(const void *state, size_t i,
                               const char *value);
/* len(TpValueToMatchNum[i]): the eligible domains. */
size_t kp_pts_state_domains(const void *state, size_t i);
/* CriticalPaths[i][0].MatchNum (math.MaxInt32 when no domain). */
int64_t kp_pts_state_min_match(const void *state, size_t i);

/*
 * Whether two states of InterPodAffinity / PodTopologySpread hold the
 * same counts (NULL reads as empty); why gets the first difference.  For
 * PodTopologySpread the critical paths must also give the true minimum
 * of every constraint's domains.  The self-check (selfcheck.h) compares
 * the dry run's states with recomputed ones through these.
 */
bool kp_ipa_state_same(const void *a, const void *b, char *why,
                       size_t whylen);
bool kp_pts_state_same(const void *a, const void *b, char *why,
                       size_t whylen);

/* VolumeRestrictions: conflictingPVCRefCount (0 for NULL). */
int64_t kp_vr_state_conflicts(const void *state);

#endif
