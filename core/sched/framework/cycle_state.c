/*
 * cycle_state.c - one scheduling attempt of one pod (kp_cycle,
 * framework.h): the plugins' PreFilter state, as
 * pkg/scheduler/framework/cycle_state.go's CycleState, PreFilter
 * (RunPreFilterPlugins of pkg/scheduler/framework/runtime/framework.go)
 * and the PreFilterExtensions AddPod/RemovePod hooks the preemption dry
 * run calls.  Moved verbatim from framework.c (issue 28).
 */
#include "framework.h"
#include "framework_int.h"
#include "config.h"

#include <stdatomic.h>
#include <string.h>

#include "shortcut.h"
#include "hash.h"

/* ---- cycle ---- */

static bool
name_in(const char *const *names, size_t n, const char *name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

void
kp_cycle_restrict_nodes(struct kp_cycle *c, int idx,
                        const char *const *names, size_t n)
{
    const char **out = kp_arena_alloc(c->scratch, (n + 1) * sizeof(char *));
    size_t i, k = 0;

    for (i = 0; i < n; i++)
        if ((!c->restricted || name_in(c->allowed, c->nallowed, names[i])) &&
            !name_in(out, k, names[i]))
            out[k++] = names[i];
    c->allowed = out;
    c->nallowed = k;
    c->restricted = true;
    if (c->nrestricting < KP_MAX_PLUGINS)
        c->restricting[c->nrestricting++] = kp_filter_plugins[idx]->name;
}

bool
kp_cycle_node_allowed(const struct kp_cycle *c, const struct kp_node *node)
{
    return !c->restricted || name_in(c->allowed, c->nallowed, node->name);
}

/* "[A B]" as Go prints a []string; sorted when sort is set. */
static char *
plugin_list(struct kp_arena *a, const struct kp_cycle *c, bool sort)
{
    const char *names[KP_MAX_PLUGINS];
    size_t len = 3, i, j;
    int n = c->nrestricting;
    char *out;

    for (i = 0; i < (size_t)n; i++) {
        names[i] = c->restricting[i];
        len += strlen(names[i]) + 1;
    }
    for (i = 1; sort && i < (size_t)n; i++)
        for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];

            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    out = kp_arena_alloc(a, len);
    out[0] = '[';
    for (i = 0, len = 1; i < (size_t)n; i++) {
        if (i)
            out[len++] = ' ';
        memcpy(out + len, names[i], strlen(names[i]));
        len += strlen(names[i]);
    }
    out[len] = ']';
    return out;
}

static struct kp_status
join_status(struct kp_arena *a, const char *prefix, const char *what,
            const char *suffix)
{
    return kp_status_new(KP_UNRESOLVABLE,
                         kp_arena_concat(a, prefix, what, suffix, NULL));
}

struct kp_status
kp_cycle_restricted_status(const struct kp_cycle *c)
{
    return join_status(c->scratch, "node(s) didn't satisfy plugin(s) ",
                       plugin_list(c->scratch, c, true), "");
}

/* The merged PreFilterResult names no node at all. */
static struct kp_status
empty_result_status(const struct kp_cycle *c)
{
    if (c->nrestricting == 1)
        return join_status(c->scratch, "node(s) didn't satisfy plugin ",
                           c->restricting[0], "");
    return join_status(c->scratch, "node(s) didn't satisfy plugin(s) ",
                       plugin_list(c->scratch, c, false), " simultaneously");
}

