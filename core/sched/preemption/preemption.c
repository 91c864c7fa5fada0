/*
 * preemption.c - see preemption.h.  The Evaluator of
 * pkg/scheduler/framework/preemption/preemption.go: Preempt,
 * findCandidates (nodesWherePreemptionMightHelp), DryRunPreemption,
 * SelectCandidate (pickOneNodeForPreemption) and the FitError
 * histogram; the DefaultPreemption plugin's part (eligibility,
 * SelectVictimsOnNode, the candidate count) is in
 * core/sched/plugins/defaultpreemption/default_preemption.c, as upstream
 * keeps it in plugins/defaultpreemption/.  Each step keeps upstream's name in snake
 * case; where kube-scheduler is random the rule of README's "Reproducible
 * where kube-scheduler is random" applies (input order, --offset, first
 * candidate on a tie).
 */
#include "preemption.h"
#include "default_preemption.h"
#include "pool.h"
#include "selfcheck.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REASON_NOT_HELPFUL KP_REASON_PREEMPTION_NOT_HELPFUL

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
 * The potential nodes, evaluated by the pool's threads; each thread
 * allocates in its own arena (the cycle's scratch for that thread).  The
 * pool stops claiming nodes once the candidates found among the nodes
 * evaluated are enough for the loop below to stop: the nodes done are a
 * prefix of its walk, and its stopping point is inside it.
 */
struct dry_batch {
    const struct kp_cycle *c;
    /*
     * c for each thread (its arena the scratch), fit_only as
     * SelectVictimsOnNode runs the Filter plugins: copied once per dry
     * run instead of once per node
     */
    struct kp_cycle *wc;
    const int *potential;
    size_t n, offset, k;
    bool may_cut;           /* the nodes' outcomes are not recorded */
    struct kp_candidate *cand;
    struct kp_status *st;
    atomic_size_t nnon_violating, nviolating;
};

static size_t
min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static bool
dry_run_one(void *ctx, size_t j, struct kp_arena *a)
{
    struct dry_batch *b = ctx;
    struct kp_cycle *wc = &b->wc[kp_pool_thread_of(b->c->pool, a)];
    int node = b->potential[(b->offset + j) % b->n];
    struct kp_candidate *cand = &b->cand[j];
    size_t non, vio;
    /*
     * As many PDB-violating candidates as the dry run keeps among the
     * nodes done, which (may_cut: one thread) are those before this one
     * in the walk: a PDB-violating candidate here is dropped unread.
     */
    bool enough = b->may_cut && b->k > 0 &&
                  atomic_load(&b->nviolating) >= b->k;

#ifdef KP_SELFCHECK
    kp_selfcheck_count();
    if (wc->scratch != a)
        kp_selfcheck_fail("dry run: pod %s/%s: no cycle copy for the "
                          "thread's arena", b->c->pod->ns, b->c->pod->name);
#endif
    /* the next two nodes' tables, asked for ahead (a hint) */
    if (j + 1 < b->n)
        kp_select_victims_prefetch(wc, b->potential[(b->offset + j + 1) %
                                                    b->n], false);
    if (j + 2 < b->n)
        kp_select_victims_prefetch(wc, b->potential[(b->offset + j + 2) %
                                                    b->n], true);
    memset(cand, 0, sizeof(*cand));
    b->st[j] = kp_select_victims_on_node(wc, node, enough, cand);
    if (b->st[j].code != KP_SUCCESS || cand->nvictims == 0)
        return false;
    /* (counts of nodes done: never more than the walk's up to them) */
    if (cand->num_pdb_violations == 0) {
        non = atomic_fetch_add(&b->nnon_violating, 1) + 1;
        vio = atomic_load(&b->nviolating);
    } else {
        vio = atomic_fetch_add(&b->nviolating, 1) + 1;
        non = atomic_load(&b->nnon_violating);
    }
    return b->k > 0 && non > 0 && min_size(non, b->k) + min_size(vio, b->k) >= b->k;
}

/* nodes claimed at once: some tens of microseconds, little past k */
#define DRY_RUN_GRAIN 8

static void
dry_run_preemption(struct kp_cycle *c, const int *potential, size_t n,
                   size_t offset, size_t k, struct kp_status **dry,
                   const struct kp_preempt_args *args,
                   struct kp_preempt_result *out)
{
    struct kp_arena *a = c->scratch;
    /* filled from the front; only what is filled is read */
    struct kp_candidate *non_violating =
        kp_arena_alloc_uninit(a, (k + 1) * sizeof(*non_violating));
    struct kp_candidate *violating =
        kp_arena_alloc_uninit(a, (k + 1) * sizeof(*violating));
    size_t nnon_violating = 0, nviolating = 0, i, done;
    struct dry_batch b;
    int t, nwc = c->pool ? kp_pool_threads(c->pool) : 1;

    b.c = c;
    b.wc = kp_arena_alloc(a, (size_t)nwc * sizeof(*b.wc));
    for (t = 0; t < nwc; t++) {
        b.wc[t] = *c;
        b.wc[t].scratch = c->pool ? kp_pool_arena(c->pool, t) : a;
        b.wc[t].fit_only = true;
    }
    b.potential = potential;
    b.n = n;
    b.offset = offset;
    b.k = k;
    /*
     * not on several threads: the nodes done are not the nodes before
     * in the walk; nor when the nodes' outcomes are recorded
     */
    b.may_cut = out->nodes == NULL && c->pool == NULL;
    atomic_init(&b.nnon_violating, 0);
    atomic_init(&b.nviolating, 0);
    /* each entry is written by dry_run_one before it is read */
    b.cand = kp_arena_alloc_uninit(a, n * sizeof(*b.cand));
    b.st = kp_arena_alloc_uninit(a, n * sizeof(*b.st));
    done = kp_pool_run_side(c->pool, n, DRY_RUN_GRAIN, dry_run_one, &b, a,
                            args->side, args->side_ctx);
    /* the one-by-one loop, over what was evaluated */
    for (i = 0; i < done; i++) {
        int node = potential[(offset + i) % n];
        struct kp_candidate cand = b.cand[i];
        struct kp_status st = b.st[i];

        out->nexamined++;
#ifdef KP_SELFCHECK
        kp_selfcheck_count();
        if (cand.partial && (st.code != KP_SUCCESS || nviolating < k ||
                             cand.num_pdb_violations == 0))
            kp_selfcheck_fail("dry run cut: pod %s/%s: a partial candidate "
                              "on node %s is kept",
                              c->pod->ns, c->pod->name,
                              c->cl->nodes[node].node->name);
#endif
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
                break;
            continue;
        }
        record_node(out, node, KP_NODE_NO_VICTIMS_HELP, NULL);
        if (st.code == KP_SUCCESS) {
            char *msg = kp_arena_alloc(a, 256);

            snprintf(msg, 256, "expected at least one victim pod on "
                     "node %s", c->cl->nodes[node].node->name);
            st = kp_status_new(KP_ERROR, msg);
        }
        /* the nodes' array, made at the first status it keeps */
        if (!*dry)
            *dry = kp_arena_alloc(a, (c->cl->snap->nnodes + 1) *
                                  sizeof(**dry));
        (*dry)[node] = st;
    }
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
            kp_pod_start_time(cand->victims[i]) < best)
            best = kp_pod_start_time(cand->victims[i]);
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
    /* each candidate's score at a step, worked out once (victims are
     * pods scattered in memory) */
    int64_t *s = kp_arena_alloc_uninit(a, n * sizeof(*s));
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
            s[i] = score(&cands[alive[i]], (int)step);
            if (s[i] > best)
                best = s[i];
        }
        for (i = 0; i < nalive; i++)
            if (s[i] == best)
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

