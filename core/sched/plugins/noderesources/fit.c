/*
 * fit.c - mirrors pkg/scheduler/framework/plugins/
 * noderesources/fit.go (Filter, fitsRequest): the pod count, then cpu,
 * memory, ephemeral-storage and every scalar resource requested; the
 * node is Unresolvable when a request exceeds its total allocatable.
 */
#include <string.h>

#include "kube_version.h"
#include "config.h"
#include "plugins.h"

/*
 * NodeResourcesFitArgs ignoredResources / ignoredResourceGroups: an
 * extended resource left unchecked (its name, or the part before '/').
 */
static bool
ignored(const struct kp_profile *p, const char *name)
{
    const char *slash = strchr(name, '/');
    size_t i, glen = slash ? (size_t)(slash - name) : 0;

    /* IsExtendedResourceName: a domain of its own, not kubernetes.io */
    if (!slash || strncmp(name, "kubernetes.io/", 14) == 0)
        return false;
    for (i = 0; i < p->nignored; i++)
        if (strcmp(p->ignored[i], name) == 0)
            return true;
    for (i = 0; i < p->nignored_groups; i++)
        if (strlen(p->ignored_groups[i]) == glen &&
            strncmp(p->ignored_groups[i], name, glen) == 0)
            return true;
    return false;
}

/*
 * Whether fitsRequest checks the pod's request of resource id, want of
 * it: not the pod count (checked apart), not a request of none, not a
 * scalar resource the profile ignores
 */
static bool
request_checked(const struct kp_cycle *c, int id, int64_t want)
{
    if (id == KP_RES_PODS || want <= 0)
        return false;
    return !(id >= KP_RES_FIRST_SCALAR && c->profile &&
             (c->profile->nignored || c->profile->nignored_groups) &&
             ignored(c->profile, c->cl->snap->res_names[id]));
}

/*
 * fitsRequest on ni: whether the pod fits; with st, every reason it does
 * not (and whether it is Unresolvable), else false at the first.
 */
static bool
fits_request(const struct kp_cycle *c, const struct kp_node_info *ni,
             struct kp_status *st, bool *unresolvable)
{
    const struct kp_snapshot *snap = c->cl->snap;
    const struct kp_resvec *req = &c->pod->req;
    bool fits = true;
    size_t i;

    if ((int64_t)ni->npods + 1 > kp_ni_alloc(ni, KP_RES_PODS)) {
        if (!st)
            return false;
        fits = false;
        kp_status_add_reason(st, KP_REASON_TOO_MANY_PODS);
    }
    /* req is sorted by id: cpu, memory, ephemeral-storage, then scalars */
    for (i = 0; i < req->n; i++) {
        int id = req->e[i].id;
        int64_t want = req->e[i].value;
        int64_t total = kp_ni_alloc(ni, id);

        if (!request_checked(c, id, want))
            continue;
        if (want > kp_wrap_sub(total, kp_ni_used(ni, id))) {
            if (!st)
                return false;
            fits = false;
            kp_status_add_reason_in(st, snap->res_reasons[id], c->scratch);
            if (want > total)
                *unresolvable = true;
        }
    }
    return fits;
}

static struct kp_status
filter(const struct kp_cycle *c, int idx, const struct kp_node_info *ni)
{
    struct kp_status st = kp_status_ok();
    bool unresolvable = false;

    (void)idx;
    if (fits_request(c, ni, &st, &unresolvable))
        return st;
    st.code = KP_UNSCHEDULABLE;
    /* since v1.34 (before: Unschedulable, --kube-version 1.31-1.33) */
    if (unresolvable &&
        kp_kube_rule_on(KP_RULE_FIT_UNRESOLVABLE,
                        c->profile ? c->profile->kube_minor : 0))
        st.code = KP_UNRESOLVABLE;
    return st;
}

bool
kp_node_resources_fits(const struct kp_cycle *c, const struct kp_node_info *ni)
{
    return fits_request(c, ni, NULL, NULL);
}

void
kp_node_resources_fit_plan(const struct kp_cycle *c,
                           const struct kp_node_info *ni,
                           struct kp_fit_plan *plan)
{
    const struct kp_resvec *req = &c->pod->req;
    size_t i;

    plan->ok = false;
    plan->n = 0;
    plan->pods = kp_ni_alloc(ni, KP_RES_PODS);
    if (!ni->alloc)
        return;
    /* the requests fits_request checks, in its order */
    for (i = 0; i < req->n; i++) {
        int id = req->e[i].id, r;
        int64_t want = req->e[i].value;

        if (!request_checked(c, id, want))
            continue;
        r = kp_ni_slot(ni, id);
        if (r < 0 || plan->n == KP_FIT_PLAN_MAX)
            return;
        plan->slot[plan->n] = r;
        plan->want[plan->n] = want;
        plan->alloc[plan->n++] = ni->alloc[r];
    }
    plan->ok = true;
}

const struct kp_plugin kp_plugin_node_resources_fit = {
    .name = "NodeResourcesFit",
    .filter = filter,
};
