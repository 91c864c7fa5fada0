/*
 * rollout.c - the update of a workload that already runs, as its
 * controller rolls it out (rollout.h): which pods are its own, its
 * strategy, and each wave's sync.
 *
 * Simplified (README "Rollouts of workloads that already run"): time
 * does not pass.  A new pod that Fits, or Preempts (once its victims are
 * gone), is available at once (readiness, minReadySeconds and
 * progressDeadlineSeconds are not replayed); a deleted pod is gone at
 * once (no grace period), before the pods its wave creates are
 * scheduled; a wave is one sync of the controller with the pods' status
 * as the previous wave left it.
 */
#include "rollout.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "report.h"
#include "snapshot.h"

#define MAX_REPLICAS 100000

static const char *const kind_names[] = {"Deployment", "StatefulSet",
                                         "DaemonSet", "ReplicaSet"};

int
kp_rollout_kind_of(const char *kind)
{
    size_t i;

    for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
        if (strcmp(kind, kind_names[i]) == 0)
            return (int)i;
    return -1;
}

/*
 * Room for element n of v (n elements of size sz, in arena a, built only
 * by grow): capacities 4, 8, 16, ..., a copy when full (the old array
 * stays in the arena until it is released).
 */
static void *
grow(struct kp_arena *a, void *v, size_t n, size_t sz)
{
    void *w;

    if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
        return v;
    w = kp_arena_alloc(a, (n < 4 ? 4 : n * 2) * sz);
    if (n)
        memcpy(w, v, n * sz);
    return w;
}

/* ---- which pods are the workload's ---- */

/*
 * A Deployment's ReplicaSets are named "<deployment>-<pod-template-hash>"
 * (deployment/sync.go getNewReplicaSet: the hash is also the pods'
 * pod-template-hash label).  Without the label: a name with one more
 * dash-free segment.
 */
static bool
deployment_owns(const struct kp_pod *p, const char *name)
{
    const char *rs = p->controller_name, *hash;
    size_t n = strlen(name);

    if (!p->controller_kind || strcmp(p->controller_kind, "ReplicaSet") != 0 ||
        !rs || strncmp(rs, name, n) != 0 || rs[n] != '-' || !rs[n + 1])
        return false;
    hash = kp_labels_get(&p->labels, "pod-template-hash");
    if (hash)
        return strcmp(rs + n + 1, hash) == 0;
    return strchr(rs + n + 1, '-') == NULL;
}

static bool
owns(const struct kp_pod *p, enum kp_rollout_kind kind, const char *ns,
     const char *name)
{
    /* FilterActivePods: finished and terminating pods are not counted */
    if (strcmp(p->ns, ns) != 0 || kp_pod_is_terminal(p) || p->deleting ||
        p->rollout)
        return false;
    if (kind == KP_ROLLOUT_DEPLOYMENT)
        return deployment_owns(p, name);
    return p->controller_kind && p->controller_name &&
           strcmp(p->controller_kind, kind_names[kind]) == 0 &&
           strcmp(p->controller_name, name) == 0;
}

static int
pod_name_cmp(const void *x, const void *y)
{
    const struct kp_pod *a = *(const struct kp_pod *const *)x;
    const struct kp_pod *b = *(const struct kp_pod *const *)y;

    return strcmp(a->name, b->name);
}

size_t
kp_rollout_owned(const struct kp_snapshot *s, enum kp_rollout_kind kind,
                 const char *ns, const char *name,
                 const struct kp_pod ***out)
{
    const struct kp_pod **v = NULL;
    size_t i, n = 0;

    for (i = 0; i < s->npods; i++) {
        if (!owns(s->pods[i], kind, ns, name))
            continue;
        v = kp_xrealloc(v, (n + 1) * sizeof(*v));
        v[n++] = s->pods[i];
    }
    if (n)
        qsort(v, n, sizeof(*v), pod_name_cmp);
    *out = v;
    return n;
}

/* ---- upstream's arithmetic ---- */

int
kp_rollout_scaled(const char *value, int32_t total, bool round_up,
                  int32_t *out)
{
    size_t len = strlen(value);
    char *end;
    long v;

    if (len == 0)
        return -1;
    errno = 0;
    v = strtol(value, &end, 10);
    if (errno || end == value || v < 0 || v > INT32_MAX)
        return -1;
    if (*end == '\0') {
        *out = (int32_t)v;
        return 0;
    }
    if (strcmp(end, "%") != 0)
        return -1;
    /* GetScaledValueFromIntOrPercent: math.Ceil / math.Floor of v*total/100 */
    if (round_up)
        *out = (int32_t)(((int64_t)v * total + 99) / 100);
    else
        *out = (int32_t)((int64_t)v * total / 100);
    return 0;
}

int
kp_rollout_fenceposts(const char *surge, const char *unavailable,
                      int32_t desired, int32_t *s, int32_t *u)
{
    if (kp_rollout_scaled(surge, desired, true, s) < 0 ||
        kp_rollout_scaled(unavailable, desired, false, u) < 0)
        return -1;
    if (*s == 0 && *u == 0)
        *u = 1;
    return 0;
}

