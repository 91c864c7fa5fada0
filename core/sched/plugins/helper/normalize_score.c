/*
 * normalize_score.c - helper.DefaultNormalizeScore
 * (pkg/scheduler/framework/plugins/helper/normalize_score.go), declared
 * in score.h.  Moved verbatim from core/sched/score.c (issue 28): the
 * plugins that call it sit below score.c.
 */
#include "score.h"

void
kp_default_normalize_score(int64_t max_priority, bool reverse,
                           int64_t *scores, size_t n)
{
    int64_t max_count = 0;
    size_t i;

    for (i = 0; i < n; i++)
        if (scores[i] > max_count)
            max_count = scores[i];
    if (max_count == 0) {
        for (i = 0; reverse && i < n; i++)
            scores[i] = max_priority;
        return;
    }
    for (i = 0; i < n; i++) {
        int64_t s = max_priority * scores[i] / max_count;

        scores[i] = reverse ? max_priority - s : s;
    }
}
