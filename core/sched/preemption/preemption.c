/*
 * preemption.c - see preemption.h.  The Evaluator of
 * pkg/scheduler/framework/preemption/preemption.go (Preempt,
 * findCandidates, DryRunPreemption, SelectCandidate) together with
 * DefaultPreemption's plugin part of plugins/defaultpreemption/
 * default_preemption.go (PodEligibleToPreemptOthers, SelectVictimsOnNode,
 * filterPodsWithPDBViolation, calculateNumCandidates).  Each step keeps
 * upstream's name in snake case; where kube-scheduler is random the rule
 * of the semantics document applies (input order, --offset, first
 * candidate on a tie).
 */
#include "preemption.h"
#include "pool.h"
#include "selfcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REASON_NO_VICTIMS "No preemption victims found for incoming pod"
#define REASON_NOT_HELPFUL KP_REASON_PREEMPTION_NOT_HELPFUL

/* ---- MoreImportantPod ---- */

static int64_t
start_time(const struct kp_pod *p)
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
    if (start_time(a) != start_time(b))
        return start_time(a) < start_time(b) ? -1 : 1;
    c = strcmp(a->ns, b->ns);
    return c ? c : strcmp(a->name, b->name);
}

/* ---- PodEligibleToPreemptOthers ---- */

static const char *
pod_eligible_to_preempt_others(const struct kp_cycle *c,
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


bool
kp_pdb_in_disrupted(const struct kp_pdb *pdb, const struct kp_pod *pod)
{
    size_t i;

    for (i = 0; i < pdb->ndisrupted; i++)
        if (strcmp(pdb->disrupted[i], pod->name) == 0)
            return true;
    return false;
}

/*
 * filterPodsWithPDBViolation: split sorted pods into violating / ok.  The
 * budgets this node's victims use are counted down in a small list of
 * their own (a node has few victims, each matched by few PDBs), not in a
 * copy of every PDB's budget.
 */
struct budget {
    size_t pdb;
    int32_t left;
};

static void
filter_pods_with_pdb_violation(struct kp_arena *a,
                               const struct kp_cluster *cl,
                               const struct kp_victim_table *vt, size_t first,
                               bool *violating)
{
    struct budget *used = NULL;
    size_t i, j, k, b, nused = 0, n = vt->n - first;
    size_t cap = vt->pdb_off[vt->n] - vt->pdb_off[first];

    if (cap)
        used = kp_arena_alloc(a, cap * sizeof(*used));
    for (i = 0; i < n; i++) {
        violating[i] = false;
        /*
         * the PDBs matching a pod were worked out at load time, those
         * that already count it as disrupted left out in the table
         */
        for (k = vt->pdb_off[first + i]; k < vt->pdb_off[first + i + 1];
             k++) {
            j = (size_t)vt->pdb[k];
            for (b = 0; b < nused && used[b].pdb != j; b++)
                ;
            if (b == nused) {
                used[nused].pdb = j;
                used[nused++].left = cl->pdb_allowed[j];
            }
            used[b].left--;
            if (used[b].left < 0)
                violating[i] = true;
        }
    }
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
        st = kp_run_filters(&vn->nc, vn->nni);
        if (st.code != KP_SUCCESS)
            return st;
    }
    return kp_run_filters(&vn->c, vn->ni);
}

/*
 * Put pods[k] back; keep it when the pod still fits.  Only whether it
 * fits is read (an Error status is "does not fit" too, as upstream's
 * reprievePod), so the node_static plugins are not run again (fit_only,
 * set once the first check passed); with
 * nominated pods it must fit with them (RunFilterPluginsWithNominated-
 * Pods' first pass) and without them.  Pass or fail does not depend on
 * the order of a node's pods, so the nominated copy can take pods[k]
 * after its nominated pods.
 */
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

static bool
reprieve(struct victim_node *vn, const struct kp_victim_table *vt, size_t k)
{
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

static int
cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;

    return (a > b) - (a < b);
}

