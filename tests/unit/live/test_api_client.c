/*
 * test_api_client.c - kp_live_fetch and kp_snapshot_out against
 * tests/helpers/fake_apiserver.py on 127.0.0.1.
 *
 * Each test starts its own server (python3, with the faults it needs),
 * writes a kubeconfig that points at it and checks what the page
 * callback received or the exact error.  Run from the repository root.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "api_client.h"
#include "check.h"
#include "snapshot_out.h"
#include "tmpdir.h"

#define MAX_ARGS 32

static char certs[300];

static const char *const all_resources[] = {
    "nodes", "pods", "poddisruptionbudgets", "priorityclasses", NULL
};

struct server {
    pid_t pid;
    int port;
    char log[400];
};

/* What the sink saw. */
struct seen {
    int calls;              /* pages */
    int items[4];           /* per resource of all_resources */
    char order[512];        /* resource names, one letter per page */
    int bad_json;
    int abort_after;        /* return -1 at this page (1-based), 0 never */
    int restarts;
    int begin_items;        /* at the current list's begin */
    size_t begin_order;
    struct kp_snapshot_out *so;
};

static void
path_in(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

static int
read_port(const char *path)
{
    FILE *f;
    int port = 0, tries;

    for (tries = 0; tries < 200; tries++) {
        f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "%d", &port) != 1)
                port = 0;
            fclose(f);
            if (port > 0)
                return port;
        }
        usleep(50 * 1000);
    }
    return 0;
}

/* Start the fake server with extra arguments (NULL-terminated). */
static struct server
start_server(const char *const *extra)
{
    struct server s;
    char portfile[400];
    const char *argv[MAX_ARGS];
    int n = 0, i;

    memset(&s, 0, sizeof(s));
    path_in(portfile, sizeof(portfile), "port");
    path_in(s.log, sizeof(s.log), "requests.log");
    unlink(portfile);
    unlink(s.log);
    argv[n++] = "python3";
    argv[n++] = "tests/helpers/fake_apiserver.py";
    argv[n++] = "--certs";
    argv[n++] = certs;
    argv[n++] = "--fixtures";
    argv[n++] = "tests/fixtures/live";
    argv[n++] = "--port-file";
    argv[n++] = portfile;
    argv[n++] = "--log";
    argv[n++] = s.log;
    argv[n++] = "--token";
    argv[n++] = "s3cr3t-token";
    argv[n++] = "--lifetime";
    argv[n++] = "60";
    for (i = 0; extra && extra[i] && n < MAX_ARGS - 1; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    fflush(NULL);
    s.pid = fork();
    if (s.pid == 0) {
        freopen("/dev/null", "w", stdout);
        execvp("python3", (char *const *)argv);
        _exit(127);
    }
    s.port = read_port(portfile);
    return s;
}

static void
stop_server(struct server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, NULL, 0);
    }
    s->pid = 0;
}

/* A kubeconfig for the server, with the given user body (YAML). */
static void
write_kubeconfig(const char *name, const struct server *s,
                 const char *cluster_extra, const char *user)
{
    char path[400], text[8192];

    path_in(path, sizeof(path), name);
    snprintf(text, sizeof(text),
             "apiVersion: v1\nkind: Config\ncurrent-context: test\n"
             "clusters:\n- name: fake\n  cluster:\n"
             "    server: https://127.0.0.1:%d\n"
             "    certificate-authority: %s/ca.crt\n%s"
             "contexts:\n- name: test\n  context:\n    cluster: fake\n"
             "    user: tester\n    namespace: prod\n"
             "users:\n- name: tester\n  user:\n%s",
             s->port, certs, cluster_extra ? cluster_extra : "", user);
    write_text(path, text, 0600);
}

static void
opts_for(struct kp_live_opts *o, const char *kubeconfig)
{
    static char path[400];

    memset(o, 0, sizeof(*o));
    path_in(path, sizeof(path), kubeconfig);
    o->kubeconfig = path;
    o->insecure_skip_tls_verify = -1;
    o->max_retry_wait_ms = 2000;
}

