/*
 * explain_replay.c - explain's replay (issue 26): a past preemption run
 * again as it was decided.  The -f files are read once more; before the
 * snapshot is finished, the preemption is undone: its victims still in
 * the snapshot run again (not terminating, no DisruptionTarget), each
 * Ready one gives its PodDisruptionBudgets back the disruption it used
 * (disruption.go recounts it healthy), and the preemptor is pending again
 * (no nomination, not bound).  The preemptor is then analysed alone
 * against that snapshot (--mode independent): the node DefaultPreemption
 * picks, its candidates, the SelectCandidate criterion that decided
 * (decidedBy) and the victims and PDB violations, as the run reports them.
 *
 * The cluster is taken back to the moment of the decision as far as the
 * files tell: the pods created after it (creationTimestamp) and those
 * bound after it (condition PodScheduled's lastTransitionTime, else the
 * pod's Scheduled Event) are left out; a PodDisruptionBudget whose status was written before the
 * decision (its status.expectedPods fits neither the pods it selects at
 * the decision nor those it selects now, so the disruption controller
 * has not written it since) stands as the scheduler read it, stale or
 * not (DefaultPreemption reads status.disruptionsAllowed from the
 * lister); any other budget of a victim is recounted from the pods.
 * What cannot be undone: a victim or another pod gone from the snapshot
 * (the replay says how many victims are missing, and why it differs
 * from the record where it does: kp_replay_why).
 *
 * kp_explain_today answers the other question, "would it still preempt
 * today": the preemptor against the files as they are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "explain_replay.h"
#include "run.h"
#include "simulate.h"

static struct kp_pod *
find_pod(struct kp_snapshot *s, const char *ns, const char *name)
{
    size_t i;

    for (i = 0; ns && name && i < s->npods; i++)
        if (strcmp(s->pods[i]->ns, ns) == 0 &&
            strcmp(s->pods[i]->name, name) == 0)
            return s->pods[i];
    return NULL;
}

static void
outcome(const struct kp_snapshot *s, const struct kp_pod_report *pr,
        struct kp_replay *out)
{
    const char *node = pr->nominated_node >= 0 ?
                       s->nodes[pr->nominated_node]->name :
                       pr->node >= 0 ? s->nodes[pr->node]->name : NULL;
    size_t i;

    out->result = pr->result;
    out->node = node ? kp_xstrdup(node) : NULL;
    out->ncandidates = pr->ncandidates;
    out->decided_by = pr->decided_by ? kp_xstrdup(pr->decided_by) : NULL;
    out->pdb_violations = pr->pdb_violations;
    out->message = pr->message ? kp_xstrdup(pr->message) : NULL;
    out->nvictims = pr->nvictims;
    out->victims = kp_xcalloc(pr->nvictims + 1, sizeof(char *));
    for (i = 0; i < pr->nvictims; i++)
        out->victims[i] = kp_xstrdup(pr->victims[i].pod->name);
}

/* the pods pdb selects that are not finished */
static int64_t
selected(const struct kp_snapshot *s, const struct kp_pdb *pdb)
{
    int64_t n = 0;
    size_t i;

    for (i = 0; i < s->npods; i++)
        n += !kp_pod_is_terminal(s->pods[i]) &&
             kp_pdb_matches(pdb, s->pods[i]);
    return n;
}

/*
 * A PDB's disruptionsAllowed with the victims back: recounted from the
 * pods when its spec says how (disruption.go: currentHealthy -
 * desiredHealthy, at least 0; expected = the matching pods), unless
 * its status predates the decision (expectedPods is neither count: the
 * pods it selects at the decision, now; *kept counted) and stands as the
 * scheduler read it; else the status plus one for each Ready victim it
 * covers.  *recounted counts the budgets recounted.
 */
static void
recount(struct kp_snapshot *s, struct kp_pdb *pdb,
        const char *const *victim_ns, const char *const *victims,
        size_t nvictims, int64_t now, size_t *kept, size_t *recounted)
{
    int64_t healthy = 0, expected = 0, want, scaled;
    size_t i;
    bool covers = false;

    /* only the budgets of the victims: the others' status stands */
    for (i = 0; i < nvictims && !covers; i++) {
        const struct kp_pod *v = find_pod(s, victim_ns[i], victims[i]);

        covers = v && kp_pdb_matches(pdb, v);
    }
    if (!covers)
        return;
    if (!pdb->budget_kind) {
        for (i = 0; i < nvictims; i++) {
            const struct kp_pod *v = find_pod(s, victim_ns[i], victims[i]);

            if (v && v->ready && kp_pdb_matches(pdb, v) &&
                !kp_pdb_in_disrupted(pdb, v))
                pdb->disruptions_allowed++;
        }
        return;
    }
    for (i = 0; i < s->npods; i++) {
        const struct kp_pod *q = s->pods[i];

        if (kp_pod_is_terminal(q) || !kp_pdb_matches(pdb, q))
            continue;
        expected++;
        healthy += q->ready && !q->deleting && !kp_pdb_in_disrupted(pdb, q);
    }
    /* a status no count since fits: the one the scheduler read */
    if (pdb->has_expected_pods && pdb->expected_pods != expected &&
        pdb->expected_pods != now) {
        (*kept)++;
        return;
    }
    (*recounted)++;
    scaled = pdb->budget_pct ? (pdb->budget_value * expected + 99) / 100
                             : pdb->budget_value;
    want = pdb->budget_kind == 'm' ? scaled : expected - scaled;
    pdb->disruptions_allowed = healthy > want ? (int32_t)(healthy - want) : 0;
}

