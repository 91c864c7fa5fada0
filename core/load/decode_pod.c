/*
 * decode_pod.c - Pod JSON into struct kp_pod.
 *
 * The effective request mirrors component-helpers/resource/helpers.go
 * (PodRequests): containers summed, init containers with restartable
 * sidecars, the max of both, pod-level requests, plus overhead.  Missing
 * requests default to limits, as API defaulting does.  All of it on the
 * quantities (Quantity.Add, maxResourceList: kp_quantity_add/max), each
 * total read once as the release replayed reads it (tmp_to_resvec).
 */
#include <stdlib.h>
#include <string.h>

#include "decode_score.h"
#include "json_util.h"
#include "quantity.h"
#include "snapshot.h"
#include "snapshot_load.h"
#include "toleration_index.h"

#define TMP_MAX 64

/*
 * Requests per resource as quantities: component-helpers sums and maxes
 * Quantities (exactly, in their int64Amount or inf.Dec form) and the
 * scheduler reads each total once (kp_quantity_read, tmp_to_resvec).
 */
struct tmp_entry {
    int id;
    struct kp_quantity q;
};

struct tmpvec {
    size_t n;
    bool overflow;      /* a resource past TMP_MAX: the pod is refused */
    struct tmp_entry e[TMP_MAX];
};

static struct kp_quantity *
tmp_slot(struct tmpvec *v, int id)
{
    size_t i;

    for (i = 0; i < v->n; i++)
        if (v->e[i].id == id)
            return &v->e[i].q;
    if (v->n == TMP_MAX) {
        v->overflow = true;
        return NULL;
    }
    v->e[v->n].id = id;
    memset(&v->e[v->n].q, 0, sizeof(v->e[v->n].q));
    return &v->e[v->n++].q;
}

/* the quantity of id, NULL when absent (or zero) */
static const struct kp_quantity *
tmp_get(const struct tmpvec *v, int id)
{
    size_t i;

    for (i = 0; i < v->n; i++)
        if (v->e[i].id == id)
            return v->e[i].q.nano ? &v->e[i].q : NULL;
    return NULL;
}

/* addResourceList */
static void
tmp_add_q(struct tmpvec *acc, const struct kp_res_quantity *v, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        struct kp_quantity *s = tmp_slot(acc, v[i].id);

        if (s)
            kp_quantity_add(s, &v[i].q);
    }
}

static void
tmp_add_tmp(struct tmpvec *acc, const struct tmpvec *v)
{
    size_t i;

    for (i = 0; i < v->n; i++) {
        struct kp_quantity *s = tmp_slot(acc, v->e[i].id);

        if (s)
            kp_quantity_add(s, &v->e[i].q);
    }
}

/* maxResourceList(acc, v) */
static void
tmp_max(struct tmpvec *acc, const struct tmpvec *v)
{
    size_t i;

    for (i = 0; i < v->n; i++) {
        struct kp_quantity *s = tmp_slot(acc, v->e[i].id);

        if (s)
            kp_quantity_max(s, &v->e[i].q);
    }
}

static int
cmp_entry(const void *a, const void *b)
{
    const struct kp_res_entry *x = a, *y = b;

    return (x->id > y->id) - (x->id < y->id);
}

/* the totals as the scheduler reads them (framework.Resource) */
static void
tmp_to_resvec(struct kp_snapshot *s, const struct tmpvec *t,
              struct kp_resvec *out)
{
    struct kp_res_entry e[TMP_MAX];
    size_t i, n = 0;

    for (i = 0; i < t->n; i++) {
        int64_t v;

        if (t->e[i].id == KP_RES_PODS)
            continue;
        v = kp_quantity_read(s, t->e[i].id, &t->e[i].q);
        if (v == 0)
            continue;
        e[n].id = t->e[i].id;
        e[n].value = v;
        n++;
    }
    qsort(e, n, sizeof(e[0]), cmp_entry);
    out->n = n;
    out->e = kp_arena_memdup(&s->arena, e, n * sizeof(e[0]));
}

/* requests, with limits standing in for missing requests */
static int
container_requests(struct kp_snapshot *s, const cJSON *c, struct tmpvec *out,
                   struct kp_error *err)
{
    const cJSON *res, *req, *lim;
    struct kp_res_quantity rv[TMP_MAX], lv[TMP_MAX];
    size_t nr, nl, i;

    out->n = 0;
    out->overflow = false;
    if (kp_json_obj(c, "resources", &res, err) < 0)
        return -1;
    if (kp_json_obj(res, "requests", &req, err) < 0 ||
        kp_json_obj(res, "limits", &lim, err) < 0)
        return kp_error_path(err, "resources");
    if (kp_decode_quantities(s, req, rv, TMP_MAX, &nr, err) < 0)
        return kp_error_path(err, "resources.requests");
    if (kp_decode_quantities(s, lim, lv, TMP_MAX, &nl, err) < 0)
        return kp_error_path(err, "resources.limits");
    tmp_add_q(out, rv, nr);
    for (i = 0; i < nl; i++) {
        const char *name = s->res_names[lv[i].id];

        if (!kp_json_get(req, name)) {
            struct kp_quantity *slot = tmp_slot(out, lv[i].id);

            if (slot)
                *slot = lv[i].q;
        }
    }
    return 0;
}

/* the pod's host ports so far, grown as they come (every one is kept) */
struct port_buf {
    struct kp_host_port *e;
    size_t cap;
};

static int
decode_ports(struct kp_snapshot *s, const cJSON *c, struct kp_pod *p,
             struct port_buf *buf, struct kp_error *err)
{
    const cJSON *ports, *it;
    size_t i = 0;