/*
 * The potential victims are the tail of the node's table (lowest
 * priority last), already in MoreImportantPod order: no pod is read to
 * pick, sort, remove or put back one of them.
 */
static struct kp_status
select_victims_on_node(const struct kp_cycle *base, int node,
                       struct kp_candidate *out)
{
    struct kp_arena *a = base->scratch;
    const struct kp_pod *p = base->pod;
    const struct kp_cluster *cl = base->cl;
    const struct kp_victim_table *vt = kp_victim_table_get(cl, node, a);
    struct victim_node vn;
    struct kp_status st;
    bool *violating;
    size_t *kept;
    size_t i, first = vt->n, n, nv = 0, nok = 0;
    int pass;

    while (first > 0 && vt->prio[first - 1] < p->priority)
        first--;
    n = vt->n - first;
    if (n == 0)
        return kp_status_new(KP_UNRESOLVABLE, REASON_NO_VICTIMS);
    kp_cycle_clone(&vn.c, base);
    vn.ni = kp_node_info_clone(a, &cl->nodes[node], cl->nres, n);
    kp_cycle_remove_tail(&vn.c, vn.ni, vt, first);
    /*
     * RunFilterPluginsWithNominatedPods, with the nominated copy made
     * once for this check and the whole reprieve loop.  Upstream clones
     * the state as it is at each call and adds the nominated pods; the
     * counts are sums, so the copy can instead take every step of vn.c
     * after them.  It is cloned from base, not from vn.c: a clone's
     * counts overlay its source (tpcount.h), and vn.c changes under it
     * with every pod put back.
     */
    vn.nominated = kp_cycle_count_ge_nominated(&vn.c, vn.ni) > 0;
    if (vn.nominated) {
        kp_cycle_clone(&vn.nc, base);
        vn.nni = kp_node_info_clone(a, &cl->nodes[node], cl->nres,
                                    n + kp_cycle_count_ge_nominated(&vn.c,
                                                                    vn.ni));
        kp_cycle_remove_tail(&vn.nc, vn.nni, vt, first);
        kp_cycle_add_ge_nominated(&vn.nc, vn.nni);
    }
    check_victim_node(&vn);
    st = run_filters(&vn);
    if (st.code != KP_SUCCESS)
        return st;
    /* from here on only whether the pod fits is read (reprieve) */
    vn.c.fit_only = vn.nc.fit_only = true;
    violating = kp_arena_alloc(a, n * sizeof(bool));
    filter_pods_with_pdb_violation(a, cl, vt, first, violating);
    kept = kp_arena_alloc(a, n * sizeof(*kept));
    out->node = node;
    out->victims = kp_arena_alloc(a, n * sizeof(*out->victims));
    out->violating = kp_arena_alloc(a, n * sizeof(bool));
    /* reprieve PDB-violating pods first, then the others */
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < n; i++) {
            if (violating[i] != (pass == 0))
                continue;
            if (pass == 0)
                nv++;
            else
                nok++;
            if (reprieve(&vn, vt, first + i))
                continue;
            kept[out->nvictims++] = i;
            if (pass == 0)
                out->num_pdb_violations++;
        }
    }
    /* most important first: the table's order */
    if (nv && nok)
        qsort(kept, out->nvictims, sizeof(*kept), cmp_size);
    for (i = 0; i < out->nvictims; i++) {
        out->victims[i] = vt->pods[first + kept[i]];
        out->violating[i] = violating[kept[i]];
    }
    return kp_status_ok();
}

/* ---- GetOffsetAndNumCandidates ---- */

static size_t
calculate_num_candidates(const struct kp_preempt_args *args, size_t n)
{
    size_t k = n * (size_t)args->min_candidate_nodes_percentage / 100;

    if (k < (size_t)args->min_candidate_nodes_absolute)
        k = (size_t)args->min_candidate_nodes_absolute;
    if (k > n)
        k = n;
    return k;
}

