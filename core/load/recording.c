/*
 * recording.c - see recording.h.  The moment is rebuilt as client-go's
 * informers would have seen it: a snapshot (a List as of its lists'
 * resourceVersions) and then the watch events recorded after it, each
 * replacing (ADDED, MODIFIED) or removing (DELETED) the object of its
 * kind, namespace and name, in the order they were recorded.
 */
#include "recording.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "arena.h"
#include "json_util.h"
#include "read_file.h"
#include "snapshot_load.h"
#include "strmap.h"

/* A changes line is one object: the loader's limit, and some room. */
#define MAX_LINE ((size_t)KP_MAX_LINE_BYTES)
#define KP_MAX_LINE_BYTES (9u << 20)

void
kp_recording_stamp(long long ms, char *buf, size_t n)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;

    gmtime_r(&t, &tm);
    snprintf(buf, n, "%04d%02d%02dT%02d%02d%02d.%03dZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
             (int)(ms % 1000));
}

void
kp_recording_time(long long ms, char *buf, size_t n)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;

    gmtime_r(&t, &tm);
    snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
             tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

static int
valid_tm(const struct tm *tm)
{
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                                31};

    return tm->tm_mon >= 0 && tm->tm_mon < 12 && tm->tm_mday >= 1 &&
           tm->tm_mday <= mdays[tm->tm_mon] && tm->tm_hour >= 0 &&
           tm->tm_hour < 24 && tm->tm_min >= 0 && tm->tm_min < 60 &&
           tm->tm_sec >= 0 && tm->tm_sec < 61 && tm->tm_year >= 0;
}

int
kp_recording_parse_stamp(const char *stamp, long long *ms)
{
    struct tm tm;
    int frac, used = 0;

    memset(&tm, 0, sizeof(tm));
    if (sscanf(stamp, "%4d%2d%2dT%2d%2d%2d.%3dZ%n", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &frac,
               &used) != 7 || used != 20 || stamp[used])
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    if (!valid_tm(&tm) || frac < 0)
        return -1;
    *ms = (long long)timegm(&tm) * 1000 + frac;
    return 0;
}

/* RFC 3339: date T time, optional fraction, Z or +hh:mm / -hh:mm. */
int
kp_parse_time(const char *flag, const char *text, long long *ms,
              struct kp_error *err)
{
    struct tm tm;
    const char *p;
    long long frac_ms = 0, off = 0;
    int used = 0;

    memset(&tm, 0, sizeof(tm));
    if (sscanf(text, "%4d-%2d-%2d%*[Tt]%2d:%2d:%2d%n", &tm.tm_year,
               &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
               &tm.tm_sec, &used) != 6 || used != 19)
        goto bad;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    if (!valid_tm(&tm))
        goto bad;
    p = text + used;
    if (*p == '.') {
        long long scale = 100;

        if (p[1] < '0' || p[1] > '9')
            goto bad;
        for (p++; *p >= '0' && *p <= '9'; p++) {
            frac_ms += (*p - '0') * scale;
            scale /= 10;
        }
    }
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if ((*p == '+' || *p == '-') && p[1] >= '0' && p[1] <= '9' &&
               p[2] >= '0' && p[2] <= '9' && p[3] == ':' && p[4] >= '0' &&
               p[4] <= '9' && p[5] >= '0' && p[5] <= '9') {
        off = ((p[1] - '0') * 10 + (p[2] - '0')) * 60 +
              (p[4] - '0') * 10 + (p[5] - '0');
        if (*p == '-')
            off = -off;
        p += 6;
    } else {
        goto bad;
    }
    if (*p)
        goto bad;
    *ms = (long long)timegm(&tm) * 1000 + frac_ms - off * 60000;
    return 0;
bad:
    return kp_errorf(err, KP_EXIT_USAGE, "invalid value '%s' for --%s: "
                     "expected a time such as 2026-11-27T03:00:00Z "
                     "(RFC 3339)", text, flag);
}

/* Go's time.ParseDuration, without a sign and below the microsecond. */
int
kp_parse_duration(const char *flag, const char *text, long long *ms,
                  struct kp_error *err)
{
    const char *p = text;
    double total = 0;