    if (kp_json_arr(c, "ports", &ports, err) < 0)
        return -1;
    cJSON_ArrayForEach(it, ports) {
        struct kp_host_port hp;
        int64_t v;

        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "ports[%zu]: expected an object", i);
        if (kp_json_int(it, "hostPort", 0, 65535, &v, NULL, err) < 0 ||
            kp_json_istr(&s->arena, it, "hostIP", &hp.ip, err) < 0 ||
            kp_json_istr(&s->arena, it, "protocol", &hp.protocol, err) < 0)
            return kp_error_path(err, "ports[%zu]", i);
        i++;
        if (v <= 0)
            continue;
        hp.port = (int32_t)v;
        if (!hp.ip || !hp.ip[0])
            hp.ip = "0.0.0.0";
        if (!hp.protocol || !hp.protocol[0])
            hp.protocol = "TCP";
        if (p->nhost_ports == buf->cap) {
            buf->cap = buf->cap ? buf->cap * 2 : 8;
            buf->e = kp_xrealloc(buf->e, buf->cap * sizeof(*buf->e));
        }
        buf->e[p->nhost_ports++] = hp;
    }
    return 0;
}

struct containers_ctx {
    struct tmpvec sum, init_max, side, containers_only, spec_only;
    struct kp_nonzero nz;       /* scoring: decode_score.c */
    struct port_buf ports;
    const char **images;        /* grown as they come, every one kept */
    size_t capimages;
};

static int
decode_one_container(struct kp_snapshot *s, const cJSON *c, bool init,
                     struct kp_pod *p, struct containers_ctx *x,
                     struct kp_error *err)
{
    struct tmpvec r;
    const char *policy, *image;
    bool sidecar;

    if (!cJSON_IsObject(c))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    if (container_requests(s, c, &r, err) < 0 ||
        kp_json_istr(&s->arena, c, "restartPolicy", &policy, err) < 0 ||
        kp_json_istr(&s->arena, c, "image", &image, err) < 0)
        return -1;
    sidecar = init && policy && strcmp(policy, "Always") == 0;
    if ((!init || sidecar) && decode_ports(s, c, p, &x->ports, err) < 0)
        return -1;
    /* init containers come first: the sidecars' ports are a prefix */
    if (sidecar)
        p->nsidecar_host_ports = p->nhost_ports;
    /* scoring: ImageLocality reads every container, init ones included */
    if (image) {
        if (p->nimages == x->capimages) {
            x->capimages = x->capimages ? x->capimages * 2 : 8;
            x->images = kp_xrealloc(x->images,
                                    x->capimages * sizeof(*x->images));
        }
        x->images[p->nimages++] = image;
    }
    p->ncontainers++;
    kp_nonzero_container(&x->nz, c, init, sidecar, tmp_get(&r, KP_RES_CPU),
                         tmp_get(&r, KP_RES_MEMORY));
    if (!init) {
        tmp_add_tmp(&x->sum, &r);
    } else if (sidecar) {
        tmp_add_tmp(&x->sum, &r);
        tmp_add_tmp(&x->side, &r);
        tmp_max(&x->init_max, &x->side);
    } else {
        tmp_add_tmp(&r, &x->side);
        tmp_max(&x->init_max, &r);
    }
    return 0;
}

/*
 * In-place resize (InPlacePodVerticalScaling, on by default from v1.33):
 * component-helpers' AggregateContainerRequests with UseStatusResources
 * takes, resource by resource, the largest of three aggregates of the
 * containers (sidecar and init rules alike): their spec, what the kubelet
 * allocated (containerStatuses[].allocatedResources) and what it actuated
 * (containerStatuses[].resources.requests); each status part falls back
 * to the next one (actuated, allocated, spec) for a container that has
 * none.  While the resize is Infeasible (condition PodResizePending,
 * reason Infeasible) the spec is left out and has no fallback.
 */
static const cJSON *
container_status(const cJSON *status, const char *name)
{
    static const char *const keys[] = {"containerStatuses",
                                       "initContainerStatuses"};
    size_t k;

    for (k = 0; k < 2 && name; k++) {
        const cJSON *arr = kp_json_get(status, keys[k]), *cs;

        cJSON_ArrayForEach(cs, arr) {
            const cJSON *n = kp_json_get(cs, "name");

            if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
                return cs;
        }
    }
    return NULL;
}

/* whether any container status shows resources (the kubelet's, v1.33+) */
static bool
status_resources(const cJSON *status)
{
    static const char *const keys[] = {"containerStatuses",
                                       "initContainerStatuses"};
    size_t k;

    for (k = 0; k < 2; k++) {
        const cJSON *arr = kp_json_get(status, keys[k]), *cs;

        cJSON_ArrayForEach(cs, arr)
            if (kp_json_get(cs, "allocatedResources") ||
                kp_json_get(kp_json_get(cs, "resources"), "requests"))
                return true;
    }
    return false;
}

static bool
resize_infeasible(const cJSON *status)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, kp_json_get(status, "conditions")) {
        const cJSON *t = kp_json_get(c, "type"), *r = kp_json_get(c, "reason");

        if (cJSON_IsString(t) && strcmp(t->valuestring, "PodResizePending") == 0)
            return cJSON_IsString(r) &&
                   strcmp(r->valuestring, "Infeasible") == 0;
    }
    return false;
}

/* the same values (Quantity.Cmp == 0 for every resource) */
static bool
tmp_equal(const struct tmpvec *a, const struct tmpvec *b)
{
    size_t i, k;

    for (k = 0; k < 2; k++) {
        const struct tmpvec *x = k ? b : a, *y = k ? a : b;

        for (i = 0; i < x->n; i++) {
            const struct kp_quantity *q = tmp_get(y, x->e[i].id);

            if ((q ? q->nano : 0) != x->e[i].q.nano)
                return false;
        }
    }
    return true;
}

