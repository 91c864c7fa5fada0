/*
 * run.h - the steps kp_run() and kp_explain() share (run.c): loading the
 * snapshot, handing its warnings to the result, --fail-on's status.
 */
#ifndef KP_RUN_H
#define KP_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "error.h"
#include "kp.h"
#include "snapshot.h"

struct kp_whatif;

/*
 * -f's files, else the live cluster's live_resources (NULL: the run's
 * lists and /version), then --add and the node what-ifs (w; NULL when
 * the command takes none).  default_ns gets the context's namespace
 * (live), else keeps its value.
 */
int kp_run_load(struct kp_snapshot *s, const struct kp_options *o,
                const char *const *live_resources, char *default_ns,
                size_t ns_len, struct kp_whatif *w, struct kp_error *err);

/*
 * The one way warnings travel: each is raised into the snapshot
 * (kp_snapshot_warn), in the order of the run: reading (-f, the live
 * lists, --add), the configuration's (kp_run_config_mark_pods),
 * kp_snapshot_finish's, then the run's own (pods not analysed,
 * --only-added with nothing to report, -v's ignored kinds; explain's "no
 * preemptions found").  Once nothing more can be raised they move here
 * into r, for stderr (cmd/ prints each once) and for -o json's
 * "warnings" (the report points at r's list; it keeps no copy).
 */
void kp_run_take_warnings(struct kp_run_result *r, struct kp_snapshot *s);

/*
 * --fail-on: KP_EXIT_FAIL_ON when one of the conditions asked for
 * (fail_on) was found (found: the same enum kp_fail_on bits), else 0.
 */
int kp_fail_on_status(unsigned fail_on, unsigned found);

#endif
