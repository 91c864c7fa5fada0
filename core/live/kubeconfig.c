/*
 * kubeconfig.c - client-go's clientcmd, in C.
 *
 * Mirrors k8s.io/client-go/tools/clientcmd: loader.go
 * (ClientConfigLoadingRules.Load: precedence, "first file to set a value
 * wins", ResolveLocalPaths), client_config.go (DirectClientConfig:
 * getContext/getCluster/getAuthInfo, the flag overrides),
 * validation.go (ConfirmUsable's checks and messages),
 * merged_client_builder.go (DeferredLoadingClientConfig: fall back to the
 * in-cluster config when the kubeconfig names no server) and
 * k8s.io/client-go/rest/config.go (InClusterConfig).
 */
#include "kubeconfig.h"
#include "kp.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <yaml.h>

#include "read_file.h"

#define KC_MAX_FILE KP_CAP_KUBECONFIG
#define KC_SA_DIR "/var/run/secrets/kubernetes.io/serviceaccount"
#define KC_EXEC_EXTENSION "client.authentication.k8s.io/exec"
#define KC_EXEC_V1 "client.authentication.k8s.io/v1"
#define KC_EXEC_V1BETA1 "client.authentication.k8s.io/v1beta1"

/* One kubeconfig file, parsed; its nodes live until the load ends. */
struct kc_file {
    const char *path;
    const char *dir;            /* absolute directory of path */
    yaml_document_t doc;
    int has_doc;
};

/* A named entry of clusters, contexts or users. */
struct kc_entry {
    const char *name;
    yaml_node_t *body;          /* the cluster/context/user mapping */
    struct kc_file *file;
};

struct kc_table {
    struct kc_entry *e;
    size_t n, cap;
};

/* The merged view of all files (client-go's clientcmdapi.Config). */
struct kc_merged {
    struct kc_file *files;
    size_t nfiles;
    struct kc_table clusters, contexts, users;
    const char *current_context;
};

/* Where a field is read from, for messages and relative paths. */
struct kc_src {
    struct kc_file *file;
    yaml_node_t *map;
    const char *what;           /* e.g. users["admin"] */
};

/* ---- small helpers ---------------------------------------------------- */

static int
is_set(const char *s)
{
    return s && *s;
}

/* Read a whole file (at most max bytes), NUL-terminated; 0 or errno. */
static int
slurp(const char *path, size_t max, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0, cap = 4096;
    struct stat st;
    char *buf;

    if (!f)
        return errno;
    /* fopen opens a directory for reading; fread then fails with EISDIR */
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return EISDIR;
    }
    buf = kp_xmalloc(cap);
    for (;;) {
        size_t got;

        if (cap - n < 2) {
            cap *= 2;
            buf = kp_xrealloc(buf, cap);
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > max || got == 0)
            break;
    }
    if (ferror(f) || n > max) {
        int e = ferror(f) ? (errno ? errno : EIO) : EFBIG;

        fclose(f);
        free(buf);
        return e;
    }
    fclose(f);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

/* Copy of s without leading and trailing white space. */
static const char *
arena_trim(struct kp_arena *a, const char *s)
{
    size_t n;

    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
                 s[n - 1] == '\r'))
        n--;
    return kp_arena_strndup(a, s, n);
}

static const char *
arena_join(struct kp_arena *a, const char *dir, const char *name)
{
    return kp_arena_concat(a, dir, "/", name, NULL);
}

/*
 * Lexical clean of an absolute path, as Go's filepath.Clean: no "//",
 * no "." segments, ".." removes the segment before it.  In place.
 */
static char *
clean_path(char *path)
{
    char *r = path + 1, *w = path + 1;

    while (*r) {
        size_t n = strcspn(r, "/");

        if (n == 0 || (n == 1 && r[0] == '.')) {
            /* skip */
        } else if (n == 2 && r[0] == '.' && r[1] == '.') {
            while (w > path + 1 && *--w != '/')
                ;
        } else {
            if (w > path + 1)
                *w++ = '/';
            memmove(w, r, n);
            w += n;
        }
        r += n;
        if (*r == '/')
            r++;
    }
    *w = '\0';
    return path;
}

/* A kubeconfig path, made absolute against the file's directory. */
static const char *
resolve_path(struct kp_arena *a, const struct kc_file *f, const char *p)
{
    if (!is_set(p))
        return NULL;
    if (p[0] == '/' || !f)
        return kp_arena_strdup(a, p);
    return clean_path((char *)arena_join(a, f->dir, p));
}

/* Absolute directory holding path, cleaned. */
static const char *
file_dir(struct kp_arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    char cwd[4096];
    char *dir;

    if (slash == path)
        return "/";
    if (path[0] == '/')
        return clean_path(kp_arena_strndup(a, path, (size_t)(slash - path)));
    if (!getcwd(cwd, sizeof(cwd)))
        return slash ? kp_arena_strndup(a, path, (size_t)(slash - path))
                     : ".";
    if (!slash)
        return kp_arena_strdup(a, cwd);
    dir = (char *)arena_join(a, cwd, kp_arena_strndup(a, path,
                                                      (size_t)(slash - path)));
    return clean_path(dir);
}

/* ---- YAML access ------------------------------------------------------ */

static int
scalar_is_null(const yaml_node_t *n)
{
    const char *v = (const char *)n->data.scalar.value;

    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    return !*v || !strcmp(v, "~") || !strcmp(v, "null") ||
           !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* The value of key in a mapping node, or NULL. */
static yaml_node_t *
map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    yaml_node_pair_t *p;

    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);

        if (k && k->type == YAML_SCALAR_NODE &&
            !strcmp((const char *)k->data.scalar.value, key))
            return yaml_document_get_node(doc, p->value);
    }
    return NULL;
}

