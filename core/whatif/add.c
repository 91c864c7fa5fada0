/*
 * add.c - "--add FILE": the pods that applying a manifest would create,
 * added to the snapshot as pending pods (from_add).
 *
 * Mirrors what each controller creates from spec.template:
 * pkg/controller/deployment and replicaset (spec.replicas pods),
 * statefulset/stateful_set_utils.go (newStatefulSetPod: <name>-<ordinal>,
 * the pod-name and pod-index labels, one volume per claim template and,
 * when the input carries PVCs, the missing claims themselves),
 * job/job_controller.go (min(parallelism, completions) active pods, none
 * while suspended; the job-name labels) and daemon/daemon_controller.go
 * (NodeShouldRunDaemonPod: nodeName, required node affinity, NoSchedule
 * and NoExecute taints) with daemon/util/daemonset_util.go
 * (AddOrUpdateDaemonPodTolerations, ReplaceDaemonSetPodNodeNameNodeAffinity).
 * Controller-made names carry random suffixes; here they are
 * deterministic stand-ins.  Priorities are resolved later by
 * kp_snapshot_finish(), as the Priority admission plugin would.
 */
#include "add.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corev1.h"
#include "json_util.h"
#include "rollout.h"
#include "snapshot_load.h"
#include "yaml_json.h"

#define MAX_INPUT ((size_t)1 << 30)
#define MAX_PODS_PER_OBJECT 100000
#define NS_PER_SEC 1000000000LL

struct add_ctx {
    struct kp_snapshot *s;
    const char *file;           /* as named in messages */
    size_t doc;                 /* 1-based document number */
    size_t nignored;            /* objects that make no pods */
    char ignored_kinds[160];    /* their kinds, comma-separated */
    const char *default_ns;
    int64_t next_time;          /* creationTimestamp of the next pod */
    struct kp_error *err;
};

/* One workload object being expanded. */
struct workload {
    const cJSON *obj;
    const cJSON *spec;
    const cJSON *tmpl;          /* spec.template */
    const char *tmpl_path;      /* where tmpl is, for messages */
    const cJSON *cron_spec;     /* CronJob: its spec (spec is the Job's) */
    const char *spec_path;      /* where spec is: "spec" unless CronJob */
    const char *kind;
    const char *ns;
    const char *name;
    const char *source;         /* "<file>: document <n>: <kind> '<id>'" */
};

/* ---- reading ---- */

static char *
read_input(const char *path, const char *name, size_t *len,
           struct kp_error *err)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    size_t cap = 1 << 16, n = 0, r;
    char *buf;

    if (!f) {
        kp_errorf(err, KP_EXIT_ERROR, "%s: %s", path, strerror(errno));
        return NULL;
    }
    buf = kp_xmalloc(cap + 1);
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap && cap >= MAX_INPUT)
            break;
        if (n == cap)
            buf = kp_xrealloc(buf, (cap *= 2) + 1);
    }
    if (ferror(f) || n >= MAX_INPUT) {
        kp_errorf(err, KP_EXIT_ERROR, "%s: %s", name, ferror(f) ?
                  strerror(errno) : "input larger than 1 GiB");
        free(buf);
        buf = NULL;
    }
    if (!is_stdin)
        fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

static size_t
line_of(const char *buf, size_t off)
{
    size_t i, line = 1;

    for (i = 0; i < off; i++)
        line += buf[i] == '\n';
    return line;
}

static size_t
column_of(const char *buf, size_t off)
{
    size_t col = 1;

    while (off > 0 && buf[off - 1] != '\n') {
        off--;
        col++;
    }
    return col;
}

/* Concatenated JSON documents, as kubectl accepts them. */
static int
parse_json_docs(const char *buf, size_t len, cJSON *docs,
                struct kp_error *err)
{
    size_t off = 0;

    for (;;) {
        const char *end = NULL, *what = NULL;
        size_t at = 0;
        cJSON *doc = NULL;

        while (off < len && strchr(" \t\r\n", buf[off]))
            off++;
        if (off == len)
            return 0;
        if (kp_json_scan(buf + off, len - off, KP_MAX_JSON_DEPTH * 4, &at,
                         &what) == 0)
            doc = cJSON_ParseWithLengthOpts(buf + off, len - off, &end, 0);
        if (!doc) {
            size_t pos = what ? off + at : end ? (size_t)(end - buf) : off;

            return kp_errorf(err, KP_EXIT_ERROR, "invalid JSON at line "
                             "%zu, column %zu%s%s%s", line_of(buf, pos),
                             column_of(buf, pos), what ? " (" : "",
                             what ? what : "", what ? ")" : "");
        }
        cJSON_AddItemToArray(docs, doc);
        off = (size_t)(end - buf);
    }
}

/* JSON when the input starts with '{' (kubectl sniffs the same way). */
static cJSON *
parse_docs(const char *buf, size_t len, struct kp_error *err)
{
    size_t i = 0;
    cJSON *docs;

    while (i < len && strchr(" \t\r\n", buf[i]))
        i++;
    if (i < len && buf[i] == '{') {
        docs = cJSON_CreateArray();
        if (parse_json_docs(buf, len, docs, err) == 0)
            return docs;
        cJSON_Delete(docs);
        return NULL;
    }
    if (kp_yaml_to_json(buf, len, &docs, err) < 0)
        return NULL;
    return docs;
}

/* ---- building pods ---- */

