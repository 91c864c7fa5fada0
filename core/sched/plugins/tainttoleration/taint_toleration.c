/*
 * taint_toleration.c - mirrors pkg/scheduler/framework/plugins/
 * tainttoleration/taint_toleration.go: Filter (every NoSchedule and
 * NoExecute taint must be tolerated) and PreScore, Score, NormalizeScore
 * (fewer untolerated PreferNoSchedule taints is better).
 */
#include <string.h>

#include "kube_version.h"
#include "config.h"
#include "corev1.h"
#include "plugins.h"
#include "score.h"
#include "toleration_index.h"

/*
 * Up to v1.33 the reason named the taint: "node(s) had untolerated taint
 * {key: value}".  kubernetes/kubernetes#134740 (v1.35.0, cherry-picked
 * into a v1.34 patch release of November 2025, #135023) replaced it by
 * the generic text, so that taints stay out of pod statuses.
 */
static bool
old_reason(const struct kp_cycle *c)
{
    return !kp_kube_rule_on(KP_RULE_TAINT_GENERIC_REASON,
                            c->profile ? c->profile->kube_minor : 0);
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    size_t i;

    (void)idx;
    for (i = 0; i < ni->ntaints; i++) {
        const struct kp_taint *t = &ni->node->taints[i];

        if (strcmp(t->effect, "NoSchedule") != 0 &&
            strcmp(t->effect, "NoExecute") != 0)
            continue;
        if (!kp_tolerates_any(c->pod, t))
            return kp_status_new(KP_UNRESOLVABLE, old_reason(c) && t->reason_kv
                                 ? t->reason_kv : KP_REASON_TAINT);
    }
    return kp_status_ok();
}

const struct kp_plugin kp_plugin_taint_toleration = {
    .name = "TaintToleration",
    .node_static = true,
    .filter = filter,
};

/* ---- Score ---- */

struct tt_state {
    size_t n;
    const struct kp_toleration **tols;  /* tolerationsPreferNoSchedule */
};

static bool
tt_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_pod *p = f->c->pod;
    struct tt_state *s = kp_arena_alloc(f->c->scratch, sizeof(*s));
    size_t i;

    s->tols = kp_arena_alloc(f->c->scratch,
                             (p->ntolerations + 1) * sizeof(*s->tols));
    for (i = 0; i < p->ntolerations; i++) {
        const char *e = p->tolerations[i].effect;

        if (!e[0] || strcmp(e, "PreferNoSchedule") == 0)
            s->tols[s->n++] = &p->tolerations[i];
    }
    *state = s;
    return true;
}

/* countIntolerableTaintsPreferNoSchedule */
static int64_t
tt_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    const struct tt_state *s = state;
    int64_t count = 0;
    size_t i, j;
    for (i = 0; i < ni->node->ntaints; i++) {
        const struct kp_taint *t = &ni->node->taints[i];

        if (strcmp(t->effect, "PreferNoSchedule") != 0)
            continue;
        /*
         * the pod's toleration set: only the tolerations of s->tols (no
         * effect or PreferNoSchedule) can tolerate a PreferNoSchedule
         * taint, so looking in all of them is the same
         */
        if (f->c->pod->tol_index) {
            count += !kp_tol_index_tolerates(f->c->pod->tol_index, t);
            continue;
        }
        for (j = 0; j < s->n && !kp_tolerates(s->tols[j], t); j++)
            ;
        if (j == s->n)
            count++;
    }
    return count;
}

static void
tt_normalize(const struct kp_score_nodes *f, void *state, int64_t *scores)
{
    (void)state;
    kp_default_normalize_score(KP_MAX_NODE_SCORE, true, scores, f->n);
}

const struct kp_score_plugin kp_score_taint_toleration = {
    .name = "TaintToleration",
    .weight = 3,
    .pre_score = tt_pre_score,
    .score = tt_score,
    .normalize = tt_normalize,
};
