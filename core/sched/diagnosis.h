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

/*
 * kp_diagnose in two steps, so that the part that reads only st and the
 * nodes (the groups of reasons, the NodeResourcesFit and TaintToleration
 * specifics) can be made while the dry run runs on the other threads:
 * kp_diagnose_start keeps c and st (both must stay as they are until
 * the finish); kp_diagnose_filters(d) makes that part, on any thread,
 * once (a second call does nothing; the pool's side task, pool.h);
 * kp_diagnose_finish makes it if it was not, then the rest as
 * kp_diagnose, and frees d.
 */
struct kp_diag_pre;
struct kp_diag_pre *kp_diagnose_start(const struct kp_cycle *c,
                                      const struct kp_status *st);
void kp_diagnose_filters(void *d);
/*
 * kp_diagnose_filters with its walks over the nodes on pool's threads
 * (NULL: the calling thread's), when the pool has nothing else to do
 */
struct kp_pool;
void kp_diagnose_filters_on(void *d, struct kp_pool *pool);
/*
 * After kp_diagnose_filters: kp_reason_histogram of st without an absent
 * reason, summed from the groups (their counts are the reasons' by
 * plugin), into a
 */
struct kp_arena;
char *kp_diagnose_histogram(const struct kp_diag_pre *d, struct kp_arena *a);
void kp_diagnose_finish(struct kp_diag_pre *d, struct kp_arena *ra,
                        struct kp_pod_report *pr,
                        const struct kp_preempt_result *res);

#endif