/* ---- DryRunPreemption ---- */

/* --explain-nodes: what the dry run made of node (out->nodes may be NULL) */
static void
record_node(struct kp_preempt_result *out, int node,
            enum kp_node_preemption outcome, const struct kp_candidate *cand)
{
    if (!out->nodes)
        return;
    out->nodes[node].outcome = outcome;
    if (cand) {
        out->nodes[node].nvictims = cand->nvictims;
        out->nodes[node].num_pdb_violations = cand->num_pdb_violations;
    }
}

/*
 * The nodes of one batch, evaluated by the pool's threads; each thread
 * allocates in its own arena (the cycle's scratch for that thread).
 */
struct dry_batch {
    const struct kp_cycle *c;
    const int *potential;
    size_t n, offset, first;
    struct kp_candidate *cand;
    struct kp_status *st;
};

static void
dry_run_one(void *ctx, size_t j, struct kp_arena *a)
{
    struct dry_batch *b = ctx;
    struct kp_cycle wc = *b->c;
    int node = b->potential[(b->offset + b->first + j) % b->n];

    wc.scratch = a;
    memset(&b->cand[j], 0, sizeof(b->cand[j]));
    b->st[j] = select_victims_on_node(&wc, node, &b->cand[j]);
}

static void
dry_run_preemption(struct kp_cycle *c, const int *potential, size_t n,
                   size_t offset, size_t k, struct kp_status *dry,
                   struct kp_preempt_result *out)
{
    struct kp_arena *a = c->scratch;
    struct kp_candidate *non_violating =
        kp_arena_alloc(a, k * sizeof(*non_violating));
    struct kp_candidate *violating = kp_arena_alloc(a, k * sizeof(*violating));
    size_t nnon_violating = 0, nviolating = 0, i = 0, j, size = 1;
    struct dry_batch b = {c, potential, n, offset, 0, NULL, NULL};

    /*
     * With threads, nodes are evaluated a batch at a time and the results
     * taken in order, exactly as the one-by-one loop takes them; what a
     * batch evaluated past the stopping point is dropped.
     */
    if (c->pool) {
        /* the first batch is what the loop needs at best: k nodes */
        size = k > 16 ? k : 16;
        /* each entry is written by dry_run_one before it is read */
        b.cand = kp_arena_alloc_uninit(a, n * sizeof(*b.cand));
        b.st = kp_arena_alloc_uninit(a, n * sizeof(*b.st));
    } else {
        b.cand = kp_arena_alloc(a, sizeof(*b.cand));
        b.st = kp_arena_alloc(a, sizeof(*b.st));
    }
    while (i < n) {
        size_t m = n - i < size ? n - i : size;

        b.first = i;
        if (c->pool)
            kp_pool_run(c->pool, m, dry_run_one, &b);
        else
            dry_run_one(&b, 0, a);
        for (j = 0; j < m; j++, i++) {
            int node = potential[(offset + i) % n];
            struct kp_candidate cand = b.cand[j];
            struct kp_status st = b.st[j];

            out->nexamined++;
            if (st.code == KP_SUCCESS && cand.nvictims > 0) {
                bool kept = true;

                if (cand.num_pdb_violations == 0 && nnon_violating < k)
                    non_violating[nnon_violating++] = cand;
                else if (cand.num_pdb_violations > 0 && nviolating < k)
                    violating[nviolating++] = cand;
                else
                    kept = false;
                record_node(out, node,
                            kept ? KP_NODE_CANDIDATE : KP_NODE_DROPPED, &cand);
                if (nnon_violating > 0 && nnon_violating + nviolating >= k)
                    goto done;
                continue;
            }
            record_node(out, node, KP_NODE_NO_VICTIMS_HELP, NULL);
            if (st.code == KP_SUCCESS) {
                char *msg = kp_arena_alloc(a, 256);

                snprintf(msg, 256, "expected at least one victim pod on "
                         "node %s", c->cl->nodes[node].node->name);
                st = kp_status_new(KP_ERROR, msg);
            }
            dry[node] = st;
        }
        if (c->pool)
            size *= 2;
    }
done:
    out->ncandidates = nnon_violating + nviolating;
    out->candidates = kp_arena_alloc(a, (nnon_violating + nviolating + 1) *
                                     sizeof(*out->candidates));
    memcpy(out->candidates, non_violating,
           nnon_violating * sizeof(*non_violating));
    memcpy(out->candidates + nnon_violating, violating,
           nviolating * sizeof(*violating));
}