static cJSON *
object_member(cJSON *parent, const char *key)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(parent, key);

    if (cJSON_IsObject(v))
        return v;
    if (v)
        cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
    return cJSON_AddObjectToObject(parent, key);
}

static void
set_string(cJSON *obj, const char *key, const char *value)
{
    cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
    cJSON_AddStringToObject(obj, key, value);
}

static void
set_label(cJSON *pod, const char *key, const char *value)
{
    cJSON *md = object_member(pod, "metadata");
    cJSON *labels = cJSON_GetObjectItemCaseSensitive(md, "labels");

    if (!labels || cJSON_IsNull(labels))
        labels = object_member(md, "labels");
    if (cJSON_IsObject(labels))
        set_string(labels, key, value);
}

/* A Pod from w's template, owned by owner_kind/owner_name. */
static cJSON *
pod_from_template(const struct workload *w, const char *name,
                  const char *owner_api, const char *owner_kind,
                  const char *owner_name)
{
    const cJSON *tmd = cJSON_GetObjectItemCaseSensitive(w->tmpl, "metadata");
    const cJSON *labels = cJSON_GetObjectItemCaseSensitive(tmd, "labels");
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(w->tmpl, "spec");
    cJSON *pod = cJSON_CreateObject(), *md, *ref;

    cJSON_AddStringToObject(pod, "apiVersion", "v1");
    cJSON_AddStringToObject(pod, "kind", "Pod");
    md = cJSON_AddObjectToObject(pod, "metadata");
    cJSON_AddStringToObject(md, "name", name);
    cJSON_AddStringToObject(md, "namespace", w->ns);
    if (labels)
        cJSON_AddItemToObject(md, "labels", cJSON_Duplicate(labels, 1));
    ref = cJSON_CreateObject();
    cJSON_AddStringToObject(ref, "apiVersion", owner_api);
    cJSON_AddStringToObject(ref, "kind", owner_kind);
    cJSON_AddStringToObject(ref, "name", owner_name);
    cJSON_AddBoolToObject(ref, "controller", 1);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(md, "ownerReferences"), ref);
    cJSON_AddItemToObject(pod, "spec", cJSON_Duplicate(spec, 1));
    return pod;
}

/*
 * An error about a generated pod: drop the loader's "pod '<ns>/<name>': "
 * and, for a template, make the field path the manifest's.
 */
static int
rewrite_error(struct kp_error *err, const char *ns, const char *name,
              const char *tmpl_path)
{
    char prefix[600], rest[sizeof(err->msg)];
    const char *m = err->msg;
    size_t n;

    n = (size_t)snprintf(prefix, sizeof(prefix), "pod '%s/%s': ", ns, name);
    if (strncmp(m, prefix, n) == 0)
        m += n;
    snprintf(rest, sizeof(rest), "%s", m);
    if (!tmpl_path) {
        snprintf(err->msg, sizeof(err->msg), "%s", rest);
    } else if (strncmp(rest, "spec.", 5) == 0 ||
               strncmp(rest, "metadata.", 9) == 0) {
        char path[64];

        snprintf(path, sizeof(path), "%s.", tmpl_path);
        kp_error_join(err, path, "", rest);
    } else
        kp_error_join(err, "pod template: ", "", rest);
    return -1;
}

/* Add one pod; takes pod.  The pod is created after every pod so far. */
static int
add_pod_json(struct add_ctx *c, cJSON *pod, const char *source,
             const char *ns, const char *name, const char *tmpl_path)
{
    bool from_template = tmpl_path != NULL;
    struct kp_pod *p;
    int rc;

    if (kp_snapshot_pod(c->s, ns, name)) {
        cJSON_Delete(pod);
        if (!from_template)
            return kp_errorf(c->err, KP_EXIT_ERROR, "already exists in the "
                             "snapshot");
        return kp_errorf(c->err, KP_EXIT_ERROR, "pod '%s/%s' already "
                         "exists in the snapshot", ns, name);
    }
    rc = kp_snapshot_add_object(c->s, pod, "Pod", source, c->err);
    cJSON_Delete(pod);
    if (rc < 0)
        return rewrite_error(c->err, ns, name, tmpl_path);
    p = c->s->pods[c->s->npods - 1];
    p->from_add = true;
    p->creation_time = c->next_time;
    c->next_time += NS_PER_SEC;
    return 0;
}

static int
add_from_template(struct add_ctx *c, const struct workload *w, cJSON *pod,
                  const char *name)
{
    return add_pod_json(c, pod, w->source, w->ns, name,
                        w->tmpl_path ? w->tmpl_path : "spec.template");
}

/* ---- the kinds ---- */

static int
replicas(const struct workload *w, const char *key, int64_t def,
         int64_t *n, bool *set, struct kp_error *err)
{
    bool have;

    if (kp_json_int(w->spec, key, 0, MAX_PODS_PER_OBJECT, n, &have,
                    err) < 0)
        return kp_error_path(err, "%s", w->spec_path ? w->spec_path
                                                     : "spec");
    if (!have)
        *n = def;
    if (set)
        *set = have;
    return 0;
}