/* the reasons met and how often, in the order first met */
struct tally {
    const char **reasons;
    size_t *counts;
    size_t n, cap;
};

/* k more of reason (the lists grow as they come) */
static void
tally_add(struct kp_arena *a, struct tally *t, const char *reason, size_t k)
{
    size_t j;

    /* most reasons are the same static strings: pointers first */
    for (j = 0; j < t->n; j++)
        if (t->reasons[j] == reason)
            break;
    if (j == t->n)
        for (j = 0; j < t->n; j++)
            if (strcmp(t->reasons[j], reason) == 0)
                break;
    if (j == t->n) {
        if (t->n == t->cap) {
            size_t cap = t->cap ? 2 * t->cap : 16;
            const char **r = kp_arena_alloc(a, cap * sizeof(*r));
            size_t *c = kp_arena_alloc(a, cap * sizeof(*c));

            if (t->n) {
                memcpy(r, t->reasons, t->n * sizeof(*r));
                memcpy(c, t->counts, t->n * sizeof(*c));
            }
            t->reasons = r;
            t->counts = c;
            t->cap = cap;
        }
        t->reasons[t->n] = reason;
        t->counts[t->n++] = 0;
    }
    t->counts[j] += k;
}

/* "<n> <reason>, ..." sorted as strings */
static char *
tally_text(struct kp_arena *a, const struct tally *t)
{
    char **items = kp_arena_alloc(a, (t->n + 1) * sizeof(char *));
    size_t j;

    for (j = 0; j < t->n; j++) {
        size_t sz = strlen(t->reasons[j]) + 24;

        items[j] = kp_arena_alloc(a, sz);
        snprintf(items[j], sz, "%zu %s", t->counts[j], t->reasons[j]);
    }
    qsort(items, t->n, sizeof(char *), cmp_str);
    return kp_arena_join(a, (const char *const *)items, t->n, ", ");
}

