/*
 * diagnosis.h - the numbers behind a pod's FitError (diagnosis.c):
 * requests, the nodes each Filter reason rules out with its specifics,
 * and what DryRunPreemption made of them; -o json's "diagnosis" and the
 * lines of -o describe.
 */
#ifndef KP_DIAGNOSIS_H
#define KP_DIAGNOSIS_H

#include "framework.h"
#include "preemption.h"
#include "report.h"

/*
 * For c->pod, at its turn (c->cl as it stands): st are the filter pass's
 * statuses of every node, res the PostFilter's result (NULL when the
 * profile has no DefaultPreemption; its nodes recorded, or NULL for a pod
 * not eligible).  Sets pr->diagnosis_json and pr->diagnosis_text in ra.
 */
void kp_diagnose(const struct kp_cycle *c, struct kp_arena *ra,
                 struct kp_pod_report *pr, const struct kp_status *st,
                 const struct kp_preempt_result *res);

#endif
