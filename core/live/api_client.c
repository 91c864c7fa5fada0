/*
 * api_client.c - cluster-wide lists from a live API server.
 *
 * Mirrors what kubectl does through k8s.io/client-go/rest (request.go:
 * per-request Timeout, retries of 429 and 5xx after Retry-After,
 * transport.go: TLS from the kubeconfig, bearer/basic/client-certificate
 * auth, impersonation headers, gzip) and kubectl's chunked lists
 * (--chunk-size 500: limit and continue), with the list restart of
 * k8s.io/client-go/tools/pager on an expired continue token.  The
 * lists are read in parallel on one curl multi handle; each page is
 * split into items as its bytes arrive (json_stream.h) and the items go
 * to the caller's sink list after list, in the caller's order: no
 * response body is held whole.
 */
#include "api_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "arena.h"
#include "json_stream.h"
#include "json_util.h"
#include "redact.h"

#if LIBCURL_VERSION_NUM < 0x074d00
#error "libcurl 7.77 or later is needed (CURLOPT_*_BLOB)"
#endif

#ifndef KP_VERSION
#define KP_VERSION "0.1.0"
#endif

#define DEFAULT_LIMIT 500
#define DEFAULT_RETRIES 5
#define DEFAULT_RETRY_WAIT_MS 10000
#define FIRST_BACKOFF_MS 200
#define CONNECT_TIMEOUT_MS 30000
#define MAX_ERROR_BODY ((size_t)1 << 20)
/*
 * The bounds of a live read (README, Security).  The largest cluster
 * Kubernetes supports has 5,000 nodes and 150,000 pods (2.7 GB of
 * indented kubectl JSON, 1.3-2.2 GB as the API serves it): a list may
 * hold KP_LIVE_MAX_OBJECTS objects, 6.7 times the pods of that cluster,
 * and all lists together KP_LIVE_MAX_BYTES of response bodies (after
 * gzip), the cap of a snapshot file.  One object is held to
 * KP_MAX_OBJECT_BYTES (json_stream.h).
 */
#define KP_LIVE_MAX_OBJECTS 1000000L
#define KP_LIVE_MAX_BYTES ((unsigned long long)8 << 30)
/* pages in a row that carry a continue token and no item */
#define MAX_EMPTY_PAGES 100
/*
 * pages of one list: KP_LIVE_MAX_OBJECTS in pages of 500 (that
 * cluster's pods are 300 pages); a server that answers an item or two
 * per page would otherwise take hours to reach KP_LIVE_MAX_OBJECTS
 */
#define MAX_PAGES 2000
/*
 * Items held by lists ahead of their turn, all lists together: two
 * pages each are tens of MB on a real cluster; a server that ignores
 * limit would otherwise fill memory while an earlier list is read.
 */
#define MAX_HELD_BYTES ((size_t)1 << 30)
/*
 * All the header lines of one response: curl refuses a single line over
 * 100 KiB (CURL_MAX_HTTP_HEADER) and so do we for all of them; an API
 * server sends well under 2 KiB.
 */
#define MAX_HEADER_BYTES ((size_t)100 * 1024)
/* a transfer that moves no byte for this long has stalled */
#define STALL_S 60L
/* pages a list ahead of its turn may hold before it waits */
#define HOLD_PAGES 2
#define MAX_STATUS_MSG 300
#define SETTLE_MS 2000

struct resource_def {
    const char *name;
    const char *group;          /* "" for the core group */
    const char *path;
    const char *kind;
    const char *api_version;
};

static const struct resource_def resource_defs[] = {
    {"nodes", "", "/api/v1/nodes", "Node", "v1"},
    {"pods", "", "/api/v1/pods", "Pod", "v1"},
    {"poddisruptionbudgets", "policy",
     "/apis/policy/v1/poddisruptionbudgets", "PodDisruptionBudget",
     "policy/v1"},
    {"priorityclasses", "scheduling.k8s.io",
     "/apis/scheduling.k8s.io/v1/priorityclasses", "PriorityClass",
     "scheduling.k8s.io/v1"},
    {"namespaces", "", "/api/v1/namespaces", "Namespace", "v1"},
    {"persistentvolumeclaims", "", "/api/v1/persistentvolumeclaims",
     "PersistentVolumeClaim", "v1"},
    {"persistentvolumes", "", "/api/v1/persistentvolumes",
     "PersistentVolume", "v1"},
    {"storageclasses", "storage.k8s.io",
     "/apis/storage.k8s.io/v1/storageclasses", "StorageClass",
     "storage.k8s.io/v1"},
    {"csinodes", "storage.k8s.io", "/apis/storage.k8s.io/v1/csinodes",
     "CSINode", "storage.k8s.io/v1"},
    {"events", "", "/api/v1/events", "Event", "v1"},
    /* helper.DefaultSelector's objects (system default spreading) */
    {"services", "", "/api/v1/services", "Service", "v1"},
    {"replicationcontrollers", "", "/api/v1/replicationcontrollers",
     "ReplicationController", "v1"},
    {"replicasets", "apps", "/apis/apps/v1/replicasets", "ReplicaSet",
     "apps/v1"},
    {"statefulsets", "apps", "/apis/apps/v1/statefulsets", "StatefulSet",
     "apps/v1"},
};

struct buf {
    char *data;
    size_t len, cap;
};

/* An item held by a list ahead of its turn (index -1: end of a page). */
struct held_item {
    size_t len;
    long index;
};

struct fetch;

/*
 * One resource's list: its current request, the splitter its pages go
 * through and, while it is not its turn, the items it holds.
 */
struct list_job {
    const struct resource_def *def;
    struct fetch *f;
    char what[96];              /* "pods", "poddisruptionbudgets.policy" */
    CURL *easy;
    struct buf body;            /* the body of an error response */
    struct kp_list_stream *ls;
    char list_kind[64];         /* "PodList" */
    long retry_after_s;         /* -1: no Retry-After header */
    size_t header_bytes;        /* of the response being read */
    int header_too_large;
    int html;                   /* the body is an HTML page */
    int body_cut;               /* an error body over MAX_ERROR_BODY */
    char content_type[64];
    char location[256];         /* Location of a redirect, sanitised */
    long long deadline_ms;      /* --request-timeout of this page; 0 */
    long nobjects;              /* items of the list so far */
    int empty_pages;            /* in a row, with a continue token */
    unsigned long long *seen;   /* hashes of the continue tokens seen */
    size_t nseen, capseen;
    char *cont;                 /* continue token of the next page */
    char *rv;                   /* the list's resourceVersion (page 1) */
    struct buf held;            /* held_item headers, each + its text */
    int held_pages;
    int restarted, retries, active, done, failed;
    int got_page;               /* a 200 response has begun */
    int turn;                   /* its items go to the sink as they come */
    int paused;                 /* holds HOLD_PAGES pages: next one later */
    int stream_failed;          /* the splitter or the sink failed */
    int sink_failed;            /* the sink did: err is its message */
    int refused;                /* an optional list refused; refused_msg */
    long long wake_ms;          /* a retry waits until then; 0: none */
    char errbuf[CURL_ERROR_SIZE];
    struct kp_error err;        /* why the list failed */
    struct kp_error refused_msg;
};

/* Where to send requests, derived once from the server URL. */
struct endpoint {
    char *base;                 /* URL requests are built on */
    char *display;              /* server URL for messages (no userinfo) */
    char *host;
    int loopback;
    struct curl_slist *connect_to;  /* tls-server-name: dial the server */
    char *host_header;
};

struct fetch {
    const struct kp_live_opts *o;
    struct kp_rest_config rc;
    struct endpoint ep;
    CURLM *multi;
    struct curl_slist *headers;
    char *proxy;
    const struct kp_list_sink *sink;
    struct list_job *jobs;
    size_t njobs, next_deliver;
    long limit, max_wait_ms;
    int max_retries;
    long long fail_deadline;    /* a list failed: stop waiting then */
    unsigned long long total_bytes; /* response bytes of all lists */
    size_t held_bytes;          /* held by lists ahead of their turn */
    struct kp_redact redact;    /* the credentials in use */
};

/* ---- small helpers ---------------------------------------------------- */

static long long
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const struct resource_def *
find_resource(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(resource_defs) / sizeof(resource_defs[0]); i++)
        if (!strcmp(resource_defs[i].name, name))
            return &resource_defs[i];
    return NULL;
}

int
kp_live_resource_kind(const char *resource, const char **kind,
                      const char **api_version)
{
    const struct resource_def *d = find_resource(resource);

    if (!d)
        return -1;
    *kind = d->kind;
    *api_version = d->api_version;
    return 0;
}

static const char *
reason_phrase(long code)
{
    static const struct {
        long code;
        const char *text;
    } tab[] = {
        {301, "Moved Permanently"}, {302, "Found"}, {303, "See Other"},
        {307, "Temporary Redirect"}, {308, "Permanent Redirect"},
        {400, "Bad Request"}, {401, "Unauthorized"}, {403, "Forbidden"},
        {404, "Not Found"}, {405, "Method Not Allowed"},
        {406, "Not Acceptable"}, {409, "Conflict"}, {410, "Gone"},
        {413, "Request Entity Too Large"}, {415, "Unsupported Media Type"},
        {422, "Unprocessable Entity"}, {429, "Too Many Requests"},
        {500, "Internal Server Error"}, {501, "Not Implemented"},
        {502, "Bad Gateway"}, {503, "Service Unavailable"},
        {504, "Gateway Timeout"},
    };
    size_t i;

    for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (tab[i].code == code)
            return tab[i].text;
    return "";
}

