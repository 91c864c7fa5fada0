/*
 * plugin_rows.h - compact JSON builders and a one-pod cycle fixture for
 * porting the InterPodAffinity, PodTopologySpread and Score tables of
 * kube-scheduler: load a List, run PreFilter for one pending pod, then
 * call one plugin's Filter per node or one Score plugin on chosen nodes.
 */
#ifndef KP_PLUGIN_ROWS_H
#define KP_PLUGIN_ROWS_H

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "framework.h"
#include "helpers.h"
#include "score.h"
#include "snapshot.h"

/* ---- JSON builders (string literal concatenation) ---- */

#define T_LIST(...) "{\"kind\":\"List\",\"items\":[" __VA_ARGS__ "]}"
#define L(k, v) "\"" k "\":\"" v "\""
#define Q(s) "\"" s "\""

/* A node with labels, spec fields and allocatable resources. */
#define T_NODE_X(name, labels, spec, alloc)                                \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{"  \
    labels "}},\"spec\":{" spec "},\"status\":{\"allocatable\":{" alloc    \
    "}}}"
#define T_NODE(name, labels)                                               \
    T_NODE_X(name, labels, "", "\"cpu\":\"8\",\"memory\":\"32Gi\","        \
             "\"pods\":\"110\"")

/* A pod: node "" is pending; meta and spec are extra members or "". */
#define T_POD_X(ns, name, node, labels, meta, spec)                        \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"" ns "\",\"name\":\"" \
    name "\",\"labels\":{" labels "}" meta "},\"spec\":{\"nodeName\":\""   \
    node "\",\"containers\":[{\"name\":\"c\"}]" spec "}}"
#define T_POD(name, node, labels, spec)                                    \
    T_POD_X("default", name, node, labels, "", spec)
#define T_TERMINATING ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\""

/* A Namespace with labels; the four of the interpodaffinity tests. */
#define T_NS(name, labels)                                                 \
    "{\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" name           \
    "\",\"labels\":{" labels "}}}"
#define T_TEAM_NAMESPACES                                                  \
    T_NS("subteam1.team1", L("team", "team1")) ","                         \
    T_NS("subteam2.team1", L("team", "team1")) ","                         \
    T_NS("subteam1.team2", L("team", "team2")) ","                         \
    T_NS("subteam2.team2", L("team", "team2"))

/* Label selectors */
#define T_EXPR(k, op, vals)                                                \
    "{\"key\":\"" k "\",\"operator\":\"" op "\",\"values\":[" vals "]}"
#define T_SEL(...) "{\"matchExpressions\":[" __VA_ARGS__ "]}"
#define T_IN(k, vals) T_SEL(T_EXPR(k, "In", vals))
#define T_NOTIN(k, vals) T_SEL(T_EXPR(k, "NotIn", vals))
#define T_EXISTS(k) "{\"matchExpressions\":[{\"key\":\"" k                 \
    "\",\"operator\":\"Exists\"}]}"

/* Pod affinity */
#define T_TERM(sel, key)                                                   \
    "{\"labelSelector\":" sel ",\"topologyKey\":\"" key "\"}"
#define T_TERM_X(sel, key, extra)                                          \
    "{\"labelSelector\":" sel ",\"topologyKey\":\"" key "\"" extra "}"
#define T_WTERM(w, term) "{\"weight\":" #w ",\"podAffinityTerm\":" term "}"
#define T_REQ "\"requiredDuringSchedulingIgnoredDuringExecution\""
#define T_PREF "\"preferredDuringSchedulingIgnoredDuringExecution\""
#define T_AFF(terms)                                                       \
    ",\"affinity\":{\"podAffinity\":{" T_REQ ":[" terms "]}}"
#define T_ANTI(terms)                                                      \
    ",\"affinity\":{\"podAntiAffinity\":{" T_REQ ":[" terms "]}}"
#define T_AFF_ANTI(aff, anti)                                              \
    ",\"affinity\":{\"podAffinity\":{" T_REQ ":[" aff "]},"                \
    "\"podAntiAffinity\":{" T_REQ ":[" anti "]}}"

/* Topology spread constraints */
#define T_TSC(skew, key, when, sel, extra)                                 \
    "{\"maxSkew\":" #skew ",\"topologyKey\":\"" key "\","                  \
    "\"whenUnsatisfiable\":\"" when "\",\"labelSelector\":" sel extra "}"