/* A scalar's text, NULL when absent, null or not a scalar. */
static const char *
node_str(const yaml_node_t *n)
{
    if (!n || n->type != YAML_SCALAR_NODE || scalar_is_null(n))
        return NULL;
    return (const char *)n->data.scalar.value;
}

static const char *
src_str(const struct kc_src *s, const char *key)
{
    return node_str(map_get(&s->file->doc, s->map, key));
}

static int
src_fail(const struct kc_src *s, const char *key, struct kp_error *err)
{
    return kp_error_prefix(err, "error loading config file \"%s\": %s.%s",
                           s->file->path, s->what, key);
}

/* YAML 1.1 booleans, as go-yaml reads them; absent means 0. */
static int
src_bool(const struct kc_src *s, const char *key, int *out,
         struct kp_error *err)
{
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes",
                                      "YES", "on", "On", "ON", "y", "Y"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No",
                                     "NO", "off", "Off", "OFF", "n", "N"};
    const char *v = src_str(s, key);
    size_t i;

    *out = 0;
    if (!v)
        return 0;
    for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (!strcmp(v, yes[i])) {
            *out = 1;
            return 0;
        }
        if (!strcmp(v, no[i]))
            return 0;
    }
    kp_errorf(err, KP_EXIT_ERROR, "expected a boolean");
    return src_fail(s, key, err);
}

static int
src_base64(struct kp_arena *a, const struct kc_src *s, const char *key,
           struct kp_blob *out, struct kp_error *err)
{
    const char *v = src_str(s, key);

    out->data = NULL;
    out->len = 0;
    if (!v)
        return 0;
    if (kp_base64_decode(a, v, out, err) < 0)
        return src_fail(s, key, err);
    return 0;
}

/* ---- loading and merging --------------------------------------------- */

static struct kc_entry *
table_find(const struct kc_table *t, const char *name)
{
    size_t i;

    if (!name)
        return NULL;
    for (i = 0; i < t->n; i++)
        if (!strcmp(t->e[i].name, name))
            return &t->e[i];
    return NULL;
}

/* Add one named entry; the first file to name it wins. */
static int
table_add(struct kc_table *t, struct kc_file *f, const char *list,
          const char *name, yaml_node_t *body, struct kp_error *err)
{
    struct kc_entry *old = table_find(t, name);

    if (old && old->file == f)
        return kp_errorf(err, KP_EXIT_ERROR,
                         "error loading config file \"%s\": duplicate name "
                         "\"%s\" in %s", f->path, name, list);
    if (old)
        return 0;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 8;
        t->e = kp_xrealloc(t->e, t->cap * sizeof(*t->e));
    }
    t->e[t->n].name = name;
    t->e[t->n].body = body;
    t->e[t->n].file = f;
    t->n++;
    return 0;
}

/* Merge one of the lists clusters/contexts/users of file f. */
static int
merge_list(struct kc_table *t, struct kc_file *f, const char *list,
           const char *body_key, struct kp_error *err)
{
    yaml_node_t *root = yaml_document_get_root_node(&f->doc);
    yaml_node_t *seq = map_get(&f->doc, root, list);
    yaml_node_item_t *it;

    if (!seq || (seq->type == YAML_SCALAR_NODE && scalar_is_null(seq)))
        return 0;
    if (seq->type != YAML_SEQUENCE_NODE)
        return kp_errorf(err, KP_EXIT_ERROR, "error loading config file "
                         "\"%s\": %s: expected a list", f->path, list);
    for (it = seq->data.sequence.items.start;
         it < seq->data.sequence.items.top; it++) {
        yaml_node_t *e = yaml_document_get_node(&f->doc, *it);
        const char *name = node_str(map_get(&f->doc, e, "name"));

        if (!e || e->type != YAML_MAPPING_NODE)
            return kp_errorf(err, KP_EXIT_ERROR, "error loading config file "
                             "\"%s\": %s: expected a list of mappings",
                             f->path, list);
        if (table_add(t, f, list, name ? name : "",
                      map_get(&f->doc, e, body_key), err) < 0)
            return -1;
    }
    return 0;
}

static int
merge_file(struct kc_merged *m, struct kc_file *f, struct kp_error *err)
{
    yaml_node_t *root = yaml_document_get_root_node(&f->doc);
    const char *cur;

    if (!root)
        return 0;
    if (root->type != YAML_MAPPING_NODE)
        return kp_errorf(err, KP_EXIT_ERROR, "error loading config file "
                         "\"%s\": expected a mapping", f->path);
    if (merge_list(&m->clusters, f, "clusters", "cluster", err) < 0 ||
        merge_list(&m->contexts, f, "contexts", "context", err) < 0 ||
        merge_list(&m->users, f, "users", "user", err) < 0)
        return -1;
    cur = node_str(map_get(&f->doc, root, "current-context"));
    if (!is_set(m->current_context) && is_set(cur))
        m->current_context = cur;
    return 0;
}

/* Parse text as YAML into f->doc. */
static int
parse_yaml(struct kc_file *f, const char *text, size_t len,
           struct kp_error *err)
{
    yaml_parser_t p;
    int ok;

    if (!yaml_parser_initialize(&p))
        return kp_errorf(err, KP_EXIT_ERROR, "out of memory");
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    ok = yaml_parser_load(&p, &f->doc);
    if (!ok) {
        kp_errorf(err, KP_EXIT_ERROR, "error loading config file \"%s\": "
                  "yaml: line %zu: %s", f->path, p.problem_mark.line + 1,
                  p.problem ? p.problem : "invalid YAML");
        yaml_parser_delete(&p);
        return -1;
    }
    f->has_doc = 1;
    yaml_parser_delete(&p);
    return 0;
}

/*
 * A kubeconfig holds tokens and keys: one that the group or everybody may
 * read is worth a warning (as Helm gives; kubectl itself writes its files
 * 0600).  Only the mode is told, never the content.
 */
