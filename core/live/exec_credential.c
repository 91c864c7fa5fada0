/*
 * exec_credential.c - client-go exec credential plugins.
 *
 * Mirrors k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go
 * (Authenticator.refreshCredsLocked): the plugin runs without a shell,
 * with KUBERNETES_EXEC_INFO describing the request (and the cluster when
 * provideClusterInfo is set) in its environment, its stderr passed
 * through and its stdin given only in interactive mode; what it prints
 * on stdout must be an ExecCredential of the configured apiVersion with
 * status.token or status.clientCertificateData + clientKeyData.
 *
 * Messages never quote the plugin's output: it holds secrets.
 */
#include "kubeconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "read_file.h"

#define EXEC_MAX_OUTPUT ((int)KP_CAP_EXEC_OUTPUT)
/*
 * How long a plugin may run without --request-timeout: client-go waits
 * for ever (exec.go's cmd.Run has no deadline), which hangs a pipeline
 * on a plugin that never exits.  A plugin that may prompt (interactive)
 * gets five minutes for its user.
 */
#define EXEC_DEFAULT_TIMEOUT_MS (60 * 1000L)
#define EXEC_INTERACTIVE_TIMEOUT_MS (5 * 60 * 1000L)

/* What the child needs; all kp_xmalloc'ed, freed by child_release. */
struct child {
    char **argv;
    char **envp;
    size_t nenv;
    int interactive;
    pid_t pid;
    long deadline_ms;           /* CLOCK_MONOTONIC; see EXEC_*TIMEOUT_MS */
    long timeout_ms;            /* for the message */
    int timed_out;
    int from_flag;              /* timeout_ms is --request-timeout's */
    int out_fd;                 /* read end of the child's stdout */
    int err_fd;                 /* read end of the exec-failure pipe */
};

static const char *
json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

/* ---- KUBERNETES_EXEC_INFO --------------------------------------------- */

/* The CA file for the plugin's cluster info: whole, at most 1 MiB. */
static char *
read_small_file(const char *path, size_t *len)
{
    char *buf;

    if (kp_read_file(path, KP_CAP_CA_FILE, 0, &buf, len) != 0)
        return NULL;
    return buf;
}

static void
add_ca_data(cJSON *cl, const struct kp_rest_config *rc)
{
    size_t len = 0;
    char *file = NULL, *b64;

    if (rc->ca_data.len) {
        b64 = kp_base64_encode(rc->ca_data.data, rc->ca_data.len);
    } else if (rc->ca_file) {
        file = read_small_file(rc->ca_file, &len);
        if (!file || !len) {
            free(file);
            return;
        }
        b64 = kp_base64_encode((unsigned char *)file, len);
        free(file);
    } else {
        return;
    }
    cJSON_AddStringToObject(cl, "certificate-authority-data", b64);
    free(b64);
}

/* clientauthentication Cluster, with Go's omitempty. */
static cJSON *
cluster_json(const struct kp_rest_config *rc)
{
    cJSON *cl = cJSON_CreateObject();

    cJSON_AddStringToObject(cl, "server", rc->server);
    if (rc->tls_server_name)
        cJSON_AddStringToObject(cl, "tls-server-name", rc->tls_server_name);
    if (rc->insecure)
        cJSON_AddTrueToObject(cl, "insecure-skip-tls-verify");
    add_ca_data(cl, rc);
    if (rc->proxy_url)
        cJSON_AddStringToObject(cl, "proxy-url", rc->proxy_url);
    if (rc->disable_compression)
        cJSON_AddTrueToObject(cl, "disable-compression");
    if (rc->exec_cluster_config) {
        cJSON *cfg = cJSON_Parse(rc->exec_cluster_config);

        if (cfg)
            cJSON_AddItemToObject(cl, "config", cfg);
    }
    return cl;
}

static char *
exec_info(const struct kp_rest_config *rc, int interactive)
{
    cJSON *root = cJSON_CreateObject(), *spec;
    char *txt, *out;

    cJSON_AddStringToObject(root, "kind", "ExecCredential");
    cJSON_AddStringToObject(root, "apiVersion", rc->exec->api_version);
    spec = cJSON_AddObjectToObject(root, "spec");
    if (rc->exec->provide_cluster_info)
        cJSON_AddItemToObject(spec, "cluster", cluster_json(rc));
    cJSON_AddBoolToObject(spec, "interactive", interactive);
    txt = cJSON_PrintUnformatted(root);
    out = kp_xstrdup(txt);
    cJSON_free(txt);
    cJSON_Delete(root);
    return out;
}

/* ---- argv and environment --------------------------------------------- */

