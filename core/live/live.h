/*
 * live.h - loading the snapshot from a live API server (api_client.c)
 * into the same loader as files, with --snapshot-out.
 */
#ifndef KP_LIVE_H
#define KP_LIVE_H

#include "api_client.h"
#include "kp.h"
#include "snapshot.h"

/* The connection flags of o (--kubeconfig, --server, ...) as lo. */
void kp_live_opts_from_options(const struct kp_options *o,
                               struct kp_live_opts *lo);

/* Fetch the lists and load them; default_ns receives the context's. */
int kp_load_live(struct kp_snapshot *s, const struct kp_options *o,
                 char *default_ns, size_t ns_len, struct kp_error *err);

/* The same, for the given resource names (api_client.c's table). */
int kp_load_live_resources(struct kp_snapshot *s, const struct kp_options *o,
                           const char *const *resources, char *default_ns,
                           size_t ns_len, struct kp_error *err);

#endif
