/*
 * simulate.c - the scheduling queue (activeQ order: PrioritySort) and one
 * scheduling attempt per pending pod (scheduleOne), and, in queue mode,
 * the effect of each decision on the pods after it: the cache's
 * AddPod/RemovePod (kp_cluster_place/remove) and the nominator's
 * AddNominatedPod/DeleteNominatedPodIfExists (kp_cluster_nominate/
 * clear_nomination).
 *
 * Mirrors pkg/scheduler/schedule_one.go (schedulePod, findNodesThatFitPod,
 * evaluateNominatedNode, FitError), pkg/scheduler/framework/plugins/
 * queuesort/priority_sort.go and prepareCandidate of
 * pkg/scheduler/framework/preemption/preemption.go.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kube_version.h"
#include "config.h"
#include "diagnosis.h"
#include "kp.h"
#include "pool.h"
#include "selfcheck.h"
#include "report.h"
#include "shortcut.h"
#include "score.h"
#include "selcount.h"
#include "simulate.h"
#include "plugins.h"
#include "rollout.h"
#include "whatif.h"

#define MAX_MESSAGE 1024

int
kp_queue_cmp(const struct kp_pod *a, const struct kp_pod *b)
{
    int c;

    if (a->priority != b->priority)
        return a->priority > b->priority ? -1 : 1;
    if (a->creation_time != b->creation_time)
        return a->creation_time < b->creation_time ? -1 : 1;
    c = strcmp(a->ns, b->ns);
    return c ? c : strcmp(a->name, b->name);
}

static int
qsort_queue(const void *x, const void *y)
{
    return kp_queue_cmp(*(const struct kp_pod *const *)x,
                        *(const struct kp_pod *const *)y);
}

static const char *
fit_error(struct kp_arena *a, size_t nnodes, const char *prefilter_msg,
          const char *hist, const char *postfilter_msg)
{
    size_t sz = strlen(hist) + (prefilter_msg ? strlen(prefilter_msg) : 0) +
                (postfilter_msg ? strlen(postfilter_msg) : 0) + 64;
    char *m = kp_arena_alloc(a, sz);
    size_t len;

    len = (size_t)snprintf(m, sz, "0/%zu nodes are available:", nnodes);
    if (prefilter_msg)
        len += (size_t)snprintf(m + len, sz - len, " %s.", prefilter_msg);
    else if (hist[0])
        len += (size_t)snprintf(m + len, sz - len, " %s.", hist);
    if (postfilter_msg) {
        size_t pl = strlen(postfilter_msg);
        bool dot = pl && postfilter_msg[pl - 1] == '.';

        len += (size_t)snprintf(m + len, sz - len, " %s%s", postfilter_msg,
                                dot ? "" : ".");
    }
    if (len > MAX_MESSAGE)
        memcpy(m + MAX_MESSAGE - 4, " ...", 5);
    return m;
}

static void
fill_victims(struct kp_arena *ra, const struct kp_snapshot *snap,
             struct kp_pod_report *pr, const struct kp_candidate *cand)
{
    size_t i, j;

    pr->nvictims = cand->nvictims;
    pr->victims = kp_arena_alloc(ra, (cand->nvictims + 1) *
                                 sizeof(*pr->victims));
    pr->pdb_violations = cand->num_pdb_violations;
    for (i = 0; i < cand->nvictims; i++) {
        struct kp_victim_report *v = &pr->victims[i];

        v->pod = cand->victims[i];
        v->node = cand->node;
        v->violates_pdb = cand->violating[i];
        v->pdbs = kp_arena_alloc(ra, (v->pod->npdbs + 1) *
                                 sizeof(*v->pdbs));
        for (j = 0; j < v->pod->npdbs; j++)
            v->pdbs[v->npdbs++] = snap->pdbs[v->pod->pdbs[j]];
    }
}

/*
 * Copy candidates out of the scratch arena (their victims out of the
 * pool threads' arenas) into the report's arena ra: every candidate's
 * victims in one block of ra, sliced in candidate order, the slices
 * filled on the pool's threads (KP_NO_KEEP_PARALLEL=1: on this one) as
 * a few hundred candidates of a few victims each are most of what a
 * preempting pod reports.
 */
struct keep_batch {
    const struct kp_candidate *from;
    struct kp_candidate *to;
};

static bool
keep_one(void *ctx, size_t i, struct kp_arena *a)
{
    const struct keep_batch *b = ctx;
    const struct kp_candidate *c = &b->from[i];
    struct kp_candidate *d = &b->to[i];

    (void)a;
    memcpy(d->victims, c->victims, c->nvictims * sizeof(*c->victims));
    memcpy(d->violating, c->violating, c->nvictims * sizeof(bool));
    return false;
}

#define KEEP_GRAIN 32

static void
keep_candidates(struct kp_arena *ra, struct kp_pool *pool,
                struct kp_pod_report *pr, const struct kp_preempt_result *res)
{
    struct keep_batch b;
    const struct kp_pod **victims;
    bool *violating;
    size_t i, total = 0;

