/*
 * whatif.c - what-if for nodes: cordon, drain, lose, add (issue 19).
 *
 * Mirrors k8s.io/kubectl/pkg/drain/drain.go and filters.go (the pods a
 * drain leaves, evicts or refuses to touch, as `kubectl drain
 * --ignore-daemonsets --delete-emptydir-data` runs), the Eviction
 * subresource of pkg/registry/core/pod/storage/eviction.go (the PDB
 * check, 429 when disruptionsAllowed is 0) and the healthy-pod count of
 * pkg/controller/disruption/disruption.go (countHealthyPods).  See the
 * README's "What-if for nodes" for what is simplified.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "whatif.h"
#include "json_util.h"
#include "read_file.h"
#include "report.h"
#include "selector_parse.h"
#include "snapshot_load.h"
#include "yaml_json.h"

#define KP_TAINT_UNSCHEDULABLE "node.kubernetes.io/unschedulable"
#define KP_MAX_ADD_NODE_COUNT 1000

bool
kp_pod_is_added(const struct kp_pod *p)
{
    return p->from_add || p->displaced || p->from_added_node;
}

bool
kp_whatif_requested(const struct kp_options *o)
{
    return o->ncordon || o->ndrain || o->ndrain_selectors || o->nremove ||
           o->nremove_selectors || o->nadd_nodes || o->nadd_node_files;
}

/* A pod name not used in ns: base, else base-2, base-3, ... */
static const char *
unique_pod_name(struct kp_snapshot *s, const char *ns, const char *base)
{
    char name[600];
    int i;

    snprintf(name, sizeof(name), "%s", base);
    for (i = 2; kp_snapshot_pod(s, ns, name); i++)
        snprintf(name, sizeof(name), "%s-%d", base, i);
    return kp_arena_intern(&s->arena, name);
}

/* A new pending pod with p's spec and priority, created at *clock. */
static struct kp_pod *
new_pending_copy(struct kp_snapshot *s, const struct kp_pod *p,
                 const char *name, int64_t *clock)
{
    struct kp_pod *q = kp_arena_memdup(&s->arena, p, sizeof(*p));

    q->name = name;
    q->uid = "";
    q->node_name = NULL;
    q->nominated_node = NULL;
    q->phase = KP_PHASE_PENDING;
    q->deleting = q->preemption_target = q->ready = false;
    q->has_start_time = false;
    q->start_time = 0;
    q->creation_time = ++*clock;
    q->npdbs = 0;
    q->pdbs = NULL;
    q->displaced = NULL;
    q->from_added_node = false;
    kp_snapshot_push_pod(s, q);
    return q;
}

