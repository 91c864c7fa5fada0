/*
 * recording.h - read back what "kubectl-preempt record" wrote
 * (recorder.h): the cluster as it was at a moment, as one List.
 */
#ifndef KP_RECORDING_H
#define KP_RECORDING_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "error.h"
#include "snapshot.h"

/* The marker file's name (recorder.h says the same). */
#define KP_RECORDING_MARKER_FILE "kubectl-preempt-recording"

/* ms since the epoch as a file-name stamp: 20261127T174501.123Z */
void kp_recording_stamp(long long ms, char *buf, size_t n);
/* ... and as RFC 3339 with milliseconds: 2026-11-27T17:45:01.123Z */
void kp_recording_time(long long ms, char *buf, size_t n);
/* The stamp back to ms; -1 if it is not one. */
int kp_recording_parse_stamp(const char *stamp, long long *ms);

/*
 * --at and --since: RFC 3339 ("2026-11-27T03:00:00Z", fractions and
 * offsets as Go's time.RFC3339Nano reads them) into ms; a duration
 * ("90m", "1h30m", "2h", "45s", Go's time.ParseDuration units h, m, s,
 * ms) into ms.  -1 with err naming flag on failure.
 */
int kp_parse_time(const char *flag, const char *text, long long *ms,
                  struct kp_error *err);
int kp_parse_duration(const char *flag, const char *text, long long *ms,
                      struct kp_error *err);

/* The wall clock, ms since the epoch (--since counts back from it). */
long long kp_recording_now_ms(void);

/* One snapshot of a recording: the epoch it starts (recorder.h). */
struct kp_recording_epoch {
    char stamp[40];             /* of its file names */
    long long ms;               /* when it was taken */
};

/*
 * The snapshots of the recording in dir, oldest first (*out malloc'ed,
 * NULL when none); -1 with err set when dir cannot be read.
 */
int kp_recording_epochs(const char *dir, struct kp_recording_epoch **out,
                        size_t *n, struct kp_error *err);

/* Whether dir holds a recording (its marker file). */
bool kp_recording_is_dir(const char *dir);

/* Events the recorder keeps (recorder.c's filter, shared with tests). */
bool kp_recorded_event(const cJSON *ev);

/*
 * What to rebuild: the cluster at at_ms (<= 0: the last moment
 * recorded); with from_ms > 0 also every pod and event deleted between
 * from_ms and at_ms, as it was last seen (the victims of the window's
 * preemptions, restored as explain needs them).
 */
struct kp_recording_query {
    long long at_ms, from_ms;
};

/*
 * Load the recording in dir into s as it was at q->at_ms: the newest
 * snapshot taken at or before then, with the changes recorded after it
 * up to then; errors name "DIR@TIME".  A changes file whose last line
 * was cut (a crash in a write) is read up to its last whole line.
 */
int kp_recording_load(struct kp_snapshot *s, const char *dir,
                      const struct kp_recording_query *q,
                      struct kp_error *err);

#endif