/* Analyse p alone against s (finished): its report is rep->pods[0]. */
static bool
analyse_alone(const struct kp_snapshot *s, const struct kp_options *o,
              const struct kp_pod *p, struct kp_report *rep)
{
    struct kp_options o2 = *o;
    struct kp_error err = {0, ""};
    size_t i;

    o2.mode = KP_MODE_INDEPENDENT;
    o2.explain_nodes = false;
    o2.output = KP_OUTPUT_TABLE;
    o2.progress = NULL;
    kp_analyze_queue(s, &o2, rep);
    for (i = 0; i < rep->npods && rep->pods[i].pod != p; i++)
        ;
    if (i == rep->npods)
        return false;
    rep->pods[0] = rep->pods[i];
    rep->npods = 1;
    rep->pods[0].reported = true;
    return kp_analyze_run(s, &o2, rep, &err) == 0;
}

/*
 * The Scheduled Events by "namespace/name" of the pod, the latest of
 * each (a pod recreated under its name is bound again).
 */
static void
scheduled_events(struct kp_snapshot *s, struct kp_strmap *m)
{
    size_t i;

    kp_strmap_init(m);
    for (i = 0; i < s->nevents; i++) {
        const struct kp_event *e = s->events[i], *old;
        const char *key;

        if (e->type != KP_EVENT_SCHEDULED || !e->has_time)
            continue;
        key = kp_arena_concat(&s->arena, e->regarding.ns, "/",
                              e->regarding.name, NULL);
        old = kp_strmap_get(m, key);
        if (!old || old->time < e->time)
            kp_strmap_put(m, key, (void *)e);
    }
}

/*
 * When q was bound: its PodScheduled condition, else its Scheduled
 * Event (the same pod: its UID when the Event names one).
 */
static bool
bound_at(const struct kp_strmap *m, const struct kp_pod *q, int64_t *t)
{
    const struct kp_event *e;
    char key[1024];

    if (q->has_scheduled_time) {
        *t = q->scheduled_time;
        return true;
    }
    snprintf(key, sizeof(key), "%s/%s", q->ns, q->name);
    e = kp_strmap_get(m, key);
    if (!e || (e->regarding.uid && e->regarding.uid[0] && q->uid[0] &&
               strcmp(e->regarding.uid, q->uid) != 0))
        return false;
    *t = e->time;
    return true;
}

static bool
is_victim(const struct kp_pod *q, const char *const *victim_ns,
          const char *const *victims, size_t nvictims)
{
    size_t i;

    for (i = 0; i < nvictims; i++)
        if (victim_ns[i] && victims[i] && strcmp(q->ns, victim_ns[i]) == 0 &&
            strcmp(q->name, victims[i]) == 0)
            return true;
    return false;
}