static char *
xstrfmt(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = kp_xmalloc(n);

    snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

/* Wipe the secrets a header list holds, then free it. */
static void
slist_free_wiped(struct curl_slist *l)
{
    struct curl_slist *p;

    for (p = l; p; p = p->next) {
        volatile char *v = p->data;

        while (*v)
            *v++ = 0;
    }
    curl_slist_free_all(l);
}

/* ---- errors ----------------------------------------------------------- */

/*
 * Copy one line of text from the server into out (at most max bytes):
 * scrubbed of the credentials first (so that no cut leaves a part of
 * one), control characters and invalid bytes as spaces or '?'.
 */
static void
server_text(const struct fetch *f, const char *src, size_t len, char *out,
            size_t max)
{
    char *clean = kp_redact_dup(&f->redact, src, len, &len);
    const char *p = clean ? clean : src;
    size_t i = 0, k;

    for (k = 0; k < len && p[k] != '\n' && i < max; k++) {
        unsigned char c = (unsigned char)p[k];

        out[i++] = c < 0x20 ? ' ' : c == 0x7f ? '?' : (char)c;
    }
    while (i > 0 && out[i - 1] == ' ')
        i--;
    out[i] = '\0';
    free(clean);
}

/* The message of a Status body, else the start of the body, sanitised. */
static void
status_message(const struct fetch *f, const struct buf *b, char *out,
               size_t n)
{
    cJSON *st = b->len ? cJSON_ParseWithLength(b->data, b->len) : NULL;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(st, "message");
    const char *src = cJSON_IsString(m) ? m->valuestring : NULL;
    size_t max = n - 1 < MAX_STATUS_MSG ? n - 1 : MAX_STATUS_MSG;

    if (!src && !st && b->len)
        src = b->data;
    out[0] = '\0';
    if (src)
        server_text(f, src, strlen(src), out, max);
    cJSON_Delete(st);
}

/* Does the body look like an HTML page (a proxy's, not the API's)? */
static int
is_html(const struct list_job *j, const char *data, size_t n)
{
    size_t i = 0;

    if (!strncasecmp(j->content_type, "text/html", 9))
        return 1;
    while (i < n && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
                     data[i] == '\n'))
        i++;
    return i < n && data[i] == '<';
}

/* "server returned an HTML page (HTTP 502, title "..."), not JSON" */
static int
html_error(struct list_job *j, long code, struct kp_error *err)
{
    const char *b = j->body.data ? j->body.data : "";
    const char *t = strcasestr(b, "<title");
    char title[120] = "";
    const char *end;

    if (t && (t = strchr(t, '>')) != NULL) {
        t++;
        end = strcasestr(t, "</title");
        while (*t == ' ' || *t == '\n' || *t == '\r' || *t == '\t')
            t++;
        server_text(j->f, t, end ? (size_t)(end - t) : strlen(t), title,
                    sizeof(title) - 1);
    }
    return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the server "
                     "%s: server returned an HTML page (HTTP %ld%s%s%s), "
                     "not JSON: is a proxy in the way?", j->what,
                     j->f->ep.display, code, title[0] ? ", title \"" : "",
                     title, title[0] ? "\"" : "");
}

/*
 * A 403 on a cluster-wide list: the permission missing and the kubectl
 * command that checks it (kubectl auth can-i; --all-namespaces for the
 * namespaced resources, listed here across namespaces).
 */
static void
forbidden_hint(const char *what, char *out, size_t n)
{
    static const char *const cluster_scoped[] = {
        "nodes", "namespaces", "persistentvolumes",
        "priorityclasses.scheduling.k8s.io",
        "storageclasses.storage.k8s.io", "csinodes.storage.k8s.io"};
    int namespaced = 1;
    size_t i;

    for (i = 0; i < sizeof(cluster_scoped) / sizeof(cluster_scoped[0]); i++)
        if (strcmp(what, cluster_scoped[i]) == 0)
            namespaced = 0;
    snprintf(out, n, "; missing permission: list %s%s (check: kubectl auth "
             "can-i list %s%s)", what, namespaced ? " in all namespaces" : "",
             what, namespaced ? " --all-namespaces" : "");
}

static int
http_error(struct list_job *j, long code, const char *extra,
           struct kp_error *err)
{
    char msg[MAX_STATUS_MSG + 1];
    const char *scope = code == 401 || code == 403 ? " at the cluster scope"
                                                   : "";

    if (j->html)
        return html_error(j, code, err);
    if (code >= 300 && code < 400)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s: %ld%s%s: the "
                         "server redirects to %s%s%s; redirects are not "
                         "followed", j->what, code,
                         *reason_phrase(code) ? " " : "",
                         reason_phrase(code), j->location[0] ? "'" : "",
                         j->location[0] ? j->location : "no Location",
                         j->location[0] ? "'" : "");
    status_message(j->f, &j->body, msg, sizeof(msg));
    return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s%s: %ld%s%s%s%s%s",
                     j->what, scope, code, *reason_phrase(code) ? " " : "",
                     reason_phrase(code), *msg ? ": " : "", msg, extra);
}

static int
is_connect_error(CURLcode res)
{
    switch (res) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
        return 1;
    default:
        return 0;
    }
}

/* "2s", "1500ms": the --request-timeout as given */
static void
timeout_text(long ms, char *buf, size_t n)
{
    snprintf(buf, n, "%ld%s", ms % 1000 ? ms : ms / 1000,
             ms % 1000 ? "ms" : "s");
}

/*
 * A timeout: the page's --request-timeout deadline, else the connect
 * timeout, else a transfer that stalled (STALL_S without a byte).
 */
static int
timed_out(const struct fetch *f, struct list_job *j, const char *detail,
          struct kp_error *err)
{
    curl_off_t connected = 0;
    char t[32];

    if (j->deadline_ms && now_ms() + 500 >= j->deadline_ms) {
        timeout_text(f->o->request_timeout_ms, t, sizeof(t));
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the "
                         "server %s: request timed out after %s "
                         "(--request-timeout)", j->what, f->ep.display, t);
    }
    curl_easy_getinfo(j->easy, CURLINFO_CONNECT_TIME_T, &connected);
    if (!connected)
        return kp_errorf(err, KP_EXIT_ERROR, "unable to connect to the "
                         "server %s: %s", f->ep.display, detail);
    return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the server "
                     "%s: no data for %lds: the transfer stalled", j->what,
                     f->ep.display, STALL_S);
}

static int
transport_error(const struct fetch *f, struct list_job *j, CURLcode res,
                struct kp_error *err)
{
    char detail[CURL_ERROR_SIZE];
    const char *e = j->errbuf[0] ? j->errbuf : curl_easy_strerror(res);

    server_text(f, e, strlen(e), detail, sizeof(detail) - 1);
    if (j->header_too_large || (res == CURLE_OUT_OF_MEMORY && !j->got_page
                                && !j->body.len))
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the "
                         "server %s: response header too large (over %zu "
                         "bytes)", j->what, f->ep.display,
                         MAX_HEADER_BYTES);
    if (res == CURLE_OPERATION_TIMEDOUT)
        return timed_out(f, j, detail, err);

    if (res == CURLE_PEER_FAILED_VERIFICATION)
        return kp_errorf(err, KP_EXIT_ERROR, "unable to connect to the "
                         "server %s: TLS certificate verification failed: "
                         "%s", f->ep.display, detail);
    if (is_connect_error(res))
        return kp_errorf(err, KP_EXIT_ERROR, "unable to connect to the "
                         "server %s: %s", f->ep.display, detail);
    if (res == CURLE_PARTIAL_FILE)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the "
                         "server %s: the response was cut short: %s",
                         j->what, f->ep.display, detail);
    return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the server "
                     "%s: %s", j->what, f->ep.display, detail);
}

/* ---- curl callbacks --------------------------------------------------- */