struct kp_status
kp_cycle_pre_filter(struct kp_cycle *c)
{
    size_t i;

    c->restricted = false;
    c->shared = 0;
    c->nallowed = 0;
    c->allowed = NULL;
    c->nrestricting = 0;
    for (i = 0; i < kp_nfilter_plugins; i++) {
        const struct kp_plugin *pl = kp_filter_plugins[i];
        struct kp_status st;

        c->state[i] = NULL;
        /* a profile's disabled Filter is not run, nor without PreFilter */
        c->skip[i] = c->profile && (!c->profile->filter_on[i] ||
                                    (pl->pre_filter &&
                                     !c->profile->pre_filter_on[i]));
        if (!pl->pre_filter || (c->profile && !c->profile->pre_filter_on[i]))
            continue;
        st = pl->pre_filter(c, (int)i);
        if (st.code == KP_SKIP) {
            c->skip[i] = true;
        } else if (st.code != KP_SUCCESS) {
            st.plugin = pl->name;
            return st;
        } else if (c->restricted && c->nallowed == 0) {
            st = empty_result_status(c);
            st.plugin = pl->name;
            return st;
        }
    }
    return kp_status_ok();
}

/*
 * dst a copy of src with the plugins' states cloned; share: those of
 * the plugins that own a state before writing it (add_pod_owns) left
 * shared with src instead, their bits set in dst->shared
 */
static void
clone_states(struct kp_cycle *dst, const struct kp_cycle *src, bool share)
{
    size_t i;

    *dst = *src;
    dst->shared = 0;
    for (i = 0; i < kp_nfilter_plugins; i++) {
        const struct kp_plugin *pl = kp_filter_plugins[i];

        if (!src->state[i] || !pl->clone_state)
            continue;
        if (share && pl->add_pod_owns)
            dst->shared |= (uint32_t)1 << i;
        else
            dst->state[i] = pl->clone_state(src->scratch, src->state[i]);
    }
}

void
kp_cycle_clone(struct kp_cycle *dst, const struct kp_cycle *src)
{
    clone_states(dst, src, false);
}

_Static_assert(KP_MAX_PLUGINS <= 32, "kp_cycle.shared has a bit per plugin");

/* KP_NO_STATE_COW (1 off, 0 on, -1 not read yet) */
static atomic_int state_cow_off = -1;

void
kp_cycle_clone_shared(struct kp_cycle *dst, const struct kp_cycle *src)
{
    clone_states(dst, src,
                 !kp_shortcut_off_once(&state_cow_off, "KP_NO_STATE_COW"));
}

void *
kp_cycle_own_state(struct kp_cycle *c, int idx)
{
    uint32_t bit = (uint32_t)1 << idx;

    if (c->shared & bit) {
        c->state[idx] = kp_filter_plugins[idx]->clone_state(c->scratch,
                                                            c->state[idx]);
        c->shared &= ~bit;
    }
    return c->state[idx];
}

/* the plugins' PreFilterExtensions AddPod / RemovePod */
void
add_hooks(struct kp_cycle *c, struct kp_node_info *ni, const struct kp_pod *p)
{
    size_t i;

    /* each hook returns at once without a PreFilter state */
    for (i = 0; i < kp_nfilter_plugins; i++)
        if (c->state[i] && !c->skip[i] && kp_filter_plugins[i]->add_pod)
            kp_filter_plugins[i]->add_pod(c, (int)i, p, ni);
}

/*
 * Whether the table-reading hooks (kp_plugin.add_table_pod, ...) may be
 * called for vt: a table of the cluster's that has what they read, and
 * KP_NO_TABLE_HOOKS unset (read once: 1 off, 0 on, -1 not read yet)
 */
static atomic_int table_hooks_off = -1;

static bool
table_hooks(const struct kp_victim_table *vt)
{
    return !kp_shortcut_off_once(&table_hooks_off, "KP_NO_TABLE_HOOKS") &&
           vt && vt->anti_off;
}

uint32_t
kp_ns_hash(const char *ns)
{
    return (uint32_t)kp_hash_str(KP_HASH_SEED, ns);
}

static atomic_int ns_hash_off = -1;     /* KP_NO_NS_HASH */

bool
kp_ns_hash_on(void)
{
    return !kp_shortcut_off_once(&ns_hash_off, "KP_NO_NS_HASH");
}

/*
 * add_hooks (add) or remove_hooks of the table's pod k, by the table
 * where a plugin can
 */