    if (!*p)
        goto bad;
    while (*p) {
        char *end;
        double v;
        double unit;

        errno = 0;
        if (*p < '0' || *p > '9')
            goto bad;
        v = strtod(p, &end);
        if (errno || end == p)
            goto bad;
        p = end;
        if (strncmp(p, "ms", 2) == 0) {
            unit = 1;
            p += 2;
        } else if (*p == 'h') {
            unit = 3600000;
            p++;
        } else if (*p == 'm') {
            unit = 60000;
            p++;
        } else if (*p == 's') {
            unit = 1000;
            p++;
        } else {
            goto bad;
        }
        total += v * unit;
        if (total > 1e15)
            goto bad;
    }
    *ms = (long long)total;
    return 0;
bad:
    return kp_errorf(err, KP_EXIT_USAGE, "invalid value '%s' for --%s: "
                     "expected a duration such as 90m, 1h30m or 24h", text,
                     flag);
}

long long
kp_recording_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool
kp_recording_is_dir(const char *dir)
{
    char path[4096];
    struct stat st;

    if (snprintf(path, sizeof(path), "%s/%s", dir,
                 KP_RECORDING_MARKER_FILE) >= (int)sizeof(path))
        return false;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Events worth keeping: what explain reads and what tells a scheduling
 * or disruption story (the scheduler's Preempted and FailedScheduling,
 * evictions, the taint manager's and the disruption controller's);
 * the rest of a cluster's events (image pulls, probes) would fill the
 * disk with nothing explain reads.
 */
bool
kp_recorded_event(const cJSON *ev)
{
    static const char *const reasons[] = {
        "Preempted", "FailedScheduling", "Scheduled", "Evicted",
        "TaintManagerEviction", "NodeNotReady", "CalculateExpectedPodCountFailed",
        "NoControllers", "NoPods", "DisruptionBlocked", NULL};
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(ev, "reason");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(ev, "message");
    size_t i;

    if (!m)
        m = cJSON_GetObjectItemCaseSensitive(ev, "note");
    if (cJSON_IsString(r))
        for (i = 0; reasons[i]; i++)
            if (strcmp(r->valuestring, reasons[i]) == 0)
                return true;
    return cJSON_IsString(m) && (strcasestr(m->valuestring, "preempt") ||
                                 strcasestr(m->valuestring, "disruption") ||
                                 strcasestr(m->valuestring, "evict"));
}

/* ---- the state at a moment ---------------------------------------------- */

/* One object of the state, in the order objects first appeared. */
struct entry {
    char *key;
    cJSON *obj;                 /* NULL: deleted */
};

struct state {
    struct entry *e;
    size_t n, cap;
    struct kp_strmap index;     /* key -> entry index + 1 */
    struct kp_strmap restored;  /* key -> cJSON (deleted in the window) */
    char **rkeys;               /* its keys, in the order first seen */
    size_t nrkeys, caprkeys;
    struct kp_arena keys;
    size_t ncut, nbad;          /* cut last lines, unreadable lines */
};

static int
cmp_epoch(const void *a, const void *b)
{
    return strcmp(((const struct kp_recording_epoch *)a)->stamp,
                  ((const struct kp_recording_epoch *)b)->stamp);
}

int
kp_recording_epochs(const char *dir, struct kp_recording_epoch **out,
                    size_t *nout, struct kp_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    struct kp_recording_epoch *e = NULL;
    size_t n = 0, cap = 0;

    if (!d)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: cannot read the "
                         "recording: %s", dir, strerror(errno));
    while ((de = readdir(d)) != NULL) {
        const char *nm = de->d_name;
        size_t len = strlen(nm);

        if (strncmp(nm, "snapshot-", 9) != 0 || len < 15 || len - 14 >= 40 ||
            strcmp(nm + len - 5, ".json") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            e = kp_xrealloc(e, cap * sizeof(*e));
        }
        memcpy(e[n].stamp, nm + 9, len - 14);
        e[n].stamp[len - 14] = '\0';
        if (kp_recording_parse_stamp(e[n].stamp, &e[n].ms) == 0)
            n++;
    }
    closedir(d);
    if (n)
        qsort(e, n, sizeof(*e), cmp_epoch);
    *out = e;
    *nout = n;
    return 0;
}

/* kind/namespace/name of an object, or NULL when it has no name. */
static char *
object_key(struct kp_arena *a, const cJSON *obj)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(obj, "kind");
    const cJSON *md = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(md, "namespace");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(md, "name");
    char buf[1024];

    if (!cJSON_IsString(kind) || !cJSON_IsString(name))
        return NULL;
    snprintf(buf, sizeof(buf), "%s/%s/%s", kind->valuestring,
             cJSON_IsString(ns) ? ns->valuestring : "", name->valuestring);
    return kp_arena_strdup(a, buf);
}