/* Append to a growable buffer (no cap). */
static void
buf_add(struct buf *b, const void *data, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;

        while (cap < b->len + n + 1)
            cap *= 2;
        b->data = kp_xrealloc(b->data, cap);
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

/*
 * The body of a 200 response goes through the list's splitter as it
 * comes; that of any other (a Status) is kept, up to MAX_ERROR_BODY, for
 * the error message.
 */
static size_t
on_body(char *data, size_t size, size_t nmemb, void *userp)
{
    struct list_job *j = userp;
    size_t n = size * nmemb;
    long code = 0;

    j->f->total_bytes += n;
    if (j->f->total_bytes > KP_LIVE_MAX_BYTES) {
        kp_errorf(&j->err, KP_EXIT_ERROR, "the responses of all lists "
                  "exceed %llu GiB (the limit of a live read)",
                  KP_LIVE_MAX_BYTES >> 30);
        j->stream_failed = 1;
        return 0;
    }
    curl_easy_getinfo(j->easy, CURLINFO_RESPONSE_CODE, &code);
    if (!j->got_page && !j->html && !j->body.len && is_html(j, data, n))
        j->html = 1;
    if (code != 200 || j->html) {
        /* enough of an error page to quote it: the rest is not read */
        if (j->body.len + n > MAX_ERROR_BODY) {
            j->body_cut = 1;
            return 0;
        }
        buf_add(&j->body, data, n);
        return n;
    }
    j->got_page = 1;
    if (kp_list_stream_feed(j->ls, data, n, &j->err) < 0) {
        j->stream_failed = 1;
        return 0;
    }
    return n;
}

static size_t
on_header(char *data, size_t size, size_t nmemb, void *userp)
{
    struct list_job *j = userp;
    size_t n = size * nmemb;
    char line[128];

    if (n >= 5 && !strncmp(data, "HTTP/", 5)) {
        /* header_bytes runs on: endless 1xx responses are headers too */
        j->retry_after_s = -1;
        j->location[0] = j->content_type[0] = '\0';
    }
    j->header_bytes += n;
    if (j->header_bytes > MAX_HEADER_BYTES) {
        j->header_too_large = 1;
        return 0;
    }
    if (n > 9 && !strncasecmp(data, "Location:", 9)) {
        size_t k = 9;

        while (k < n && (data[k] == ' ' || data[k] == '\t'))
            k++;
        server_text(j->f, data + k, n - k, j->location,
                    sizeof(j->location) - 1);
        j->location[strcspn(j->location, "\r")] = '\0';
    }
    if (n > 13 && !strncasecmp(data, "Content-Type:", 13)) {
        size_t k = 13;

        while (k < n && data[k] == ' ')
            k++;
        snprintf(j->content_type, sizeof(j->content_type), "%.*s",
                 (int)(n - k), data + k);
    }
    if (n > 12 && n < sizeof(line) && !strncasecmp(data, "Retry-After:", 12)) {
        char *end;
        long v;

        memcpy(line, data + 12, n - 12);
        line[n - 12] = '\0';
        v = strtol(line, &end, 10);
        if (end != line && v >= 0 && strspn(end, " \t\r\n") == strlen(end))
            j->retry_after_s = v;
    }
    return n;
}

/* ---- endpoint and shared settings ------------------------------------- */

static char *
url_part(CURLU *u, CURLUPart what, unsigned flags)
{
    char *s = NULL, *out;

    if (curl_url_get(u, what, &s, flags) != CURLUE_OK || !s)
        return NULL;
    out = kp_xstrdup(s);
    curl_free(s);
    return out;
}

static char *
strip_slash(char *s)
{
    size_t n = strlen(s);

    while (n > 0 && s[n - 1] == '/')
        s[--n] = '\0';
    return s;
}

static int
is_loopback(const char *h)
{
    return !strcmp(h, "localhost") || !strncmp(h, "127.", 4) ||
           !strcmp(h, "[::1]") || !strcmp(h, "::1");
}

/* tls-server-name: ask for that name, dial the real host. */
static void
endpoint_sni(struct endpoint *ep, CURLU *u, const char *name)
{
    char *port = url_part(u, CURLUPART_PORT, CURLU_DEFAULT_PORT);
    char *given = url_part(u, CURLUPART_PORT, 0);
    char *to, *hp;

    to = xstrfmt(name, ":", port);
    hp = xstrfmt(to, ":", ep->host);
    free(to);
    to = xstrfmt(hp, ":", port);
    ep->connect_to = curl_slist_append(NULL, to);
    free(hp);
    free(to);
    hp = xstrfmt("Host: ", ep->host, given ? ":" : "");
    ep->host_header = xstrfmt(hp, given ? given : "", "");
    free(hp);
    curl_url_set(u, CURLUPART_HOST, name, 0);
    free(ep->base);
    ep->base = strip_slash(url_part(u, CURLUPART_URL, 0));
    free(port);
    free(given);
}

static int
endpoint_init(struct endpoint *ep, const struct kp_rest_config *rc,
              struct kp_error *err)
{
    CURLU *u = curl_url();

    memset(ep, 0, sizeof(*ep));
    if (!u || curl_url_set(u, CURLUPART_URL, rc->server, 0) != CURLUE_OK) {
        curl_url_cleanup(u);
        return kp_errorf(err, KP_EXIT_ERROR, "invalid server URL in the "
                         "configuration of cluster \"%s\"",
                         rc->cluster_name ? rc->cluster_name : "");
    }
    curl_url_set(u, CURLUPART_USER, NULL, 0);
    curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
    curl_url_set(u, CURLUPART_QUERY, NULL, 0);
    curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0);
    ep->base = strip_slash(url_part(u, CURLUPART_URL, 0));
    ep->display = kp_xstrdup(ep->base);
    ep->host = url_part(u, CURLUPART_HOST, 0);
    ep->loopback = ep->host && is_loopback(ep->host);
    if (rc->tls_server_name && ep->host)
        endpoint_sni(ep, u, rc->tls_server_name);
    curl_url_cleanup(u);
    return 0;
}

static void
endpoint_release(struct endpoint *ep)
{
    free(ep->base);
    free(ep->display);
    free(ep->host);
    free(ep->host_header);
    curl_slist_free_all(ep->connect_to);
}

static int
add_header(struct fetch *f, const char *name, const char *value,
           struct kp_error *err)
{
    char *h;
    size_t i;

    for (i = 0; value[i]; i++)
        if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f)
            return kp_errorf(err, KP_EXIT_ERROR, "the %s header would hold "
                             "characters not allowed in HTTP", name);
    h = xstrfmt(name, ": ", value);
    f->headers = curl_slist_append(f->headers, h);
    memset(h, 0, strlen(h));
    free(h);
    return 0;
}

/* Accept, auth and impersonation headers shared by every request. */
static int
build_headers(struct fetch *f, struct kp_error *err)
{
    const struct kp_rest_config *rc = &f->rc;
    int tls = !strncmp(rc->server, "https://", 8);
    size_t i;

    f->headers = curl_slist_append(NULL, "Accept: application/json");
    if (f->ep.host_header)
        f->headers = curl_slist_append(f->headers, f->ep.host_header);
    if (tls && rc->token && rc->token[0]) {
        char *v = xstrfmt("Bearer ", rc->token, "");
        int r = add_header(f, "Authorization", v, err);

        memset(v, 0, strlen(v));
        free(v);
        if (r < 0)
            return -1;
    }
    if (rc->impersonate_user &&
        add_header(f, "Impersonate-User", rc->impersonate_user, err) < 0)
        return -1;
    if (rc->impersonate_uid &&
        add_header(f, "Impersonate-Uid", rc->impersonate_uid, err) < 0)
        return -1;
    for (i = 0; i < rc->nimpersonate_groups; i++)
        if (add_header(f, "Impersonate-Group", rc->impersonate_groups[i],
                       err) < 0)
            return -1;
    return 0;
}

/* proxy-url, with Go's rules: socks5 resolves names at the proxy. */
static int
build_proxy(struct fetch *f, struct kp_error *err)
{
    const char *p = f->rc.proxy_url;

    if (!p) {
        f->proxy = f->ep.loopback ? kp_xstrdup("") : NULL;
        return 0;
    }
    if (!strncmp(p, "socks5://", 9)) {
        f->proxy = xstrfmt("socks5h://", p + 9, "");
        return 0;
    }
    if (!strncmp(p, "http://", 7) || !strncmp(p, "https://", 8)) {
        f->proxy = kp_xstrdup(p);
        return 0;
    }
    return kp_errorf(err, KP_EXIT_ERROR, "invalid 'proxy-url' for cluster "
                     "\"%s\": unsupported scheme, must be http, https, or "
                     "socks5", f->rc.cluster_name ? f->rc.cluster_name : "");
}

/* ---- per-request setup ------------------------------------------------ */