static int
resource_index(const char *r)
{
    int i;

    for (i = 0; all_resources[i]; i++)
        if (!strcmp(all_resources[i], r))
            return i;
    return -1;
}

static int
on_begin(void *ctx, const char *resource, struct kp_error *err)
{
    struct seen *s = ctx;
    int i = resource_index(resource);

    (void)err;
    s->begin_items = i < 0 ? 0 : s->items[i];
    s->begin_order = strlen(s->order);
    return 0;
}

static int
on_item(void *ctx, const char *resource, const char *text, size_t len,
        long index, struct kp_error *err)
{
    struct seen *s = ctx;
    cJSON *item = cJSON_ParseWithLength(text, len);
    int i = resource_index(resource);
    const char *kind, *api_version;
    int r = 0;

    (void)index;
    if (!cJSON_IsObject(item) || i < 0)
        s->bad_json++;
    else
        s->items[i]++;
    if (s->so && kp_live_resource_kind(resource, &kind, &api_version) == 0)
        r = kp_snapshot_out_add_item(s->so, item, kind, api_version, err);
    cJSON_Delete(item);
    return r;
}

static int
on_page_end(void *ctx, const char *resource, struct kp_error *err)
{
    struct seen *s = ctx;
    size_t n = strlen(s->order);

    s->calls++;
    if (n + 1 < sizeof(s->order)) {
        s->order[n] = resource[0];
        s->order[n + 1] = '\0';
    }
    if (s->abort_after && s->calls == s->abort_after)
        return kp_errorf(err, KP_EXIT_ERROR, "stop here");
    return 0;
}

static int
on_restart(void *ctx, const char *resource, struct kp_error *err)
{
    struct seen *s = ctx;
    int i = resource_index(resource);

    (void)err;
    s->restarts++;
    if (i >= 0)
        s->items[i] = s->begin_items;
    s->order[s->begin_order] = '\0';
    return 0;
}

/* The sink of seen. */
static struct kp_list_sink
sink_of(struct seen *s)
{
    struct kp_list_sink k = {s, on_begin, on_item, on_page_end, on_restart,
                             NULL};

    return k;
}

static const char TOKEN_USER[] = "    token: s3cr3t-token\n";

/* One test's server, the options pointing at it, and the outcome. */
struct fixture {
    struct server s;
    struct kp_live_opts o;
    struct kp_error err;
    struct seen seen;
};

/*
 * Start a server with extra arguments (NULL-terminated, or NULL), write
 * kubeconfig "kc" for it with the given user body and point the options
 * at it.  stop_server(&fx->s) ends it.
 */
static void
setup(struct fixture *fx, const char *const *extra, const char *user)
{
    memset(fx, 0, sizeof(*fx));
    fx->s = start_server(extra);
    write_kubeconfig("kc", &fx->s, NULL, user);
    opts_for(&fx->o, "kc");
}

/* The same for a server nobody starts, on port. */
static void
setup_no_server(struct fixture *fx, int port)
{
    memset(fx, 0, sizeof(*fx));
    fx->s.port = port;
    write_kubeconfig("kc", &fx->s, NULL, TOKEN_USER);
    opts_for(&fx->o, "kc");
}

/* Fetch all_resources; shows the error, if any, as a TAP comment. */
static int
fetch(struct fixture *fx)
{
    struct kp_list_sink k = sink_of(&fx->seen);
    int r;

    memset(&fx->err, 0, sizeof(fx->err));
    r = kp_live_fetch(&fx->o, all_resources, &k, &fx->err);
    if (r < 0)
        printf("# note: %s\n", fx->err.msg);    /* TAP comment */
    return r;
}

