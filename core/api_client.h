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
     * on one of them calls refused(warn_ctx, resource, message) and the
     * list is delivered empty instead of failing the fetch.  The message
     * reads like the error it replaces ("cannot list ... 403 Forbidden").
     */
    const char *const *optional;
    void (*refused)(void *ctx, const char *resource, const char *msg);
};

/*
 * Called once per page, serially, in the order of the resources list,
 * each resource's pages in order.  body is the raw JSON of one List page
 * (e.g. a PodList), NUL-terminated, borrowed for the call.  Return -1
 * with err set to abort the fetch.
 */
typedef int (*kp_page_fn)(void *ctx, const char *resource, const char *body,
                          size_t len, struct kp_error *err);

/*
 * List every resource of the NULL-terminated list cluster-wide, all lists
 * in parallel, and hand their pages to fn.  A resource's pages are
 * delivered once its whole list has been read, so that a list restarted
 * after an expired continue token (410 Gone, once) is never seen twice.
 * Known resources: nodes, pods, poddisruptionbudgets, priorityclasses,
 * namespaces, persistentvolumeclaims, persistentvolumes, storageclasses,
 * csinodes, events.  Returns 0, or -1 with err set (exit code
 * KP_EXIT_ERROR).
 */
int kp_live_fetch(const struct kp_live_opts *o, const char *const *resources,
                  kp_page_fn fn, void *ctx, struct kp_error *err);

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