    pr->ncandidates = res->ncandidates;
    /* each entry is copied below; the one past the end stays zeroed */
    pr->candidates = kp_arena_alloc_uninit(ra, (res->ncandidates + 1) *
                                           sizeof(*pr->candidates));
    memset(&pr->candidates[res->ncandidates], 0, sizeof(*pr->candidates));
    for (i = 0; i < res->ncandidates; i++)
        total += res->candidates[i].nvictims;
    victims = kp_arena_alloc_uninit(ra, (total + 1) * sizeof(*victims));
    violating = kp_arena_alloc_uninit(ra, total + 1);
    for (i = 0; i < res->ncandidates; i++) {
        const struct kp_candidate *c = &res->candidates[i];
        struct kp_candidate *d = &pr->candidates[i];

        *d = *c;
        /* (a candidate has victims: DryRunPreemption keeps no other) */
        d->victims = c->nvictims ? victims : NULL;
        d->violating = c->nvictims ? violating : NULL;
        victims += c->nvictims;
        violating += c->nvictims;
    }
    b.from = res->candidates;
    b.to = pr->candidates;
    if (kp_shortcut_off("KP_NO_KEEP_PARALLEL"))
        pool = NULL;
    kp_pool_run(pool, res->ncandidates, KEEP_GRAIN, keep_one, &b, NULL);
}

struct attempt {
    struct kp_status *statuses;
    bool *seen;                 /* --explain-nodes: node has a status */
    const char *prefilter_msg;
    int fit_node;
    /*
     * A PreFilter or Filter Error: the scheduling cycle stops there
     * (schedule_one.go schedulePod / findNodesThatPassFilters), no node
     * is chosen and no PostFilter runs; the text the pod's
     * PodScheduled condition (SchedulerError) would carry.
     */
    const char *error;
};

/* the Error a Filter status carries, wrapped as RunFilterPlugins does */
static const char *
filter_error(struct kp_arena *a, const struct kp_status *st)
{
    return kp_arena_concat(a, "running \"", st->plugin ? st->plugin : "",
                           "\" filter plugin: ",
                           st->nreasons ? st->reasons[0] : "", NULL);
}

/* A status for node i (seen is kept only for --explain-nodes). */
static void
set_status(struct attempt *at, size_t i, struct kp_status st)
{
    at->statuses[i] = st;
    if (at->seen)
        at->seen[i] = true;
}

static int
cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

/*
 * The nodes the filter pass walks: every node, or only those the merged
 * PreFilterResults name, in input order instead of upstream's map order.
 * Nodes left out get the status upstream gives absent nodes, except keep
 * (a nominated node already evaluated, whose status upstream keeps).  Returns the number of nodes in list.
 */
static size_t
pass_nodes(struct kp_cycle *c, struct attempt *at, int *list, int keep)
{
    size_t n = c->cl->snap->nnodes, i, m = 0;
    struct kp_status out;
    bool made = false;

    /* no PreFilterResult names nodes (the common case): every node */
    if (!c->restricted) {
        for (i = 0; i < n; i++)
            list[i] = (int)i;
        return n;
    }
    for (i = 0; i < n; i++) {
        if (kp_cycle_node_allowed(c, c->cl->nodes[i].node)) {
            list[m++] = (int)i;
        } else if ((int)i != keep) {
            /* one status, the same for every node left out */
            if (!made)
                out = kp_cycle_restricted_status(c);
            made = true;
            set_status(at, i, out);
        }
    }
    return m;
}

/*
 * findNodesThatFitPod, with the nominated node tried first.  The filter
 * pass starts at *next_start (kube-scheduler's nextStartNodeIndex, kept
 * across cycles), takes the nodes' statuses in order and stops once
 * numFeasibleNodesToFind nodes fit; the index then moves on by the
 * number of nodes processed.  When a node fits, the statuses of nodes
 * the pass did not reach are left unset (they are not reported).
 *
 * With threads the nodes are evaluated in one run of the pool, which
 * stops claiming nodes once k of those evaluated fit: the nodes done are
 * a prefix of the walk, and the walk's stopping point is inside it.
 */
struct filter_batch {
    const struct kp_cycle *c;
    const int *list;
    size_t m, start, k;
    /*
     * the attempt's statuses, by node: the filter pass writes them
     * there; those past where the walk stops are then unset again
     */
    struct kp_status *by_node;
    atomic_size_t nfeasible;
};

/* nodes claimed at once: a few microseconds of work, little past k */
#define FILTER_GRAIN 32
/* how many nodes ahead the Filter's first reads are asked for */
#define FILTER_AHEAD 3

/*
 * The pool's item k: the FILTER_GRAIN nodes from k * FILTER_GRAIN, all of
 * them (a claimed chunk is finished, as the pool finishes its chunks),
 * with one copy of the cycle for the thread's arena (the Filter reads
 * the cycle only).  True once k feasible nodes were found.
 */
static bool
filter_chunk(void *ctx, size_t k, struct kp_arena *a)
{
    struct filter_batch *b = ctx;
    struct kp_cycle wc = *b->c;
    size_t j, end = (k + 1) * FILTER_GRAIN, nf = 0;

    wc.scratch = a;
    if (end > b->m)
        end = b->m;
    for (j = k * FILTER_GRAIN; j < end; j++) {
        int node = b->list[(b->start + j) % b->m];

        if (j + FILTER_AHEAD < end)
            kp_filter_prefetch(&wc, b->list[(b->start + j + FILTER_AHEAD) %
                                            b->m]);
        b->by_node[node] = kp_run_filters_with_nominated(&wc,
                                                         &wc.cl->nodes[node]);
        nf += b->by_node[node].code == KP_SUCCESS;
    }
    return nf && atomic_fetch_add(&b->nfeasible, nf) + nf >= b->k;
}

