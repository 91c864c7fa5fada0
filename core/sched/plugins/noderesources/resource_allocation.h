/*
 * resource_allocation.h - what the files of noderesources/ share: the
 * per-resource scores of NodeResourcesFit's strategies
 * (least_allocated.c, most_allocated.c, requested_to_capacity_ratio.c),
 * balancedResourceScorer (balanced_allocation.c), and the scoring of
 * profiles that change the default strategy or resources
 * (resource_allocation.c).
 */
#ifndef KP_RESOURCE_ALLOCATION_H
#define KP_RESOURCE_ALLOCATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kp_cycle;
struct kp_profile;
struct kp_score_nodes;

/* leastRequestedScore: 0 when requested exceeds capacity or it is 0 */
int64_t kp_least_requested_score(int64_t requested, int64_t capacity);
/* mostRequestedScore; alloc > 0 */
int64_t kp_most_requested_score(int64_t req, int64_t alloc);
/* RequestedToCapacityRatio's shape at req / alloc; alloc > 0 */
int64_t kp_requested_to_capacity_ratio_score(const struct kp_profile *p,
                                             int64_t req, int64_t alloc);
/* balancedResourceScorer over n fractions */
int64_t kp_balanced_resource_scorer(const double *fractions, size_t n);
/* the v1.36 score from the balance with and without the pod (#135573) */
int64_t kp_balanced_change_score(int64_t with_pod, int64_t without_pod);
/* whether c's profile scores the change (v1.36 and later) */
bool kp_ba_scores_change(const struct kp_cycle *c);
/*
 * NodeResourcesFit's strategy and BalancedAllocation's resources of
 * f->c->profile, for profiles that change them.
 */
bool kp_fit_profile_pre_score(const struct kp_score_nodes *f, void **state);
int64_t kp_fit_profile_score(const struct kp_score_nodes *f, void *state,
                             size_t idx);
bool kp_ba_profile_pre_score(const struct kp_score_nodes *f, void **state);
int64_t kp_ba_profile_score(const struct kp_score_nodes *f, void *state,
                            size_t idx);

#endif
