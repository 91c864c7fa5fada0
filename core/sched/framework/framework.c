/*
 * framework.c - see framework.h.  The Filter pass of
 * pkg/scheduler/framework/runtime/framework.go: RunFilterPlugins,
 * RunFilterPluginsWithNominatedPods, addGENominatedPods.
 */
#include "framework.h"
#include "framework_int.h"
#include "selfcheck.h"

#include <string.h>

/*
 * The Filter plugins [from, to) on ni, those c skips left out (and the
 * node_static ones under fit_only): the first failure.
 */
static struct kp_status
run_range(const struct kp_cycle *c, const struct kp_node_info *ni,
          size_t from, size_t to)
{
    size_t i;

    for (i = from; i < to; i++) {
        struct kp_status st;

        if (c->skip[i] || (c->fit_only && kp_filter_plugins[i]->node_static))
            continue;
        st = kp_filter_plugins[i]->filter(c, (int)i, ni);
        if (st.code != KP_SUCCESS) {
            st.plugin = kp_filter_plugins[i]->name;
            return st;
        }
    }
    return kp_status_ok();
}

/* the node_static plugins [0, n) on ni (never under fit_only) */
static struct kp_status
run_static(const struct kp_cycle *c, const struct kp_node_info *ni, size_t n)
{
    return run_range(c, ni, 0, n);
}

#ifdef KP_SELFCHECK
static void
check_static(const struct kp_cycle *c, const struct kp_node_info *ni,
             size_t n, const struct kp_status *kept)
{
    struct kp_status want = run_static(c, ni, n);
    int i;
    bool same = want.code == kept->code && want.plugin == kept->plugin &&
                want.nreasons == kept->nreasons;

    kp_selfcheck_count();
    for (i = 0; same && i < want.nreasons; i++)
        same = strcmp(kp_status_reason(&want, i),
                      kp_status_reason(kept, i)) == 0;
    if (!same)
        kp_selfcheck_fail("node_static answer kept for %s on %s/%s: %s %s, "
                          "want %s %s", ni->node->name, c->pod->ns,
                          c->pod->name, kept->plugin ? kept->plugin : "-",
                          kept->nreasons ? kept->reasons[0] : "",
                          want.plugin ? want.plugin : "-",
                          want.nreasons ? want.reasons[0] : "");
}
#endif

struct kp_status
kp_run_filters(const struct kp_cycle *c, const struct kp_node_info *ni)
{
    struct kp_static_answers *sa = c->cl->caches->static_answers;
    size_t i = 0;

    /*
     * The node_static plugins' answer for this node kept from a pod with
     * the same constraints (their reasons are static strings or the
     * node's): the pod armed is c's, and c is the only cycle running.
     */
    if (!c->fit_only && c->alone && sa && sa->pod == c->pod) {
        struct kp_static_slot *sl = sa->cur;
        size_t n = static_prefix();
        int node = ni->index;

        if (sl->tag[node] != sl->epoch) {
            sl->st[node] = run_static(c, ni, n);
            sl->tag[node] = sl->epoch;
        } else {
#ifdef KP_SELFCHECK
            check_static(c, ni, n, &sl->st[node]);
#endif
        }
        if (sl->st[node].code != KP_SUCCESS)
            return sl->st[node];
        i = n;
    }
    return run_range(c, ni, i, kp_nfilter_plugins);
}

struct kp_status
kp_run_filters_range(const struct kp_cycle *c, const struct kp_node_info *ni,
                     size_t from, size_t to)
{
    return run_range(c, ni, from, to);
}

/* kp_cycle_add_pod with p's requests given as a dense row */
static void
add_row_pod(struct kp_cycle *c, struct kp_node_info *ni,
            const struct kp_pod *p, const int64_t *row, bool anti,
            bool ports, bool hooks)
{
    size_t i, nres = c->cl->nres;

    ni->pods[ni->npods++] = p;
    for (i = 0; i < nres; i++)
        ni->used[i] = kp_wrap_add(ni->used[i], row[i]);
    ni->nanti += anti;
    /* the pod itself is read only for its host ports */
    if (ports)
        ports_add(ni, c->scratch, p);
    if (hooks)
        add_hooks(c, ni, p);
}