/*
 * The nodes of the walk in order, each filtered, until k fit (threads:
 * a chunk at a time, as above; alone: node by node, stopping at the
 * k-th).  Returns how many were done, a prefix of the walk.
 */
static size_t
filter_walk(struct kp_cycle *c, struct filter_batch *b)
{
    size_t j, nf = 0, nchunks;

    if (c->pool) {
        nchunks = (b->m + FILTER_GRAIN - 1) / FILTER_GRAIN;
        j = kp_pool_run(c->pool, nchunks, 1, filter_chunk, b, c->scratch);
        return j * FILTER_GRAIN < b->m ? j * FILTER_GRAIN : b->m;
    }
    for (j = 0; j < b->m; j++) {
        int node = b->list[(b->start + j) % b->m];

        if (j + FILTER_AHEAD < b->m)
            kp_filter_prefetch(c, b->list[(b->start + j + FILTER_AHEAD) %
                                          b->m]);
        b->by_node[node] = kp_run_filters_with_nominated(c,
                                                         &c->cl->nodes[node]);
        if (b->by_node[node].code == KP_SUCCESS && ++nf >= b->k)
            return j + 1;
    }
    return b->m;
}

/*
 * The statuses the filter pass wrote past where the walk stops, from walk
 * position from to done, unset again as if never evaluated; keep (the
 * failed nominated node, or -1) gets back the status it had before.
 */
static void
unset_after(struct attempt *at, const struct filter_batch *b, size_t from,
            size_t done, int keep, const struct kp_status *keep_st)
{
    size_t i;

    for (i = from; i < done; i++) {
        int node = b->list[(b->start + i) % b->m];

        if (node == keep)
            at->statuses[node] = *keep_st;
        else
            memset(&at->statuses[node], 0, sizeof(at->statuses[node]));
    }
}

/*
 * nodes[0..nf), distinct indices below n, in increasing order: by a
 * pass over a mark per node when they are more than a few of the n (the
 * walk's order, from where the last pass stopped round to it, is two
 * increasing runs, the nominated node first), else by qsort
 */
static void
sort_nodes(struct kp_arena *a, int *nodes, size_t nf, size_t n)
{
    unsigned char *seen;
    size_t i, k = 0;

    if (nf < 2)
        return;
    if (nf * 16 < n) {
        qsort(nodes, nf, sizeof(*nodes), cmp_int);
        return;
    }
    seen = kp_arena_alloc(a, n);
    for (i = 0; i < nf; i++)
        seen[nodes[i]] = 1;
    for (i = 0; i < n; i++)
        if (seen[i])
            nodes[k++] = (int)i;
#ifdef KP_SELFCHECK
    if (k != nf)
        kp_selfcheck_fail("the filter pass found %zu feasible nodes, %zu "
                          "of them distinct", nf, k);
#endif
}

static void
find_nodes_that_fit(struct kp_cycle *c, struct attempt *at,
                    size_t *next_start)
{
    struct filter_batch b;
    const struct kp_cluster *cl = c->cl;
    size_t n = cl->snap->nnodes, i, m, k, nf = 0, processed = 0, done;
    int nominated = cl->nominated_node_of[c->pod->index];
    /* each entry is written before it is read */
    int *feasible = kp_arena_alloc_uninit(c->scratch, (n + 1) * sizeof(int));
    int *list = kp_arena_alloc_uninit(c->scratch, (n + 1) * sizeof(int));
    bool nominated_failed = false, nominated_seen = false;
    struct kp_status st = kp_cycle_pre_filter(c), nominated_st;

    at->fit_node = -1;
    if (st.code == KP_ERROR) {
        /* RunPreFilterPlugins: an Error ends the cycle (no FitError) */
        at->error = kp_arena_concat(c->scratch, "running PreFilter plugin "
                                    "\"", st.plugin ? st.plugin : "",
                                    "\": ", st.nreasons ? st.reasons[0] : "",
                                    NULL);
        return;
    }
    if (st.code != KP_SUCCESS) {
        for (i = 0; i < n; i++)
            set_status(at, i, st);
        at->prefilter_msg = st.nreasons ? st.reasons[0] : "";
        return;
    }
    kp_cycle_keep_static(c);
    if (nominated >= 0) {
        st = kp_run_filters_with_nominated(c, &cl->nodes[nominated]);
        /* evaluateNominatedNode: its error ends the cycle as well */
        if (st.code == KP_ERROR) {
            set_status(at, (size_t)nominated, st);
            at->error = filter_error(c->scratch, &st);
            return;
        }
        if (st.code == KP_SUCCESS) {
            set_status(at, (size_t)nominated, st);
            at->fit_node = nominated;
            return;
        }
        set_status(at, (size_t)nominated, st);
        nominated_failed = true;
        nominated_st = st;
    }
    m = pass_nodes(c, at, list, nominated_failed ? nominated : -1);
    k = kp_num_feasible_nodes_pct(m, c->profile ?
        c->profile->percentage_of_nodes_to_score : 0);
    b.c = c;
    b.list = list;
    b.m = m;
    b.start = m ? *next_start % m : 0;
    b.k = k;
    atomic_init(&b.nfeasible, 0);
    b.by_node = at->statuses;
    done = k ? filter_walk(c, &b) : 0;
    for (i = 0; i < done && nf < k; i++) {
        int node = list[(b.start + i) % m];
        const struct kp_status *s = &at->statuses[node];

        if (at->seen)
            at->seen[node] = true;
        /*
         * findNodesThatPassFilters: the first Error cancels the search;
         * findNodesThatFitPod still moves nextStartNodeIndex past the
         * nodes with a status (the erring one has none)
         */
        if (s->code == KP_ERROR) {
            /* (its status is kept for --explain-nodes) */
            at->error = filter_error(c->scratch, s);
            unset_after(at, &b, i + 1, done,
                        nominated_failed ? nominated : -1, &nominated_st);
            *next_start = (*next_start + i +
                           (nominated_failed && !nominated_seen ? 1 : 0)) % n;
            return;
        }
        if (node == nominated)
            nominated_seen = true;
        if (s->code == KP_SUCCESS)
            feasible[nf++] = node;
    }
    unset_after(at, &b, i, done, nominated_failed ? nominated : -1,
                &nominated_st);
    /*
     * processedNodes = feasible nodes + nodes with a status; a failed
     * nominated node keeps its status even when the pass stops early.
     */
    processed = i + (nominated_failed && !nominated_seen ? 1 : 0);
    *next_start = (*next_start + processed) % n;
    if (nf) {
        /* scoring does not depend on order; ties go to input order */
        sort_nodes(c->scratch, feasible, nf, n);
        at->fit_node = kp_select_host(c, feasible, nf);
    }
}