static char *
env_entry(const char *name, const char *value)
{
    size_t n = strlen(name) + strlen(value) + 2;
    char *s = kp_xmalloc(n);

    snprintf(s, n, "%s=%s", name, value);
    return s;
}

static int
same_name(const char *a, const char *b)
{
    size_t na = strcspn(a, "="), nb = strcspn(b, "=");

    return na == nb && !strncmp(a, b, na);
}

/* Drop every entry that a later one with the same name replaces. */
static void
env_dedup(struct child *c)
{
    size_t i, j, out = 0;

    for (i = 0; i < c->nenv; i++) {
        int replaced = 0;

        for (j = i + 1; j < c->nenv && !replaced; j++)
            replaced = same_name(c->envp[i], c->envp[j]);
        if (replaced)
            free(c->envp[i]);
        else
            c->envp[out++] = c->envp[i];
    }
    c->nenv = out;
    c->envp[out] = NULL;
}

/* os.Environ() + exec.env + KUBERNETES_EXEC_INFO, later ones winning. */
static void
build_env(struct child *c, const struct kp_exec_config *x, const char *info)
{
    size_t n = 0, i;

    while (environ && environ[n])
        n++;
    c->envp = kp_xcalloc(n + x->nenv + 2, sizeof(*c->envp));
    for (i = 0; i < n; i++)
        c->envp[c->nenv++] = kp_xstrdup(environ[i]);
    for (i = 0; i < x->nenv; i++)
        c->envp[c->nenv++] = env_entry(x->env[i].name, x->env[i].value);
    c->envp[c->nenv++] = env_entry("KUBERNETES_EXEC_INFO", info);
    env_dedup(c);
}

static void
build_argv(struct child *c, const struct kp_exec_config *x)
{
    size_t i;

    c->argv = kp_xcalloc(x->nargs + 2, sizeof(*c->argv));
    c->argv[0] = kp_xstrdup(x->command);
    for (i = 0; i < x->nargs; i++)
        c->argv[i + 1] = kp_xstrdup(x->args[i]);
}

static void
child_release(struct child *c)
{
    size_t i;

    for (i = 0; c->argv && c->argv[i]; i++)
        free(c->argv[i]);
    for (i = 0; c->envp && i < c->nenv; i++)
        free(c->envp[i]);
    free(c->argv);
    free(c->envp);
    if (c->out_fd >= 0)
        close(c->out_fd);
    if (c->err_fd >= 0)
        close(c->err_fd);
}

/* ---- running the plugin ----------------------------------------------- */

/* In the child: wire fds, exec, report errno on failure.  Never returns. */
static void
child_exec(const struct child *c, int out_w, int err_w)
{
    int e;

    if (dup2(out_w, STDOUT_FILENO) < 0)
        _exit(127);
    if (!c->interactive) {
        int null = open("/dev/null", O_RDONLY);

        /* its own process group: what it started is killed with it on
         * the deadline (an interactive plugin keeps the terminal's) */
        setpgid(0, 0);

        if (null >= 0 && null != STDIN_FILENO) {
            dup2(null, STDIN_FILENO);
            close(null);
        }
    }
    environ = c->envp;
    execvp(c->argv[0], c->argv);
    e = errno;
    if (write(err_w, &e, sizeof(e)) < 0)
        _exit(127);
    _exit(127);
}

static int
spawn(struct child *c, struct kp_error *err)
{
    int out[2], ep[2];

    if (pipe2(out, O_CLOEXEC) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "exec: pipe: %s",
                         strerror(errno));
    if (pipe2(ep, O_CLOEXEC) < 0) {
        close(out[0]);
        close(out[1]);
        return kp_errorf(err, KP_EXIT_ERROR, "exec: pipe: %s",
                         strerror(errno));
    }
    fflush(NULL);
    c->pid = fork();
    if (c->pid == 0)
        child_exec(c, out[1], ep[1]);
    close(out[1]);
    close(ep[1]);
    c->out_fd = out[0];
    c->err_fd = ep[0];
    if (c->pid < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "exec: fork: %s",
                         strerror(errno));
    return 0;
}

static long
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The deadline passed: kill the plugin (and its group when it has one). */
static void
kill_child(struct child *c)
{
    c->timed_out = 1;
    if (!c->interactive)
        kill(-c->pid, SIGKILL);
    kill(c->pid, SIGKILL);
}

/* Wait until fd is readable or the deadline passes: 1, or 0 timed out. */
static int
wait_readable(struct child *c, int fd)
{
    struct pollfd p = {fd, POLLIN, 0};

    for (;;) {
        long left = c->deadline_ms - now_ms();
        int r;

        if (left <= 0)
            return 0;
        r = poll(&p, 1, left > 1000 ? 1000 : (int)left);
        if (r > 0 || (r < 0 && errno != EINTR))
            return 1;
    }
}