/* What the shell command cmd prints, at most n - 1 bytes, into buf. */
static void
shell_output(const char *cmd, char *buf, size_t n)
{
    FILE *p = popen(cmd, "r");
    size_t len = p ? fread(buf, 1, n - 1, p) : 0;

    buf[len] = '\0';
    if (p)
        pclose(p);
}

static int
log_has(const struct server *s, const char *needle)
{
    FILE *f = fopen(s->log, "r");
    char line[4096];
    int found = 0;

    while (f && !found && fgets(line, sizeof(line), f))
        found = strstr(line, needle) != NULL;
    if (f)
        fclose(f);
    return found;
}

static int
log_lines(const struct server *s)
{
    FILE *f = fopen(s->log, "r");
    char line[4096];
    int n = 0;

    while (f && fgets(line, sizeof(line), f))
        n++;
    if (f)
        fclose(f);
    return n;
}

/* ---- tests ------------------------------------------------------------ */

static void
test_api_client__lists_every_resource_in_order_with_a_token(void)
{
    struct fixture fx;

    setup(&fx, NULL, TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.err.msg, "");
    CHECK_EQ_STR(fx.seen.order, "nppp");
    CHECK_EQ_INT(fx.seen.items[0], 3);
    CHECK_EQ_INT(fx.seen.items[1], 12);
    CHECK_EQ_INT(fx.seen.items[2], 1);
    CHECK_EQ_INT(fx.seen.items[3], 3);
    CHECK_EQ_INT(fx.seen.bad_json, 0);
    CHECK(log_has(&fx.s, "\"query\": \"limit=500\""));
    CHECK(log_has(&fx.s, "\"ua\": \"kubectl-preempt/"));
    CHECK(log_has(&fx.s, "gzip"));
    CHECK(log_has(&fx.s, "\"accept\": \"application/json\""));
    stop_server(&fx.s);
}

static void
test_api_client__follows_continue_tokens_page_by_page(void)
{
    struct fixture fx;

    setup(&fx, NULL, TOKEN_USER);
    fx.o.page_limit = 5;
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.seen.order, "nppppp");
    CHECK_EQ_INT(fx.seen.items[1], 12);
    CHECK(log_has(&fx.s, "limit=5&continue="));
    stop_server(&fx.s);
}

static void
test_api_client__server_page_cap_is_honoured(void)
{
    static const char *const extra[] = {"--max-page", "2", NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_INT(fx.seen.calls, 2 + 6 + 1 + 2);
    CHECK_EQ_INT(fx.seen.items[0], 3);
    CHECK_EQ_INT(fx.seen.items[1], 12);
    stop_server(&fx.s);
}

static void
test_api_client__client_certificate_data_authenticates(void)
{
    struct fixture fx;
    char user[8192], cmd[1024];

    snprintf(cmd, sizeof(cmd), "printf '    client-certificate-data: %%s\\n"
             "    client-key-data: %%s\\n' $(base64 -w0 %s/client.crt) "
             "$(base64 -w0 %s/client.key)", certs, certs);
    shell_output(cmd, user, sizeof(user));
    setup(&fx, NULL, user);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.err.msg, "");
    CHECK(log_has(&fx.s, "\"user\": \"kp-tester\""));
    CHECK(!log_has(&fx.s, "\"auth\": \"none\""));
    stop_server(&fx.s);
}

static void
test_api_client__client_certificate_files_authenticate(void)
{
    static const char *const extra[] = {"--require-cert", NULL};
    struct fixture fx;
    char user[1024];

    snprintf(user, sizeof(user), "    client-certificate: %s/client.crt\n"
             "    client-key: %s/client.key\n", certs, certs);
    setup(&fx, extra, user);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.err.msg, "");
    CHECK_EQ_INT(fx.seen.items[1], 12);
    stop_server(&fx.s);
}