/*
 * A profile without DefaultPreemption: the PostFilter plugins left (or
 * none, schedule_one.go's "no PostFilter plugins" path) cannot make room;
 * the FitError's message then has no preemption part.
 */
static void
no_post_filter(struct kp_cycle *c, struct kp_report *rep,
               struct kp_arena *ra, struct kp_pod_report *pr,
               const struct attempt *at, const char *hist)
{
    size_t n = c->cl->snap->nnodes;

    if (rep->explain_nodes && pr->reported)
        kp_pod_report_keep_nodes(rep, pr, n, at->statuses, at->seen, NULL);
    pr->result = KP_RESULT_UNSCHEDULABLE;
    pr->message = kp_arena_strdup(ra,
        fit_error(c->scratch, n, at->prefilter_msg, hist,
                  c->profile->dra_post_filter ?
                  "no new claims to deallocate" : NULL));
}

/*
 * What attempt_pod makes of the Filter statuses while the dry run runs
 * (kp_preempt_args.side): the FitError's histogram, and the part of the
 * diagnosis made ahead (pre, or NULL); made once.
 */
struct ahead {
    const struct kp_cycle *c;
    const struct kp_status *st;
    struct kp_diag_pre *pre;
    const char *hist;
};

/* KP_NO_HIST_FROM_GROUPS */
static atomic_int hist_groups_off = -1;

static void
ahead_on(struct ahead *s, struct kp_pool *pool)
{
    if (s->hist)
        return;
    /*
     * the diagnosis's groups count the reasons as the histogram does
     * (by plugin too): summed by reason, no second walk over the
     * statuses (KP_NO_HIST_FROM_GROUPS=1: the walk)
     */
    if (s->pre && !kp_shortcut_off_once(&hist_groups_off,
                                        "KP_NO_HIST_FROM_GROUPS")) {
        kp_diagnose_filters_on(s->pre, pool);
        s->hist = kp_diagnose_histogram(s->pre, s->c->scratch);
#ifdef KP_SELFCHECK
        {
            const char *w = kp_reason_histogram(s->c->scratch, s->st,
                                                s->c->cl->snap->nnodes, NULL);

            kp_selfcheck_count();
            if (strcmp(w, s->hist) != 0)
                kp_selfcheck_fail("FitError histogram of %s/%s from the "
                                  "diagnosis's groups: \"%s\", the "
                                  "statuses give \"%s\"", s->c->pod->ns,
                                  s->c->pod->name, s->hist, w);
        }
#endif
        return;
    }
    s->hist = kp_reason_histogram(s->c->scratch, s->st,
                                  s->c->cl->snap->nnodes, NULL);
    if (s->pre)
        kp_diagnose_filters_on(s->pre, pool);
}

/* the dry run's side task: the pool's other threads are busy */
static void
ahead(void *x)
{
    ahead_on(x, NULL);
}

/*
 * One scheduling attempt: what is reported goes into ra (rep->arena, or a
 * thread's own arena given to it later), the rest into c->scratch.
 */
static void
attempt_pod(struct kp_cycle *c, const struct kp_options *o,
            struct kp_report *rep, struct kp_arena *ra,
            struct kp_pod_report *pr, size_t *next_start)
{
    const struct kp_snapshot *snap = c->cl->snap;
    size_t n = snap->nnodes;
    struct attempt at = {0};
    bool explain = o->explain_nodes && pr->reported;
    const struct kp_profile *prof = c->profile;
    /* the numbers of a pod that does not fit: issue 26, diagnosis.h */
    bool diagnose = pr->reported && (o->output == KP_OUTPUT_JSON ||
                                     o->output == KP_OUTPUT_DESCRIBE ||
                                     o->output >= KP_OUTPUT_YAML);
    struct kp_preempt_args args = {o->min_candidate_nodes_percentage,
                                   o->min_candidate_nodes_absolute,
                                   o->offset, explain || diagnose,
                                   NULL, NULL};
    struct kp_preempt_result res;
    struct ahead side = {NULL, NULL, NULL, NULL};
    const char *hist, *post;