int
kp_rollout_max_unavailable(const char *surge, const char *unavailable,
                           int32_t replicas, bool rolling, int32_t *out)
{
    int32_t s, u;

    *out = 0;
    if (!rolling || replicas == 0)
        return 0;
    if (kp_rollout_fenceposts(surge, unavailable, replicas, &s, &u) < 0)
        return -1;
    *out = u > replicas ? replicas : u;
    return 0;
}

int32_t
kp_rollout_new_rs_replicas(int32_t desired, int32_t surge, int32_t all_pods,
                           int32_t new_rs)
{
    int64_t max_total = (int64_t)desired + surge, up;

    if (all_pods >= max_total)
        return new_rs;
    up = max_total - all_pods;
    if (up > (int64_t)desired - new_rs)
        up = (int64_t)desired - new_rs;
    return up > 0 ? (int32_t)(new_rs + up) : new_rs;
}

/* ---- reading the workload ---- */

/* An IntOrString member as text ("25%", "1"); def when absent. */
static int
int_or_string(struct kp_arena *a, const cJSON *obj, const char *key,
              const char *def, const char **out, struct kp_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char buf[32];
    int32_t probe;

    if (!v || cJSON_IsNull(v)) {
        *out = def;
        return 0;
    }
    if (cJSON_IsNumber(v) && v->valuedouble >= 0 &&
        v->valuedouble <= INT32_MAX && v->valuedouble == (double)v->valueint) {
        snprintf(buf, sizeof(buf), "%d", v->valueint);
        *out = kp_arena_strdup(a, buf);
        return 0;
    }
    if (cJSON_IsString(v) &&
        kp_rollout_scaled(v->valuestring, 100, true, &probe) == 0 &&
        strchr(v->valuestring, '%')) {
        *out = kp_arena_strdup(a, v->valuestring);
        return 0;
    }
    return kp_errorf(err, KP_EXIT_ERROR, "%s: expected a non-negative "
                     "integer or a percentage", key);
}

static int
read_strategy(struct kp_snapshot *s, struct kp_rollout *ro,
              const cJSON *spec, int32_t nodes, struct kp_error *err)
{
    const char *skey = ro->kind == KP_ROLLOUT_DEPLOYMENT ? "strategy"
                                                         : "updateStrategy";
    const cJSON *st = NULL, *ru = NULL;
    const char *type = NULL, *surge, *unavail;
    int64_t part = 0;
    bool have;

    if (ro->kind == KP_ROLLOUT_REPLICASET) {
        ro->strategy = KP_ROLLOUT_SCALE;
        return 0;
    }
    if (kp_json_obj(spec, skey, &st, err) < 0)
        return kp_error_path(err, "spec");
    if (st && (kp_json_str(&s->arena, st, "type", &type, err) < 0 ||
               kp_json_obj(st, "rollingUpdate", &ru, err) < 0))
        return kp_error_path(err, "spec.%s", skey);
    if (!type || strcmp(type, "RollingUpdate") == 0)
        ro->strategy = KP_ROLLOUT_ROLLING;
    else if (ro->kind == KP_ROLLOUT_DEPLOYMENT && strcmp(type, "Recreate") == 0)
        ro->strategy = KP_ROLLOUT_RECREATE;
    else if (ro->kind != KP_ROLLOUT_DEPLOYMENT && strcmp(type, "OnDelete") == 0)
        ro->strategy = KP_ROLLOUT_ON_DELETE;
    else
        return kp_errorf(err, KP_EXIT_ERROR, "spec.%s.type: unsupported "
                         "value '%s'", skey, type);
    if (ro->strategy != KP_ROLLOUT_ROLLING)
        return 0;
    if (ro->kind == KP_ROLLOUT_STATEFULSET) {
        /* maxUnavailable (MaxUnavailableStatefulSet) is not replayed */
        if (ru && kp_json_int(ru, "partition", 0, INT32_MAX, &part, &have,
                              err) < 0)
            return kp_error_path(err, "spec.updateStrategy.rollingUpdate");
        ro->partition = (int32_t)part;
        return 0;
    }
    if (ro->kind == KP_ROLLOUT_DEPLOYMENT) {
        /* apps/v1 defaults: 25% and 25% */
        if (int_or_string(&s->arena, ru, "maxSurge", "25%", &surge, err) < 0 ||
            int_or_string(&s->arena, ru, "maxUnavailable", "25%", &unavail,
                          err) < 0)
            return kp_error_path(err, "spec.strategy.rollingUpdate");
        kp_rollout_fenceposts(surge, unavail, ro->replicas, &ro->max_surge,
                              &ro->max_unavailable);
        kp_rollout_max_unavailable(surge, unavail, ro->replicas, true,
                                   &ro->max_unavailable);
        return 0;
    }
    /*
     * DaemonSet: defaults maxUnavailable 1, maxSurge 0; both scaled
     * against the nodes that should run the pod, rounded up
     * (daemonset_util.go SurgeCount, UnavailableCount).
     */
    if (int_or_string(&s->arena, ru, "maxSurge", "0", &surge, err) < 0 ||
        int_or_string(&s->arena, ru, "maxUnavailable", "1", &unavail,
                      err) < 0)
        return kp_error_path(err, "spec.updateStrategy.rollingUpdate");
    kp_rollout_scaled(surge, nodes, true, &ro->max_surge);
    kp_rollout_scaled(unavail, nodes, true, &ro->max_unavailable);
    if (ro->max_surge == 0 && ro->max_unavailable == 0)
        return kp_errorf(err, KP_EXIT_ERROR, "spec.updateStrategy."
                         "rollingUpdate.maxUnavailable: may not be 0 when "
                         "maxSurge is 0");
    return 0;
}