static int
name_of(char *buf, size_t n, struct kp_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
name_of(char *buf, size_t n, struct kp_error *err, const char *fmt, ...)
{
    va_list ap;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    if (len < 0 || (size_t)len >= n)
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: too long");
    return 0;
}

/*
 * Deployment, ReplicaSet and ReplicationController: spec.replicas pods
 * (default 1), owned by a ReplicaSet (the Deployment's) or the RC.
 */
static int
add_replicated(struct add_ctx *c, const struct workload *w)
{
    bool deploy = strcmp(w->kind, "Deployment") == 0;
    bool rc = strcmp(w->kind, "ReplicationController") == 0;
    char owner[300], name[320];
    int64_t n, i;

    if (replicas(w, "replicas", 1, &n, NULL, c->err) < 0 ||
        name_of(owner, sizeof(owner), c->err, "%s%s", w->name,
                deploy ? "-added" : "") < 0)
        return -1;
    for (i = 0; i < n; i++) {
        if (name_of(name, sizeof(name), c->err, "%s-added-%lld", w->name,
                    (long long)i) < 0 ||
            add_from_template(c, w, pod_from_template(w, name,
                                                      rc ? "v1" : "apps/v1",
                                                      rc ? w->kind :
                                                      "ReplicaSet", owner),
                              name) < 0)
            return -1;
    }
    return 0;
}

/*
 * The StatefulSet controller creates a missing claim from its template
 * before the pod (getPersistentVolumeClaims): unbound, in the set's
 * namespace, with the DefaultStorageClass admission's class when the
 * template names none.  Only when the input carries claims: without
 * them no claim is evaluated.
 */
static int
create_claim(struct add_ctx *c, const struct workload *w, const cJSON *t,
             const char *claim)
{
    const struct kp_storage_class *def;
    const cJSON *tspec = kp_json_get(t, "spec");
    cJSON *pvc, *md, *spec;
    int rc;

    if (!kp_snapshot_volumes_evaluated(c->s) ||
        kp_snapshot_pvc(c->s, w->ns, claim))
        return 0;
    pvc = cJSON_CreateObject();
    md = cJSON_AddObjectToObject(pvc, "metadata");
    cJSON_AddStringToObject(md, "name", claim);
    cJSON_AddStringToObject(md, "namespace", w->ns);
    spec = cJSON_IsObject(tspec) ? cJSON_Duplicate(tspec, 1)
                                 : cJSON_CreateObject();
    cJSON_AddItemToObject(pvc, "spec", spec);
    def = kp_snapshot_default_storage_class(c->s);
    if (!kp_json_get(spec, "storageClassName") && def)
        cJSON_AddStringToObject(spec, "storageClassName", def->name);
    rc = kp_snapshot_add_object(c->s, pvc, "PersistentVolumeClaim",
                                w->source, c->err);
    cJSON_Delete(pvc);
    return rc < 0 ? kp_error_prefix(c->err, "%s", w->source) : 0;
}

/* One volume per volumeClaimTemplate, claim <template>-<pod>. */
static int
claim_volumes(struct add_ctx *c, const struct workload *w, cJSON *pod,
              const char *name)
{
    const cJSON *vcts = kp_json_get(w->spec, "volumeClaimTemplates");
    const cJSON *t;
    cJSON *spec = object_member(pod, "spec"), *vols;

    if (!cJSON_IsArray(vcts) || cJSON_GetArraySize(vcts) == 0)
        return 0;
    vols = cJSON_GetObjectItemCaseSensitive(spec, "volumes");
    if (!cJSON_IsArray(vols)) {
        cJSON_DeleteItemFromObjectCaseSensitive(spec, "volumes");
        vols = cJSON_AddArrayToObject(spec, "volumes");
    }
    cJSON_ArrayForEach(t, vcts) {
        const cJSON *tn = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(t, "metadata"), "name");
        char claim[600];
        cJSON *v;

        if (!cJSON_IsString(tn))
            continue;
        snprintf(claim, sizeof(claim), "%s-%s", tn->valuestring, name);
        v = cJSON_CreateObject();
        cJSON_AddStringToObject(v, "name", tn->valuestring);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(
                                    v, "persistentVolumeClaim"),
                                "claimName", claim);
        cJSON_AddItemToArray(vols, v);
        if (create_claim(c, w, t, claim) < 0)
            return -1;
    }
    return 0;
}

/* StatefulSet: <name>-<ordinal>, ordinals from spec.ordinals.start. */
static int
add_statefulset(struct add_ctx *c, const struct workload *w)
{
    const cJSON *ord;
    int64_t n, start = 0, i;
    bool set;

    if (replicas(w, "replicas", 1, &n, NULL, c->err) < 0)
        return -1;
    if (kp_json_obj(w->spec, "ordinals", &ord, c->err) < 0 ||
        kp_json_int(ord, "start", 0, INT32_MAX, &start, &set, c->err) < 0)
        return kp_error_path(c->err, "spec%s", ord ? ".ordinals" : "");
    for (i = start; i < start + n; i++) {
        char name[320], index[32];
        cJSON *pod;

        if (name_of(name, sizeof(name), c->err, "%s-%lld", w->name,
                    (long long)i) < 0)
            return -1;
        /* the controller only creates the ordinals that are missing */
        if (kp_snapshot_pod(c->s, w->ns, name)) {
            kp_snapshot_warn(c->s, "%s: pod '%s/%s' already exists: not "
                             "added", w->source, w->ns, name);
            continue;
        }
        snprintf(index, sizeof(index), "%lld", (long long)i);
        pod = pod_from_template(w, name, "apps/v1", "StatefulSet", w->name);
        set_label(pod, "statefulset.kubernetes.io/pod-name", name);
        set_label(pod, "apps.kubernetes.io/pod-index", index);
        if (claim_volumes(c, w, pod, name) < 0) {
            cJSON_Delete(pod);
            return -1;
        }
        if (add_from_template(c, w, pod, name) < 0)
            return -1;
    }
    return 0;
}

