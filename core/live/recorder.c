/*
 * recorder.c - see recorder.h.  List every resource the analysis reads
 * (api_client.c's kp_live_fetch, into a snapshot file written as
 * --snapshot-out writes one), then watch them from the lists'
 * resourceVersions (kp_live_watch) and append each change to the epoch's
 * changes file, as client-go's reflector lists and watches.
 *
 * What survives a crash or a full disk: a snapshot appears only once it
 * is complete (snapshot_out.c: temporary file, fsync, rename); a changes
 * line is written with one write() and the file is fsync'd at every
 * tick that wrote something (every 200 ms at most); a write that fails
 * (ENOSPC, EFBIG) is cut off again (ftruncate to the last whole line),
 * so the file always ends with a whole line, and the reader
 * (recording.c) also ignores a last line without its newline, which is
 * all a kill -9 in the middle of a write can leave.
 */
#include "recorder.h"

#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "api_client.h"
#include "buf.h"
#include "hash.h"
#include "term_escape.h"
#include "arena.h"
#include "live.h"
#include "recording.h"
#include "snapshot_out.h"

static volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* What is recorded: the lists of a live run, and events. */
static const char *const recorded[] = {
    "nodes", "pods", "poddisruptionbudgets", "priorityclasses",
    "namespaces", "persistentvolumes", "storageclasses", "csinodes",
    "persistentvolumeclaims", "services", "replicationcontrollers",
    "replicasets", "statefulsets", "events", NULL};
#define NRECORDED (sizeof(recorded) / sizeof(recorded[0]) - 1)

static const char *const optional[] = {
    "namespaces", "persistentvolumes", "storageclasses", "csinodes",
    "persistentvolumeclaims", "services", "replicationcontrollers",
    "replicasets", "statefulsets", "events", NULL};

struct recorder {
    const struct kp_options *o;
    struct kp_live_opts lo;
    char *dir;
    long long interval_ms, max_disk, max_age_ms;
    /* the current epoch */
    char stamp[40];             /* its snapshot's time, as in file names */
    long long started_ms;
    int jfd;                    /* its changes file */
    long long jlen;             /* bytes of whole lines in it */
    int dirty;                  /* written since the last fsync */
    int full;                   /* a write failed: wait for room */
    long long full_since_ms;
    char *rvs[NRECORDED];
    /* the snapshot being listed */
    struct kp_snapshot_out *so;
    struct kp_snapshot_out_mark mark;
    const char *kind, *api_version;
    unsigned long long nevents, nskipped;
    unsigned long long warned[64];  /* hashes of the warnings printed */
    size_t nwarned;
};

static long long
wall_ms(void)
{
    return kp_recording_now_ms();
}

static void
warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A warning line; what the server said in it is escaped for the terminal */
static void
warnf(const char *fmt, ...)
{
    struct kp_buf b;
    char msg[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    kp_buf_init(&b);
    kp_buf_puts(&b, "warning: ");
    kp_term_escape(&b, msg, strlen(msg), KP_TERM_KEEP_LINES);
    kp_buf_add(&b, "\n", 1);
    fwrite(b.data, 1, b.len, stderr);
    kp_buf_release(&b);
}

/*
 * A warning once per recorder: every relist would otherwise repeat the
 * same kubeconfig or server warnings, every --snapshot-interval.
 */
static void
on_warn(void *ctx, const char *msg)
{
    struct recorder *rc = ctx;
    unsigned long long h = kp_hash_bytes(KP_HASH_SEED, msg, strlen(msg));
    size_t i;

    for (i = 0; i < rc->nwarned; i++)
        if (rc->warned[i] == h)
            return;
    if (rc->nwarned < sizeof(rc->warned) / sizeof(rc->warned[0]))
        rc->warned[rc->nwarned++] = h;
    warnf("%s", msg);
}

static void
on_refused(void *ctx, const char *resource, const char *msg)
{
    (void)ctx;
    warnf("%s (%s): not recorded", msg, resource);
}

/* ---- the snapshot ------------------------------------------------------ */

static int
snap_begin(void *ctx, const char *resource, struct kp_error *err)
{
    struct recorder *rc = ctx;

    if (kp_live_resource_kind(resource, &rc->kind, &rc->api_version) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "unknown resource '%s'",
                         resource);
    kp_snapshot_out_mark(rc->so, &rc->mark);
    return 0;
}

static int
snap_item(void *ctx, const char *resource, const char *text, size_t len,
          long index, struct kp_error *err)
{
    struct recorder *rc = ctx;
    cJSON *obj = cJSON_ParseWithLength(text, len);
    int r = 0;

    (void)index;
    if (!obj)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot parse an item of %s",
                         resource);
    if (strcmp(resource, "events") != 0 || kp_recorded_event(obj))
        r = kp_snapshot_out_add_item(rc->so, obj, rc->kind, rc->api_version,
                                     err);
    cJSON_Delete(obj);
    return r;
}

