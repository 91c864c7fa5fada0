/*
 * toleration_index.h - TolerationsTolerateTaint
 * (k8s.io/component-helpers/scheduling/corev1/helpers.go) without a scan
 * of every toleration: a pod with many tolerations gets, when decoded, a
 * hash set of them keyed by what Toleration.ToleratesTaint
 * (k8s.io/api/core/v1/toleration.go) compares, so a taint is looked up,
 * not compared with each toleration (issue 27: 100,000 taints against
 * 100,000 tolerations was quadratic).
 *
 * KP_NO_TOLERATION_INDEX=1 (any non-empty value but 0) in the
 * environment builds no index: every taint is compared with every
 * toleration, as upstream's TolerationsTolerateTaint loops.  The answers
 * are the same either way.
 */
#ifndef KP_TOLERATION_INDEX_H
#define KP_TOLERATION_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "model.h"

/* fewer tolerations than this are scanned: a set would not pay */
#define KP_TOL_INDEX_MIN 8

struct kp_tol_index;

/*
 * The index of tol[0..n) in a, or NULL when n < KP_TOL_INDEX_MIN or the
 * switch is off.  It borrows the tolerations' strings.
 */
const struct kp_tol_index *kp_tol_index_build(struct kp_arena *a,
                                              const struct kp_toleration *tol,
                                              size_t n);
/* whether some indexed toleration tolerates taint (ToleratesTaint) */
bool kp_tol_index_tolerates(const struct kp_tol_index *ix,
                            const struct kp_taint *taint);

#endif
