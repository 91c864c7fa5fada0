/*
 * explain_replay.h - a past preemption run again as it was decided
 * (explain_replay.c, issue 26).
 */
#ifndef KP_EXPLAIN_REPLAY_H
#define KP_EXPLAIN_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kp.h"
#include "preemption.h"
#include "report.h"
#include "snapshot.h"

struct kp_replay {
    bool done;                      /* the replay ran */
    size_t restored, missing;       /* victims put back / not in the files */
    /*
     * pods left out as not there yet: created after the preemption, or
     * bound after it (PodScheduled); PDBs whose status, written before
     * the preemption (its expectedPods fits no pod count since), stands
     * as the scheduler read it instead of a recount
     */
    size_t created_later, bound_later, pdb_status_kept;
    /* victims of later preemptions, running again at this one */
    size_t undeleted;
    /* budgets of victims recounted from the pods at the decision */
    size_t pdb_recounted;
    enum kp_result_kind result;
    char *node;                     /* nominated (or Fits) node */
    size_t ncandidates;
    char *decided_by;
    size_t nvictims;
    char **victims;                 /* names, most important first */
    int pdb_violations;
    char *message;
    /* where the replay does not give the recorded node, why (one line) */
    char *why;
    /*
     * kp_explain_today: the preemptor against the cluster as it is now
     * (victims gone or terminating as they are); a bound preemptor
     * pending again.  today_done false: not run.
     */
    bool today_done;
    enum kp_result_kind today_result;
    char *today_node;
    size_t today_victims;
    char *today_message;
};

/*
 * Read o's -f files again, undo the preemption of preemptor (its victims
 * by namespace/name) and the later ones (their victims, later_ns/later,
 * run again), leave out the pods not there yet at time (when has_time),
 * and analyse the preemptor alone.  Returns 0 with out
 * filled, -1 when it cannot be replayed (a live cluster, the preemptor
 * gone, an error): out->done is false.  Release out with
 * kp_replay_release.
 */
int kp_explain_replay(const struct kp_options *o, const char *preemptor_ns,
                      const char *preemptor, size_t nvictims,
                      const char *const *victim_ns,
                      const char *const *victims, bool has_time,
                      int64_t time, size_t nlater,
                      const char *const *later_ns,
                      const char *const *later, struct kp_replay *out);
/*
 * "Would it still preempt today": read o's -f files again and analyse
 * the preemptor alone against them as they are (unbound first when it
 * runs now).  Fills out's today_* members; -1 when it cannot (a live
 * cluster, the preemptor gone).
 */
int kp_explain_today(const struct kp_options *o, const char *preemptor_ns,
                     const char *preemptor, struct kp_replay *out);
/*
 * r->why: where the replay does not give Preempts on recorded_node, the
 * reason in one line (else NULL).
 */
void kp_replay_why(struct kp_replay *r, const char *recorded_node);
void kp_replay_release(struct kp_replay *r);

#endif