static void
warn_loose_mode(const struct kp_kubeconfig_overrides *o, const char *path)
{
    struct stat st;
    char msg[1200];

    if (!o->warn || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
        !(st.st_mode & (S_IRWXG | S_IRWXO)))
        return;
    snprintf(msg, sizeof(msg), "kubeconfig '%s' is %s-readable (mode %04o): "
             "it may hold credentials; chmod 600 it", path,
             (st.st_mode & S_IROTH) ? "world" : "group",
             (unsigned)(st.st_mode & 07777));
    o->warn(o->warn_ctx, msg);
}

/*
 * Load one file into m.  A missing file is skipped (*missing set) unless
 * it was named explicitly.
 */
static int
load_file(struct kc_merged *m, struct kp_arena *a, const char *path,
          int explicit_path, const struct kp_kubeconfig_overrides *o,
          int *missing, struct kp_error *err)
{
    struct kc_file *f;
    char *text;
    size_t len;
    int e = slurp(path, KC_MAX_FILE, &text, &len);

    *missing = 0;
    if (e == ENOENT && !explicit_path) {
        *missing = 1;
        return 0;
    }
    if (e == EISDIR)
        return kp_errorf(err, KP_EXIT_ERROR, "kubeconfig '%s': is a "
                         "directory", path);
    if (e == EFBIG)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot read kubeconfig '%s': "
                         "larger than 16 MiB, the cap for kubeconfig files",
                         path);
    if (e)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot read kubeconfig '%s': "
                         "%s", path, strerror(e));
    warn_loose_mode(o, path);
    f = &m->files[m->nfiles++];
    memset(f, 0, sizeof(*f));
    f->path = kp_arena_strdup(a, path);
    f->dir = file_dir(a, path);
    e = parse_yaml(f, text, len, err);
    free(text);
    if (e < 0)
        return -1;
    return merge_file(m, f, err);
}

static int
seen_before(char **paths, size_t n, const char *p)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (!strcmp(paths[i], p))
            return 1;
    return 0;
}

/* Split KUBECONFIG on ':', dropping empty and repeated entries. */
static char **
split_env_list(const char *env, size_t *n)
{
    char **out = kp_xcalloc(strlen(env) / 2 + 2, sizeof(*out));
    const char *p = env;

    *n = 0;
    while (*p) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char *s = kp_xmalloc(len + 1);

        memcpy(s, p, len);
        s[len] = '\0';
        if (len && !seen_before(out, *n, s))
            out[(*n)++] = s;
        else
            free(s);
        p += len;
        if (*p == ':')
            p++;
    }
    return out;
}

static void
warn_missing(const struct kp_kubeconfig_overrides *o, char **paths,
             size_t n)
{
    char msg[1024];
    size_t i, used;

    if (!o->warn)
        return;
    used = (size_t)snprintf(msg, sizeof(msg), "Config not found: ");
    for (i = 0; i < n && used < sizeof(msg); i++)
        used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s%s",
                                 i ? ", " : "", paths[i]);
    o->warn(o->warn_ctx, msg);
}

/* Load every file of the KUBECONFIG list (missing ones are skipped). */
static int
load_env_list(struct kc_merged *m, struct kp_arena *a, const char *env,
              const struct kp_kubeconfig_overrides *o, struct kp_error *err)
{
    size_t n, i, nmissing = 0;
    char **paths = split_env_list(env, &n);
    int rc = 0;

    m->files = kp_xcalloc(n ? n : 1, sizeof(*m->files));
    for (i = 0; i < n && rc == 0; i++) {
        int missing;

        rc = load_file(m, a, paths[i], 0, o, &missing, err);
        nmissing += (size_t)missing;
    }
    if (rc == 0 && n && nmissing == n)
        warn_missing(o, paths, n);
    for (i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    return rc;
}

/* ClientConfigLoadingRules: --kubeconfig, else KUBECONFIG, else ~. */
static int
load_files(struct kc_merged *m, struct kp_arena *a,
           const struct kp_kubeconfig_overrides *o, struct kp_error *err)
{
    const char *env = getenv("KUBECONFIG");
    const char *home = getenv("HOME");
    int missing;

    if (is_set(o->kubeconfig)) {
        m->files = kp_xcalloc(1, sizeof(*m->files));
        return load_file(m, a, o->kubeconfig, 1, o, &missing, err);
    }
    if (is_set(env))
        return load_env_list(m, a, env, o, err);
    m->files = kp_xcalloc(1, sizeof(*m->files));
    if (!is_set(home))
        return 0;
    return load_file(m, a, arena_join(a, home, ".kube/config"), 0, o,
                     &missing, err);
}

static void
merged_release(struct kc_merged *m)
{
    size_t i;

    for (i = 0; i < m->nfiles; i++)
        if (m->files[i].has_doc)
            yaml_document_delete(&m->files[i].doc);
    free(m->files);
    free(m->clusters.e);
    free(m->contexts.e);
    free(m->users.e);
    memset(m, 0, sizeof(*m));
}

/* ---- YAML to JSON (the exec extension) -------------------------------- */

static int
plain_number(const char *v, double *d)
{
    char *end;

    if (!*v || strchr(v, '_'))
        return 0;
    errno = 0;
    *d = strtod(v, &end);
    return *end == '\0' && errno == 0 &&
           strspn(v, "+-0123456789.eE") == strlen(v);
}

static cJSON *
yaml_scalar_json(const yaml_node_t *n)
{
    const char *v = (const char *)n->data.scalar.value;
    double d;

    if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
        if (scalar_is_null(n))
            return cJSON_CreateNull();
        if (!strcmp(v, "true") || !strcmp(v, "false"))
            return cJSON_CreateBool(v[0] == 't');
        if (plain_number(v, &d))
            return cJSON_CreateNumber(d);
    }
    return cJSON_CreateString(v);
}