/*
 * Job: parallelism pods (default 1), fewer when completions is smaller;
 * completions unset is a work queue (parallelism pods); suspended: none.
 */
static int
add_job(struct add_ctx *c, const struct workload *w)
{
    int64_t par, comp, i;
    bool comp_set = false, suspend = false;

    if (replicas(w, "parallelism", 1, &par, NULL, c->err) < 0 ||
        replicas(w, "completions", 1, &comp, &comp_set, c->err) < 0)
        return -1;
    if (kp_json_bool(w->spec, "suspend", &suspend, c->err) < 0)
        return kp_error_path(c->err, "%s", w->spec_path ? w->spec_path
                                                        : "spec");
    if (comp_set && comp < par)
        par = comp;
    for (i = 0; !suspend && i < par; i++) {
        char name[320];
        cJSON *pod;

        if (name_of(name, sizeof(name), c->err, "%s-%lld", w->name,
                    (long long)i) < 0)
            return -1;
        pod = pod_from_template(w, name, "batch/v1", "Job", w->name);
        set_label(pod, "batch.kubernetes.io/job-name", w->name);
        set_label(pod, "job-name", w->name);
        if (add_from_template(c, w, pod, name) < 0)
            return -1;
    }
    return 0;
}

/* AddOrUpdateTolerationInPodSpec for {key, Exists, effect}. */
static void
add_toleration(cJSON *tols, const char *key, const char *effect)
{
    cJSON *t, *nt = cJSON_CreateObject();
    int i = 0;

    cJSON_AddStringToObject(nt, "key", key);
    cJSON_AddStringToObject(nt, "operator", "Exists");
    cJSON_AddStringToObject(nt, "effect", effect);
    cJSON_ArrayForEach(t, tols) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(t, "key");
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(t, "operator");
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(t, "effect");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, "value");

        if (cJSON_IsString(k) && strcmp(k->valuestring, key) == 0 &&
            cJSON_IsString(op) && strcmp(op->valuestring, "Exists") == 0 &&
            cJSON_IsString(e) && strcmp(e->valuestring, effect) == 0 &&
            (!cJSON_IsString(v) || !v->valuestring[0])) {
            cJSON_ReplaceItemInArray(tols, i, nt);
            return;
        }
        i++;
    }
    cJSON_AddItemToArray(tols, nt);
}

static void
add_daemon_tolerations(cJSON *pod)
{
    static const char *const tols[][2] = {
        {"node.kubernetes.io/not-ready", "NoExecute"},
        {"node.kubernetes.io/unreachable", "NoExecute"},
        {"node.kubernetes.io/disk-pressure", "NoSchedule"},
        {"node.kubernetes.io/memory-pressure", "NoSchedule"},
        {"node.kubernetes.io/pid-pressure", "NoSchedule"},
        {"node.kubernetes.io/unschedulable", "NoSchedule"},
    };
    cJSON *spec = object_member(pod, "spec");
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(spec, "tolerations");
    size_t i;

    if (!cJSON_IsArray(arr)) {
        cJSON_DeleteItemFromObjectCaseSensitive(spec, "tolerations");
        arr = cJSON_AddArrayToObject(spec, "tolerations");
    }
    for (i = 0; i < sizeof(tols) / sizeof(tols[0]); i++)
        add_toleration(arr, tols[i][0], tols[i][1]);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "hostNetwork")))
        add_toleration(arr, "node.kubernetes.io/network-unavailable",
                       "NoSchedule");
}

/* ReplaceDaemonSetPodNodeNameNodeAffinity */
static void
pin_to_node(cJSON *pod, const char *node)
{
    cJSON *na = object_member(object_member(object_member(pod, "spec"),
                                            "affinity"), "nodeAffinity");
    cJSON *req, *term, *expr;
    const char *values[1] = {node};

    cJSON_DeleteItemFromObjectCaseSensitive(
        na, "requiredDuringSchedulingIgnoredDuringExecution");
    req = cJSON_AddObjectToObject(
        na, "requiredDuringSchedulingIgnoredDuringExecution");
    term = cJSON_CreateObject();
    expr = cJSON_CreateObject();
    cJSON_AddStringToObject(expr, "key", "metadata.name");
    cJSON_AddStringToObject(expr, "operator", "In");
    cJSON_AddItemToObject(expr, "values", cJSON_CreateStringArray(values, 1));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(term, "matchFields"), expr);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(req, "nodeSelectorTerms"),
                         term);
}

/* NodeShouldRunDaemonPod's predicates for the template pod p. */
static bool
daemon_should_run(const struct kp_pod *p, const struct kp_node *n)
{
    size_t i;

    if (p->node_name && strcmp(p->node_name, n->name) != 0)
        return false;
    if (!kp_labels_set_matches(&p->node_selector, &n->labels) ||
        !kp_node_selector_matches(&p->required_node_affinity, &n->labels,
                                  n->name))
        return false;
    for (i = 0; i < n->ntaints; i++) {
        const struct kp_taint *t = &n->taints[i];

        if ((strcmp(t->effect, "NoSchedule") == 0 ||
             strcmp(t->effect, "NoExecute") == 0) &&
            !kp_tolerates_any(p, t))
            return false;
    }
    return true;
}