static void
table_pod_hooks(struct kp_cycle *c, struct kp_node_info *ni,
                const struct kp_victim_table *vt, size_t k, bool add)
{
    bool tab = table_hooks(vt);
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++) {
        const struct kp_plugin *pl = kp_filter_plugins[i];
        void (*by_table)(struct kp_cycle *, int,
                         const struct kp_victim_table *, size_t,
                         const struct kp_node_info *) =
            add ? pl->add_table_pod : pl->remove_table_pod;
        void (*by_pod)(struct kp_cycle *, int, const struct kp_pod *,
                       const struct kp_node_info *) =
            add ? pl->add_pod : pl->remove_pod;

        if (!c->state[i] || c->skip[i])
            continue;
        if (tab && by_table)
            by_table(c, (int)i, vt, k, ni);
        else if (by_pod)
            by_pod(c, (int)i, vt->pods[k], ni);
    }
}

static void
remove_hooks(struct kp_cycle *c, struct kp_node_info *ni,
             const struct kp_pod *p)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++)
        if (c->state[i] && !c->skip[i] && kp_filter_plugins[i]->remove_pod)
            kp_filter_plugins[i]->remove_pod(c, (int)i, p, ni);
}

void
kp_cycle_remove_pod(struct kp_cycle *c, struct kp_node_info *ni,
                    const struct kp_pod *p)
{
    kp_node_info_remove(ni, p);
    remove_hooks(c, ni, p);
}

/*
 * Whether a RemovePod/AddPod hook of c can do anything: a plugin that has
 * them, runs, and has a PreFilter state (each hook returns at once
 * without one).
 */
bool
kp_cycle_hooks_live(const struct kp_cycle *c)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++)
        if (!c->skip[i] && c->state[i] && (kp_filter_plugins[i]->add_pod ||
                                           kp_filter_plugins[i]->remove_pod))
            return true;
    return false;
}

/* whether plugin pl takes a RemovePods of vt's pods from the table */
static bool
by_table(const struct kp_plugin *pl, const struct kp_victim_table *vt)
{
    return pl->remove_table_pods && table_hooks(vt);
}

/*
 * whether a RemovePod hook of c's reads the pods that leave vt's node
 * themselves, not the table
 */
static bool
pods_wanted(const struct kp_cycle *c, const struct kp_victim_table *vt)
{
    bool tab = table_hooks(vt);     /* the same for every plugin */
    size_t k;

    for (k = 0; k < kp_nfilter_plugins; k++) {
        const struct kp_plugin *pl = kp_filter_plugins[k];

        if (!c->skip[k] && (pl->remove_pods || pl->remove_pod) &&
            !(tab && pl->remove_table_pods))
            return true;
    }
    return false;
}

/* whether the table's pods[k] declares host ports */
static inline bool
table_has_ports(const struct kp_victim_table *vt, size_t k)
{
    return vt->tail_ports[k] != vt->tail_ports[k + 1];
}

size_t
kp_cycle_first_hook(const struct kp_cycle *c)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++)
        if (!c->skip[i] && c->state[i] && (kp_filter_plugins[i]->add_pod ||
                                           kp_filter_plugins[i]->remove_pod))
            return i;
    return kp_nfilter_plugins;
}

void
kp_cycle_remove_tail_pods(struct kp_cycle *c, struct kp_node_info *ni,
                          const struct kp_victim_table *vt, size_t first,
                          struct kp_removed *rm)
{
    const int64_t *row = &vt->tail_req[first * vt->nres];
    size_t i, k, kept = 0, nout = 0;
    /* by NodeInfo position: 1 goes, 2 goes and has host ports */
    unsigned char *out = kp_arena_alloc_uninit(c->scratch, ni->npods + 1);
    const struct kp_pod **gone = NULL;
    bool live = kp_cycle_hooks_live(c);