static void
setup_tls(CURL *c, const struct kp_rest_config *rc)
{
    struct curl_blob b;

    curl_easy_setopt(c, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    if (rc->insecure) {
        curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (rc->ca_data.len) {
        b.data = rc->ca_data.data;
        b.len = rc->ca_data.len;
        b.flags = CURL_BLOB_COPY;
        curl_easy_setopt(c, CURLOPT_CAPATH, NULL);
        curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &b);
    } else if (rc->ca_file) {
        curl_easy_setopt(c, CURLOPT_CAPATH, NULL);
        curl_easy_setopt(c, CURLOPT_CAINFO, rc->ca_file);
    }
    curl_easy_setopt(c, CURLOPT_SSLCERTTYPE, "PEM");
    curl_easy_setopt(c, CURLOPT_SSLKEYTYPE, "PEM");
    if (rc->cert_file)
        curl_easy_setopt(c, CURLOPT_SSLCERT, rc->cert_file);
    if (rc->key_file)
        curl_easy_setopt(c, CURLOPT_SSLKEY, rc->key_file);
    if (rc->cert_data.len) {
        b.data = rc->cert_data.data;
        b.len = rc->cert_data.len;
        b.flags = CURL_BLOB_COPY;
        curl_easy_setopt(c, CURLOPT_SSLCERT_BLOB, &b);
    }
    if (rc->key_data.len) {
        b.data = rc->key_data.data;
        b.len = rc->key_data.len;
        b.flags = CURL_BLOB_COPY;
        curl_easy_setopt(c, CURLOPT_SSLKEY_BLOB, &b);
    }
}

/* What every request shares: headers, TLS, auth, proxy, timeouts. */
static void
setup_conn(struct fetch *f, CURL *c)
{
    const struct kp_rest_config *rc = &f->rc;
    long timeout = f->o->request_timeout_ms;

    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, f->headers);
    curl_easy_setopt(c, CURLOPT_USERAGENT, f->o->user_agent
                     ? f->o->user_agent : "kubectl-preempt/" KP_VERSION);
    if (!rc->disable_compression)
        curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(c, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                     timeout > 0 && timeout < CONNECT_TIMEOUT_MS
                     ? timeout : (long)CONNECT_TIMEOUT_MS);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, STALL_S);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    if (f->proxy)
        curl_easy_setopt(c, CURLOPT_PROXY, f->proxy);
    if (f->ep.connect_to)
        curl_easy_setopt(c, CURLOPT_CONNECT_TO, f->ep.connect_to);
    if (!strncmp(rc->server, "https://", 8) && (rc->username ||
                                                  rc->password)) {
        curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        curl_easy_setopt(c, CURLOPT_USERNAME, rc->username ? rc->username
                                                            : "");
        curl_easy_setopt(c, CURLOPT_PASSWORD, rc->password ? rc->password
                                                            : "");
    }
    setup_tls(c, rc);
}

static void
setup_easy(struct fetch *f, struct list_job *j)
{
    CURL *c = j->easy;

    setup_conn(f, c);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, j);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, j);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, j->errbuf);
}

/*
 * --request-timeout is one deadline over a page's request, its retries
 * and their waits, as client-go's Request.request() puts it on the
 * context of the whole retry loop: each attempt gets what is left.
 */
static int
set_deadline(struct fetch *f, struct list_job *j, struct kp_error *err)
{
    long timeout = f->o->request_timeout_ms;
    long long left;
    char t[32];

    if (timeout <= 0)
        return 0;
    if (!j->deadline_ms)
        j->deadline_ms = now_ms() + timeout;
    left = j->deadline_ms - now_ms();
    if (left <= 0) {
        timeout_text(timeout, t, sizeof(t));
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the "
                         "server %s: request timed out after %s "
                         "(--request-timeout)", j->what, f->ep.display, t);
    }
    curl_easy_setopt(j->easy, CURLOPT_TIMEOUT_MS, (long)left);
    return 0;
}

/* The first failed list in the caller's order, or njobs. */
static size_t
first_failed(const struct fetch *f)
{
    size_t i;

    for (i = 0; i < f->njobs; i++)
        if (f->jobs[i].failed)
            return i;
    return f->njobs;
}

/*
 * Once a list has failed, only the lists before it go on (until the
 * settle deadline): one of them may fail too, and its error is the one
 * to report.
 */
static int
may_start(const struct fetch *f, const struct list_job *j)
{
    return !f->fail_deadline || (size_t)(j - f->jobs) < first_failed(f);
}

/* Start (or restart) the request for the job's next page. */
static int
start_request(struct fetch *f, struct list_job *j, struct kp_error *err)
{
    char limit[32], *url, *tmp;

    if (!may_start(f, j))
        return 0;       /* a list before it failed: start nothing more */
    snprintf(limit, sizeof(limit), "?limit=%ld", f->limit);
    url = xstrfmt(f->ep.base, j->def->path, limit);
    if (j->cont) {
        char *esc = curl_easy_escape(j->easy, j->cont, 0);

        tmp = xstrfmt(url, "&continue=", esc ? esc : "");
        curl_free(esc);
        free(url);
        url = tmp;
    }
    j->body.len = 0;
    kp_list_stream_reset(j->ls);
    j->errbuf[0] = '\0';
    j->retry_after_s = -1;
    j->wake_ms = 0;
    j->header_bytes = 0;
    j->header_too_large = j->html = j->body_cut = 0;
    j->location[0] = j->content_type[0] = '\0';
    curl_easy_setopt(j->easy, CURLOPT_URL, url);
    free(url);
    if (set_deadline(f, j, err) < 0)
        return -1;
    if (curl_multi_add_handle(f->multi, j->easy) != CURLM_OK)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s: internal "
                         "error starting the request", j->what);
    j->active = 1;
    return 0;
}

/* ---- responses -------------------------------------------------------- */

/* ---- items: to the sink on the list's turn, else held ------------------ */

static void
drop_held(struct list_job *j)
{
    j->f->held_bytes -= j->held.len;
    free(j->held.data);
    memset(&j->held, 0, sizeof(j->held));
    j->held_pages = 0;
}

static void
hold(struct list_job *j, const char *text, size_t len, long index)
{
    struct held_item h;

    h.len = len;
    h.index = index;
    j->f->held_bytes += sizeof(h) + len;
    buf_add(&j->held, &h, sizeof(h));
    if (len)
        buf_add(&j->held, text, len);
}

/* A sink call failed: make sure it says why. */
static int
sink_error(struct list_job *j, struct kp_error *err)
{
    j->sink_failed = 1;
    if (!err->msg[0])
        kp_errorf(err, KP_EXIT_ERROR, "cannot load %s", j->what);
    return -1;
}

static int
sink_item(struct list_job *j, const char *text, size_t len, long index,
          struct kp_error *err)
{
    const struct kp_list_sink *k = j->f->sink;

    err->msg[0] = '\0';
    if (index < 0) {
        if (k->page_end && k->page_end(k->ctx, j->def->name, err) < 0)
            return sink_error(j, err);
        return 0;
    }
    if (k->item(k->ctx, j->def->name, text, len, index, err) < 0)
        return sink_error(j, err);
    return 0;
}

/*
 * kp_list_stream's callback: one item of the page being read, counted
 * and scrubbed of the credentials before anyone sees it.
 */
static int
on_item(void *ctx, const char *text, size_t len, long index,
        struct kp_error *err)
{
    struct list_job *j = ctx;
    char *clean;
    int r = 0;

    if (++j->nobjects > KP_LIVE_MAX_OBJECTS)
        return kp_errorf(err, KP_EXIT_ERROR, "more than %ld objects in the "
                         "list (the limit of one list)", KP_LIVE_MAX_OBJECTS);
    clean = kp_redact_dup(&j->f->redact, text, len, &len);
    if (clean)
        text = clean;
    if (j->turn)
        r = sink_item(j, text, len, index, err);
    else if (j->f->held_bytes + len > MAX_HELD_BYTES)
        r = kp_errorf(err, KP_EXIT_ERROR, "the lists read ahead of their "
                      "turn hold more than %zu MiB (the limit across all "
                      "lists): does the server ignore limit?",
                      MAX_HELD_BYTES >> 20);
    else
        hold(j, text, len, index);
    free(clean);
    return r;
}

/* The list's turn has come: what it holds goes to the sink. */
static int
drain_held(struct list_job *j, struct kp_error *err)
{
    size_t off = 0;
    int r = 0;

    while (r == 0 && off + sizeof(struct held_item) <= j->held.len) {
        struct held_item h;

        memcpy(&h, j->held.data + off, sizeof(h));
        off += sizeof(h);
        r = sink_item(j, j->held.data + off, h.len, h.index, err);
        off += h.len;
    }
    drop_held(j);
    return r;
}

static void forget_tokens(struct list_job *j);

/* The list starts again: forget what it held or delivered. */
static int
forget_items(struct list_job *j, struct kp_error *err)
{
    const struct kp_list_sink *k = j->f->sink;

    drop_held(j);
    forget_tokens(j);
    j->paused = 0;
    err->msg[0] = '\0';
    if (j->turn && k->restart && k->restart(k->ctx, j->def->name, err) < 0)
        return sink_error(j, err);
    return 0;
}

/* ---- responses -------------------------------------------------------- */

/* Two 64-bit FNV-1a hashes of a token, with different offsets. */
static void
token_hash(const char *s, unsigned long long h[2])
{
    h[0] = 14695981039346656037ULL;
    h[1] = 0x9e3779b97f4a7c15ULL;
    for (; *s; s++) {
        h[0] = (h[0] ^ (unsigned char)*s) * 1099511628211ULL;
        h[1] = (h[1] ^ (unsigned char)*s) * 0x100000001b3ULL + 1;
    }
}