/* ---- SelectCandidate / pickOneNodeForPreemption ---- */

static int64_t
earliest_start_of_highest(const struct kp_candidate *cand)
{
    int32_t top = cand->victims[0]->priority;
    int64_t best = INT64_MAX;
    size_t i;

    for (i = 0; i < cand->nvictims; i++)
        if (cand->victims[i]->priority == top &&
            start_time(cand->victims[i]) < best)
            best = start_time(cand->victims[i]);
    return best;
}

static int64_t
score(const struct kp_candidate *cand, int step)
{
    int64_t sum = 0;
    size_t i;

    switch (step) {
    case 0:
        return -(int64_t)cand->num_pdb_violations;
    case 1:
        return -(int64_t)cand->victims[0]->priority;
    case 2:
        for (i = 0; i < cand->nvictims; i++)
            sum += (int64_t)cand->victims[i]->priority + 2147483648LL;
        return -sum;
    case 3:
        return -(int64_t)cand->nvictims;
    default:
        return earliest_start_of_highest(cand);
    }
}

static const char *const decided_by_names[] = {
    "pdbViolations", "highestVictimPriority", "sumOfVictimPriorities",
    "victimCount", "latestStartTime"};

static int
select_candidate(struct kp_arena *a, const struct kp_candidate *cands,
                 size_t n, const char **decided_by)
{
    int *alive = kp_arena_alloc(a, n * sizeof(int));
    size_t nalive = n, i, step;

    if (n == 1) {
        *decided_by = "onlyCandidate";
        return 0;
    }
    for (i = 0; i < n; i++)
        alive[i] = (int)i;
    for (step = 0; step < 5; step++) {
        int64_t best = INT64_MIN;
        size_t keep = 0;

        for (i = 0; i < nalive; i++) {
            int64_t s = score(&cands[alive[i]], (int)step);

            if (s > best)
                best = s;
        }
        for (i = 0; i < nalive; i++)
            if (score(&cands[alive[i]], (int)step) == best)
                alive[keep++] = alive[i];
        nalive = keep;
        if (nalive == 1) {
            *decided_by = decided_by_names[step];
            return alive[0];
        }
    }
    *decided_by = "firstCandidate";
    return alive[0];
}

/* ---- FitError histogram ---- */

static int
cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