/* "db-3" of StatefulSet "db": 3; else -1 */
static int
ordinal_of(const char *pod, const char *set)
{
    size_t n = strlen(set);
    char *end;
    long v;

    if (strncmp(pod, set, n) != 0 || pod[n] != '-' || !pod[n + 1] ||
        (pod[n + 1] == '0' && pod[n + 2]))
        return -1;
    errno = 0;
    v = strtol(pod + n + 1, &end, 10);
    if (errno || *end || v < 0 || v > INT32_MAX)
        return -1;
    return (int)v;
}

/* spec.ordinals.start (StatefulSetStartOrdinal), 0 when unset */
static int
read_start(const cJSON *spec, int32_t *start, struct kp_error *err)
{
    const cJSON *ord;
    int64_t v = 0;
    bool have;

    if (kp_json_obj(spec, "ordinals", &ord, err) < 0 ||
        (ord && kp_json_int(ord, "start", 0, INT32_MAX, &v, &have, err) < 0))
        return kp_error_path(err, "spec%s", ord ? ".ordinals" : "");
    *start = (int32_t)v;
    return 0;
}

struct kp_rollout *
kp_rollout_new(struct kp_snapshot *s, enum kp_rollout_kind kind,
               const char *kind_name, const char *ns, const char *name,
               const char *source, const cJSON *spec,
               const struct kp_pod **owned, size_t nowned, int32_t nodes,
               struct kp_error *err)
{
    struct kp_rollout *ro = kp_arena_alloc(&s->arena, sizeof(*ro));
    struct kp_rollout_set *set = s->rollouts;
    int64_t replicas = 1;
    bool have, parallel = false;
    const char *policy = NULL;
    size_t i;

    (void)kind_name;
    ro->kind = kind;
    ro->kind_name = kind_names[kind];
    ro->ns = ns;
    ro->name = name;
    ro->source = source;
    if (kind != KP_ROLLOUT_DAEMONSET) {
        if (kp_json_int(spec, "replicas", 0, MAX_REPLICAS, &replicas, &have,
                        err) < 0) {
            free(owned);
            kp_error_path(err, "spec");
            return NULL;
        }
        ro->replicas = (int32_t)replicas;
    } else
        ro->replicas = nodes;
    if (kind == KP_ROLLOUT_STATEFULSET) {
        if (kp_json_str(&s->arena, spec, "podManagementPolicy", &policy,
                        err) < 0) {
            free(owned);
            kp_error_path(err, "spec");
            return NULL;
        }
        parallel = policy && strcmp(policy, "Parallel") == 0;
        if (read_start(spec, &ro->start, err) < 0) {
            free(owned);
            return NULL;
        }
    }
    ro->parallel = parallel;
    if (read_strategy(s, ro, spec, nodes, err) < 0) {
        free(owned);
        return NULL;
    }
    ro->nold = nowned;
    ro->old = kp_arena_alloc(&s->arena, (nowned + 1) * sizeof(*ro->old));
    for (i = 0; i < nowned; i++) {
        struct kp_rollout_old *o = &ro->old[i];
        const struct kp_pod *p = owned[i];
        const struct kp_node *n = p->node_name ?
            kp_snapshot_node(s, p->node_name) : NULL;

        o->pod = p;
        o->deleted = -1;
        o->node = n ? n->index : -1;
        o->ordinal = kind == KP_ROLLOUT_STATEFULSET ?
            ordinal_of(p->name, name) : -1;
        /* below spec.ordinals.start: left alone (not replayed) */
        o->ordinal = o->ordinal >= ro->start ? o->ordinal - ro->start : -1;
        /* IsPodAvailable with minReadySeconds 0: Ready, and running */
        o->available = p->node_name && p->ready && !p->deleting &&
                       p->phase == KP_PHASE_RUNNING;
        /*
         * What the update leaves as it is: a ReplicaSet never replaces its
         * pods; OnDelete waits for someone to delete them; a StatefulSet
         * keeps the ordinals below its partition (and those it does not
         * know, which it neither updates nor deletes).
         */
        o->stays = ro->strategy == KP_ROLLOUT_SCALE ||
                   ro->strategy == KP_ROLLOUT_ON_DELETE ||
                   (kind == KP_ROLLOUT_STATEFULSET &&
                    (o->ordinal < 0 || o->ordinal < ro->partition));
    }
    free(owned);
    if (!set) {
        set = kp_arena_alloc(&s->arena, sizeof(*set));
        set->arena = &s->arena;
        set->snap = s;
        s->rollouts = set;
    }
    set->v = grow(&s->arena, set->v, set->n, sizeof(*set->v));
    set->v[set->n++] = ro;
    return ro;
}

