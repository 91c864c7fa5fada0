/*
 * nominated_copy.c - the Filter pass's copy of a node with the nominated
 * pods RunFilterPluginsWithNominatedPods adds
 * (pkg/scheduler/framework/runtime/framework.go, addGENominatedPods),
 * kept from one pod to the next.  No upstream counterpart: kube-scheduler
 * makes the copy for every pod.  Moved verbatim from framework.c
 * (issue 28).
 *
 * When a copy stops holding: it is used only while its node's generation
 * (kp_node_info.gen, bumped by every pod placed on or removed from the
 * node) and its nominated pods' version (kp_cluster.nominated_gen, bumped
 * by every nomination made or cleared there) are those it was made from,
 * and only for a pod whose priority adds the same nominated pods (lo <
 * priority <= hi, the pod not nominated there itself); otherwise it is
 * made again.  A copy another thread is using (busy) is left alone: that
 * pod makes its own in its scratch arena.
 *
 * A cycle that runs alone on the cluster (kp_cycle.alone: the queue,
 * independent mode on one thread, one pod's re-run for the fixes)
 * reaches a node's copy from one thread only, the one its pass gave the
 * node, and the pool's runs order one pass after another: it takes no
 * busy flag.  The flag's locked write made the copy's line move between
 * the cores from pod to pod as the nodes' chunks went to one thread or
 * the other, though the copy itself was only read (issue 31).
 * KP_NO_ALONE_COPY=1: every cycle takes the flag.
 */
#include "framework.h"
#include "framework_int.h"
#include "selfcheck.h"
#include "shortcut.h"

#include <string.h>

#ifndef KP_SELFCHECK
/* KP_NO_ALONE_COPY, read once: 1 off, 0 on, -1 not read yet */
static atomic_int alone_copy_off = -1;
#endif

/*
 * Whether c takes the copy's busy flag: a cycle that does not run alone,
 * or KP_NO_ALONE_COPY=1; the self-check build always does, and fails
 * when a cycle that runs alone finds it taken.
 */
static bool
copy_locks(const struct kp_cycle *c)
{
#ifdef KP_SELFCHECK
    (void)c;
    return true;
#else
    return !c->alone || kp_shortcut_off_once(&alone_copy_off,
                                             "KP_NO_ALONE_COPY");
#endif
}

/* take e for c; false: another thread's (c then makes its own copy) */
static bool
copy_take(const struct kp_cycle *c, struct kp_nominated_copy *e, bool lock,
          int node)
{
    (void)node;
    if (!lock ||
        !atomic_flag_test_and_set_explicit(&e->busy, memory_order_acquire))
        return true;
#ifdef KP_SELFCHECK
    kp_selfcheck_count();
    if (c->alone)
        kp_selfcheck_fail("nominated copy of node %s taken by another thread "
                          "while %s/%s runs alone",
                          c->cl->snap->nodes[node]->name, c->pod->ns,
                          c->pod->name);
#else
    (void)c;
#endif
    return false;
}

static void
copy_give(struct kp_nominated_copy *e, bool lock)
{
    if (lock)
        atomic_flag_clear_explicit(&e->busy, memory_order_release);
}

/* the mask of the nominated pods c->pod adds to node; false: over 64 */
static bool
ge_nominated_mask(const struct kp_cycle *c, int node, uint64_t *mask)
{
    const struct kp_cluster *cl = c->cl;
    size_t n = cl->nnominated[node], i;
    const int32_t *gp = cl->nominated_prio[node];
    int32_t prio = c->pod->priority;
    uint64_t m = 0;

    if (n > 64)
        return false;
    for (i = 0; i < n; i++)
        if (gp[i] >= prio && cl->nominated[node][i] != c->pod)
            m |= (uint64_t)1 << i;
    *mask = m;
    return true;
}

/*
 * e made the copy of ni with the nominated pods in mask added, as
 * kp_cycle_with_nominated makes it (same pods, order, ports, sums), the
 * PreFilterExtensions AddPod hooks left out: the caller has none live.
 */