/* DaemonSet: <name>-<node> on every node it would run on. */
static int
add_daemonset(struct add_ctx *c, const struct workload *w)
{
    cJSON *probe = pod_from_template(w, w->name, "apps/v1", "DaemonSet",
                                     w->name);
    struct kp_pod tmpl;
    size_t i;
    int rc = 0;

    add_daemon_tolerations(probe);
    memset(&tmpl, 0, sizeof(tmpl));
    if (kp_decode_pod(c->s, probe, &tmpl, c->err) < 0) {
        cJSON_Delete(probe);
        return rewrite_error(c->err, w->ns, w->name, "spec.template");
    }
    for (i = 0; rc == 0 && i < c->s->nnodes; i++) {
        const struct kp_node *n = c->s->nodes[i];
        char name[600];
        cJSON *pod;

        if (!daemon_should_run(&tmpl, n))
            continue;
        rc = name_of(name, sizeof(name), c->err, "%s-%s", w->name, n->name);
        if (rc < 0)
            break;
        pod = cJSON_Duplicate(probe, 1);
        set_string(object_member(pod, "metadata"), "name", name);
        pin_to_node(pod, n->name);
        rc = add_from_template(c, w, pod, name);
    }
    cJSON_Delete(probe);
    return rc;
}

/* A Pod as written, minus what only the cluster sets. */
static int
add_pod(struct add_ctx *c, const cJSON *obj, const char *ns,
        const char *name, const char *source)
{
    cJSON *pod = cJSON_Duplicate(obj, 1);
    cJSON *md = object_member(pod, "metadata");

    cJSON_DeleteItemFromObjectCaseSensitive(pod, "status");
    cJSON_DeleteItemFromObjectCaseSensitive(md, "deletionTimestamp");
    set_string(md, "namespace", ns);
    return add_pod_json(c, pod, source, ns, name, NULL);
}

/*
 * CronJob: one run of spec.jobTemplate, a Job named <name>-added (the
 * controller names it after the scheduled time) with the Job's pods;
 * none while the CronJob is suspended.  cronjob/utils.go getJobFromTemplate2.
 */
static int
add_cronjob(struct add_ctx *c, const struct workload *w)
{
    struct workload job = *w;
    char name[300];
    bool suspend = false;

    if (kp_json_bool(w->cron_spec, "suspend", &suspend, c->err) < 0)
        return kp_error_path(c->err, "spec");
    if (suspend)
        return 0;
    if (name_of(name, sizeof(name), c->err, "%s-added", w->name) < 0)
        return -1;
    job.name = kp_arena_intern(&c->s->arena, name);
    return add_job(c, &job);
}

/* ---- an update of a workload that already runs (rollout.h) ---- */

/* The pod just added (add_pod_json adds at the end). */
static struct kp_pod *
last_pod(const struct add_ctx *c)
{
    return c->s->pods[c->s->npods - 1];
}

/* name, else name-new, name-new-2, ...: a name no pod of ns has */
static int
free_name(struct add_ctx *c, const char *ns, const char *base, char *buf,
          size_t n)
{
    int i;

    if (name_of(buf, n, c->err, "%s", base) < 0)
        return -1;
    for (i = 1; kp_snapshot_pod(c->s, ns, buf); i++)
        if ((i == 1 ? name_of(buf, n, c->err, "%s-new", base) :
             name_of(buf, n, c->err, "%s-new-%d", base, i)) < 0)
            return -1;
    return 0;
}

/*
 * Deployment: the new ReplicaSet "<name>-rollout" (the controller names
 * it after the template's hash) with spec.replicas pods; ReplicaSet: the
 * pods a scale up adds.
 */
static int
rollout_replicated(struct add_ctx *c, const struct workload *w,
                   struct kp_rollout *ro)
{
    bool deploy = ro->kind == KP_ROLLOUT_DEPLOYMENT;
    char owner[300], base[340], name[360];
    int32_t n = ro->replicas, i;

    if (!deploy)
        n = ro->replicas > (int32_t)ro->nold ?
            ro->replicas - (int32_t)ro->nold : 0;
    if (name_of(owner, sizeof(owner), c->err, "%s%s", w->name,
                deploy ? "-rollout" : "") < 0)
        return -1;
    for (i = 0; i < n; i++) {
        cJSON *pod;

        if (name_of(base, sizeof(base), c->err, "%s-rollout-%d", w->name,
                    (int)i) < 0 ||
            free_name(c, w->ns, base, name, sizeof(name)) < 0)
            return -1;
        pod = pod_from_template(w, name, "apps/v1", "ReplicaSet", owner);
        if (deploy)
            set_label(pod, "pod-template-hash", "rollout");
        if (add_from_template(c, w, pod, name) < 0)
            return -1;
        /* which old pod each replaces: as they are deleted (pair()) */
        kp_rollout_add_pod(c->s, ro, last_pod(c), NULL, -1, -1);
    }
    return 0;
}

/*
 * StatefulSet: the ordinals the update replaces (from the partition up,
 * not with OnDelete) and those a scale up adds, each under the name of
 * the pod it replaces (the old pod is deleted first).
 */
static int
rollout_statefulset(struct add_ctx *c, const struct workload *w,
                    struct kp_rollout *ro)
{
    int32_t i;
    size_t k;