static cJSON *
yaml_to_json(yaml_document_t *doc, yaml_node_t *n, int depth)
{
    cJSON *j;

    if (!n || depth > 64)
        return cJSON_CreateNull();
    if (n->type == YAML_SCALAR_NODE)
        return yaml_scalar_json(n);
    if (n->type == YAML_SEQUENCE_NODE) {
        yaml_node_item_t *it;

        j = cJSON_CreateArray();
        for (it = n->data.sequence.items.start;
             it < n->data.sequence.items.top; it++)
            cJSON_AddItemToArray(j, yaml_to_json(
                doc, yaml_document_get_node(doc, *it), depth + 1));
        return j;
    }
    j = cJSON_CreateObject();
    if (n->type == YAML_MAPPING_NODE) {
        yaml_node_pair_t *p;

        for (p = n->data.mapping.pairs.start;
             p < n->data.mapping.pairs.top; p++) {
            const char *k =
                node_str(yaml_document_get_node(doc, p->key));

            cJSON_AddItemToObject(j, k ? k : "", yaml_to_json(
                doc, yaml_document_get_node(doc, p->value), depth + 1));
        }
    }
    return j;
}

/* clusters[].cluster.extensions[name=client.authentication.k8s.io/exec] */
static const char *
exec_extension(struct kp_arena *a, const struct kc_src *s)
{
    yaml_document_t *doc = &s->file->doc;
    yaml_node_t *seq = map_get(doc, s->map, "extensions");
    yaml_node_item_t *it;

    if (!seq || seq->type != YAML_SEQUENCE_NODE)
        return NULL;
    for (it = seq->data.sequence.items.start;
         it < seq->data.sequence.items.top; it++) {
        yaml_node_t *e = yaml_document_get_node(doc, *it);
        const char *name = node_str(map_get(doc, e, "name"));

        if (name && !strcmp(name, KC_EXEC_EXTENSION)) {
            cJSON *j = yaml_to_json(doc, map_get(doc, e, "extension"), 0);
            char *txt = cJSON_PrintUnformatted(j);
            const char *out = kp_arena_strdup(a, txt);

            cJSON_Delete(j);
            cJSON_free(txt);
            return out;
        }
    }
    return NULL;
}

/* ---- cluster, context, user ------------------------------------------- */

static int
fill_cluster(struct kp_rest_config *rc, const struct kc_entry *e,
             struct kp_error *err)
{
    struct kp_arena *a = &rc->arena;
    struct kc_src s;
    char what[300];

    snprintf(what, sizeof(what), "clusters[\"%s\"]", e->name);
    s.file = e->file;
    s.map = e->body;
    s.what = what;
    rc->cluster_name = kp_arena_strdup(a, e->name);
    rc->server = kp_arena_strdup(a, src_str(&s, "server"));
    rc->tls_server_name = kp_arena_strdup(a, src_str(&s, "tls-server-name"));
    rc->proxy_url = kp_arena_strdup(a, src_str(&s, "proxy-url"));
    rc->ca_file = resolve_path(a, e->file,
                               src_str(&s, "certificate-authority"));
    rc->exec_cluster_config = exec_extension(a, &s);
    if (src_base64(a, &s, "certificate-authority-data", &rc->ca_data,
                   err) < 0 ||
        src_bool(&s, "insecure-skip-tls-verify", &rc->insecure, err) < 0 ||
        src_bool(&s, "disable-compression", &rc->disable_compression,
                 err) < 0)
        return -1;
    return 0;
}

static const char **
str_list(struct kp_arena *a, yaml_document_t *doc, yaml_node_t *seq,
         size_t *n)
{
    const char **out;
    yaml_node_item_t *it;

    *n = 0;
    if (!seq || seq->type != YAML_SEQUENCE_NODE)
        return NULL;
    out = kp_arena_alloc(a, sizeof(*out) *
                         (size_t)(seq->data.sequence.items.top -
                                  seq->data.sequence.items.start + 1));
    for (it = seq->data.sequence.items.start;
         it < seq->data.sequence.items.top; it++) {
        const char *v = node_str(yaml_document_get_node(doc, *it));

        out[(*n)++] = kp_arena_strdup(a, v ? v : "");
    }
    return out;
}

static void
fill_exec_env(struct kp_arena *a, yaml_document_t *doc, yaml_node_t *seq,
              struct kp_exec_config *x)
{
    yaml_node_item_t *it;

    if (!seq || seq->type != YAML_SEQUENCE_NODE)
        return;
    x->env = kp_arena_alloc(a, sizeof(*x->env) *
                            (size_t)(seq->data.sequence.items.top -
                                     seq->data.sequence.items.start + 1));
    for (it = seq->data.sequence.items.start;
         it < seq->data.sequence.items.top; it++) {
        yaml_node_t *e = yaml_document_get_node(doc, *it);
        const char *name = node_str(map_get(doc, e, "name"));
        const char *value = node_str(map_get(doc, e, "value"));

        x->env[x->nenv].name = kp_arena_strdup(a, name ? name : "");
        x->env[x->nenv].value = kp_arena_strdup(a, value ? value : "");
        x->nenv++;
    }
}

/* users[].user.exec; the command is resolved only if it has a '/'. */
static int
fill_exec(struct kp_rest_config *rc, const struct kc_src *user,
          struct kp_error *err)
{
    struct kp_arena *a = &rc->arena;
    yaml_document_t *doc = &user->file->doc;
    struct kc_src s = *user;
    struct kp_exec_config *x;
    const char *cmd;
    char what[320];