void
kp_rollout_add_pod(struct kp_snapshot *s, struct kp_rollout *ro,
                   struct kp_pod *p, const struct kp_pod *old, int ordinal,
                   int node)
{
    struct kp_rollout_pod *rp = kp_arena_alloc(&s->arena, sizeof(*rp));
    char key[1024];
    size_t i;

    rp->ro = ro;
    rp->pod = p;
    rp->old = old;
    for (i = 0; old && i < ro->nold; i++)
        if (ro->old[i].pod == old)
            rp->old_entry = &ro->old[i];
    rp->ordinal = ordinal;
    rp->node = node;
    rp->wave = -1;
    rp->node_ran = -1;
    p->rollout = rp;
    if (old) {
        snprintf(key, sizeof(key), "%s/%s", old->ns, old->name);
        p->replaces = kp_arena_strdup(&s->arena, key);
    }
    ro->new = grow(&s->arena, ro->new, ro->nnew, sizeof(*ro->new));
    ro->new[ro->nnew++] = rp;
}

/* ---- one wave ---- */

static struct kp_rollout_wave *
cur_wave(struct kp_rollout_set *set, struct kp_rollout *ro)
{
    struct kp_rollout_wave *w;

    if (ro->nwaves && ro->waves[ro->nwaves - 1].wave == set->wave)
        return &ro->waves[ro->nwaves - 1];
    ro->waves = grow(set->arena, ro->waves, ro->nwaves, sizeof(*ro->waves));
    w = &ro->waves[ro->nwaves++];
    memset(w, 0, sizeof(*w));
    w->wave = set->wave;
    return w;
}

static void
push(struct kp_arena *a, const struct kp_pod ***v, size_t *n,
     const struct kp_pod *p)
{
    *v = grow(a, (void *)*v, *n, sizeof(**v));
    (*v)[(*n)++] = p;
}

struct plan {
    struct kp_rollout_set *set;
    const struct kp_pod **deleted;      /* malloc'ed, for the caller */
    size_t ndeleted;
    bool changed;
};

static void
create(struct plan *pl, struct kp_rollout *ro, struct kp_rollout_pod *rp)
{
    struct kp_rollout_wave *w = cur_wave(pl->set, ro);

    rp->wave = pl->set->wave;
    push(pl->set->arena, &w->created, &w->ncreated, rp->pod);
    pl->changed = true;
}

static void
delete_old(struct plan *pl, struct kp_rollout *ro, struct kp_rollout_old *o)
{
    struct kp_rollout_wave *w = cur_wave(pl->set, ro);

    o->deleted = pl->set->wave;
    push(pl->set->arena, &w->deleted, &w->ndeleted, o->pod);
    push(pl->set->arena, &ro->gone, &ro->ngone, o->pod);
    pl->deleted = kp_xrealloc(pl->deleted, (pl->ndeleted + 1) *
                              sizeof(*pl->deleted));
    pl->deleted[pl->ndeleted++] = o->pod;
    pl->changed = true;
}

static bool
old_live(const struct kp_rollout_old *o)
{
    return o->deleted < 0;
}

static bool
created(const struct kp_rollout_pod *rp)
{
    return rp->wave >= 0;
}

struct counts {
    int32_t old, old_avail, created, new_avail;
};

static struct counts
count(const struct kp_rollout *ro)
{
    struct counts c = {0, 0, 0, 0};
    size_t i;

    for (i = 0; i < ro->nold; i++)
        if (old_live(&ro->old[i])) {
            c.old++;
            c.old_avail += ro->old[i].available;
        }
    for (i = 0; i < ro->nnew; i++)
        if (created(ro->new[i])) {
            c.created++;
            c.new_avail += ro->new[i]->available;
        }
    return c;
}

/*
 * The next old pod the ReplicaSet controller deletes when scaled down
 * (controller.ActivePodsWithRanks, getPodsToDelete): unassigned before
 * assigned, not ready before ready, newer before older; only_unavailable
 * for cleanupUnhealthyReplicas.
 */
static struct kp_rollout_old *
next_to_delete(struct kp_rollout *ro, bool only_unavailable)
{
    struct kp_rollout_old *best = NULL;
    size_t i;

    for (i = 0; i < ro->nold; i++) {
        struct kp_rollout_old *o = &ro->old[i];
        const struct kp_pod *p = o->pod, *b;

        if (!old_live(o) || o->stays || (only_unavailable && o->available))
            continue;
        if (!best) {
            best = o;
            continue;
        }
        b = best->pod;
        if ((!p->node_name) != (!b->node_name)) {
            if (!p->node_name)
                best = o;
            continue;
        }
        if (o->available != best->available) {
            if (!o->available)
                best = o;
            continue;
        }
        if (p->creation_time != b->creation_time) {
            if (p->creation_time > b->creation_time)
                best = o;
            continue;
        }
        if (strcmp(p->name, b->name) > 0)
            best = o;
    }
    return best;
}

static struct kp_rollout_pod *
next_to_create(struct kp_rollout *ro)
{
    size_t i;

    for (i = 0; i < ro->nnew; i++)
        if (!created(ro->new[i]))
            return ro->new[i];
    return NULL;
}