/* one container's part: allocated (actuated false) or actuated */
static int
status_part(struct kp_snapshot *s, const cJSON *c, const cJSON *status,
            bool actuated, bool infeasible, struct tmpvec *out,
            struct kp_error *err)
{
    const cJSON *name = kp_json_get(c, "name");
    const cJSON *cs = container_status(status, cJSON_IsString(name) ?
                                       name->valuestring : NULL);
    const cJSON *act = kp_json_get(kp_json_get(cs, "resources"), "requests");
    const cJSON *alloc = kp_json_get(cs, "allocatedResources");
    const cJSON *use = actuated && cJSON_IsObject(act) ? act :
                       cJSON_IsObject(alloc) ? alloc : NULL;
    struct kp_res_quantity rv[TMP_MAX];
    size_t nr;

    out->n = 0;
    out->overflow = false;
    if (!use)
        return infeasible ? 0 : container_requests(s, c, out, err);
    if (kp_decode_quantities(s, use, rv, TMP_MAX, &nr, err) < 0)
        return kp_error_path(err, "status %s of container %s", use == act ?
                             "resources.requests" : "allocatedResources",
                             cJSON_IsString(name) ? name->valuestring : "");
    tmp_add_q(out, rv, nr);
    return 0;
}

/* the containers' aggregate of one status part (aggregateContainer...) */
static int
status_aggregate(struct kp_snapshot *s, const cJSON *spec,
                 const cJSON *status, bool actuated, bool infeasible,
                 struct tmpvec *sum, struct kp_error *err)
{
    struct tmpvec r, side = {0}, init_max = {0};
    const cJSON *c;

    sum->n = 0;
    cJSON_ArrayForEach(c, kp_json_get(spec, "containers")) {
        if (status_part(s, c, status, actuated, infeasible, &r, err) < 0)
            return -1;
        tmp_add_tmp(sum, &r);
    }
    cJSON_ArrayForEach(c, kp_json_get(spec, "initContainers")) {
        const cJSON *policy = kp_json_get(c, "restartPolicy");

        if (status_part(s, c, status, actuated, infeasible, &r, err) < 0)
            return -1;
        if (cJSON_IsString(policy) &&
            strcmp(policy->valuestring, "Always") == 0) {
            tmp_add_tmp(sum, &r);
            tmp_add_tmp(&side, &r);
            tmp_max(&init_max, &side);
        } else {
            tmp_add_tmp(&r, &side);
            tmp_max(&init_max, &r);
        }
    }
    tmp_max(sum, &init_max);
    return 0;
}

/* x->sum: max(spec, actuated, allocated), or without spec if Infeasible */
static int
resized_requests(struct kp_snapshot *s, const cJSON *spec,
                 const cJSON *status, struct containers_ctx *x,
                 struct kp_error *err)
{
    bool infeasible = resize_infeasible(status);
    struct tmpvec act, alloc;

    if (status_aggregate(s, spec, status, true, infeasible, &act, err) < 0 ||
        status_aggregate(s, spec, status, false, infeasible, &alloc,
                         err) < 0)
        return -1;
    if (infeasible)
        x->sum.n = 0;
    tmp_max(&x->sum, &act);
    tmp_max(&x->sum, &alloc);
    return 0;
}

/*
 * A containers_ctx with its vectors empty: only their headers are set
 * (tmp_slot clears an entry when it takes it), not the 5 x TMP_MAX
 * quantities a calloc would clear for every pod.
 */
static struct containers_ctx *
new_containers_ctx(void)
{
    struct containers_ctx *x = kp_xmalloc(sizeof(*x));
    struct tmpvec *v[] = {&x->sum, &x->init_max, &x->side,
                          &x->containers_only, &x->spec_only};
    size_t i;

    for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        v[i]->n = 0;
        v[i]->overflow = false;
    }
    memset(&x->nz, 0, sizeof(x->nz));
    memset(&x->ports, 0, sizeof(x->ports));
    x->images = NULL;
    x->capimages = 0;
    return x;
}

static int
decode_containers_once(struct kp_snapshot *s, const cJSON *spec,
                       const cJSON *status, struct kp_pod *p,
                       struct kp_error *err)
{
    static const char *const keys[] = {"initContainers", "containers"};
    struct containers_ctx *x = new_containers_ctx();
    const cJSON *pod_res, *pod_req, *overhead;
    struct kp_res_quantity pod_q[TMP_MAX], over_q[TMP_MAX];
    const struct kp_quantity *pod_nz[2] = {NULL, NULL};
    const struct kp_quantity *over_nz[2] = {NULL, NULL};
    size_t k, i, npod = 0, nover = 0;
    bool pod_level = false, resized = false;
    int rc = -1;

