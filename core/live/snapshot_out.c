/*
 * snapshot_out.c - write a live run's lists as one List document.
 *
 * Mirrors what "kubectl get nodes,pods,... -o json" prints: a v1 List
 * whose items carry the kind and apiVersion that the API server leaves
 * out of list items (kubectl's printers set them from the list's type).
 * Items are streamed out one by one as the live lists hand them over; a
 * restarted list is cut off the file (kp_snapshot_out_rollback).  The
 * file is replaced atomically.
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

struct kp_snapshot_out {
    char *path;
    char *tmp;
    FILE *f;
    size_t nitems;
    char *server_version;
};

static const char HEAD[] = "{\"apiVersion\":\"v1\",\"kind\":\"List\","
                           "\"items\":[";

struct kp_snapshot_out *
kp_snapshot_out_open(const char *path, struct kp_error *err)
{
    struct kp_snapshot_out *so = kp_xcalloc(1, sizeof(*so));
    size_t n = strlen(path) + 5;
    int fd;

    so->path = kp_xstrdup(path);
    so->tmp = kp_xmalloc(n);
    snprintf(so->tmp, n, "%s.tmp", path);
    unlink(so->tmp);
    fd = open(so->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
              0600);
    if (fd >= 0 && fchmod(fd, 0600) == 0)
        so->f = fdopen(fd, "w");
    if (!so->f) {
        kp_errorf(err, KP_EXIT_ERROR, "cannot create '%s': %s", so->tmp,
                  strerror(errno));
        if (fd >= 0)
            close(fd);
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
                         so->tmp, strerror(errno));
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
    bad = bad || fputs("}\n", f) < 0 || fflush(f) != 0 ||
          fsync(fileno(f)) != 0;
    if (fclose(f) != 0 || bad)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot write '%s': %s",
                         so->tmp, strerror(errno));
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
    unlink(so->tmp);
    free(so->path);
    free(so->tmp);
    free(so->server_version);
    free(so);
}