#define T_SPREAD(...) ",\"topologySpreadConstraints\":[" __VA_ARGS__ "]"
#define T_HARD "DoNotSchedule"
#define T_SOFT "ScheduleAnyway"

/* ---- the fixture ---- */

struct row_fixture {
    struct kp_snapshot s;
    struct kp_cluster cl;
    struct kp_arena scratch;
    struct kp_cycle c;
    struct kp_status pre;       /* kp_cycle_pre_filter() */
    bool loaded;
};

/* Load json and run PreFilter for the pending pod <ns>/<pod>. */
static inline bool
row_setup_ns(struct row_fixture *fx, const char *json, const char *ns,
             const char *pod)
{
    memset(fx, 0, sizeof(*fx));
    if (load_snapshot(&fx->s, json) < 0) {
        kp_snapshot_release(&fx->s);
        return false;
    }
    fx->loaded = true;
    kp_cluster_init(&fx->cl, &fx->s, "default-scheduler");
    kp_arena_init(&fx->scratch);
    fx->c.cl = &fx->cl;
    fx->c.scratch = &fx->scratch;
    fx->c.pod = kp_snapshot_pod(&fx->s, ns, pod);
    if (!fx->c.pod) {
        printf("#   no pending pod '%s'\n", pod);
        return false;
    }
    fx->pre = kp_cycle_pre_filter(&fx->c);
    return true;
}

static inline bool
row_setup(struct row_fixture *fx, const char *json, const char *pod)
{
    return row_setup_ns(fx, json, "default", pod);
}

static inline void
row_teardown(struct row_fixture *fx)
{
    if (!fx->loaded)
        return;
    kp_arena_release(&fx->scratch);
    kp_cluster_release(&fx->cl);
    kp_snapshot_release(&fx->s);
    fx->loaded = false;
}

static inline int
row_plugin_index(const char *name)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++)
        if (strcmp(kp_filter_plugins[i]->name, name) == 0)
            return (int)i;
    return -1;
}

/* One letter per status: S success, U unschedulable, R unresolvable,
 * E error, K skipped by PreFilter. */
static inline char
row_code_letter(enum kp_code code)
{
    switch (code) {
    case KP_SUCCESS:
        return 'S';
    case KP_UNSCHEDULABLE:
        return 'U';
    case KP_UNRESOLVABLE:
        return 'R';
    case KP_SKIP:
        return 'K';
    default:
        return 'E';
    }
}

/* The plugin's Filter on node i ('K' when its PreFilter skipped). */
static inline struct kp_status
row_filter(struct row_fixture *fx, int idx, size_t node)
{
    if (fx->c.skip[idx])
        return kp_status_new(KP_SKIP, NULL);
    return kp_filter_plugins[idx]->filter(&fx->c, idx, &fx->cl.nodes[node]);
}

/*
 * Check the plugin's Filter letters on every node against want (one
 * letter per node, in snapshot order) and, for failures, that the first
 * reason is the plugin's text for that letter.
 */
static inline bool
row_check_filter(struct row_fixture *fx, const char *plugin,
                 const char *want, const char *reason_u,
                 const char *reason_r)
{
    int idx = row_plugin_index(plugin);
    size_t i;
    bool ok = strlen(want) == fx->s.nnodes;

    for (i = 0; ok && i < fx->s.nnodes; i++) {
        struct kp_status st = row_filter(fx, idx, i);
        char got = row_code_letter(st.code);
        const char *r = got == 'U' ? reason_u : got == 'R' ? reason_r : NULL;

        if (got != want[i]) {
            printf("#   node %s: got %c, want %c\n",
                   fx->s.nodes[i]->name, got, want[i]);
            ok = false;
        } else if (r && (st.nreasons < 1 || strcmp(st.reasons[0], r) != 0)) {
            printf("#   node %s: reason '%s', want '%s'\n",
                   fx->s.nodes[i]->name,
                   st.nreasons ? st.reasons[0] : "", r);
            ok = false;
        }
    }
    return ok;
}

/*
 * A private copy of node i with room for one more pod, as
 * kp_node_info_clone() makes for the dry run (built here so that an
 * empty node does not reach memcpy with a NULL source).
 */
