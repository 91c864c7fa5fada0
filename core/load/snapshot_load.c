/*
 * snapshot_load.c - see snapshot_load.h: kubectl's JSON (a List, an
 * XxxList, single objects, concatenated documents; a file, a pipe, live
 * pages) decoded into the cluster model (core/cluster/snapshot.h), one
 * object at a time, with the informer rules of
 * pkg/scheduler/eventhandlers.go.  Moved verbatim from snapshot.c
 * (issue 28).
 */
#include "snapshot_load.h"
#include "shortcut.h"
#include "hash.h"
#include "kube_version.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_util.h"
#include "mapped_file.h"
#include "pool.h"

#define KP_MAX_INPUT_BYTES ((size_t)8 << 30)
/* Deeper than this, the raw text is refused before cJSON (limit 1000). */
#define KP_MAX_JSON_NESTING 512


/* "PodList" -> "podlist", as kubectl names kinds in messages. */
static void
lower_kind(const char *kind, char *buf, size_t n)
{
    size_t i;

    for (i = 0; kind[i] && i + 1 < n; i++)
        buf[i] = (char)(kind[i] >= 'A' && kind[i] <= 'Z' ? kind[i] + 32
                                                         : kind[i]);
    buf[i] = '\0';
}

/*
 * One row per kind the snapshot reads (the table "kinds" below), looked
 * up once per object: how it is added and how messages name it.  An
 * object of a kind without a row is counted as ignored; its messages
 * name it by lower_kind(), with "ns/name" when it has a namespace.
 */
struct kind_row {
    const char *kind;           /* "PersistentVolumeClaim" */
    const char *label;          /* in messages: "persistentvolumeclaim" */
    bool namespaced;            /* messages say "ns/name", not "name" */
    bool defaults_namespace;    /* no namespace means "default" */
    bool list_marks_claims;     /* its List, even empty, sets has_pvc_input */
    int (*add)(struct kp_snapshot *s, const cJSON *obj, const char *source,
               struct kp_error *err);
};

/*
 * The object in error messages: "pod 'ns/name'", "node 'name'" (pods,
 * PDBs and claims without a namespace are in "default"), or "pod with no
 * name" and, for the items of a List (index >= 0), where it is.  row is
 * the kind's row, NULL for a kind without one.
 */
static void
describe(const cJSON *obj, const char *kind, const struct kind_row *row,
         long index, char *buf, size_t n)
{
    const cJSON *md = kp_json_get(obj, "metadata");
    const cJSON *name = kp_json_get(md, "name");
    const cJSON *ns = kp_json_get(md, "namespace");
    const char *nsname = "", *label = row ? row->label : NULL;
    char lower[64];

    if (!label) {
        lower_kind(kind, lower, sizeof(lower));
        label = lower;
    }
    if (cJSON_IsString(ns) && ns->valuestring[0])
        nsname = ns->valuestring;
    else if (row && row->defaults_namespace)
        nsname = "default";
    if (!cJSON_IsString(name) || !name->valuestring[0]) {
        if (index >= 0)
            snprintf(buf, n, "%s with no name (items[%ld])", label, index);
        else
            snprintf(buf, n, "%s with no name", label);
    } else if (nsname[0] && (!row || row->namespaced)) {
        snprintf(buf, n, "%s '%s/%s'", label, nsname, name->valuestring);
    } else {
        snprintf(buf, n, "%s '%s'", label, name->valuestring);
    }
}

static int
index_unique(struct kp_strmap *m, const char *key, void *obj,
             struct kp_error *err)
{
    if (kp_strmap_get(m, key))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "metadata.name: duplicate object");
    kp_strmap_put(m, key, obj);
    return 0;
}

/*
 * Names are DNS subdomains (at most 253 characters, no '/', no spaces or
 * control characters): "ns/name" keys stay unambiguous and every report
 * line stays one line.
 */
static int
check_name(const char *field, const char *name, struct kp_error *err)
{
    const unsigned char *p;

    if (!name)
        return 0;
    if (strlen(name) > 253)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: longer than 253 "
                         "characters", field);
    for (p = (const unsigned char *)name; *p; p++)
        if (*p <= ' ' || *p == '/' || *p == 0x7F)
            return kp_errorf(err, KP_EXIT_ERROR, "%s: invalid name '%s': "
                             "no '/', spaces or control characters allowed",
                             field, name);
    return 0;
}

static const char *
ns_key(struct kp_snapshot *s, const char *ns, const char *name)
{
    char key[1024];

    snprintf(key, sizeof(key), "%s/%s", ns, name);
    return kp_arena_strdup(&s->arena, key);
}

/*
 * An object's contents as one 64-bit value: every member and element,
 * the members of an object in any order (two copies of one object that
 * kubectl printed as JSON and as YAML hash alike).
 */
static uint64_t
content_hash(const cJSON *j)
{
    uint64_t h = kp_hash_byte(KP_HASH_SEED, (unsigned char)(j->type & 0xFF));
    const cJSON *c;
    uint64_t sum = 0;

    if (cJSON_IsString(j))
        return kp_hash_str(h, j->valuestring);
    if (cJSON_IsNumber(j))
        return kp_hash_bytes(h, &j->valuedouble, sizeof(j->valuedouble));
    if (cJSON_IsArray(j)) {
        for (c = j->child; c; c = c->next)
            h = kp_hash_u64(h, content_hash(c));
        return h;
    }
    if (cJSON_IsObject(j)) {
        for (c = j->child; c; c = c->next)
            sum += kp_hash_u64(kp_hash_str(KP_HASH_SEED, c->string),
                               content_hash(c));
        return kp_hash_u64(h, sum);
    }
    return h;                   /* true, false, null */
}

/* Where the first copy of an object came from, and what it held. */
struct seen_object {
    uint64_t hash;
    const char *source;
    unsigned file;                  /* nfiles_read when it was read */
};

/*
 * Several -f files (or a directory) may hold the same object: kubectl
 * get -f of two exports that overlap.  An identical copy is merged (1:
 * skip it); one that differs is refused, naming the file of the first.
 */
static int
merge_duplicate(struct kp_snapshot *s, const char *key, const cJSON *json,
                const char *source, bool dup, struct kp_error *err)
{
    struct seen_object *first;
    uint64_t h;

    if (!s->merge_duplicates || !json)
        return dup ? kp_errorf(err, KP_EXIT_ERROR,
                               "metadata.name: duplicate object") : 0;
    h = content_hash(json);
    first = kp_strmap_get(&s->seen, key);
    if (!dup) {
        first = kp_arena_alloc(&s->arena, sizeof(*first));
        first->hash = h;
        first->source = source;
        first->file = s->nfiles_read;
        kp_strmap_put(&s->seen, kp_arena_strdup(&s->arena, key), first);
        return 0;
    }
    /* twice in one file: no export prints an object twice */
    if (!first || !first->source || first->file == s->nfiles_read)
        return kp_errorf(err, KP_EXIT_ERROR,
                         "metadata.name: duplicate object");
    if (first->hash == h)
        return 1;
    return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: duplicate object: "
                     "%s has it with other contents (identical copies are "
                     "merged)", first->source);
}

/*
 * The checks every object's name goes through: valid names (and
 * namespace, for namespaced kinds: ns != NULL), then unique in its index
 * under "ns/name" or "name", unless an identical copy from another file
 * (merge_duplicate: returns 1, the object is not added).
 */
