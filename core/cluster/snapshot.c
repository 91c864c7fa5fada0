/*
 * snapshot.c - the cluster model (snapshot.h): its objects, indexes and
 * queries, rolling a list back, priority resolution and the indexes
 * built after loading (kp_snapshot_finish).  The loader that fills it is
 * core/load/snapshot_load.c.
 *
 * Mirrors plugin/pkg/admission/priority/admission.go (priority and
 * preemptionPolicy from PriorityClass, globalDefault, the system classes)
 * and the informer rules of pkg/scheduler/eventhandlers.go.
 */
#include "snapshot.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
kp_snapshot_init(struct kp_snapshot *s)
{
    static const char *const fixed[] = {"cpu", "memory", "ephemeral-storage",
                                        "pods"};
    size_t i;

    memset(s, 0, sizeof(*s));
    kp_arena_init(&s->arena);
    kp_strmap_init(&s->res_ids);
    kp_strmap_init(&s->node_index);
    kp_strmap_init(&s->pod_index);
    kp_strmap_init(&s->pdb_index);
    kp_strmap_init(&s->pc_index);
    kp_strmap_init(&s->ns_index);
    kp_strmap_init(&s->pvc_index);
    kp_strmap_init(&s->pv_index);
    kp_strmap_init(&s->sc_index);
    kp_strmap_init(&s->csinode_index);
    kp_strmap_init(&s->src_index);
    kp_strmap_init(&s->seen);
    for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        kp_snapshot_resource_id(s, fixed[i]);
}

