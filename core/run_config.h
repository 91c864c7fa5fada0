/*
 * run_config.h - kp_run's handling of --config, --profile and
 * --kube-version (run_config.c).
 */
#ifndef KP_RUN_CONFIG_H
#define KP_RUN_CONFIG_H

#include "config.h"
#include "error.h"
#include "kp.h"
#include "report.h"
#include "snapshot.h"

/*
 * *oo = *o, then with --config or --profile: cfg loaded (released by the
 * caller with kp_sched_config_release, also after a failure),
 * oo->sched_config set, oo->scheduler_name NULL (every profile's pods are
 * pending) and oo->report_scheduler_name the --scheduler-name given.
 */
int kp_run_config_setup(const struct kp_options *o, struct kp_options *oo,
                        struct kp_sched_config *cfg, struct kp_error *err);
/*
 * Once the snapshot is loaded, without --kube-version: the version the
 * cluster runs (the API server's /version, else the newest kubelet)
 * replaces the default.  1.37 is the default and changes nothing;
 * 1.31-1.36 and 1.38 set oo as --kube-version would (cfg, if empty, then
 * holds the default profile); another version is an error.
 */
int kp_run_config_detect(const struct kp_snapshot *snap,
                         const struct kp_options *o, struct kp_options *oo,
                         struct kp_sched_config *cfg, struct kp_error *err);
/* in_profile of every pod; the configuration's warnings into snap's. */
void kp_run_config_mark_pods(struct kp_snapshot *snap,
                             const struct kp_options *o);
/* rep->scheduler_line, scheduler_json, scheduler_shown. */
void kp_run_config_describe(const struct kp_snapshot *snap,
                            const struct kp_options *o,
                            struct kp_report *rep);

#endif
