/*
 * live.c - see live.h.  Fetches nodes, pods, PodDisruptionBudgets,
 * PriorityClasses, Namespaces and the storage objects of the volume
 * plugins (PVs, StorageClasses, CSINodes, PVCs) with api_client.c, feeds
 * every item to the snapshot loader as it arrives (kp_snapshot_load_item,
 * the file loader's per-item path), and writes --snapshot-out as it goes
 * (closed only on success).  The lists come one after the other, in the
 * order below, so the snapshot, the warnings and --snapshot-out are
 * the same whatever the timing; a list restarted after 410 Gone is first
 * rolled back from both.  Namespaces only serve pod affinity
 * namespaceSelectors and the storage lists only the volume plugins: a
 * 403 or 404 on those is a warning (volumes are then not evaluated), not
 * a failure.
 */
#include "live.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "api_client.h"
#include "kube_version.h"
#include "snapshot_out.h"
#include "snapshot_load.h"

struct live_ctx {
    struct kp_snapshot *s;
    struct kp_snapshot_out *so;
    /* the list whose turn it is */
    const char *source;         /* "<api:pods>", interned */
    const char *kind, *api_version;
    bool skip;                  /* claims after a refused storage list */
    struct kp_snapshot_mark mark;
    struct kp_snapshot_out_mark out_mark;
};

/*
 * A list's turn (the lists come one after the other, in order): note
 * where the snapshot and --snapshot-out stand, to go back there if the
 * list restarts.
 */
static int
on_begin(void *ctx, const char *resource, struct kp_error *err)
{
    struct live_ctx *lc = ctx;
    char source[128];

    if (kp_live_resource_kind(resource, &lc->kind, &lc->api_version) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "unknown resource '%s'",
                         resource);
    snprintf(source, sizeof(source), "<api:%s>", resource);
    lc->source = kp_arena_intern(&lc->s->arena, source);
    /*
     * The claims come last of the storage lists: once another was
     * refused they are dropped (also from --snapshot-out), so that the
     * snapshot holds PVCs only with the objects they need.  The API's
     * list of claims says "these are all", even when empty.
     */
    lc->skip = false;
    if (strcmp(lc->kind, "PersistentVolumeClaim") == 0) {
        lc->skip = lc->s->storage_refused;
        if (!lc->skip)
            lc->s->has_pvc_input = true;
    }
    kp_snapshot_mark(lc->s, &lc->mark);
    if (lc->so)
        kp_snapshot_out_mark(lc->so, &lc->out_mark);
    return 0;
}

/* One item: into the snapshot, then --snapshot-out. */
static int
on_item(void *ctx, const char *resource, const char *text, size_t len,
        long index, struct kp_error *err)
{
    struct live_ctx *lc = ctx;
    cJSON *obj = NULL;
    int r;

    (void)resource;
    if (lc->skip)
        return 0;
    if (kp_snapshot_load_item(lc->s, text, len, lc->kind, index, lc->source,
                              lc->so ? &obj : NULL, err) < 0)
        return -1;
    if (!lc->so)
        return 0;
    r = kp_snapshot_out_add_item(lc->so, obj, lc->kind, lc->api_version,
                                 err);
    cJSON_Delete(obj);
    return r;
}

static int
on_page_end(void *ctx, const char *resource, struct kp_error *err)
{
    struct live_ctx *lc = ctx;

    (void)resource;
    (void)err;
    if (!lc->skip)
        lc->s->ndocuments++;
    return 0;
}

/* The list restarts: drop what it loaded and wrote. */
static int
on_restart(void *ctx, const char *resource, struct kp_error *err)
{
    struct live_ctx *lc = ctx;

    (void)resource;
    kp_snapshot_rollback(lc->s, &lc->mark);
    if (lc->so)
        return kp_snapshot_out_rollback(lc->so, &lc->out_mark, err);
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
    if (strcmp(resource, "services") == 0 ||
        strcmp(resource, "replicationcontrollers") == 0 ||
        strcmp(resource, "replicasets") == 0 ||
        strcmp(resource, "statefulsets") == 0) {
        s->spread_refused = true;
        kp_snapshot_warn(s, "%s; system default spreading takes the "
                         "selector of a controller's pods from their own "
                         "labels", msg);
        return;
    }
    s->storage_refused = true;
    kp_snapshot_warn(s, "%s; volume checks that need PersistentVolumeClaims "
                     "are skipped", msg);
}