/*
 * Read the child's stdout until it closes it; -1 when it prints more
 * than the cap, -2 when the deadline passes first.
 */
static int
read_output(struct child *c, char **out, size_t *len)
{
    size_t n = 0, cap = 8192;
    char *buf = kp_xmalloc(cap);

    for (;;) {
        ssize_t got;

        if (cap - n < 2) {
            if (cap >= EXEC_MAX_OUTPUT) {
                free(buf);
                return -1;
            }
            cap *= 2;
            buf = kp_xrealloc(buf, cap);
        }
        if (!wait_readable(c, c->out_fd)) {
            memset(buf, 0, n);
            free(buf);
            return -2;
        }
        got = read(c->out_fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

/* waitpid until the deadline, then kill the child and reap it. */
static int
wait_child(struct child *c)
{
    int status;
    pid_t r;

    for (;;) {
        r = waitpid(c->pid, &status, WNOHANG);
        if (r == c->pid)
            return status;
        if (r < 0 && errno != EINTR)
            return -1;
        if (!c->timed_out && now_ms() >= c->deadline_ms)
            kill_child(c);
        if (r == 0) {
            struct timespec ts = {0, 10 * 1000 * 1000};

            nanosleep(&ts, NULL);
        }
    }
}

static int
timed_out(const struct child *c, const struct kp_exec_config *x,
          struct kp_error *err)
{
    long ms = c->timeout_ms;

    return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec: "
                     "executable %s did not finish within %ld%s (%s); it "
                     "was killed", x->command, ms % 1000 ? ms : ms / 1000,
                     ms % 1000 ? "ms" : "s", c->from_flag ?
                     "--request-timeout" : "the exec plugin default without "
                     "--request-timeout");
}

static int
exec_failed(const struct kp_exec_config *x, int e, struct kp_error *err)
{
    if (e == ENOENT && x->install_hint)
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec: "
                         "executable %s not found: %s", x->command,
                         x->install_hint);
    if (e == ENOENT)
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec: "
                         "executable %s not found", x->command);
    return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec: "
                     "cannot run %s: %s", x->command, strerror(e));
}

/* Reap the child and turn how it ended into an error, or 0. */
static int
finish_child(struct child *c, const struct kp_exec_config *x,
             struct kp_error *err)
{
    int e = 0, status;
    ssize_t got;

    got = 0;
    if (wait_readable(c, c->err_fd)) {
        do {
            got = read(c->err_fd, &e, sizeof(e));
        } while (got < 0 && errno == EINTR);
    }
    status = wait_child(c);
    if (c->timed_out)
        return timed_out(c, x, err);
    if (got == (ssize_t)sizeof(e))
        return exec_failed(x, e, err);
    if (status < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec: "
                         "waitpid: %s", strerror(errno));
    if (WIFSIGNALED(status))
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec: "
                         "executable %s was killed by signal %d",
                         x->command, WTERMSIG(status));
    if (WEXITSTATUS(status) != 0)
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec: "
                         "executable %s failed with exit code %d",
                         x->command, WEXITSTATUS(status));
    return 0;
}

/* ---- the ExecCredential ----------------------------------------------- */

/* RFC 3339, as metav1.Time: 2006-01-02T15:04:05[.frac](Z|+hh:mm). */
static int
parse_rfc3339(const char *s, time_t *out)
{
    struct tm tm;
    int oh = 0, om = 0, n = 0;
    char sign;

    memset(&tm, 0, sizeof(tm));
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
        n != 19)
        return -1;
    s += n;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            ;
    sign = *s;
    if (sign == 'Z' && s[1] == '\0')
        sign = '+';
    else if ((sign != '+' && sign != '-') ||
             sscanf(s + 1, "%2d:%2d%n", &oh, &om, &n) != 2 || n != 5 ||
             s[6] != '\0')
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    *out = timegm(&tm) - (sign == '-' ? -1 : 1) * (oh * 3600 + om * 60);
    return 0;
}

/*
 * The plugin's output is quoted only when it reads like an apiVersion
 * ("client.authentication.k8s.io/v1"): anything else may be the very
 * credential the plugin printed in the wrong place.
 */
static int
looks_like_version(const char *s)
{
    size_t n = strlen(s);

    return n <= 64 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789./-")
           == n && strchr(s, '/') != NULL;
}

static int
check_header(const cJSON *root, const struct kp_exec_config *x,
             struct kp_error *err)
{
    const char *kind = json_str(root, "kind");
    const char *api = json_str(root, "apiVersion");