    /* sidecars start before app containers: walk init containers first */
    for (k = 0; k < 2; k++) {
        const cJSON *arr, *c;

        if (kp_json_arr(spec, keys[k], &arr, err) < 0)
            goto out;
        i = 0;
        cJSON_ArrayForEach(c, arr) {
            if (decode_one_container(s, c, k == 0, p, x, err) < 0) {
                kp_error_path(err, "%s[%zu]", keys[k], i);
                goto out;
            }
            i++;
        }
    }
    tmp_max(&x->sum, &x->init_max);
    x->spec_only = x->sum;
    if (status_resources(status)) {
        if (resized_requests(s, spec, status, x, err) < 0)
            goto out;
        resized = !tmp_equal(&x->sum, &x->spec_only);
    }
    if (kp_json_obj(spec, "resources", &pod_res, err) < 0 ||
        kp_json_obj(pod_res, "requests", &pod_req, err) < 0 ||
        kp_decode_quantities(s, pod_req, pod_q, TMP_MAX, &npod, err) < 0) {
        kp_error_path(err, "resources.requests");
        goto out;
    }
    x->containers_only = x->sum;
    for (i = 0; i < npod; i++) {
        const char *name = s->res_names[pod_q[i].id];

        /* IsSupportedPodLevelResource */
        if (pod_q[i].id == KP_RES_CPU || pod_q[i].id == KP_RES_MEMORY ||
            strncmp(name, "hugepages-", 10) == 0) {
            struct kp_quantity *slot = tmp_slot(&x->sum, pod_q[i].id);

            if (slot)
                *slot = pod_q[i].q;
            pod_level = true;
        }
        if (pod_q[i].id == KP_RES_CPU || pod_q[i].id == KP_RES_MEMORY)
            pod_nz[pod_q[i].id == KP_RES_MEMORY] = &pod_q[i].q;
    }
    if (kp_json_obj(spec, "overhead", &overhead, err) < 0 ||
        kp_decode_quantities(s, overhead, over_q, TMP_MAX, &nover,
                             err) < 0) {
        kp_error_path(err, "overhead");
        goto out;
    }
    for (i = 0; i < nover; i++)
        if (over_q[i].id == KP_RES_CPU || over_q[i].id == KP_RES_MEMORY)
            over_nz[over_q[i].id == KP_RES_MEMORY] = &over_q[i].q;
    tmp_add_q(&x->sum, over_q, nover);
    tmp_add_q(&x->containers_only, over_q, nover);
    tmp_add_q(&x->spec_only, over_q, nover);
    /* never a resource dropped: more than TMP_MAX is refused */
    if (x->sum.overflow || x->containers_only.overflow ||
        x->spec_only.overflow) {
        kp_errorf(err, KP_EXIT_ERROR, "containers: the pod requests "
                  "more than %d distinct resources (not supported)",
                  TMP_MAX);
        goto out;
    }
    tmp_to_resvec(s, &x->sum, &p->req);
    if (pod_level || resized) {
        /* without PodLevelResources (before v1.34): the containers' */
        struct kp_pod_requests *w = kp_arena_alloc(&s->arena, sizeof(*w));

        kp_nonzero_finish(s, p, &x->nz, NULL, pod_nz, over_nz);
        w->nonzero_cpu = p->nonzero_cpu;
        w->nonzero_mem = p->nonzero_mem;
        tmp_to_resvec(s, &x->containers_only, &w->req);
        p->before_134 = w;
        if (resized) {
            /* without InPlacePodVerticalScaling (before v1.33): spec */
            struct kp_pod_requests *w2 = kp_arena_alloc(&s->arena,
                                                        sizeof(*w2));

            *w2 = *w;
            tmp_to_resvec(s, &x->spec_only, &w2->req);
            p->before_133 = w2;
        }
    }
    kp_nonzero_finish(s, p, &x->nz, pod_req, pod_nz, over_nz);
    p->host_ports = kp_arena_memdup(&s->arena, x->ports.e,
                                    p->nhost_ports * sizeof(*x->ports.e));
    p->images = kp_arena_memdup(&s->arena, x->images,
                                p->nimages * sizeof(char *));
    rc = 0;
out:
    free(x->ports.e);
    free(x->images);
    free(x);
    return rc;
}

/*
 * The containers as 1.31-1.37 read them (a quantity past int64 wraps or
 * gives 0 in Value() and MilliValue()) and, when a quantity reads
 * otherwise in v1.38 (it saturates there, kubernetes/kubernetes#141305),
 * that reading's requests as well, in p->from_138.
 */
static int
decode_containers(struct kp_snapshot *s, const cJSON *spec,
                  const cJSON *status, struct kp_pod *p,
                  struct kp_error *err)
{
    struct kp_pod keep;
    struct kp_pod_requests *w;
    int rc;

    s->quantity_wraps = false;
    if (decode_containers_once(s, spec, status, p, err) < 0)
        return -1;
    if (!s->quantity_wraps)
        return 0;
    keep = *p;
    p->nhost_ports = p->nimages = p->ncontainers = 0;
    p->nsidecar_host_ports = 0;
    s->quantity_saturate = true;
    rc = decode_containers_once(s, spec, status, p, err);
    s->quantity_saturate = false;
    w = kp_arena_alloc(&s->arena, sizeof(*w));
    w->req = p->req;
    w->nonzero_cpu = p->nonzero_cpu;
    w->nonzero_mem = p->nonzero_mem;
    *p = keep;
    if (rc < 0)
        return -1;
    p->from_138 = w;
    return 0;
}

static int
decode_tolerations(struct kp_snapshot *s, const cJSON *spec,
                   struct kp_pod *p, struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    if (kp_json_arr(spec, "tolerations", &arr, err) < 0)
        return -1;
    if (!arr)
        return 0;
    p->tolerations = kp_arena_alloc(&s->arena, sizeof(*p->tolerations) *
                                    (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(it, arr) {
        struct kp_toleration *t = &p->tolerations[i];
        const char *op;

        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "tolerations[%zu]: expected an object", i);
        if (kp_json_istr(&s->arena, it, "key", &t->key, err) < 0 ||
            kp_json_istr(&s->arena, it, "operator", &op, err) < 0 ||
            kp_json_istr(&s->arena, it, "value", &t->value, err) < 0 ||
            kp_json_istr(&s->arena, it, "effect", &t->effect, err) < 0)
            return kp_error_path(err, "tolerations[%zu]", i);
        if (!op || !op[0] || strcmp(op, "Equal") == 0)
            t->op = KP_TOL_EQUAL;
        else if (strcmp(op, "Exists") == 0)
            t->op = KP_TOL_EXISTS;
        else if (strcmp(op, "Lt") == 0 || strcmp(op, "Gt") == 0)
            t->op = KP_TOL_OTHER;
        else
            return kp_errorf(err, KP_EXIT_ERROR, "tolerations[%zu].operator:"
                             " unsupported value '%s'", i, op);
        if (!t->key)
            t->key = "";
        if (!t->value)
            t->value = "";
        if (!t->effect)
            t->effect = "";
        i++;
    }
    p->ntolerations = i;
    p->tol_index = kp_tol_index_build(&s->arena, p->tolerations, i);
    return 0;
}

/*
 * The API server refuses a NodeSelectorRequirement whose operator is not
 * one of these; kube-scheduler would only fail to match its term.  An
 * invalid key or value stays a term that matches nothing (labels.c).
 */
static int
check_reqs_ops(const cJSON *term, const char *key, struct kp_error *err)
{
    static const char *const ops[] = {"In", "NotIn", "Exists",
                                      "DoesNotExist", "Gt", "Lt"};
    const cJSON *arr = kp_json_get(term, key), *it;
    size_t i = 0, k;

    if (!cJSON_IsArray(arr))
        return 0;               /* a wrong type is labels.c's to report */
    for (it = arr->child; it; it = it->next, i++) {
        const cJSON *op = kp_json_get(it, "operator");

        if (!cJSON_IsObject(it) || (op && !cJSON_IsString(op)))
            continue;
        for (k = 0; op && k < sizeof(ops) / sizeof(ops[0]); k++)
            if (strcmp(op->valuestring, ops[k]) == 0)
                break;
        if (!op || k == sizeof(ops) / sizeof(ops[0]))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "%s[%zu].operator: unknown operator '%s'", key,
                             i, op ? op->valuestring : "");
    }
    return 0;
}