/*
 * The API server's /version, once the lists are read: its minor decides
 * the version replayed (run_config.c); without one, the kubelets do.
 */
static void
on_version(void *ctx, const char *body, const char *why)
{
    struct kp_snapshot *s = ctx;
    int minor = body ? kp_kube_version_from_server(body, strlen(body)) : -1;

    if (minor > 0) {
        cJSON *root = cJSON_Parse(body);
        const cJSON *gv = cJSON_GetObjectItemCaseSensitive(root,
                                                           "gitVersion");
        char v[32];

        s->server_minor = minor;
        /* what --snapshot-out records: the gitVersion, if it says the same */
        snprintf(v, sizeof(v), "v1.%d", minor);
        s->server_version = kp_arena_strdup(&s->arena,
            cJSON_IsString(gv) && strlen(gv->valuestring) < 100 &&
            kp_kube_version_minor(gv->valuestring) == minor ?
            gv->valuestring : v);
        cJSON_Delete(root);
        return;
    }
    if (body)
        kp_snapshot_warn(s, "the API server's /version names no Kubernetes "
                         "version; the version replayed is the newest "
                         "kubelet's");
    else
        kp_snapshot_warn(s, "cannot read the API server's /version (%s); "
                         "the version replayed is the newest kubelet's", why);
}

void
kp_live_opts_from_options(const struct kp_options *o, struct kp_live_opts *lo)
{
    memset(lo, 0, sizeof(*lo));
    lo->kubeconfig = o->kubeconfig;
    lo->context = o->context;
    lo->cluster = o->cluster;
    lo->user = o->user;
    lo->server = o->server;
    lo->token = o->token;
    lo->certificate_authority = o->certificate_authority;
    lo->insecure_skip_tls_verify = o->insecure_skip_tls_verify;
    lo->conn = &o->conn;
    lo->request_timeout_ms = o->request_timeout_ms;
}

static int load_live(struct kp_snapshot *s, const struct kp_options *o,
                     const char *const *resources, bool version,
                     char *default_ns, size_t ns_len, struct kp_error *err);

static const char *const optional_resources[] = {
    "namespaces", "persistentvolumes", "storageclasses", "csinodes",
    "persistentvolumeclaims", "services", "replicationcontrollers",
    "replicasets", "statefulsets", NULL};

int
kp_load_live(struct kp_snapshot *s, const struct kp_options *o,
             char *default_ns, size_t ns_len, struct kp_error *err)
{
    static const char *const resources[] = {
        "nodes", "pods", "poddisruptionbudgets", "priorityclasses",
        "namespaces", "persistentvolumes", "storageclasses", "csinodes",
        "persistentvolumeclaims", "services", "replicationcontrollers",
        "replicasets", "statefulsets", NULL};

    return load_live(s, o, resources, true, default_ns, ns_len, err);
}

int
kp_load_live_resources(struct kp_snapshot *s, const struct kp_options *o,
                       const char *const *resources, char *default_ns,
                       size_t ns_len, struct kp_error *err)
{
    return load_live(s, o, resources, false, default_ns, ns_len, err);
}

static int
load_live(struct kp_snapshot *s, const struct kp_options *o,
          const char *const *resources, bool version, char *default_ns,
          size_t ns_len, struct kp_error *err)
{
    struct kp_live_opts lo;
    struct live_ctx lc;
    struct kp_list_sink sink = {&lc, on_begin, on_item, on_page_end,
                                on_restart, NULL};

    memset(&lc, 0, sizeof(lc));
    lc.s = s;
    kp_live_opts_from_options(o, &lo);
    lo.warn = on_warn;
    lo.warn_ctx = s;
    lo.optional = optional_resources;
    lo.refused = on_refused;
    if (version)
        lo.version = on_version;
    if (kp_live_default_namespace(&lo, default_ns, ns_len, err) < 0)
        return -1;
    if (o->snapshot_out) {
        lc.so = kp_snapshot_out_open(o->snapshot_out, err);
        if (!lc.so)
            return -1;
    }
    if (kp_live_fetch(&lo, resources, &sink, err) < 0) {
        kp_snapshot_out_abort(lc.so);
        return -1;
    }
    if (lc.so && s->server_version)
        kp_snapshot_out_set_server_version(lc.so, s->server_version);
    if (lc.so && kp_snapshot_out_close(lc.so, err) < 0)
        return -1;
    return 0;
}
