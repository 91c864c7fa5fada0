/*
 * api_client.h - read cluster state from a live API server, as
 * "kubectl get --raw" would, with kubectl's configuration rules
 * (kubeconfig.h) and client-go's REST behaviour: paginated lists
 * (limit/continue), gzip, per-request timeout, retries on 429/5xx
 * honouring Retry-After, and errors that say which verb on which
 * resource was refused.
 */
#ifndef KP_API_CLIENT_H
#define KP_API_CLIENT_H

#include <stddef.h>

#include "error.h"
#include "kubeconfig.h"

/*
 * The live-cluster flags; zero-initialise.  insecure_skip_tls_verify is
 * -1 (not given), 0 (=false: changes nothing, as in kubectl) or 1.
 */
struct kp_live_opts {
    const char *kubeconfig, *context, *cluster, *user;
    const char *server, *token, *certificate_authority;
    int insecure_skip_tls_verify;   /* -1 unset, 0, 1 */
    const struct kp_conn_flags *conn;   /* --as, ... (kp.h); NULL: none */
    long request_timeout_ms;        /* 0: none */
    /* Optional; 0 / NULL means the default in brackets. */
    const char *user_agent;         /* ["kubectl-preempt/" KP_VERSION] */
    long page_limit;                /* items per page [500] */
    int max_retries;                /* on 429/5xx [5]; negative: none */
    long max_retry_wait_ms;         /* cap on one wait [10000] */
    kp_warn_fn warn;                /* warnings [dropped] */
    void *warn_ctx;
    /*
     * Resources (NULL-terminated) whose list may be refused: a 403 or 404
     * on one of them calls refused(warn_ctx, resource, message), on the
     * list's turn (see kp_list_sink), and the list is delivered empty
     * instead of failing the fetch.  The message
     * reads like the error it replaces ("cannot list ... 403 Forbidden").
     */
    const char *const *optional;
    void (*refused)(void *ctx, const char *resource, const char *msg);
    /*
     * Optional: GET /version first (same connection, credentials and
     * bounds); once every list is read, version(warn_ctx, body, NULL)
     * with its body (NUL-terminated, credentials scrubbed), or
     * version(warn_ctx, NULL, why) when it failed.
     */
    void (*version)(void *ctx, const char *body, const char *why);
};

/*
 * Where kp_live_fetch() hands the lists: every call is serial, made in
 * the order of the resources list (a list's turn comes when the lists
 * before it are complete), each list's items in order.  A list's pages
 * are not held whole: each item is handed over as soon as its bytes have
 * arrived (json_stream.h).  Lists are read in parallel, though: a list
 * ahead of its turn holds the items it read (at most HOLD_PAGES = 2
 * pages, then it waits) until its turn.  Return -1 with err set to abort
 * the fetch; err is then the fetch's error as is.
 */
struct kp_list_sink {
    void *ctx;
    /* The list's turn: its items follow (not called for a refused list). */
    int (*begin)(void *ctx, const char *resource, struct kp_error *err);
    /*
     * One item: the JSON text of one element of a page's items (len
     * bytes, not NUL-terminated, borrowed for the call; checked by
     * kp_json_scan_value), index its place in its page.  The items are
     * of the resource's kind and apiVersion (kp_live_resource_kind()):
     * pages of any other kind or apiVersion are refused.
     */
    int (*item)(void *ctx, const char *resource, const char *text,
                size_t len, long index, struct kp_error *err);
    /* Optional: the end of a page, once its items were handed over. */
    int (*page_end)(void *ctx, const char *resource, struct kp_error *err);
    /*
     * The list restarts from its first page (410 Gone on an expired
     * continue token, once, as client-go's pager does; or an optional
     * list refused after its first page): forget every item handed over
     * since begin, so that none is seen twice.
     */
    int (*restart)(void *ctx, const char *resource, struct kp_error *err);
    /*
     * Optional: once every list is read, for each list not refused, in
     * order, its metadata.resourceVersion (NULL if the server sent none):
     * where a watch of it starts (kp_live_watch).
     */
    void (*list_version)(void *ctx, const char *resource, const char *rv);
};

/*
 * List every resource of the NULL-terminated list cluster-wide, all lists
 * in parallel, and hand their items to sink.  Known resources: nodes,
 * pods, poddisruptionbudgets, priorityclasses, namespaces,
 * persistentvolumeclaims, persistentvolumes, storageclasses, csinodes,
 * events.  An optional list refused (see kp_live_opts.optional) is
 * reported through refused() on its turn, with no begin.  Returns 0, or
 * -1 with err set (exit code KP_EXIT_ERROR).
 */
int kp_live_fetch(const struct kp_live_opts *o, const char *const *resources,
                  const struct kp_list_sink *sink, struct kp_error *err);

/*
 * Where kp_live_watch() hands the changes.  event(): one ADDED, MODIFIED
 * or DELETED event of a resource (whose items are of kind/api_version),
 * the object's JSON (len bytes, credentials scrubbed, borrowed for the
 * call); -1 with err set stops the watch with that error.  tick(): called
 * between reads, at least every 200 ms: 1 ends the watch (0 returned),
 * -1 fails it, 0 goes on.
 */
struct kp_watch_sink {
    void *ctx;
    int (*event)(void *ctx, const char *resource, const char *kind,
                 const char *api_version, const char *type,
                 const char *text, size_t len, struct kp_error *err);
    int (*tick)(void *ctx, struct kp_error *err);
};

/*
 * Watch every resource of the NULL-terminated list from rvs[i] (its
 * list's resourceVersion; NULL: from now), as client-go's reflector:
 * allowWatchBookmarks, reconnects from the last resourceVersion seen
 * with a capped, jittered backoff.  Returns 0 when tick() ended it, 1
 * when the server said 410 Gone (list again, then watch from the new
 * list), -1 with err set.  rvs[i] (malloc'd, replaced) is left at the
 * last resourceVersion seen.  A watch refused (401/403/404) is reported
 * through kp_live_opts.refused and not retried.
 */
int kp_live_watch(const struct kp_live_opts *o, const char *const *resources,
                  char **rvs, const struct kp_watch_sink *sink,
                  struct kp_error *err);

/*
 * The namespace of the selected context (or of the in-cluster service
 * account), else "default", copied into buf.  Runs no credential plugin.
 */
int kp_live_default_namespace(const struct kp_live_opts *o, char *buf,
                              size_t n, struct kp_error *err);

/*
 * kind and apiVersion of the items of a known resource's list
 * ("pods" -> "Pod", "v1"); -1 if the resource is unknown.
 */
int kp_live_resource_kind(const char *resource, const char **kind,
                          const char **api_version);

#endif