/* deployment/rolling.go rolloutRolling: scale up, then scale down */
static void
plan_deployment_rolling(struct plan *pl, struct kp_rollout *ro)
{
    struct counts c = count(ro);
    int32_t target, min_avail, max_down, k, avail, down;
    struct kp_rollout_old *o;

    target = kp_rollout_new_rs_replicas(ro->replicas, ro->max_surge,
                                        c.created + c.old, c.created);
    for (k = c.created; k < target; k++) {
        struct kp_rollout_pod *rp = next_to_create(ro);

        if (!rp)
            break;
        create(pl, ro, rp);
    }
    /*
     * reconcileOldReplicaSets, in the sync the new ReplicaSet's update
     * triggers: its new pods are not available yet.
     */
    c = count(ro);
    if (c.old == 0)
        return;
    min_avail = ro->replicas - ro->max_unavailable;
    max_down = (c.created + c.old) - min_avail - (c.created - c.new_avail);
    if (max_down <= 0)
        return;
    /* cleanupUnhealthyReplicas */
    for (k = 0; k < max_down && (o = next_to_delete(ro, true)) != NULL; k++)
        delete_old(pl, ro, o);
    /* scaleDownOldReplicaSetsForRollingUpdate */
    c = count(ro);
    avail = c.old_avail + c.new_avail;
    if (avail <= min_avail)
        return;
    down = avail - min_avail;
    for (k = 0; k < down && (o = next_to_delete(ro, false)) != NULL; k++)
        delete_old(pl, ro, o);
}

/*
 * deployment/recreate.go rolloutRecreate: scale the old ReplicaSets down
 * to 0, wait until no old pod runs, then scale the new one up.
 */
static void
plan_deployment_recreate(struct plan *pl, struct kp_rollout *ro)
{
    struct kp_rollout_old *o;
    struct kp_rollout_pod *rp;

    if (count(ro).old > 0) {
        while ((o = next_to_delete(ro, false)) != NULL)
            delete_old(pl, ro, o);
        return;
    }
    while ((rp = next_to_create(ro)) != NULL)
        create(pl, ro, rp);
}

/*
 * ReplicaSet (replicaset.go manageReplicas): only the count changes;
 * the pods it keeps are not replaced.
 */
static void
plan_scale(struct plan *pl, struct kp_rollout *ro)
{
    struct counts c = count(ro);
    struct kp_rollout_old *o;
    struct kp_rollout_pod *rp;
    int32_t k;

    for (k = c.old + c.created; k < ro->replicas &&
         (rp = next_to_create(ro)) != NULL; k++)
        create(pl, ro, rp);
    for (k = c.old + c.created; k > ro->replicas; k--) {
        /* a scale down may take the pods the update would have kept */
        size_t i;

        o = NULL;
        for (i = 0; i < ro->nold; i++)
            ro->old[i].stays = false;
        o = next_to_delete(ro, false);
        for (i = 0; i < ro->nold; i++)
            ro->old[i].stays = true;
        if (!o)
            break;
        delete_old(pl, ro, o);
    }
}

/* ---- StatefulSet (stateful_set_control.go updateStatefulSet) ---- */

/*
 * ro->old_at / new_at: the live old pod and the new pod of each ordinal
 * (StatefulSet) or node (DaemonSet), so that a wave does not search.
 */
static void
index_at(struct kp_rollout_set *set, struct kp_rollout *ro, size_t n)
{
    size_t i;

    if (ro->old_at)
        return;
    for (i = 0; i < ro->nold; i++) {
        int k = ro->kind == KP_ROLLOUT_STATEFULSET ? ro->old[i].ordinal
                                                   : ro->old[i].node;

        if (k >= 0 && (size_t)k >= n)
            n = (size_t)k + 1;
    }
    ro->nat = n;
    ro->old_at = kp_arena_alloc(set->arena, (n + 1) * sizeof(*ro->old_at));
    ro->new_at = kp_arena_alloc(set->arena, (n + 1) * sizeof(*ro->new_at));
    for (i = 0; i < ro->nold; i++) {
        int k = ro->kind == KP_ROLLOUT_STATEFULSET ? ro->old[i].ordinal
                                                   : ro->old[i].node;

        /* two old pods on one node: the first is indexed */
        if (k >= 0 && !ro->old_at[k])
            ro->old_at[k] = &ro->old[i];
    }
    for (i = 0; i < ro->nnew; i++) {
        int k = ro->kind == KP_ROLLOUT_STATEFULSET ? ro->new[i]->ordinal
                                                   : ro->new[i]->node;

        if (k >= 0)
            ro->new_at[k] = ro->new[i];
    }
}

static struct kp_rollout_old *
sts_old(struct kp_rollout *ro, int ordinal)
{
    struct kp_rollout_old *o;

    if (ordinal < 0 || (size_t)ordinal >= ro->nat)
        return NULL;
    o = ro->old_at[ordinal];
    return o && old_live(o) ? o : NULL;
}

