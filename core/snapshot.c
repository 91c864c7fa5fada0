/*
 * snapshot.c - loading kubectl JSON into the model; priority resolution.
 *
 * Mirrors plugin/pkg/admission/priority/admission.go (priority and
 * preemptionPolicy from PriorityClass, globalDefault, the system classes)
 * and the informer rules of pkg/scheduler/eventhandlers.go.
 */
#include "snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

#define KP_MAX_INPUT_BYTES ((size_t)8 << 30)

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
    free(s->res_names);
    free(s->res_reasons);
    free(s->node_pods);
    free(s->node_npods);
    kp_strmap_release(&s->res_ids);
    kp_strmap_release(&s->node_index);
    kp_strmap_release(&s->pod_index);
    kp_strmap_release(&s->pdb_index);
    kp_strmap_release(&s->pc_index);
    kp_arena_release(&s->arena);
    memset(s, 0, sizeof(*s));
}

void
kp_snapshot_warn(struct kp_snapshot *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
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

bool
kp_pod_is_terminal(const struct kp_pod *p)
{
    return p->phase == KP_PHASE_SUCCEEDED || p->phase == KP_PHASE_FAILED;
}

bool
kp_pod_is_pending(const struct kp_pod *p, const char *scheduler_name)
{
    return !p->node_name && !kp_pod_is_terminal(p) && !p->deleting &&
           strcmp(p->scheduler_name, scheduler_name) == 0;
}

#define PUSH(arr, n, cap, item)                                          \
    do {                                                                 \
        if ((n) == (cap)) {                                              \
            (cap) = (cap) ? (cap) * 2 : 64;                              \
            (arr) = kp_xrealloc((arr), (cap) * sizeof(*(arr)));          \
        }                                                                \
        (arr)[(n)++] = (item);                                           \
    } while (0)

/* "kind 'ns/name'" or "kind 'name'" for error messages. */
static void
describe(const cJSON *obj, const char *kind, char *buf, size_t n)
{
    const cJSON *md = kp_json_get(obj, "metadata");
    const cJSON *name = kp_json_get(md, "name");
    const cJSON *ns = kp_json_get(md, "namespace");
    const char *lk = strcmp(kind, "PodDisruptionBudget") == 0 ?
                     "poddisruptionbudget" : kind;
    char lower[64];
    size_t i;

    for (i = 0; lk[i] && i + 1 < sizeof(lower); i++)
        lower[i] = (char)(lk[i] >= 'A' && lk[i] <= 'Z' ? lk[i] + 32 : lk[i]);
    lower[i] = '\0';
    if (!cJSON_IsString(name))
        snprintf(buf, n, "%s with no name", lower);
    else if (cJSON_IsString(ns) && strcmp(kind, "Node") != 0 &&
             strcmp(kind, "PriorityClass") != 0)
        snprintf(buf, n, "%s '%s/%s'", lower, ns->valuestring,
                 name->valuestring);
    else
        snprintf(buf, n, "%s '%s'", lower, name->valuestring);
}

static int
index_unique(struct kp_strmap *m, const char *key, void *obj,
             struct kp_error *err)
{
    if (kp_strmap_put(m, key, obj))
        return kp_errorf(err, KP_EXIT_ERROR, "duplicate object");
    return 0;
}

static const char *
ns_key(struct kp_snapshot *s, const char *ns, const char *name)
{
    char key[1024];

    snprintf(key, sizeof(key), "%s/%s", ns, name);
    return kp_arena_strdup(&s->arena, key);
}

static int
add_known(struct kp_snapshot *s, const cJSON *obj, const char *kind,
          const char *source, struct kp_error *err)
{
    if (strcmp(kind, "Pod") == 0) {
        struct kp_pod *p = kp_arena_alloc(&s->arena, sizeof(*p));

        p->source = source;
        p->index = (int)s->npods;
        if (kp_decode_pod(s, obj, p, err) < 0 ||
            index_unique(&s->pod_index, ns_key(s, p->ns, p->name), p,
                         err) < 0)
            return -1;
        PUSH(s->pods, s->npods, s->cappods, p);
    } else if (strcmp(kind, "Node") == 0) {
        struct kp_node *n = kp_arena_alloc(&s->arena, sizeof(*n));

        n->source = source;
        n->index = (int)s->nnodes;
        if (kp_decode_node(s, obj, n, err) < 0 ||
            index_unique(&s->node_index, n->name, n, err) < 0)
            return -1;
        PUSH(s->nodes, s->nnodes, s->capnodes, n);
    } else if (strcmp(kind, "PodDisruptionBudget") == 0) {
        struct kp_pdb *p = kp_arena_alloc(&s->arena, sizeof(*p));

        if (kp_decode_pdb(s, obj, p, err) < 0 ||
            index_unique(&s->pdb_index, ns_key(s, p->ns, p->name), p,
                         err) < 0)
            return -1;
        PUSH(s->pdbs, s->npdbs, s->cappdbs, p);
    } else {
        struct kp_priority_class *pc = kp_arena_alloc(&s->arena,
                                                      sizeof(*pc));

        if (kp_decode_priority_class(s, obj, pc, err) < 0 ||
            index_unique(&s->pc_index, pc->name, pc, err) < 0)
            return -1;
        PUSH(s->pcs, s->npcs, s->cappcs, pc);
    }
    return 0;
}

int
kp_snapshot_add_object(struct kp_snapshot *s, const cJSON *obj,
                       const char *kind, const char *source,
                       struct kp_error *err)
{
    char what[600];

    if (!cJSON_IsObject(obj))
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object");
    if (strcmp(kind, "Pod") != 0 && strcmp(kind, "Node") != 0 &&
        strcmp(kind, "PodDisruptionBudget") != 0 &&
        strcmp(kind, "PriorityClass") != 0) {
        s->nunknown_kinds++;
        return 0;
    }
    if (add_known(s, obj, kind, source, err) < 0) {
        describe(obj, kind, what, sizeof(what));
        return kp_error_prefix(err, "%s", what);
    }
    return 0;
}

static int
load_list(struct kp_snapshot *s, const cJSON *doc, const char *kind,
          const char *source, struct kp_error *err)
{
    const cJSON *items, *it;
    char item_kind[128] = "";
    size_t i = 0;

    if (kp_json_arr(doc, "items", &items, err) < 0)
        return -1;
    if (strcmp(kind, "List") != 0) {
        size_t n = strlen(kind) - 4;

        if (n >= sizeof(item_kind))
            n = sizeof(item_kind) - 1;
        memcpy(item_kind, kind, n);
        item_kind[n] = '\0';
    }
    cJSON_ArrayForEach(it, items) {
        const cJSON *k = kp_json_get(it, "kind");
        const char *ik = item_kind;

        if (k && !cJSON_IsString(k))
            return kp_errorf(err, KP_EXIT_ERROR,
                             "items[%zu].kind: expected a string", i);
        if (k)
            ik = k->valuestring;
        if (!ik[0])
            return kp_errorf(err, KP_EXIT_ERROR,
                             "items[%zu]: missing kind", i);
        if (kp_snapshot_add_object(s, it, ik, source, err) < 0)
            return -1;
        i++;
    }
    return 0;
}

static int
load_document(struct kp_snapshot *s, const cJSON *doc, const char *source,
              struct kp_error *err)
{
    const cJSON *kind;
    size_t klen;

    if (!cJSON_IsObject(doc))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "expected a Kubernetes object or List");
    if (kp_json_validate(doc, KP_MAX_JSON_DEPTH, err) < 0)
        return -1;
    kind = kp_json_get(doc, "kind");
    if (kind && !cJSON_IsString(kind))
        return kp_errorf(err, KP_EXIT_ERROR, "kind: expected a string");
    if (!kind) {
        if (kp_json_get(doc, "items"))
            return load_list(s, doc, "List", source, err);
        return kp_errorf(err, KP_EXIT_ERROR, "kind: missing");
    }
    klen = strlen(kind->valuestring);
    if (klen >= 4 && strcmp(kind->valuestring + klen - 4, "List") == 0)
        return load_list(s, doc, kind->valuestring, source, err);
    return kp_snapshot_add_object(s, doc, kind->valuestring, source, err);
}