/* Remember the token; 1 if it was seen before in this list. */
static int
token_seen(struct list_job *j, const char *tok)
{
    unsigned long long h[2];
    size_t i, mask;

    if (2 * (j->nseen + 1) > j->capseen) {
        unsigned long long *old = j->seen;
        size_t oldcap = j->capseen, k;

        j->capseen = oldcap ? oldcap * 2 : 64;
        j->seen = kp_xcalloc(j->capseen, 2 * sizeof(*j->seen));
        j->nseen = 0;
        for (k = 0; k < oldcap; k++)
            if (old[2 * k] || old[2 * k + 1]) {
                mask = j->capseen - 1;
                for (i = old[2 * k] & mask; j->seen[2 * i] ||
                     j->seen[2 * i + 1]; i = (i + 1) & mask)
                    ;
                j->seen[2 * i] = old[2 * k];
                j->seen[2 * i + 1] = old[2 * k + 1];
                j->nseen++;
            }
        free(old);
    }
    token_hash(tok, h);
    mask = j->capseen - 1;
    for (i = h[0] & mask; j->seen[2 * i] || j->seen[2 * i + 1];
         i = (i + 1) & mask)
        if (j->seen[2 * i] == h[0] && j->seen[2 * i + 1] == h[1])
            return 1;
    j->seen[2 * i] = h[0];
    j->seen[2 * i + 1] = h[1] | 1;      /* never both zero */
    j->nseen++;
    return 0;
}

static void
forget_tokens(struct list_job *j)
{
    free(j->seen);
    j->seen = NULL;
    j->nseen = j->capseen = 0;
    j->empty_pages = 0;
    j->nobjects = 0;
}

/*
 * A page's continue token must lead somewhere new: a token seen before
 * in this list (repeated, or a cycle) would read the same pages
 * forever, and so would pages without items under ever new tokens.
 */
static int
check_continue(struct fetch *f, struct list_job *j, const char *cont,
               struct kp_error *err)
{
    if (token_seen(j, cont))
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the "
                         "server %s: the server sent a continue token it "
                         "had sent before (page %zu): the list would never "
                         "end", j->what, f->ep.display, j->nseen + 1);
    if (j->nseen > MAX_PAGES)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the "
                         "server %s: more than %d pages (the limit of one "
                         "list)", j->what, f->ep.display, MAX_PAGES);
    if (kp_list_stream_nitems(j->ls) > 0)
        j->empty_pages = 0;
    else if (++j->empty_pages >= MAX_EMPTY_PAGES)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s from the "
                         "server %s: %d pages in a row without items, each "
                         "with a new continue token: the list would never "
                         "end", j->what, f->ep.display, MAX_EMPTY_PAGES);
    return 0;
}

static int
page_ok(struct fetch *f, struct list_job *j, struct kp_error *err)
{
    const char *cont;

    if (kp_list_stream_finish(j->ls, err) < 0)
        return kp_error_prefix(err, "cannot list %s from the server %s",
                               j->what, f->ep.display);
    cont = kp_list_stream_continue(j->ls);
    if (cont && check_continue(f, j, cont, err) < 0)
        return -1;
    if (!j->rv && kp_list_stream_resource_version(j->ls))
        j->rv = kp_xstrdup(kp_list_stream_resource_version(j->ls));
    free(j->cont);
    j->cont = cont ? kp_xstrdup(cont) : NULL;
    j->retries = 0;
    j->deadline_ms = 0;
    if (j->turn) {
        if (sink_item(j, NULL, 0, -1, err) < 0)
            return -1;
    } else {
        hold(j, NULL, 0, -1);
        j->held_pages++;
    }
    if (!j->cont) {
        j->done = 1;
        return 0;
    }
    if (!j->turn && j->held_pages >= HOLD_PAGES) {
        j->paused = 1;
        return 0;
    }
    return start_request(f, j, err);
}

/*
 * 410 Gone on a continue token: start the list again, once, after the
 * sink has dropped what the list delivered (or the list what it held).
 */
static int
expired(struct fetch *f, struct list_job *j, struct kp_error *err)
{
    if (j->restarted)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot list %s: 410 Gone: "
                         "the continue token expired again after the list "
                         "was restarted (the list changes faster than it "
                         "can be read page by page); try again", j->what);
    j->restarted = 1;
    if (forget_items(j, err) < 0)
        return -1;
    free(j->cont);
    j->cont = NULL;
    free(j->rv);
    j->rv = NULL;
    j->deadline_ms = 0;
    return start_request(f, j, err);
}

/*
 * Wait before the next attempt: Retry-After when the server says (at
 * most max_wait_ms: client-go waits as long as it is told, bounded
 * only by the context), else a doubling backoff.  A wait that would
 * pass the page's --request-timeout deadline fails now, as client-go's
 * retry would once the context expires.
 */
static int
schedule_retry(struct fetch *f, struct list_job *j, long code,
               struct kp_error *err)
{
    long wait = FIRST_BACKOFF_MS;
    int i;

    if (j->retry_after_s >= 0)
        wait = j->retry_after_s > f->max_wait_ms / 1000
               ? f->max_wait_ms : j->retry_after_s * 1000;
    else
        for (i = 0; i < j->retries && wait < f->max_wait_ms; i++)
            wait *= 2;
    if (wait > f->max_wait_ms)
        wait = f->max_wait_ms;
    if (j->deadline_ms && now_ms() + wait >= j->deadline_ms) {
        char extra[160], t[32], ra[48] = "";

        timeout_text(f->o->request_timeout_ms, t, sizeof(t));
        if (j->retry_after_s >= 0)
            snprintf(ra, sizeof(ra), " (Retry-After: %lds)",
                     j->retry_after_s);
        snprintf(extra, sizeof(extra), "; the next retry%s would come "
                 "after the --request-timeout of %s", ra, t);
        return http_error(j, code, extra, err);
    }
    j->retries++;
    j->wake_ms = now_ms() + wait;
    return 0;
}

static int
is_optional(const struct fetch *f, const struct list_job *j)
{
    const char *const *r;

    for (r = f->o->optional; r && *r; r++)
        if (strcmp(*r, j->def->name) == 0)
            return 1;
    return 0;
}

/*
 * An optional list was refused: it is delivered empty, and reported on
 * its turn (so that the warnings come in the order of the lists).
 */
static int
refused(struct fetch *f, struct list_job *j, long code)
{
    struct kp_error e;

    http_error(j, code, "", &j->refused_msg);
    if (forget_items(j, &e) < 0) {
        j->err = e;
        return -1;
    }
    j->refused = 1;
    j->done = 1;
    if (j->turn && f->o->refused)
        f->o->refused(f->o->warn_ctx, j->def->name, j->refused_msg.msg);
    return 0;
}

static int
handle_done(struct fetch *f, struct list_job *j, CURLcode res,
            struct kp_error *err)
{
    long code = 0;
    char extra[320];

    curl_multi_remove_handle(f->multi, j->easy);
    j->active = 0;
    if (res == CURLE_WRITE_ERROR && j->body_cut)
        res = CURLE_OK;     /* the start of an error page is enough */
    if (res == CURLE_WRITE_ERROR && j->stream_failed) {
        if (j->sink_failed)
            return -1;      /* err holds the sink's message */
        return kp_error_prefix(err, "cannot list %s from the server %s",
                               j->what, f->ep.display);
    }
    if (res != CURLE_OK)
        return transport_error(f, j, res, err);
    curl_easy_getinfo(j->easy, CURLINFO_RESPONSE_CODE, &code);
    if (code == 200 && j->html)
        return html_error(j, code, err);
    if (code == 200)
        return page_ok(f, j, err);
    if (code == 410 && j->cont)
        return expired(f, j, err);
    if ((code == 403 || code == 404) && is_optional(f, j))
        return refused(f, j, code);
    if ((code == 429 || code >= 500) && j->retries < f->max_retries)
        return schedule_retry(f, j, code, err);
    extra[0] = '\0';
    if (code == 429 || code >= 500)
        snprintf(extra, sizeof(extra), " (gave up after %d retries)",
                 j->retries);
    if (code == 403)
        forbidden_hint(j->what, extra, sizeof(extra));
    return http_error(j, code, extra, err);
}

static struct list_job *
job_of(struct fetch *f, CURL *easy)
{
    size_t i;

    for (i = 0; i < f->njobs; i++)
        if (f->jobs[i].easy == easy)
            return &f->jobs[i];
    return NULL;
}

static void
drain_messages(struct fetch *f)
{
    CURLMsg *m;
    int left;

    while ((m = curl_multi_info_read(f->multi, &left)) != NULL) {
        struct list_job *j;

        if (m->msg != CURLMSG_DONE)
            continue;
        j = job_of(f, m->easy_handle);
        if (j && handle_done(f, j, m->data.result, &j->err) < 0) {
            j->failed = 1;
            if (!f->fail_deadline)
                f->fail_deadline = now_ms() + SETTLE_MS;
        }
    }
}

/*
 * Once a list has failed, report the failure of the first failed list in
 * the caller's order, after waiting (briefly) for the requests of the
 * lists before it: the same fault then gives the same message every run.
 */
static int
settled(const struct fetch *f, struct kp_error *err)
{
    size_t i, first = first_failed(f);

    /* a list before it still reading, or about to retry */
    for (i = 0; i < first; i++)
        if ((f->jobs[i].active || f->jobs[i].wake_ms) &&
            now_ms() < f->fail_deadline)
            return 0;
    *err = f->jobs[first].err;
    return 1;
}