    pr->node = pr->nominated_node = -1;
    /*
     * The nomination as it is at this point of the queue: kp_cluster_init
     * nominated every queued pod whose nominated node exists; an earlier
     * preemption on that node may have cleared it since.
     */
    pr->nomination_cleared = c->pod->nominated_node &&
        kp_snapshot_node(snap, c->pod->nominated_node) &&
        c->cl->nominated_node_of[c->pod->index] < 0;
    if (n == 0) {
        pr->result = KP_RESULT_UNSCHEDULABLE;
        pr->message = "no nodes available to schedule pods";
        return;
    }
    at.statuses = kp_arena_alloc(c->scratch, n * sizeof(*at.statuses));
    if (explain)
        at.seen = kp_arena_alloc(c->scratch, n * sizeof(*at.seen));
    find_nodes_that_fit(c, &at, next_start);
    if (at.error) {
        /* no node, no PostFilter; queue mode clears the nomination */
        if (explain)
            kp_pod_report_keep_nodes(rep, pr, n, at.statuses, at.seen, NULL);
        pr->result = KP_RESULT_UNSCHEDULABLE;
        pr->message = kp_arena_strdup(ra, at.error);
        return;
    }
    if (at.fit_node >= 0) {
        if (explain)
            kp_pod_report_keep_nodes(rep, pr, n, at.statuses, at.seen, NULL);
        pr->result = KP_RESULT_FITS;
        pr->node = at.fit_node;
        pr->message = kp_arena_concat(ra, "fits on node ",
                                      snap->nodes[at.fit_node]->name,
                                      " without preemption", NULL);
        return;
    }
    if (prof && !prof->default_preemption) {
        hist = kp_reason_histogram(c->scratch, at.statuses, n, NULL);
        no_post_filter(c, rep, ra, pr, &at, hist);
        if (diagnose)
            kp_diagnose(c, ra, pr, at.statuses, NULL);
        return;
    }
    if (prof) {
        args.min_candidate_nodes_percentage =
            prof->min_candidate_nodes_percentage;
        args.min_candidate_nodes_absolute = prof->min_candidate_nodes_absolute;
    }
    /*
     * the FitError's histogram and the diagnosis's part that read only
     * the statuses and the nodes, made by this thread while the others
     * start the dry run (KP_NO_DIAG_AHEAD=1: after it)
     */
    side.c = c;
    side.st = at.statuses;
    if (diagnose)
        side.pre = kp_diagnose_start(c, at.statuses);
    if (c->pool && !kp_shortcut_off("KP_NO_DIAG_AHEAD")) {
        args.side = ahead;
        args.side_ctx = &side;
    }
    kp_preempt(c, at.statuses, &args, &res);
    /* when there was no dry run: the pool is free for the diagnosis */
    ahead_on(&side, c->pool);
    hist = side.hist;
    pr->npotential = res.npotential;
    pr->num_candidates = res.num_candidates;
    pr->nexamined = res.nexamined;
    keep_candidates(ra, c->pool, pr, &res);
    if (explain)
        kp_pod_report_keep_nodes(rep, pr, n, at.statuses, at.seen, &res);
    if (res.outcome == KP_PREEMPT_CHOSEN) {
        const struct kp_candidate *best = &pr->candidates[res.chosen];
        char tail[512];

        pr->result = KP_RESULT_PREEMPTS;
        pr->nominated_node = best->node;
        pr->decided_by = res.decided_by;
        fill_victims(ra, snap, pr, best);
        /*
         * kubernetes/kubernetes#140180 (v1.37.0-alpha.3): before, a
         * successful PostFilter left no message, and the event was the
         * FitError alone.
         */
        if (!kp_kube_rule_on(KP_RULE_PREEMPT_MESSAGE,
                             prof ? prof->kube_minor : 0)) {
            post = NULL;
        } else {
            snprintf(tail, sizeof(tail), "preemption: found a potential "
                     "placement for pod on node %s, preempting %zu victims",
                     snap->nodes[best->node]->name, best->nvictims);
            post = kp_arena_strdup(c->scratch, tail);
        }
    } else {
        pr->result = res.outcome == KP_PREEMPT_NOT_ELIGIBLE ?
                     KP_RESULT_NOT_ELIGIBLE : KP_RESULT_UNSCHEDULABLE;
        post = kp_arena_concat(c->scratch, prof && !prof->dra_post_filter ?
                               "preemption: " :
                               "no new claims to deallocate, preemption: ",
                               res.message, NULL);
    }
    pr->message = kp_arena_strdup(ra,
                                  fit_error(c->scratch, n, at.prefilter_msg,
                                            hist, post));
    if (side.pre)
        kp_diagnose_finish(side.pre, ra, pr, &res);
}

/*
 * Once a victim has terminated, the disruption controller recomputes each
 * of its PDBs' disruptionsAllowed (currentHealthy - desiredHealthy, at
 * least 0; pkg/controller/disruption/disruption.go updatePdbStatus).
 * currentHealthy (countHealthyPods) counted the victim only when it was
 * not terminating, not in the PDB's disruptedPods and Ready: only then
 * is the budget one fewer.  desiredHealthy does not depend on the pod.
 */