static struct kp_rollout_pod *
sts_new(struct kp_rollout *ro, int ordinal)
{
    if (ordinal < 0 || (size_t)ordinal >= ro->nat)
        return NULL;
    return ro->new_at[ordinal];
}

/* isRunningAndReady of the pod that holds the ordinal now; false: none */
static bool
sts_healthy(struct kp_rollout *ro, int ordinal, bool *exists)
{
    struct kp_rollout_old *o = sts_old(ro, ordinal);
    struct kp_rollout_pod *rp = sts_new(ro, ordinal);

    *exists = true;
    if (o)
        return o->available;
    if (rp && created(rp))
        return rp->available;
    *exists = false;
    return false;
}

static bool
sts_all_healthy(struct kp_rollout *ro)
{
    size_t i;

    for (i = 0; i < ro->nold; i++)
        if (old_live(&ro->old[i]) && !ro->old[i].available)
            return false;
    for (i = 0; i < ro->nnew; i++)
        if (created(ro->new[i]) && !ro->new[i]->available)
            return false;
    return true;
}

static void
plan_statefulset(struct plan *pl, struct kp_rollout *ro)
{
    bool monotonic = !ro->parallel, exists;
    struct kp_rollout_old *o, *cond;
    struct kp_rollout_pod *rp;
    int i;
    size_t k;

    index_at(pl->set, ro, (size_t)ro->replicas);
    /* the ordinals [0, replicas): create the missing, in order */
    for (i = 0; i < ro->replicas; i++) {
        bool healthy = sts_healthy(ro, i, &exists);

        if (!exists) {
            rp = sts_new(ro, i);
            if (rp && !created(rp)) {
                create(pl, ro, rp);
                if (monotonic)
                    return;
            }
            continue;
        }
        /* OrderedReady: a pod not Running and Ready stops the sync */
        if (!healthy && monotonic)
            return;
    }
    if (pl->changed)
        return;
    /* condemned pods (ordinal >= replicas), the highest first */
    cond = NULL;
    for (k = 0; k < ro->nold; k++) {
        o = &ro->old[k];
        if (old_live(o) && o->ordinal >= ro->replicas &&
            (!cond || o->ordinal > cond->ordinal))
            cond = o;
    }
    if (cond) {
        if (monotonic && !sts_all_healthy(ro))
            return;
        delete_old(pl, ro, cond);
        return;
    }
    if (ro->strategy != KP_ROLLOUT_ROLLING)
        return;
    /*
     * RollingUpdate: from the highest ordinal down to the partition,
     * delete the first pod of the old revision; the next sync recreates
     * it under the same name (here in the same wave).  Wait while the
     * pod updated last is not healthy.
     */
    for (i = ro->replicas - 1; i >= ro->partition; i--) {
        o = sts_old(ro, i);
        if (o && !o->stays) {
            if (!sts_all_healthy(ro))
                return;
            delete_old(pl, ro, o);
            rp = sts_new(ro, i);
            if (rp && !created(rp))
                create(pl, ro, rp);
            return;
        }
        if (!sts_healthy(ro, i, &exists))
            return;
    }
}

/* ---- DaemonSet (daemon/update.go rollingUpdate, syncNodes) ---- */

static struct kp_rollout_pod *
ds_new(struct kp_rollout *ro, int node)
{
    return node >= 0 && (size_t)node < ro->nat ? ro->new_at[node] : NULL;
}

static void
plan_daemonset(struct plan *pl, struct kp_rollout *ro)
{
    int32_t unavailable = 0, surged = 0, budget;
    struct kp_rollout_pod *rp;
    size_t i;

    index_at(pl->set, ro, 0);
    /*
     * syncNodes: old pods on nodes the new template does not run on
     * go; nodes that should run it and have no pod get one.
     */
    for (i = 0; i < ro->nold; i++) {
        struct kp_rollout_old *o = &ro->old[i];

        if (old_live(o) && (o->node < 0 || !ds_new(ro, o->node)))
            delete_old(pl, ro, o);
    }
    for (i = 0; i < ro->nnew; i++) {
        rp = ro->new[i];
        if (!created(rp) && (!rp->old_entry || !old_live(rp->old_entry)))
            create(pl, ro, rp);
    }
    if (ro->strategy != KP_ROLLOUT_ROLLING)
        return;
    if (ro->max_surge == 0) {
        /* nodes with an unavailable new pod, or with both pods */
        for (i = 0; i < ro->nnew; i++) {
            rp = ro->new[i];
            if (created(rp) && !rp->available)
                unavailable++;
        }
        budget = ro->max_unavailable - unavailable;
        for (i = 0; i < ro->nnew; i++) {
            struct kp_rollout_old *o;

            rp = ro->new[i];
            o = rp->old_entry;
            if (created(rp) || !o || !old_live(o))
                continue;
            /* an unavailable old pod is replaced whatever the budget */
            if (o->available) {
                if (budget <= 0)
                    continue;
                budget--;
            }
            delete_old(pl, ro, o);
            create(pl, ro, rp);
        }
        return;
    }
    /* maxSurge: the new pod first, the old one once it is available */
    for (i = 0; i < ro->nnew; i++) {
        rp = ro->new[i];
        if (created(rp) && rp->old && !rp->available)
            surged++;
    }
    for (i = 0; i < ro->nnew; i++) {
        struct kp_rollout_old *o;

        rp = ro->new[i];
        o = rp->old_entry;
        if (!o || !old_live(o))
            continue;
        if (created(rp)) {
            if (rp->available)
                delete_old(pl, ro, o);
            continue;
        }
        if (o->available) {
            if (surged >= ro->max_surge)
                continue;
            surged++;
        }
        create(pl, ro, rp);
    }
}

