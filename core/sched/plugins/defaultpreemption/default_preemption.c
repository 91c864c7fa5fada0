/*
 * default_preemption.c - the DefaultPreemption plugin's own part of
 * preemption, as pkg/scheduler/framework/plugins/defaultpreemption/
 * default_preemption.go keeps it apart from the Evaluator
 * (core/sched/preemption/preemption.c): PodEligibleToPreemptOthers,
 * SelectVictimsOnNode with filterPodsWithPDBViolation and the reprieve
 * loop, and calculateNumCandidates (GetOffsetAndNumCandidates).
 */
#include "default_preemption.h"
#include "plugins.h"
#include "selfcheck.h"
#include "shortcut.h"

#include <stdatomic.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char kp_reason_no_victims[] =
    "No preemption victims found for incoming pod";

/* ---- PodEligibleToPreemptOthers ---- */

const char *
kp_pod_eligible_to_preempt_others(const struct kp_cycle *c,
                                  const struct kp_status *statuses)
{
    const struct kp_pod *p = c->pod;
    const struct kp_cluster *cl = c->cl;
    const struct kp_node *n;
    const struct kp_node_info *ni;
    size_t i;

    if (p->preempt_never)
        return "not eligible due to preemptionPolicy=Never.";
    if (!p->nominated_node || cl->nominated_node_of[p->index] < 0)
        return NULL;
    n = kp_snapshot_node(cl->snap, p->nominated_node);
    if (!n || statuses[n->index].code == KP_UNRESOLVABLE)
        return NULL;
    ni = &cl->nodes[n->index];
    for (i = 0; i < ni->npods; i++) {
        const struct kp_pod *v = ni->pods[i];

        if (v->priority < p->priority && v->deleting && v->preemption_target)
            return "not eligible due to a terminating pod on the nominated "
                   "node.";
    }
    return NULL;
}

/* ---- PDBs ---- */


/*
 * filterPodsWithPDBViolation: split sorted pods into violating / ok.  The
 * budgets this node's victims use are counted down in a small table of
 * their own (open addressing on the PDB's index, at least twice as many
 * slots as the node's (pod, PDB) pairs), not in a copy of every PDB's
 * budget: a node has few victims, but in a namespace with many PDBs each
 * is matched by several.
 */
struct budget {
    uint32_t pdb;       /* UINT32_MAX: free slot */
    int32_t left;
};

/*
 * The same with the table's node-local PDB numbers (pdb_index.h): the
 * budgets of the node's PDBs in a dense array, counted down by position.
 */
static void
filter_by_index(struct kp_arena *a, const struct kp_cluster *cl,
                const struct kp_victim_table *vt, size_t first,
                bool *violating)
{
    int32_t stack[64], *left = stack;
    size_t i, j, k, n = vt->n - first, m = vt->npdb_ids;

    if (m > sizeof(stack) / sizeof(stack[0]))
        left = kp_arena_alloc_uninit(a, m * sizeof(*left));
    for (j = 0; j < m; j++)
        left[j] = cl->pdb_allowed[vt->pdb_ids[j]];
    for (i = 0; i < n; i++) {
        bool v = false;

        for (k = vt->pdb_off[first + i]; k < vt->pdb_off[first + i + 1];
             k++)
            v |= --left[vt->pdb_local[k]] < 0;
        violating[i] = v;
    }
}

/* KP_NO_PDB_INDEX, read once: 1 off, 0 on, -1 not read yet */
static atomic_int pdb_index_off = -1;