static void
account_pdb_disruption(struct kp_cluster *cl, const struct kp_pod *victim)
{
    const struct kp_snapshot *snap = cl->snap;
    size_t j, k;

    if (victim->deleting || !victim->ready)
        return;
    for (k = 0; k < victim->npdbs; k++) {
        j = (size_t)victim->pdbs[k];
        if (kp_pdb_in_disrupted(snap->pdbs[j], victim))
            continue;
        if (cl->pdb_allowed[j] > 0) {
            cl->pdb_allowed[j]--;
            cl->pdb_changed[j] = ++cl->pdb_clock;
        }
    }
}

/* Queue mode: what kube-scheduler's decision changes for later pods. */
static void
apply_decision(struct kp_cluster *cl, const struct kp_pod_report *pr)
{
    const struct kp_pod *p = pr->pod;
    size_t i;

    switch (pr->result) {
    case KP_RESULT_FITS:
        kp_cluster_place(cl, p, pr->node);
        break;
    case KP_RESULT_PREEMPTS: {
        int node = pr->nominated_node;
        const struct kp_pod **gone =
            kp_xmalloc((pr->nvictims + 1) * sizeof(*gone));

        for (i = 0; i < pr->nvictims; i++)
            gone[i] = pr->victims[i].pod;
        kp_cluster_remove_all(cl, gone, pr->nvictims);
        free(gone);
        for (i = 0; i < pr->nvictims; i++)
            account_pdb_disruption(cl, pr->victims[i].pod);
        /* clear lower-priority nominations on the node */
        for (i = 0; i < cl->nnominated[node];) {
            const struct kp_pod *q = cl->nominated[node][i];

            if (q->priority < p->priority && q != p)
                kp_cluster_clear_nomination(cl, q);
            else
                i++;
        }
        kp_cluster_nominate(cl, p, node);
        break;
    }
    case KP_RESULT_UNSCHEDULABLE:
        kp_cluster_clear_nomination(cl, p);
        break;
    case KP_RESULT_NOT_ELIGIBLE:
        break;
    }
}

static size_t
collect_pending(const struct kp_snapshot *snap, const struct kp_options *o,
                const struct kp_pod ***out)
{
    const struct kp_pod **q = kp_xmalloc((snap->npods + 1) * sizeof(*q));
    size_t i, n = 0;

    for (i = 0; i < snap->npods; i++) {
        const struct kp_pod *p = snap->pods[i];

        if (kp_pod_is_pending(p, o->scheduler_name) &&
            p->nscheduling_gates == 0)
            q[n++] = p;
    }
    qsort(q, n, sizeof(*q), qsort_queue);
    *out = q;
    return n;
}

void
kp_analyze_queue(const struct kp_snapshot *snap, const struct kp_options *o,
                 struct kp_report *rep)
{
    const struct kp_pod **queue;
    size_t i;

    memset(rep, 0, sizeof(*rep));
    kp_arena_init(&rep->arena);
    /* rep->whatif: the caller sets it after this */
    kp_strmap_init(&rep->node_statuses);
    rep->mode = o->mode;
    rep->explain_nodes = o->explain_nodes;
    rep->npods = collect_pending(snap, o, &queue);
    rep->pods = kp_arena_alloc(&rep->arena, (rep->npods + 1) *
                               sizeof(*rep->pods));
    for (i = 0; i < rep->npods; i++) {
        rep->pods[i].pod = queue[i];
        rep->pods[i].queue_position = (int)i + 1;
    }
    free(queue);
}

struct run_ctx {
    const struct kp_options *o;
    struct kp_report *rep;
    struct kp_cluster *cl;
    struct kp_arena *scratch;
    struct kp_pool *pool;
    size_t next_start;
};

static void
run_one(struct run_ctx *r, struct kp_pod_report *pr)
{
    struct kp_cycle c;

    memset(&c, 0, sizeof(c));
    c.cl = r->cl;
    c.pod = pr->pod;
    c.scratch = r->scratch;
    c.pool = r->pool;
    /* one pod at a time on the cluster: its caches may keep answers */
    c.alone = true;
    c.profile = kp_sched_config_profile(r->o->sched_config,
                                        pr->pod->scheduler_name);
    /* independent mode: every pod alone, from the first node */
    if (r->o->mode != KP_MODE_QUEUE)
        r->next_start = 0;
    pr->next_start = r->next_start;
    attempt_pod(&c, r->o, r->rep, &r->rep->arena, pr, &r->next_start);
    if (r->o->mode == KP_MODE_QUEUE) {
        apply_decision(r->cl, pr);
        KP_SELFCHECK_CLUSTER(r->cl);
    }
    kp_arena_reset(r->scratch);
    kp_pool_reset(r->pool);
}

/*
 * Independent mode: no decision changes the cluster, so the pods are
 * analysed on the pool's threads, each pod alone (from the first node,
 * its per-node passes on that thread) with a scratch arena of the
 * thread's own; what is reported goes to the thread's pool arena, given
 * to rep->arena at the end.  Each pod's report is its own entry of
 * rep->pods: the order of the report is the queue's, whatever thread
 * did which pod.
 */
struct thread_scratch {
    _Alignas(64) struct kp_arena a;
    struct kp_selcount *selcount;       /* the thread's own (selcount.h) */
};

struct pods_batch {
    struct run_ctx *r;
    struct kp_pod_report **todo;
    struct thread_scratch *scratch;     /* by pool thread */
};