static int
check_term_ops(const cJSON *term, struct kp_error *err)
{
    if (check_reqs_ops(term, "matchExpressions", err) < 0 ||
        check_reqs_ops(term, "matchFields", err) < 0)
        return -1;
    return 0;
}

/* Every term of a NodeSelector. */
static int
check_selector_ops(const cJSON *sel, struct kp_error *err)
{
    const cJSON *terms = kp_json_get(sel, "nodeSelectorTerms"), *it;
    size_t i = 0;

    if (!cJSON_IsArray(terms))
        return 0;
    for (it = terms->child; it; it = it->next, i++)
        if (check_term_ops(it, err) < 0)
            return kp_error_path(err, "nodeSelectorTerms[%zu]", i);
    return 0;
}

static int
decode_preferred_node_affinity(struct kp_snapshot *s, const cJSON *na,
                               struct kp_pod *p, struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0, n;

    if (kp_json_arr(na, "preferredDuringSchedulingIgnoredDuringExecution",
                    &arr, err) < 0)
        return -1;
    if (!arr)
        return 0;
    n = (size_t)cJSON_GetArraySize(arr);
    p->preferred_node_affinity = kp_arena_alloc(&s->arena,
        n * sizeof(*p->preferred_node_affinity));
    p->preferred_node_affinity_weight = kp_arena_alloc(&s->arena,
        n * sizeof(int32_t));
    for (it = arr->child; it; it = it->next, i++) {
        cJSON *wrap;
        cJSON *terms;
        const cJSON *pref;
        struct kp_node_selector ns;
        int64_t w;
        int rc;

        pref = NULL;
        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR, "preferredDuringScheduling"
                             "IgnoredDuringExecution[%zu]: expected an "
                             "object", i);
        if (kp_json_int(it, "weight", 0, 100, &w, NULL, err) < 0 ||
            kp_json_obj(it, "preference", &pref, err) < 0 ||
            (pref && check_term_ops(pref, err) < 0))
            return kp_error_path(err, "preferredDuringSchedulingIgnored"
                                 "DuringExecution[%zu]%s", i,
                                 pref ? ".preference" : "");
        wrap = cJSON_CreateObject();
        terms = cJSON_AddArrayToObject(wrap, "nodeSelectorTerms");
        cJSON_AddItemReferenceToArray(terms, (cJSON *)(pref ? pref :
                                              cJSON_GetArrayItem(terms, 0)));
        rc = pref ? kp_node_selector_from_json(&s->arena, wrap, &ns, err) : 0;
        cJSON_Delete(wrap);
        if (rc < 0) {
            /* the path is the wrapper's: drop "nodeSelectorTerms[0]" */
            static const char wrapped[] = "nodeSelectorTerms[0].";
            size_t wl = sizeof(wrapped) - 1;

            if (strncmp(err->msg, wrapped, wl) == 0)
                memmove(err->msg, err->msg + wl, strlen(err->msg) - wl + 1);
            return kp_error_path(err, "preferredDuringSchedulingIgnored"
                                 "DuringExecution[%zu].preference", i);
        }
        if (!pref || ns.nterms != 1)
            continue;
        p->preferred_node_affinity[p->npreferred_node_affinity] =
            ns.terms[0];
        p->preferred_node_affinity_weight[p->npreferred_node_affinity++] =
            (int32_t)w;
    }
    return 0;
}