static void
build_nominated_copy(const struct kp_cluster *cl, struct kp_nominated_copy *e,
                     const struct kp_node_info *ni, uint64_t mask,
                     const struct kp_pod *pod, bool self)
{
    struct kp_node_info *d = &e->ni;
    int node = ni->index;
    size_t nres = cl->nres, i, r, extra = 0;
    int64_t *used = d->used;
    const struct kp_pod **pods = d->pods;
    struct kp_port_set ports = d->ports;

    for (i = 0; i < 64; i++)
        extra += (mask >> i) & 1;
    if (!used)
        used = kp_xmalloc((nres ? nres : 1) * sizeof(int64_t));
    if (e->cap_pods < ni->npods + extra + 1) {
        e->cap_pods = ni->npods + extra + 1;
        pods = kp_xrealloc(pods, e->cap_pods * sizeof(*pods));
    }
    *d = *ni;
    d->nonzero_kept = false;    /* the nominated pods are not in it */
    d->used = used;
    if (nres)
        memcpy(used, ni->used, nres * sizeof(int64_t));
    d->pods = pods;
    d->cap = e->cap_pods;
    if (ni->npods)
        memcpy(pods, ni->pods, ni->npods * sizeof(*pods));
    d->ports = ports;
    kp_port_set_copy(&d->ports, &ni->ports, NULL);
    for (i = 0; i < cl->nnominated[node]; i++) {
        const int64_t *row = &cl->nominated_req[node][i * nres];
        const struct kp_pod *q = cl->nominated[node][i];

        if (!((mask >> i) & 1))
            continue;
        d->pods[d->npods++] = q;
        for (r = 0; r < nres; r++)
            d->used[r] = kp_wrap_add(d->used[r], row[r]);
        d->nanti += cl->nominated_anti[node][i];
        if (cl->nominated_ports[node][i])
            ports_add(d, NULL, q);
    }
    e->gen = ni->gen;
    e->ver = cl->nominated_gen[node];
    e->mask = mask;
    e->valid = true;
    /* the priorities that give this set: above those left out by
     * priority, at most the lowest added */
    e->self = self;
    e->lo = INT64_MIN;
    e->hi = INT64_MAX;
    for (i = 0; i < cl->nnominated[node]; i++) {
        int64_t q = cl->nominated_prio[node][i];

        if ((mask >> i) & 1) {
            if (q < e->hi)
                e->hi = q;
        } else if (cl->nominated[node][i] != pod && q > e->lo) {
            e->lo = q;
        }
    }
}

/*
 * RunFilterPluginsWithNominatedPods with the node's kept copy, made again
 * when its key does not hold.  With no AddPod hook live the copy's cycle
 * is c itself; else c cloned (its states shared until a hook changes
 * one: kp_cycle_clone_shared), with the hooks of the pods added run on it
 * in their order (the hooks read the NodeInfo's node only, the same in
 * the copy as it is filled).  Returns false (nothing run) when the copy
 * cannot be used here.
 */
bool
run_with_kept_copy(const struct kp_cycle *c, const struct kp_node_info *ni,
                   struct kp_status *out)
{
    const struct kp_cluster *cl = c->cl;
    struct kp_nominated_copy *e;
    struct kp_status st;
    struct kp_cycle tmp;
    const struct kp_cycle *fc = c;
    struct kp_arena_mark mark;
    uint64_t mask;
    int node = ni->index;
    int64_t prio = c->pod->priority;
    bool self, lock;
    size_t i;

    if (!cl->caches->nominated_copy || ni != &cl->nodes[node])
        return false;
    self = cl->nominated_node_of[c->pod->index] == node;
    e = &cl->caches->nominated_copy[node];
    lock = copy_locks(c);
    if (!copy_take(c, e, lock, node))
        return false;
    if (!(e->valid && !self && !e->self && e->lo < prio && prio <= e->hi &&
          e->gen == ni->gen && e->ver == cl->nominated_gen[node])) {
        if (!ge_nominated_mask(c, node, &mask)) {
            copy_give(e, lock);
            return false;
        }
        if (mask == 0) {
            copy_give(e, lock);
            *out = kp_run_filters(c, ni);
            return true;
        }
        if (!e->valid || e->gen != ni->gen || e->mask != mask ||
            e->ver != cl->nominated_gen[node])
            build_nominated_copy(cl, e, ni, mask, c->pod, self);
    }
    kp_arena_mark(c->scratch, &mark);
    if (kp_cycle_hooks_live(c)) {
        /* most of the nominated pods leave the states as they are */
        kp_cycle_clone_shared(&tmp, c);
        for (i = 0; i < 64; i++)
            if ((e->mask >> i) & 1)
                add_hooks(&tmp, &e->ni, cl->nominated[node][i]);
        fc = &tmp;
    }
    KP_SELFCHECK_NOMINATED(c, ni, &e->ni);
    KP_SELFCHECK_NOMINATED_KEPT(c, ni, &e->ni);
    KP_SELFCHECK_NODE(fc, &e->ni);
    st = kp_run_filters(fc, &e->ni);
    copy_give(e, lock);
    if (st.code != KP_SUCCESS) {
        *out = st;      /* its reasons may live in the scratch arena */
        return true;
    }
    kp_arena_rollback(c->scratch, &mark);
    *out = kp_run_filters(c, ni);
    return true;
}