static int
snap_restart(void *ctx, const char *resource, struct kp_error *err)
{
    struct recorder *rc = ctx;

    (void)resource;
    return kp_snapshot_out_rollback(rc->so, &rc->mark, err);
}

static void
snap_version(void *ctx, const char *resource, const char *rv)
{
    struct recorder *rc = ctx;
    size_t i;

    for (i = 0; i < NRECORDED; i++)
        if (strcmp(recorded[i], resource) == 0) {
            free(rc->rvs[i]);
            rc->rvs[i] = rv ? kp_xstrdup(rv) : NULL;
        }
}

static char *
path_in(const char *dir, const char *prefix, const char *stamp,
        const char *suffix)
{
    size_t n = strlen(dir) + strlen(prefix) + strlen(stamp) +
               strlen(suffix) + 2;
    char *p = kp_xmalloc(n);

    snprintf(p, n, "%s/%s%s%s", dir, prefix, stamp, suffix);
    return p;
}

/* List everything into a new snapshot file: a new epoch's start. */
static int
take_snapshot(struct recorder *rc, struct kp_error *err)
{
    struct kp_list_sink sink = {rc, snap_begin, snap_item, NULL,
                                snap_restart, snap_version};
    long long now = wall_ms();
    char stamp[40];
    char *path;
    int r;

    kp_recording_stamp(now, stamp, sizeof(stamp));
    path = path_in(rc->dir, "snapshot-", stamp, ".json");
    rc->so = kp_snapshot_out_open(path, err);
    free(path);
    if (!rc->so)
        return -1;
    r = kp_live_fetch(&rc->lo, recorded, &sink, err);
    if (r < 0) {
        kp_snapshot_out_abort(rc->so);
        rc->so = NULL;
        return -1;
    }
    r = kp_snapshot_out_close(rc->so, err);
    rc->so = NULL;
    if (r < 0)
        return -1;
    memcpy(rc->stamp, stamp, sizeof(stamp));
    rc->started_ms = now;
    return 0;
}

/* ---- the changes file --------------------------------------------------- */

static int
open_changes(struct recorder *rc, struct kp_error *err)
{
    char *path = path_in(rc->dir, "changes-", rc->stamp, ".jsonl");

    rc->jfd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
                   O_CLOEXEC, 0600);
    if (rc->jfd < 0) {
        kp_errorf(err, KP_EXIT_ERROR, "cannot create '%s': %s", path,
                  strerror(errno));
        free(path);
        return -1;
    }
    free(path);
    rc->jlen = lseek(rc->jfd, 0, SEEK_END);
    rc->dirty = rc->full = 0;
    return 0;
}

static void
close_changes(struct recorder *rc)
{
    if (rc->jfd < 0)
        return;
    fsync(rc->jfd);
    close(rc->jfd);
    rc->jfd = -1;
}

/* One line, whole or not at all (a short write is cut off again). */
static int
append_line(struct recorder *rc, const char *line, size_t n)
{
    size_t done = 0;

    while (done < n) {
        ssize_t w = write(rc->jfd, line + done, n - done);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : ENOSPC;

            if (ftruncate(rc->jfd, rc->jlen) < 0)
                e = errno;
            errno = e;
            return -1;
        }
        done += (size_t)w;
    }
    rc->jlen += (long long)n;
    rc->dirty = 1;
    return 0;
}

static void prune(struct recorder *rc);