static void
test_api_client__certificate_data_goes_with_a_key_file(void)
{
    static const char *const extra[] = {"--require-cert", NULL};
    struct fixture fx;
    char user[8192], cmd[1024];

    snprintf(cmd, sizeof(cmd), "printf '    client-certificate-data: %%s\\n"
             "    client-key: %s/client.key\\n' $(base64 -w0 %s/client.crt)",
             certs, certs);
    shell_output(cmd, user, sizeof(user));
    setup(&fx, extra, user);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_INT(fx.seen.items[1], 12);
    stop_server(&fx.s);
}

static void
test_api_client__forbidden_names_verb_resource_and_scope(void)
{
    static const char *const extra[] = {"--fault", "forbidden:pods", NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK_EQ_INT(fx.err.exit_code, KP_EXIT_ERROR);
    CHECK_EQ_STR(fx.err.msg, "cannot list pods at the cluster scope: 403 "
                 "Forbidden: pods is forbidden: User "
                 "\"system:serviceaccount:kp:preempt\" cannot list resource "
                 "\"pods\" in API group \"\" at the cluster scope; "
                 "missing permission: list pods in all namespaces (check: "
                 "kubectl auth can-i list pods --all-namespaces)");
    stop_server(&fx.s);
}

static void
test_api_client__forbidden_group_resource_is_qualified(void)
{
    static const char *const extra[] = {
        "--fault", "forbidden:poddisruptionbudgets", NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK(!strncmp(fx.err.msg, "cannot list poddisruptionbudgets.policy at "
                   "the cluster scope: 403 Forbidden: ", 70));
    stop_server(&fx.s);
}

static void
keep_refusal(void *ctx, const char *resource, const char *msg)
{
    snprintf(ctx, 512, "%s: %s", resource, msg);
}

/* A list the caller marks optional: 403 is a warning, the rest goes on;
 * without the mark the same 403 fails the fetch. */
static void
test_api_client__forbidden_optional_list_is_a_warning(void)
{
    static const char *const extra[] = {"--fault", "forbidden:namespaces",
                                        NULL};
    static const char *const resources[] = {"nodes", "namespaces", "pods",
                                            NULL};
    static const char *const optional[] = {"namespaces", NULL};
    struct server s = start_server(extra);
    struct kp_live_opts o;
    struct kp_error err;
    struct seen seen;
    struct kp_list_sink k = sink_of(&seen);
    char warning[512] = "";

    memset(&seen, 0, sizeof(seen));
    memset(&err, 0, sizeof(err));
    write_kubeconfig("kc", &s, NULL, TOKEN_USER);
    opts_for(&o, "kc");
    o.optional = optional;
    o.refused = keep_refusal;
    o.warn_ctx = warning;
    CHECK_EQ_INT(kp_live_fetch(&o, resources, &k, &err), 0);
    CHECK_EQ_STR(warning, "namespaces: cannot list namespaces at the "
                 "cluster scope: 403 Forbidden: namespaces is forbidden: User "
                 "\"system:serviceaccount:kp:preempt\" cannot list resource "
                 "\"namespaces\" in API group \"\" at the cluster scope");
    CHECK_EQ_STR(seen.order, "np");
    CHECK_EQ_INT(seen.items[1], 12);
    o.optional = NULL;
    memset(&seen, 0, sizeof(seen));
    CHECK_EQ_INT(kp_live_fetch(&o, resources, &k, &err), -1);
    CHECK(!strncmp(err.msg, "cannot list namespaces at the cluster scope: "
                   "403 Forbidden: ", 59));
    stop_server(&s);
}

static void
test_api_client__unauthorized_token_is_refused_without_echoing_it(void)
{
    struct fixture fx;

    setup(&fx, NULL, "    token: not-the-token\n");
    CHECK_EQ_INT(fetch(&fx), -1);
    /* every list fails: the first one in the caller's order is named */
    CHECK_EQ_STR(fx.err.msg, "cannot list nodes at the cluster scope: 401 "
                 "Unauthorized: Unauthorized");
    CHECK(strstr(fx.err.msg, "not-the-token") == NULL);
    CHECK_EQ_INT(fx.seen.calls, 0);
    stop_server(&fx.s);
}

static void
test_api_client__expired_continue_restarts_the_list_once(void)
{
    static const char *const extra[] = {
        "--fault", "expired-continue-once:pods", NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    fx.o.page_limit = 5;
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.err.msg, "");
    CHECK_EQ_INT(fx.seen.items[1], 12);
    CHECK_EQ_STR(fx.seen.order, "nppppp");
    stop_server(&fx.s);
}

static void
test_api_client__expired_continue_twice_fails_clearly(void)
{
    static const char *const extra[] = {
        "--fault", "expired-continue:pods", NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    fx.o.page_limit = 5;
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK_EQ_STR(fx.err.msg, "cannot list pods: 410 Gone: the continue "
                 "token expired again after the list was restarted (the "
                 "list changes faster than it can be read page by page); "
                 "try again");
    stop_server(&fx.s);
}

static void
test_api_client__too_many_requests_is_retried_after_retry_after(void)
{
    static const char *const extra[] = {
        "--fault", "too-many-requests", "--retry-after", "1", NULL};
    struct fixture fx;
    time_t t0;

    setup(&fx, extra, TOKEN_USER);
    t0 = time(NULL);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.err.msg, "");
    CHECK_EQ_INT(fx.seen.items[1], 12);
    CHECK(time(NULL) - t0 >= 1);
    CHECK_EQ_INT(log_lines(&fx.s), 8);
    stop_server(&fx.s);
}

static void
test_api_client__retries_are_bounded(void)
{
    static const char *const extra[] = {
        "--fault", "too-many-requests-always:nodes", "--retry-after", "0",
        NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    fx.o.max_retries = 2;
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK_EQ_STR(fx.err.msg, "cannot list nodes: 429 Too Many Requests: "
                 "Too many requests, please try again later. (gave up "
                 "after 2 retries)");
    stop_server(&fx.s);
}

static void
test_api_client__server_error_once_is_retried(void)
{
    static const char *const extra[] = {
        "--fault", "server-error-once", NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.err.msg, "");
    CHECK_EQ_INT(fx.seen.items[0] + fx.seen.items[1], 15);
    stop_server(&fx.s);
}

static void
test_api_client__request_timeout_names_the_server(void)
{
    static const char *const extra[] = {
        "--fault", "slow", "--slow-seconds", "3", NULL};
    struct fixture fx;
    char want[128];

    setup(&fx, extra, TOKEN_USER);
    fx.o.request_timeout_ms = 300;
    CHECK_EQ_INT(fetch(&fx), -1);
    snprintf(want, sizeof(want), "cannot list nodes from the server "
             "https://127.0.0.1:%d: request timed out after 300ms "
             "(--request-timeout)", fx.s.port);
    CHECK_EQ_STR(fx.err.msg, want);
    stop_server(&fx.s);
}

static void
test_api_client__truncated_body_is_an_error(void)
{
    static const char *const extra[] = {"--fault", "truncated:pods", NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK(strstr(fx.err.msg, "cannot list pods from the server") != NULL);
    CHECK(strstr(fx.err.msg, "the response was cut short") != NULL);
    stop_server(&fx.s);
}

static void
test_api_client__non_json_body_is_an_error(void)
{
    static const char *const extra[] = {"--fault", "not-json:nodes", NULL};
    struct fixture fx;

    setup(&fx, extra, TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK(strstr(fx.err.msg, "cannot list nodes from the server") != NULL);
    CHECK(strstr(fx.err.msg, "not a complete JSON object") != NULL);
    stop_server(&fx.s);
}

static void
test_api_client__certificate_from_wrong_ca_is_refused(void)
{
    static const char *const extra[] = {"--fault", "wrong-ca", NULL};
    struct fixture fx;
    char want[128];

    setup(&fx, extra, TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), -1);
    snprintf(want, sizeof(want), "unable to connect to the server "
             "https://127.0.0.1:%d: TLS certificate verification failed: ",
             fx.s.port);
    CHECK(!strncmp(fx.err.msg, want, strlen(want)));
    /* --insecure-skip-tls-verify accepts it */
    fx.o.insecure_skip_tls_verify = 1;
    CHECK_EQ_INT(fetch(&fx), 0);
    stop_server(&fx.s);
}

static void
test_api_client__tls_server_name_is_verified_instead_of_the_host(void)
{
    struct fixture fx;

    setup(&fx, NULL, TOKEN_USER);
    write_kubeconfig("kc", &fx.s, "    tls-server-name: kubernetes.test\n",
                     TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.err.msg, "");
    write_kubeconfig("kc", &fx.s, "    tls-server-name: other.test\n",
                     TOKEN_USER);
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK(strstr(fx.err.msg, "TLS certificate verification failed") !=
          NULL);
    stop_server(&fx.s);
}

static void
test_api_client__exec_plugin_token_is_used(void)
{
    struct fixture fx;
    char plugin[400], user[1024];

    path_in(plugin, sizeof(plugin), "plugin.sh");
    write_text(plugin, "#!/bin/sh\nprintf '{\"apiVersion\":"
               "\"client.authentication.k8s.io/v1\",\"kind\":"
               "\"ExecCredential\",\"status\":{\"token\":\"%s\"}}' \"$1\"\n",
               0700);
    snprintf(user, sizeof(user), "    exec:\n      apiVersion: "
             "client.authentication.k8s.io/v1\n      command: %s\n"
             "      args: [s3cr3t-token]\n      interactiveMode: Never\n",
             plugin);
    setup(&fx, NULL, user);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK_EQ_STR(fx.err.msg, "");
    CHECK_EQ_INT(fx.seen.items[1], 12);
    stop_server(&fx.s);
}

static void
test_api_client__callback_error_aborts_the_fetch(void)
{
    struct fixture fx;

    setup(&fx, NULL, TOKEN_USER);
    fx.seen.abort_after = 2;
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK_EQ_STR(fx.err.msg, "stop here");
    CHECK_EQ_INT(fx.seen.calls, 2);
    stop_server(&fx.s);
}

static void
test_api_client__connection_refused_names_the_server(void)
{
    struct fixture fx;

    setup_no_server(&fx, 1);    /* nothing listens there */
    CHECK_EQ_INT(fetch(&fx), -1);
    CHECK(!strncmp(fx.err.msg, "unable to connect to the server "
                   "https://127.0.0.1:1: ", 52));
}

static void
test_api_client__default_namespace_comes_from_the_context(void)
{
    struct fixture fx;
    char ns[64];

    setup_no_server(&fx, 0);
    CHECK_EQ_INT(kp_live_default_namespace(&fx.o, ns, sizeof(ns), &fx.err),
                 0);
    CHECK_EQ_STR(ns, "prod");
}

/* Count items of the saved List that carry kind and apiVersion. */
static void
check_snapshot_file(const char *path, int *items, int *typed)
{
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 1 << 20);
    size_t n = f ? fread(text, 1, (1 << 20) - 1, f) : 0;
    cJSON *root = cJSON_ParseWithLength(text, n), *it;

    *items = *typed = 0;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(root, "items")) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(it, "kind");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, "apiVersion");

        (*items)++;
        *typed += cJSON_IsString(k) && cJSON_IsString(v);
    }
    CHECK_EQ_STR(cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(root, "kind")), "List");
    cJSON_Delete(root);
    free(text);
    if (f)
        fclose(f);
}