    for (i = 0; i < ro->replicas; i++) {
        const struct kp_rollout_old *old = NULL;
        char name[320], index[32], key[1024];
        cJSON *pod;

        for (k = 0; k < ro->nold; k++)
            if (ro->old[k].ordinal == i)
                old = &ro->old[k];
        if (old && old->stays)
            continue;
        if (name_of(name, sizeof(name), c->err, "%s-%lld", w->name,
                    (long long)ro->start + i) < 0)
            return -1;
        if (!old && kp_snapshot_pod(c->s, w->ns, name)) {
            kp_snapshot_warn(c->s, "%s: pod '%s/%s' already exists and is "
                             "not the StatefulSet's: not added", w->source,
                             w->ns, name);
            continue;
        }
        snprintf(index, sizeof(index), "%lld", (long long)ro->start + i);
        pod = pod_from_template(w, name, "apps/v1", "StatefulSet", w->name);
        set_label(pod, "statefulset.kubernetes.io/pod-name", name);
        set_label(pod, "apps.kubernetes.io/pod-index", index);
        if (claim_volumes(c, w, pod, name) < 0) {
            cJSON_Delete(pod);
            return -1;
        }
        /* the name now stands for the new pod: the old one goes first */
        snprintf(key, sizeof(key), "%s/%s", w->ns, name);
        if (old)
            kp_strmap_remove(&c->s->pod_index, key);
        if (add_from_template(c, w, pod, name) < 0)
            return -1;
        kp_rollout_add_pod(c->s, ro, last_pod(c), old ? old->pod : NULL, i,
                           -1);
    }
    return 0;
}

/* DaemonSet: a new pod on each node the new template runs on. */
static int
rollout_daemonset(struct add_ctx *c, const struct workload *w,
                  const struct kp_pod **owned, size_t nowned)
{
    cJSON *probe = pod_from_template(w, w->name, "apps/v1", "DaemonSet",
                                     w->name);
    struct kp_rollout *ro = NULL;
    struct kp_pod tmpl;
    int32_t nodes = 0;
    size_t i, k;
    int rc = 0;

    add_daemon_tolerations(probe);
    memset(&tmpl, 0, sizeof(tmpl));
    if (kp_decode_pod(c->s, probe, &tmpl, c->err) < 0) {
        cJSON_Delete(probe);
        free(owned);
        return rewrite_error(c->err, w->ns, w->name, "spec.template");
    }
    for (i = 0; i < c->s->nnodes; i++)
        nodes += daemon_should_run(&tmpl, c->s->nodes[i]);
    ro = kp_rollout_new(c->s, KP_ROLLOUT_DAEMONSET, "DaemonSet", w->ns,
                        w->name, w->source, w->spec, owned, nowned, nodes,
                        c->err);
    if (!ro) {
        cJSON_Delete(probe);
        return -1;
    }
    for (i = 0; rc == 0 && i < c->s->nnodes; i++) {
        const struct kp_node *n = c->s->nodes[i];
        const struct kp_pod *old = NULL;
        char base[600], name[640];
        cJSON *pod;

        if (!daemon_should_run(&tmpl, n))
            continue;
        for (k = 0; k < ro->nold && !old; k++)
            if (ro->old[k].node == n->index)
                old = ro->old[k].pod;
        rc = name_of(base, sizeof(base), c->err, "%s-%s", w->name, n->name);
        if (rc < 0 || (rc = free_name(c, w->ns, base, name,
                                      sizeof(name))) < 0)
            break;
        pod = cJSON_Duplicate(probe, 1);
        set_string(object_member(pod, "metadata"), "name", name);
        pin_to_node(pod, n->name);
        rc = add_from_template(c, w, pod, name);
        if (rc == 0)
            kp_rollout_add_pod(c->s, ro, last_pod(c), old, -1, n->index);
    }
    cJSON_Delete(probe);
    return rc;
}

static int
add_rollout(struct add_ctx *c, const struct workload *w,
            enum kp_rollout_kind kind, const struct kp_pod **owned,
            size_t nowned)
{
    struct kp_rollout *ro;

    if (kind == KP_ROLLOUT_DAEMONSET)
        return rollout_daemonset(c, w, owned, nowned);
    ro = kp_rollout_new(c->s, kind, w->kind, w->ns, w->name, w->source,
                        w->spec, owned, nowned, 0, c->err);
    if (!ro)
        return -1;
    if (kind == KP_ROLLOUT_STATEFULSET)
        return rollout_statefulset(c, w, ro);
    return rollout_replicated(c, w, ro);
}

static const struct {
    const char *kind;
    int (*add)(struct add_ctx *c, const struct workload *w);
} workloads[] = {
    {"Deployment", add_replicated},
    {"ReplicaSet", add_replicated},
    {"ReplicationController", add_replicated},
    {"StatefulSet", add_statefulset},
    {"Job", add_job},
    {"CronJob", add_cronjob},
    {"DaemonSet", add_daemonset},
};

/* CronJob: spec.jobTemplate.spec stands for the Job's spec. */
static int
job_template_of(struct workload *w, struct kp_error *err)
{
    const cJSON *jt;

    w->cron_spec = w->spec;
    if (kp_json_obj(w->spec, "jobTemplate", &jt, err) < 0)
        return kp_error_path(err, "spec");
    if (!jt)
        return kp_errorf(err, KP_EXIT_ERROR, "spec.jobTemplate: missing");
    if (kp_json_obj(jt, "spec", &w->spec, err) < 0)
        return kp_error_path(err, "spec.jobTemplate");
    if (!w->spec)
        return kp_errorf(err, KP_EXIT_ERROR, "spec.jobTemplate.spec: "
                         "missing");
    w->tmpl_path = "spec.jobTemplate.spec.template";
    w->spec_path = "spec.jobTemplate.spec";
    return 0;
}