/*
 * Give the lists their turns, in order: a list's turn starts once it has
 * begun to answer (a refused list is reported then instead), its held
 * items go to the sink, and it streams until it is complete.
 */
static int
take_turns(struct fetch *f, struct kp_error *err)
{
    while (f->next_deliver < f->njobs) {
        struct list_job *j = &f->jobs[f->next_deliver];
        const struct kp_list_sink *k = f->sink;

        if (!j->turn && j->refused) {
            if (f->o->refused)
                f->o->refused(f->o->warn_ctx, j->def->name,
                              j->refused_msg.msg);
            f->next_deliver++;
            continue;
        }
        if (!j->turn) {
            if (!j->got_page)
                return 0;
            j->turn = 1;
            err->msg[0] = '\0';
            if ((k->begin && k->begin(k->ctx, j->def->name, err) < 0) ||
                drain_held(j, err) < 0)
                return sink_error(j, err);
            if (j->paused) {
                j->paused = 0;
                if (start_request(f, j, err) < 0)
                    return -1;
            }
        }
        if (!j->done)
            return 0;
        f->next_deliver++;
    }
    return 0;
}

/* Start the retries that are due; returns ms until the next one. */
static long
wake_jobs(struct fetch *f, struct kp_error *err)
{
    long long now = now_ms(), next = -1;
    size_t i;

    for (i = 0; i < f->njobs; i++) {
        struct list_job *j = &f->jobs[i];

        if (!j->wake_ms || !may_start(f, j))
            continue;
        if (j->wake_ms <= now) {
            if (start_request(f, j, err) < 0)
                return -2;
        } else if (next < 0 || j->wake_ms - now < next) {
            next = j->wake_ms - now;
        }
    }
    return next < 0 || next > 1000 ? 1000 : (long)next;
}

static int
run(struct fetch *f, struct kp_error *err)
{
    size_t i;

    for (i = 0; i < f->njobs; i++)
        if (start_request(f, &f->jobs[i], err) < 0)
            return -1;
    while (f->next_deliver < f->njobs) {
        int running;
        long wait;

        if (curl_multi_perform(f->multi, &running) != CURLM_OK)
            return kp_errorf(err, KP_EXIT_ERROR, "internal error in the "
                             "HTTP client");
        drain_messages(f);
        if (f->fail_deadline && settled(f, err))
            return -1;
        if (!f->fail_deadline && take_turns(f, err) < 0)
            return -1;
        if (f->next_deliver == f->njobs)
            break;
        wait = wake_jobs(f, err);
        if (wait < -1)
            return -1;
        curl_multi_poll(f->multi, NULL, 0, (int)wait, NULL);
    }
    return 0;
}

/* ---- GET /version ----------------------------------------------------- */

/* the body of /version: a few hundred bytes; more is not an answer */
#define MAX_VERSION_BODY ((size_t)64 * 1024)
/* without --request-timeout, /version gets this long (the lists stall) */
#define VERSION_TIMEOUT_MS 30000L
/* the pause before the one retry of /version */
#define VERSION_RETRY_WAIT_MS 200L

struct version_req {
    struct buf body;
    size_t header_bytes;
    int too_large;
};

static size_t
on_version_body(char *data, size_t size, size_t nmemb, void *userp)
{
    struct version_req *v = userp;
    size_t n = size * nmemb;

    if (v->body.len + n > MAX_VERSION_BODY) {
        v->too_large = 1;
        return 0;
    }
    buf_add(&v->body, data, n);
    return n;
}

static size_t
on_version_header(char *data, size_t size, size_t nmemb, void *userp)
{
    struct version_req *v = userp;
    size_t n = size * nmemb;

    (void)data;
    v->header_bytes += n;
    if (v->header_bytes > MAX_HEADER_BYTES) {
        v->too_large = 1;
        return 0;
    }
    return n;
}

/*
 * GET /version on the lists' connection, credentials and bounds: the
 * body (NUL-terminated, scrubbed) into *body, else why not into why.
 */
static int
get_version_once(struct fetch *f, long timeout, char **body, char *why,
                 size_t n, int *transient)
{
    struct version_req v;
    char errbuf[CURL_ERROR_SIZE], *url;
    long code = 0;
    CURL *c = curl_easy_init();
    CURLcode res = CURLE_OK;
    CURLMsg *m;
    size_t left_len;
    int running = 1, left, done = 0;

    *body = NULL;
    if (!c) {
        snprintf(why, n, "cannot start the HTTP client");
        return -1;
    }
    memset(&v, 0, sizeof(v));
    errbuf[0] = '\0';
    setup_conn(f, c);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_version_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &v);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_version_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &v);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout);
    url = xstrfmt(f->ep.base, "/version", "");
    curl_easy_setopt(c, CURLOPT_URL, url);
    free(url);
    if (curl_multi_add_handle(f->multi, c) != CURLM_OK) {
        curl_easy_cleanup(c);
        snprintf(why, n, "internal error starting the request");
        return -1;
    }
    while (!done) {
        if (curl_multi_perform(f->multi, &running) != CURLM_OK)
            break;
        while ((m = curl_multi_info_read(f->multi, &left)) != NULL)
            if (m->msg == CURLMSG_DONE && m->easy_handle == c) {
                res = m->data.result;
                done = 1;
            }
        if (!done && running)
            curl_multi_poll(f->multi, NULL, 0, 1000, NULL);
        else if (!done)
            break;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_multi_remove_handle(f->multi, c);
    curl_easy_cleanup(c);
    if (!done)
        snprintf(why, n, "internal error in the HTTP client");
    else if (v.too_large)
        snprintf(why, n, "the answer is too large");
    else if (res != CURLE_OK)
        snprintf(why, n, "%s", errbuf[0] ? errbuf : curl_easy_strerror(res));
    else if (code != 200)
        snprintf(why, n, "%ld %s", code, reason_phrase(code));
    /* a refused connection, a dropped answer, 429 or a 5xx: worth again */
    *transient = done && !v.too_large &&
                 (res == CURLE_COULDNT_CONNECT || res == CURLE_SEND_ERROR ||
                  res == CURLE_RECV_ERROR || res == CURLE_GOT_NOTHING ||
                  res == CURLE_PARTIAL_FILE ||
                  (res == CURLE_OK && (code == 429 || code == 500 ||
                                       code == 502 || code == 503 ||
                                       code == 504)));
    if (!done || v.too_large || res != CURLE_OK || code != 200) {
        kp_redact_str(&f->redact, why, n);
        free(v.body.data);
        return -1;
    }
    if (!v.body.data)
        buf_add(&v.body, "", 0);
    *body = kp_redact_dup(&f->redact, v.body.data, v.body.len, &left_len);
    if (*body)
        free(v.body.data);
    else
        *body = v.body.data;
    return 0;
}

/*
 * GET /version, once more after a transient failure (a refused or dropped
 * connection, 429, a 5xx), both tries within one deadline: the lists'
 * --request-timeout, else VERSION_TIMEOUT_MS.
 */
static int
get_version(struct fetch *f, char **body, char *why, size_t n)
{
    long timeout = f->o->request_timeout_ms > 0 ? f->o->request_timeout_ms
                                                : VERSION_TIMEOUT_MS;
    long long deadline = now_ms() + timeout, left;
    int transient = 0;

    if (get_version_once(f, timeout, body, why, n, &transient) == 0)
        return 0;
    left = deadline - now_ms() - VERSION_RETRY_WAIT_MS;
    if (!transient || left < 100)
        return -1;
    {
        struct timespec ts = {0, VERSION_RETRY_WAIT_MS * 1000000L};

        nanosleep(&ts, NULL);
    }
    return get_version_once(f, (long)left, body, why, n, &transient);
}

/* ---- setup and teardown ----------------------------------------------- */

static void
to_overrides(const struct kp_live_opts *o, struct kp_kubeconfig_overrides *k)
{
    memset(k, 0, sizeof(*k));
    k->kubeconfig = o->kubeconfig;
    k->context = o->context;
    k->cluster = o->cluster;
    k->user = o->user;
    k->server = o->server;
    k->token = o->token;
    k->certificate_authority = o->certificate_authority;
    k->insecure_skip_tls_verify = o->insecure_skip_tls_verify;
    k->conn = o->conn;
    k->warn = o->warn;
    k->warn_ctx = o->warn_ctx;
}

static int
make_jobs(struct fetch *f, const char *const *resources,
          struct kp_error *err)
{
    size_t n = 0, i;

    while (resources[n])
        n++;
    f->jobs = kp_xcalloc(n ? n : 1, sizeof(*f->jobs));
    for (i = 0; i < n; i++) {
        struct list_job *j = &f->jobs[i];

        j->def = find_resource(resources[i]);
        if (!j->def)
            return kp_errorf(err, KP_EXIT_ERROR, "unknown resource '%s'",
                             resources[i]);
        snprintf(j->what, sizeof(j->what), "%s%s%s", j->def->name,
                 j->def->group[0] ? "." : "", j->def->group);
        snprintf(j->list_kind, sizeof(j->list_kind), "%sList",
                 j->def->kind);
        j->f = f;
        j->ls = kp_list_stream_new(j->list_kind, j->def->api_version,
                                   on_item, j);
        kp_list_stream_set_redact(j->ls, &f->redact);
        j->easy = curl_easy_init();
        if (!j->easy)
            return kp_errorf(err, KP_EXIT_ERROR, "cannot start the HTTP "
                             "client");
        f->njobs++;
        setup_easy(f, j);
    }
    return 0;
}

