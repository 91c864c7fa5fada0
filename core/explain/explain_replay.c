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
 * What differs from the moment of the decision: the other pods are as
 * the snapshot has them now, and a victim gone from the snapshot cannot
 * be restored (the replay says how many are missing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * A PDB's disruptionsAllowed with the victims back: recounted from the
 * pods when its spec says how (disruption.go: currentHealthy -
 * desiredHealthy, at least 0; expected = the matching pods), else the
 * status plus one for each Ready victim it covers.
 */
static void
recount(struct kp_snapshot *s, struct kp_pdb *pdb,
        const char *const *victim_ns, const char *const *victims,
        size_t nvictims)
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
    scaled = pdb->budget_pct ? (pdb->budget_value * expected + 99) / 100
                             : pdb->budget_value;
    want = pdb->budget_kind == 'm' ? scaled : expected - scaled;
    pdb->disruptions_allowed = healthy > want ? (int32_t)(healthy - want) : 0;
}

int
kp_explain_replay(const struct kp_options *o, const char *preemptor_ns,
                  const char *preemptor, size_t nvictims,
                  const char *const *victim_ns, const char *const *victims,
                  struct kp_replay *out)
{
    struct kp_snapshot s;
    struct kp_options o2 = *o;
    struct kp_report rep;
    struct kp_error err = {0, ""};
    struct kp_pod *p;
    char default_ns[256] = "default";
    size_t i, j;
    int rc = -1;


    memset(out, 0, sizeof(*out));
    if (o->nfiles == 0)
        return -1;              /* live: not read twice */
    kp_snapshot_init(&s);
    if (kp_run_load(&s, o, NULL, default_ns, sizeof(default_ns), NULL,
                    &err) < 0)
        goto done;
    p = find_pod(&s, preemptor_ns, preemptor);
    if (!p)
        goto done;
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
    if (kp_snapshot_finish(&s, o->scheduler_name, &err) < 0)
        goto done;
    for (j = 0; j < s.npdbs; j++)
        recount(&s, s.pdbs[j], victim_ns, victims, nvictims);
    o2.mode = KP_MODE_INDEPENDENT;
    o2.explain_nodes = false;
    o2.output = KP_OUTPUT_TABLE;
    o2.progress = NULL;
    kp_analyze_queue(&s, &o2, &rep);
    for (i = 0; i < rep.npods && rep.pods[i].pod != p; i++)
        ;
    if (i < rep.npods) {
        rep.pods[0] = rep.pods[i];
        rep.npods = 1;
        rep.pods[0].reported = true;
        if (kp_analyze_run(&s, &o2, &rep, &err) == 0) {
            outcome(&s, &rep.pods[0], out);
            out->done = true;
            rc = 0;
        }
    }
    kp_report_release(&rep);
done:
    /* the run's warnings were given by the first reading */
    kp_snapshot_release(&s);
    return rc;
}

void
kp_replay_release(struct kp_replay *r)
{
    size_t i;

    free(r->node);
    free(r->decided_by);
    free(r->message);
    for (i = 0; r->victims && i < r->nvictims; i++)
        free(r->victims[i]);
    free(r->victims);
    memset(r, 0, sizeof(*r));
}