char *
kp_reason_histogram(struct kp_arena *a, const struct kp_status *st,
                    size_t n, const char *absent_reason)
{
    struct tally t = {NULL, NULL, 0, 0};
    size_t i;
    int r;

    for (i = 0; i < n; i++) {
        const struct kp_status *s = &st[i];
        int nreasons = s->nreasons;

        for (r = 0; r < (nreasons ? nreasons : 1); r++) {
            const char *reason = nreasons ? kp_status_reason(s, r)
                                          : absent_reason;

            if (reason)
                tally_add(a, &t, reason, 1);
        }
    }
    return tally_text(a, &t);
}

char *
kp_reason_histogram_of(struct kp_arena *a, const char *const *reasons,
                       const size_t *counts, size_t n)
{
    struct tally t = {NULL, NULL, 0, 0};
    size_t i;

    for (i = 0; i < n; i++)
        tally_add(a, &t, reasons[i], counts[i]);
    return tally_text(a, &t);
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
    size_t n = c->cl->snap->nnodes, i, npotential = 0;
    /* each entry is written before it is read */
    int *potential = kp_arena_alloc_uninit(c->scratch,
                                           (n + 1) * sizeof(int));
    /*
     * the dry run's statuses by node, zeroed (no status) where it made
     * none: made at the first node it keeps one for, or for the message
     * when no candidate is found; a pod whose dry run fails on no node
     * makes none.  Its readers (out->dry) read it only at the nodes
     * recorded KP_NODE_NO_VICTIMS_HELP, each given a status there.
     */
    struct kp_status *dry = NULL;
    const char *msg;

    memset(out, 0, sizeof(*out));
    out->chosen = -1;
    msg = kp_pod_eligible_to_preempt_others(c, statuses);
    if (msg) {
        out->outcome = KP_PREEMPT_NOT_ELIGIBLE;
        out->message = msg;
        return;
    }
    if (args->record_nodes) {
        /* zeroed: every node KP_NODE_NOT_TRIED until it is potential */
        out->nodes = kp_arena_alloc(c->scratch, (n + 1) *
                                    sizeof(*out->nodes));
    }
    /* nodesWherePreemptionMightHelp: exactly Unschedulable, input order */
    for (i = 0; i < n; i++) {
        if (statuses[i].code != KP_UNSCHEDULABLE)
            continue;
        potential[npotential++] = (int)i;
        if (out->nodes)
            out->nodes[i].outcome = KP_NODE_NOT_EVALUATED;
    }
    out->npotential = npotential;
    c->sums_upto = kp_victims_on_sums(c);
    if (npotential > 0) {
        size_t num_candidates =
            kp_calculate_num_candidates(args, npotential);
        size_t offset = (size_t)(args->offset % (long)npotential);

        out->num_candidates = num_candidates;
        dry_run_preemption(c, potential, npotential, offset, num_candidates,
                           &dry, args, out);
    }
    out->dry = dry;
    if (out->ncandidates == 0) {
        out->outcome = KP_PREEMPT_NO_CANDIDATES;
        if (!dry)
            dry = kp_arena_alloc(c->scratch, (n + 1) * sizeof(*dry));
        out->message = no_candidates_message(c, dry);
        return;
    }
    out->outcome = KP_PREEMPT_CHOSEN;
    out->chosen = select_candidate(c->scratch, out->candidates,
                                   out->ncandidates, &out->decided_by);
}