static inline struct kp_node_info *
row_clone_node(struct row_fixture *fx, int i)
{
    const struct kp_node_info *ni = &fx->cl.nodes[i];
    struct kp_node_info *c = kp_arena_alloc(&fx->scratch, sizeof(*c));
    size_t k;

    *c = *ni;           /* node, index and the fields copied from node */
    c->used = kp_arena_alloc(&fx->scratch, (fx->cl.nres + 1) *
                             sizeof(int64_t));
    for (k = 0; k < fx->cl.nres; k++)
        c->used[k] = ni->used[k];
    c->cap = ni->npods + 1;
    c->npods = ni->npods;
    c->pods = kp_arena_alloc(&fx->scratch, c->cap * sizeof(*c->pods));
    for (k = 0; k < ni->npods; k++)
        c->pods[k] = ni->pods[k];
    /* the used ports are the clone's own */
    c->ports.n = c->ports.cap = 0;
    c->ports.e = NULL;
    for (k = 0; k < ni->ports.n; k++)
        kp_port_set_add(&c->ports, &fx->scratch, &ni->ports.e[k]);
    return c;
}

/* Index of the node named name, or -1. */
static inline int
row_node(const struct row_fixture *fx, const char *name)
{
    const struct kp_node *n = kp_snapshot_node(&fx->s, name);

    return n ? n->index : -1;
}

/* ---- generated clusters (RemovePod against recomputation) ---- */

#include <stdarg.h>

struct gen_buf {
    char s[65536];
    size_t n;
};

static inline void
gen_printf(struct gen_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void
gen_printf(struct gen_buf *b, const char *fmt, ...)
{
    va_list ap;
    int k;

    va_start(ap, fmt);
    k = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k < sizeof(b->s) - b->n)
        b->n += (size_t)k;
}

static inline unsigned
gen_rand(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7fff;
}

/*
 * For every node X: the plugin's Filter on X after RemovePod of all of
 * X's pods (a cloned state, as SelectVictimsOnNode does) must equal the
 * Filter on X of a snapshot that never had those pods.  full is the
 * whole List; without[x] the List without node x's pods.
 */
static inline bool
gen_check_remove(const char *full, const char *const *without, size_t n,
                 const char *plugin)
{
    struct row_fixture fa, fb;
    int idx = row_plugin_index(plugin);
    bool ok = row_setup(&fa, full, "p");
    size_t x, i;

    for (x = 0; ok && x < n; x++) {
        struct kp_cycle c;
        struct kp_node_info *ni = row_clone_node(&fa, (int)x);
        const struct kp_pod *pods[64];
        size_t np = ni->npods < 64 ? ni->npods : 64;
        enum kp_code a, b;

        kp_cycle_clone(&c, &fa.c);
        for (i = 0; i < np; i++)
            pods[i] = ni->pods[i];
        for (i = 0; i < np; i++)
            kp_cycle_remove_pod(&c, ni, pods[i]);
        a = c.skip[idx] ? KP_SUCCESS :
            kp_filter_plugins[idx]->filter(&c, idx, ni).code;
        ok = row_setup(&fb, without[x], "p");
        b = !ok || fb.c.skip[idx] ? KP_SUCCESS :
            row_filter(&fb, idx, x).code;
        if (ok && a != b) {
            printf("#   node %zu: RemovePod gives %c, recomputing %c\n", x,
                   row_code_letter(a), row_code_letter(b));
            ok = false;
        }
        row_teardown(&fb);
    }
    row_teardown(&fa);
    return ok;
}

#define GEN_MAX_NODES 8

/*
 * gen_check_remove on the clusters gen writes for the seeds 1..nseeds:
 * gen(b, seed, -1) the whole List, gen(b, seed, x) the List without the
 * pods of node x, for each of the nnodes nodes.  A failing seed is named.
 */
static inline void
gen_check_remove_seeds(void (*gen)(struct gen_buf *b, unsigned seed,
                                   int skip),
                       int nnodes, unsigned nseeds, const char *plugin)
{
    static struct gen_buf full, without[GEN_MAX_NODES];
    const char *w[GEN_MAX_NODES];
    unsigned seed;
    int x;

    if (nnodes > GEN_MAX_NODES) {
        printf("#   %d nodes, at most %d\n", nnodes, GEN_MAX_NODES);
        CHECK(false);
        return;
    }
    for (seed = 1; seed <= nseeds; seed++) {
        gen(&full, seed, -1);
        for (x = 0; x < nnodes; x++) {
            gen(&without[x], seed, x);
            w[x] = without[x].s;
        }
        if (!gen_check_remove(full.s, w, (size_t)nnodes, plugin)) {
            printf("#   seed %u\n", seed);
            CHECK(false);
        }
    }
}

#endif