/*
 * A Deployment's or ReplicaSet's new pod replaces no pod in particular:
 * the new pods, in the order they are created, are paired with the old
 * pods in the order they are deleted (kp_pod.replaces).
 */
static void
pair(struct kp_rollout_set *set, struct kp_rollout *ro)
{
    char key[1024];

    while (ro->npaired < ro->ngone) {
        const struct kp_pod *old = ro->gone[ro->npaired];

        /* the new pods are created in their order */
        while (ro->next_new < ro->nnew && created(ro->new[ro->next_new]) &&
               ro->new[ro->next_new]->old)
            ro->next_new++;
        if (ro->next_new == ro->nnew || !created(ro->new[ro->next_new]))
            return;
        ro->new[ro->next_new]->old = old;
        snprintf(key, sizeof(key), "%s/%s", old->ns, old->name);
        ro->new[ro->next_new]->pod->replaces =
            kp_arena_strdup(set->arena, key);
        ro->npaired++;
    }
}

/*
 * Old pods that a node what-if took out of the snapshot (--remove-node)
 * are gone before the first wave.
 */
static void
prune(struct kp_rollout_set *set)
{
    const struct kp_snapshot *s = set->snap;
    size_t i, j;

    for (i = 0; i < set->n; i++)
        for (j = 0; j < set->v[i]->nold; j++) {
            struct kp_rollout_old *o = &set->v[i]->old[j];
            int k = o->pod->index;

            if (k < 0 || (size_t)k >= s->npods || s->pods[k] != o->pod) {
                o->deleted = 0;
                o->available = false;
            }
        }
}

bool
kp_rollout_plan(struct kp_rollout_set *set, const struct kp_pod ***deleted,
                size_t *ndeleted)
{
    struct plan pl;
    size_t i;

    memset(&pl, 0, sizeof(pl));
    pl.set = set;
    *deleted = NULL;
    *ndeleted = 0;
    if (!set)
        return false;
    if (set->wave == 0)
        prune(set);
    set->wave++;
    for (i = 0; i < set->n; i++) {
        struct kp_rollout *ro = set->v[i];

        switch (ro->kind) {
        case KP_ROLLOUT_DEPLOYMENT:
            if (ro->strategy == KP_ROLLOUT_RECREATE)
                plan_deployment_recreate(&pl, ro);
            else
                plan_deployment_rolling(&pl, ro);
            break;
        case KP_ROLLOUT_REPLICASET:
            plan_scale(&pl, ro);
            break;
        case KP_ROLLOUT_STATEFULSET:
            plan_statefulset(&pl, ro);
            break;
        case KP_ROLLOUT_DAEMONSET:
            plan_daemonset(&pl, ro);
            break;
        }
    }
    for (i = 0; i < set->n; i++)
        if (set->v[i]->kind == KP_ROLLOUT_DEPLOYMENT ||
            set->v[i]->kind == KP_ROLLOUT_REPLICASET)
            pair(set, set->v[i]);
    if (!pl.changed)
        set->wave--;
    *deleted = pl.deleted;
    *ndeleted = pl.ndeleted;
    return pl.changed;
}

bool
kp_rollout_deferred(const struct kp_pod *p)
{
    return p->rollout && p->rollout->wave < 0;
}

bool
kp_rollout_to_schedule(const struct kp_pod *p)
{
    return p->rollout && p->rollout->wave >= 0 && !p->rollout->available;
}

/*
 * An old pod of a rollout that a new pod preempts is gone for its
 * controller too (its old ReplicaSet would recreate it: not replayed).
 */
static void
old_preempted(struct kp_rollout_set *set, const struct kp_pod *victim)
{
    size_t i, j;

    for (i = 0; i < set->n; i++)
        for (j = 0; j < set->v[i]->nold; j++) {
            struct kp_rollout_old *o = &set->v[i]->old[j];

            if (o->pod == victim && old_live(o)) {
                o->deleted = set->wave;
                o->available = false;
                push(set->arena, &set->v[i]->gone, &set->v[i]->ngone,
                     victim);
            }
        }
}

void
kp_rollout_scheduled(struct kp_rollout_set *set,
                     const struct kp_pod_report *pr)
{
    struct kp_rollout_pod *rp = pr->pod->rollout;
    struct kp_rollout_wave *w;
    size_t i;

    if (!rp)
        return;
    rp->available = pr->result == KP_RESULT_FITS ||
                    pr->result == KP_RESULT_PREEMPTS;
    if (!rp->available)
        return;
    rp->node_ran = pr->result == KP_RESULT_FITS ? pr->node
                                                : pr->nominated_node;
    w = cur_wave(set, rp->ro);
    push(set->arena, &w->running, &w->nrunning, rp->pod);
    for (i = 0; i < pr->nvictims; i++) {
        old_preempted(set, pr->victims[i].pod);
        w->preempted = grow(set->arena, w->preempted, w->npreempted,
                            sizeof(*w->preempted));
        w->preempted[w->npreempted].victim = pr->victims[i].pod;
        w->preempted[w->npreempted++].by = pr->pod;
    }
}