    if (!kind || strcmp(kind, "ExecCredential"))
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin %s: output is not an ExecCredential",
                         x->command);
    if (!api || strcmp(api, x->api_version))
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin is configured to use API version %s, "
                         "plugin returned version %s", x->api_version,
                         !api ? "(none)" : looks_like_version(api) ? api
                         : "(not an API version)");
    return 0;
}

static void
set_blob(struct kp_arena *a, struct kp_blob *b, const char *s)
{
    b->len = strlen(s);
    b->data = (unsigned char *)kp_arena_strdup(a, s);
}

static int
take_status(struct kp_rest_config *rc, const cJSON *status,
            struct kp_error *err)
{
    const char *tok = json_str(status, "token");
    const char *crt = json_str(status, "clientCertificateData");
    const char *key = json_str(status, "clientKeyData");
    const char *exp = json_str(status, "expirationTimestamp");

    if (!cJSON_IsObject(status))
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin didn't return a status field");
    if (!crt != !key)
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin returned only certificate or key, not "
                         "both");
    if (!tok && !crt)
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin didn't return a token or cert/key pair");
    if (exp && parse_rfc3339(exp, &rc->expiry) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin returned an invalid expirationTimestamp");
    if (tok)
        rc->token = kp_arena_strdup(&rc->arena, tok);
    if (crt) {
        set_blob(&rc->arena, &rc->cert_data, crt);
        set_blob(&rc->arena, &rc->key_data, key);
    }
    return 0;
}

static int
parse_credential(struct kp_rest_config *rc, const char *text, size_t len,
                 struct kp_error *err)
{
    cJSON *root = cJSON_ParseWithLength(text, len);
    int r;

    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin %s: decoding stdout: not a JSON object",
                         rc->exec->command);
    }
    r = check_header(root, rc->exec, err);
    if (r == 0)
        r = take_status(rc, cJSON_GetObjectItemCaseSensitive(root,
                                                             "status"),
                        err);
    cJSON_Delete(root);
    return r;
}

/* ---- entry point ------------------------------------------------------ */

static int
interactive_mode(const struct kp_exec_config *x, int *interactive,
                 struct kp_error *err)
{
    int tty = isatty(STDIN_FILENO);

    *interactive = 0;
    if (!strcmp(x->interactive_mode, "Never"))
        return 0;
    if (!strcmp(x->interactive_mode, "Always") && !tty)
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin cannot support interactive mode: standard "
                         "input is not a terminal");
    *interactive = tty;
    return 0;
}

static int
check_api_version(const struct kp_exec_config *x, struct kp_error *err)
{
    if (!strcmp(x->api_version, "client.authentication.k8s.io/v1") ||
        !strcmp(x->api_version, "client.authentication.k8s.io/v1beta1"))
        return 0;
    return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                     "plugin: invalid apiVersion \"%s\"", x->api_version);
}

static int
run_child(struct kp_rest_config *rc, struct child *c, struct kp_error *err)
{
    char *out = NULL, *info = exec_info(rc, c->interactive);
    size_t len = 0;
    int r;

    build_argv(c, rc->exec);
    build_env(c, rc->exec, info);
    free(info);
    if (spawn(c, err) < 0)
        return -1;
    c->timeout_ms = rc->exec_timeout_ms > 0 ? rc->exec_timeout_ms :
                    c->interactive ? EXEC_INTERACTIVE_TIMEOUT_MS :
                    EXEC_DEFAULT_TIMEOUT_MS;
    c->from_flag = rc->exec_timeout_ms > 0;
    c->deadline_ms = now_ms() + c->timeout_ms;
    r = read_output(c, &out, &len);
    if (r < 0) {
        kill_child(c);
        wait_child(c);
        if (r == -2)
            return timed_out(c, rc->exec, err);
        return kp_errorf(err, KP_EXIT_ERROR, "getting credentials: exec "
                         "plugin %s printed more than %d bytes",
                         rc->exec->command, EXEC_MAX_OUTPUT);
    }
    r = finish_child(c, rc->exec, err);
    if (r == 0)
        r = parse_credential(rc, out, len, err);
    memset(out, 0, len);
    free(out);
    return r;
}

int
kp_exec_credential_run(struct kp_rest_config *rc, struct kp_error *err)
{
    struct child c;
    int r;

    memset(&c, 0, sizeof(c));
    c.out_fd = -1;
    c.err_fd = -1;
    if (check_api_version(rc->exec, err) < 0 ||
        interactive_mode(rc->exec, &c.interactive, err) < 0)
        return -1;
    r = run_child(rc, &c, err);
    child_release(&c);
    return r;
}