/* A key file's PEM, for kp_redact_add_pem (at most 1 MiB is read). */
static void
redact_key_file(struct kp_redact *r, const char *path)
{
    FILE *fp = fopen(path, "rb");
    char *buf;
    size_t n;

    if (!fp)
        return;
    buf = kp_xmalloc((size_t)1 << 20);
    n = fread(buf, 1, (size_t)1 << 20, fp);
    fclose(fp);
    kp_redact_add_pem(r, buf, n);
    memset(buf, 0, n);
    free(buf);
}

/*
 * Every credential the requests carry (the token, from the kubeconfig,
 * a tokenFile, an exec plugin or an auth provider; the basic-auth
 * password and its base64; the client key) is scrubbed from what the
 * server says.
 */
static void
collect_secrets(struct fetch *f)
{
    const struct kp_rest_config *rc = &f->rc;
    struct kp_redact *r = &f->redact;

    if (rc->token)
        kp_redact_add(r, rc->token, strlen(rc->token));
    if (rc->auth_provider_token)
        kp_redact_add(r, rc->auth_provider_token,
                      strlen(rc->auth_provider_token));
    kp_redact_add_basic(r, rc->username, rc->password);
    if (rc->key_data.len)
        kp_redact_add_pem(r, (const char *)rc->key_data.data,
                          rc->key_data.len);
    if (rc->key_file)
        redact_key_file(r, rc->key_file);
}

static int
fetch_init(struct fetch *f, const struct kp_live_opts *o,
           const char *const *resources, struct kp_error *err)
{
    struct kp_kubeconfig_overrides k;

    to_overrides(o, &k);
    f->o = o;
    f->limit = o->page_limit > 0 ? o->page_limit : DEFAULT_LIMIT;
    f->max_retries = o->max_retries < 0 ? 0 : o->max_retries > 0
                     ? o->max_retries : DEFAULT_RETRIES;
    f->max_wait_ms = o->max_retry_wait_ms > 0 ? o->max_retry_wait_ms
                                              : DEFAULT_RETRY_WAIT_MS;
    if (kp_kubeconfig_load(&f->rc, &k, err) < 0)
        return -1;
    f->multi = curl_multi_init();
    if (!f->multi)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot start the HTTP client");
    f->rc.exec_timeout_ms = o->request_timeout_ms;
    if (kp_rest_config_credentials(&f->rc, err) < 0)
        return -1;
    collect_secrets(f);
    if (endpoint_init(&f->ep, &f->rc, err) < 0 ||
        build_headers(f, err) < 0 || build_proxy(f, err) < 0)
        return -1;
    return make_jobs(f, resources, err);
}

static void
fetch_release(struct fetch *f)
{
    size_t i;

    for (i = 0; i < f->njobs; i++) {
        struct list_job *j = &f->jobs[i];

        if (j->active)
            curl_multi_remove_handle(f->multi, j->easy);
        curl_easy_cleanup(j->easy);
        drop_held(j);
        kp_list_stream_free(j->ls);
        free(j->body.data);
        free(j->cont);
        free(j->rv);
        free(j->seen);
    }
    free(f->jobs);
    if (f->multi)
        curl_multi_cleanup(f->multi);
    slist_free_wiped(f->headers);
    free(f->proxy);
    endpoint_release(&f->ep);
    kp_rest_config_release(&f->rc);
    kp_redact_release(&f->redact);
}

int
kp_live_fetch(const struct kp_live_opts *o, const char *const *resources,
              const struct kp_list_sink *sink, struct kp_error *err)
{
    struct fetch f;
    struct kp_error local;
    char *vbody = NULL, vwhy[CURL_ERROR_SIZE + 64] = "";
    int r, vr = -1;

    if (!err)
        err = &local;
    memset(&f, 0, sizeof(f));
    f.sink = sink;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot start the HTTP client");
    r = fetch_init(&f, o, resources, err);
    if (r == 0 && o->version)
        vr = get_version(&f, &vbody, vwhy, sizeof(vwhy));
    if (r == 0)
        r = run(&f, err);
    if (r == 0 && sink->list_version) {
        size_t i;

        for (i = 0; i < f.njobs; i++)
            if (!f.jobs[i].refused)
                sink->list_version(sink->ctx, f.jobs[i].def->name,
                                   f.jobs[i].rv);
    }
    /* told only once the lists are read: their error comes first */
    if (r == 0 && o->version)
        o->version(o->warn_ctx, vr == 0 ? vbody : NULL, vwhy);
    free(vbody);
    if (r < 0)
        kp_redact_str(&f.redact, err->msg, sizeof(err->msg));
    fetch_release(&f);
    curl_global_cleanup();
    return r;
}

int
kp_live_default_namespace(const struct kp_live_opts *o, char *buf, size_t n,
                          struct kp_error *err)
{
    struct kp_kubeconfig_overrides k;
    struct kp_rest_config rc;
    size_t len;

    to_overrides(o, &k);
    if (kp_kubeconfig_load(&rc, &k, err) < 0)
        return -1;
    len = strlen(rc.namespace);
    if (len >= n) {
        kp_rest_config_release(&rc);
        return kp_errorf(err, KP_EXIT_ERROR, "namespace name too long");
    }
    memcpy(buf, rc.namespace, len + 1);
    kp_rest_config_release(&rc);
    return 0;
}

/* ---- watches (kp_live_watch) ------------------------------------------ */

/*
 * A watch as client-go's reflector runs one (tools/cache/reflector.go
 * watchList/ListAndWatch): GET the list's path with watch=1, the
 * resourceVersion to start from, allowWatchBookmarks=true and a server
 * timeoutSeconds; the body is a stream of {"type", "object"} values.
 * A connection that ends (the server's timeout, a dropped connection,
 * 429/5xx) is reopened from the last resourceVersion seen, after a
 * doubling wait with jitter (wait.Backoff with Jitter: 0.5 to 1.5 times
 * the step, capped); an ERROR event with code 410, or a 410 response,
 * means the resourceVersion is too old: the caller must list again.
 */
#define WATCH_TIMEOUT_S 300L
#define WATCH_FIRST_BACKOFF_MS 200L
#define WATCH_MAX_BACKOFF_MS 30000L

struct watch;

struct watch_job {
    const struct resource_def *def;
    struct fetch *f;
    struct watch *w;
    CURL *easy;
    char *rv;
    struct buf ev;              /* the event being read */
    int depth, in_str, esc;     /* the splitter's state */
    long long wake_ms;          /* reconnect then; 0: connected */
    long backoff_ms;
    long code;
    int active, gone, refused, sink_failed;
    char errbuf[CURL_ERROR_SIZE];
    struct kp_error err;
};

struct watch {
    struct fetch f;
    struct watch_job *jobs;
    size_t njobs;
    const struct kp_watch_sink *sink;
};

/* The event is complete in j->ev: hand it over (or note 410). */
static int
watch_event(struct watch_job *j)
{
    const struct kp_watch_sink *k = j->w->sink;
    cJSON *ev = cJSON_ParseWithLength(j->ev.data, j->ev.len);
    const cJSON *type = kp_json_get(ev, "type");
    const cJSON *obj = kp_json_get(ev, "object");
    const cJSON *md = kp_json_get(obj, "metadata");
    const cJSON *rv = kp_json_get(md, "resourceVersion");
    char *text = NULL, *clean;
    size_t len;
    int r = 0;

    if (!cJSON_IsString(type) || !cJSON_IsObject(obj)) {
        cJSON_Delete(ev);
        return kp_errorf(&j->err, KP_EXIT_ERROR, "watch of %s: an event "
                         "without type or object", j->def->name);
    }
    if (strcmp(type->valuestring, "ERROR") == 0) {
        const cJSON *code = kp_json_get(obj, "code");

        if (cJSON_IsNumber(code) && code->valuedouble == 410)
            j->gone = 1;
        cJSON_Delete(ev);
        return -2;      /* end this connection */
    }
    if (cJSON_IsString(rv) && rv->valuestring[0] &&
        strlen(rv->valuestring) < 128) {
        free(j->rv);
        j->rv = kp_xstrdup(rv->valuestring);
    }
    j->backoff_ms = 0;
    if (strcmp(type->valuestring, "BOOKMARK") == 0) {
        cJSON_Delete(ev);
        return 0;
    }
    text = cJSON_PrintUnformatted(obj);
    len = text ? strlen(text) : 0;
    clean = text ? kp_redact_dup(&j->f->redact, text, len, &len) : NULL;
    if (text && k->event &&
        k->event(k->ctx, j->def->name, j->def->kind, j->def->api_version,
                 type->valuestring, clean ? clean : text, len, &j->err) < 0) {
        j->sink_failed = 1;
        r = -1;
    }
    free(clean);
    free(text);
    cJSON_Delete(ev);
    return r;
}

