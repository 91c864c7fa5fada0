/*
 * snapshot_out.c - write a live run's lists as one List document.
 *
 * Mirrors what "kubectl get nodes,pods,... -o json" prints: a v1 List
 * whose items carry the kind and apiVersion that the API server leaves
 * out of list items (kubectl's printers set them from the list's type).
 * Items are streamed out page by page; the file is replaced atomically.
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

#include "api_client.h"
#include "arena.h"

struct kp_snapshot_out {
    char *path;
    char *tmp;
    FILE *f;
    size_t nitems;
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

/* The items' kind: the list's kind less "List", else the resource's. */
static int
item_type(const cJSON *page, const char *resource, char *kind, size_t n,
          const char **api_version)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(page, "kind");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(page, "apiVersion");
    const char *rk = NULL;
    size_t len;

    *api_version = NULL;
    kp_live_resource_kind(resource, &rk, api_version);
    if (cJSON_IsString(v) && v->valuestring[0])
        *api_version = v->valuestring;
    len = cJSON_IsString(k) ? strlen(k->valuestring) : 0;
    if (len > 4 && len - 4 < n && !strcmp(k->valuestring + len - 4, "List")) {
        memcpy(kind, k->valuestring, len - 4);
        kind[len - 4] = '\0';
    } else if (rk) {
        snprintf(kind, n, "%s", rk);
    } else {
        return -1;
    }
    return *api_version ? 0 : -1;
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
kp_snapshot_out_add_page(struct kp_snapshot_out *so, const char *resource,
                         const char *body, size_t len, struct kp_error *err)
{
    cJSON *page = cJSON_ParseWithLength(body, len);
    cJSON *items = cJSON_GetObjectItemCaseSensitive(page, "items");
    cJSON *item;
    const char *api_version;
    char kind[128];
    int r = 0;

    if (!cJSON_IsObject(page) ||
        item_type(page, resource, kind, sizeof(kind), &api_version) < 0) {
        cJSON_Delete(page);
        return kp_errorf(err, KP_EXIT_ERROR, "snapshot: the %s page is not "
                         "a List", resource);
    }
    cJSON_ArrayForEach(item, items) {
        if (cJSON_IsObject(item) && write_item(so, item, kind,
                                               api_version) < 0) {
            r = kp_errorf(err, KP_EXIT_ERROR, "cannot write '%s': %s",
                          so->tmp, strerror(errno));
            break;
        }
    }
    cJSON_Delete(page);
    return r;
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
    bad = fputs(so->nitems ? "\n]}\n" : "]}\n", f) < 0 || fflush(f) != 0 ||
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
    free(so);
    return 0;
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
    free(so);
}