static int
decode_affinity_terms(struct kp_snapshot *s, const cJSON *obj,
                      const char *key, bool weighted, size_t *n,
                      struct kp_affinity_term **out, struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    *n = 0;
    if (kp_json_arr(obj, key, &arr, err) < 0)
        return -1;
    if (!arr)
        return 0;
    *out = kp_arena_alloc(&s->arena, sizeof(**out) *
                          (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(it, arr) {
        struct kp_affinity_term *t = &(*out)[i];
        const cJSON *term = it, *nss;
        int64_t w = 0;

        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "%s[%zu]: expected an object", key, i);
        if (weighted && (kp_json_int(it, "weight", 1, 100, &w, NULL,
                                     err) < 0 ||
                         kp_json_obj(it, "podAffinityTerm", &term, err) < 0))
            return kp_error_path(err, "%s[%zu]", key, i);
        t->weight = (int32_t)w;
        if (kp_selector_from_json(&s->arena,
                                  kp_json_get(term, "labelSelector"),
                                  &t->selector, err) < 0) {
            kp_error_path(err, "labelSelector");
            return kp_error_path(err, "%s[%zu]", key, i);
        }
        nss = kp_json_get(term, "namespaceSelector");
        t->has_ns_selector = nss != NULL;
        if ((nss && kp_selector_from_json(&s->arena, nss, &t->ns_selector,
                                          err) < 0) ||
            kp_json_str_array(&s->arena, term, "namespaces", &t->nnamespaces,
                              &t->namespaces, err) < 0 ||
            kp_json_istr(&s->arena, term, "topologyKey", &t->topology_key,
                         err) < 0)
            return kp_error_path(err, "%s[%zu]", key, i);
        if (!t->topology_key)
            t->topology_key = "";
        i++;
    }
    *n = i;
    return 0;
}

static int
decode_pod_affinity(struct kp_snapshot *s, const cJSON *aff,
                    struct kp_pod *p, struct kp_error *err)
{
    const cJSON *pa, *paa;
    static const char req[] = "requiredDuringSchedulingIgnoredDuringExecution";
    static const char pref[] =
        "preferredDuringSchedulingIgnoredDuringExecution";

    if (kp_json_obj(aff, "podAffinity", &pa, err) < 0 ||
        kp_json_obj(aff, "podAntiAffinity", &paa, err) < 0)
        return -1;
    if (decode_affinity_terms(s, pa, req, false, &p->naffinity,
                              &p->affinity, err) < 0 ||
        decode_affinity_terms(s, pa, pref, true, &p->npref_affinity,
                              &p->pref_affinity, err) < 0)
        return kp_error_path(err, "podAffinity");
    if (decode_affinity_terms(s, paa, req, false, &p->nanti_affinity,
                              &p->anti_affinity, err) < 0 ||
        decode_affinity_terms(s, paa, pref, true, &p->npref_anti_affinity,
                              &p->pref_anti_affinity, err) < 0)
        return kp_error_path(err, "podAntiAffinity");
    return 0;
}

static int
decode_affinity(struct kp_snapshot *s, const cJSON *spec, struct kp_pod *p,
                struct kp_error *err)
{
    const cJSON *aff, *na;

    p->required_node_affinity.is_null = true;
    if (kp_json_obj(spec, "affinity", &aff, err) < 0)
        return -1;
    if (!aff)
        return 0;
    if (kp_json_obj(aff, "nodeAffinity", &na, err) < 0)
        return kp_error_path(err, "affinity");
    if (na) {
        const cJSON *req = kp_json_get(na, "requiredDuringScheduling"
                                       "IgnoredDuringExecution");

        if (req && (check_selector_ops(req, err) < 0 ||
                    kp_node_selector_from_json(&s->arena, req,
                                               &p->required_node_affinity,
                                               err) < 0))
            return kp_error_path(err, "affinity.nodeAffinity."
                                 "requiredDuringSchedulingIgnoredDuring"
                                 "Execution");
        if (!req)
            p->required_node_affinity.is_null = true;
        if (decode_preferred_node_affinity(s, na, p, err) < 0)
            return kp_error_path(err, "affinity.nodeAffinity");
    }
    if (decode_pod_affinity(s, aff, p, err) < 0)
        return kp_error_path(err, "affinity");
    return 0;
}

static int
decode_one_spread(struct kp_snapshot *s, const cJSON *it,
                  struct kp_spread_constraint *c, struct kp_error *err)
{
    const char *when, *nap, *ntp;
    int64_t v;
    bool set;

    if (!cJSON_IsObject(it))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    if (kp_json_int(it, "maxSkew", 1, INT32_MAX, &v, &set, err) < 0)
        return -1;
    if (!set)
        return kp_errorf(err, KP_EXIT_ERROR, "maxSkew: missing");
    c->max_skew = (int32_t)v;
    if (kp_json_int(it, "minDomains", 1, INT32_MAX, &v, NULL, err) < 0)
        return -1;
    c->min_domains = (int32_t)v;
    if (kp_json_istr(&s->arena, it, "topologyKey", &c->topology_key,
                     err) < 0 ||
        kp_json_istr(&s->arena, it, "whenUnsatisfiable", &when, err) < 0 ||
        kp_json_istr(&s->arena, it, "nodeAffinityPolicy", &nap, err) < 0 ||
        kp_json_istr(&s->arena, it, "nodeTaintsPolicy", &ntp, err) < 0 ||
        kp_json_str_array(&s->arena, it, "matchLabelKeys",
                          &c->nmatch_label_keys, &c->match_label_keys,
                          err) < 0)
        return -1;
    if (!c->topology_key || !c->topology_key[0])
        return kp_errorf(err, KP_EXIT_ERROR, "topologyKey: missing");
    if (!when || (strcmp(when, "DoNotSchedule") != 0 &&
                  strcmp(when, "ScheduleAnyway") != 0))
        return kp_errorf(err, KP_EXIT_ERROR, "whenUnsatisfiable: "
                         "unsupported value '%s'", when ? when : "");
    c->do_not_schedule = strcmp(when, "DoNotSchedule") == 0;
    c->affinity_policy_ignore = nap && strcmp(nap, "Ignore") == 0;
    c->taints_policy_honor = ntp && strcmp(ntp, "Honor") == 0;
    if (kp_selector_from_json(&s->arena, kp_json_get(it, "labelSelector"),
                              &c->selector, err) < 0)
        return kp_error_path(err, "labelSelector");
    return 0;
}

static int
decode_spread(struct kp_snapshot *s, const cJSON *spec, struct kp_pod *p,
              struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    if (kp_json_arr(spec, "topologySpreadConstraints", &arr, err) < 0)
        return -1;
    if (!arr)
        return 0;
    p->spread = kp_arena_alloc(&s->arena, sizeof(*p->spread) *
                               (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(it, arr) {
        if (decode_one_spread(s, it, &p->spread[i], err) < 0)
            return kp_error_path(err, "topologySpreadConstraints[%zu]", i);
        i++;
    }
    p->nspread = i;
    return 0;
}

/* The volume sources a volume plugin reads, and the member naming each. */
static const struct {
    const char *key;
    enum kp_volume_kind kind;
    const char *id;
} volume_sources[] = {
    {"persistentVolumeClaim", KP_VOL_PVC, "claimName"},
    {"ephemeral", KP_VOL_EPHEMERAL, NULL},
    {"gcePersistentDisk", KP_VOL_GCE_PD, "pdName"},
    {"awsElasticBlockStore", KP_VOL_AWS_EBS, "volumeID"},
    {"rbd", KP_VOL_RBD, "image"},
    {"iscsi", KP_VOL_ISCSI, "iqn"},
    {"azureDisk", KP_VOL_AZURE_DISK, "diskURI"},
    {"cinder", KP_VOL_CINDER, "volumeID"},
    {"portworxVolume", KP_VOL_PORTWORX, "volumeID"},
};

/* One volume; *kept tells whether it is a source of volume_sources. */
static int
decode_one_volume(struct kp_snapshot *s, const cJSON *it,
                  struct kp_volume *v, bool *kept, struct kp_error *err)
{
    size_t i;

    *kept = false;
    if (kp_json_istr(&s->arena, it, "name", &v->name, err) < 0)
        return -1;
    if (!v->name)
        v->name = "";
    for (i = 0; i < sizeof(volume_sources) / sizeof(volume_sources[0]);
         i++) {
        const cJSON *src;

        if (kp_json_obj(it, volume_sources[i].key, &src, err) < 0)
            return -1;
        if (!src)
            continue;
        v->kind = volume_sources[i].kind;
        v->id = "";
        if ((volume_sources[i].id &&
             kp_json_istr(&s->arena, src, volume_sources[i].id, &v->id,
                          err) < 0) ||
            kp_json_bool(src, "readOnly", &v->read_only, err) < 0 ||
            (v->kind == KP_VOL_RBD &&
             (kp_json_istr(&s->arena, src, "pool", &v->pool, err) < 0 ||
              kp_json_str_array(&s->arena, src, "monitors", &v->nmonitors,
                                &v->monitors, err) < 0)))
            return kp_error_path(err, "%s", volume_sources[i].key);
        if (!v->id)
            v->id = "";
        if (v->kind == KP_VOL_RBD && (!v->pool || !v->pool[0]))
            v->pool = "rbd";
        *kept = true;
        return 0;
    }
    return 0;
}

/* Volumes of a source the plugins read (most pods have none). */
static size_t
count_kept_volumes(const cJSON *arr)
{
    const cJSON *it;
    size_t n = 0, i;

    cJSON_ArrayForEach(it, arr)
        for (i = 0; i < sizeof(volume_sources) / sizeof(volume_sources[0]);
             i++)
            if (kp_json_get(it, volume_sources[i].key)) {
                n++;
                break;
            }
    return n;
}

/* Without a kept volume, only the shape of the list is checked. */
static int
check_volume_objects(const cJSON *arr, struct kp_error *err)
{
    const cJSON *it;
    size_t i = 0;

    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "volumes[%zu]: expected an object", i);
        i++;
    }
    return 0;
}

static int
decode_volumes(struct kp_snapshot *s, const cJSON *spec, struct kp_pod *p,
               struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    if (kp_json_arr(spec, "volumes", &arr, err) < 0)
        return -1;
    if (!arr || !count_kept_volumes(arr))
        return check_volume_objects(arr, err);
    p->volumes = kp_arena_alloc(&s->arena, sizeof(*p->volumes) *
                                count_kept_volumes(arr));
    cJSON_ArrayForEach(it, arr) {
        struct kp_volume *v = &p->volumes[p->nvolumes];
        bool kept;

        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "volumes[%zu]: expected an object", i);
        if (decode_one_volume(s, it, v, &kept, err) < 0)
            return kp_error_path(err, "volumes[%zu]", i);
        if (kept && (v->kind == KP_VOL_PVC || v->kind == KP_VOL_EPHEMERAL))
            p->uses_volumes = true;
        if (kept)
            p->nvolumes++;
        i++;
    }
    return 0;
}