int
kp_explain_replay(const struct kp_options *o, const char *preemptor_ns,
                  const char *preemptor, size_t nvictims,
                  const char *const *victim_ns, const char *const *victims,
                  bool has_time, int64_t time, size_t nlater,
                  const char *const *later_ns, const char *const *later,
                  struct kp_replay *out)
{
    struct kp_snapshot s;
    struct kp_report rep;
    struct kp_error err = {0, ""};
    struct kp_pod *p;
    char default_ns[256] = "default";
    int64_t *now = NULL;
    struct kp_strmap bound;
    size_t i, j;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    if (o->nfiles == 0)
        return -1;              /* live: not read twice */
    kp_snapshot_init(&s);
    memset(&rep, 0, sizeof(rep));
    if (kp_run_load(&s, o, NULL, default_ns, sizeof(default_ns), NULL,
                    &err) < 0)
        goto done;
    p = find_pod(&s, preemptor_ns, preemptor);
    if (!p)
        goto done;
    /* each budget's pods as the files have them now */
    now = kp_xcalloc(s.npdbs + 1, sizeof(*now));
    for (j = 0; j < s.npdbs; j++)
        now[j] = selected(&s, s.pdbs[j]);
    p->nominated_node = NULL;
    p->node_name = NULL;
    p->phase = KP_PHASE_PENDING;
    for (i = 0; i < nvictims; i++) {
        struct kp_pod *v = find_pod(&s, victim_ns[i], victims[i]);

        if (!v) {
            out->missing++;
            continue;
        }
        v->deleting = false;
        v->preemption_target = false;
        out->restored++;
    }
    /* the victims of later preemptions still ran at this one */
    for (i = 0; i < nlater; i++) {
        struct kp_pod *v = find_pod(&s, later_ns[i], later[i]);

        if (v && v != p && (v->deleting || v->preemption_target)) {
            v->deleting = false;
            v->preemption_target = false;
            out->undeleted++;
        }
    }
    /* not there yet at the decision: left out as if finished */
    scheduled_events(&s, &bound);
    for (i = 0; has_time && i < s.npods; i++) {
        struct kp_pod *q = s.pods[i];
        int64_t t;

        if (q == p || kp_pod_is_terminal(q) ||
            is_victim(q, victim_ns, victims, nvictims))
            continue;
        if (q->has_creation_time && q->creation_time > time) {
            q->phase = KP_PHASE_SUCCEEDED;
            out->created_later++;
        } else if (q->node_name && bound_at(&bound, q, &t) && t > time) {
            q->phase = KP_PHASE_SUCCEEDED;
            out->bound_later++;
        }
    }
    kp_strmap_release(&bound);
    if (kp_snapshot_finish(&s, o->scheduler_name, &err) < 0)
        goto done;
    for (j = 0; j < s.npdbs; j++)
        recount(&s, s.pdbs[j], victim_ns, victims, nvictims, now[j],
                &out->pdb_status_kept, &out->pdb_recounted);
    if (analyse_alone(&s, o, p, &rep)) {
        outcome(&s, &rep.pods[0], out);
        out->done = true;
        rc = 0;
    }
done:
    kp_report_release(&rep);
    free(now);
    /* the run's warnings were given by the first reading */
    kp_snapshot_release(&s);
    return rc;
}

int
kp_explain_today(const struct kp_options *o, const char *preemptor_ns,
                 const char *preemptor, struct kp_replay *out)
{
    struct kp_snapshot s;
    struct kp_report rep;
    struct kp_error err = {0, ""};
    struct kp_pod *p;
    char default_ns[256] = "default";
    const struct kp_pod_report *pr;
    int rc = -1;

    if (o->nfiles == 0)
        return -1;
    kp_snapshot_init(&s);
    memset(&rep, 0, sizeof(rep));
    if (kp_run_load(&s, o, NULL, default_ns, sizeof(default_ns), NULL,
                    &err) < 0)
        goto done;
    p = find_pod(&s, preemptor_ns, preemptor);
    if (!p || kp_pod_is_terminal(p) || p->deleting)
        goto done;
    /* running now: would it need to preempt to run again? */
    if (p->node_name) {
        p->node_name = NULL;
        p->nominated_node = NULL;
        p->phase = KP_PHASE_PENDING;
    }
    if (kp_snapshot_finish(&s, o->scheduler_name, &err) < 0 ||
        !analyse_alone(&s, o, p, &rep))
        goto done;
    pr = &rep.pods[0];
    out->today_done = true;
    out->today_result = pr->result;
    out->today_node = pr->nominated_node >= 0 ?
                      kp_xstrdup(s.nodes[pr->nominated_node]->name) :
                      pr->node >= 0 ? kp_xstrdup(s.nodes[pr->node]->name) :
                      p->nominated_node && pr->result ==
                      KP_RESULT_NOT_ELIGIBLE ? kp_xstrdup(p->nominated_node)
                                             : NULL;
    out->today_victims = pr->nvictims;
    out->today_message = pr->message ? kp_xstrdup(pr->message) : NULL;
    rc = 0;
done:
    kp_report_release(&rep);
    kp_snapshot_release(&s);
    return rc;
}

void
kp_replay_why(struct kp_replay *r, const char *recorded_node)
{
    char line[512];

    free(r->why);
    r->why = NULL;
    if (!r->done || (r->result == KP_RESULT_PREEMPTS && r->node &&
                     recorded_node && strcmp(r->node, recorded_node) == 0))
        return;
    if (r->missing)
        snprintf(line, sizeof(line), "%zu of its victim(s) are gone from "
                 "the snapshot and cannot be put back, so %s",
                 r->missing, r->result == KP_RESULT_FITS ?
                 "the pod fits where they were" :
                 "the nodes are not as they were");
    else if (r->pdb_recounted)
        snprintf(line, sizeof(line), "%zu PodDisruptionBudget(s) recounted "
                 "from the pods at the decision (their status was written "
                 "since) may allow other than what the scheduler read",
                 r->pdb_recounted);
    else
        snprintf(line, sizeof(line), "what the snapshot no longer holds "
                 "(pods deleted or nodes changed since, without an event) "
                 "cannot be put back");
    r->why = kp_xstrdup(line);
}

void
kp_replay_release(struct kp_replay *r)
{
    size_t i;

    free(r->node);
    free(r->decided_by);
    free(r->message);
    free(r->why);
    free(r->today_node);
    free(r->today_message);
    for (i = 0; r->victims && i < r->nvictims; i++)
        free(r->victims[i]);
    free(r->victims);
    memset(r, 0, sizeof(*r));
}
