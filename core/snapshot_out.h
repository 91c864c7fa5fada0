/*
 * snapshot_out.h - --snapshot-out FILE: save what a live run read as one
 * "kubectl get -o json"-style List that -f reads back.
 *
 * Items of API lists carry no kind or apiVersion; each is given those of
 * its list (PodList v1 -> Pod v1).  The file appears only when complete:
 * it is written to FILE.tmp (mode 0600) and renamed on close.
 */
#ifndef KP_SNAPSHOT_OUT_H
#define KP_SNAPSHOT_OUT_H

#include <stddef.h>

#include "error.h"

struct kp_snapshot_out;

/* Create path.tmp (mode 0600).  NULL with err set on failure. */
struct kp_snapshot_out *kp_snapshot_out_open(const char *path,
                                             struct kp_error *err);

/*
 * Append the items of one List page (the body a kp_page_fn receives;
 * resource names the list, for lists that carry no kind).
 */
int kp_snapshot_out_add_page(struct kp_snapshot_out *so, const char *resource,
                             const char *body, size_t len,
                             struct kp_error *err);

/*
 * Finish the List, flush it to disk and rename path.tmp to path.  Frees
 * so whether or not it succeeds (on failure path.tmp is removed).
 */
int kp_snapshot_out_close(struct kp_snapshot_out *so, struct kp_error *err);

/* Remove path.tmp and free so (NULL is fine): the run failed. */
void kp_snapshot_out_abort(struct kp_snapshot_out *so);

#endif