static void
state_put(struct state *st, cJSON *obj)
{
    char *key = object_key(&st->keys, obj);
    size_t i;

    if (!key) {
        cJSON_Delete(obj);
        return;
    }
    i = (size_t)(uintptr_t)kp_strmap_get(&st->index, key);
    if (i) {
        cJSON_Delete(st->e[i - 1].obj);
        st->e[i - 1].obj = obj;
        return;
    }
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 1024;
        st->e = kp_xrealloc(st->e, st->cap * sizeof(*st->e));
    }
    st->e[st->n].key = key;
    st->e[st->n].obj = obj;
    st->n++;
    kp_strmap_put(&st->index, key, (void *)(uintptr_t)st->n);
}

static void
state_delete(struct state *st, const cJSON *obj)
{
    char *key = object_key(&st->keys, obj);
    size_t i = key ? (size_t)(uintptr_t)kp_strmap_get(&st->index, key) : 0;

    if (i) {
        cJSON_Delete(st->e[i - 1].obj);
        st->e[i - 1].obj = NULL;
    }
}

/* A pod or event of the window, kept as last seen. */
static void
restore(struct state *st, const cJSON *obj)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(obj, "kind");
    char *key;
    cJSON *old;

    if (!cJSON_IsString(kind) || (strcmp(kind->valuestring, "Pod") != 0 &&
                                  strcmp(kind->valuestring, "Event") != 0))
        return;
    key = object_key(&st->keys, obj);
    if (!key)
        return;
    old = kp_strmap_put(&st->restored, key,
                        cJSON_Duplicate(obj, 1));
    if (old) {
        cJSON_Delete(old);
        return;
    }
    if (st->nrkeys == st->caprkeys) {
        st->caprkeys = st->caprkeys ? st->caprkeys * 2 : 64;
        st->rkeys = kp_xrealloc(st->rkeys, st->caprkeys * sizeof(char *));
    }
    st->rkeys[st->nrkeys++] = key;
}

/*
 * Apply (apply != 0) the changes of one epoch recorded up to at_ms, and
 * keep (from_ms > 0) the pods and events deleted, and events seen, from
 * from_ms on.  A last line without its newline is a write a crash cut.
 */
static int
read_changes(struct state *st, const char *dir, const char *stamp,
             int apply, long long from_ms, long long at_ms,
             struct kp_error *err)
{
    char path[4096];
    FILE *f;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;

    snprintf(path, sizeof(path), "%s/changes-%s.jsonl", dir, stamp);
    f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? 0 : kp_errorf(err, KP_EXIT_ERROR,
                                               "cannot open '%s': %s", path,
                                               strerror(errno));
    while ((len = getline(&line, &cap, f)) > 0) {
        cJSON *ln, *obj;
        const cJSON *t, *type;
        long long ms;
        struct kp_error e;

        if (line[len - 1] != '\n') {
            st->ncut++;
            break;
        }
        if ((size_t)len > MAX_LINE) {
            st->nbad++;
            continue;
        }
        ln = cJSON_ParseWithLength(line, (size_t)len);
        t = cJSON_GetObjectItemCaseSensitive(ln, "time");
        type = cJSON_GetObjectItemCaseSensitive(ln, "type");
        obj = cJSON_GetObjectItemCaseSensitive(ln, "object");
        if (!cJSON_IsString(t) || !cJSON_IsString(type) ||
            !cJSON_IsObject(obj) ||
            kp_parse_time("time", t->valuestring, &ms, &e) < 0) {
            st->nbad++;
            cJSON_Delete(ln);
            continue;
        }
        if (ms > at_ms) {
            cJSON_Delete(ln);
            break;
        }
        if (from_ms > 0 && ms >= from_ms &&
            (strcmp(type->valuestring, "DELETED") == 0 ||
             strcmp(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(obj,
                    "kind")) ? cJSON_GetObjectItemCaseSensitive(obj,
                    "kind")->valuestring : "", "Event") == 0))
            restore(st, obj);
        if (apply) {
            if (strcmp(type->valuestring, "DELETED") == 0)
                state_delete(st, obj);
            else
                state_put(st, cJSON_DetachItemFromObjectCaseSensitive(
                                  ln, "object"));
        }
        cJSON_Delete(ln);
    }
    free(line);
    fclose(f);
    return 0;
}

