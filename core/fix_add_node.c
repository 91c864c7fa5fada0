/*
 * fix_add_node.c - the checked fix "add a node like N" (issue 26): for a
 * pod no node has room for, a node whose copy could take it, and the
 * analysis run again with --add-node N (whatif.c add_node_copies: the
 * copy uncordoned, its DaemonSet pods queued), the way a user would run
 * it by hand: every pending pod in the run's mode, the queue included,
 * so a pod before it may take the new node first.  The fix is shown
 * only when the pod then Fits or Preempts, with that outcome.
 *
 * The node N: kp_fix_like_node (fixes.h).  One analysis per distinct N,
 * at most KP_FIX_ADD_NODE_MAX_RUNS per run, their answers shared by the
 * pods.  Issue 31: on the run's own snapshot, N's copy appended and
 * taken away again (snapshot_save.h), not on the -f files read and
 * decoded once more (KP_NO_FIX_RELOAD_SKIP=1 reads them again, as
 * before).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix_add_node.h"
#include "fixes.h"
#include "run_config.h"
#include "shortcut.h"
#include "simulate.h"
#include "snapshot_save.h"
#include "whatif.h"

/* One re-run with --add-node N: its report, pods by namespace/name. */
struct add_run {
    const char *node;                   /* N (the snapshot's string) */
    /* the pods of rep that ask for N's answer, in rep's order */
    const struct kp_pod **want;
    size_t nwant;
    bool ok;
    struct kp_snapshot snap;            /* KP_NO_FIX_RELOAD_SKIP=1 only */
    struct kp_report rep;
    struct kp_whatif whatif;
};

/* whether q (of the re-run's snapshot) is one of ar's pods */
static bool
wanted(const struct add_run *ar, const struct kp_pod *q)
{
    size_t i;

    if (q->displaced)
        return false;
    for (i = 0; i < ar->nwant; i++)
        if (strcmp(q->ns, ar->want[i]->ns) == 0 &&
            strcmp(q->name, ar->want[i]->name) == 0)
            return true;
    return false;
}

/*
 * Only what the answers need: in queue mode the queue up to the last
 * pod asking (the pods after it cannot change its turn), in independent
 * mode those pods alone (each is analysed alone anyway).
 */
static void
keep_wanted(const struct kp_options *o, struct add_run *ar)
{
    size_t i, k = 0, last = 0;
    bool any = false;

    for (i = 0; i < ar->rep.npods; i++)
        if (wanted(ar, ar->rep.pods[i].pod)) {
            last = i;
            any = true;
        }
    if (!any) {
        ar->rep.npods = 0;
        return;
    }
    if (o->mode == KP_MODE_QUEUE) {
        ar->rep.npods = last + 1;
        return;
    }
    for (i = 0; i <= last; i++)
        if (wanted(ar, ar->rep.pods[i].pod))
            ar->rep.pods[k++] = ar->rep.pods[i];
    ar->rep.npods = k;
}

/* o with --add-node N added; *nodes to be freed */
static void
add_node_options(const struct kp_options *o, const struct add_run *ar,
                 struct kp_options *o2, const char ***nodes)
{
    *o2 = *o;
    *nodes = kp_xcalloc(o->nadd_nodes + 2, sizeof(**nodes));
    if (o->nadd_nodes)
        memcpy(*nodes, o->add_nodes, o->nadd_nodes * sizeof(**nodes));
    (*nodes)[o->nadd_nodes] = ar->node;
    o2->add_nodes = *nodes;
    o2->nadd_nodes = o->nadd_nodes + 1;
    o2->explain_nodes = false;
    o2->output = KP_OUTPUT_TABLE;       /* no diagnosis, no fixes */
    o2->progress = NULL;
}

/* the analysis of s, the snapshot with N's copy, finished */
static void
analyse(const struct kp_options *o2, const struct kp_snapshot *s,
        struct add_run *ar)
{
    struct kp_error err = {0, ""};
    size_t i;

    kp_analyze_queue(s, o2, &ar->rep);
    /* KP_NO_FIX_PREFIX=1: every pending pod, as the run itself */
    if (!kp_shortcut_off("KP_NO_FIX_PREFIX"))
        keep_wanted(o2, ar);
    ar->rep.whatif = &ar->whatif;
    for (i = 0; i < ar->rep.npods; i++)
        ar->rep.pods[i].reported = true;
    ar->ok = kp_analyze_run(s, o2, &ar->rep, &err) == 0;
}

