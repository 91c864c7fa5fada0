/*
 * corev1.h - the pod-and-node helpers of k8s.io/component-helpers/
 * scheduling/corev1 that the scheduler's plugins and kubectl-preempt's
 * --add (DaemonSet pods) both use: Toleration.ToleratesTaint
 * (k8s.io/api/core/v1/toleration.go), TolerationsTolerateTaint
 * (helpers.go), and the pod's nodeSelector with its required node
 * affinity (nodeaffinity.GetRequiredNodeAffinity(pod).Match).
 */
#ifndef KP_COREV1_H
#define KP_COREV1_H

#include <stdbool.h>

#include "model.h"

/* Toleration.ToleratesTaint */
bool kp_tolerates(const struct kp_toleration *t, const struct kp_taint *taint);
/* TolerationsTolerateTaint: some toleration of p tolerates taint */
bool kp_tolerates_any(const struct kp_pod *p, const struct kp_taint *taint);
/* RequiredNodeAffinity.Match: nodeSelector and required node affinity */
bool kp_pod_matches_node_affinity(const struct kp_pod *p,
                                  const struct kp_node *n);

#endif