/* spec and spec.template, which every workload kind needs. */
static int
template_of(struct workload *w, struct kp_error *err)
{
    const cJSON *tmd, *tspec;
    const char *tp;

    if (kp_json_obj(w->obj, "spec", &w->spec, err) < 0)
        return -1;
    if (!w->spec)
        return kp_errorf(err, KP_EXIT_ERROR, "spec: missing");
    if (strcmp(w->kind, "CronJob") == 0 && job_template_of(w, err) < 0)
        return -1;
    tp = w->tmpl_path ? w->tmpl_path : "spec.template";
    if (kp_json_obj(w->spec, "template", &w->tmpl, err) < 0)
        return kp_error_path(err, "%.*s", (int)(strlen(tp) - 9), tp);
    if (!w->tmpl)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: missing", tp);
    if (kp_json_obj(w->tmpl, "metadata", &tmd, err) < 0 ||
        kp_json_obj(w->tmpl, "spec", &tspec, err) < 0)
        return kp_error_path(err, "%s", tp);
    if (!tspec)
        return kp_errorf(err, KP_EXIT_ERROR, "%s.spec: missing", tp);
    return 0;
}

/*
 * Where an object of a kind --add does not know keeps a pod template
 * (spec.template, spec.jobTemplate.spec.template), or NULL: such an
 * object would make pods that cannot be made here.
 */
static const char *
pod_template_path(const cJSON *obj)
{
    const cJSON *spec = kp_json_get(obj, "spec");
    const cJSON *jt = kp_json_get(kp_json_get(spec, "jobTemplate"), "spec");

    if (cJSON_IsObject(kp_json_get(spec, "template")))
        return "spec.template";
    if (cJSON_IsObject(kp_json_get(jt, "template")))
        return "spec.jobTemplate.spec.template";
    return NULL;
}

/* An object that makes no pods: counted, and its kind named once. */
static void
ignore_kind(struct add_ctx *c, const char *kind)
{
    char *k = c->ignored_kinds;
    size_t n = strlen(k), kl = strlen(kind);
    const char *p;

    c->nignored++;
    for (p = k; (p = strstr(p, kind)) != NULL; p += kl)
        if ((p == k || p[-1] == ' ') && (p[kl] == ',' || !p[kl]))
            return;
    if (n + kl + 8 < sizeof(c->ignored_kinds))
        snprintf(k + n, sizeof(c->ignored_kinds) - n, "%s%s", n ? ", " : "",
                 kind);
    else if (n + 6 < sizeof(c->ignored_kinds) && !strstr(k, "..."))
        snprintf(k + n, sizeof(c->ignored_kinds) - n, ", ...");
}

static void
lower(const char *kind, char *buf, size_t n)
{
    size_t i;

    for (i = 0; kind[i] && i + 1 < n; i++)
        buf[i] = (char)(kind[i] >= 'A' && kind[i] <= 'Z' ? kind[i] + 32
                                                         : kind[i]);
    buf[i] = '\0';
}

/* Name and namespace of a Pod or workload; "what" for messages. */
static int
identify(struct add_ctx *c, const cJSON *obj, const char *kind,
         const char **ns, const char **name, char *what, size_t n)
{
    const cJSON *md;
    char lk[64];

    lower(kind, lk, sizeof(lk));
    if (kp_json_obj(obj, "metadata", &md, c->err) < 0 ||
        kp_json_istr(&c->s->arena, md, "name", name, c->err) < 0 ||
        kp_json_istr(&c->s->arena, md, "namespace", ns, c->err) < 0) {
        snprintf(what, n, "%s", lk);
        return kp_error_path(c->err, "metadata");
    }
    if (!*ns || !(*ns)[0])
        *ns = c->default_ns;
    if (!*name || !(*name)[0]) {
        snprintf(what, n, "%s with no name", lk);
        return kp_errorf(c->err, KP_EXIT_ERROR, "metadata.name: missing");
    }
    snprintf(what, n, "%s '%s/%s'", lk, *ns, *name);
    return 0;
}

static int
add_priority_class(struct add_ctx *c, const cJSON *obj, const char *source)
{
    const cJSON *name = kp_json_get(kp_json_get(obj, "metadata"), "name");

    /* one the cluster already has: applying it changes nothing we read */
    if (cJSON_IsString(name) &&
        kp_strmap_get(&c->s->pc_index, name->valuestring))
        return 0;
    return kp_snapshot_add_object(c->s, obj, "PriorityClass", source,
                                  c->err);
}