/*
 * KP_NO_FIX_RELOAD_SKIP=1: the -f files read again into ar->snap, with
 * the run's --add and --add-node N (kp_run_load), as before issue 31.
 */
static void
run_with(const struct kp_options *o, kp_fix_load_fn *load,
         struct add_run *ar)
{
    struct kp_options o2;
    struct kp_error err = {0, ""};
    const char **nodes;

    add_node_options(o, ar, &o2, &nodes);
    kp_snapshot_init(&ar->snap);
    memset(&ar->rep, 0, sizeof(ar->rep));
    memset(&ar->whatif, 0, sizeof(ar->whatif));
    if (load(&ar->snap, &o2, &ar->whatif, &err) == 0) {
        kp_run_config_mark_pods(&ar->snap, &o2);
        if (kp_snapshot_finish(&ar->snap, o2.scheduler_name, &err) == 0)
            analyse(&o2, &ar->snap, ar);
    }
    free(nodes);
}

/*
 * Issue 31: the run's own snapshot, already read (its --add applied),
 * with --add-node N applied to it (kp_whatif_apply: the copy and its
 * DaemonSet pods appended), marked and finished again as kp_run_load's
 * snapshot would be, and analysed; the caller puts it back
 * (kp_snapshot_restore) once the answers are taken.  Marking and
 * finishing again set what they set the first time (the same options),
 * on the objects read and on the appended ones alike; a what-if applied
 * to a finished snapshot is what run.c's baseline_then_change does too.
 * No case needs the reload: what the in-place change could not undo
 * (drains, removed nodes, rollouts, another configuration) is never
 * tried here (kp_fix_add_node returns first), and the run's --add pods
 * are in the snapshot already, before N's copy as kp_run_load puts them.
 */
static void
run_in_place(const struct kp_options *o, struct kp_snapshot *snap,
             struct add_run *ar)
{
    struct kp_options o2;
    struct kp_error err = {0, ""};
    const char **nodes;

    add_node_options(o, ar, &o2, &nodes);
    memset(&ar->rep, 0, sizeof(ar->rep));
    memset(&ar->whatif, 0, sizeof(ar->whatif));
    if (kp_whatif_apply(&ar->whatif, snap, &o2, &err) == 0) {
        kp_run_config_mark_pods(snap, &o2);
        if (kp_snapshot_finish(snap, o2.scheduler_name, &err) == 0)
            analyse(&o2, snap, ar);
    }
    free(nodes);
}

static const struct kp_pod_report *
find_in(const struct add_run *ar, const struct kp_pod *p)
{
    size_t i;

    for (i = 0; ar->ok && i < ar->rep.npods; i++) {
        const struct kp_pod *q = ar->rep.pods[i].pod;

        if (strcmp(q->ns, p->ns) == 0 && strcmp(q->name, p->name) == 0 &&
            !q->displaced)
            return &ar->rep.pods[i];
    }
    return NULL;
}

static size_t
count_fixes(const char *json)
{
    size_t n = 0;
    const char *s = json;

    while ((s = strstr(s, "{\"change\"")) != NULL) {
        n++;
        s++;
    }
    return n;
}

/* Append the fix to pr's text and JSON (both in rep's arena). */
static void
append_fix(struct kp_report *rep, struct kp_pod_report *pr,
           const struct kp_snapshot *s2, const char *like,
           const struct kp_pod_report *got)
{
    struct kp_buf js, tx;
    const char *node = got->result == KP_RESULT_FITS ?
                       s2->nodes[got->node]->name :
                       s2->nodes[got->nominated_node]->name;
    size_t len;

    kp_buf_init(&js);
    kp_buf_init(&tx);
    kp_buf_puts(&js, "{\"change\": \"addNode\", \"like\": ");
    kp_buf_json_str(&js, like);
    kp_buf_printf(&tx, "  add a node like %s (--add-node %s): ", like, like);
    if (got->result == KP_RESULT_FITS) {
        kp_buf_puts(&js, ", \"result\": \"Fits\", \"node\": ");
        kp_buf_json_str(&js, node);
        kp_buf_printf(&tx, "Fits on node %s", node);
    } else {
        kp_buf_puts(&js, ", \"result\": \"Preempts\", \"node\": ");
        kp_buf_json_str(&js, node);
        kp_buf_printf(&js, ", \"victims\": %zu, \"pdbViolations\": %d",
                      got->nvictims, got->pdb_violations);
        kp_buf_printf(&tx, "Preempts on node %s (%zu victim(s), %d PDB "
                      "violation(s))", node, got->nvictims,
                      got->pdb_violations);
    }
    kp_buf_puts(&js, "}");
    kp_buf_puts(&tx, " (verified)\n");
    /* "[" alone, or "[\n        {...}\n      ]" */
    len = strlen(pr->fixes_json);
    if (count_fixes(pr->fixes_json) == 0)
        pr->fixes_json = kp_arena_concat(&rep->arena, "[\n        ",
                                         js.data, "\n      ]", NULL);
    else
        pr->fixes_json = kp_arena_concat(&rep->arena,
            kp_arena_strndup(&rep->arena, pr->fixes_json, len - 8),
            ",\n        ", js.data, "\n      ]", NULL);
    if (!pr->fixes_text || strncmp(pr->fixes_text, "  none found", 12) == 0)
        pr->fixes_text = kp_arena_strndup(&rep->arena, tx.data, tx.len);
    else
        pr->fixes_text = kp_arena_concat(&rep->arena, pr->fixes_text,
                                         tx.data, NULL);
    kp_buf_release(&js);
    kp_buf_release(&tx);
}

