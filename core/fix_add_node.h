/*
 * fix_add_node.h - the checked fix "add a node like N" (issue 26,
 * fix_add_node.c): the run again with --add-node N.
 */
#ifndef KP_FIX_ADD_NODE_H
#define KP_FIX_ADD_NODE_H

#include "error.h"
#include "kp.h"
#include "report.h"
#include "snapshot.h"

struct kp_whatif;

/* distinct nodes N tried per run (each is one more load and analysis) */
#define KP_FIX_ADD_NODE_MAX_RUNS 3

/*
 * How the run reads its -f files with its --add and node what-ifs
 * (run.c passes kp_run_load; a parameter, so that this file, which
 * run.c calls, does not call back up into it).
 */
typedef int kp_fix_load_fn(struct kp_snapshot *s,
                           const struct kp_options *o, struct kp_whatif *w,
                           struct kp_error *err);

/*
 * For each pod kp_suggest_fixes looked at (fixes_json set) that has
 * fewer than KP_FIXES_MAX_SHOWN fixes: the node N a copy of which could
 * take it (it tolerates N's taints, matches its labels, and N's
 * allocatable covers its requests), then the whole run again with
 * --add-node N added, as a user would run it: on snap itself, changed
 * and put back as it was before this returns (issue 31), or with
 * KP_NO_FIX_RELOAD_SKIP=1 from o's -f files read again by load; when the
 * pod then Fits or Preempts, the fix is appended to its fixes with that
 * outcome.  Nothing for a live cluster or -f - (not read twice by the
 * reloading fix), node what-ifs, rollouts or --compare-*.
 */
void kp_fix_add_node(struct kp_snapshot *snap,
                     const struct kp_options *o, struct kp_report *rep,
                     kp_fix_load_fn *load);

#endif