/* Body bytes: split into top-level JSON values, each bounded. */
static size_t
on_watch_body(char *data, size_t size, size_t nmemb, void *userp)
{
    struct watch_job *j = userp;
    size_t n = size * nmemb, i;

    curl_easy_getinfo(j->easy, CURLINFO_RESPONSE_CODE, &j->code);
    if (j->code != 200)
        return n;       /* an error body: its status code says enough */
    for (i = 0; i < n; i++) {
        char c = data[i];

        if (j->depth == 0 && c != '{')
            continue;   /* new lines between events */
        if (j->ev.len >= KP_MAX_OBJECT_BYTES) {
            kp_errorf(&j->err, KP_EXIT_ERROR, "watch of %s: an event over "
                      "%zu MiB (the limit of one object)", j->def->name,
                      (size_t)KP_MAX_OBJECT_BYTES >> 20);
            j->sink_failed = 1;
            return 0;
        }
        buf_add(&j->ev, &c, 1);
        if (j->in_str) {
            if (j->esc)
                j->esc = 0;
            else if (c == '\\')
                j->esc = 1;
            else if (c == '"')
                j->in_str = 0;
            continue;
        }
        if (c == '"')
            j->in_str = 1;
        else if (c == '{' || c == '[')
            j->depth++;
        else if ((c == '}' || c == ']') && --j->depth == 0) {
            int r = watch_event(j);

            j->ev.len = 0;
            if (r == -1)
                return 0;
            if (r == -2)
                return 0;   /* ERROR event: reconnect or relist */
        }
    }
    return n;
}

static int
watch_start(struct watch *w, struct watch_job *j, struct kp_error *err)
{
    char q[320], *url;
    char *esc = j->rv ? curl_easy_escape(j->easy, j->rv, 0) : NULL;

    snprintf(q, sizeof(q), "?watch=1&allowWatchBookmarks=true&"
             "timeoutSeconds=%ld%s%s", WATCH_TIMEOUT_S,
             esc ? "&resourceVersion=" : "", esc ? esc : "");
    curl_free(esc);
    url = xstrfmt(w->f.ep.base, j->def->path, q);
    j->ev.len = 0;
    j->depth = j->in_str = j->esc = 0;
    j->code = 0;
    j->errbuf[0] = '\0';
    setup_conn(&w->f, j->easy);
    /* a watch is quiet for minutes: only the overall timeout bounds it */
    curl_easy_setopt(j->easy, CURLOPT_LOW_SPEED_TIME, 0L);
    curl_easy_setopt(j->easy, CURLOPT_TIMEOUT_MS,
                     (WATCH_TIMEOUT_S + 30) * 1000L);
    curl_easy_setopt(j->easy, CURLOPT_WRITEFUNCTION, on_watch_body);
    curl_easy_setopt(j->easy, CURLOPT_WRITEDATA, j);
    curl_easy_setopt(j->easy, CURLOPT_ERRORBUFFER, j->errbuf);
    curl_easy_setopt(j->easy, CURLOPT_URL, url);
    free(url);
    j->wake_ms = 0;
    if (curl_multi_add_handle(w->f.multi, j->easy) != CURLM_OK)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot watch %s: internal "
                         "error starting the request", j->def->name);
    j->active = 1;
    return 0;
}

/* xorshift64*, seeded once from the clock and the pid: jitter only */
static unsigned long long
watch_rand(void)
{
    static unsigned long long x;

    if (!x)
        x = ((unsigned long long)now_ms() << 20) ^
            (unsigned long long)getpid() ^ 0x9e3779b97f4a7c15ULL;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 0x2545f4914f6cdd1dULL;
}

/* The next wait: doubled, capped, times 0.5 to 1.5 (jitter). */
static long
watch_backoff(struct watch_job *j)
{
    long b = j->backoff_ms ? j->backoff_ms * 2 : WATCH_FIRST_BACKOFF_MS;

    if (b > WATCH_MAX_BACKOFF_MS)
        b = WATCH_MAX_BACKOFF_MS;
    j->backoff_ms = b;
    return b / 2 + (long)(watch_rand() % (unsigned long long)(b + 1));
}

/* A connection ended: 1 relist, 0 reconnect later, -1 fail. */
static int
watch_done(struct watch *w, struct watch_job *j, CURLcode res,
           struct kp_error *err)
{
    long code = 0;

    curl_multi_remove_handle(w->f.multi, j->easy);
    j->active = 0;
    if (j->sink_failed) {
        *err = j->err;
        return -1;
    }
    curl_easy_getinfo(j->easy, CURLINFO_RESPONSE_CODE, &code);
    if (j->gone || code == 410)
        return 1;
    if (res == CURLE_OK && (code == 401 || code == 403 || code == 404)) {
        if (w->f.o->refused)
            w->f.o->refused(w->f.o->warn_ctx, j->def->name, code == 404
                            ? "the server does not serve it (404)"
                            : code == 401 ? "401 Unauthorized"
                            : "403 Forbidden");
        j->refused = 1;
        return 0;
    }
    if (w->f.o->warn && res != CURLE_OK && res != CURLE_OPERATION_TIMEDOUT) {
        char msg[CURL_ERROR_SIZE + 160];

        snprintf(msg, sizeof(msg), "watch of %s ended (%s); reconnecting",
                 j->def->name, j->errbuf[0] ? j->errbuf
                 : curl_easy_strerror(res));
        kp_redact_str(&w->f.redact, msg, sizeof(msg));
        w->f.o->warn(w->f.o->warn_ctx, msg);
    }
    j->wake_ms = now_ms() + watch_backoff(j);
    return 0;
}

static void
watch_release(struct watch *w)
{
    size_t i;

    for (i = 0; i < w->njobs; i++) {
        struct watch_job *j = &w->jobs[i];

        if (j->active)
            curl_multi_remove_handle(w->f.multi, j->easy);
        curl_easy_cleanup(j->easy);
        free(j->ev.data);
        free(j->rv);
    }
    free(w->jobs);
    fetch_release(&w->f);
}

int
kp_live_watch(const struct kp_live_opts *o, const char *const *resources,
              char **rvs, const struct kp_watch_sink *sink,
              struct kp_error *err)
{
    static const char *const none[] = {NULL};
    struct watch w;
    size_t i, n = 0;
    int r = 0;

    memset(&w, 0, sizeof(w));
    w.sink = sink;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return kp_errorf(err, KP_EXIT_ERROR, "cannot start the HTTP client");
    if (fetch_init(&w.f, o, none, err) < 0) {
        fetch_release(&w.f);
        curl_global_cleanup();
        return -1;
    }
    while (resources[n])
        n++;
    w.jobs = kp_xcalloc(n ? n : 1, sizeof(*w.jobs));
    for (i = 0; i < n && r == 0; i++) {
        struct watch_job *j = &w.jobs[i];

        j->def = find_resource(resources[i]);
        j->f = &w.f;
        j->w = &w;
        if (!j->def)
            r = kp_errorf(err, KP_EXIT_ERROR, "unknown resource '%s'",
                          resources[i]);
        else if (!(j->easy = curl_easy_init()))
            r = kp_errorf(err, KP_EXIT_ERROR, "cannot start the HTTP "
                          "client");
        else {
            w.njobs++;
            j->rv = rvs[i] ? kp_xstrdup(rvs[i]) : NULL;
            r = watch_start(&w, j, err);
        }
    }
    while (r == 0) {
        int running, stop;
        CURLMsg *m;
        int left;
        long long now;

        if (curl_multi_perform(w.f.multi, &running) != CURLM_OK) {
            r = kp_errorf(err, KP_EXIT_ERROR, "internal error in the "
                          "HTTP client");
            break;
        }
        while (r == 0 && (m = curl_multi_info_read(w.f.multi, &left))) {
            struct watch_job *j = NULL;

            if (m->msg != CURLMSG_DONE)
                continue;
            for (i = 0; i < w.njobs; i++)
                if (w.jobs[i].easy == m->easy_handle)
                    j = &w.jobs[i];
            if (j)
                r = watch_done(&w, j, m->data.result, err);
        }
        if (r != 0)
            break;
        stop = sink->tick ? sink->tick(sink->ctx, err) : 0;
        if (stop) {
            r = stop < 0 ? -1 : 0;
            break;
        }
        now = now_ms();
        for (i = 0; i < w.njobs && r == 0; i++)
            if (!w.jobs[i].active && !w.jobs[i].refused &&
                w.jobs[i].wake_ms && w.jobs[i].wake_ms <= now)
                r = watch_start(&w, &w.jobs[i], err);
        if (r == 0)
            curl_multi_poll(w.f.multi, NULL, 0, 200, NULL);
    }
    if (r >= 0)
        for (i = 0; i < w.njobs; i++) {
            free(rvs[i]);
            rvs[i] = w.jobs[i].rv ? kp_xstrdup(w.jobs[i].rv) : NULL;
        }
    if (r < 0)
        kp_redact_str(&w.f.redact, err->msg, sizeof(err->msg));
    watch_release(&w);
    curl_global_cleanup();
    return r;
}