    s.map = map_get(doc, user->map, "exec");
    if (!s.map || s.map->type != YAML_MAPPING_NODE)
        return 0;
    snprintf(what, sizeof(what), "%s.exec", user->what);
    s.what = what;
    x = kp_arena_alloc(a, sizeof(*x));
    cmd = src_str(&s, "command");
    x->command = cmd && strchr(cmd, '/') ? resolve_path(a, s.file, cmd)
                                         : kp_arena_strdup(a, cmd);
    x->args = str_list(a, doc, map_get(doc, s.map, "args"), &x->nargs);
    fill_exec_env(a, doc, map_get(doc, s.map, "env"), x);
    x->api_version = kp_arena_strdup(a, src_str(&s, "apiVersion"));
    x->interactive_mode =
        kp_arena_strdup(a, src_str(&s, "interactiveMode"));
    if (!x->interactive_mode && x->api_version &&
        !strcmp(x->api_version, KC_EXEC_V1BETA1))
        x->interactive_mode = "IfAvailable";
    x->install_hint = kp_arena_strdup(a, src_str(&s, "installHint"));
    rc->exec = x;
    return src_bool(&s, "provideClusterInfo", &x->provide_cluster_info,
                    err);
}

static void
fill_auth_provider(struct kp_rest_config *rc, const struct kc_src *user)
{
    yaml_document_t *doc = &user->file->doc;
    yaml_node_t *ap = map_get(doc, user->map, "auth-provider");
    const char *name = node_str(map_get(doc, ap, "name"));
    yaml_node_t *cfg = map_get(doc, ap, "config");

    if (!ap)
        return;
    rc->auth_provider = kp_arena_strdup(&rc->arena, name ? name : "");
    rc->auth_provider_token =
        kp_arena_strdup(&rc->arena, node_str(map_get(doc, cfg, "id-token")));
}

static int
fill_user(struct kp_rest_config *rc, const struct kc_entry *e,
          struct kp_error *err)
{
    struct kp_arena *a = &rc->arena;
    struct kc_src s;
    char what[300];

    snprintf(what, sizeof(what), "users[\"%s\"]", e->name);
    s.file = e->file;
    s.map = e->body;
    s.what = what;
    rc->user_name = kp_arena_strdup(a, e->name);
    rc->token = kp_arena_strdup(a, src_str(&s, "token"));
    rc->token_file = resolve_path(a, e->file, src_str(&s, "tokenFile"));
    rc->cert_file = resolve_path(a, e->file,
                                 src_str(&s, "client-certificate"));
    rc->key_file = resolve_path(a, e->file, src_str(&s, "client-key"));
    rc->username = kp_arena_strdup(a, src_str(&s, "username"));
    rc->password = kp_arena_strdup(a, src_str(&s, "password"));
    rc->impersonate_user = kp_arena_strdup(a, src_str(&s, "as"));
    rc->impersonate_uid = kp_arena_strdup(a, src_str(&s, "as-uid"));
    rc->impersonate_groups = str_list(a, &e->file->doc,
                                      map_get(&e->file->doc, s.map,
                                              "as-groups"),
                                      &rc->nimpersonate_groups);
    fill_auth_provider(rc, &s);
    if (src_base64(a, &s, "client-certificate-data", &rc->cert_data,
                   err) < 0 ||
        src_base64(a, &s, "client-key-data", &rc->key_data, err) < 0)
        return -1;
    return fill_exec(rc, &s, err);
}

/* DirectClientConfig.getContext/getCluster/getAuthInfo. */
static int
select_entries(struct kp_rest_config *rc, const struct kc_merged *m,
               const struct kp_kubeconfig_overrides *o, struct kp_error *err)
{
    const char *name = is_set(o->context) ? o->context : m->current_context;
    const struct kc_entry *ctx = table_find(&m->contexts, name);
    const struct kc_entry *cl, *us;
    struct kc_src s = {NULL, NULL, ""};

    if (!ctx && is_set(o->context))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "context \"%s\" does not exist", o->context);
    if (!ctx && is_set(name))
        return kp_errorf(err, KP_EXIT_ERROR, "context was not found for "
                         "specified context: %s", name);
    if (ctx) {
        s.file = ctx->file;
        s.map = ctx->body;
        rc->context_name = kp_arena_strdup(&rc->arena, ctx->name);
        rc->namespace = kp_arena_strdup(&rc->arena,
                                        src_str(&s, "namespace"));
    }
    cl = table_find(&m->clusters, is_set(o->cluster) ? o->cluster
                    : ctx ? src_str(&s, "cluster") : NULL);
    us = table_find(&m->users, is_set(o->user) ? o->user
                    : ctx ? src_str(&s, "user") : NULL);
    if (!cl && is_set(o->cluster))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "cluster \"%s\" does not exist", o->cluster);
    if (!us && is_set(o->user))
        return kp_errorf(err, KP_EXIT_ERROR,
                         "auth info \"%s\" does not exist", o->user);
    if (cl && fill_cluster(rc, cl, err) < 0)
        return -1;
    if (us && fill_user(rc, us, err) < 0)
        return -1;
    if (!cl && ctx && is_set(src_str(&s, "cluster")))
        rc->cluster_name = kp_arena_strdup(&rc->arena,
                                           src_str(&s, "cluster"));
    return 0;
}

/* ---- overrides, defaults, in-cluster ---------------------------------- */

/*
 * kubectl's other connection flags (issue 29), as clientcmd merges its
 * overrides (client_config.go, getAuthInfo: mergo.Merge WithOverride,
 * so a flag that is set replaces the kubeconfig's field and an empty one
 * changes nothing; getUserIdentificationPartialConfig then uses them):
 * --as, --as-uid, --as-group (the list replaces the kubeconfig's),
 * --client-certificate, --client-key (files: kubeconfig data for the
 * same field is then both, an error as kubectl's), --username,
 * --password; --disable-compression=true.  --tls-server-name is in
 * apply_overrides with --server.
 */
