/*
 * input.c - -f as kubectl reads it: files, standard input, directories
 * (-R), JSON or YAML.  Mirrors k8s.io/cli-runtime pkg/resource/visitor.go
 * (ExpandPathsToFileVisitors: a filepath.Walk in lexical order that skips
 * subdirectories unless recursive and, below the root, files whose
 * extension is not .json, .yaml or .yml; symbolic links are not followed
 * into directories) and its YAMLOrJSONDecoder's sniffing.  The layout of
 * `kubectl cluster-info dump --output-directory` is kubectl's
 * pkg/cmd/clusterinfo/clusterinfo_dump.go: nodes.json at the top, then per
 * namespace NAMESPACE/{events,replicationcontrollers,services,daemonsets,
 * deployments,replicasets,pods}.json and NAMESPACE/POD/logs.txt (.yaml
 * instead of .json with -o yaml).
 */
#include "input.h"
#include "recording.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "shortcut.h"
#include "snapshot_load.h"
#include "yaml_json.h"

/* as snapshot.c's limit on one input */
#define INPUT_MAX_BYTES ((size_t)8 << 30)
/* what is read of a file of unknown kind to tell JSON from YAML */
#define SNIFF_BYTES 4096
/* directories below a -f directory, at most (no links are followed) */
#define INPUT_MAX_DEPTH 64

static bool
has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* kubectl's FileExtensions */
static bool
resource_file(const char *name)
{
    return has_suffix(name, ".json") || has_suffix(name, ".yaml") ||
           has_suffix(name, ".yml");
}

/*
 * Whether text of unknown kind (no .json/.yaml/.yml name, standard input)
 * is YAML.  A document of Kubernetes objects is a mapping, so YAML starts
 * with "key:" on its first line, "---", a comment or a directive; JSON
 * starts with '{', '[' or '"'.  Anything else (garbage, NUL bytes, a bare
 * word) goes to the JSON reader, which names its first bad byte.
 */
static bool
looks_like_yaml(const char *buf, size_t len)
{
    size_t i = 0, j;

    while (i < len && strchr(" \t\r\n", buf[i]) && buf[i])
        i++;
    if (i >= len)
        return false;
    if (buf[i] == '#' || buf[i] == '%' ||
        (len - i >= 3 && memcmp(buf + i, "---", 3) == 0))
        return true;
    if ((unsigned char)buf[i] < 0x21 || strchr("{[\"", buf[i]))
        return false;
    for (j = i; j < len && buf[j] != '\n'; j++)
        if (buf[j] == ':')
            return true;
    return false;
}

/*
 * kubectl's YAMLOrJSONDecoder reads a stream as JSON when its first
 * non-blank byte is '{', whatever the file is called; so does a .yaml
 * file here.
 */
static bool
starts_like_json_object(const char *buf, size_t len)
{
    size_t i = 0;

    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
                       buf[i] == '\n'))
        i++;
    return i < len && buf[i] == '{';
}

/*
 * The rest of f after the n bytes already in pre, whole (YAML is parsed
 * as one tree); capped, and a failed allocation is an error, not abort.
 */
static char *
read_stream(FILE *f, const char *name, const char *pre, size_t npre,
            size_t *len, struct kp_error *err)
{
    size_t cap = npre + (1 << 16), n = npre, r;
    char *buf = malloc(cap + 1), *nb;

    if (!buf)
        goto oom;
    if (npre)
        memcpy(buf, pre, npre);
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n < cap)
            continue;
        if (cap >= INPUT_MAX_BYTES) {
            free(buf);
            kp_errorf(err, KP_EXIT_ERROR, "%s: input larger than %zu "
                      "bytes", name, INPUT_MAX_BYTES);
            return NULL;
        }
        cap *= 2;
        nb = realloc(buf, cap + 1);
        if (!nb) {
            free(buf);
            goto oom;
        }
        buf = nb;
    }
    if (ferror(f)) {
        free(buf);
        kp_errorf(err, KP_EXIT_ERROR, "%s: read error: %s", name,
                  strerror(errno));
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
oom:
    kp_errorf(err, KP_EXIT_ERROR, "%s: out of memory reading %zu bytes of "
              "YAML", name, n);
    return NULL;
}

