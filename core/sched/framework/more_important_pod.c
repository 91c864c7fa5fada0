/*
 * more_important_pod.c - MoreImportantPod and GetPodStartTime of
 * pkg/scheduler/util/utils.go, which upstream keeps below both the
 * framework's plugins and the preemption Evaluator; here both the victim
 * tables (defaultpreemption/victim_table.c) and the Evaluator
 * (preemption/preemption.c) call them.  Moved from preemption.c
 * (issue 28: no call up from a lower floor).
 */
#include "framework.h"

#include <stdint.h>
#include <string.h>

/* ---- MoreImportantPod ---- */

int64_t
kp_pod_start_time(const struct kp_pod *p)
{
    /* a missing start time reads as "now": later than any real one */
    return p->has_start_time ? p->start_time : INT64_MAX;
}

int
kp_importance_cmp(const struct kp_pod *a, const struct kp_pod *b)
{
    int c;

    if (a->priority != b->priority)
        return a->priority > b->priority ? -1 : 1;
    if (kp_pod_start_time(a) != kp_pod_start_time(b))
        return kp_pod_start_time(a) < kp_pod_start_time(b) ? -1 : 1;
    c = strcmp(a->ns, b->ns);
    return c ? c : strcmp(a->name, b->name);
}