static int
decode_spec_scalars(struct kp_snapshot *s, const cJSON *spec,
                    struct kp_pod *p, struct kp_error *err)
{
    const char *policy;
    const cJSON *gates;
    int64_t v;

    if (kp_json_istr(&s->arena, spec, "nodeName", &p->node_name, err) < 0 ||
        kp_json_istr(&s->arena, spec, "schedulerName", &p->scheduler_name,
                     err) < 0 ||
        kp_json_istr(&s->arena, spec, "priorityClassName",
                     &p->priority_class, err) < 0 ||
        kp_json_istr(&s->arena, spec, "preemptionPolicy", &policy,
                     err) < 0 ||
        kp_json_int(spec, "priority", INT32_MIN, INT32_MAX, &v,
                    &p->has_spec_priority, err) < 0 ||
        kp_json_arr(spec, "schedulingGates", &gates, err) < 0)
        return -1;
    p->priority = (int32_t)v;
    if (p->node_name && !p->node_name[0])
        p->node_name = NULL;
    if (!p->scheduler_name || !p->scheduler_name[0])
        p->scheduler_name = "default-scheduler";
    if (policy && strcmp(policy, "Never") != 0 &&
        strcmp(policy, "PreemptLowerPriority") != 0)
        return kp_errorf(err, KP_EXIT_ERROR,
                         "preemptionPolicy: unsupported value '%s'", policy);
    p->has_spec_preemption_policy = policy != NULL;
    p->preempt_never = policy && strcmp(policy, "Never") == 0;
    p->nscheduling_gates = gates ? (size_t)cJSON_GetArraySize(gates) : 0;
    return 0;
}

static int
decode_spec(struct kp_snapshot *s, const cJSON *spec, const cJSON *status,
            struct kp_pod *p, struct kp_error *err)
{
    const cJSON *nsel;