/* "SOURCE: rest" becomes "SOURCE: document N: rest". */
static void
insert_document(struct kp_error *err, const char *source, int n)
{
    size_t m = strlen(source);

    if (strncmp(err->msg, source, m) != 0 || strncmp(err->msg + m, ": ", 2))
        return;
    memmove(err->msg, err->msg + m + 2, strlen(err->msg + m + 2) + 1);
    kp_error_prefix(err, "%s: document %d", source, n);
}

/*
 * KP_NO_YAML_STREAM=1: the stream as one tree, then each document
 * through the JSON loader (the shortcut off, shortcut.h: the same
 * report).
 */
static int
load_yaml_tree(struct kp_snapshot *s, const char *buf, size_t len,
               const char *source, struct kp_error *err)
{
    cJSON *docs = NULL, *doc;
    int idx = 0, nloaded = 0, rc = 0;

    if (kp_yaml_to_json(buf, len, &docs, err) < 0)
        return kp_error_prefix(err, "%s", source);
    cJSON_ArrayForEach(doc, docs) {
        char *text;

        idx++;
        if (cJSON_IsNull(doc))
            continue;
        text = cJSON_PrintUnformatted(doc);
        rc = kp_snapshot_load_buffer(s, text, strlen(text), source, err);
        free(text);
        if (rc < 0) {
            if (idx > 1)
                insert_document(err, source, idx);
            break;
        }
        nloaded++;
    }
    cJSON_Delete(docs);
    if (rc == 0 && nloaded == 0)
        rc = kp_errorf(err, KP_EXIT_ERROR, "%s: empty input", source);
    return rc;
}

/* One document that is not a List, whole, through the JSON loader. */
static int
load_yaml_whole(struct kp_snapshot *s, cJSON *doc, const char *source,
                struct kp_error *err)
{
    char *text = cJSON_PrintUnformatted(doc);
    int rc;

    if (!text)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: out of memory", source);
    rc = kp_snapshot_load_buffer(s, text, strlen(text), source, err);
    free(text);
    return rc;
}

/*
 * Every document of a YAML stream, each through the JSON loader; empty
 * documents (a trailing "---", comments only) are skipped, as kubectl's
 * decoder skips them.  The stream is read twice, never held as one tree
 * (issue 27: a 200 MB List took 2 GB): first for its errors and the
 * members of each List but its items (kp_yaml_headers), then document
 * by document, a List's items one at a time into the loader
 * (kp_snapshot_load_list_pulled), any other document whole, as the JSON
 * of a file is read.  The errors are those of reading the stream whole
 * first: YAML errors before any object's.
 */
static int
load_yaml(struct kp_snapshot *s, const char *buf, size_t len,
          const char *source, struct kp_error *err)
{
    cJSON *heads = NULL, *head;
    struct kp_yaml_reader *r;
    int idx = 0, nloaded = 0, rc = 0;

    if (kp_shortcut_off("KP_NO_YAML_STREAM"))
        return load_yaml_tree(s, buf, len, source, err);
    if (kp_yaml_headers(buf, len, &heads, err) < 0)
        return kp_error_prefix(err, "%s", source);
    r = kp_yaml_reader_new(buf, len);
    if (!r) {
        cJSON_Delete(heads);
        return kp_errorf(err, KP_EXIT_ERROR, "%s: out of memory", source);
    }
    cJSON_ArrayForEach(head, heads) {
        bool items = cJSON_IsObject(head);
        cJSON *doc = NULL;

        idx++;
        if (kp_yaml_reader_doc(r, items, &doc, err) < 0) {
            kp_error_prefix(err, "%s", source);
            rc = -1;
            break;
        }
        if (cJSON_IsNull(head)) {
            cJSON_Delete(doc);
            continue;
        }
        if (items)
            rc = kp_snapshot_load_list_pulled(s, head, kp_yaml_reader_item,
                                              r, source, err);
        else
            rc = load_yaml_whole(s, doc, source, err);
        cJSON_Delete(doc);
        if (rc < 0) {
            if (idx > 1)
                insert_document(err, source, idx);
            break;
        }
        nloaded++;
    }
    kp_yaml_reader_free(r);
    cJSON_Delete(heads);
    if (rc == 0 && nloaded == 0)
        rc = kp_errorf(err, KP_EXIT_ERROR, "%s: empty input", source);
    return rc;
}