static void
test_snapshot_out__saves_a_typed_list_atomically_with_mode_0600(void)
{
    struct fixture fx;
    char out[400], tmp[410];
    struct stat st;
    int items, typed;

    path_in(out, sizeof(out), "snap.json");
    snprintf(tmp, sizeof(tmp), "%s.tmp", out);
    setup(&fx, NULL, TOKEN_USER);
    fx.o.page_limit = 4;
    fx.seen.so = kp_snapshot_out_open(out, &fx.err);
    CHECK(fx.seen.so != NULL);
    CHECK_EQ_INT(fetch(&fx), 0);
    CHECK(stat(out, &st) != 0);
    CHECK_EQ_INT(kp_snapshot_out_close(fx.seen.so, &fx.err), 0);
    CHECK_EQ_INT(stat(out, &st), 0);
    CHECK_EQ_INT(st.st_mode & 0777, 0600);
    CHECK(stat(tmp, &st) != 0);
    check_snapshot_file(out, &items, &typed);
    CHECK_EQ_INT(items, 3 + 12 + 1 + 3);
    CHECK_EQ_INT(typed, items);
    stop_server(&fx.s);
}

static void
test_snapshot_out__abort_leaves_no_file(void)
{
    struct kp_error err;
    struct kp_snapshot_out *so;
    cJSON *item = cJSON_CreateObject();
    char out[400], tmp[410];
    struct stat st;

    path_in(out, sizeof(out), "aborted.json");
    snprintf(tmp, sizeof(tmp), "%s.tmp", out);
    so = kp_snapshot_out_open(out, &err);
    CHECK(so != NULL);
    CHECK_EQ_INT(kp_snapshot_out_add_item(so, item, "Pod", "v1", &err), 0);
    cJSON_Delete(item);
    kp_snapshot_out_abort(so);
    CHECK(stat(out, &st) != 0);
    CHECK(stat(tmp, &st) != 0);
}