static void
apply_conn_overrides(struct kp_rest_config *rc, const struct kp_conn_flags *c)
{
    struct kp_arena *a = &rc->arena;
    size_t i;

    if (!c)
        return;
    if (is_set(c->as))
        rc->impersonate_user = kp_arena_strdup(a, c->as);
    if (is_set(c->as_uid))
        rc->impersonate_uid = kp_arena_strdup(a, c->as_uid);
    if (c->nas_groups) {
        rc->impersonate_groups = kp_arena_alloc(a, c->nas_groups *
                                                sizeof(char *));
        for (i = 0; i < c->nas_groups; i++)
            rc->impersonate_groups[i] = kp_arena_strdup(a, c->as_groups[i]);
        rc->nimpersonate_groups = c->nas_groups;
    }
    if (is_set(c->client_certificate))
        rc->cert_file = kp_arena_strdup(a, c->client_certificate);
    if (is_set(c->client_key))
        rc->key_file = kp_arena_strdup(a, c->client_key);
    if (is_set(c->username))
        rc->username = kp_arena_strdup(a, c->username);
    if (is_set(c->password))
        rc->password = kp_arena_strdup(a, c->password);
    if (c->disable_compression)
        rc->disable_compression = 1;
}

/* The flags win; a CA or insecure flag replaces the whole trust setting. */
static void
apply_overrides(struct kp_rest_config *rc,
                const struct kp_kubeconfig_overrides *o)
{
    struct kp_arena *a = &rc->arena;
    const char *sni = o->conn ? o->conn->tls_server_name : NULL;

    if (is_set(o->server)) {
        rc->server = kp_arena_strdup(a, o->server);
        rc->tls_server_name = NULL;
    }
    /*
     * getCluster: --tls-server-name wins, and --server clears the
     * kubeconfig's tls-server-name (the flag's value, maybe none, is kept)
     */
    if (is_set(sni))
        rc->tls_server_name = kp_arena_strdup(a, sni);
    apply_conn_overrides(rc, o->conn);
    if (is_set(o->token)) {
        rc->token = kp_arena_strdup(a, o->token);
        rc->token_file = NULL;
    }
    if (is_set(o->certificate_authority) || o->insecure_skip_tls_verify == 1) {
        rc->ca_file = kp_arena_strdup(a, is_set(o->certificate_authority)
                                      ? o->certificate_authority : NULL);
        rc->ca_data.data = NULL;
        rc->ca_data.len = 0;
        rc->insecure = o->insecure_skip_tls_verify == 1;
    }
    /* =false changes nothing, as in client-go (a zero value never wins) */
}

static const char *
sa_dir(void)
{
    const char *d = getenv("KP_SERVICEACCOUNT_DIR");

    return is_set(d) ? d : KC_SA_DIR;
}

/* inClusterClientConfig.Possible */
static int
in_cluster_possible(void)
{
    struct stat st;
    char path[4096];

    snprintf(path, sizeof(path), "%s/token", sa_dir());
    return is_set(getenv("KUBERNETES_SERVICE_HOST")) &&
           is_set(getenv("KUBERNETES_SERVICE_PORT")) &&
           stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* inClusterClientConfig.Namespace: POD_NAMESPACE, the SA file, default. */
static const char *
in_cluster_namespace(struct kp_arena *a)
{
    const char *env = getenv("POD_NAMESPACE");
    const char *ns = NULL;
    char *text;
    size_t len;

    if (is_set(env))
        return kp_arena_strdup(a, env);
    if (slurp(arena_join(a, sa_dir(), "namespace"), 4096, &text, &len) == 0) {
        ns = arena_trim(a, text);
        free(text);
    }
    return is_set(ns) ? ns : "default";
}

/* rest.InClusterConfig, with the overrides client-go honours there. */
static void
load_in_cluster(struct kp_rest_config *rc,
                const struct kp_kubeconfig_overrides *o)
{
    struct kp_arena *a = &rc->arena;
    const char *host = getenv("KUBERNETES_SERVICE_HOST");
    const char *port = getenv("KUBERNETES_SERVICE_PORT");
    const char *ca = arena_join(a, sa_dir(), "ca.crt");
    size_t n = strlen(host) + strlen(port) + 16;
    char *server = kp_arena_alloc(a, n);

    snprintf(server, n, strchr(host, ':') ? "https://[%s]:%s"
             : "https://%s:%s", host, port);
    memset(&rc->ca_data, 0, sizeof(rc->ca_data));
    rc->source = KP_CONFIG_IN_CLUSTER;
    rc->server = server;
    rc->token_file = arena_join(a, sa_dir(), "token");
    rc->ca_file = access(ca, R_OK) == 0 ? ca : NULL;
    rc->namespace = in_cluster_namespace(a);
    if (is_set(o->server))
        rc->server = kp_arena_strdup(a, o->server);
    if (is_set(o->token)) {
        rc->token = kp_arena_strdup(a, o->token);
        rc->token_file = NULL;
    }
    if (is_set(o->certificate_authority))
        rc->ca_file = kp_arena_strdup(a, o->certificate_authority);
    /*
     * client-go's inClusterClientConfig takes only the server, token and
     * CA flags; the others are honoured here too rather than dropped
     * without a word (README "Connecting as kubectl does")
     */
    if (o->conn && is_set(o->conn->tls_server_name))
        rc->tls_server_name = kp_arena_strdup(a, o->conn->tls_server_name);
    apply_conn_overrides(rc, o->conn);
}

/* rest.DefaultServerURL: no scheme means https only when TLS is set up. */
static void
normalize_server(struct kp_rest_config *rc)
{
    size_t n = strlen(rc->server);
    int tls = rc->ca_file || rc->ca_data.len || rc->cert_file ||
              rc->cert_data.len || rc->insecure;
    char *s;

    while (n > 0 && rc->server[n - 1] == '/')
        n--;
    if (strstr(rc->server, "://")) {
        rc->server = kp_arena_strndup(&rc->arena, rc->server, n);
        return;
    }
    s = kp_arena_alloc(&rc->arena, n + 9);
    memcpy(s, tls ? "https://" : "http://", tls ? 8 : 7);
    memcpy(s + (tls ? 8 : 7), rc->server, n);
    rc->server = s;
}

/* ---- validation (validation.go) --------------------------------------- */

static int
check_readable(const char *path, const char *what, const char *owner,
               struct kp_error *err)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    int dir;

    if (!f)
        return kp_errorf(err, KP_EXIT_ERROR, "unable to read %s %s for %s "
                         "due to %s", what, path, owner, strerror(errno));
    dir = fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
    fclose(f);
    if (dir)
        return kp_errorf(err, KP_EXIT_ERROR, "%s %s for %s: is a directory",
                         what, path, owner);
    return 0;
}