size_t
kp_cycle_count_ge_nominated(const struct kp_cycle *c,
                            const struct kp_node_info *ni)
{
    const struct kp_cluster *cl = c->cl;
    int node = ni->index;
    size_t n, i, ng = 0;
    const int32_t *gp;
    int32_t prio = c->pod->priority;

    /* one dense array says "none of higher or equal priority" */
    if (cl->nominated_max[node] < prio)
        return 0;
    n = cl->nnominated[node];
    gp = cl->nominated_prio[node];
    /* priorities kept beside the pointers: no pod is read to say no */
    for (i = 0; i < n; i++)
        if (gp[i] >= prio && cl->nominated[node][i] != c->pod)
            ng++;
    return ng;
}

/* what add_ge_nominated does: 1 the NodeInfo, 2 the AddPod hooks, 3 both */
static void
add_ge_nominated(struct kp_cycle *c, struct kp_node_info *ni, int what)
{
    const struct kp_cluster *cl = c->cl;
    int node = ni->index;
    const struct kp_pod **g = cl->nominated[node];
    bool hooks = (what & 2) && kp_cycle_hooks_live(c);
    size_t i;

    /* requests and priorities from the dense copies */
    for (i = 0; i < cl->nnominated[node]; i++) {
        if (g[i] == c->pod || cl->nominated_prio[node][i] < c->pod->priority)
            continue;
        if (what & 1)
            add_row_pod(c, ni, g[i], &cl->nominated_req[node][i * cl->nres],
                        cl->nominated_anti[node][i],
                        cl->nominated_ports[node][i], hooks);
        else if (hooks)
            add_hooks(c, ni, g[i]);
    }
}

void
kp_cycle_add_ge_nominated(struct kp_cycle *c, struct kp_node_info *ni)
{
    add_ge_nominated(c, ni, 3);
}

void
kp_cycle_add_ge_nominated_pods(struct kp_cycle *c, struct kp_node_info *ni)
{
    add_ge_nominated(c, ni, 1);
}

void
kp_cycle_add_ge_nominated_hooks(struct kp_cycle *c, struct kp_node_info *ni)
{
    add_ge_nominated(c, ni, 2);
}

bool
kp_cycle_with_nominated(const struct kp_cycle *c,
                        const struct kp_node_info *ni, size_t extra,
                        struct kp_cycle *nc, struct kp_node_info **nni)
{
    size_t ng = kp_cycle_count_ge_nominated(c, ni);

    if (ng == 0)
        return false;
    kp_cycle_clone(nc, c);
    *nni = kp_node_info_clone(c->scratch, ni, c->cl->nres, ng + extra);
    kp_cycle_add_ge_nominated(nc, *nni);
    return true;
}

/*
 * What kp_run_filters_with_nominated(c, node) reads first, asked for
 * ahead (a hint: no answer depends on it): the node's requested
 * resources, or those of its kept nominated copy.  The Filter pass walks
 * thousands of nodes a pod, and these lines are rarely in cache.  The
 * copy only for a cycle that runs alone: in independent mode's passes on
 * several threads, another pod's may be making it (nominated_copy.c).
 */
void
kp_filter_prefetch(const struct kp_cycle *c, int node)
{
    const struct kp_cluster *cl = c->cl;

    if (cl->nominated_max[node] >= c->pod->priority && c->alone &&
        cl->caches->nominated_copy)
        __builtin_prefetch(cl->caches->nominated_copy[node].ni.used);
    else
        __builtin_prefetch(cl->nodes[node].used);
}

struct kp_status
kp_run_filters_with_nominated(const struct kp_cycle *c,
                              const struct kp_node_info *ni)
{
    struct kp_cycle tmp;
    struct kp_node_info *copy;
    struct kp_status st;
    struct kp_arena_mark mark;

    /* one dense array says "none of higher or equal priority" */
    if (c->cl->nominated_max[ni->index] < c->pod->priority)
        return kp_run_filters(c, ni);
    if (run_with_kept_copy(c, ni, &st))
        return st;
    kp_arena_mark(c->scratch, &mark);
    if (!kp_cycle_with_nominated(c, ni, 0, &tmp, &copy))
        return kp_run_filters(c, ni);
    KP_SELFCHECK_NOMINATED(c, ni, copy);
    KP_SELFCHECK_NODE(&tmp, copy);
    st = kp_run_filters(&tmp, copy);
    if (st.code != KP_SUCCESS)
        return st;      /* its reasons may live in the copy's memory */
    /* the copy is done with: the next node's reuses its memory */
    kp_arena_rollback(c->scratch, &mark);
    return kp_run_filters(c, ni);
}