int
main(void)
{
    char cmd[600];

    if (tmpdir_make("kp-test-api") < 0)
        return 2;
    snprintf(certs, sizeof(certs), "%s/pki", tmpdir);
    snprintf(cmd, sizeof(cmd), "sh tests/helpers/make_certs.sh %s", certs);
    if (system(cmd) != 0)
        return 2;
    RUN(test_api_client__lists_every_resource_in_order_with_a_token);
    RUN(test_api_client__follows_continue_tokens_page_by_page);
    RUN(test_api_client__server_page_cap_is_honoured);
    RUN(test_api_client__client_certificate_data_authenticates);
    RUN(test_api_client__client_certificate_files_authenticate);
    RUN(test_api_client__certificate_data_goes_with_a_key_file);
    RUN(test_api_client__forbidden_names_verb_resource_and_scope);
    RUN(test_api_client__forbidden_group_resource_is_qualified);
    RUN(test_api_client__forbidden_optional_list_is_a_warning);
    RUN(test_api_client__unauthorized_token_is_refused_without_echoing_it);
    RUN(test_api_client__expired_continue_restarts_the_list_once);
    RUN(test_api_client__expired_continue_twice_fails_clearly);
    RUN(test_api_client__too_many_requests_is_retried_after_retry_after);
    RUN(test_api_client__retries_are_bounded);
    RUN(test_api_client__server_error_once_is_retried);
    RUN(test_api_client__request_timeout_names_the_server);
    RUN(test_api_client__truncated_body_is_an_error);
    RUN(test_api_client__non_json_body_is_an_error);
    RUN(test_api_client__certificate_from_wrong_ca_is_refused);
    RUN(test_api_client__tls_server_name_is_verified_instead_of_the_host);
    RUN(test_api_client__exec_plugin_token_is_used);
    RUN(test_api_client__callback_error_aborts_the_fetch);
    RUN(test_api_client__connection_refused_names_the_server);
    RUN(test_api_client__default_namespace_comes_from_the_context);
    RUN(test_snapshot_out__saves_a_typed_list_atomically_with_mode_0600);
    RUN(test_snapshot_out__abort_leaves_no_file);
    if (tmpdir_remove() < 0)
        return 2;
    return check_done();
}
