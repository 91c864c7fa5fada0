/*
 * explain_replay.h - a past preemption run again as it was decided
 * (explain_replay.c, issue 26).
 */
#ifndef KP_EXPLAIN_REPLAY_H
#define KP_EXPLAIN_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "kp.h"
#include "preemption.h"
#include "report.h"
#include "snapshot.h"

struct kp_replay {
    bool done;                      /* the replay ran */
    size_t restored, missing;       /* victims put back / not in the files */
    enum kp_result_kind result;
    char *node;                     /* nominated (or Fits) node */
    size_t ncandidates;
    char *decided_by;
    size_t nvictims;
    char **victims;                 /* names, most important first */
    int pdb_violations;
    char *message;
};

/*
 * Read o's -f files again, undo the preemption of preemptor (its victims
 * by namespace/name) and analyse the preemptor alone.  Returns 0 with out
 * filled, -1 when it cannot be replayed (a live cluster, the preemptor
 * gone, an error): out->done is false.  Release out with
 * kp_replay_release.
 */
int kp_explain_replay(const struct kp_options *o, const char *preemptor_ns,
                      const char *preemptor, size_t nvictims,
                      const char *const *victim_ns,
                      const char *const *victims, struct kp_replay *out);
void kp_replay_release(struct kp_replay *r);

#endif