/* Up to n bytes of fd: at least one unless at the end (a pipe's first). */
static size_t
read_some(int fd, char *buf, size_t n)
{
    ssize_t got;

    do
        got = read(fd, buf, n);
    while (got < 0 && errno == EINTR);
    return got > 0 ? (size_t)got : 0;
}

/*
 * A file is told by its first bytes, as kubectl's YAMLOrJSONDecoder tells
 * it, whatever its name: a .yaml/.yml file is YAML unless it starts with
 * '{'; anything else (.json, other names, standard input) is YAML when it
 * looks like YAML (looks_like_yaml), so a .json file holding YAML is read
 * as kubectl reads it.  JSON goes to kp_snapshot_load_file() (mapped) or
 * is streamed, one item at a time, so garbage or an endless pipe fails at
 * its first bad byte; YAML is read whole for libyaml.
 */
static int
load_file(struct kp_snapshot *s, const char *path, struct kp_error *err)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    char head[SNIFF_BYTES];
    size_t nhead = 0, len = 0;
    bool yaml;
    FILE *f;
    char *buf;
    int rc;

    s->nfiles_read++;               /* duplicates: snapshot.h */

    f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: %s", path,
                         strerror(errno));
    nhead = read_some(fileno(f), head, sizeof(head));
    if (!is_stdin && (has_suffix(path, ".yaml") || has_suffix(path, ".yml")))
        yaml = !starts_like_json_object(head, nhead);
    else
        yaml = looks_like_yaml(head, nhead);
    if (!yaml) {
        struct stat st;

        /* a regular file (standard input too) is mapped (mapped_file.h) */
        if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
            lseek(fileno(f), -(off_t)nhead, SEEK_CUR) >= 0) {
            if (!is_stdin)
                fclose(f);
            return kp_snapshot_load_file(s, path, err);
        }
        rc = kp_snapshot_load_fd(s, fileno(f), name, head, nhead, err);
        if (!is_stdin)
            fclose(f);
        return rc;
    }
    buf = read_stream(f, name, head, nhead, &len, err);
    if (!is_stdin)
        fclose(f);
    if (!buf)
        return -1;
    rc = load_yaml(s, buf, len, name, err);
    free(buf);
    return rc;
}

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted (filepath.Walk's lexical order); NULL-ended. */
static char **
sorted_entries(const char *dir, size_t *n, struct kp_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t cap = 0;

    *n = 0;
    if (!d) {
        kp_errorf(err, KP_EXIT_ERROR, "%s: %s", dir, strerror(errno));
        return NULL;
    }
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (*n + 1 >= cap) {
            cap = cap ? cap * 2 : 32;
            names = kp_xrealloc(names, cap * sizeof(*names));
        }
        names[(*n)++] = kp_xstrdup(e->d_name);
    }
    closedir(d);
    if (!names)
        names = kp_xmalloc(sizeof(*names));
    qsort(names, *n, sizeof(*names), cmp_names);
    names[*n] = NULL;
    return names;
}