char *
kp_reason_histogram(struct kp_arena *a, const struct kp_status *st,
                    size_t n, const char *absent_reason)
{
    /* distinct reasons are few: the lists grow as they come */
    size_t cap = 16;
    const char **reasons = kp_arena_alloc(a, cap * sizeof(char *));
    size_t *counts = kp_arena_alloc(a, cap * sizeof(size_t));
    char **items;
    size_t nr = 0, i, j, len = 1;
    int r;
    char *out;

    for (i = 0; i < n; i++) {
        const struct kp_status *s = &st[i];
        int nreasons = s->nreasons;

        for (r = 0; r < (nreasons ? nreasons : 1); r++) {
            const char *reason = nreasons ? s->reasons[r] : absent_reason;

            if (!reason)
                continue;
            /* most reasons are the same static strings: pointers first */
            for (j = 0; j < nr; j++)
                if (reasons[j] == reason)
                    break;
            if (j == nr)
                for (j = 0; j < nr; j++)
                    if (strcmp(reasons[j], reason) == 0)
                        break;
            if (j == nr) {
                if (nr == cap) {
                    const char **nreas = kp_arena_alloc(a, 2 * cap *
                                                        sizeof(char *));
                    size_t *ncounts = kp_arena_alloc(a, 2 * cap *
                                                     sizeof(size_t));

                    memcpy(nreas, reasons, cap * sizeof(char *));
                    memcpy(ncounts, counts, cap * sizeof(size_t));
                    reasons = nreas;
                    counts = ncounts;
                    cap *= 2;
                }
                reasons[nr++] = reason;
            }
            counts[j]++;
        }
    }
    items = kp_arena_alloc(a, (nr + 1) * sizeof(char *));
    for (j = 0; j < nr; j++) {
        size_t sz = strlen(reasons[j]) + 24;

        items[j] = kp_arena_alloc(a, sz);
        snprintf(items[j], sz, "%zu %s", counts[j], reasons[j]);
        len += strlen(items[j]) + 2;
    }
    qsort(items, nr, sizeof(char *), cmp_str);
    out = kp_arena_alloc(a, len);
    for (j = 0, len = 0; j < nr; j++) {
        size_t l = strlen(items[j]);

        if (j) {
            memcpy(out + len, ", ", 2);
            len += 2;
        }
        memcpy(out + len, items[j], l);
        len += l;
    }
    out[len] = '\0';
    return out;
}

/* ---- Preempt ---- */

static const char *
no_candidates_message(struct kp_cycle *c, struct kp_status *dry)
{
    size_t n = c->cl->snap->nnodes, sz;
    char *hist = kp_reason_histogram(c->scratch, dry, n, REASON_NOT_HELPFUL);
    char *msg;

    sz = strlen(hist) + 64;
    msg = kp_arena_alloc(c->scratch, sz);
    snprintf(msg, sz, "0/%zu nodes are available: %s.", n, hist);
    return msg;
}

void
kp_preempt(struct kp_cycle *c, const struct kp_status *statuses,
           const struct kp_preempt_args *args, struct kp_preempt_result *out)
{
    size_t n = c->cl->snap->nnodes, i, np = 0;
    int *potential = kp_arena_alloc(c->scratch, (n + 1) * sizeof(int));
    struct kp_status *dry = kp_arena_alloc(c->scratch,
                                           (n + 1) * sizeof(*dry));
    const char *msg;

    memset(out, 0, sizeof(*out));
    out->chosen = -1;
    msg = pod_eligible_to_preempt_others(c, statuses);
    if (msg) {
        out->outcome = KP_PREEMPT_NOT_ELIGIBLE;
        out->message = msg;
        return;
    }
    if (args->record_nodes) {
        /* zeroed: every node KP_NODE_NOT_TRIED until it is potential */
        out->nodes = kp_arena_alloc(c->scratch, (n + 1) *
                                    sizeof(*out->nodes));
        out->dry = dry;
    }
    /* nodesWherePreemptionMightHelp: exactly Unschedulable, input order */
    for (i = 0; i < n; i++) {
        if (statuses[i].code != KP_UNSCHEDULABLE)
            continue;
        potential[np++] = (int)i;
        if (out->nodes)
            out->nodes[i].outcome = KP_NODE_NOT_EVALUATED;
    }
    out->npotential = np;
    if (np > 0) {
        size_t k = calculate_num_candidates(args, np);
        size_t offset = (size_t)(args->offset % (long)np);

        out->num_candidates = k;
        dry_run_preemption(c, potential, np, offset, k, dry, out);
    }
    if (out->ncandidates == 0) {
        out->outcome = KP_PREEMPT_NO_CANDIDATES;
        out->message = no_candidates_message(c, dry);
        return;
    }
    out->outcome = KP_PREEMPT_CHOSEN;
    out->chosen = select_candidate(c->scratch, out->candidates,
                                   out->ncandidates, &out->decided_by);
}