static struct kp_pod *
make_replacement(struct kp_snapshot *s, struct kp_drain_pod *dp,
                 const char *node, const char *reason, int64_t *clock)
{
    char base[600];
    struct kp_displaced *d = kp_arena_alloc(&s->arena, sizeof(*d));
    struct kp_pod *q;

    snprintf(base, sizeof(base), "%s-replacement", dp->pod->name);
    q = new_pending_copy(s, dp->pod, unique_pod_name(s, dp->pod->ns, base),
                         clock);
    d->node = node;
    d->reason = reason;
    d->original = dp->pod->name;
    d->dp = dp;
    q->displaced = d;
    dp->replacement = q;
    return q;
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

/* ---- which nodes: NAME flags and selectors ---- */

struct node_set {
    size_t n;
    struct kp_node **nodes;
};

static void
set_add(struct node_set *ns, struct kp_node *n)
{
    size_t i;

    for (i = 0; i < ns->n; i++)
        if (ns->nodes[i] == n)
            return;
    ns->nodes = kp_xrealloc(ns->nodes, (ns->n + 1) * sizeof(*ns->nodes));
    ns->nodes[ns->n++] = n;
}

static bool
set_has(const struct node_set *ns, const char *name)
{
    size_t i;

    for (i = 0; i < ns->n; i++)
        if (strcmp(ns->nodes[i]->name, name) == 0)
            return true;
    return false;
}

static int
resolve_nodes(struct kp_snapshot *s, const char *flag, const char **names,
              size_t nnames, const char *sel_flag, const char **sels,
              size_t nsels, const struct node_set *removed,
              struct node_set *out, struct kp_error *err)
{
    size_t i, j;

    for (i = 0; i < nnames; i++) {
        struct kp_node *n = kp_snapshot_node(s, names[i]);

        if (removed && set_has(removed, names[i]))
            return kp_errorf(err, KP_EXIT_USAGE, "%s '%s': the node is "
                             "also removed (--remove-node or "
                             "--remove-nodes-selector)", flag, names[i]);
        if (!n)
            return kp_errorf(err, KP_EXIT_ERROR, "%s '%s': no node named "
                             "'%s' in the snapshot", flag, names[i],
                             names[i]);
        set_add(out, n);
    }
    for (i = 0; i < nsels; i++) {
        struct kp_selector sel;
        size_t found = 0;

        if (kp_selector_parse(&s->arena, sels[i], &sel, err) < 0) {
            char msg[sizeof(err->msg)];

            snprintf(msg, sizeof(msg), "%s", err->msg);
            return kp_errorf(err, err->exit_code, "%s '%s': %s", sel_flag,
                             sels[i], msg);
        }
        for (j = 0; j < s->nnodes; j++) {
            if (!kp_selector_matches(&sel, &s->nodes[j]->labels))
                continue;
            if (removed && set_has(removed, s->nodes[j]->name))
                return kp_errorf(err, KP_EXIT_USAGE, "%s '%s': node '%s' "
                                 "is also removed", sel_flag, sels[i],
                                 s->nodes[j]->name);
            set_add(out, s->nodes[j]);
            found++;
        }
        if (!found)
            return kp_errorf(err, KP_EXIT_ERROR, "%s '%s': no node matches "
                             "the selector", sel_flag, sels[i]);
    }
    return 0;
}

/* ---- cordon ---- */

/*
 * kubectl cordon sets spec.unschedulable; the node lifecycle controller
 * then adds the node.kubernetes.io/unschedulable:NoSchedule taint
 * (TaintNodesByCondition), which NodeUnschedulable's toleration check
 * reads.  Both are set, as a cordoned node shows them.
 */
static void
cordon(struct kp_snapshot *s, struct kp_node *n)
{
    struct kp_taint *t;
    size_t i;

    n->unschedulable = true;
    for (i = 0; i < n->ntaints; i++)
        if (strcmp(n->taints[i].key, KP_TAINT_UNSCHEDULABLE) == 0 &&
            strcmp(n->taints[i].effect, "NoSchedule") == 0)
            return;
    t = kp_arena_alloc(&s->arena, (n->ntaints + 1) * sizeof(*t));
    if (n->ntaints)
        memcpy(t, n->taints, n->ntaints * sizeof(*t));
    t[n->ntaints].key = kp_arena_intern(&s->arena, KP_TAINT_UNSCHEDULABLE);
    t[n->ntaints].value = "";
    t[n->ntaints].effect = kp_arena_intern(&s->arena, "NoSchedule");
    t[n->ntaints].reason_kv = kp_taint_reason_kv(&s->arena, &t[n->ntaints]);
    n->taints = t;
    n->ntaints++;
}

/* ---- the pods of a node, as the API lists them (namespace, name) ---- */

static int
pod_name_cmp(const void *x, const void *y)
{
    const struct kp_drain_pod *a = x, *b = y;
    int c = strcmp(a->pod->ns, b->pod->ns);

    return c ? c : strcmp(a->pod->name, b->pod->name);
}

static struct kp_node_whatif *
new_node_whatif(struct kp_whatif *w, struct kp_snapshot *s,
                const struct kp_node *n, bool removed)
{
    struct kp_node_whatif *nw;
    size_t i;

    w->nodes = kp_xrealloc(w->nodes, (w->nnodes + 1) * sizeof(*w->nodes));
    nw = &w->nodes[w->nnodes++];
    memset(nw, 0, sizeof(*nw));
    nw->node = n->name;
    nw->removed = removed;
    for (i = 0; i < s->npods; i++)
        nw->npods += s->pods[i]->node_name &&
                     strcmp(s->pods[i]->node_name, n->name) == 0;
    nw->pods = kp_arena_alloc(&s->arena, (nw->npods + 1) *
                              sizeof(*nw->pods));
    nw->npods = 0;
    for (i = 0; i < s->npods; i++) {
        struct kp_drain_pod *dp = &nw->pods[nw->npods];

        if (!s->pods[i]->node_name ||
            strcmp(s->pods[i]->node_name, n->name) != 0)
            continue;
        dp->pod = s->pods[i];
        dp->pdb = -1;
        dp->wave = -1;
        nw->npods++;
    }
    qsort(nw->pods, nw->npods, sizeof(*nw->pods), pod_name_cmp);
    return nw;
}

/*
 * countHealthyPods: a pod counts when Ready, not terminating and not
 * already in the PDB's disruptedPods; losing it makes disruptionsAllowed
 * one fewer (never below 0).
 */
static void
spend_healthy(struct kp_whatif *w, const struct kp_snapshot *s,
              const struct kp_pod *p)
{
    size_t j;

    if (!p->ready || p->deleting || kp_pod_is_terminal(p))
        return;
    for (j = 0; j < s->npdbs; j++)
        if (kp_pdb_matches(s->pdbs[j], p) &&
            !kp_pdb_in_disrupted(s->pdbs[j], p)) {
            w->healthy[j]--;
            if (w->budget[j] > 0)
                w->budget[j]--;
        }
}

/* ---- the Eviction subresource ---- */

/*
 * eviction.go (EvictionREST.Create) for a pod that is not finished and
 * not terminating: a Pending pod is deleted without a PDB check
 * (canIgnorePDB); more than one PDB is a 500.  With one PDB, a pod that
 * is not Ready (IsPodReady) is deleted without touching the budget when
 * the PDB's unhealthyPodEvictionPolicy is AlwaysAllow, or, under
 * IfHealthyBudget (the default), when currentHealthy >= desiredHealthy
 * and desiredHealthy > 0, whatever disruptionsAllowed says (issue 24
 * items 8 and 9).  Every other pod goes to checkAndDecrement:
 * disruptionsAllowed 0 is a 429 (kubectl retries every 5 s), else it is
 * decremented.  The tool's budget is what the disruption controller shows
 * once the pod is gone (its resync is instant): only a pod it counted
 * healthy uses one disruption -- Ready, and not already in the PDB's
 * disruptedPods (countHealthyPods; issue 24 item 10).
 */
static enum kp_drain_outcome
evict(struct kp_whatif *w, const struct kp_snapshot *s,
      struct kp_drain_pod *dp)
{
    const struct kp_pdb *pdb;
    int match[2], n = 0;
    size_t j;

    if (dp->pod->phase == KP_PHASE_PENDING)
        return KP_DRAIN_EVICTED;
    for (j = 0; j < s->npdbs && n < 2; j++)
        if (kp_pdb_matches(s->pdbs[j], dp->pod))
            match[n++] = (int)j;
    if (n > 1) {
        dp->pdb = match[0];
        dp->why = "This pod has more than one PodDisruptionBudget, which "
                  "the eviction subresource does not support.";
        return KP_DRAIN_BLOCKED;
    }
    if (n == 0)
        return KP_DRAIN_EVICTED;
    dp->pdb = match[0];
    pdb = s->pdbs[match[0]];
    if (!dp->pod->ready && pdb->unhealthy_always_allow) {
        dp->why = "not Ready: the Eviction API deletes it without using "
                  "the budget (unhealthyPodEvictionPolicy AlwaysAllow)";
        return KP_DRAIN_EVICTED;
    }
    if (!dp->pod->ready && pdb->desired_healthy > 0 &&
        w->healthy[match[0]] >= pdb->desired_healthy) {
        dp->why = "not Ready: the Eviction API deletes it without using "
                  "the budget (currentHealthy >= desiredHealthy > 0)";
        return KP_DRAIN_EVICTED;
    }
    if (w->budget[match[0]] <= 0) {
        dp->why = "Cannot evict pod as it would violate the pod's "
                  "disruption budget.";
        return KP_DRAIN_WAITING;
    }
    if (!dp->pod->ready)
        return KP_DRAIN_EVICTED;
    if (kp_pdb_in_disrupted(pdb, dp->pod)) {
        dp->why = "already in the PDB's disruptedPods: the disruption "
                  "controller never counted it, its eviction uses no "
                  "disruption";
        return KP_DRAIN_EVICTED;
    }
    w->budget[match[0]]--;
    w->healthy[match[0]]--;
    return KP_DRAIN_EVICTED;
}

/* An eviction went through: the pod is recreated or lost. */
static void
evicted(struct kp_drain_pod *dp, int wave)
{
    dp->outcome = KP_DRAIN_EVICTED;
    dp->wave = wave;
    if (dp->replacement) {
        if (dp->pod->local_storage)
            dp->why = "deleting Pods with local storage: its emptyDir data "
                      "is lost";
        return;
    }
    dp->outcome = KP_DRAIN_LOST;
    dp->why = "deleting Pods that declare no controller (--force): not "
              "recreated";
}

/* ---- drain ---- */

/*
 * filters.go's unmanagedFatal since kubectl v1.30 (kubernetes #120159;
 * v1.29 and before: "Pods declare no controller (use --force to
 * override)").
 */
#define KP_DRAIN_UNMANAGED_FATAL                                            \
    "cannot delete Pods that declare no controller (use --force to "      \
    "override)"

/*
 * The filters of filters.go (Helper.makeFilters), in order, with
 * --ignore-daemonsets and --delete-emptydir-data: daemonSetFilter keeps a
 * DaemonSet pod unless it is finished; mirrorPodFilter keeps a mirror pod
 * whatever its phase (it runs before any other phase test, so a finished
 * static pod stays: issue 24 item 11); localStorageFilter and
 * unreplicatedFilter let a finished pod through (deleted); pods with
 * emptyDir are evicted (a warning); pods without a controller stop the
 * drain unless --force.  Returns whether the pod goes on to the Eviction
 * API.
 */
static bool
drain_filter(struct kp_drain_pod *dp, bool force, bool *unreplicated)
{
    const struct kp_pod *p = dp->pod;
    bool finished = kp_pod_is_terminal(p);

    if (!finished && p->controller_kind &&
        strcmp(p->controller_kind, "DaemonSet") == 0) {
        dp->outcome = KP_DRAIN_KEPT;
        dp->why = "ignoring DaemonSet-managed Pods";
        return false;
    }
    if (p->mirror) {
        dp->outcome = KP_DRAIN_KEPT;
        dp->why = "mirror pod of a static pod: left to the kubelet";
        return false;
    }
    if (finished) {
        dp->outcome = KP_DRAIN_DELETED;
        dp->why = "finished (Succeeded or Failed): deleted";
        return false;
    }
    if (!p->controller_kind && !force) {
        *unreplicated = true;
        dp->outcome = KP_DRAIN_NOT_EVICTED;
        dp->why = KP_DRAIN_UNMANAGED_FATAL;
        return false;
    }
    return true;
}

/*
 * kubectl's error when pods without a controller stop the drain:
 * PodDeleteList.errors() (filters.go) prints "cannot delete MSG: NS/NAME,
 * ..." with unmanagedFatal as MSG.  Since kubectl v1.30 (kubernetes #120159)
 * unmanagedFatal itself starts with "cannot delete", so every release the
 * tool replays (v1.31 to v1.38) prints the words twice; kubectl #1808 is
 * open about it (#131173, which would drop one, was closed unmerged).
 */
static const char *
stopped_message(struct kp_snapshot *s, const struct kp_node_whatif *nw)
{
    struct kp_buf b;
    const char *msg;
    size_t i, n = 0;

    kp_buf_init(&b);
    kp_buf_printf(&b, "cannot delete %s: ", KP_DRAIN_UNMANAGED_FATAL);
    for (i = 0; i < nw->npods; i++)
        if (nw->pods[i].outcome == KP_DRAIN_NOT_EVICTED && nw->pods[i].why &&
            !nw->pods[i].pod->controller_kind)
            kp_buf_printf(&b, "%s%s/%s", n++ ? ", " : "",
                          nw->pods[i].pod->ns, nw->pods[i].pod->name);
    kp_buf_add(&b, "", 1);
    msg = kp_arena_strdup(&s->arena, b.data);
    kp_buf_release(&b);
    return msg;
}

static void
drain_node(struct kp_whatif *w, struct kp_snapshot *s, struct kp_node *n,
           bool force, bool *drop, int64_t *clock)
{
    struct kp_node_whatif *nw = new_node_whatif(w, s, n, false);
    bool unreplicated = false;
    size_t i;

    for (i = 0; i < nw->npods; i++) {
        struct kp_drain_pod *dp = &nw->pods[i];

        if (drain_filter(dp, force, &unreplicated))
            dp->outcome = KP_DRAIN_WAITING;     /* to the Eviction API */
    }
    if (unreplicated) {
        /* GetPodsForDeletion failed: nothing is evicted nor deleted */
        for (i = 0; i < nw->npods; i++)
            if (nw->pods[i].outcome == KP_DRAIN_WAITING ||
                nw->pods[i].outcome == KP_DRAIN_DELETED) {
                nw->pods[i].outcome = KP_DRAIN_NOT_EVICTED;
                nw->pods[i].why = "the drain stopped before evicting";
            }
        nw->stopped = stopped_message(s, nw);
        return;
    }
    for (i = 0; i < nw->npods; i++) {
        struct kp_drain_pod *dp = &nw->pods[i];

        if (dp->outcome == KP_DRAIN_DELETED)
            drop[dp->pod->index] = true;
        if (dp->outcome != KP_DRAIN_WAITING)
            continue;
        if (dp->pod->deleting) {
            dp->outcome = KP_DRAIN_DELETED;
            dp->why = "already terminating: its controller has replaced it";
            drop[dp->pod->index] = true;
            continue;
        }
        if (dp->pod->controller_kind)
            make_replacement(s, dp, n->name, "Drained", clock);
        dp->outcome = evict(w, s, dp);
        if (dp->outcome == KP_DRAIN_EVICTED) {
            evicted(dp, 0);
            drop[dp->pod->index] = true;
        }
    }
}

/* ---- a node lost (--remove-node) ---- */

static void
remove_node(struct kp_whatif *w, struct kp_snapshot *s, struct kp_node *n,
            bool *drop, int64_t *clock)
{
    struct kp_node_whatif *nw = new_node_whatif(w, s, n, true);
    size_t i;

    for (i = 0; i < nw->npods; i++) {
        struct kp_drain_pod *dp = &nw->pods[i];
        const struct kp_pod *p = dp->pod;

        drop[p->index] = true;
        spend_healthy(w, s, p);
        dp->outcome = KP_DRAIN_LOST;
        if (kp_pod_is_terminal(p)) {
            dp->outcome = KP_DRAIN_DELETED;
            dp->why = "finished (Succeeded or Failed)";
        } else if (p->deleting) {
            dp->outcome = KP_DRAIN_DELETED;
            dp->why = "already terminating: its controller has replaced it";
        } else if (p->mirror) {
            dp->why = "mirror pod: its static pod goes with the node";
        } else if (!p->controller_kind) {
            dp->why = "declares no controller: not recreated";
        } else if (strcmp(p->controller_kind, "DaemonSet") == 0) {
            dp->why = "DaemonSet-managed: not recreated without its node";
        } else {
            make_replacement(s, dp, n->name, "NodeRemoved", clock);
            dp->outcome = KP_DRAIN_EVICTED;
            dp->wave = 0;
        }
    }
}

/* Pending pods nominated to a node that is gone are nominated nowhere. */
static void
clear_nominations(struct kp_snapshot *s, const struct node_set *removed)
{
    size_t i;

    for (i = 0; i < s->npods; i++)
        if (s->pods[i]->nominated_node &&
            set_has(removed, s->pods[i]->nominated_node))
            s->pods[i]->nominated_node = NULL;
}

/* ---- added nodes ---- */

static void
rename_hostname(struct kp_snapshot *s, struct kp_node *n)
{
    struct kp_label *l;
    size_t i;

    /* a node without labels has no hostname to rename (and no items) */
    if (!n->labels.items || n->labels.n == 0)
        return;
    l = kp_arena_memdup(&s->arena, n->labels.items,
                        (n->labels.n + 1) * sizeof(*l));
    for (i = 0; i < n->labels.n; i++)
        if (strcmp(l[i].key, "kubernetes.io/hostname") == 0) {
            l[i].value = n->name;
            l[i].h = kp_label_hash(l[i].key, n->name);
        }
    n->labels.items = l;
}

/* The taints of src but the unschedulable one: a new node is not cordoned */
static void
uncordoned_taints(struct kp_snapshot *s, struct kp_node *n)
{
    struct kp_taint *t = kp_arena_alloc(&s->arena, (n->ntaints + 1) *
                                        sizeof(*t));
    size_t i, k = 0;

    for (i = 0; i < n->ntaints; i++)
        if (strcmp(n->taints[i].key, KP_TAINT_UNSCHEDULABLE) != 0)
            t[k++] = n->taints[i];
    n->taints = t;
    n->ntaints = k;
    n->unschedulable = false;
}

/*
 * The DaemonSet controller pins each of its pods to a node with a
 * matchFields metadata.name In [node] requirement in every term of the
 * required node affinity (ReplaceDaemonSetPodNodeNameNodeAffinity).
 */
static void
pin_to_node(struct kp_snapshot *s, struct kp_pod *p, const char *node)
{
    struct kp_node_selector *ns = &p->required_node_affinity;
    struct kp_requirement *r = kp_arena_alloc(&s->arena, sizeof(*r));
    struct kp_node_selector_term *t;
    size_t i, n = ns->is_null || ns->nterms == 0 ? 1 : ns->nterms;

    r->key = kp_arena_intern(&s->arena, "metadata.name");
    r->op = KP_OP_IN;
    r->nvalues = 1;
    r->values = kp_arena_alloc(&s->arena, sizeof(*r->values));
    r->values[0] = node;
    t = kp_arena_alloc(&s->arena, n * sizeof(*t));
    for (i = 0; i < n; i++) {
        if (!ns->is_null && ns->nterms)
            t[i] = ns->terms[i];
        t[i].nfields = 1;
        t[i].fields = r;
    }
    ns->is_null = false;
    ns->nterms = n;
    ns->terms = t;
}

static void
copy_daemon_pods(struct kp_whatif *w, struct kp_snapshot *s,
                 const struct kp_node *src, const struct kp_node *n,
                 int64_t *clock)
{
    size_t i, npods = s->npods;
    char base[600];

    for (i = 0; i < npods; i++) {
        const struct kp_pod *p = s->pods[i];
        struct kp_pod *q;

        if (!p->node_name || strcmp(p->node_name, src->name) != 0 ||
            !p->controller_kind ||
            strcmp(p->controller_kind, "DaemonSet") != 0 ||
            kp_pod_is_terminal(p) || p->deleting)
            continue;
        snprintf(base, sizeof(base), "%s-%s", p->name, n->name);
        q = new_pending_copy(s, p, unique_pod_name(s, p->ns, base), clock);
        pin_to_node(s, q, n->name);
        q->from_added_node = true;
        w->nadded_pods++;
    }
}

/* NAME[=COUNT] */
static int
parse_add_node(const char *arg, char *name, size_t n, long *count,
               struct kp_error *err)
{
    const char *eq = strchr(arg, '=');
    char *end;

    *count = 1;
    snprintf(name, n, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
    if (!eq)
        return 0;
    *count = strtol(eq + 1, &end, 10);
    if (!eq[1] || *end || *count < 1 || *count > KP_MAX_ADD_NODE_COUNT)
        return kp_errorf(err, KP_EXIT_USAGE, "--add-node '%s': COUNT must "
                         "be an integer from 1 to %d", arg,
                         KP_MAX_ADD_NODE_COUNT);
    return 0;
}

static int
add_node_copies(struct kp_whatif *w, struct kp_snapshot *s, const char *arg,
                int64_t *clock, struct kp_error *err)
{
    char name[512], copy[600];
    const struct kp_node *src;
    long count, i, k = 1;

    if (parse_add_node(arg, name, sizeof(name), &count, err) < 0)
        return -1;
    src = kp_snapshot_node(s, name);
    if (!src)
        return kp_errorf(err, KP_EXIT_ERROR, "--add-node '%s': no node "
                         "named '%s' in the snapshot", arg, name);
    for (i = 0; i < count; i++) {
        struct kp_node *n = kp_arena_memdup(&s->arena, src, sizeof(*src));

        do
            snprintf(copy, sizeof(copy), "%s-copy-%ld", name, k++);
        while (kp_snapshot_node(s, copy));
        n->name = kp_arena_intern(&s->arena, copy);
        n->source = "--add-node";
        n->nimages = 0;
        rename_hostname(s, n);
        uncordoned_taints(s, n);
        kp_snapshot_push_node(s, n);
        w->nadded_nodes++;
        copy_daemon_pods(w, s, src, n, clock);
    }
    return 0;
}

static const char *
other_kind(const struct kp_snapshot *s, const struct kp_snapshot_mark *m)
{
    if (s->npods != m->npods)
        return "a Pod";
    if (s->npdbs != m->npdbs)
        return "a PodDisruptionBudget";
    if (s->npcs != m->npcs)
        return "a PriorityClass";
    if (s->nnamespaces != m->nnamespaces)
        return "a Namespace";
    if (s->npvcs != m->npvcs || s->npvs != m->npvs || s->nscs != m->nscs ||
        s->ncsinodes != m->ncsinodes)
        return "a storage object";
    if (s->nevents != m->nevents || s->nunknown_kinds != m->nunknown_kinds)
        return "an object of another kind";
    return NULL;
}

/* A --add-node-file, at most KP_CAP_NODE_FILE bytes (read_file.h). */
static char *
read_file(const char *path, size_t *len, struct kp_error *err)
{
    char *buf, cap[32];
    int e = kp_read_file(path, KP_CAP_NODE_FILE, 1, &buf, len);

    if (e == EFBIG)
        return kp_errorf(err, KP_EXIT_ERROR, "larger than %s, the cap for "
                         "node files", kp_cap_text(KP_CAP_NODE_FILE, cap,
                                                   sizeof(cap))), NULL;
    if (e)
        return kp_errorf(err, KP_EXIT_ERROR, "%s", strerror(e)), NULL;
    return buf;
}

/* JSON (sniffed as kubectl does: a '{' first) or YAML documents. */
static int
load_nodes(struct kp_snapshot *s, const char *path, struct kp_error *err)
{
    const char *src = kp_arena_intern(&s->arena, path);
    size_t len, i = 0;
    char *buf = read_file(path, &len, err);
    cJSON *docs = NULL, *doc;
    int rc = 0;

    if (!buf)
        return -1;
    while (i < len && strchr(" \t\r\n", buf[i]))
        i++;
    if (i < len && buf[i] == '{')
        rc = kp_snapshot_load_buffer(s, buf, len, src, err);
    else if ((rc = kp_yaml_to_json(buf, len, &docs, err)) == 0)
        cJSON_ArrayForEach(doc, docs) {
            char *text;

            if (cJSON_IsNull(doc))
                continue;
            text = cJSON_PrintUnformatted(doc);
            rc = kp_snapshot_load_buffer(s, text, strlen(text), src, err);
            free(text);
            if (rc < 0)
                break;
        }
    cJSON_Delete(docs);
    free(buf);
    return rc;
}

/* --add-node-file: Node manifests, JSON or YAML, through the loader. */
static int
add_node_file(struct kp_whatif *w, struct kp_snapshot *s, const char *path,
              struct kp_error *err)
{
    struct kp_snapshot_mark m;
    const char *other;
    char msg[sizeof(err->msg)];

    kp_snapshot_mark(s, &m);
    if (load_nodes(s, path, err) < 0) {
        snprintf(msg, sizeof(msg), "%s", err->msg);
        return kp_errorf(err, err->exit_code, "--add-node-file '%s': %s",
                         path, msg);
    }
    other = other_kind(s, &m);
    if (other)
        return kp_errorf(err, KP_EXIT_ERROR, "--add-node-file '%s': only "
                         "Node objects are read, found %s", path, other);
    if (s->nnodes == m.nnodes)
        return kp_errorf(err, KP_EXIT_ERROR, "--add-node-file '%s': no "
                         "Node in the file", path);
    w->nadded_nodes += s->nnodes - m.nnodes;
    return 0;
}

/* ---- kp_whatif_apply ---- */

static int
add_nodes(struct kp_whatif *w, struct kp_snapshot *s,
          const struct kp_options *o, int64_t *clock, struct kp_error *err)
{
    size_t i;

    for (i = 0; i < o->nadd_node_files; i++)
        if (add_node_file(w, s, o->add_node_files[i], err) < 0)
            return -1;
    for (i = 0; i < o->nadd_nodes; i++)
        if (add_node_copies(w, s, o->add_nodes[i], clock, err) < 0)
            return -1;
    return 0;
}

static int
resolve_all(struct kp_snapshot *s, const struct kp_options *o,
            struct node_set *removed, struct node_set *cordoned,
            struct node_set *drained, struct kp_error *err)
{
    if (resolve_nodes(s, "--remove-node", o->remove_nodes, o->nremove,
                      "--remove-nodes-selector", o->remove_selectors,
                      o->nremove_selectors, NULL, removed, err) < 0 ||
        resolve_nodes(s, "--drain", o->drain, o->ndrain, "--drain-selector",
                      o->drain_selectors, o->ndrain_selectors, removed,
                      drained, err) < 0)
        return -1;
    return resolve_nodes(s, "--cordon", o->cordon, o->ncordon, NULL, NULL,
                         0, removed, cordoned, err);
}

int
kp_whatif_apply(struct kp_whatif *w, struct kp_snapshot *s,
                const struct kp_options *o, struct kp_error *err)
{
    struct node_set removed = {0, NULL}, cordoned = {0, NULL};
    struct node_set drained = {0, NULL};
    int64_t clock;
    bool *drop = NULL;
    size_t i;
    int rc = -1;

    memset(w, 0, sizeof(*w));
    clock = latest_creation(s) + 1000000000LL;
    if (add_nodes(w, s, o, &clock, err) < 0 ||
        resolve_all(s, o, &removed, &cordoned, &drained, err) < 0)
        goto out;
    w->npdbs = s->npdbs;
    w->budget = kp_xcalloc(s->npdbs + 1, sizeof(*w->budget));
    w->healthy = kp_xcalloc(s->npdbs + 1, sizeof(*w->healthy));
    for (i = 0; i < s->npdbs; i++) {
        w->budget[i] = s->pdbs[i]->disruptions_allowed;
        w->healthy[i] = s->pdbs[i]->current_healthy;
    }
    /* replacements are pushed: room for every pod twice */
    drop = kp_xcalloc(2 * s->npods + 1, sizeof(*drop));
    for (i = 0; i < removed.n; i++)
        remove_node(w, s, removed.nodes[i], drop, &clock);
    for (i = 0; i < cordoned.n; i++)
        cordon(s, cordoned.nodes[i]);
    for (i = 0; i < drained.n; i++)
        cordon(s, drained.nodes[i]);
    w->ncordoned = cordoned.n + drained.n;
    for (i = 0; i < drained.n; i++)
        drain_node(w, s, drained.nodes[i], o->force, drop, &clock);
    kp_snapshot_drop_pods(s, drop);
    for (i = 0; i < removed.n; i++)
        kp_snapshot_drop_node(s, removed.nodes[i]);
    clear_nominations(s, &removed);
    /* what the disruption controller shows once the evictions are done */
    for (i = 0; i < s->npdbs; i++) {
        s->pdbs[i]->disruptions_allowed = w->budget[i];
        s->pdbs[i]->current_healthy = w->healthy[i];
    }
    rc = 0;
out:
    free(drop);
    free(removed.nodes);
    free(cordoned.nodes);
    free(drained.nodes);
    return rc;
}

void
kp_whatif_release(struct kp_whatif *w)
{
    free(w->nodes);
    free(w->budget);
    free(w->healthy);
    memset(w, 0, sizeof(*w));
}

/* ---- waves (simulate.c) ---- */

bool
kp_whatif_deferred(const struct kp_pod *p)
{
    return p->displaced && p->displaced->dp->wave < 0;
}

bool
kp_whatif_in_wave(const struct kp_pod *p, int k)
{
    if (!p->displaced)
        return k == 0;
    return p->displaced->dp->wave == k;
}

static bool
running(const struct kp_pod_report *pr)
{
    return pr->result == KP_RESULT_FITS || pr->result == KP_RESULT_PREEMPTS;
}

/*
 * The disruption controller counts a replacement healthy once it runs:
 * each PDB it matches allows one more disruption.
 */
static void
give_budgets_back(struct kp_whatif *w, const struct kp_report *rep)
{
    size_t i, k;

    for (i = 0; i < rep->npods; i++) {
        const struct kp_pod *p = rep->pods[i].pod;
        struct kp_drain_pod *dp;

        if (!p->displaced)
            continue;
        dp = p->displaced->dp;
        if (dp->wave < 0 || dp->wave > w->wave || dp->counted ||
            !running(&rep->pods[i]))
            continue;
        dp->counted = true;
        for (k = 0; k < p->npdbs; k++) {
            w->budget[p->pdbs[k]]++;
            w->healthy[p->pdbs[k]]++;
        }
    }
}

size_t
kp_whatif_next_wave(struct kp_whatif *w, const struct kp_report *rep,
                    const struct kp_snapshot *snap,
                    const struct kp_pod ***originals)
{
    size_t i, j, n = 0;

    *originals = NULL;
    give_budgets_back(w, rep);
    for (i = 0; i < w->nnodes; i++) {
        struct kp_node_whatif *nw = &w->nodes[i];

        for (j = 0; j < nw->npods; j++) {
            struct kp_drain_pod *dp = &nw->pods[j];

            if (dp->outcome != KP_DRAIN_WAITING ||
                evict(w, snap, dp) != KP_DRAIN_EVICTED)
                continue;
            evicted(dp, w->wave + 1);
            *originals = kp_xrealloc(*originals, (n + 1) *
                                     sizeof(**originals));
            (*originals)[n++] = dp->pod;
        }
    }
    if (n)
        w->wave++;
    return n;
}

static int
wave_of(const struct kp_pod_report *pr)
{
    return pr->pod->displaced ? pr->pod->displaced->dp->wave : 0;
}

void
kp_whatif_finish_report(struct kp_report *rep)
{
    struct kp_pod_report *sorted;
    size_t i, k = 0;
    int wave, last = 0;

    for (i = 0; i < rep->npods; i++)
        if (wave_of(&rep->pods[i]) > last)
            last = wave_of(&rep->pods[i]);
    sorted = kp_xmalloc((rep->npods + 1) * sizeof(*sorted));
    for (wave = 0; wave <= last; wave++)
        for (i = 0; i < rep->npods; i++)
            if (wave_of(&rep->pods[i]) == wave)
                sorted[k++] = rep->pods[i];
    for (i = 0; i < k; i++) {
        rep->pods[i] = sorted[i];
        rep->pods[i].queue_position = (int)i + 1;
    }
    rep->npods = k;
    free(sorted);
}

bool
kp_whatif_blocked(const struct kp_whatif *w)
{
    size_t i, j;

    for (i = 0; w && i < w->nnodes; i++) {
        if (w->nodes[i].stopped)
            return true;
        for (j = 0; j < w->nodes[i].npods; j++)
            if (w->nodes[i].pods[j].outcome == KP_DRAIN_WAITING ||
                w->nodes[i].pods[j].outcome == KP_DRAIN_BLOCKED)
                return true;
    }
    return false;
}