static int
register_name(struct kp_snapshot *s, struct kp_strmap *index,
              const char *ns, const char *name, void *obj,
              const cJSON *json, const char *source, struct kp_error *err)
{
    const char *key;
    char skey[1100];
    int r;

    if (check_name("metadata.name", name, err) < 0 ||
        (ns && check_name("metadata.namespace", ns, err) < 0))
        return -1;
    key = ns ? ns_key(s, ns, name) : name;
    if (!s->merge_duplicates)
        return index_unique(index, key, obj, err);
    /* one table for every kind: the index tells the kinds apart */
    snprintf(skey, sizeof(skey), "%p:%s", (void *)index, key);
    r = merge_duplicate(s, skey, json, source,
                        kp_strmap_get(index, key) != NULL, err);
    if (r == 0)
        kp_strmap_put(index, key, obj);
    return r;
}


static int
add_pod(struct kp_snapshot *s, const cJSON *obj, const char *source,
        struct kp_error *err)
{
    struct kp_pod *p = kp_arena_alloc(&s->arena, sizeof(*p));
    int r;

    p->source = source;
    p->index = (int)s->npods;
    if (kp_decode_pod(s, obj, p, err) < 0 ||
        (r = register_name(s, &s->pod_index, p->ns, p->name, p, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->pods, s->npods, s->cappods, p);
    kp_snapshot_note_disruption(s, obj, p);
    return 0;
}

static int
add_node(struct kp_snapshot *s, const cJSON *obj, const char *source,
         struct kp_error *err)
{
    struct kp_node *n = kp_arena_alloc(&s->arena, sizeof(*n));
    int r;

    n->source = source;
    n->index = (int)s->nnodes;
    if (kp_decode_node(s, obj, n, err) < 0 ||
        (r = register_name(s, &s->node_index, NULL, n->name, n, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->nodes, s->nnodes, s->capnodes, n);
    return 0;
}

static int
add_pdb(struct kp_snapshot *s, const cJSON *obj, const char *source,
        struct kp_error *err)
{
    struct kp_pdb *p = kp_arena_alloc(&s->arena, sizeof(*p));
    int r;

    if (kp_decode_pdb(s, obj, p, err) < 0 ||
        (r = register_name(s, &s->pdb_index, p->ns, p->name, p, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->pdbs, s->npdbs, s->cappdbs, p);
    return 0;
}

static int
add_namespace(struct kp_snapshot *s, const cJSON *obj, const char *source,
              struct kp_error *err)
{
    struct kp_namespace *ns = kp_arena_alloc(&s->arena, sizeof(*ns));
    int r;

    ns->index = (int)s->nnamespaces;
    if (kp_decode_namespace(s, obj, ns, err) < 0 ||
        (r = register_name(s, &s->ns_index, NULL, ns->name, ns, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->namespaces, s->nnamespaces, s->capnamespaces, ns);
    return 0;
}

static int
add_priority_class(struct kp_snapshot *s, const cJSON *obj,
                   const char *source, struct kp_error *err)
{
    struct kp_priority_class *pc = kp_arena_alloc(&s->arena, sizeof(*pc));
    int r;

    if (kp_decode_priority_class(s, obj, pc, err) < 0 ||
        (r = register_name(s, &s->pc_index, NULL, pc->name, pc, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->pcs, s->npcs, s->cappcs, pc);
    return 0;
}

static int
add_pvc(struct kp_snapshot *s, const cJSON *obj, const char *source,
        struct kp_error *err)
{
    struct kp_pvc *p = kp_arena_alloc(&s->arena, sizeof(*p));
    int r;

    p->source = source;
    p->index = (int)s->npvcs;
    if (kp_decode_pvc(s, obj, p, err) < 0 ||
        (r = register_name(s, &s->pvc_index, p->ns, p->name, p, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->pvcs, s->npvcs, s->cappvcs, p);
    s->has_pvc_input = true;
    return 0;
}

static int
add_pv(struct kp_snapshot *s, const cJSON *obj, const char *source,
       struct kp_error *err)
{
    struct kp_pv *p = kp_arena_alloc(&s->arena, sizeof(*p));
    int r;

    p->source_file = source;
    p->index = (int)s->npvs;
    if (kp_decode_pv(s, obj, p, err) < 0 ||
        (r = register_name(s, &s->pv_index, NULL, p->name, p, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->pvs, s->npvs, s->cappvs, p);
    return 0;
}

static int
add_storage_class(struct kp_snapshot *s, const cJSON *obj,
                  const char *source, struct kp_error *err)
{
    struct kp_storage_class *sc = kp_arena_alloc(&s->arena, sizeof(*sc));
    int r;

    if (kp_decode_storage_class(s, obj, sc, err) < 0 ||
        (r = register_name(s, &s->sc_index, NULL, sc->name, sc, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->scs, s->nscs, s->capscs, sc);
    return 0;
}

static int
add_csinode(struct kp_snapshot *s, const cJSON *obj, const char *source,
            struct kp_error *err)
{
    struct kp_csinode *cn = kp_arena_alloc(&s->arena, sizeof(*cn));
    int r;

    if (kp_decode_csinode(s, obj, cn, err) < 0 ||
        (r = register_name(s, &s->csinode_index, NULL, cn->name, cn, obj,
                            source, err)) < 0)
        return -1;
    if (r)
        return 0;
    KP_PUSH(s->csinodes, s->ncsinodes, s->capcsinodes, cn);
    return 0;
}

/* One of helper.DefaultSelector's objects, under "<kind>/<ns>/<name>". */
static int
add_spread_source(struct kp_snapshot *s, const cJSON *obj,
                  enum kp_spread_source_kind kind, struct kp_error *err)
{
    struct kp_spread_source *src = kp_arena_alloc(&s->arena, sizeof(*src));
    char key[1100];

    if (kp_decode_spread_source(s, obj, kind, src, err) < 0 ||
        check_name("metadata.name", src->name, err) < 0 ||
        check_name("metadata.namespace", src->ns, err) < 0)
        return -1;
    snprintf(key, sizeof(key), "%d/%s/%s", (int)kind, src->ns, src->name);
    if (index_unique(&s->src_index, kp_arena_strdup(&s->arena, key), src,
                     err) < 0)
        return -1;
    KP_PUSH(s->srcs, s->nsrcs, s->capsrcs, src);
    s->has_spread_input |= 1u << kind;
    return 0;
}

static int
add_service(struct kp_snapshot *s, const cJSON *obj, const char *source,
            struct kp_error *err)
{
    (void)source;
    return add_spread_source(s, obj, KP_SRC_SERVICE, err);
}

static int
add_replication_controller(struct kp_snapshot *s, const cJSON *obj,
                           const char *source, struct kp_error *err)
{
    (void)source;
    return add_spread_source(s, obj, KP_SRC_REPLICATION_CONTROLLER, err);
}

static int
add_replica_set(struct kp_snapshot *s, const cJSON *obj, const char *source,
                struct kp_error *err)
{
    (void)source;
    return add_spread_source(s, obj, KP_SRC_REPLICA_SET, err);
}

static int
add_stateful_set(struct kp_snapshot *s, const cJSON *obj,
                 const char *source, struct kp_error *err)
{
    (void)source;
    return add_spread_source(s, obj, KP_SRC_STATEFUL_SET, err);
}

/* kind, label, namespaced, defaults_namespace, list_marks_claims, add */
static const struct kind_row kinds[] = {
    {"Pod", "pod", true, true, false, add_pod},
    {"Event", "event", true, false, false, kp_snapshot_add_event},
    {"Node", "node", false, false, false, add_node},
    {"PodDisruptionBudget", "poddisruptionbudget", true, true, false,
     add_pdb},
    {"Namespace", "namespace", false, false, false, add_namespace},
    {"PriorityClass", "priorityclass", false, false, false,
     add_priority_class},
    {"PersistentVolumeClaim", "persistentvolumeclaim", true, true, true,
     add_pvc},
    {"PersistentVolume", "persistentvolume", false, false, false, add_pv},
    {"StorageClass", "storageclass", false, false, false,
     add_storage_class},
    {"CSINode", "csinode", false, false, false, add_csinode},
    {"Service", "service", true, true, false, add_service},
    {"ReplicationController", "replicationcontroller", true, true, false,
     add_replication_controller},
    {"ReplicaSet", "replicaset", true, true, false, add_replica_set},
    {"StatefulSet", "statefulset", true, true, false, add_stateful_set},
};

/* The row of kind, or NULL: a kind the snapshot ignores. */
static const struct kind_row *
find_kind(const char *kind)
{
    size_t i;

    for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strcmp(kind, kinds[i].kind) == 0)
            return &kinds[i];
    return NULL;
}

/*
 * The half of add_object() that touches no snapshot (the loader's
 * threads run it): an object, valid (duplicate keys, UTF-8, depth), and
 * its kind's row in *row.
 */
static int
check_object(const cJSON *obj, const char *kind, int depth, long index,
             bool ascii, const struct kind_row **row, struct kp_error *err)
{
    char what[600];

    *row = NULL;
    if (!cJSON_IsObject(obj)) {
        if (index >= 0)
            return kp_errorf(err, KP_EXIT_ERROR,
                             "items[%ld]: expected an object, got %s", index,
                             kp_json_type_name(obj));
        return kp_errorf(err, KP_EXIT_ERROR, "expected an object, got %s",
                         kp_json_type_name(obj));
    }
    *row = find_kind(kind);
    if (kp_json_validate_ascii_at(obj, depth, KP_MAX_JSON_DEPTH, NULL, ascii,
                                  err) < 0) {
        describe(obj, kind, *row, index, what, sizeof(what));
        return kp_error_prefix(err, "%s", what);
    }
    return 0;
}

/* The other half: add an object check_object() passed. */
static int
commit_object(struct kp_snapshot *s, const cJSON *obj, const char *kind,
              const struct kind_row *row, long index, const char *source,
              struct kp_error *err)
{
    char what[600];

    if (row && row->add(s, obj, source, err) < 0) {
        describe(obj, kind, row, index, what, sizeof(what));
        return kp_error_prefix(err, "%s", what);
    }
    if (!row)
        s->nunknown_kinds++;
    return 0;
}

/*
 * Validate (duplicate keys, UTF-8, depth) and add one object found at
 * nesting level depth; index is its place in a List's items or -1.
 * Errors read "<object>: <field path>: <what>".
 */
static int
add_object_ascii(struct kp_snapshot *s, const cJSON *obj, const char *kind,
                 int depth, long index, bool ascii, const char *source,
                 struct kp_error *err)
{
    const struct kind_row *row;

    if (check_object(obj, kind, depth, index, ascii, &row, err) < 0)
        return -1;
    return commit_object(s, obj, kind, row, index, source, err);
}

static int
add_object(struct kp_snapshot *s, const cJSON *obj, const char *kind,
           int depth, long index, const char *source, struct kp_error *err)
{
    const struct kind_row *row;

    if (check_object(obj, kind, depth, index, false, &row, err) < 0)
        return -1;
    return commit_object(s, obj, kind, row, index, source, err);
}

int
kp_snapshot_add_object(struct kp_snapshot *s, const cJSON *obj,
                       const char *kind, const char *source,
                       struct kp_error *err)
{
    return add_object(s, obj, kind, 0, -1, source, err);
}

/*
 * Where a List's items are when they are read one at a time from the raw
 * text (kp_snapshot_load_buffer): the bytes of the "items" array, already
 * checked by kp_json_scan().  text == NULL: the items are those of the
 * parsed document.
 */
struct items_text {
    const char *text;           /* the whole buffer (positions) */
    size_t start, end;          /* '[' .. just after ']' */
    struct kp_json_marks commas;  /* the ','s between items, or none */
    /*
     * text[start, end) is ASCII (kp_json_marks.non_ascii): the items'
     * strings need no UTF-8 check (kp_json_validate_ascii_at); false
     * unless the scan said so
     */
    bool ascii;
    /* or the items pulled one by one (kp_snapshot_load_list_pulled) */
    kp_item_pull_fn pull;
    void *pull_ctx;
};

static void line_col(const char *buf, size_t off, size_t *line,
                     size_t *col);
static size_t skip_ws(const char *buf, size_t len, size_t off);

/* The kind of an item of a List of kind list_kind ("" for List). */
static int
item_kind(const cJSON *it, const char *list_kind, long i, const char **out,
          struct kp_error *err)
{
    const cJSON *k = kp_json_get(it, "kind");

    *out = list_kind;
    if (k && !cJSON_IsString(k))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "items[%ld]: kind: expected a string", i);
    if (k)
        *out = k->valuestring;
    if (cJSON_IsObject(it) && !(*out)[0])
        return kp_errorf(err, KP_EXIT_ERROR, "items[%ld]: kind: missing",
                         i);
    return 0;
}

/*
 * A syntax error at buf[at] (buf holds len bytes): a NUL byte (the
 * first one, which is where the text stopped being JSON) and a lone
 * surrogate escape say so, anything else where and what.
 */
static int
syntax_error(const char *buf, size_t len, size_t at, const char *what,
             struct kp_error *err)
{
    size_t line, col;
    const char *nul = memchr(buf, '\0', at < len ? at + 1 : len);

    if (nul)
        return kp_errorf(err, KP_EXIT_ERROR, "NUL byte at offset %zu",
                         (size_t)(nul - buf));
    line_col(buf, at, &line, &col);
    if (what && strcmp(what, "lone surrogate") == 0 && at + 6 <= len)
        return kp_errorf(err, KP_EXIT_ERROR, "lone surrogate \\u%.4s at "
                         "line %zu, column %zu", buf + at + 2, line, col);
    return kp_errorf(err, KP_EXIT_ERROR,
                     "invalid JSON at line %zu, column %zu%s%s%s", line, col,
                     what ? " (" : "", what ? what : "", what ? ")" : "");
}

/*
 * Parse one item at text (up to len bytes), find its kind and add it: the
 * per-item path of Lists read from files and from live pages.  *end is
 * set after the item.  Returns 0; -1 with err set; -2 when cJSON cannot
 * parse it (*end then at the place it stopped, or NULL).  With trees
 * (the arena hooks on, keep NULL) the tree is parsed into that arena,
 * reset first, instead of malloc'd and freed.
 */
static int
load_one_item(struct kp_snapshot *s, const char *text, size_t len,
              const char *list_kind, long index, const char *source,
              const char **end, cJSON **keep, struct kp_arena *trees,
              bool ascii, struct kp_error *err)
{
    cJSON *it;
    const char *ik;
    int rc;

    if (trees) {
        kp_arena_reset(trees);
        kp_json_tree_arena(trees);
    }
    it = cJSON_ParseWithLengthOpts(text, len, end, 0);
    kp_json_tree_arena(NULL);
    if (keep)
        *keep = NULL;
    if (!it)
        return -2;
    rc = item_kind(it, list_kind, index, &ik, err);
    if (rc == 0)
        rc = add_object_ascii(s, it, ik, 2, index, ascii, source, err);
    if (rc == 0 && keep)
        *keep = it;
    else if (!trees)
        cJSON_Delete(it);
    return rc;
}

/*
 * Parse, validate and add the items of t one by one from the one at off
 * (items[i]), freeing each before the next: the whole List is never a
 * tree in memory.  The text was scanned already, so cJSON only fails
 * here on what kp_json_scan() does not look at (a missing comma, a bare
 * word); that is reported at its place as the whole-document parse would.
 */
static int
load_items_from(struct kp_snapshot *s, const struct items_text *t,
                size_t off, long i, const char *list_kind,
                const char *source, struct kp_error *err)
{
    struct kp_arena trees;
    int rc;

    kp_arena_init(&trees);
    for (;;) {
        const char *end = NULL;

        rc = load_one_item(s, t->text + off, t->end - off, list_kind, i,
                           source, &end, NULL, &trees, t->ascii, err);
        if (rc == -2)
            rc = syntax_error(t->text, t->end,
                              end ? (size_t)(end - t->text) : off, NULL,
                              err);
        if (rc < 0)
            break;
        i++;
        off = skip_ws(t->text, t->end, (size_t)(end - t->text));
        if (off < t->end && t->text[off] == ']')
            break;
        if (off >= t->end || t->text[off] != ',') {
            rc = syntax_error(t->text, t->end, off, NULL, err);
            break;
        }
        off = skip_ws(t->text, t->end, off + 1);
    }
    kp_arena_release(&trees);
    return rc;
}

/*
 * A large List on several threads.  The scan recorded the commas between
 * the items, so each item's bytes are known: the threads (the caller
 * among them) parse and check items (check_object: nothing shared) a
 * chunk of items at a time, in order, and the caller adds them to the
 * snapshot in file order (commit_object: interning, indexes, warnings).
 * A chunk stops at its first item in error, whose error is the one the
 * serial path would give; an item whose text is not what the commas say
 * (cJSON stops elsewhere, or fails) sends the caller back to the serial
 * path from that item, which reports it as it always has.  The trees of
 * a chunk stay until its slot is reused, window chunks later, and are
 * freed by the thread that reuses it.
 */
#define PAR_CHUNK_BYTES ((size_t)16 << 10)
#define PAR_CHUNK_ITEMS 512
#define PAR_MIN_BYTES ((size_t)256 << 10)

struct par_item {
    cJSON *tree;
    const char *kind;
    const struct kind_row *row;
};

struct par_slot {
    size_t chunk;               /* the chunk it holds, SIZE_MAX: none */
    bool done;
    size_t nok;                 /* items checked */
    int fail;                   /* 0; 1: err; 2: serial from item nok */
    struct kp_error err;
    struct par_item *items;
    size_t cap;
    struct kp_arena trees;      /* the chunk's parse trees */
};

struct par_load {
    const struct items_text *t;
    const char *list_kind;
    size_t nitems;
    size_t *cfirst;             /* chunk k: items [cfirst[k], cfirst[k+1]) */
    size_t nchunks;
    struct par_slot *slots;
    size_t window;
    size_t claim, committed;    /* next chunk to claim; chunks added */
    bool stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

/* Item i's first byte, and where its text must end (its ',' or ']'). */
static size_t
par_item_start(const struct par_load *pl, size_t i)
{
    const struct items_text *t = pl->t;

    return skip_ws(t->text, t->end, i == 0 ? t->start + 1
                   : t->start + t->commas.off[i - 1] + 1);
}

static size_t
par_item_end(const struct par_load *pl, size_t i)
{
    const struct items_text *t = pl->t;

    return i + 1 < pl->nitems ? t->start + t->commas.off[i] : t->end - 1;
}

/* Parse and check the items of chunk k into its slot (lock not held). */
static void
par_run_chunk(struct par_load *pl, size_t k, struct par_slot *sl)
{
    const struct items_text *t = pl->t;
    size_t i, last = pl->cfirst[k + 1];

    kp_arena_reset(&sl->trees);
    sl->nok = 0;
    sl->fail = 0;
    for (i = pl->cfirst[k]; i < last; i++) {
        size_t off = par_item_start(pl, i);
        const char *end = NULL;
        cJSON *it;
        struct par_item *pi;

        kp_json_tree_arena(&sl->trees);
        it = cJSON_ParseWithLengthOpts(t->text + off, t->end - off, &end, 0);
        kp_json_tree_arena(NULL);
        if (!it || skip_ws(t->text, t->end, (size_t)(end - t->text)) !=
                   par_item_end(pl, i)) {
            sl->fail = 2;
            return;
        }
        if (sl->nok == sl->cap) {
            sl->cap = sl->cap ? sl->cap * 2 : 64;
            sl->items = kp_xrealloc(sl->items, sl->cap * sizeof(*sl->items));
        }
        pi = &sl->items[sl->nok];
        pi->tree = it;
        if (item_kind(it, pl->list_kind, (long)i, &pi->kind, &sl->err) < 0 ||
            check_object(it, pi->kind, 2, (long)i, t->ascii, &pi->row,
                         &sl->err) < 0) {
            sl->fail = 1;
            return;
        }
        sl->nok++;
    }
}

/*
 * The next chunk to work on, marked claimed, or SIZE_MAX when there is
 * none (lock held).  Only within the window: chunk k reuses the slot of
 * chunk k - window, which must be added already.
 */
static size_t
par_claim(struct par_load *pl)
{
    size_t k;

    if (pl->stop || pl->claim >= pl->nchunks ||
        pl->claim >= pl->committed + pl->window)
        return SIZE_MAX;
    k = pl->claim++;
    pl->slots[k % pl->window].chunk = k;
    pl->slots[k % pl->window].done = false;
    return k;
}

static void
par_work(struct par_load *pl, size_t k)
{
    struct par_slot *sl = &pl->slots[k % pl->window];

    pthread_mutex_unlock(&pl->mu);
    par_run_chunk(pl, k, sl);
    pthread_mutex_lock(&pl->mu);
    sl->done = true;
    pthread_cond_broadcast(&pl->cv);
}

static void *
par_thread(void *arg)
{
    struct par_load *pl = arg;

    pthread_mutex_lock(&pl->mu);
    while (!pl->stop && pl->claim < pl->nchunks) {
        size_t k = par_claim(pl);

        if (k == SIZE_MAX)
            pthread_cond_wait(&pl->cv, &pl->mu);
        else
            par_work(pl, k);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

/* Add the items of chunk k in order; 1: go on serially from item *from. */
static int
par_commit(struct kp_snapshot *s, struct par_load *pl, size_t k,
           const char *source, size_t *from, struct kp_error *err)
{
    struct par_slot *sl = &pl->slots[k % pl->window];
    size_t j;

    for (j = 0; j < sl->nok; j++) {
        const struct par_item *pi = &sl->items[j];

        if (commit_object(s, pi->tree, pi->kind, pi->row,
                          (long)(pl->cfirst[k] + j), source, err) < 0)
            return -1;
    }
    if (sl->fail == 1) {
        *err = sl->err;
        return -1;
    }
    *from = pl->cfirst[k] + sl->nok;
    return sl->fail == 2;
}

static int
load_items_par(struct kp_snapshot *s, const struct items_text *t,
               int nthreads, const char *list_kind, const char *source,
               struct kp_error *err)
{
    struct par_load pl;
    pthread_t th[16];
    int nth = 0, rc = 0;
    size_t i, k, bytes = 0, from = 0;

    memset(&pl, 0, sizeof(pl));
    pl.t = t;
    pl.list_kind = list_kind;
    pl.nitems = t->commas.n + 1;
    pl.cfirst = kp_xmalloc((pl.nitems + 1) * sizeof(*pl.cfirst));
    pl.cfirst[0] = 0;
    for (i = 0; i < pl.nitems; i++) {
        size_t next = i + 1 < pl.nitems ? t->commas.off[i]
                                        : t->end - t->start;

        bytes += next - (i ? t->commas.off[i - 1] : 0);
        if (bytes >= PAR_CHUNK_BYTES || i + 1 == pl.nitems ||
            i + 1 - pl.cfirst[pl.nchunks] >= PAR_CHUNK_ITEMS) {
            pl.cfirst[++pl.nchunks] = i + 1;
            bytes = 0;
        }
    }
    pl.window = (size_t)nthreads * 2;
    pl.slots = kp_xcalloc(pl.window, sizeof(*pl.slots));
    for (k = 0; k < pl.window; k++)
        pl.slots[k].chunk = SIZE_MAX;
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    if (nthreads > 16)
        nthreads = 16;
    while (nth < nthreads - 1 && (size_t)nth + 1 < pl.nchunks &&
           pthread_create(&th[nth], NULL, par_thread, &pl) == 0)
        nth++;
    pthread_mutex_lock(&pl.mu);
    for (k = 0; k < pl.nchunks && rc == 0; k++) {
        struct par_slot *sl = &pl.slots[k % pl.window];

        while (!(sl->chunk == k && sl->done)) {
            size_t mine = par_claim(&pl);

            if (mine == SIZE_MAX)
                pthread_cond_wait(&pl.cv, &pl.mu);
            else
                par_work(&pl, mine);
        }
        pthread_mutex_unlock(&pl.mu);
        rc = par_commit(s, &pl, k, source, &from, err);
        pthread_mutex_lock(&pl.mu);
        pl.committed = k + 1;
        pthread_cond_broadcast(&pl.cv);
    }
    pl.stop = true;
    pthread_cond_broadcast(&pl.cv);
    pthread_mutex_unlock(&pl.mu);
    while (nth > 0)
        pthread_join(th[--nth], NULL);
    for (k = 0; k < pl.window; k++) {
        kp_arena_release(&pl.slots[k].trees);
        free(pl.slots[k].items);
    }
    free(pl.slots);
    pthread_cond_destroy(&pl.cv);
    pthread_mutex_destroy(&pl.mu);
    if (rc == 1)
        rc = load_items_from(s, t, par_item_start(&pl, from), (long)from,
                             list_kind, source, err);
    free(pl.cfirst);
    return rc;
}

static int
load_items_text(struct kp_snapshot *s, const struct items_text *t,
                const char *list_kind, const char *source,
                struct kp_error *err)
{
    size_t off = skip_ws(t->text, t->end, t->start + 1);
    int nthreads, rc;

    if (off < t->end && t->text[off] == ']')
        return 0;
    kp_json_arena_hooks(true);
    if (t->commas.n > 0 && t->end - t->start >= PAR_MIN_BYTES &&
        (nthreads = kp_pool_default_threads()) > 1)
        rc = load_items_par(s, t, nthreads, list_kind, source, err);
    else
        rc = load_items_from(s, t, off, 0, list_kind, source, err);
    kp_json_arena_hooks(false);
    return rc;
}

int
kp_snapshot_load_item(struct kp_snapshot *s, const char *text, size_t len,
                      const char *item_kind, long index, const char *source,
                      cJSON **keep, struct kp_error *err)
{
    const char *end = NULL;
    int rc = load_one_item(s, text, len, item_kind, index, source, &end,
                           keep, NULL, false, err);

    if (rc == -2)
        kp_errorf(err, KP_EXIT_ERROR, "items[%ld]: invalid JSON at byte %zu "
                  "of the item", index, end ? (size_t)(end - text) : 0);
    if (rc == 0 && skip_ws(text, len, (size_t)(end - text)) != len) {
        if (keep) {
            cJSON_Delete(*keep);
            *keep = NULL;
        }
        rc = kp_errorf(err, KP_EXIT_ERROR, "items[%ld]: data after the "
                       "item", index);
    }
    if (rc == 0)
        return 0;
    kp_error_prefix(err, "%s", source);
    return kp_snapshot_sanitize_error(err);
}

/*
 * A List written by --snapshot-out names the API server's version in an
 * annotation: it decides the version replayed as /version would have
 * (the newest, if several files say).
 */
static void
recorded_version(struct kp_snapshot *s, const cJSON *doc)
{
    const cJSON *v = kp_json_get(kp_json_get(kp_json_get(doc, "metadata"),
                                             "annotations"),
                                 KP_SERVER_VERSION_ANNOTATION);
    int minor = cJSON_IsString(v) ? kp_kube_version_minor(v->valuestring)
                                  : -1;

    if (minor > 0 && (!s->server_minor || s->server_minor_recorded) &&
        minor > s->server_minor) {
        s->server_minor = minor;
        s->server_minor_recorded = true;
        s->server_version = kp_arena_strdup(&s->arena, v->valuestring);
    }
}

/*
 * The items of a List pulled one at a time (YAML, input.c): each checked
 * and added as the items of a parsed List are, then freed before the
 * next is pulled.
 */
static int
load_items_pulled(struct kp_snapshot *s, const struct items_text *t,
                  const char *list_kind, const char *source,
                  struct kp_error *err)
{
    long i;

    for (i = 0;; i++) {
        cJSON *it = NULL;
        const char *ik;
        int rc = t->pull(t->pull_ctx, &it, err);

        if (rc <= 0)
            return rc;
        rc = item_kind(it, list_kind, i, &ik, err);
        if (rc == 0)
            rc = add_object(s, it, ik, 2, i, source, err);
        cJSON_Delete(it);
        if (rc < 0)
            return -1;
    }
}

static int
load_list(struct kp_snapshot *s, const cJSON *doc, const char *kind,
          const struct items_text *t, const char *source,
          struct kp_error *err)
{
    const cJSON *items, *it;
    const struct kind_row *row = NULL;
    char list_kind[128] = "";
    long i = 0;

    if (kp_json_arr(doc, "items", &items, err) < 0) {
        lower_kind(kind, list_kind, sizeof(list_kind));
        return kp_error_prefix(err, "%s", list_kind);
    }
    if (strcmp(kind, "List") != 0) {
        size_t n = strlen(kind) - 4;

        if (n >= sizeof(list_kind))
            n = sizeof(list_kind) - 1;
        memcpy(list_kind, kind, n);
        list_kind[n] = '\0';
        row = find_kind(list_kind);
    }
    /* --snapshot-out's record of the API server's version */
    recorded_version(s, doc);
    /* the API's list of claims says "these are all", even when empty */
    if (row && row->list_marks_claims)
        s->has_pvc_input = true;
    /* so does the API's list of a DefaultSelector kind */
    if (row && row->add == add_service)
        s->has_spread_input |= 1u << KP_SRC_SERVICE;
    if (row && row->add == add_replication_controller)
        s->has_spread_input |= 1u << KP_SRC_REPLICATION_CONTROLLER;
    if (row && row->add == add_replica_set)
        s->has_spread_input |= 1u << KP_SRC_REPLICA_SET;
    if (row && row->add == add_stateful_set)
        s->has_spread_input |= 1u << KP_SRC_STATEFUL_SET;
    if (t->text)
        return load_items_text(s, t, list_kind, source, err);
    if (t->pull)
        return load_items_pulled(s, t, list_kind, source, err);
    cJSON_ArrayForEach(it, items) {
        const char *ik;

        if (item_kind(it, list_kind, i, &ik, err) < 0 ||
            add_object(s, it, ik, 2, i, source, err) < 0)
            return -1;
        i++;
    }
    return 0;
}

static bool
is_list(const cJSON *kind, const cJSON *items)
{
    size_t klen = kind ? strlen(kind->valuestring) : 0;

    return (!kind && items) ||
           (klen >= 4 && strcmp(kind->valuestring + klen - 4, "List") == 0);
}

static int
load_document(struct kp_snapshot *s, cJSON *doc, const struct items_text *t,
              const char *source, struct kp_error *err)
{
    const cJSON *kind, *items;

    if (!cJSON_IsObject(doc))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "expected a Kubernetes object or List");
    kind = kp_json_get(doc, "kind");
    items = kp_json_get(doc, "items");
    if (kind && !cJSON_IsString(kind))
        return kp_errorf(err, KP_EXIT_ERROR, "kind: expected a string");
    if (!is_list(kind, items) && t->text) {
        /* not a List after all: the object needs its "items" parsed */
        cJSON *v = cJSON_ParseWithLengthOpts(t->text + t->start,
                                             t->end - t->start, NULL, 0);

        if (!v)
            return syntax_error(t->text, t->end, t->start, NULL, err);
        cJSON_ReplaceItemInObjectCaseSensitive(doc, "items", v);
        return load_document(s, doc, &(struct items_text){NULL, 0, 0,
                                                          {NULL, 0, 0,
                                                           false},
                                                          false, NULL, NULL},
                             source, err);
    }
    if (is_list(kind, items)) {
        /* the List itself, then each item on its own */
        if (kp_json_validate_at(doc, 0, KP_MAX_JSON_DEPTH, "items",
                                err) < 0) {
            char what[128];

            lower_kind(kind ? kind->valuestring : "List", what,
                       sizeof(what));
            return kp_error_prefix(err, "%s", what);
        }
        return load_list(s, doc, kind ? kind->valuestring : "List", t,
                         source, err);
    }
    if (!kind) {
        char what[600];

        describe(doc, "object", NULL, -1, what, sizeof(what));
        if (kp_json_validate(doc, KP_MAX_JSON_DEPTH, err) < 0)
            return kp_error_prefix(err, "%s", what);
        return kp_errorf(err, KP_EXIT_ERROR, "%s: kind: missing", what);
    }
    return add_object(s, doc, kind->valuestring, 0, -1, source, err);
}

/*
 * The top level of one document that is an object, read member by member
 * from the raw text so that a List's "items" array is not parsed as a
 * whole: every other member is parsed and attached to *out, "items" (when
 * it is an array) is scanned and recorded in *t, with an empty array in
 * its place.  Returns 0 with *off after the document; 1 when the text is
 * anything but well-formed JSON (the caller then parses the document as a
 * whole, which reports the problem as it always has); -1 with err set for
 * a scan error inside items.
 */
static int
read_top_level(const char *buf, size_t len, size_t *off, cJSON **out,
               struct items_text *t, struct kp_error *err)
{
    size_t i = skip_ws(buf, len, *off + 1);
    cJSON *doc = cJSON_CreateObject();

    t->text = NULL;
    if (i < len && buf[i] == '}')
        goto done;
    for (;;) {
        const char *end = NULL, *what = NULL;
        size_t at = 0;
        cJSON *key, *v;
        bool is_items;

        if (i >= len || buf[i] != '"')
            goto fallback;
        key = cJSON_ParseWithLengthOpts(buf + i, len - i, &end, 0);
        if (!key || !cJSON_IsString(key)) {
            cJSON_Delete(key);
            goto fallback;
        }
        i = skip_ws(buf, len, (size_t)(end - buf));
        if (i >= len || buf[i] != ':') {
            cJSON_Delete(key);
            goto fallback;
        }
        i = skip_ws(buf, len, i + 1);
        is_items = i < len && buf[i] == '[' && !t->text &&
                   strcmp(key->valuestring, "items") == 0;
        if ((is_items
             ? kp_json_scan_marks(buf + i, len - i, KP_MAX_JSON_NESTING - 1,
                                  &at, &what, &t->commas)
             : kp_json_scan_value(buf + i, len - i, KP_MAX_JSON_NESTING - 1,
                                  &at, &what)) < 0) {
            cJSON_Delete(key);
            cJSON_Delete(doc);
            return syntax_error(buf, len, i + at, what, err);
        }
        if (is_items) {
            t->text = buf;
            t->start = i;
            t->end = i + at;
            /* KP_NO_ASCII_SKIP=1: the UTF-8 checks of every string */
            t->ascii = !t->commas.non_ascii &&
                       !kp_shortcut_off("KP_NO_ASCII_SKIP");
            v = cJSON_CreateArray();
            end = buf + t->end;
        } else {
            v = cJSON_ParseWithLengthOpts(buf + i, len - i, &end, 0);
            if (!v) {
                cJSON_Delete(key);
                goto fallback;
            }
        }
        cJSON_AddItemToObject(doc, key->valuestring, v);
        cJSON_Delete(key);
        i = skip_ws(buf, len, (size_t)(end - buf));
        if (i < len && buf[i] == '}')
            break;
        if (i >= len || buf[i] != ',')
            goto fallback;
        i = skip_ws(buf, len, i + 1);
    }
done:
    *out = doc;
    *off = i + 1;
    return 0;
fallback:
    cJSON_Delete(doc);
    t->text = NULL;
    t->commas.n = 0;
    t->ascii = false;
    return 1;
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

/*
 * One document at buf[*off] parsed as a whole (anything but an object, or
 * an object whose text is not well-formed): the scan, then cJSON.
 */
static int
parse_whole(const char *buf, size_t len, size_t *off, cJSON **out,
            struct kp_error *err)
{
    const char *end = NULL, *what = NULL;
    size_t at = 0;
    cJSON *doc = NULL;

    if (kp_json_scan(buf + *off, len - *off, KP_MAX_JSON_NESTING, &at,
                     &what) == 0)
        doc = cJSON_ParseWithLengthOpts(buf + *off, len - *off, &end, 0);
    else
        at += *off;
    if (!doc) {
        if (!what)
            at = end ? (size_t)(end - buf) : *off;
        return syntax_error(buf, len, at, what, err);
    }
    *out = doc;
    *off = (size_t)(end - buf);
    return 0;
}

/*
 * The documents of buf, numbered on from *ndocs (source interned).  The
 * error is left without the source prefix.
 */
static int
load_documents(struct kp_snapshot *s, const char *buf, size_t len,
               const char *source, size_t *ndocs_io, struct kp_error *err)
{
    size_t off = skip_ws(buf, len, 0), ndocs = *ndocs_io;

    while (off < len) {
        struct items_text t = {NULL, 0, 0, {NULL, 0, 0, false}, false, NULL, NULL};
        cJSON *doc = NULL;
        int rc = 1;

        if (buf[off] == '{')
            rc = read_top_level(buf, len, &off, &doc, &t, err);
        if (rc == 1)
            rc = parse_whole(buf, len, &off, &doc, err);
        if (rc < 0) {
            free(t.commas.off);
            return -1;
        }
        ndocs++;
        rc = load_document(s, doc, &t, source, err);
        cJSON_Delete(doc);
        free(t.commas.off);
        if (rc < 0) {
            /* a syntax error inside items names no object or document */
            if (ndocs > 1 && strncmp(err->msg, "invalid JSON at ", 16) != 0
                && strncmp(err->msg, "NUL byte at ", 12) != 0 &&
                strncmp(err->msg, "lone surrogate ", 15) != 0)
                kp_error_prefix(err, "document %zu", ndocs);
            return -1;
        }
        off = skip_ws(buf, len, off);
    }
    s->ndocuments += ndocs - *ndocs_io;
    *ndocs_io = ndocs;
    return 0;
}

int
kp_snapshot_load_buffer(struct kp_snapshot *s, const char *buf, size_t len,
                        const char *source, struct kp_error *err)
{
    size_t ndocs = 0;

    source = kp_arena_intern(&s->arena, source);
    if (skip_ws(buf, len, 0) == len)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: empty input", source);
    if (load_documents(s, buf, len, source, &ndocs, err) < 0) {
        kp_error_prefix(err, "%s", source);
        return kp_snapshot_sanitize_error(err);
    }
    return 0;
}

int
kp_snapshot_load_list_pulled(struct kp_snapshot *s, cJSON *header,
                             kp_item_pull_fn pull, void *ctx,
                             const char *source, struct kp_error *err)
{
    struct items_text t = {NULL, 0, 0, {NULL, 0, 0, false}, false, pull, ctx};

    source = kp_arena_intern(&s->arena, source);
    if (load_document(s, header, &t, source, err) < 0) {
        kp_error_prefix(err, "%s", source);
        return kp_snapshot_sanitize_error(err);
    }
    s->ndocuments++;
    return 0;
}

/*
 * Standard input and pipes are read as they come, never whole: a
 * resumable check of the structure (strings, nesting, the bytes that
 * may stand outside strings) fails at the first byte that cannot be
 * JSON, and each top-level document goes to the loader as soon as its
 * last byte is in, then is dropped.  Memory holds the document being
 * read; the input as a whole is held to KP_MAX_INPUT_BYTES.
 */
#define PIPE_CHUNK ((size_t)1 << 20)
/* white space in a row between documents (as json_stream.h) */
#define PIPE_MAX_SPACE ((size_t)8 << 20)
#define PIPE_MAX_WORD 64

struct pipe_reader {
    struct kp_snapshot *s;
    const char *source;
    size_t ndocs;
    /* the document being read */
    char *doc;
    size_t len, cap;
    bool in_doc;
    size_t doc_line, doc_col;
    unsigned long long doc_off;
    /* the structure so far */
    int depth;
    unsigned char open[KP_MAX_JSON_NESTING / 8 + 1];
    bool in_str, esc, in_word;
    size_t word_len, space_run;
    /* the next byte */
    unsigned long long off;
    size_t line, col;
};

static int
pipe_fail(struct pipe_reader *r, const char *what, struct kp_error *err)
{
    return kp_errorf(err, KP_EXIT_ERROR, "%s: invalid JSON at line %zu, "
                     "column %zu (%s)", r->source, r->line, r->col, what);
}

static int
pipe_keep(struct pipe_reader *r, const char *p, size_t n,
          struct kp_error *err)
{
    if (r->len + n > r->cap) {
        size_t cap = r->cap ? r->cap : PIPE_CHUNK;
        char *nb;

        while (cap < r->len + n)
            cap *= 2;
        nb = realloc(r->doc, cap);
        if (!nb)
            return kp_errorf(err, KP_EXIT_ERROR, "%s: out of memory "
                             "holding a document of %zu bytes (at byte "
                             "%llu)", r->source, r->len, r->off);
        r->doc = nb;
        r->cap = cap;
    }
    memcpy(r->doc + r->len, p, n);
    r->len += n;
    return 0;
}

/* "at line L, column C" and "at offset N" of a document's error: as in
 * the whole input. */
static void
pipe_rebase(const struct pipe_reader *r, struct kp_error *err)
{
    char *p = strstr(err->msg, "at line "), rest[sizeof(err->msg)];
    size_t line, col;
    int used = 0;

    if (p && sscanf(p, "at line %zu, column %zu%n", &line, &col, &used) == 2
        && used > 0) {
        snprintf(rest, sizeof(rest), "%s", p + used);
        if (line == 1)
            col += r->doc_col - 1;
        line += r->doc_line - 1;
        snprintf(p, sizeof(err->msg) - (size_t)(p - err->msg),
                 "at line %zu, column %zu%s", line, col, rest);
    }
    p = strstr(err->msg, "at offset ");
    if (p && sscanf(p, "at offset %zu%n", &line, &used) == 1 && used > 0) {
        snprintf(rest, sizeof(rest), "%s", p + used);
        snprintf(p, sizeof(err->msg) - (size_t)(p - err->msg),
                 "at offset %llu%s", r->doc_off + line, rest);
    }
}

/* The document in r->doc is complete: load it, then forget it. */
static int
pipe_load(struct pipe_reader *r, struct kp_error *err)
{
    int rc = load_documents(r->s, r->doc, r->len, r->source, &r->ndocs,
                            err);

    r->in_doc = false;
    r->len = 0;
    if (r->cap > 4 * PIPE_CHUNK) {
        free(r->doc);
        r->doc = NULL;
        r->cap = 0;
    }
    if (rc == 0)
        return 0;
    pipe_rebase(r, err);
    kp_error_prefix(err, "%s", r->source);
    return kp_snapshot_sanitize_error(err);
}

/* A byte outside strings and words. */
static int
pipe_struct(struct pipe_reader *r, char c, bool *ends, struct kp_error *err)
{
    if (c == '{' || c == '[') {
        unsigned char bit = (unsigned char)(1u << (r->depth % 8));

        if (r->depth >= KP_MAX_JSON_NESTING)
            return pipe_fail(r, "nesting too deep", err);
        if (c == '{')
            r->open[r->depth / 8] |= bit;
        else
            r->open[r->depth / 8] &= (unsigned char)~bit;
        r->depth++;
    } else if (c == '}' || c == ']') {
        int d = r->depth - 1;

        if (d < 0)
            return pipe_fail(r, "unexpected closing bracket", err);
        if (((r->open[d / 8] >> (d % 8)) & 1) != (c == '}'))
            return pipe_fail(r, c == '}' ? "expected ']'" : "expected '}'",
                             err);
        *ends = --r->depth == 0;
    } else if (c == '"') {
        r->in_str = true;
    } else if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' ||
               c == 'n') {
        r->in_word = true;
        r->word_len = 1;
    } else if ((c == ',' || c == ':') && r->depth > 0) {
        return 0;
    } else {
        return pipe_fail(r, "expected a value", err);
    }
    return 0;
}

/* One byte inside a document; *ends when it is the document's last. */
static int
pipe_byte(struct pipe_reader *r, char c, bool *ends, struct kp_error *err)
{
    *ends = false;
    if (c == '\0')
        return kp_errorf(err, KP_EXIT_ERROR, "%s: NUL byte at offset %llu",
                         r->source, r->off);
    if (r->in_str) {
        if (r->esc)
            r->esc = false;
        else if (c == '\\')
            r->esc = true;
        else if (c == '"')
            *ends = !(r->in_str = false) && r->depth == 0;
        else if ((unsigned char)c < 0x20)
            return pipe_fail(r, "control character in a string", err);
        return 0;
    }
    if (r->in_word) {
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
            (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-') {
            if (++r->word_len > PIPE_MAX_WORD)
                return pipe_fail(r, "invalid number or literal", err);
            return 0;
        }
        r->in_word = false;
        if (r->depth == 0)
            return 1;       /* ended by c, which is not part of it */
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
        return 0;
    return pipe_struct(r, c, ends, err);
}

static void
pipe_advance(struct pipe_reader *r, char c)
{
    r->off++;
    if (c == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
}

/* Scan a chunk; complete documents go to the loader. */
static int
pipe_chunk(struct pipe_reader *r, const char *p, size_t n,
           struct kp_error *err)
{
    size_t i = 0, from = 0;

    if (r->off == 0 && n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        i = from = 3;   /* a byte order mark, as the file loader skips */
    while (i < n) {
        char c = p[i];
        bool ends = false;
        int rc;

        if (!r->in_doc) {
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                if (++r->space_run > PIPE_MAX_SPACE)
                    return kp_errorf(err, KP_EXIT_ERROR, "%s: more than "
                                     "%zu MiB of white space at byte %llu",
                                     r->source, PIPE_MAX_SPACE >> 20, r->off);
                pipe_advance(r, c);
                i++;
                continue;
            }
            r->space_run = 0;
            r->in_doc = true;
            r->doc_line = r->line;
            r->doc_col = r->col;
            r->doc_off = r->off;
            from = i;
        }
        if (c == ' ' && !r->in_str && !r->in_word) {
            /* indentation */
            size_t j = i + 1;

            while (j < n && p[j] == ' ')
                j++;
            r->off += j - i;
            r->col += j - i;
            i = j;
            continue;
        }
        if (r->in_str && !r->esc && c != '"' && c != '\\' &&
            (unsigned char)c >= 0x20) {
            /* the plain bytes of a string, all on one line */
            size_t j = i + 1;

            while (j < n && p[j] != '"' && p[j] != '\\' &&
                   (unsigned char)p[j] >= 0x20)
                j++;
            r->off += j - i;
            r->col += j - i;
            i = j;
            continue;
        }
        rc = pipe_byte(r, c, &ends, err);
        if (rc < 0)
            return -1;
        if (rc == 1 || ends) {
            size_t upto = rc == 1 ? i : i + 1;

            if (pipe_keep(r, p + from, upto - from, err) < 0 ||
                pipe_load(r, err) < 0)
                return -1;
            if (rc == 1)
                continue;       /* c is looked at again, between documents */
        }
        pipe_advance(r, c);
        i++;
    }
    if (r->in_doc && from < n)
        return pipe_keep(r, p + from, n - from, err);
    return 0;
}

static int
load_stream(struct kp_snapshot *s, int fd, const char *source,
            const char *pre, size_t npre, struct kp_error *err)
{
    struct pipe_reader r;
    char *chunk = kp_xmalloc(PIPE_CHUNK);
    int rc = 0;

    memset(&r, 0, sizeof(r));
    r.s = s;
    r.source = kp_arena_intern(&s->arena, source);
    r.line = r.col = 1;
    if (npre > 0)
        rc = pipe_chunk(&r, pre, npre, err);
    while (rc == 0) {
        ssize_t got = read(fd, chunk, PIPE_CHUNK);

        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            rc = kp_errorf(err, KP_EXIT_ERROR, "%s: read error: %s", source,
                           strerror(errno));
            break;
        }
        if (got == 0)
            break;
        if (r.off + (size_t)got > KP_MAX_INPUT_BYTES) {
            rc = kp_errorf(err, KP_EXIT_ERROR, "%s: input larger than %zu "
                           "bytes", source, KP_MAX_INPUT_BYTES);
            break;
        }
        rc = pipe_chunk(&r, chunk, (size_t)got, err);
        if (rc < 0)
            break;
    }
    /* an unfinished document: the loader says what is missing */
    if (rc == 0 && r.in_doc)
        rc = pipe_load(&r, err);
    if (rc == 0 && r.ndocs == 0)
        rc = kp_errorf(err, KP_EXIT_ERROR, "%s: empty input", source);
    free(chunk);
    free(r.doc);
    return rc;
}

/*
 * A regular file is mapped rather than read: no copy, no buffer to grow,
 * and its pages are the page cache's (read ahead sequentially).
 */
static const char *
map_file(FILE *f, const struct stat *st, size_t *len)
{
    void *p = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE,
                   fileno(f), 0);

    if (p == MAP_FAILED)
        return NULL;
    madvise(p, (size_t)st->st_size, MADV_SEQUENTIAL);
    *len = (size_t)st->st_size;
    return p;
}

/*
 * A regular file that is not empty is mapped; standard input, pipes,
 * devices and anything mmap refuses are streamed (load_stream).
 */
int
kp_snapshot_load_file(struct kp_snapshot *s, const char *path,
                      struct kp_error *err)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    const char *name = is_stdin ? "<stdin>" : path;
    const char *buf = NULL;
    struct stat st;
    size_t len = 0;
    bool changed;
    int rc;

    if (!f)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: %s", path,
                         strerror(errno));
    if (fstat(fileno(f), &st) < 0)
        memset(&st, 0, sizeof(st));
    if (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) &&
                                (unsigned long long)st.st_size >
                                KP_MAX_INPUT_BYTES)) {
        if (!is_stdin)
            fclose(f);
        if (S_ISDIR(st.st_mode))
            return kp_errorf(err, KP_EXIT_ERROR, "%s: is a directory", name);
        return kp_errorf(err, KP_EXIT_ERROR, "%s: input larger than %zu "
                         "bytes", name, KP_MAX_INPUT_BYTES);
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0)
        buf = map_file(f, &st, &len);
    if (!buf) {
        rc = load_stream(s, fileno(f), name, NULL, 0, err);
        if (!is_stdin)
            fclose(f);
        return rc;
    }
    /* truncated or rewritten while it loads: an error, never SIGBUS nor
     * a cluster that never was (mapped_file.h) */
    kp_mapped_file_guard(buf, len);
    rc = kp_snapshot_load_buffer(s, buf, len, name, err);
    changed = kp_mapped_file_unguard();
    if (kp_mapped_file_changed(fileno(f), &st))
        changed = true;
    if (changed)
        rc = kp_errorf(err, KP_EXIT_ERROR, "%s: the file changed while it "
                       "was read (truncated or rewritten): read it again",
                       name);
    if (!is_stdin)
        fclose(f);
    munmap((void *)buf, len);
    return rc;
}

int
kp_snapshot_load_fd(struct kp_snapshot *s, int fd, const char *source,
                    const char *pre, size_t n, struct kp_error *err)
{
    return load_stream(s, fd, source, pre, n, err);
}