static int
validate_cluster(const struct kp_rest_config *rc, struct kp_error *err)
{
    const char *name = rc->cluster_name ? rc->cluster_name : "";

    if (rc->ca_file && rc->ca_data.len)
        return kp_errorf(err, KP_EXIT_ERROR, "certificate-authority-data "
                         "and certificate-authority are both specified for "
                         "%s; use only one", name);
    if (rc->ca_file &&
        check_readable(rc->ca_file, "certificate-authority", name, err) < 0)
        return -1;
    if (rc->insecure && (rc->ca_file || rc->ca_data.len))
        return kp_errorf(err, KP_EXIT_ERROR, "specifying a root "
                         "certificates file with the insecure flag is not "
                         "allowed");
    return 0;
}

static int
validate_cert_auth(const struct kp_rest_config *rc, const char *name,
                   struct kp_error *err)
{
    if (!rc->cert_file && !rc->cert_data.len) {
        if (rc->key_file || rc->key_data.len)
            return kp_errorf(err, KP_EXIT_ERROR, "client-certificate-data "
                             "or client-certificate must be specified for "
                             "%s to use the clientCert authentication "
                             "method", name);
        return 0;
    }
    if (rc->cert_file && rc->cert_data.len)
        return kp_errorf(err, KP_EXIT_ERROR, "client-cert-data and "
                         "client-cert are both specified for %s; use only "
                         "one", name);
    if (rc->key_file && rc->key_data.len)
        return kp_errorf(err, KP_EXIT_ERROR, "client-key-data and "
                         "client-key are both specified for %s; use only "
                         "one", name);
    if (!rc->key_file && !rc->key_data.len)
        return kp_errorf(err, KP_EXIT_ERROR, "client-key-data or client-key "
                         "must be specified for %s to use the clientCert "
                         "authentication method", name);
    if (rc->cert_file &&
        check_readable(rc->cert_file, "client-cert", name, err) < 0)
        return -1;
    if (rc->key_file &&
        check_readable(rc->key_file, "client-key", name, err) < 0)
        return -1;
    return 0;
}

static int
validate_exec(const struct kp_exec_config *x, const char *name,
              struct kp_error *err)
{
    const char *m = x->interactive_mode;
    size_t i;

    if (!is_set(x->command))
        return kp_errorf(err, KP_EXIT_ERROR, "command must be specified "
                         "for %s to use exec authentication plugin", name);
    if (!is_set(x->api_version))
        return kp_errorf(err, KP_EXIT_ERROR, "apiVersion must be specified "
                         "for %s to use exec authentication plugin", name);
    for (i = 0; i < x->nenv; i++)
        if (!*x->env[i].name)
            return kp_errorf(err, KP_EXIT_ERROR, "env variable name must be "
                             "specified for %s to use exec authentication "
                             "plugin", name);
    if (!is_set(m))
        return kp_errorf(err, KP_EXIT_ERROR, "interactiveMode must be "
                         "specified for %s to use exec authentication "
                         "plugin", name);
    if (strcmp(m, "Never") && strcmp(m, "IfAvailable") && strcmp(m, "Always"))
        return kp_errorf(err, KP_EXIT_ERROR, "invalid interactiveMode for "
                         "%s: \"%s\"", name, m);
    return 0;
}

static int
validate_user(const struct kp_rest_config *rc, struct kp_error *err)
{
    const char *name = rc->user_name ? rc->user_name : "";

    if (validate_cert_auth(rc, name, err) < 0)
        return -1;
    if (rc->exec && rc->auth_provider)
        return kp_errorf(err, KP_EXIT_ERROR, "authProvider cannot be "
                         "provided in combination with an exec plugin for "
                         "%s", name);
    if (rc->exec && validate_exec(rc->exec, name, err) < 0)
        return -1;
    if (is_set(rc->token) && (is_set(rc->username) || is_set(rc->password)))
        return kp_errorf(err, KP_EXIT_ERROR, "more than one authentication "
                         "method found for %s; found [token basicAuth], "
                         "only one is allowed", name);
    /* clientcmd validation.go, validateAuthInfo */
    if (!is_set(rc->impersonate_user) &&
        (is_set(rc->impersonate_uid) || rc->nimpersonate_groups))
        return kp_errorf(err, KP_EXIT_ERROR, "requesting uid, groups or "
                         "user-extra for %s without impersonating a user",
                         name);
    return 0;
}

/* ---- entry points ----------------------------------------------------- */

/*
 * The kubeconfig selected nothing with a server: use the in-cluster
 * config when possible, as DeferredLoadingClientConfig does.
 */