static bool
run_pod_alone(void *ctx, size_t i, struct kp_arena *ra)
{
    struct pods_batch *b = ctx;
    struct kp_pod_report *pr = b->todo[i];
    int t = kp_pool_thread_of(b->r->pool, ra);
    struct kp_arena *scratch = &b->scratch[t].a;
    struct kp_selcount **own = &b->scratch[t].selcount;
    struct kp_cycle c;
    size_t next_start = 0;

    /* the cluster's caches are shared: selector counts kept per thread */
    kp_selcount_thread_cache(own);
    memset(&c, 0, sizeof(c));
    c.cl = b->r->cl;
    c.pod = pr->pod;
    c.scratch = scratch;
    c.profile = kp_sched_config_profile(b->r->o->sched_config,
                                        pr->pod->scheduler_name);
    attempt_pod(&c, b->r->o, b->r->rep, ra, pr, &next_start);
    kp_selcount_thread_cache(NULL);
    kp_arena_reset(scratch);
    return false;
}

static void
run_pods_alone(struct run_ctx *r)
{
    struct pods_batch b;
    int nt = kp_pool_threads(r->pool), t;
    size_t i, n = 0;
    void *mem = kp_xcalloc(1, (size_t)nt * sizeof(*b.scratch) + 64);

    b.r = r;
    b.scratch = (struct thread_scratch *)((char *)mem +
                                          (64 - (uintptr_t)mem % 64) % 64);
    b.todo = kp_xmalloc((r->rep->npods + 1) * sizeof(*b.todo));
    for (i = 0; i < r->rep->npods; i++)
        b.todo[n++] = &r->rep->pods[i];
    for (t = 0; t < nt; t++)
        kp_arena_init(&b.scratch[t].a);
    kp_pool_run(r->pool, n, 1, run_pod_alone, &b, NULL);
    for (t = 0; t < nt; t++) {
        kp_arena_adopt(&r->rep->arena, kp_pool_arena(r->pool, t));
        kp_arena_release(&b.scratch[t].a);
        kp_selcount_free(b.scratch[t].selcount);
    }
    free(b.todo);
    free(mem);
}

/*
 * Node what-if (whatif.h): evictions a PDB refused go through once the
 * replacements of earlier ones run; their pods, still on the cordoned
 * node, leave it and their replacements are analysed as the next wave.
 */
static void
run_waves(struct run_ctx *r, const struct kp_snapshot *snap)
{
    const struct kp_pod **gone;
    size_t i, n;

    while ((n = kp_whatif_next_wave(r->rep->whatif, r->rep, snap,
                                    &gone)) > 0) {
        /* (one a preemption took already is not removed twice) */
        for (i = 0; i < n && r->o->mode == KP_MODE_QUEUE; i++)
            if (!r->cl->removed[gone[i]->index])
                kp_cluster_remove(r->cl, gone[i]);
        free(gone);
        for (i = 0; i < r->rep->npods; i++)
            if (kp_whatif_in_wave(r->rep->pods[i].pod,
                                  r->rep->whatif->wave))
                run_one(r, &r->rep->pods[i]);
    }
    kp_whatif_finish_report(r->rep);
}

/*
 * A new pod of a rollout (rollout.h), in either mode: the rollout's own
 * steps change the cluster, so its decision is applied; one that
 * preempts runs once its victims are gone (readiness is instant), and a
 * running pod counts healthy for its PDBs again.
 */
static void
run_rollout_pod(struct run_ctx *r, struct kp_pod_report *pr)
{
    struct kp_pod_report keep = *pr;
    size_t k;

    memset(pr, 0, sizeof(*pr));
    pr->pod = keep.pod;
    pr->queue_position = keep.queue_position;
    pr->reported = keep.reported;
    run_one(r, pr);
    if (r->o->mode != KP_MODE_QUEUE)
        apply_decision(r->cl, pr);
    if (pr->result == KP_RESULT_PREEMPTS)
        kp_cluster_place(r->cl, pr->pod, pr->nominated_node);
    if (pr->result == KP_RESULT_FITS || pr->result == KP_RESULT_PREEMPTS)
        for (k = 0; k < pr->pod->npdbs; k++) {
            r->cl->pdb_allowed[pr->pod->pdbs[k]]++;
            r->cl->pdb_changed[pr->pod->pdbs[k]] = ++r->cl->pdb_clock;
        }
    kp_rollout_scheduled(r->cl->snap->rollouts, pr);
}

/*
 * Rollouts (rollout.h): each wave's sync deletes old pods (gone at
 * once, in both modes) and creates new ones; the new pods not running
 * yet are scheduled in queue order.
 */
static void
run_rollouts(struct run_ctx *r, const struct kp_snapshot *snap)
{
    const struct kp_pod **gone;
    size_t i, n;

    while (kp_rollout_plan(snap->rollouts, &gone, &n)) {
        for (i = 0; i < n; i++) {
            if (r->cl->removed[gone[i]->index])
                continue;
            kp_cluster_clear_nomination(r->cl, gone[i]);
            kp_cluster_remove(r->cl, gone[i]);
            account_pdb_disruption(r->cl, gone[i]);
        }
        free(gone);
        for (i = 0; i < r->rep->npods; i++)
            if (kp_rollout_to_schedule(r->rep->pods[i].pod))
                run_rollout_pod(r, &r->rep->pods[i]);
        kp_rollout_end_wave(snap->rollouts);
    }
    kp_rollout_finish(snap->rollouts, r->rep);
}