void
kp_snapshot_release(struct kp_snapshot *s)
{
    size_t i;

    for (i = 0; i < s->nwarnings; i++)
        free(s->warnings[i]);
    free(s->warnings);
    free(s->nodes);
    free(s->pods);
    free(s->pdbs);
    free(s->pcs);
    free(s->namespaces);
    free(s->res_names);
    free(s->res_reasons);
    free(s->node_pods);
    free(s->node_npods);
    free(s->events);
    free(s->pvcs);
    free(s->pvs);
    free(s->scs);
    free(s->csinodes);
    kp_strmap_release(&s->pvc_index);
    kp_strmap_release(&s->pv_index);
    kp_strmap_release(&s->sc_index);
    kp_strmap_release(&s->csinode_index);
    kp_strmap_release(&s->src_index);
    free(s->srcs);
    kp_strmap_release(&s->seen);
    kp_strmap_release(&s->res_ids);
    kp_strmap_release(&s->node_index);
    kp_strmap_release(&s->pod_index);
    kp_strmap_release(&s->pdb_index);
    kp_strmap_release(&s->pc_index);
    kp_strmap_release(&s->ns_index);
    kp_arena_release(&s->arena);
    memset(s, 0, sizeof(*s));
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
    size_t n, i;
    unsigned cp;

    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        n = 2;
        cp = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        n = 3;
        cp = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        n = 4;
        cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/*
 * Copy src to dst (size n) so that it prints as one line of valid UTF-8:
 * control characters and bytes of invalid UTF-8 become \n, \t, \xNN.
 * Messages quote input (names, keys, values), which can hold anything.
 */
static void
sanitize(char *dst, size_t n, const char *src)
{
    const unsigned char *p = (const unsigned char *)src;
    size_t o = 0;

    while (*p) {
        char esc[8];
        size_t k = utf8_len(p);
        const char *piece = (const char *)p;

        if (k == 1 && *p == '\n') {
            piece = "\\n";
        } else if (k == 1 && *p == '\t') {
            piece = "\\t";
        } else if (k == 0 || *p < 0x20 || *p == 0x7F) {
            snprintf(esc, sizeof(esc), "\\x%02X", *p);
            piece = esc;
            k = 1;
        } else {
            memcpy(esc, p, k);
            esc[k] = '\0';
            piece = esc;
        }
        if (o + strlen(piece) >= n)
            break;
        memcpy(dst + o, piece, strlen(piece));
        o += strlen(piece);
        p += k;
    }
    dst[o] = '\0';
}

int
kp_snapshot_sanitize_error(struct kp_error *err)
{
    char old[sizeof(err->msg)];

    if (!err)
        return -1;
    memcpy(old, err->msg, sizeof(old));
    sanitize(err->msg, sizeof(err->msg), old);
    return -1;
}

const char *
kp_taint_reason_kv(struct kp_arena *a, const struct kp_taint *t)
{
    /* interned: nodes with the same taint share one reason (histograms) */
    return kp_arena_intern(a, kp_arena_concat(a, "node(s) had untolerated "
                                              "taint {", t->key, ": ",
                                              t->value, "}", NULL));
}

void
kp_snapshot_warn(struct kp_snapshot *s, const char *fmt, ...)
{
    char raw[1024], buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(raw, sizeof(raw), fmt, ap);
    va_end(ap);
    sanitize(buf, sizeof(buf), raw);
    if (s->nwarnings == s->capwarnings) {
        s->capwarnings = s->capwarnings ? s->capwarnings * 2 : 16;
        s->warnings = kp_xrealloc(s->warnings,
                                  s->capwarnings * sizeof(char *));
    }
    s->warnings[s->nwarnings++] = kp_xstrdup(buf);
}

int
kp_snapshot_resource_id(struct kp_snapshot *s, const char *name)
{
    uintptr_t id = (uintptr_t)kp_strmap_get(&s->res_ids, name);
    char reason[512];
    const char *key;

    if (id)
        return (int)id - 1;
    if (s->nres == s->capres) {
        s->capres = s->capres ? s->capres * 2 : 16;
        s->res_names = kp_xrealloc(s->res_names,
                                   s->capres * sizeof(char *));
        s->res_reasons = kp_xrealloc(s->res_reasons,
                                     s->capres * sizeof(char *));
    }
    key = kp_arena_intern(&s->arena, name);
    snprintf(reason, sizeof(reason), "Insufficient %s", name);
    s->res_names[s->nres] = key;
    s->res_reasons[s->nres] = kp_arena_strdup(&s->arena, reason);
    kp_strmap_put(&s->res_ids, key, (void *)(uintptr_t)(s->nres + 1));
    return (int)s->nres++;
}

int64_t
kp_resvec_get(const struct kp_resvec *v, int id)
{
    size_t i;

    for (i = 0; i < v->n; i++)
        if (v->e[i].id == id)
            return v->e[i].value;
    return 0;
}

struct kp_node *
kp_snapshot_node(const struct kp_snapshot *s, const char *name)
{
    return kp_strmap_get(&s->node_index, name);
}

struct kp_pod *
kp_snapshot_pod(const struct kp_snapshot *s, const char *ns,
                const char *name)
{
    char key[1024];

    snprintf(key, sizeof(key), "%s/%s", ns, name);
    return kp_strmap_get(&s->pod_index, key);
}

const struct kp_pvc *
kp_snapshot_pvc(const struct kp_snapshot *s, const char *ns,
                const char *name)
{
    char key[1024];

    snprintf(key, sizeof(key), "%s/%s", ns, name);
    return kp_strmap_get(&s->pvc_index, key);
}

const struct kp_pv *
kp_snapshot_pv(const struct kp_snapshot *s, const char *name)
{
    return kp_strmap_get(&s->pv_index, name);
}

const struct kp_storage_class *
kp_snapshot_storage_class(const struct kp_snapshot *s, const char *name)
{
    return kp_strmap_get(&s->sc_index, name);
}

const struct kp_csinode *
kp_snapshot_csinode(const struct kp_snapshot *s, const char *name)
{
    return kp_strmap_get(&s->csinode_index, name);
}

const struct kp_storage_class *
kp_snapshot_default_storage_class(const struct kp_snapshot *s)
{
    const struct kp_storage_class *best = NULL;
    size_t i;

    for (i = 0; i < s->nscs; i++) {
        const struct kp_storage_class *sc = s->scs[i];

        if (!sc->is_default)
            continue;
        if (!best || sc->creation_time > best->creation_time ||
            (sc->creation_time == best->creation_time &&
             strcmp(sc->name, best->name) < 0))
            best = sc;
    }
    return best;
}

const struct kp_spread_source *
kp_snapshot_spread_source(const struct kp_snapshot *s,
                          enum kp_spread_source_kind kind, const char *ns,
                          const char *name)
{
    char key[1100];

    snprintf(key, sizeof(key), "%d/%s/%s", (int)kind, ns, name);
    return kp_strmap_get(&s->src_index, key);
}

bool
kp_snapshot_volumes_evaluated(const struct kp_snapshot *s)
{
    return s->has_pvc_input && !s->storage_refused;
}

bool
kp_pod_is_terminal(const struct kp_pod *p)
{
    return p->phase == KP_PHASE_SUCCEEDED || p->phase == KP_PHASE_FAILED;
}

bool
kp_pod_is_pending(const struct kp_pod *p, const char *scheduler_name)
{
    return !p->node_name && !kp_pod_is_terminal(p) && !p->deleting &&
           (scheduler_name ? strcmp(p->scheduler_name, scheduler_name) == 0
                           : p->in_profile);
}

/* ---- editing the model (core/whatif/, before kp_snapshot_finish) ---- */

void
kp_snapshot_push_pod(struct kp_snapshot *s, struct kp_pod *p)
{
    char key[1024];

    if (s->npods == s->cappods) {
        s->cappods = s->cappods ? s->cappods * 2 : 64;
        s->pods = kp_xrealloc(s->pods, s->cappods * sizeof(*s->pods));
    }
    p->index = (int)s->npods;
    s->pods[s->npods++] = p;
    snprintf(key, sizeof(key), "%s/%s", p->ns, p->name);
    kp_strmap_put(&s->pod_index, kp_arena_strdup(&s->arena, key), p);
}

void
kp_snapshot_push_node(struct kp_snapshot *s, struct kp_node *n)
{
    if (s->nnodes == s->capnodes) {
        s->capnodes = s->capnodes ? s->capnodes * 2 : 64;
        s->nodes = kp_xrealloc(s->nodes, s->capnodes * sizeof(*s->nodes));
    }
    n->index = (int)s->nnodes;
    s->nodes[s->nnodes++] = n;
    kp_strmap_put(&s->node_index, n->name, n);
}

/* Drop the pods marked in drop[] (by index) from s, keeping the order. */
void
kp_snapshot_drop_pods(struct kp_snapshot *s, const bool *drop)
{
    size_t i, k = 0;
    char key[1024];

    for (i = 0; i < s->npods; i++) {
        struct kp_pod *p = s->pods[i];

        if (drop[i]) {
            snprintf(key, sizeof(key), "%s/%s", p->ns, p->name);
            kp_strmap_remove(&s->pod_index, key);
            continue;
        }
        p->index = (int)k;
        s->pods[k++] = p;
    }
    s->npods = k;
}

void
kp_snapshot_drop_node(struct kp_snapshot *s, const struct kp_node *n)
{
    size_t i, k = 0;

    kp_strmap_remove(&s->node_index, n->name);
    for (i = 0; i < s->nnodes; i++) {
        if (s->nodes[i] == n)
            continue;
        s->nodes[i]->index = (int)k;
        s->nodes[k++] = s->nodes[i];
    }
    s->nnodes = k;
}

/* ---- rolling back a list (live: a restarted list) ---- */

void
kp_snapshot_mark(const struct kp_snapshot *s, struct kp_snapshot_mark *m)
{
    m->nnodes = s->nnodes;
    m->npods = s->npods;
    m->npdbs = s->npdbs;
    m->npcs = s->npcs;
    m->nnamespaces = s->nnamespaces;
    m->npvcs = s->npvcs;
    m->npvs = s->npvs;
    m->nscs = s->nscs;
    m->ncsinodes = s->ncsinodes;
    m->nevents = s->nevents;
    m->nwarnings = s->nwarnings;
    m->nres = s->nres;
    m->nunknown_kinds = s->nunknown_kinds;
    m->ndocuments = s->ndocuments;
    m->has_pvc_input = s->has_pvc_input;
    m->nsrcs = s->nsrcs;
    m->has_spread_input = s->has_spread_input;
}

/* Remove "ns/name" (ns != NULL) or name from index. */
static void
unregister_name(struct kp_strmap *index, const char *ns, const char *name)
{
    char key[1024];

    if (!ns) {
        kp_strmap_remove(index, name);
        return;
    }
    snprintf(key, sizeof(key), "%s/%s", ns, name);
    kp_strmap_remove(index, key);
}

static void
rollback_storage(struct kp_snapshot *s, const struct kp_snapshot_mark *m)
{
    while (s->npvcs > m->npvcs) {
        const struct kp_pvc *p = s->pvcs[--s->npvcs];

        unregister_name(&s->pvc_index, p->ns, p->name);
    }
    while (s->npvs > m->npvs)
        kp_strmap_remove(&s->pv_index, s->pvs[--s->npvs]->name);
    while (s->nscs > m->nscs)
        kp_strmap_remove(&s->sc_index, s->scs[--s->nscs]->name);
    while (s->ncsinodes > m->ncsinodes)
        kp_strmap_remove(&s->csinode_index,
                         s->csinodes[--s->ncsinodes]->name);
}

void
kp_snapshot_rollback(struct kp_snapshot *s, const struct kp_snapshot_mark *m)
{
    while (s->nnodes > m->nnodes)
        kp_strmap_remove(&s->node_index, s->nodes[--s->nnodes]->name);
    while (s->npods > m->npods) {
        const struct kp_pod *p = s->pods[--s->npods];

        unregister_name(&s->pod_index, p->ns, p->name);
    }
    while (s->npdbs > m->npdbs) {
        const struct kp_pdb *p = s->pdbs[--s->npdbs];

        unregister_name(&s->pdb_index, p->ns, p->name);
    }
    while (s->npcs > m->npcs)
        kp_strmap_remove(&s->pc_index, s->pcs[--s->npcs]->name);
    while (s->nnamespaces > m->nnamespaces)
        kp_strmap_remove(&s->ns_index,
                         s->namespaces[--s->nnamespaces]->name);
    rollback_storage(s, m);
    while (s->nres > m->nres)
        kp_strmap_remove(&s->res_ids, s->res_names[--s->nres]);
    while (s->nwarnings > m->nwarnings)
        free(s->warnings[--s->nwarnings]);
    s->nevents = m->nevents;
    s->nunknown_kinds = m->nunknown_kinds;
    s->ndocuments = m->ndocuments;
    s->has_pvc_input = m->has_pvc_input;
    while (s->nsrcs > m->nsrcs) {
        const struct kp_spread_source *src = s->srcs[--s->nsrcs];
        char key[1100];

        snprintf(key, sizeof(key), "%d/%s/%s", (int)src->kind, src->ns,
                 src->name);
        kp_strmap_remove(&s->src_index, key);
    }
    s->has_spread_input = m->has_spread_input;
}

/* ---- after loading ---- */


static void
add_system_class(struct kp_snapshot *s, const char *name, int32_t value)
{
    struct kp_priority_class *pc;

    if (kp_strmap_get(&s->pc_index, name))
        return;
    pc = kp_arena_alloc(&s->arena, sizeof(*pc));
    pc->name = kp_arena_intern(&s->arena, name);
    pc->value = value;
    kp_strmap_put(&s->pc_index, pc->name, pc);
    KP_PUSH(s->pcs, s->npcs, s->cappcs, pc);
}

static const struct kp_priority_class *
global_default(const struct kp_snapshot *s)
{
    const struct kp_priority_class *best = NULL;
    size_t i;

    for (i = 0; i < s->npcs; i++)
        if (s->pcs[i]->global_default &&
            (!best || s->pcs[i]->value < best->value))
            best = s->pcs[i];
    return best;
}

/* The pod names a class that does not exist and has no spec.priority. */
static bool
class_missing(const struct kp_snapshot *s, const struct kp_pod *p)
{
    return p->priority_class && p->priority_class[0] &&
           !p->has_spec_priority &&
           !kp_strmap_get(&s->pc_index, p->priority_class);
}

/*
 * Admission rules: spec.priority wins; else the named class; else the
 * globalDefault class with the lowest value (def); else 0.
 */
static void
resolve_priority(struct kp_snapshot *s, struct kp_pod *p,
                 const struct kp_priority_class *def)
{
    const struct kp_priority_class *pc = def;

    if (p->priority_class && p->priority_class[0]) {
        pc = kp_strmap_get(&s->pc_index, p->priority_class);
        if (class_missing(s, p))
            kp_snapshot_warn(s, "pod '%s/%s': no PriorityClass with name "
                             "'%s' was found; priority 0 assumed",
                             p->ns, p->name, p->priority_class);
    }
    if (p->has_spec_priority)
        return;
    p->priority = pc ? pc->value : 0;
}

static int
index_pods_by_node(struct kp_snapshot *s)
{
    size_t i, *fill;

    /* a what-if finishes the snapshot again once changed (run.c) */
    free(s->node_npods);
    free(s->node_pods);
    s->node_npods = kp_xcalloc(s->nnodes, sizeof(size_t));
    s->node_pods = kp_xcalloc(s->nnodes, sizeof(*s->node_pods));
    for (i = 0; i < s->npods; i++) {
        const struct kp_pod *p = s->pods[i];
        struct kp_node *n;

        if (!p->node_name || kp_pod_is_terminal(p))
            continue;
        n = kp_snapshot_node(s, p->node_name);
        if (!n) {
            kp_snapshot_warn(s, "pod '%s/%s' is bound to node '%s', which "
                             "is not in the snapshot; it is ignored",
                             p->ns, p->name, p->node_name);
            continue;
        }
        s->node_npods[n->index]++;
    }
    for (i = 0; i < s->nnodes; i++)
        s->node_pods[i] = kp_arena_alloc(&s->arena, sizeof(void *) *
                                         s->node_npods[i]);
    fill = kp_xcalloc(s->nnodes ? s->nnodes : 1, sizeof(size_t));
    for (i = 0; i < s->npods; i++) {
        const struct kp_pod *p = s->pods[i];
        struct kp_node *n;

        if (!p->node_name || kp_pod_is_terminal(p))
            continue;
        n = kp_snapshot_node(s, p->node_name);
        if (n)
            s->node_pods[n->index][fill[n->index]++] = p;
    }
    free(fill);
    return 0;
}

bool
kp_pdb_matches(const struct kp_pdb *pdb, const struct kp_pod *pod)
{
    if (strcmp(pdb->ns, pod->ns) != 0)
        return false;
    if (pdb->empty_selector_matches_all && !pdb->selector.is_null &&
        pdb->selector.nreq == 0)
        return true;
    if (pod->labels.n == 0)
        return false;
    if (pdb->selector.is_null || pdb->selector.nreq == 0)
        return false;
    return kp_selector_matches(&pdb->selector, &pod->labels);
}

bool
kp_pdb_in_disrupted(const struct kp_pdb *pdb, const struct kp_pod *pod)
{
    size_t i;

    for (i = 0; i < pdb->ndisrupted; i++)
        if (strcmp(pdb->disrupted[i], pod->name) == 0)
            return true;
    return false;
}

struct ns_pdbs {
    size_t n, cap;
    int *idx;
};

/*
 * Labels and selectors never change during an analysis: find each pod's
 * PDBs once, looking only at the PDBs of its namespace.
 */
static void
index_pdbs_by_pod(struct kp_snapshot *s)
{
    struct kp_strmap by_ns;
    size_t i, j;
    int *tmp;

    kp_strmap_init(&by_ns);
    for (i = 0; i < s->npdbs; i++) {
        struct ns_pdbs *g = kp_strmap_get(&by_ns, s->pdbs[i]->ns);

        if (!g) {
            g = kp_arena_alloc(&s->arena, sizeof(*g));
            kp_strmap_put(&by_ns, s->pdbs[i]->ns, g);
        }
        g->cap++;
    }
    for (i = 0; i < s->npdbs; i++) {
        struct ns_pdbs *g = kp_strmap_get(&by_ns, s->pdbs[i]->ns);

        if (!g->idx)
            g->idx = kp_arena_alloc(&s->arena, g->cap * sizeof(int));
        g->idx[g->n++] = (int)i;
    }
    /*
     * Every matching PDB, however many (getPodDisruptionBudgets): a pod
     * matches at most the PDBs of its namespace, s->npdbs in all.
     */
    tmp = kp_xmalloc((s->npdbs + 1) * sizeof(int));
    for (i = 0; i < s->npods; i++) {
        struct kp_pod *p = s->pods[i];
        const struct ns_pdbs *g = kp_strmap_get(&by_ns, p->ns);

        p->npdbs = 0;
        for (j = 0; g && j < g->n; j++)
            if (kp_pdb_matches(s->pdbs[g->idx[j]], p))
                tmp[p->npdbs++] = g->idx[j];
        p->pdbs = kp_arena_memdup(&s->arena, tmp, p->npdbs * sizeof(int));
    }
    free(tmp);
    kp_strmap_release(&by_ns);
}

/* A namespaceSelector other than null and {}: it needs Namespace labels. */
static bool
needs_namespace_labels(const struct kp_affinity_term *t, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (t[i].has_ns_selector && !t[i].ns_selector.is_null &&
            !t[i].ns_selector.invalid && t[i].ns_selector.nreq > 0)
            return true;
    return false;
}

/* The pod's terms are evaluated: it is on a node or pending. */
static bool
pod_counts(const struct kp_snapshot *s, const struct kp_pod *p,
           const char *scheduler_name)
{
    if (kp_pod_is_terminal(p))
        return false;
    if (p->node_name)
        return kp_snapshot_node(s, p->node_name) != NULL;
    return kp_pod_is_pending(p, scheduler_name);
}

/* Link each pod to its Namespace. */
static void
link_namespaces(struct kp_snapshot *s)
{
    size_t i;

    for (i = 0; i < s->npods; i++)
        s->pods[i]->ns_obj = kp_strmap_get(&s->ns_index, s->pods[i]->ns);
}

void
kp_snapshot_check_namespace_selectors(struct kp_snapshot *s,
                                      const char *scheduler_name)
{
    const struct kp_pod *first = NULL;
    char more[64] = "";
    size_t i, n = 0;

    for (i = 0; s->nnamespaces == 0 && i < s->npods; i++) {
        const struct kp_pod *p = s->pods[i];

        if (!pod_counts(s, p, scheduler_name) ||
            !(needs_namespace_labels(p->affinity, p->naffinity) ||
              needs_namespace_labels(p->anti_affinity, p->nanti_affinity) ||
              needs_namespace_labels(p->pref_affinity, p->npref_affinity) ||
              needs_namespace_labels(p->pref_anti_affinity,
                                     p->npref_anti_affinity)))
            continue;
        if (!first)
            first = p;
        n++;
    }
    if (!first)
        return;
    if (n > 1)
        snprintf(more, sizeof(more), " (%zu more pod%s such terms)", n - 1,
                 n > 2 ? "s have" : " has");
    kp_snapshot_warn(s, "pod '%s/%s': the namespaceSelector of its pod "
                     "affinity terms cannot be evaluated: the snapshot has "
                     "no Namespace objects (kubectl get namespaces); it is "
                     "taken to select no namespace%s", first->ns,
                     first->name, more);
}

/*
 * Without PVCs in the input the PVC and ephemeral volumes of pods are left
 * out of the volume plugins; say so once.  With PVCs but no PVs at all,
 * every bound claim would read as bound to a missing volume: say that too.
 */
static void
storage_warnings(struct kp_snapshot *s)
{
    size_t i, n = 0;

    if (!kp_snapshot_volumes_evaluated(s)) {
        for (i = 0; i < s->npods; i++)
            if (s->pods[i]->uses_volumes && !kp_pod_is_terminal(s->pods[i]))
                n++;
        if (n && s->storage_refused)
            kp_snapshot_warn(s, "%zu pod(s) use PersistentVolumeClaims or "
                             "ephemeral volumes, which are not evaluated: "
                             "the storage objects could not be listed", n);
        else if (n)
            kp_snapshot_warn(s, "%zu pod(s) use PersistentVolumeClaims or "
                             "ephemeral volumes, which are not evaluated: "
                             "the input has no PersistentVolumeClaims (add "
                             "pvc,pv,storageclasses,csinodes to kubectl get)",
                             n);
        return;
    }
    if (s->npvs)
        return;
    for (i = 0; i < s->npvcs; i++)
        if (s->pvcs[i]->volume_name)
            n++;
    if (n)
        kp_snapshot_warn(s, "the input has no PersistentVolumes: %zu bound "
                         "PersistentVolumeClaim(s) name a volume that is "
                         "not in the input", n);
}

int
kp_snapshot_finish(struct kp_snapshot *s, const char *scheduler_name,
                   struct kp_error *err)
{
    const struct kp_priority_class *def;
    size_t i;

    add_system_class(s, "system-cluster-critical", 2000000000);
    add_system_class(s, "system-node-critical", 2000001000);
    /*
     * Admission would have refused a pending pod naming no class; one that
     * is already bound only gets a warning.  Errors first: an error is the
     * only line on stderr.
     */
    for (i = 0; i < s->npods; i++) {
        const struct kp_pod *p = s->pods[i];

        if (class_missing(s, p) && kp_pod_is_pending(p, scheduler_name)) {
            kp_errorf(err, KP_EXIT_ERROR, "%s: pod '%s/%s': "
                      "spec.priorityClassName: no PriorityClass with name "
                      "'%s' was found", p->source, p->ns, p->name,
                      p->priority_class);
            return kp_snapshot_sanitize_error(err);
        }
    }
    if (s->nnodes == 0)
        kp_snapshot_warn(s, "the snapshot has no nodes: every pending pod "
                         "is unschedulable");
    def = s->default_class = global_default(s);
    for (i = 0; i < s->npods; i++) {
        struct kp_pod *p = s->pods[i];
        const struct kp_priority_class *pc = NULL;

        resolve_priority(s, p, def);
        if (p->priority_class && p->priority_class[0])
            pc = kp_strmap_get(&s->pc_index, p->priority_class);
        else if (!p->has_spec_priority)
            pc = def;
        /* preemptionPolicy: the pod's own, else its class's */
        if (!p->has_spec_preemption_policy && pc && pc->preempt_never)
            p->preempt_never = true;
    }
    index_pods_by_node(s);
    index_pdbs_by_pod(s);
    link_namespaces(s);
    storage_warnings(s);
    s->finished = true;
    return 0;
}
