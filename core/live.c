/*
 * live.c - see live.h.  Fetches nodes, pods, PodDisruptionBudgets,
 * PriorityClasses, Namespaces and the storage objects of the volume
 * plugins (PVs, StorageClasses, CSINodes, PVCs) with api_client.c, feeds
 * every page to the snapshot loader, and writes --snapshot-out as it goes
 * (closed only on success).  Namespaces only serve pod affinity
 * namespaceSelectors and the storage lists only the volume plugins: a
 * 403 or 404 on those is a warning (volumes are then not evaluated), not
 * a failure.
 */
#include "live.h"

#include <stdio.h>
#include <string.h>

#include "api_client.h"
#include "snapshot_out.h"

struct live_ctx {
    struct kp_snapshot *s;
    struct kp_snapshot_out *so;
};

static int
on_page(void *ctx, const char *resource, const char *body, size_t len,
        struct kp_error *err)
{
    struct live_ctx *lc = ctx;
    char source[128];

    /*
     * The claims come last of the storage lists: once another was
     * refused they are dropped (also from --snapshot-out), so that the
     * snapshot holds PVCs only with the objects they need.
     */
    if (lc->s->storage_refused &&
        strcmp(resource, "persistentvolumeclaims") == 0)
        return 0;
    snprintf(source, sizeof(source), "<api:%s>", resource);
    if (kp_snapshot_load_buffer(lc->s, body, len, source, err) < 0)
        return -1;
    if (lc->so)
        return kp_snapshot_out_add_page(lc->so, resource, body, len, err);
    return 0;
}

static void
on_warn(void *ctx, const char *msg)
{
    kp_snapshot_warn(ctx, "%s", msg);
}

/*
 * A list the user may not read (403) or the server does not serve (404):
 * warn and go on.  Without namespaces a non-empty namespaceSelector
 * selects nothing; without a storage list volumes are not evaluated.
 */
static void
on_refused(void *ctx, const char *resource, const char *msg)
{
    struct kp_snapshot *s = ctx;

    if (strcmp(resource, "namespaces") == 0) {
        kp_snapshot_warn(s, "%s; going on without namespaces", msg);
        return;
    }
    s->storage_refused = true;
    kp_snapshot_warn(s, "%s; volume checks that need PersistentVolumeClaims "
                     "are skipped", msg);
}

static const char *const optional_resources[] = {
    "namespaces", "persistentvolumes", "storageclasses", "csinodes",
    "persistentvolumeclaims", NULL};

int
kp_load_live(struct kp_snapshot *s, const struct kp_options *o,
             char *default_ns, size_t ns_len, struct kp_error *err)
{
    static const char *const resources[] = {
        "nodes", "pods", "poddisruptionbudgets", "priorityclasses",
        "namespaces", "persistentvolumes", "storageclasses", "csinodes",
        "persistentvolumeclaims", NULL};

    return kp_load_live_resources(s, o, resources, default_ns, ns_len, err);
}

int
kp_load_live_resources(struct kp_snapshot *s, const struct kp_options *o,
                       const char *const *resources, char *default_ns,
                       size_t ns_len, struct kp_error *err)
{
    struct kp_live_opts lo;
    struct live_ctx lc = {s, NULL};

    memset(&lo, 0, sizeof(lo));
    lo.kubeconfig = o->kubeconfig;
    lo.context = o->context;
    lo.cluster = o->cluster;
    lo.user = o->user;
    lo.server = o->server;
    lo.token = o->token;
    lo.certificate_authority = o->certificate_authority;
    lo.insecure_skip_tls_verify = o->insecure_skip_tls_verify;
    lo.request_timeout_ms = o->request_timeout_ms;
    lo.warn = on_warn;
    lo.warn_ctx = s;
    lo.optional = optional_resources;
    lo.refused = on_refused;
    if (kp_live_default_namespace(&lo, default_ns, ns_len, err) < 0)
        return -1;
    if (o->snapshot_out) {
        lc.so = kp_snapshot_out_open(o->snapshot_out, err);
        if (!lc.so)
            return -1;
    }
    if (kp_live_fetch(&lo, resources, on_page, &lc, err) < 0) {
        kp_snapshot_out_abort(lc.so);
        return -1;
    }
    if (lc.so && kp_snapshot_out_close(lc.so, err) < 0)
        return -1;
    return 0;
}