static void
filter_pods_with_pdb_violation(struct kp_arena *a,
                               const struct kp_cluster *cl,
                               const struct kp_victim_table *vt, size_t first,
                               bool *violating)
{
    struct budget *used = NULL;
    size_t i, k, slot, n = vt->n - first, mask = 0;
    size_t cap = vt->pdb_off[vt->n] - vt->pdb_off[first];

    if (!kp_shortcut_off_once(&pdb_index_off, "KP_NO_PDB_INDEX")) {
        filter_by_index(a, cl, vt, first, violating);
        return;
    }
    if (cap) {
        size_t nslots = 8;

        while (nslots < 2 * cap)
            nslots <<= 1;
        mask = nslots - 1;
        used = kp_arena_alloc(a, nslots * sizeof(*used));
        for (slot = 0; slot < nslots; slot++)
            used[slot].pdb = UINT32_MAX;
    }
    for (i = 0; i < n; i++) {
        violating[i] = false;
        /*
         * the PDBs matching a pod were worked out at load time, those
         * that already count it as disrupted left out in the table
         */
        for (k = vt->pdb_off[first + i]; k < vt->pdb_off[first + i + 1];
             k++) {
            uint32_t pdb = (uint32_t)vt->pdb[k];

            slot = (size_t)(pdb * 2654435761u) & mask;
            while (used[slot].pdb != pdb && used[slot].pdb != UINT32_MAX)
                slot = (slot + 1) & mask;
            if (used[slot].pdb == UINT32_MAX) {
                used[slot].pdb = pdb;
                used[slot].left = cl->pdb_allowed[pdb];
            }
            used[slot].left--;
            if (used[slot].left < 0)
                violating[i] = true;
        }
    }
}

/*
 * The first of the table's pods (MoreImportantPod order: priority never
 * rises along it) whose priority is below prio: the potential victims
 * are the table's tail from there.
 */
