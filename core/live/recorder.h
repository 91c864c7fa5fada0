/*
 * recorder.h - "kubectl-preempt record --dir DIR": keep the history that
 * "explain" needs after events expire and victims are gone.
 *
 * DIR holds a recording (recording.h reads it back):
 *   kubectl-preempt-recording         the marker: this is a recording
 *   snapshot-YYYYMMDDTHHMMSS.mmmZ.json a full List, as --snapshot-out
 *                                      writes one (atomic: tmp + rename)
 *   changes-YYYYMMDDTHHMMSS.mmmZ.jsonl what changed after that snapshot,
 *                                      one watch event a line
 * Each snapshot starts an epoch: its list's resourceVersions start the
 * watches whose events go to the epoch's changes file.  A new epoch
 * starts every --snapshot-interval, when a watch says 410 Gone, and when
 * the changes file passes half of --max-disk.  The oldest epochs go when
 * the recording passes --max-disk or they end before now - --max-age.
 */
#ifndef KP_RECORDER_H
#define KP_RECORDER_H

#include "error.h"
#include "kp.h"

/* Defaults of --snapshot-interval, --max-disk, --max-age. */
#define KP_RECORD_DEFAULT_INTERVAL_MS (10L * 60 * 1000)
#define KP_RECORD_DEFAULT_MAX_DISK ((long long)1 << 30)
#define KP_RECORD_DEFAULT_MAX_AGE_MS (24L * 3600 * 1000)

/*
 * Record until SIGINT or SIGTERM (then 0: everything written so far is
 * complete and loads), or until a failure that retrying cannot mend
 * (-1 with err set: the directory cannot be written, the credentials
 * are refused).  Progress and transient faults go to stderr as
 * "warning:" lines.
 */
int kp_record(const struct kp_options *o, struct kp_error *err);

#endif