static int
add_one(struct add_ctx *c, const cJSON *obj, const char *kind,
        const char *source)
{
    struct workload w;
    char what[700], full[1024];
    size_t i;

    if (strcmp(kind, "PriorityClass") == 0)
        return add_priority_class(c, obj, source);
    for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
        if (strcmp(kind, workloads[i].kind) == 0)
            break;
    memset(&w, 0, sizeof(w));
    w.obj = obj;
    w.kind = kind;
    if (i == sizeof(workloads) / sizeof(workloads[0]) &&
        strcmp(kind, "Pod") != 0) {
        const char *tp = pod_template_path(obj);

        if (!tp) {
            ignore_kind(c, kind);
            return 0;
        }
        if (identify(c, obj, kind, &w.ns, &w.name, what, sizeof(what)) < 0)
            return kp_error_prefix(c->err, "%s", what);
        return kp_errorf(c->err, KP_EXIT_ERROR, "%s: %s: kind %s is not "
                         "supported by --add: the pods it would make cannot "
                         "be made (supported: Pod, Deployment, ReplicaSet, "
                         "ReplicationController, StatefulSet, Job, CronJob, "
                         "DaemonSet)", what, tp, kind);
    }
    if (identify(c, obj, kind, &w.ns, &w.name, what, sizeof(what)) < 0)
        return kp_error_prefix(c->err, "%s", what);
    snprintf(full, sizeof(full), "%s: %s", source, what);
    w.source = kp_arena_intern(&c->s->arena, full);
    if (strcmp(kind, "Pod") == 0) {
        if (add_pod(c, obj, w.ns, w.name, source) < 0)
            return kp_error_prefix(c->err, "%s", what);
        return 0;
    }
    if (template_of(&w, c->err) < 0)
        return kp_error_prefix(c->err, "%s", what);
    /* one that already runs: an update, rolled out (rollout.h) */
    if (kp_rollout_kind_of(kind) >= 0) {
        const struct kp_pod **owned;
        enum kp_rollout_kind rk = (enum kp_rollout_kind)kp_rollout_kind_of(kind);
        size_t n = kp_rollout_owned(c->s, rk, w.ns, w.name, &owned);

        if (n > 0)
            return add_rollout(c, &w, rk, owned, n) < 0 ?
                   kp_error_prefix(c->err, "%s", what) : 0;
    }
    if (workloads[i].add(c, &w) < 0)
        return kp_error_prefix(c->err, "%s", what);
    return 0;
}

/* One document: an object, or a List of objects. */
static int
add_document(struct add_ctx *c, const cJSON *doc)
{
    const cJSON *kind, *items, *it;
    char source[600];
    long i = 0;

    snprintf(source, sizeof(source), "%s: document %zu", c->file, c->doc);
    if (!cJSON_IsObject(doc))
        return kp_errorf(c->err, KP_EXIT_ERROR, "expected a Kubernetes "
                         "object");
    if (kp_json_validate(doc, KP_MAX_JSON_DEPTH + 2, c->err) < 0)
        return -1;
    kind = kp_json_get(doc, "kind");
    if (!cJSON_IsString(kind) || !kind->valuestring[0])
        return kp_errorf(c->err, KP_EXIT_ERROR, kind ? "kind: expected a "
                         "string" : "kind: missing");
    if (strcmp(kind->valuestring, "List") != 0)
        return add_one(c, doc, kind->valuestring,
                       kp_arena_intern(&c->s->arena, source));
    if (kp_json_arr(doc, "items", &items, c->err) < 0)
        return -1;
    cJSON_ArrayForEach(it, items) {
        const cJSON *k = kp_json_get(it, "kind");
        char src[700];

        snprintf(src, sizeof(src), "%s: items[%ld]", source, i);
        if (!cJSON_IsObject(it) || !cJSON_IsString(k))
            return kp_errorf(c->err, KP_EXIT_ERROR, "items[%ld]: %s", i,
                             cJSON_IsObject(it) ? "kind: missing"
                                                : "expected an object");
        if (add_one(c, it, k->valuestring,
                    kp_arena_intern(&c->s->arena, src)) < 0)
            return kp_error_prefix(c->err, "items[%ld]", i);
        i++;
    }
    return 0;
}

/* Control characters in quoted input become \xNN: one line on stderr. */
static int
one_line(struct kp_error *err)
{
    char out[sizeof(err->msg)];
    size_t i, o = 0;

    for (i = 0; err->msg[i] && o + 5 < sizeof(out); i++) {
        unsigned char ch = (unsigned char)err->msg[i];

        if (ch < 0x20 || ch == 0x7F)
            o += (size_t)snprintf(out + o, sizeof(out) - o, "\\x%02X", ch);
        else
            out[o++] = (char)ch;
    }
    out[o] = '\0';
    memcpy(err->msg, out, o + 1);
    return -1;
}

static int64_t
latest_creation(const struct kp_snapshot *s)
{
    int64_t t = 0;
    size_t i;

    for (i = 0; i < s->npods; i++)
        if (s->pods[i]->creation_time > t)
            t = s->pods[i]->creation_time;
    return t;
}

int
kp_snapshot_add_manifests(struct kp_snapshot *s, const char *path,
                          const char *default_ns, struct kp_error *err)
{
    struct add_ctx c;
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    size_t len;
    char *buf = read_input(path, name, &len, err);
    cJSON *docs, *doc;

    if (!buf)
        return -1;
    docs = parse_docs(buf, len, err);
    free(buf);
    if (!docs) {
        kp_error_prefix(err, "%s", name);
        return one_line(err);
    }
    memset(&c, 0, sizeof(c));
    c.s = s;
    c.file = kp_arena_intern(&s->arena, name);
    c.default_ns = default_ns && default_ns[0] ? default_ns : "default";
    c.next_time = latest_creation(s) + NS_PER_SEC;
    c.err = err;
    cJSON_ArrayForEach(doc, docs) {
        c.doc++;
        if (cJSON_IsNull(doc))
            continue;
        if (add_document(&c, doc) < 0) {
            cJSON_Delete(docs);
            kp_error_prefix(err, "%s: document %zu", name, c.doc);
            return one_line(err);
        }
    }
    cJSON_Delete(docs);
    if (c.nignored)
        kp_snapshot_warn(s, "%s: ignored %zu object(s) that make no pods "
                         "(%s)", name, c.nignored, c.ignored_kinds);
    return 0;
}