static int
on_event(void *ctx, const char *resource, const char *kind,
         const char *api_version, const char *type, const char *text,
         size_t len, struct kp_error *err)
{
    struct recorder *rc = ctx;
    cJSON *obj = cJSON_ParseWithLength(text, len);
    cJSON *line;
    char stamp[40], *s;
    int r = 0;

    (void)err;
    (void)resource;
    if (!obj)
        return 0;
    if (strcmp(kind, "Event") == 0 && !kp_recorded_event(obj)) {
        cJSON_Delete(obj);
        return 0;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(obj, "kind");
    cJSON_DeleteItemFromObjectCaseSensitive(obj, "apiVersion");
    cJSON_AddStringToObject(obj, "apiVersion", api_version);
    cJSON_AddStringToObject(obj, "kind", kind);
    kp_recording_time(wall_ms(), stamp, sizeof(stamp));
    line = cJSON_CreateObject();
    cJSON_AddStringToObject(line, "time", stamp);
    cJSON_AddStringToObject(line, "type", type);
    cJSON_AddItemToObject(line, "object", obj);
    s = cJSON_PrintUnformatted(line);
    cJSON_Delete(line);
    if (!s)
        return 0;
    len = strlen(s);
    s[len] = '\n';      /* cJSON's buffer has room for its NUL: reuse it */
    if (rc->full) {
        rc->nskipped++;
    } else if (append_line(rc, s, len + 1) < 0) {
        warnf("cannot write the changes file in '%s': %s; making room and "
              "listing again", rc->dir, strerror(errno));
        rc->full = 1;
        rc->full_since_ms = wall_ms();
        rc->nskipped++;
        prune(rc);
    } else {
        rc->nevents++;
    }
    free(s);
    return r;
}

/* ---- the ring ----------------------------------------------------------- */

static long long
file_size(const char *dir, const char *prefix, const char *stamp,
          const char *suffix)
{
    char *p = path_in(dir, prefix, stamp, suffix);
    struct stat st;
    long long n = stat(p, &st) == 0 ? (long long)st.st_size : 0;

    free(p);
    return n;
}

static void
remove_epoch(const struct recorder *rc, const char *stamp)
{
    char *p = path_in(rc->dir, "snapshot-", stamp, ".json");

    /* the snapshot first: a changes file alone is never read */
    unlink(p);
    free(p);
    p = path_in(rc->dir, "changes-", stamp, ".jsonl");
    unlink(p);
    free(p);
}

/*
 * Drop the oldest epochs while the recording is over --max-disk, and
 * those that ended (the next one started) before now - --max-age; the
 * current epoch always stays.
 */
static void
prune(struct recorder *rc)
{
    struct kp_recording_epoch *e = NULL;
    struct kp_error err;
    long long *bytes, total = 0, now = wall_ms();
    size_t n = 0, i;

    if (kp_recording_epochs(rc->dir, &e, &n, &err) < 0 || n == 0) {
        free(e);
        return;
    }
    bytes = kp_xcalloc(n, sizeof(*bytes));
    for (i = 0; i < n; i++) {
        bytes[i] = file_size(rc->dir, "snapshot-", e[i].stamp, ".json") +
                   file_size(rc->dir, "changes-", e[i].stamp, ".jsonl");
        total += bytes[i];
    }
    for (i = 0; i + 1 < n && strcmp(e[i].stamp, rc->stamp) != 0; i++)
        if (total > rc->max_disk ||
            (rc->max_age_ms > 0 && e[i + 1].ms < now - rc->max_age_ms)) {
            remove_epoch(rc, e[i].stamp);
            total -= bytes[i];
        }
    free(bytes);
    free(e);
}

/* ---- the loop ----------------------------------------------------------- */

static int
on_tick(void *ctx, struct kp_error *err)
{
    struct recorder *rc = ctx;
    long long now = wall_ms();

    (void)err;
    if (rc->dirty) {
        fsync(rc->jfd);
        rc->dirty = 0;
    }
    if (stop_requested)
        return 1;
    if (now - rc->started_ms >= rc->interval_ms)
        return 1;
    if (rc->jlen > rc->max_disk / 2)
        return 1;       /* a long epoch: start a new one, drop old ones */
    if (rc->full && now - rc->full_since_ms >= 1000)
        return 1;       /* list again once prune made room */
    return 0;
}

static int
write_marker(const char *dir, struct kp_error *err)
{
    char *p = path_in(dir, "", KP_RECORDING_MARKER_FILE, "");
    char *tmp = path_in(dir, ".", KP_RECORDING_MARKER_FILE, ".XXXXXX");
    static const char text[] =
        "{\"apiVersion\":\"kubectl-preempt/v1\",\"kind\":\"Recording\"}\n";
    int fd = mkstemp(tmp), r = 0;

    if (fd < 0 || write(fd, text, sizeof(text) - 1) !=
                      (ssize_t)(sizeof(text) - 1) ||
        fsync(fd) < 0 || rename(tmp, p) < 0)
        r = kp_errorf(err, KP_EXIT_ERROR, "cannot write '%s': %s", p,
                      strerror(errno));
    if (fd >= 0)
        close(fd);
    if (r < 0)
        unlink(tmp);
    free(p);
    free(tmp);
    return r;
}

/* Sleep ms, or less if a signal asks to stop. */
static void
nap(long long ms)
{
    while (ms > 0 && !stop_requested) {
        struct timespec ts = {0, 100L * 1000000L};

        nanosleep(&ts, NULL);
        ms -= 100;
    }
}

int
kp_record(const struct kp_options *o, struct kp_error *err)
{
    struct recorder rc;
    struct kp_watch_sink ws;
    struct sigaction sa;
    struct stat st;
    long long backoff = 0;
    int r = 0;
    size_t i;

    memset(&rc, 0, sizeof(rc));
    rc.o = o;
    rc.jfd = -1;
    rc.dir = kp_xstrdup(o->record_dir);
    rc.interval_ms = o->record_interval_ms > 0 ? o->record_interval_ms
                     : KP_RECORD_DEFAULT_INTERVAL_MS;
    rc.max_disk = o->record_max_disk > 0 ? o->record_max_disk
                  : KP_RECORD_DEFAULT_MAX_DISK;
    rc.max_age_ms = o->record_max_age_ms > 0 ? o->record_max_age_ms
                    : KP_RECORD_DEFAULT_MAX_AGE_MS;
    kp_live_opts_from_options(o, &rc.lo);
    rc.lo.warn = on_warn;
    rc.lo.warn_ctx = &rc;
    rc.lo.optional = optional;
    rc.lo.refused = on_refused;
    if (mkdir(rc.dir, 0700) < 0 && errno != EEXIST) {
        r = kp_errorf(err, KP_EXIT_ERROR, "cannot create '%s': %s", rc.dir,
                      strerror(errno));
        goto out;
    }
    if (stat(rc.dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        r = kp_errorf(err, KP_EXIT_ERROR, "'%s' is not a directory",
                      rc.dir);
        goto out;
    }
    if (write_marker(rc.dir, err) < 0) {
        r = -1;
        goto out;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* past a file size limit a write fails (EFBIG) instead of killing */
    signal(SIGXFSZ, SIG_IGN);
    memset(&ws, 0, sizeof(ws));
    ws.ctx = &rc;
    ws.event = on_event;
    ws.tick = on_tick;
    while (!stop_requested) {
        struct kp_error e = {0, ""};
        int w;

        if (take_snapshot(&rc, &e) < 0) {
            /* the first list must work: a typo should not wait forever */
            if (!rc.stamp[0]) {
                *err = e;
                r = -1;
                break;
            }
            backoff = backoff ? backoff * 2 : 1000;
            if (backoff > 60000)
                backoff = 60000;
            warnf("%s; listing again in %llds", e.msg, backoff / 1000);
            prune(&rc);
            nap(backoff);
            continue;
        }
        backoff = 0;
        prune(&rc);
        if (open_changes(&rc, err) < 0) {
            r = -1;
            break;
        }
        if (o->verbose > 0)
            fprintf(stderr, "recording: snapshot-%s.json, watching\n",
                    rc.stamp);
        w = kp_live_watch(&rc.lo, recorded, rc.rvs, &ws, &e);
        close_changes(&rc);
        if (w < 0) {
            warnf("%s; listing again", e.msg);
            nap(1000);
        }
    }
out:
    close_changes(&rc);
    if (r == 0 && o->verbose > 0)
        fprintf(stderr, "recording stopped: %llu changes written, %llu "
                "lost to a full disk\n", rc.nevents, rc.nskipped);
    for (i = 0; i < NRECORDED; i++)
        free(rc.rvs[i]);
    free(rc.dir);
    return r;
}
