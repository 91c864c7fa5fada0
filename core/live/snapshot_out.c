/*
 * snapshot_out.c - write a live run's lists as one List document.
 *
 * Mirrors what "kubectl get nodes,pods,... -o json" prints: a v1 List
 * whose items carry the kind and apiVersion that the API server leaves
 * out of list items (kubectl's printers set them from the list's type).
 * Items are streamed out one by one as the live lists hand them over; a
 * restarted list is cut off the file (kp_snapshot_out_rollback).  A
 * regular file is replaced atomically (a temporary file of its own beside
 * it, fsync, rename); anything else is written through, never replaced.
 */
#include "snapshot_out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "snapshot.h"
#include "snapshot_load.h"

struct kp_snapshot_out {
    char *path;                 /* the file named, or the regular file a
                                 * symbolic link names */
    char *tmp;                  /* mkstemp's file beside it, or NULL when
                                 * writing through (not a regular file) */
    FILE *f;
    size_t nitems;
    char *server_version;
};

static const char HEAD[] = "{\"apiVersion\":\"v1\",\"kind\":\"List\","
                           "\"items\":[";

/* The file being written: the temporary file, or the target itself. */
static const char *
out_name(const struct kp_snapshot_out *so)
{
    return so->tmp ? so->tmp : so->path;
}

/*
 * A target that exists and is no regular file (a character device such
 * as /dev/null or /dev/full, a FIFO, /dev/stdout's symbolic link to a
 * pipe or a terminal) is written through: opened for writing without
 * O_CREAT or O_TRUNC, never replaced.  A directory is refused.
 */
static int
open_through(struct kp_snapshot_out *so, struct kp_error *err)
{
    int fd = open(so->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

    if (fd >= 0)
        so->f = fdopen(fd, "w");
    if (!so->f) {
        kp_errorf(err, KP_EXIT_ERROR, "cannot open '%s': %s", so->path,
                  strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return 0;
}

/*
 * A regular file, or none yet: a temporary file of an unpredictable name
 * in the same directory (mkstemp: O_EXCL, mode 0600), renamed over the
 * target when complete.  A file the user has at PATH.tmp is not touched.
 */
static int
open_temporary(struct kp_snapshot_out *so, struct kp_error *err)
{
    const char *slash = strrchr(so->path, '/');
    size_t dir = slash ? (size_t)(slash - so->path + 1) : 0;
    size_t n = strlen(so->path) + 16;
    int fd;

    so->tmp = kp_xmalloc(n);
    snprintf(so->tmp, n, "%.*s.%s.XXXXXX", (int)dir, so->path,
             so->path + dir);
    fd = mkostemp(so->tmp, O_CLOEXEC);
    if (fd >= 0 && fchmod(fd, 0600) == 0)
        so->f = fdopen(fd, "w");
    if (!so->f) {
        kp_errorf(err, KP_EXIT_ERROR, "cannot create a temporary file "
                  "beside '%s': %s", so->path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(so->tmp);
        }
        free(so->tmp);
        so->tmp = NULL;
        return -1;
    }
    return 0;
}

struct kp_snapshot_out *
kp_snapshot_out_open(const char *path, struct kp_error *err)
{
    struct kp_snapshot_out *so = kp_xcalloc(1, sizeof(*so));
    struct stat st, lst;
    char *real;
    int rc;

    so->path = kp_xstrdup(path);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        kp_errorf(err, KP_EXIT_ERROR, "cannot write '%s': %s", path,
                  strerror(EISDIR));
        rc = -1;
    } else if (stat(path, &st) == 0 && (!S_ISREG(st.st_mode) ||
               strncmp(path, "/dev/", 5) == 0 ||
               strncmp(path, "/proc/", 6) == 0)) {
        /* /dev/stdout, /dev/fd/N, /proc/self/fd/N: whatever they lead
         * to is another's open file, never to be replaced */
        rc = open_through(so, err);
    } else {
        /* a symbolic link to a regular file: that file is replaced,
         * the link kept */
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
            (real = realpath(path, NULL)) != NULL) {
            free(so->path);
            so->path = kp_xstrdup(real);
            free(real);
        }
        rc = open_temporary(so, err);
    }
    if (rc < 0) {
        kp_snapshot_out_abort(so);
        return NULL;
    }
    fputs(HEAD, so->f);
    return so;
}

/* Insert key: value at the front of obj (kubectl prints them first). */
static void
prepend_string(cJSON *obj, const char *key, const char *value)
{
    cJSON *tmp = cJSON_CreateObject();
    cJSON *item;

    cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
    cJSON_AddStringToObject(tmp, key, value);
    item = cJSON_DetachItemFromObjectCaseSensitive(tmp, key);
    cJSON_InsertItemInArray(obj, 0, item);
    cJSON_Delete(tmp);
}

static int
write_item(struct kp_snapshot_out *so, cJSON *item, const char *kind,
           const char *api_version)
{
    char *txt;
    int r;

    prepend_string(item, "kind", kind);
    prepend_string(item, "apiVersion", api_version);
    txt = cJSON_PrintUnformatted(item);
    if (!txt)
        return -1;
    r = fprintf(so->f, "%s\n%s", so->nitems ? "," : "", txt) < 0 ? -1 : 0;
    cJSON_free(txt);
    so->nitems++;
    return r;
}

int
kp_snapshot_out_add_item(struct kp_snapshot_out *so, cJSON *item,
                         const char *kind, const char *api_version,
                         struct kp_error *err)
{
    if (!cJSON_IsObject(item))
        return 0;
    if (write_item(so, item, kind, api_version) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot write '%s': %s",
                         out_name(so), strerror(errno));
    return 0;
}

void
kp_snapshot_out_mark(struct kp_snapshot_out *so,
                     struct kp_snapshot_out_mark *m)
{
    m->offset = ftell(so->f);
    m->nitems = so->nitems;
}

int
kp_snapshot_out_rollback(struct kp_snapshot_out *so,
                         const struct kp_snapshot_out_mark *m,
                         struct kp_error *err)
{
    if (!so->tmp)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot restart a list in "
                         "'%s': not a regular file, and what was written "
                         "cannot be taken back", so->path);
    if (fflush(so->f) != 0 || m->offset < 0 ||
        ftruncate(fileno(so->f), (off_t)m->offset) != 0 ||
        fseek(so->f, m->offset, SEEK_SET) != 0)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot write '%s': %s",
                         so->tmp, strerror(errno));
    so->nitems = m->nitems;
    return 0;
}