    memset(out, 0, ni->npods + 1);
    for (k = first; k < vt->n; k++)
        out[vt->pos[k]] = (unsigned char)(1 + table_has_ports(vt, k));
    /*
     * The pods that go are listed only when a hook reads them, not the
     * table, and read only when they free host ports (the table says
     * which do).
     */
    if (live && pods_wanted(c, vt))
        gone = kp_arena_alloc_uninit(c->scratch,
                                     (vt->n - first + 1) * sizeof(*gone));
    for (i = 0; i < ni->npods; i++) {
        if (!out[i])
            ni->pods[kept++] = ni->pods[i];
        else if (gone)
            gone[nout++] = ni->pods[i];
        if (out[i] == 2)
            ports_remove(ni, ni->pods[i]);
    }
    ni->npods = kept;
    for (i = 0; i < vt->nres; i++)
        ni->used[i] = kp_wrap_sub(ni->used[i], row[i]);
    ni->nanti -= vt->tail_anti[first];
    rm->gone = gone;
    rm->n = nout;
    rm->live = live;
    rm->vt = vt;
    rm->first = first;
}

void
kp_cycle_remove_tail_hooks(struct kp_cycle *c, struct kp_node_info *ni,
                           const struct kp_removed *rm)
{
    size_t i, k;

    /*
     * The RemovePod hooks in the node's order, plugin by plugin (each
     * changes its own state alone); a plugin may take them all at once,
     * from the table (the table's pods first.. are those that left: one
     * NodeInfo position each).
     */
    for (k = 0; rm->live && rm->first < rm->vt->n && k < kp_nfilter_plugins;
         k++) {
        const struct kp_plugin *pl = kp_filter_plugins[k];

        if (c->skip[k])
            continue;
        if (by_table(pl, rm->vt))
            pl->remove_table_pods(c, (int)k, rm->vt, rm->first, ni);
        else if (pl->remove_pods)
            pl->remove_pods(c, (int)k, rm->gone, rm->n, ni);
        else if (pl->remove_pod)
            for (i = 0; i < rm->n; i++)
                pl->remove_pod(c, (int)k, rm->gone[i], ni);
    }
}

void
kp_cycle_remove_tail(struct kp_cycle *c, struct kp_node_info *ni,
                     const struct kp_victim_table *vt, size_t first)
{
    struct kp_removed rm;

    kp_cycle_remove_tail_pods(c, ni, vt, first, &rm);
    kp_cycle_remove_tail_hooks(c, ni, &rm);
}

/* pods[k]'s requests: the difference of two tail rows */
static void
table_account(struct kp_node_info *ni, const struct kp_victim_table *vt,
              size_t k, int sign)
{
    const int64_t *row = &vt->tail_req[k * vt->nres];
    const int64_t *next = row + vt->nres;
    size_t r;

    for (r = 0; r < vt->nres; r++) {
        int64_t v = kp_wrap_sub(row[r], next[r]);

        ni->used[r] = sign > 0 ? kp_wrap_add(ni->used[r], v) :
                      kp_wrap_sub(ni->used[r], v);
    }
    if (vt->tail_anti[k] != vt->tail_anti[k + 1])
        ni->nanti = sign > 0 ? ni->nanti + 1 : ni->nanti - 1;
}

void
kp_cycle_add_table_pod(struct kp_cycle *c, struct kp_node_info *ni,
                       const struct kp_victim_table *vt, size_t k)
{
    /* capacity was reserved by kp_node_info_clone */
    ni->pods[ni->npods++] = vt->pods[k];
    table_account(ni, vt, k, 1);
    if (table_has_ports(vt, k))
        ports_add(ni, c->scratch, vt->pods[k]);
    table_pod_hooks(c, ni, vt, k, true);
}

void
kp_cycle_remove_table_pod(struct kp_cycle *c, struct kp_node_info *ni,
                          const struct kp_victim_table *vt, size_t k)
{
    /* it was put back last */
    ni->npods--;
    table_account(ni, vt, k, -1);
    if (table_has_ports(vt, k))
        ports_remove(ni, vt->pods[k]);
    table_pod_hooks(c, ni, vt, k, false);
}

void
kp_cycle_add_pod(struct kp_cycle *c, struct kp_node_info *ni,
                 const struct kp_pod *p)
{
    clone_add(c->scratch, ni, p);
    add_hooks(c, ni, p);
}