/*
 * Whether the cluster's victim tables are worth building: not for one
 * pod analysed alone (the fixes' re-runs, fixes.c: up to 80 of them,
 * each a new cluster), where building every node's table cost more than
 * the pod's own analysis (a fifth of the default shape's whole run at
 * 2,000 nodes, issue 31); the pod's passes read the nodes' pods instead,
 * as they do on a NodeInfo without a current table, and its dry run
 * builds the tables of the nodes it visits.  KP_NO_LAZY_TABLES=1: built
 * as for any run.
 */
static bool
tables_wanted(const struct kp_snapshot *snap, const struct kp_options *o,
              const struct kp_report *rep)
{
    return o->mode == KP_MODE_QUEUE || rep->npods != 1 || rep->whatif ||
           snap->rollouts || kp_shortcut_off("KP_NO_LAZY_TABLES");
}

int
kp_analyze_run(const struct kp_snapshot *snap, const struct kp_options *o,
               struct kp_report *rep, struct kp_error *err)
{
    struct kp_cluster cl;
    struct kp_arena scratch;
    struct run_ctx r = {o, rep, &cl, &scratch, NULL, 0};
    size_t i;

    (void)err;
    r.pool = kp_pool_new(kp_pool_default_threads());
    kp_cluster_init_from(&cl, snap, o->scheduler_name,
                         tables_wanted(snap, o, rep), r.pool,
                         o->node_template);
    kp_arena_init(&scratch);
    KP_SELFCHECK_CLUSTER(&cl);
    if (r.pool && o->mode != KP_MODE_QUEUE && !rep->whatif &&
        !snap->rollouts && !o->explain_nodes) {
        run_pods_alone(&r);
    } else {
        for (i = 0; i < rep->npods; i++) {
            if (o->progress)
                o->progress(o->progress_ctx, "analysing pending pods", i,
                            rep->npods);
            if (!kp_whatif_deferred(rep->pods[i].pod) &&
                !kp_rollout_deferred(rep->pods[i].pod))
                run_one(&r, &rep->pods[i]);
        }
    }
    if (rep->whatif)
        run_waves(&r, snap);
    if (snap->rollouts)
        run_rollouts(&r, snap);
    kp_pool_free(r.pool);
    kp_arena_release(&scratch);
    kp_cluster_release(&cl);
    return 0;
}

bool
kp_analyze_at_turn(const struct kp_snapshot *snap, const struct kp_options *o,
                   const struct kp_report *rep, const struct kp_pod *p,
                   struct kp_report *out)
{
    struct kp_cluster cl;
    struct kp_arena scratch;
    struct kp_cycle c;
    struct kp_pod_report *pr;
    struct kp_pool *pool;
    size_t i, k, at = 0, next_start;

    if (o->mode != KP_MODE_QUEUE || rep->whatif || snap->rollouts)
        return false;
    /*
     * Its turn: after the pods that sort before it as it is now (a raised
     * priority comes earlier), a prefix of rep's queue order
     */
    for (k = 0; k < rep->npods; k++)
        if (rep->pods[k].pod != p && kp_queue_cmp(rep->pods[k].pod, p) > 0)
            break;
    for (i = 0; i < rep->npods; i++)
        if (rep->pods[i].pod == p)
            at = i;
    if (k > at)
        k = at;         /* the pods it kept ahead of, in rep's order */
    for (i = 0; i < k; i++)
        if (kp_queue_cmp(rep->pods[i].pod, p) > 0)
            return false;
    memset(out, 0, sizeof(*out));
    kp_arena_init(&out->arena);
    kp_strmap_init(&out->node_statuses);
    out->mode = o->mode;
    out->npods = 1;
    out->pods = kp_arena_alloc(&out->arena, sizeof(*out->pods));
    pr = &out->pods[0];
    pr->pod = p;
    pr->queue_position = (int)k + 1;
    pr->reported = true;
    /*
     * One pod analysed: no victim table up front, none rebuilt for the
     * decisions replayed (KP_NO_LAZY_TABLES=1: all of them); the bound
     * pods' NodeInfos copied from the fixes' template when there is one
     */
    /* the pod's passes on the run's threads, as run_one's */
    pool = kp_pool_new(kp_pool_default_threads());
    kp_cluster_init_from(&cl, snap, o->scheduler_name,
                         kp_shortcut_off("KP_NO_LAZY_TABLES"), pool,
                         o->node_template);
    kp_arena_init(&scratch);
    /* the decisions of the pods before it, as run_one applied them */
    for (i = 0; i < k; i++)
        apply_decision(&cl, &rep->pods[i]);
    memset(&c, 0, sizeof(c));
    c.cl = &cl;
    c.pod = pr->pod;
    c.scratch = &scratch;
    c.pool = pool;
    c.alone = true;
    c.profile = kp_sched_config_profile(o->sched_config,
                                        pr->pod->scheduler_name);
    next_start = k < rep->npods ? rep->pods[k].next_start : 0;
    attempt_pod(&c, o, out, &out->arena, pr, &next_start);
    kp_arena_release(&scratch);
    kp_cluster_release(&cl);
    kp_pool_free(pool);
    return true;
}

int
kp_analyze(const struct kp_snapshot *snap, const struct kp_options *o,
           struct kp_report *rep, struct kp_error *err)
{
    size_t i;

    kp_analyze_queue(snap, o, rep);
    for (i = 0; i < rep->npods; i++)
        rep->pods[i].reported = true;
    return kp_analyze_run(snap, o, rep, err);
}