static void
free_entries(char **names, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

struct walk {
    struct kp_snapshot *s;
    bool recursive;
    size_t nfiles;
};

static int walk_dir(struct walk *w, const char *dir, int depth,
                    struct kp_error *err);

/* One entry of a directory: a subdirectory, a resource file, or neither */
static int
walk_entry(struct walk *w, const char *path, const char *name, int depth,
           struct kp_error *err)
{
    struct stat st;

    if (lstat(path, &st) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: %s", path,
                         strerror(errno));
    if (S_ISDIR(st.st_mode))
        return w->recursive ? walk_dir(w, path, depth + 1, err) : 0;
    if (!resource_file(name))
        return 0;
    /* a link is read as the file it names, never walked into */
    if (S_ISLNK(st.st_mode) && stat(path, &st) < 0)
        return 0;
    /* a FIFO or a device would block or never end: regular files only */
    if (!S_ISREG(st.st_mode))
        return 0;
    w->nfiles++;
    return load_file(w->s, path, err);
}

static int
walk_dir(struct walk *w, const char *dir, int depth, struct kp_error *err)
{
    size_t n, i;
    char **names;
    int rc = 0;

    if (depth > INPUT_MAX_DEPTH)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: more than %d levels of "
                         "directories", dir, INPUT_MAX_DEPTH);
    names = sorted_entries(dir, &n, err);
    if (!names)
        return -1;
    for (i = 0; rc == 0 && i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = kp_xmalloc(len);

        snprintf(path, len, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/",
                 names[i]);
        rc = walk_entry(w, path, names[i], depth, err);
        free(path);
    }
    free_entries(names, n);
    return rc;
}

static bool
exists_in(const char *dir, const char *sub, const char *a, const char *b)
{
    char path[4096];
    struct stat st;

    snprintf(path, sizeof(path), "%s/%s%s%s", dir, sub, sub[0] ? "/" : "",
             a);
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return true;
    snprintf(path, sizeof(path), "%s/%s%s%s", dir, sub, sub[0] ? "/" : "",
             b);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* nodes.json at the top and NAMESPACE/pods.json below: cluster-info dump */
static bool
is_cluster_info_dump(const char *dir)
{
    size_t n, i;
    char **names;
    bool found = false;
    struct kp_error ignored;

    if (!exists_in(dir, "", "nodes.json", "nodes.yaml"))
        return false;
    names = sorted_entries(dir, &n, &ignored);
    for (i = 0; names && i < n && !found; i++)
        found = exists_in(dir, names[i], "pods.json", "pods.yaml");
    if (names)
        free_entries(names, n);
    return found;
}

static int
load_dir(struct kp_snapshot *s, struct kp_input *in, const char *path,
         struct kp_error *err)
{
    struct walk w = {s, in->recursive, 0};
    bool dump = is_cluster_info_dump(path);

    s->merge_duplicates = true;     /* many files (snapshot.h) */
    if (walk_dir(&w, path, 0, err) < 0)
        return -1;
    if (dump && !in->recursive)
        kp_snapshot_warn(s, "%s is a kubectl cluster-info dump: its pods "
                         "are in its namespaces' directories, read with "
                         "-R (--recursive)", path);
    if (dump && !in->dump_dir[0])
        snprintf(in->dump_dir, sizeof(in->dump_dir), "%s", path);
    if (w.nfiles == 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: no .json, .yaml or .yml "
                         "file in this directory%s", path, in->recursive ?
                         " or below" : " (-R reads its subdirectories)");
    return 0;
}

int
kp_input_load(struct kp_snapshot *s, struct kp_input *in, const char *path,
              struct kp_error *err)
{
    struct stat st;

    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
        S_ISDIR(st.st_mode)) {
        if (kp_recording_is_dir(path)) {
            struct kp_recording_query q = {in->at_ms, in->from_ms};

            return kp_recording_load(s, path, &q, err);
        }
        return load_dir(s, in, path, err);
    }
    return load_file(s, path, err);
}

void
kp_input_warn_missing(struct kp_snapshot *s, const struct kp_input *in)
{
    bool no_pdb = s->npdbs == 0, no_pc = s->npcs == 0;

    if (!in->dump_dir[0] || (!no_pdb && !no_pc))
        return;
    kp_snapshot_warn(s, "%s: kubectl cluster-info dump holds no %s%s%s: "
                     "add them as another -f (kubectl get %s -A -o json)",
                     in->dump_dir, no_pdb ? "PodDisruptionBudgets" : "",
                     no_pdb && no_pc ? " or " : "",
                     no_pc ? "PriorityClasses" : "",
                     no_pdb && no_pc ? "pdb,priorityclasses" :
                     no_pdb ? "pdb" : "priorityclasses");
}