/* the -f files can be read again: none is standard input */
static bool
rereadable(const struct kp_options *o)
{
    size_t i;

    for (i = 0; i < o->nfiles; i++)
        if (strcmp(o->files[i], "-") == 0)
            return false;
    return o->nfiles > 0;
}

void
kp_fix_add_node(struct kp_snapshot *snap, const struct kp_options *o,
                struct kp_report *rep, kp_fix_load_fn *load)
{
    struct add_run runs[KP_FIX_ADD_NODE_MAX_RUNS];
    const struct kp_node **like;
    size_t nruns = 0, i, k;
    bool in_place = !kp_shortcut_off("KP_NO_FIX_RELOAD_SKIP");

    /*
     * -f - and a live cluster are left out (they cannot be read again),
     * even in place: the reports stay those of the reloading fix.
     */
    if (!rereadable(o) || kp_whatif_requested(o) || snap->rollouts ||
        o->compare_config || o->compare_profile || o->compare_kube_version)
        return;
    /* first the node N of each pod, and the pods each re-run answers */
    like = kp_xcalloc(rep->npods + 1, sizeof(*like));
    for (i = 0; i < rep->npods; i++) {
        struct kp_pod_report *pr = &rep->pods[i];

        if (!pr->fixes_json ||
            count_fixes(pr->fixes_json) >= KP_FIXES_MAX_SHOWN)
            continue;
        like[i] = kp_fix_like_node(snap, pr->pod);
        if (!like[i])
            continue;
        for (k = 0; k < nruns && strcmp(runs[k].node, like[i]->name) != 0;
             k++)
            ;
        if (k == nruns) {
            if (nruns == KP_FIX_ADD_NODE_MAX_RUNS) {
                like[i] = NULL;
                continue;
            }
            memset(&runs[k], 0, sizeof(runs[k]));
            runs[k].node = like[i]->name;
            runs[k].want = kp_xcalloc(rep->npods + 1, sizeof(*runs[k].want));
            nruns++;
        }
        runs[k].want[runs[k].nwant++] = pr->pod;
    }
    /*
     * One run at a time, its answers taken while its snapshot holds
     * (in place: before it is put back); a pod asks one run only.
     */
    for (k = 0; k < nruns; k++) {
        struct kp_snapshot_saved saved;
        const struct kp_snapshot *s2 = in_place ? snap : &runs[k].snap;

        if (in_place) {
            kp_snapshot_save(snap, &saved);
            run_in_place(o, snap, &runs[k]);
        } else {
            run_with(o, load, &runs[k]);
        }
        for (i = 0; i < rep->npods; i++) {
            struct kp_pod_report *pr = &rep->pods[i];
            const struct kp_pod_report *got;

            if (!like[i] || strcmp(runs[k].node, like[i]->name) != 0)
                continue;
            got = find_in(&runs[k], pr->pod);
            if (got && (got->result == KP_RESULT_FITS ||
                        got->result == KP_RESULT_PREEMPTS))
                append_fix(rep, pr, s2, like[i]->name, got);
        }
        kp_report_release(&runs[k].rep);
        kp_whatif_release(&runs[k].whatif);
        if (in_place)
            kp_snapshot_restore(snap, &saved);
        else
            kp_snapshot_release(&runs[k].snap);
        free(runs[k].want);
    }
    free(like);
}