static int
no_server(struct kp_rest_config *rc, const struct kc_merged *m,
          const struct kp_kubeconfig_overrides *o, struct kp_error *err)
{
    if (rc->cluster_name && table_find(&m->clusters, rc->cluster_name))
        return kp_errorf(err, KP_EXIT_ERROR, "invalid configuration: no "
                         "server found for cluster \"%s\"",
                         rc->cluster_name);
    if (in_cluster_possible()) {
        struct kp_arena keep = rc->arena;

        memset(rc, 0, sizeof(*rc));
        rc->arena = keep;
        load_in_cluster(rc, o);
        return 0;
    }
    if (m->nfiles == 0)
        return kp_errorf(err, KP_EXIT_ERROR, "no configuration has been "
                         "provided: no kubeconfig file was found and this "
                         "is not running in a cluster; use --kubeconfig, "
                         "KUBECONFIG or --server, or -f FILE to analyse a "
                         "snapshot (kubectl get nodes,pods,pdb,"
                         "priorityclasses -A -o json > FILE)");
    if (!rc->context_name)
        return kp_errorf(err, KP_EXIT_ERROR, "invalid configuration: no "
                         "current context is set; use --context or "
                         "--server");
    return kp_errorf(err, KP_EXIT_ERROR, "invalid configuration: context "
                     "\"%s\" names no known cluster%s%s", rc->context_name,
                     rc->cluster_name ? " " : "",
                     rc->cluster_name ? rc->cluster_name : "");
}

static int
load_merged(struct kp_rest_config *rc, struct kc_merged *m,
            const struct kp_kubeconfig_overrides *o, struct kp_error *err)
{
    if (load_files(m, &rc->arena, o, err) < 0 ||
        select_entries(rc, m, o, err) < 0)
        return -1;
    apply_overrides(rc, o);
    if (!is_set(rc->server) && no_server(rc, m, o, err) < 0)
        return -1;
    if (rc->source == KP_CONFIG_KUBECONFIG && !is_set(rc->namespace))
        rc->namespace = in_cluster_possible() ? in_cluster_namespace(
                                                    &rc->arena)
                                              : "default";
    normalize_server(rc);
    if (validate_cluster(rc, err) < 0 || validate_user(rc, err) < 0)
        return -1;
    return 0;
}

int
kp_kubeconfig_load(struct kp_rest_config *rc,
                   const struct kp_kubeconfig_overrides *o,
                   struct kp_error *err)
{
    struct kc_merged m;
    int r;

    memset(rc, 0, sizeof(*rc));
    memset(&m, 0, sizeof(m));
    kp_arena_init(&rc->arena);
    r = load_merged(rc, &m, o, err);
    merged_release(&m);
    if (r < 0)
        kp_rest_config_release(rc);
    return r;
}

/* A token from tokenFile wins over token when readable (client-go). */
static int
read_token_file(struct kp_rest_config *rc, struct kp_error *err)
{
    char *text;
    size_t len;
    int e = slurp(rc->token_file, KP_CAP_TOKEN_FILE, &text, &len);
    const char *tok;

    if (e && is_set(rc->token))
        return 0;
    if (e == EISDIR)
        return kp_errorf(err, KP_EXIT_ERROR, "tokenFile '%s': is a "
                         "directory", rc->token_file);
    if (e == EFBIG)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot read token file '%s': "
                         "larger than 1 MiB, the cap for token files",
                         rc->token_file);
    if (e)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot read token file '%s': "
                         "%s", rc->token_file, strerror(e));
    tok = arena_trim(&rc->arena, text);
    memset(text, 0, len);
    free(text);
    if (!*tok)
        return kp_errorf(err, KP_EXIT_ERROR, "read empty token from file "
                         "'%s'", rc->token_file);
    rc->token = tok;
    return 0;
}

static int
header_safe(const char *s)
{
    for (; s && *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

static int
auth_provider_token(struct kp_rest_config *rc, struct kp_error *err)
{
    const char *p = rc->auth_provider;

    if (!strcmp(p, "oidc") && is_set(rc->auth_provider_token)) {
        rc->token = rc->auth_provider_token;
        return 0;
    }
    if (!strcmp(p, "gcp") || !strcmp(p, "azure"))
        return kp_errorf(err, KP_EXIT_ERROR, "the %s auth plugin has been "
                         "removed; use an exec credential plugin instead",
                         p);
    if (!strcmp(p, "oidc"))
        return kp_errorf(err, KP_EXIT_ERROR, "the oidc auth provider of "
                         "user \"%s\" has no id-token; refresh it with "
                         "kubectl first", rc->user_name ? rc->user_name
                                                        : "");
    return kp_errorf(err, KP_EXIT_ERROR, "no Auth Provider found for name "
                     "\"%s\"", p);
}

int
kp_rest_config_credentials(struct kp_rest_config *rc, struct kp_error *err)
{
    int have;

    if (strncmp(rc->server, "https://", 8) != 0)
        return 0;       /* client-go sends no credentials without TLS */
    if (rc->token_file && read_token_file(rc, err) < 0)
        return -1;
    have = is_set(rc->token) || rc->cert_file || rc->cert_data.len ||
           is_set(rc->username) || is_set(rc->password);
    if (!have && rc->auth_provider && auth_provider_token(rc, err) < 0)
        return -1;
    if (!have && !rc->auth_provider && rc->exec &&
        kp_exec_credential_run(rc, err) < 0)
        return -1;
    if (!header_safe(rc->token))
        return kp_errorf(err, KP_EXIT_ERROR, "the bearer token contains "
                         "characters not allowed in an HTTP header");
    return 0;
}

static void
wipe(const void *p, size_t n)
{
    volatile unsigned char *v = (volatile unsigned char *)(uintptr_t)p;

    while (p && n--)
        *v++ = 0;
}

static void
wipe_str(const char *s)
{
    if (s)
        wipe(s, strlen(s));
}

void
kp_rest_config_release(struct kp_rest_config *rc)
{
    wipe_str(rc->token);
    wipe_str(rc->password);
    wipe_str(rc->auth_provider_token);
    wipe(rc->key_data.data, rc->key_data.len);
    kp_arena_release(&rc->arena);
    memset(rc, 0, sizeof(*rc));
}