static void
state_release(struct state *st)
{
    size_t i;

    for (i = 0; i < st->n; i++)
        cJSON_Delete(st->e[i].obj);
    free(st->e);
    for (i = 0; i < st->nrkeys; i++)
        cJSON_Delete(kp_strmap_get(&st->restored, st->rkeys[i]));
    free(st->rkeys);
    kp_strmap_release(&st->index);
    kp_strmap_release(&st->restored);
    kp_arena_release(&st->keys);
}

int
kp_recording_load(struct kp_snapshot *s, const char *dir,
                  const struct kp_recording_query *q, struct kp_error *err)
{
    struct kp_recording_epoch *ep = NULL;
    struct state st;
    size_t n = 0, i, pick;
    long long at = q->at_ms;
    char path[4096], when[40], source[4200];
    char *text = NULL, *out = NULL;
    size_t len = 0;
    cJSON *root = NULL, *items, *it;
    int r = -1, rc;

    memset(&st, 0, sizeof(st));
    kp_strmap_init(&st.index);
    kp_strmap_init(&st.restored);
    kp_arena_init(&st.keys);
    if (kp_recording_epochs(dir, &ep, &n, err) < 0)
        goto out;
    if (n == 0) {
        kp_errorf(err, KP_EXIT_ERROR, "%s: the recording holds no snapshot "
                  "yet", dir);
        goto out;
    }
    if (at <= 0)
        at = (long long)1 << 62;
    for (pick = n; pick > 0 && ep[pick - 1].ms > at; pick--)
        ;
    if (pick == 0) {
        char first[40];

        kp_recording_time(at, when, sizeof(when));
        kp_recording_time(ep[0].ms, first, sizeof(first));
        kp_errorf(err, KP_EXIT_ERROR, "%s: nothing recorded at %s: the "
                  "recording starts at %s", dir, when, first);
        goto out;
    }
    pick--;
    snprintf(path, sizeof(path), "%s/snapshot-%s.json", dir,
             ep[pick].stamp);
    /* a snapshot has no cap of its own, as a -f file has none */
    rc = kp_read_file(path, (size_t)-2, 0, &text, &len);
    if (rc != 0) {
        kp_errorf(err, KP_EXIT_ERROR, "cannot read '%s': %s", path,
                  strerror(rc));
        goto out;
    }
    root = cJSON_ParseWithLength(text, len);
    free(text);
    text = NULL;
    items = cJSON_GetObjectItemCaseSensitive(root, "items");
    if (!cJSON_IsArray(items)) {
        kp_errorf(err, KP_EXIT_ERROR, "%s: not a List (a snapshot the "
                  "recorder did not finish?)", path);
        goto out;
    }
    while ((it = cJSON_DetachItemFromArray(items, 0)) != NULL)
        state_put(&st, it);
    /* the window's deleted pods and events, from the epochs before */
    if (q->from_ms > 0)
        for (i = 0; i < pick; i++)
            if (ep[i + 1].ms > q->from_ms &&
                read_changes(&st, dir, ep[i].stamp, 0, q->from_ms, at,
                             err) < 0)
                goto out;
    if (read_changes(&st, dir, ep[pick].stamp, 1, q->from_ms, at, err) < 0)
        goto out;
    /* what was deleted in the window comes back as last seen */
    for (i = 0; i < st.nrkeys; i++) {
        const char *key = st.rkeys[i];
        size_t at_i = (size_t)(uintptr_t)kp_strmap_get(&st.index, key);

        if (!at_i || !st.e[at_i - 1].obj)
            state_put(&st, kp_strmap_put(&st.restored, key, NULL));
    }
    for (i = 0; i < st.n; i++)
        if (st.e[i].obj) {
            cJSON_AddItemToArray(items, st.e[i].obj);
            st.e[i].obj = NULL;
        }
    if (st.ncut || st.nbad)
        kp_snapshot_warn(s, "%s: %zu line(s) of the changes could not be "
                         "read (a write cut by a crash): the moment is "
                         "rebuilt from the rest", dir, st.ncut + st.nbad);
    out = cJSON_PrintUnformatted(root);
    if (!out) {
        kp_errorf(err, KP_EXIT_ERROR, "%s: out of memory rebuilding the "
                  "recording", dir);
        goto out;
    }
    kp_recording_time(q->at_ms > 0 ? q->at_ms : ep[pick].ms, when,
                      sizeof(when));
    snprintf(source, sizeof(source), "%s@%s", dir, q->at_ms > 0 ? when
             : "latest");
    r = kp_snapshot_load_buffer(s, out, strlen(out), source, err);
out:
    free(out);
    free(text);
    cJSON_Delete(root);
    state_release(&st);
    free(ep);
    return r;
}