void
kp_rollout_end_wave(struct kp_rollout_set *set)
{
    size_t i, j;

    for (i = 0; set && i < set->n; i++) {
        struct kp_rollout *ro = set->v[i];
        struct kp_rollout_wave *w = NULL;

        for (j = 0; j < ro->nnew; j++) {
            struct kp_rollout_pod *rp = ro->new[j];

            if (!created(rp) || rp->available)
                continue;
            if (!w)
                w = cur_wave(set, ro);
            push(set->arena, &w->pending, &w->npending, rp->pod);
        }
    }
}

static const char *const result_words[] = {"Fits", "Preempts",
                                           "Unschedulable", "NotEligible"};

/* Why ro never finishes, or NULL. */
static const char *
blocked_reason(struct kp_rollout_set *set, struct kp_rollout *ro,
               const struct kp_report *rep)
{
    char buf[2048];
    size_t i, j;

    for (i = 0; i < ro->nnew; i++) {
        struct kp_rollout_pod *rp = ro->new[i];
        const struct kp_pod_report *pr = NULL;

        if (!created(rp) || rp->available)
            continue;
        for (j = 0; j < rep->npods; j++)
            if (rep->pods[j].pod == rp->pod)
                pr = &rep->pods[j];
        ro->blocked_pod = rp->pod;
        snprintf(buf, sizeof(buf), "new pod %s/%s stays %s%s%s%s",
                 rp->pod->ns, rp->pod->name,
                 pr ? result_words[pr->result] : "pending",
                 pr && pr->message ? " (" : "",
                 pr && pr->message ? pr->message : "",
                 pr && pr->message ? ")" : "");
        if (ro->kind == KP_ROLLOUT_DEPLOYMENT &&
            ro->strategy == KP_ROLLOUT_ROLLING && ro->max_unavailable == 0 &&
            count(ro).old > 0)
            snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
                     "; maxUnavailable 0: no old pod goes before a new "
                     "one runs");
        return kp_arena_strdup(set->arena, buf);
    }
    for (i = 0; i < ro->nold; i++) {
        const struct kp_rollout_old *o = &ro->old[i];

        if (!old_live(o) || o->stays || o->available)
            continue;
        ro->blocked_pod = o->pod;
        snprintf(buf, sizeof(buf), "old pod %s/%s is not running and ready: "
                 "the %s controller waits for it", o->pod->ns, o->pod->name,
                 ro->kind_name);
        return kp_arena_strdup(set->arena, buf);
    }
    for (i = 0; i < ro->nold; i++)
        if (old_live(&ro->old[i]) && !ro->old[i].stays)
            return "no further step is possible";
    for (i = 0; i < ro->nnew; i++) {
        const struct kp_rollout_old *o = ro->new[i]->old_entry;

        /* OnDelete: the pod it would replace stays until deleted */
        if (!created(ro->new[i]) && !(o && o->stays && old_live(o)))
            return "no further step is possible";
    }
    return NULL;
}

static bool
dropped(const struct kp_pod *p, const bool *gone)
{
    if (p->rollout)
        return p->rollout->wave < 0;
    return gone[p->index];
}

void
kp_rollout_finish(struct kp_rollout_set *set, struct kp_report *rep)
{
    bool *gone;
    size_t i, j, k = 0;
    size_t npods_max = 0;

    if (!set)
        return;
    for (i = 0; i < set->n; i++) {
        set->v[i]->blocked = blocked_reason(set, set->v[i], rep);
        for (j = 0; j < set->v[i]->nold; j++)
            if ((size_t)set->v[i]->old[j].pod->index + 1 > npods_max)
                npods_max = (size_t)set->v[i]->old[j].pod->index + 1;
    }
    for (i = 0; i < rep->npods; i++)
        if ((size_t)rep->pods[i].pod->index + 1 > npods_max)
            npods_max = (size_t)rep->pods[i].pod->index + 1;
    gone = kp_xcalloc(npods_max + 1, sizeof(*gone));
    for (i = 0; i < set->n; i++)
        for (j = 0; j < set->v[i]->nold; j++)
            if (set->v[i]->old[j].deleted >= 0)
                gone[set->v[i]->old[j].pod->index] = true;
    for (i = 0; i < rep->npods; i++) {
        if (dropped(rep->pods[i].pod, gone))
            continue;
        rep->pods[k] = rep->pods[i];
        rep->pods[k].queue_position = (int)k + 1;
        k++;
    }
    rep->npods = k;
    free(gone);
}

bool
kp_rollout_blocked(const struct kp_rollout_set *set)
{
    size_t i;

    for (i = 0; set && i < set->n; i++)
        if (set->v[i]->blocked)
            return true;
    return false;
}