/* fsync the directory holding path, so that the rename is durable. */
static void
sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    int fd;

    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else
        snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path + 1), path);
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

static int
finish(struct kp_snapshot_out *so, struct kp_error *err)
{
    FILE *f = so->f;
    int bad;

    so->f = NULL;
    bad = fputs(so->nitems ? "\n]" : "]", f) < 0;
    if (!bad && so->server_version) {
        cJSON *md = cJSON_CreateObject();
        cJSON *ann = cJSON_AddObjectToObject(md, "annotations");
        char *txt;

        cJSON_AddStringToObject(ann, KP_SERVER_VERSION_ANNOTATION,
                                so->server_version);
        txt = cJSON_PrintUnformatted(md);
        bad = !txt || fprintf(f, ",\"metadata\":%s", txt) < 0;
        cJSON_free(txt);
        cJSON_Delete(md);
    }
    bad = bad || fputs("}\n", f) < 0 || fflush(f) != 0;
    /* fsync before the rename; a device or a pipe may not sync */
    if (!bad && fsync(fileno(f)) != 0 &&
        (so->tmp || (errno != EINVAL && errno != EROFS)))
        bad = 1;
    if (bad) {
        int e = errno;

        fclose(f);
        return kp_errorf(err, KP_EXIT_ERROR, "cannot write '%s': %s",
                         out_name(so), strerror(e));
    }
    if (fclose(f) != 0)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot write '%s': %s",
                         out_name(so), strerror(errno));
    if (!so->tmp)
        return 0;
    if (rename(so->tmp, so->path) != 0)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot rename '%s' to '%s': "
                         "%s", so->tmp, so->path, strerror(errno));
    sync_dir(so->path);
    return 0;
}

int
kp_snapshot_out_close(struct kp_snapshot_out *so, struct kp_error *err)
{
    int r = finish(so, err);

    if (r < 0) {
        kp_snapshot_out_abort(so);
        return -1;
    }
    free(so->path);
    free(so->tmp);
    free(so->server_version);
    free(so);
    return 0;
}

void
kp_snapshot_out_set_server_version(struct kp_snapshot_out *so,
                                   const char *version)
{
    free(so->server_version);
    so->server_version = kp_xstrdup(version);
}

void
kp_snapshot_out_abort(struct kp_snapshot_out *so)
{
    if (!so)
        return;
    if (so->f)
        fclose(so->f);
    if (so->tmp)
        unlink(so->tmp);
    free(so->path);
    free(so->tmp);
    free(so->server_version);
    free(so);
}