static void
line_col(const char *buf, size_t off, size_t *line, size_t *col)
{
    size_t i;

    *line = 1;
    *col = 1;
    for (i = 0; i < off; i++) {
        if (buf[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static size_t
skip_ws(const char *buf, size_t len, size_t off)
{
    while (off < len && (buf[off] == ' ' || buf[off] == '\n' ||
                         buf[off] == '\r' || buf[off] == '\t'))
        off++;
    return off;
}

int
kp_snapshot_load_buffer(struct kp_snapshot *s, const char *buf, size_t len,
                        const char *source, struct kp_error *err)
{
    size_t off = skip_ws(buf, len, 0), ndocs = 0;

    source = kp_arena_intern(&s->arena, source);
    if (off == len)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: empty input", source);
    while (off < len) {
        const char *end = NULL;
        cJSON *doc = cJSON_ParseWithLengthOpts(buf + off, len - off, &end, 0);
        int rc;

        if (!doc) {
            size_t line, col, at = end ? (size_t)(end - buf) : off;

            line_col(buf, at, &line, &col);
            return kp_errorf(err, KP_EXIT_ERROR,
                             "%s: invalid JSON at line %zu, column %zu%s",
                             source, line, col,
                             at >= len ? " (truncated input)" : "");
        }
        ndocs++;
        rc = load_document(s, doc, source, err);
        cJSON_Delete(doc);
        if (rc < 0) {
            if (ndocs > 1)
                kp_error_prefix(err, "document %zu", ndocs);
            return kp_error_prefix(err, "%s", source);
        }
        off = skip_ws(buf, len, (size_t)(end - buf));
    }
    s->ndocuments += ndocs;
    return 0;
}

static char *
read_all(FILE *f, size_t *len, struct kp_error *err, const char *path)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = kp_xmalloc(cap);

    for (;;) {
        size_t r;

        if (n == cap) {
            if (cap >= KP_MAX_INPUT_BYTES) {
                free(buf);
                kp_errorf(err, KP_EXIT_ERROR, "%s: input larger than %zu "
                          "bytes", path, KP_MAX_INPUT_BYTES);
                return NULL;
            }
            cap *= 2;
            buf = kp_xrealloc(buf, cap);
        }
        r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        kp_errorf(err, KP_EXIT_ERROR, "%s: read error: %s", path,
                  strerror(errno));
        return NULL;
    }
    *len = n;
    return buf;
}

int
kp_snapshot_load_file(struct kp_snapshot *s, const char *path,
                      struct kp_error *err)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    const char *name = is_stdin ? "<stdin>" : path;
    size_t len;
    char *buf;
    int rc;

    if (!f)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: %s", path,
                         strerror(errno));
    buf = read_all(f, &len, err, name);
    if (!is_stdin)
        fclose(f);
    if (!buf)
        return -1;
    rc = kp_snapshot_load_buffer(s, buf, len, name, err);
    free(buf);
    return rc;
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
    PUSH(s->pcs, s->npcs, s->cappcs, pc);
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

/*
 * Admission rules: spec.priority wins; else the named class; else the
 * globalDefault class with the lowest value; else 0.
 */
static int
resolve_priority(struct kp_snapshot *s, struct kp_pod *p,
                 const struct kp_priority_class *def, bool pending,
                 struct kp_error *err)
{
    const struct kp_priority_class *pc = def;

    if (p->priority_class && p->priority_class[0]) {
        pc = kp_strmap_get(&s->pc_index, p->priority_class);
        if (!pc && !p->has_spec_priority) {
            if (pending)
                return kp_errorf(err, KP_EXIT_ERROR,
                                 "%s: pod '%s/%s': spec.priorityClassName: "
                                 "no PriorityClass with name '%s' was found",
                                 p->source, p->ns, p->name,
                                 p->priority_class);
            kp_snapshot_warn(s, "pod '%s/%s': no PriorityClass with name "
                             "'%s' was found; priority 0 assumed",
                             p->ns, p->name, p->priority_class);
        }
    }
    if (p->has_spec_priority)
        return 0;
    p->priority = pc ? pc->value : 0;
    return 0;
}

static int
index_pods_by_node(struct kp_snapshot *s)
{
    size_t i, *fill;

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

int
kp_snapshot_finish(struct kp_snapshot *s, const char *scheduler_name,
                   struct kp_error *err)
{
    const struct kp_priority_class *def;
    size_t i;

    add_system_class(s, "system-cluster-critical", 2000000000);
    add_system_class(s, "system-node-critical", 2000001000);
    def = global_default(s);
    for (i = 0; i < s->npods; i++) {
        struct kp_pod *p = s->pods[i];
        const struct kp_priority_class *pc = NULL;

        if (resolve_priority(s, p, def, kp_pod_is_pending(p, scheduler_name),
                             err) < 0)
            return -1;
        if (p->priority_class && p->priority_class[0])
            pc = kp_strmap_get(&s->pc_index, p->priority_class);
        else if (!p->has_spec_priority)
            pc = def;
        /* preemptionPolicy: the pod's own, else its class's */
        if (!p->has_spec_preemption_policy && pc && pc->preempt_never)
            p->preempt_never = true;
    }
    index_pods_by_node(s);
    s->finished = true;
    return 0;
}