static size_t
first_lower_priority(const struct kp_victim_table *vt, int32_t prio)
{
    size_t lo = 0, hi = vt->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (vt->prio[mid] < prio)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* ---- SelectVictimsOnNode ---- */

/*
 * The node being emptied, and (when the node has nominated pods of equal
 * or higher priority) a copy of it with them added, kept in step instead
 * of made afresh for every pod put back.
 */
struct victim_node {
    struct kp_cycle c, nc;
    struct kp_node_info *ni, *nni;
    bool nominated;
    /*
     * On sums (empty_on_sums): sni and snni are value copies of the
     * node's NodeInfo whose requested rows and pod counts alone follow
     * the pods removed and put back; no pod list, port or hook is kept,
     * and the Filter plugins run with fc, a fit_only cycle no step
     * changes (the caller's when it is one, else c), for both.
     */
    bool sums;
    struct kp_node_info sni, snni;
    const struct kp_cycle *fc;
    struct kp_fit_plan plan;    /* fc's NodeResourcesFit on sni, snni */
};

/*
 * RunFilterPluginsWithNominatedPods on the node being emptied: with the
 * nominated pods (when it has some), then without; the first failure.
 */
static struct kp_status
run_filters(struct victim_node *vn)
{
    struct kp_status st;

    if (vn->nominated) {
        st = kp_run_filters(vn->sums ? vn->fc : &vn->nc, vn->nni);
        if (st.code != KP_SUCCESS)
            return st;
    }
    return kp_run_filters(vn->sums ? vn->fc : &vn->c, vn->ni);
}

/* The self-check of the test build (selfcheck.h) on both copies. */
static void
check_victim_node(const struct victim_node *vn)
{
    KP_SELFCHECK_NODE(&vn->c, vn->ni);
    if (vn->nominated) {
        KP_SELFCHECK_NOMINATED(&vn->c, vn->ni, vn->nni);
        KP_SELFCHECK_NODE(&vn->nc, vn->nni);
    }
    (void)vn;
}

/*
 * Put pods[k] back; keep it when the pod still fits.  Only whether it
 * fits is read (an Error status is "does not fit" too, as upstream's
 * reprievePod), the node_static plugins not run (fit_only); with
 * nominated pods it must fit with them (RunFilterPluginsWithNominatedPods'
 * first pass) and without them.  Pass or fail does not depend on the
 * order of a node's pods, so the nominated copy can take pods[k] after
 * its nominated pods.
 */
static bool reprieve_sums(struct victim_node *vn,
                          const struct kp_victim_table *vt, size_t k);

static bool
reprieve(struct victim_node *vn, const struct kp_victim_table *vt, size_t k)
{
    if (vn->sums)
        return reprieve_sums(vn, vt, k);
    kp_cycle_add_table_pod(&vn->c, vn->ni, vt, k);
    if (vn->nominated)
        kp_cycle_add_table_pod(&vn->nc, vn->nni, vt, k);
    check_victim_node(vn);
    if (run_filters(vn).code == KP_SUCCESS)
        return true;
    kp_cycle_remove_table_pod(&vn->c, vn->ni, vt, k);
    if (vn->nominated)
        kp_cycle_remove_table_pod(&vn->nc, vn->nni, vt, k);
    check_victim_node(vn);
    return false;
}

/* KP_NO_DEFERRED_HOOKS */
static atomic_int deferred_off = -1;

static bool
deferred_hooks_off(void)
{
    return kp_shortcut_off_once(&deferred_off, "KP_NO_DEFERRED_HOOKS");
}

#ifdef KP_SELFCHECK
/*
 * The self-check build: a first check that failed before the hooks ran
 * against the same check with them run first.
 */
static void
check_deferred(struct victim_node *vn, const struct kp_removed *rm,
               const struct kp_status *st)
{
    struct kp_status full;
    int i;
    bool same;

    if (vn->nominated) {
        kp_cycle_remove_tail_hooks(&vn->nc, vn->ni, rm);
        kp_cycle_add_ge_nominated_hooks(&vn->nc, vn->nni);
    }
    kp_cycle_remove_tail_hooks(&vn->c, vn->ni, rm);
    check_victim_node(vn);
    full = run_filters(vn);
    same = full.code == st->code && full.plugin == st->plugin &&
           full.nreasons == st->nreasons;
    for (i = 0; same && i < full.nreasons; i++)
        same = strcmp(kp_status_reason(&full, i),
                      kp_status_reason(st, i)) == 0;
    kp_selfcheck_count();
    if (!same)
        kp_selfcheck_fail("deferred RemovePod hooks: pod %s/%s on node %s: "
                          "the first check differs with the hooks run",
                          vn->c.pod->ns, vn->c.pod->name,
                          vn->ni->node->name);
}
#define CHECK_DEFERRED(vn, rm, st) check_deferred(vn, rm, st)
#else
#define CHECK_DEFERRED(vn, rm, st) ((void)0)
#endif

/*
 * SelectVictimsOnNode's first check as upstream orders it: every
 * lower-priority pod removed, each RemovePod hook run, then
 * RunFilterPluginsWithNominatedPods, with the nominated copy made once
 * for this check and the whole reprieve loop.  Upstream clones the state
 * as it is at each call and adds the nominated pods; the counts are
 * sums, so the copy can instead take every step of vn.c after them.  It
 * is cloned from base, not from vn.c: a clone's counts overlay its
 * source (tpcount.h), and vn.c changes under it with every pod put back.
 */
static struct kp_status
first_check(struct victim_node *vn, const struct kp_cycle *base,
            const struct kp_victim_table *vt, size_t first,
            size_t nnominated)
{
    struct kp_arena *a = base->scratch;
    const struct kp_cluster *cl = base->cl;
    size_t npotential = vt->n - first;

    kp_cycle_remove_tail(&vn->c, vn->ni, vt, first);
    vn->nominated = nnominated > 0;
    if (vn->nominated) {
        kp_cycle_clone(&vn->nc, base);
        vn->nc.fit_only = true;
        if (kp_cycle_hooks_live(base)) {
            vn->nni = kp_node_info_clone(a, &cl->nodes[vn->ni->index],
                                         cl->nres, npotential + nnominated);
            kp_cycle_remove_tail(&vn->nc, vn->nni, vt, first);
        } else {
            /* no RemovePod hook to replay: the node already emptied */
            vn->nni = kp_node_info_clone(a, vn->ni, cl->nres,
                                         npotential + nnominated);
        }
        kp_cycle_add_ge_nominated(&vn->nc, vn->nni);
    }
    check_victim_node(vn);
    return run_filters(vn);
}

/*
 * SelectVictimsOnNode's first check: every lower-priority pod removed,
 * then RunFilterPluginsWithNominatedPods (with the nominated pods of
 * equal or higher priority when the node has some, then without), the
 * first failure the answer.  The pods leave the NodeInfos at once; the
 * RemovePod hooks (and the nominated pods' AddPod hooks), which change
 * only the states of the plugins that have them, run only once the
 * Filter plugins before the first of those (NodeResourcesFit among them)
 * have passed on the first NodeInfo checked: on most nodes where
 * preemption cannot help the pod still does not fit there, and no hook
 * needs to run.  The hooks read no more of a NodeInfo than its node and,
 * for RemovePods, the pods that stay: the nominated copy's are run with
 * vn->ni, which holds those.  KP_NO_DEFERRED_HOOKS=1 runs them first, as
 * upstream's removePod does.
 */
static struct kp_status
first_check_deferred(struct victim_node *vn, const struct kp_cycle *base,
                     const struct kp_victim_table *vt, size_t first,
                     size_t nnominated)
{
    struct kp_arena *a = base->scratch;
    struct kp_removed rm;
    struct kp_status st;
    size_t h, n = kp_nfilter_plugins;

    kp_cycle_remove_tail_pods(&vn->c, vn->ni, vt, first, &rm);
    h = kp_cycle_first_hook(&vn->c);
    vn->nominated = nnominated > 0;
    if (!vn->nominated) {
        st = kp_run_filters_range(&vn->c, vn->ni, 0, h);
        if (st.code != KP_SUCCESS) {
            CHECK_DEFERRED(vn, &rm, &st);
            return st;
        }
        kp_cycle_remove_tail_hooks(&vn->c, vn->ni, &rm);
        check_victim_node(vn);
        return kp_run_filters_range(&vn->c, vn->ni, h, n);
    }
    /* cloned from base, not vn->c: see first_check */
    kp_cycle_clone(&vn->nc, base);
    vn->nc.fit_only = true;
    vn->nni = kp_node_info_clone(a, vn->ni, base->cl->nres,
                                 vt->n - first + nnominated);
    kp_cycle_add_ge_nominated_pods(&vn->nc, vn->nni);
    st = kp_run_filters_range(&vn->nc, vn->nni, 0, h);
    if (st.code != KP_SUCCESS) {
        CHECK_DEFERRED(vn, &rm, &st);
        return st;
    }
    kp_cycle_remove_tail_hooks(&vn->nc, vn->ni, &rm);
    kp_cycle_add_ge_nominated_hooks(&vn->nc, vn->nni);
    kp_cycle_remove_tail_hooks(&vn->c, vn->ni, &rm);
    check_victim_node(vn);
    st = kp_run_filters_range(&vn->nc, vn->nni, h, n);
    if (st.code != KP_SUCCESS)
        return st;
    return kp_run_filters_range(&vn->c, vn->ni, 0, n);
}

/* ---- SelectVictimsOnNode on sums (NodeResourcesFit alone) ---- */

/* KP_NO_FIT_SUMS */
static atomic_int fit_sums_off = -1;

size_t
kp_victims_on_sums(const struct kp_cycle *c)
{
    size_t i, h;

    if (kp_shortcut_off_once(&fit_sums_off, "KP_NO_FIT_SUMS"))
        return 0;
    /* the first that runs (not skipped nor node_static), not the Fit */
    for (i = 0; i < kp_nfilter_plugins; i++) {
        const struct kp_plugin *pl = kp_filter_plugins[i];

        if (c->skip[i] || pl->node_static ||
            pl == &kp_plugin_node_resources_fit)
            continue;
        break;
    }
    if (i == kp_nfilter_plugins)
        return i;
    /* else the first check's part before the first plugin with a hook */
    h = kp_cycle_first_hook(c);
    return h <= i ? h : 0;
}

/* every resource the pod requests has a row on the node (no sparse sum) */
static bool
rows_cover_requests(const struct kp_cycle *c, const struct kp_node_info *ni)
{
    const struct kp_resvec *req = &c->pod->req;
    size_t i;

    for (i = 0; i < req->n; i++)
        if (kp_ni_slot(ni, req->e[i].id) < 0)
            return false;
    return true;
}

/* row (nres entries) added to (sign 1) or taken from (-1) ni's used */
static void
add_row(struct kp_node_info *ni, const int64_t *row, size_t nres, int sign)
{
    size_t r;

    for (r = 0; r < nres; r++)
        ni->used[r] = sign > 0 ? kp_wrap_add(ni->used[r], row[r]) :
                      kp_wrap_sub(ni->used[r], row[r]);
}

/*
 * The node emptied of its potential victims for the plugins before
 * c->sums_upto, which are NodeResourcesFit alone where they run: that
 * plugin reads no more of a NodeInfo than its pod count, its requested
 * resources and the node's allocatable, and has no hook.  The node emptied of its
 * potential victims is then its requested row less the victims' tail
 * row, and the nominated copy that row plus the rows of the nominated
 * pods kp_cycle_add_ge_nominated adds: the sums (modulo 2^64, as
 * kp_wrap_add, in any order) of the NodeInfos the general path builds,
 * and the same statuses, reasons made by the same Filter.  false: the
 * node keeps a resource the pod requests as a sparse sum of its pods
 * (kp_ni_used), which a row does not follow; the general path runs.
 */
static bool
empty_on_sums(struct victim_node *vn, const struct kp_cycle *base,
              int node, const struct kp_victim_table *vt, size_t first)
{
    const struct kp_cluster *cl = base->cl;
    const struct kp_node_info *src = &cl->nodes[node];
    struct kp_arena *a = base->scratch;
    size_t nres = cl->nres, i, n = cl->nnominated[node];
    const struct kp_pod **g = cl->nominated[node];

    if (!rows_cover_requests(base, src))
        return false;
    vn->sums = true;
    if (base->fit_only) {
        vn->fc = base;
    } else {
        vn->c = *base;
        vn->c.fit_only = true;
        vn->fc = &vn->c;
    }
    vn->sni = *src;
    vn->sni.used = kp_arena_memdup(a, src->used, nres * sizeof(int64_t));
    add_row(&vn->sni, &vt->tail_req[first * nres], nres, -1);
    vn->sni.npods = src->npods - (vt->n - first);
    vn->ni = &vn->sni;
    kp_node_resources_fit_plan(vn->fc, vn->ni, &vn->plan);
    vn->nominated = kp_cycle_count_ge_nominated(base, src) > 0;
    if (vn->nominated) {
        vn->snni = vn->sni;
        vn->snni.used = kp_arena_memdup(a, vn->sni.used,
                                        nres * sizeof(int64_t));
        for (i = 0; i < n; i++) {
            if (g[i] == base->pod ||
                cl->nominated_prio[node][i] < base->pod->priority)
                continue;
            add_row(&vn->snni, &cl->nominated_req[node][i * nres], nres, 1);
            vn->snni.npods++;
        }
        vn->nni = &vn->snni;
    }
    return true;
}

/* pods[k] put back (sign 1) or taken out again (-1), on sums */
static void
account_sums(struct victim_node *vn, const struct kp_victim_table *vt,
             size_t k, int sign)
{
    size_t nres = vt->nres, r;
    const int64_t *row = &vt->tail_req[k * nres], *next = row + nres;

    for (r = 0; r < nres; r++) {
        int64_t v = kp_wrap_sub(row[r], next[r]);

        vn->ni->used[r] = sign > 0 ? kp_wrap_add(vn->ni->used[r], v) :
                          kp_wrap_sub(vn->ni->used[r], v);
        if (vn->nominated)
            vn->nni->used[r] = sign > 0 ? kp_wrap_add(vn->nni->used[r], v) :
                               kp_wrap_sub(vn->nni->used[r], v);
    }
    vn->ni->npods = sign > 0 ? vn->ni->npods + 1 : vn->ni->npods - 1;
    if (vn->nominated)
        vn->nni->npods = sign > 0 ? vn->nni->npods + 1 : vn->nni->npods - 1;
}

/* NodeResourcesFit on sni or snni: by the plan when it was made */
static bool
fits_sums(const struct victim_node *vn, const struct kp_node_info *ni)
{
    bool fits;

    if (!vn->plan.ok)
        return kp_node_resources_fits(vn->fc, ni);
    fits = kp_node_resources_fits_planned(&vn->plan, ni);
#ifdef KP_SELFCHECK
    kp_selfcheck_count();
    if (fits != kp_node_resources_fits(vn->fc, ni))
        kp_selfcheck_fail("fit plan: pod %s/%s on node %s: %s, "
                          "NodeResourcesFit says otherwise",
                          vn->fc->pod->ns, vn->fc->pod->name, ni->node->name,
                          fits ? "fits" : "does not fit");
#endif
    return fits;
}

/* reprieve() on sums: whether the pod still fits, with pods[k] back */
static bool
reprieve_sums(struct victim_node *vn, const struct kp_victim_table *vt,
              size_t k)
{
    account_sums(vn, vt, k, 1);
    if ((!vn->nominated || fits_sums(vn, vn->nni)) && fits_sums(vn, vn->ni))
        return true;
    account_sums(vn, vt, k, -1);
    return false;
}

/*
 * The potential victims are the tail of the node's table (lowest
 * priority last), already in MoreImportantPod order: no pod is read to
 * pick, sort, remove or put back one of them.
 */
static struct kp_status select_victims(const struct kp_cycle *base, int node,
                                       const struct kp_victim_table *vt,
                                       size_t first, bool *violating,
                                       bool cut, struct kp_candidate *out);

#ifdef KP_SELFCHECK
/*
 * The self-check build: an answer made on sums (empty_on_sums), whole
 * or its first check's failure, against the same answer made by the
 * general path.
 */
static void
check_sums(const struct kp_cycle *base, int node,
           const struct kp_victim_table *vt, size_t first, bool cut,
           const struct kp_status *st, const struct kp_candidate *got)
{
    struct kp_cycle c = *base;
    struct kp_candidate fresh;
    struct kp_status fst;
    bool *viol = kp_arena_alloc(base->scratch, vt->n - first + 1);
    bool same;
    int i;
    size_t k;

    c.sums_upto = 0;
    memset(&fresh, 0, sizeof(fresh));
    fst = select_victims(&c, node, vt, first, viol, cut, &fresh);
    same = fst.code == st->code && fst.nreasons == st->nreasons &&
           (fst.plugin == st->plugin ||
            (fst.plugin && st->plugin && !strcmp(fst.plugin, st->plugin)));
    for (i = 0; same && i < fst.nreasons; i++)
        same = strcmp(kp_status_reason(&fst, i),
                      kp_status_reason(st, i)) == 0;
    if (same && fst.code == KP_SUCCESS) {
        same = fresh.nvictims == got->nvictims &&
               fresh.num_pdb_violations == got->num_pdb_violations &&
               fresh.partial == got->partial;
        for (k = 0; same && k < fresh.nvictims; k++)
            same = fresh.victims[k] == got->victims[k] &&
                   fresh.violating[k] == got->violating[k];
    }
    kp_selfcheck_count();
    if (!same)
        kp_selfcheck_fail("fit sums: pod %s/%s on node %s: the answer "
                          "differs from SelectVictimsOnNode's general path",
                          base->pod->ns, base->pod->name,
                          base->cl->nodes[node].node->name);
}
/*
 * A partial answer (the reprieve loop stopped at its first PDB-violating
 * victim) against the whole answer: the same kind of candidate.
 */
static void
check_partial(const struct kp_cycle *base, int node,
              const struct kp_victim_table *vt, size_t first,
              const struct kp_candidate *got)
{
    struct kp_cycle c = *base;
    struct kp_candidate whole;
    struct kp_status st;
    bool *viol = kp_arena_alloc(base->scratch, vt->n - first + 1);
    bool among = false;
    size_t k;

    memset(&whole, 0, sizeof(whole));
    st = select_victims(&c, node, vt, first, viol, false, &whole);
    /* the one victim it kept is one of the whole answer's, violating */
    for (k = 0; st.code == KP_SUCCESS && k < whole.nvictims; k++)
        among |= got->nvictims == 1 && whole.victims[k] == got->victims[0] &&
                 whole.violating[k];
    kp_selfcheck_count();
    if (st.code != KP_SUCCESS || whole.num_pdb_violations == 0 || !among ||
        whole.partial)
        kp_selfcheck_fail("dry run cut: pod %s/%s on node %s: the partial "
                          "answer is not a PDB-violating candidate's",
                          base->pod->ns, base->pod->name,
                          base->cl->nodes[node].node->name);
}
#define CHECK_PARTIAL(base, node, vt, first, out) \
    check_partial(base, node, vt, first, out)
#define CHECK_SUMS(base, node, vt, first, cut, st, out) \
    check_sums(base, node, vt, first, cut, st, out)
#else
#define CHECK_SUMS(base, node, vt, first, cut, st, out) ((void)0)
#define CHECK_PARTIAL(base, node, vt, first, out) ((void)0)
#endif

/* KP_NO_DRY_RUN_CUT */
static atomic_int dry_run_cut_off = -1;

static bool
cut_allowed(void)
{
    return !kp_shortcut_off_once(&dry_run_cut_off, "KP_NO_DRY_RUN_CUT");
}

/* a hint for the lines of [p, p + n) */
static void
prefetch_span(const void *p, size_t n)
{
    const char *b = p;
    size_t i;

    for (i = 0; i < n; i += 64)
        __builtin_prefetch(b + i);
}

void
kp_select_victims_prefetch(const struct kp_cycle *c, int node, bool far)
{
    const struct kp_cluster *cl = c->cl;
    const struct kp_victim_table *vt = cl->vt ? cl->vt[node] : NULL;

    if (far) {
        __builtin_prefetch(&cl->nodes[node]);
        if (vt)
            prefetch_span(vt, sizeof(*vt));
        return;
    }
    __builtin_prefetch(cl->nodes[node].used);
    if (!vt || vt->gen != cl->nodes[node].gen)
        return;
    prefetch_span(vt->prio, vt->n * sizeof(*vt->prio));
    prefetch_span(vt->pdb_off, (vt->n + 1) * sizeof(*vt->pdb_off));
    prefetch_span(vt->pdb_ids, vt->npdb_ids * sizeof(*vt->pdb_ids));
    /* each of the node's PDBs is listed there once at least */
    prefetch_span(vt->pdb_local, vt->npdb_ids * sizeof(*vt->pdb_local));
}

/* SelectVictimsOnNode: the potential victims, then select_victims */
struct kp_status
kp_select_victims_on_node(const struct kp_cycle *base, int node,
                          bool violating_enough, struct kp_candidate *out)
{
    struct kp_arena *a = base->scratch;
    const struct kp_cluster *cl = base->cl;
    const struct kp_victim_table *vt = kp_victim_table_get(cl, node, a);
    size_t first = first_lower_priority(vt, base->pod->priority);
    size_t npotential = vt->n - first;
    struct kp_status st;
    bool cut = violating_enough && cut_allowed();

    if (npotential == 0)
        return kp_status_new(KP_UNRESOLVABLE, kp_reason_no_victims);
    st = select_victims(base, node, vt, first,
                        kp_arena_alloc(a, npotential * sizeof(bool)), cut,
                        out);
    if (out->partial)
        CHECK_PARTIAL(base, node, vt, first, out);
    if (base->sums_upto > 0)
        CHECK_SUMS(base, node, vt, first, cut, &st, out);
    return st;
}

/*
 * SelectVictimsOnNode proper, on the potential victims vt->pods[first..]
 * (there are some); violating has room for one flag per potential victim.
 */
static struct kp_status
select_victims(const struct kp_cycle *base, int node,
               const struct kp_victim_table *vt, size_t first,
               bool *violating, bool cut, struct kp_candidate *out)
{
    struct kp_arena *a = base->scratch;
    const struct kp_cluster *cl = base->cl;
    struct victim_node vn;
    struct kp_status st;
    size_t *kept;
    size_t i, j, k, nv, npotential = vt->n - first, nnominated;
    int pass;

    /*
     * The node is a potential node: its Filter status was exactly
     * Unschedulable, and every node_static plugin fails with
     * UnschedulableAndUnresolvable and stops the chain, so each of them
     * passed on it for this pod, and they read nothing the victims
     * change: only the others are run here (fit_only), from the first
     * check on.
     */
    vn.sums = false;
    if (base->sums_upto == kp_nfilter_plugins &&
        empty_on_sums(&vn, base, node, vt, first)) {
        /* every plugin that runs is NodeResourcesFit: all on sums */
        st = run_filters(&vn);
    } else {
        /*
         * first_check_deferred's check before the first plugin with a
         * hook (sums_upto), when those are NodeResourcesFit alone, on
         * sums: where the pod does not fit even then (most potential
         * nodes), that failure is the answer, and no copy of the node
         * is made
         */
        if (base->sums_upto > 0 && !deferred_hooks_off() &&
            empty_on_sums(&vn, base, node, vt, first)) {
            st = kp_run_filters_range(vn.fc, vn.nominated ? vn.nni : vn.ni,
                                      0, base->sums_upto);
            if (st.code != KP_SUCCESS)
                return st;
            vn.sums = false;
        }
        kp_cycle_clone(&vn.c, base);
        vn.c.fit_only = true;
        vn.ni = kp_node_info_clone(a, &cl->nodes[node], cl->nres,
                                   npotential);
        nnominated = kp_cycle_count_ge_nominated(base, vn.ni);
        if (!deferred_hooks_off())
            st = first_check_deferred(&vn, base, vt, first, nnominated);
        else
            st = first_check(&vn, base, vt, first, nnominated);
    }
    if (st.code != KP_SUCCESS)
        return st;
    filter_pods_with_pdb_violation(a, cl, vt, first, violating);
    kept = kp_arena_alloc(a, npotential * sizeof(*kept));
    out->node = node;
    out->victims = kp_arena_alloc(a, npotential * sizeof(*out->victims));
    out->violating = kp_arena_alloc(a, npotential * sizeof(bool));
    /* reprieve PDB-violating pods first, then the others */
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < npotential; i++) {
            if (violating[i] != (pass == 0))
                continue;
            if (reprieve(&vn, vt, first + i))
                continue;
            kept[out->nvictims++] = i;
            if (pass == 0)
                out->num_pdb_violations++;
            /*
             * A PDB-violating victim that stays: this is a candidate, it
             * violates a PDB, and (cut) the dry run keeps no more of
             * those: what else the loop would find is never read.
             */
            if (pass == 0 && cut) {
                out->partial = true;
                pass = 2;
                break;
            }
        }
    }
    /*
     * Most important first: the table's order.  Each pass kept its pods
     * in that order (kept[0..num_pdb_violations) from the first,
     * ascending, the rest from the second): the two runs merged.
     */
    nv = (size_t)out->num_pdb_violations;
    for (i = 0, j = nv, k = 0; k < out->nvictims; k++) {
        size_t x = j >= out->nvictims || (i < nv && kept[i] < kept[j]) ?
                   kept[i++] : kept[j++];

        out->victims[k] = vt->pods[first + x];
        out->violating[k] = violating[x];
    }
    return kp_status_ok();
}

/* ---- GetOffsetAndNumCandidates ---- */

size_t
kp_calculate_num_candidates(const struct kp_preempt_args *args, size_t n)
{
    size_t k = n * (size_t)args->min_candidate_nodes_percentage / 100;

    if (k < (size_t)args->min_candidate_nodes_absolute)
        k = (size_t)args->min_candidate_nodes_absolute;
    if (k > n)
        k = n;
    return k;
}