    if (decode_spec_scalars(s, spec, p, err) < 0 ||
        decode_containers(s, spec, status, p, err) < 0 ||
        decode_tolerations(s, spec, p, err) < 0 ||
        decode_affinity(s, spec, p, err) < 0 ||
        decode_spread(s, spec, p, err) < 0 ||
        decode_volumes(s, spec, p, err) < 0 ||
        kp_decode_image_volumes(&s->arena, spec, p, err) < 0 ||
        kp_json_obj(spec, "nodeSelector", &nsel, err) < 0)
        return -1;
    if (kp_labels_from_json(&s->arena, nsel, &p->node_selector, err) < 0)
        return kp_error_path(err, "nodeSelector");
    return 0;
}

static int
decode_conditions(const cJSON *status, struct kp_pod *p,
                  struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;
    bool seen_target = false, seen_ready = false, seen_scheduled = false;

    if (kp_json_arr(status, "conditions", &arr, err) < 0)
        return -1;
    cJSON_ArrayForEach(it, arr) {
        const cJSON *type = kp_json_get(it, "type");
        const cJSON *st = kp_json_get(it, "status");
        const cJSON *reason = kp_json_get(it, "reason");
        bool is_true;

        if (!cJSON_IsObject(it))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "conditions[%zu]: expected an object", i);
        i++;
        if (!cJSON_IsString(type))
            continue;
        is_true = cJSON_IsString(st) && strcmp(st->valuestring, "True") == 0;
        /* the first condition of a type decides (GetPodCondition) */
        if (!seen_ready && strcmp(type->valuestring, "Ready") == 0) {
            seen_ready = true;
            p->ready = is_true;
        } else if (!seen_scheduled &&
                   strcmp(type->valuestring, "PodScheduled") == 0) {
            const cJSON *t = kp_json_get(it, "lastTransitionTime");

            /* a time that does not parse is no evidence: left unset */
            seen_scheduled = true;
            p->has_scheduled_time = is_true && cJSON_IsString(t) &&
                kp_parse_rfc3339(t->valuestring, &p->scheduled_time) == 0;
        } else if (!seen_target &&
                   strcmp(type->valuestring, "DisruptionTarget") == 0) {
            seen_target = true;
            p->preemption_target =
                is_true && cJSON_IsString(reason) &&
                (strcmp(reason->valuestring, "PreemptionByScheduler") == 0 ||
                 strcmp(reason->valuestring,
                        "PreemptionByKubeScheduler") == 0);
        }
    }
    return 0;
}

static int
decode_status(struct kp_snapshot *s, const cJSON *status, struct kp_pod *p,
              struct kp_error *err)
{
    static const char *const phases[] = {"Pending", "Running", "Succeeded",
                                         "Failed", "Unknown"};
    const char *phase;
    size_t i;

    if (kp_json_istr(&s->arena, status, "phase", &phase, err) < 0 ||
        kp_json_istr(&s->arena, status, "nominatedNodeName",
                     &p->nominated_node, err) < 0 ||
        kp_json_time(status, "startTime", &p->start_time,
                     &p->has_start_time, err) < 0 ||
        decode_conditions(status, p, err) < 0)
        return -1;
    if (p->nominated_node && !p->nominated_node[0])
        p->nominated_node = NULL;
    p->phase = KP_PHASE_PENDING;
    if (!phase)
        return 0;
    for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
        if (strcmp(phase, phases[i]) == 0) {
            p->phase = (enum kp_phase)i;
            return 0;
        }
    }
    return kp_errorf(err, KP_EXIT_ERROR, "phase: unsupported value '%s'",
                     phase);
}

static int
decode_metadata(struct kp_snapshot *s, const cJSON *md, struct kp_pod *p,
                struct kp_error *err)
{
    int64_t t;

    if (kp_json_istr(&s->arena, md, "name", &p->name, err) < 0 ||
        kp_json_istr(&s->arena, md, "namespace", &p->ns, err) < 0 ||
        kp_json_istr(&s->arena, md, "uid", &p->uid, err) < 0 ||
        kp_json_time(md, "creationTimestamp", &p->creation_time,
                     &p->has_creation_time, err) < 0 ||
        kp_json_time(md, "deletionTimestamp", &t, &p->deleting, err) < 0)
        return -1;
    if (!p->name || !p->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "name: missing");
    if (!p->ns || !p->ns[0])
        p->ns = "default";
    if (!p->uid)
        p->uid = "";
    if (kp_labels_from_json(&s->arena, kp_json_get(md, "labels"),
                            &p->labels, err) < 0)
        return kp_error_path(err, "labels");
    return kp_decode_controller_kind(&s->arena, md, p, err);
}

int
kp_whatif_decode_pod(struct kp_snapshot *s, const cJSON *md,
                     const cJSON *spec, struct kp_pod *p,
                     struct kp_error *err)
{
    const cJSON *ann = NULL, *vols = NULL, *it;

    (void)s;
    if (md && kp_json_obj(md, "annotations", &ann, err) < 0)
        return kp_error_path(err, "metadata.annotations");
    p->mirror = ann && kp_json_get(ann, "kubernetes.io/config.mirror");
    if (spec && kp_json_arr(spec, "volumes", &vols, err) < 0)
        return kp_error_path(err, "spec");
    cJSON_ArrayForEach(it, vols)
        if (cJSON_IsObject(it) && kp_json_get(it, "emptyDir"))
            p->local_storage = true;
    return 0;
}

int
kp_decode_pod(struct kp_snapshot *s, const cJSON *obj, struct kp_pod *p,
              struct kp_error *err)
{
    const cJSON *md, *spec, *status;

    if (kp_json_obj(obj, "metadata", &md, err) < 0 ||
        kp_json_obj(obj, "spec", &spec, err) < 0 ||
        kp_json_obj(obj, "status", &status, err) < 0)
        return -1;
    if (decode_metadata(s, md, p, err) < 0)
        return kp_error_path(err, "metadata");
    if (decode_spec(s, spec, status, p, err) < 0)
        return kp_error_path(err, "spec");
    if (decode_status(s, status, p, err) < 0)
        return kp_error_path(err, "status");
    return kp_whatif_decode_pod(s, md, spec, p, err);
}
