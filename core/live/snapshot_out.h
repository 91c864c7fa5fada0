/*
 * snapshot_out.h - --snapshot-out FILE: save what a live run read as one
 * "kubectl get -o json"-style List that -f reads back.
 *
 * Items of API lists carry no kind or apiVersion; each is given those of
 * its list (PodList v1 -> Pod v1).  A regular file (or a new one) appears
 * only when complete: it is written to a temporary file of mkstemp's
 * making beside it (.FILE.XXXXXX, mode 0600), synced and renamed on
 * close; the old file stays as it was on every failure.  A device, a
 * FIFO or a link to one (/dev/null, /dev/stdout) is written through.
 */
#ifndef KP_SNAPSHOT_OUT_H
#define KP_SNAPSHOT_OUT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "error.h"

struct kp_snapshot_out;

/* Open path for the List.  NULL with err set on failure. */
struct kp_snapshot_out *kp_snapshot_out_open(const char *path,
                                             struct kp_error *err);

/*
 * Append one item of a list whose items are of kind / api_version: the
 * two are set first in item (which is changed), as kubectl prints them.
 * Items that are not objects are skipped.
 */
int kp_snapshot_out_add_item(struct kp_snapshot_out *so, cJSON *item,
                             const char *kind, const char *api_version,
                             struct kp_error *err);

/* What was written so far, to go back to (a live list restarted). */
struct kp_snapshot_out_mark {
    long offset;
    size_t nitems;
};
void kp_snapshot_out_mark(struct kp_snapshot_out *so,
                          struct kp_snapshot_out_mark *m);
/* Drop what was written after m (the file is truncated there). */
int kp_snapshot_out_rollback(struct kp_snapshot_out *so,
                             const struct kp_snapshot_out_mark *m,
                             struct kp_error *err);

/*
 * Finish the List, flush it to disk and rename the temporary file to
 * path (or, written through, just flush and close it).  Frees
 * so whether or not it succeeds (on failure the temporary file is removed).
 */
/*
 * The API server's version (gitVersion), written as the List's annotation
 * KP_SERVER_VERSION_ANNOTATION (snapshot.h) when the file is closed: a
 * run from the file then replays that version.  kubectl ignores it.
 */
void kp_snapshot_out_set_server_version(struct kp_snapshot_out *so,
                                        const char *version);
int kp_snapshot_out_close(struct kp_snapshot_out *so, struct kp_error *err);

/* Remove the temporary file and free so (NULL is fine): the run failed. */
void kp_snapshot_out_abort(struct kp_snapshot_out *so);

#endif
