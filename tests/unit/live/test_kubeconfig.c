/*
 * test_kubeconfig.c - kubeconfig loading, merging and selection, as
 * client-go's clientcmd does it (loader_test.go, client_config_test.go,
 * merged_client_builder_test.go, exec_test.go), on files written to a
 * temporary directory.  No network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kubeconfig.h"
#include "tmpdir.h"

static char last_warning[1024];

static const char *
p(const char *name)
{
    static char bufs[4][512];
    static int next;
    char *b = bufs[next++ % 4];

    snprintf(b, sizeof(bufs[0]), "%s/%s", tmpdir, name);
    return b;
}

static void
write_file(const char *name, const char *text, int mode)
{
    write_text(p(name), text, mode);
}

static void
on_warning(void *ctx, const char *msg)
{
    (void)ctx;
    snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

/* One test's flags, the configuration they load and the error. */
struct fixture {
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
};

/* No flags and a clean environment: no KUBECONFIG, HOME without a
 * config. */
static void
reset_env(struct fixture *fx)
{
    memset(&fx->o, 0, sizeof(fx->o));
    fx->o.insecure_skip_tls_verify = -1;
    fx->o.warn = on_warning;
    last_warning[0] = '\0';
    unsetenv("KUBECONFIG");
    unsetenv("KUBERNETES_SERVICE_HOST");
    unsetenv("KUBERNETES_SERVICE_PORT");
    unsetenv("POD_NAMESPACE");
    setenv("HOME", p("home"), 1);
    setenv("KP_SERVICEACCOUNT_DIR", p("sa"), 1);
}

static int
load(struct fixture *fx)
{
    memset(&fx->err, 0, sizeof(fx->err));
    return kp_kubeconfig_load(&fx->rc, &fx->o, &fx->err);
}

/* Write text to the file name, pass it as --kubeconfig and load. */
static int
load_file(struct fixture *fx, const char *name, const char *text)
{
    write_file(name, text, 0600);
    fx->o.kubeconfig = p(name);
    return load(fx);
}

static const char ONE[] =
    "apiVersion: v1\n"
    "kind: Config\n"
    "current-context: dev\n"
    "clusters:\n"
    "- name: dev-cluster\n"
    "  cluster:\n"
    "    server: https://dev.example:6443/\n"
    "    certificate-authority: pki/ca.crt\n"
    "- name: prod-cluster\n"
    "  cluster:\n"
    "    server: https://prod.example\n"
    "    certificate-authority-data: aGVsbG8=\n"
    "    tls-server-name: kubernetes.prod\n"
    "contexts:\n"
    "- name: dev\n"
    "  context: {cluster: dev-cluster, user: dev-user, namespace: team-a}\n"
    "- name: prod\n"
    "  context: {cluster: prod-cluster, user: prod-user}\n"
    "users:\n"
    "- name: dev-user\n"
    "  user:\n"
    "    token: dev-token\n"
    "- name: prod-user\n"
    "  user:\n"
    "    tokenFile: prod.token\n";

static void
write_one(void)
{
    mkdir(p("pki"), 0700);
    write_file("pki/ca.crt", "not really a CA\n", 0600);
    write_file("one.yaml", ONE, 0600);
}

/* Write ONE and pass it as --kubeconfig. */
static void
use_one(struct fixture *fx)
{
    write_one();
    fx->o.kubeconfig = p("one.yaml");
}

/* ---- selection -------------------------------------------------------- */

static void
test_kubeconfig__explicit_file_uses_its_current_context(void)
{
    struct fixture fx;

    reset_env(&fx);
    use_one(&fx);
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.context_name, "dev");
    CHECK_EQ_STR(fx.rc.cluster_name, "dev-cluster");
    CHECK_EQ_STR(fx.rc.user_name, "dev-user");
    CHECK_EQ_STR(fx.rc.server, "https://dev.example:6443");
    CHECK_EQ_STR(fx.rc.namespace, "team-a");
    CHECK_EQ_STR(fx.rc.token, "dev-token");
    CHECK_EQ_STR(fx.rc.ca_file, p("pki/ca.crt"));
    CHECK_EQ_INT(fx.rc.source, KP_CONFIG_KUBECONFIG);
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__context_flag_selects_another_context(void)
{
    struct fixture fx;

    reset_env(&fx);
    use_one(&fx);
    fx.o.context = "prod";
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.server, "https://prod.example");
    CHECK_EQ_STR(fx.rc.namespace, "default");
    CHECK_EQ_STR(fx.rc.tls_server_name, "kubernetes.prod");
    CHECK_EQ_STR(fx.rc.token_file, p("prod.token"));
    CHECK_EQ_INT(fx.rc.ca_data.len, 5);
    CHECK(fx.rc.ca_data.data && !memcmp(fx.rc.ca_data.data, "hello", 5));
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__unknown_context_flag_is_an_error(void)
{
    struct fixture fx;

    reset_env(&fx);
    use_one(&fx);
    fx.o.context = "staging";
    CHECK_EQ_INT(load(&fx), -1);
    CHECK_EQ_INT(fx.err.exit_code, KP_EXIT_ERROR);
    CHECK_EQ_STR(fx.err.msg, "context \"staging\" does not exist");
}

static void
test_kubeconfig__missing_current_context_is_an_error(void)
{
    struct fixture fx;

    reset_env(&fx);
    CHECK_EQ_INT(load_file(&fx, "k", "current-context: gone\ncontexts: []\n"),
                 -1);
    CHECK_EQ_STR(fx.err.msg, "context was not found for specified context: "
                 "gone");
}

static void
test_kubeconfig__cluster_and_user_flags_override_the_context(void)
{
    struct fixture fx;

    reset_env(&fx);
    use_one(&fx);
    fx.o.cluster = "prod-cluster";
    fx.o.user = "prod-user";
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.server, "https://prod.example");
    CHECK(fx.rc.token == NULL);
    CHECK_EQ_STR(fx.rc.token_file, p("prod.token"));
    CHECK_EQ_STR(fx.rc.namespace, "team-a");
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__unknown_cluster_or_user_flag_is_an_error(void)
{
    struct fixture fx;

    reset_env(&fx);
    use_one(&fx);
    fx.o.cluster = "nope";
    CHECK_EQ_INT(load(&fx), -1);
    CHECK_EQ_STR(fx.err.msg, "cluster \"nope\" does not exist");
    fx.o.cluster = NULL;
    fx.o.user = "nobody";
    CHECK_EQ_INT(load(&fx), -1);
    CHECK_EQ_STR(fx.err.msg, "auth info \"nobody\" does not exist");
}

/* ---- files and merging ------------------------------------------------ */

static void
test_kubeconfig__explicit_missing_file_is_an_error(void)
{
    struct fixture fx;
    char want[600];

    reset_env(&fx);
    fx.o.kubeconfig = p("absent.yaml");
    CHECK_EQ_INT(load(&fx), -1);
    snprintf(want, sizeof(want), "cannot read kubeconfig '%s': No such "
             "file or directory", p("absent.yaml"));
    CHECK_EQ_STR(fx.err.msg, want);
}

static void
test_kubeconfig__kubeconfig_list_first_file_wins_per_entry(void)
{
    struct fixture fx;
    char list[1200];

    reset_env(&fx);
    write_file("a.yaml",
               "clusters:\n- name: shared\n  cluster: {server: "
               "https://from-a}\n"
               "users:\n- name: u\n  user: {token: token-a}\n", 0600);
    write_file("b.yaml",
               "current-context: ctx\n"
               "clusters:\n- name: shared\n  cluster: {server: "
               "https://from-b}\n"
               "contexts:\n- name: ctx\n  context: {cluster: shared, user: "
               "u, namespace: from-b}\n"
               "users:\n- name: u\n  user: {token: token-b}\n", 0600);
    snprintf(list, sizeof(list), "%s::%s:%s", p("a.yaml"), p("missing"),
             p("b.yaml"));
    setenv("KUBECONFIG", list, 1);
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.context_name, "ctx");
    CHECK_EQ_STR(fx.rc.server, "https://from-a");
    CHECK_EQ_STR(fx.rc.token, "token-a");
    CHECK_EQ_STR(fx.rc.namespace, "from-b");
    CHECK_EQ_STR(last_warning, "");
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__current_context_of_the_first_file_that_sets_it(void)
{
    struct fixture fx;
    char list[1200];

    reset_env(&fx);
    write_file("a.yaml", "current-context: first\n", 0600);
    write_file("b.yaml",
               "current-context: second\n"
               "clusters:\n- name: c\n  cluster: {server: https://c}\n"
               "contexts:\n- {name: first, context: {cluster: c, namespace: "
               "one}}\n- {name: second, context: {cluster: c, namespace: "
               "two}}\n", 0600);
    snprintf(list, sizeof(list), "%s:%s", p("a.yaml"), p("b.yaml"));
    setenv("KUBECONFIG", list, 1);
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.namespace, "one");
    kp_rest_config_release(&fx.rc);
}

/* Group- or world-readable kubeconfigs are warned about, 0600 is not. */
static void
test_kubeconfig__loose_file_mode_is_warned_about(void)
{
    static const char *const text =
        "current-context: c\n"
        "clusters:\n- name: k\n  cluster: {server: https://k}\n"
        "contexts:\n- {name: c, context: {cluster: k, user: u}}\n"
        "users:\n- name: u\n  user: {token: secret-token}\n";
    static const struct {
        int mode;
        const char *word;
    } rows[] = {{0644, "world"}, {0640, "group"}, {0604, "world"}};
    struct fixture fx;
    char want[1300];
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        reset_env(&fx);
        write_file("loose.yaml", text, rows[i].mode);
        setenv("KUBECONFIG", p("loose.yaml"), 1);
        CHECK_EQ_INT(load(&fx), 0);
        snprintf(want, sizeof(want), "kubeconfig '%s' is %s-readable "
                 "(mode %04o): it may hold credentials; chmod 600 it",
                 p("loose.yaml"), rows[i].word, rows[i].mode);
        CHECK_EQ_STR(last_warning, want);
        CHECK(!strstr(last_warning, "secret-token"));
        kp_rest_config_release(&fx.rc);
    }
    reset_env(&fx);
    write_file("tight.yaml", text, 0600);
    setenv("KUBECONFIG", p("tight.yaml"), 1);
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(last_warning, "");
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__all_missing_list_warns_and_finds_no_config(void)
{
    struct fixture fx;
    char list[1200], want[1300];

    reset_env(&fx);
    snprintf(list, sizeof(list), "%s:%s", p("x"), p("y"));
    setenv("KUBECONFIG", list, 1);
    CHECK_EQ_INT(load(&fx), -1);
    snprintf(want, sizeof(want), "Config not found: %s, %s", p("x"),
             p("y"));
    CHECK_EQ_STR(last_warning, want);
    CHECK(!strncmp(fx.err.msg, "no configuration has been provided", 34));
}

static void
test_kubeconfig__home_config_is_the_default(void)
{
    struct fixture fx;

    reset_env(&fx);
    mkdir(p("home"), 0700);
    mkdir(p("home/.kube"), 0700);
    write_file("home/.kube/config",
               "current-context: c\nclusters:\n- name: c\n  cluster:\n"
               "    server: https://home\ncontexts:\n- name: c\n"
               "  context:\n    cluster: c\n", 0600);
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.server, "https://home");
    kp_rest_config_release(&fx.rc);
    unlink(p("home/.kube/config"));
}

static void
test_kubeconfig__duplicate_name_in_one_file_is_an_error(void)
{
    struct fixture fx;
    char want[600];

    reset_env(&fx);
    CHECK_EQ_INT(load_file(&fx, "dup.yaml",
                           "users:\n- name: u\n  user: {token: a}\n"
                           "- name: u\n  user: {token: b}\n"), -1);
    snprintf(want, sizeof(want), "error loading config file \"%s\": "
             "duplicate name \"u\" in users", p("dup.yaml"));
    CHECK_EQ_STR(fx.err.msg, want);
}

static void
test_kubeconfig__yaml_syntax_error_names_file_and_line(void)
{
    struct fixture fx;
    char want[600];

    reset_env(&fx);
    CHECK_EQ_INT(load_file(&fx, "bad.yaml",
                           "clusters:\n- name: c\n  cluster: [\n"), -1);
    snprintf(want, sizeof(want), "error loading config file \"%s\": yaml: "
             "line ", p("bad.yaml"));
    CHECK(!strncmp(fx.err.msg, want, strlen(want)));
}

static void
test_kubeconfig__bad_base64_names_the_field_not_the_data(void)
{
    struct fixture fx;
    char want[600];

    reset_env(&fx);
    CHECK_EQ_INT(load_file(&fx, "b64.yaml",
        "current-context: c\nclusters:\n- name: c\n  cluster: "
        "{server: https://c}\ncontexts:\n- {name: c, context: "
        "{cluster: c, user: u}}\nusers:\n- name: u\n  user:\n"
        "    client-certificate-data: Zm9v\n"
        "    client-key-data: SECRET!KEY\n"), -1);
    snprintf(want, sizeof(want), "error loading config file \"%s\": "
             "users[\"u\"].client-key-data: illegal base64 data at input "
             "byte 6", p("b64.yaml"));
    CHECK_EQ_STR(fx.err.msg, want);
    CHECK(strstr(fx.err.msg, "SECRET") == NULL);
}

/* ---- overrides -------------------------------------------------------- */

static void
test_kubeconfig__server_and_token_flags_win(void)
{
    struct fixture fx;

    reset_env(&fx);
    use_one(&fx);
    fx.o.context = "prod";
    fx.o.server = "https://elsewhere:8443";
    fx.o.token = "flag-token";
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.server, "https://elsewhere:8443");
    CHECK(fx.rc.tls_server_name == NULL);
    CHECK_EQ_STR(fx.rc.token, "flag-token");
    CHECK(fx.rc.token_file == NULL);
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__insecure_flag_replaces_the_ca(void)
{
    struct fixture fx;

    reset_env(&fx);
    use_one(&fx);
    fx.o.context = "prod";
    fx.o.insecure_skip_tls_verify = 1;
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_INT(fx.rc.insecure, 1);
    CHECK_EQ_INT(fx.rc.ca_data.len, 0);
    CHECK(fx.rc.ca_file == NULL);
    kp_rest_config_release(&fx.rc);
    fx.o.insecure_skip_tls_verify = -1;
    fx.o.certificate_authority = p("pki/ca.crt");
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.ca_file, p("pki/ca.crt"));
    CHECK_EQ_INT(fx.rc.ca_data.len, 0);
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__server_flag_alone_needs_no_kubeconfig(void)
{
    struct fixture fx;

    reset_env(&fx);
    fx.o.server = "https://flag-only:6443";
    fx.o.token = "t";
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.server, "https://flag-only:6443");
    CHECK_EQ_STR(fx.rc.namespace, "default");
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__server_without_scheme_gets_one(void)
{
    struct fixture fx;

    reset_env(&fx);
    fx.o.server = "10.0.0.1:6443";
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.server, "http://10.0.0.1:6443");
    kp_rest_config_release(&fx.rc);
    fx.o.insecure_skip_tls_verify = 1;
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.server, "https://10.0.0.1:6443");
    kp_rest_config_release(&fx.rc);
}

/* ---- validation ------------------------------------------------------- */

static void
test_kubeconfig__insecure_with_a_ca_is_refused(void)
{
    struct fixture fx;

    reset_env(&fx);
    CHECK_EQ_INT(load_file(&fx, "k",
        "current-context: c\nclusters:\n- name: c\n  cluster:\n"
        "    server: https://c\n    insecure-skip-tls-verify: true\n"
        "    certificate-authority-data: aGVsbG8=\n"
        "contexts:\n- {name: c, context: {cluster: c}}\n"), -1);
    CHECK_EQ_STR(fx.err.msg, "specifying a root certificates file with the "
                 "insecure flag is not allowed");
}

static void
test_kubeconfig__unreadable_ca_file_is_reported(void)
{
    struct fixture fx;
    char want[600];

    reset_env(&fx);
    CHECK_EQ_INT(load_file(&fx, "k",
        "current-context: c\nclusters:\n- name: c\n  cluster:\n"
        "    server: https://c\n    certificate-authority: nope.crt\n"
        "contexts:\n- {name: c, context: {cluster: c}}\n"), -1);
    snprintf(want, sizeof(want), "unable to read certificate-authority %s "
             "for c due to No such file or directory", p("nope.crt"));
    CHECK_EQ_STR(fx.err.msg, want);
}

static void
test_kubeconfig__client_certificate_needs_a_key(void)
{
    struct fixture fx;

    reset_env(&fx);
    CHECK_EQ_INT(load_file(&fx, "k",
        "current-context: c\nclusters:\n- name: c\n  cluster:\n"
        "    server: https://c\ncontexts:\n- {name: c, context: "
        "{cluster: c, user: u}}\nusers:\n- name: u\n  user:\n"
        "    client-certificate-data: aGVsbG8=\n"), -1);
    CHECK_EQ_STR(fx.err.msg, "client-key-data or client-key must be "
                 "specified for u to use the clientCert authentication "
                 "method");
}

static void
test_kubeconfig__exec_v1_needs_interactive_mode(void)
{
    struct fixture fx;
    static const char base[] =
        "current-context: c\nclusters:\n- name: c\n  cluster:\n"
        "    server: https://c\ncontexts:\n- {name: c, context: "
        "{cluster: c, user: u}}\nusers:\n- name: u\n  user:\n"
        "    exec:\n      command: bin/plugin\n";
    char text[1024];

    reset_env(&fx);
    snprintf(text, sizeof(text), "%s      apiVersion: "
             "client.authentication.k8s.io/v1\n", base);
    CHECK_EQ_INT(load_file(&fx, "k", text), -1);
    CHECK_EQ_STR(fx.err.msg, "interactiveMode must be specified for u to use "
                 "exec authentication plugin");
    snprintf(text, sizeof(text), "%s      apiVersion: "
             "client.authentication.k8s.io/v1beta1\n", base);
    write_file("k", text, 0600);
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.exec->interactive_mode, "IfAvailable");
    CHECK_EQ_STR(fx.rc.exec->command, p("bin/plugin"));
    kp_rest_config_release(&fx.rc);
}

/* ---- in-cluster ------------------------------------------------------- */

static void
write_service_account(void)
{
    mkdir(p("sa"), 0700);
    write_file("sa/token", "sa-token\n", 0600);
    write_file("sa/ca.crt", "CA\n", 0600);
    write_file("sa/namespace", "kube-tools\n", 0600);
    setenv("KUBERNETES_SERVICE_HOST", "10.96.0.1", 1);
    setenv("KUBERNETES_SERVICE_PORT", "443", 1);
}

static void
test_kubeconfig__in_cluster_without_kubeconfig(void)
{
    struct fixture fx;

    reset_env(&fx);
    write_service_account();
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_INT(fx.rc.source, KP_CONFIG_IN_CLUSTER);
    CHECK_EQ_STR(fx.rc.server, "https://10.96.0.1:443");
    CHECK_EQ_STR(fx.rc.ca_file, p("sa/ca.crt"));
    CHECK_EQ_STR(fx.rc.namespace, "kube-tools");
    CHECK_EQ_INT(kp_rest_config_credentials(&fx.rc, &fx.err), 0);
    CHECK_EQ_STR(fx.rc.token, "sa-token");
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__in_cluster_honours_server_token_and_ca_flags(void)
{
    struct fixture fx;

    reset_env(&fx);
    write_service_account();
    setenv("KUBERNETES_SERVICE_HOST", "fd00::1", 1);
    setenv("POD_NAMESPACE", "from-env", 1);
    fx.o.token = "flag-token";
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_STR(fx.rc.server, "https://[fd00::1]:443");
    CHECK_EQ_STR(fx.rc.namespace, "from-env");
    CHECK_EQ_INT(kp_rest_config_credentials(&fx.rc, &fx.err), 0);
    CHECK_EQ_STR(fx.rc.token, "flag-token");
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__kubeconfig_with_a_server_beats_in_cluster(void)
{
    struct fixture fx;

    reset_env(&fx);
    write_service_account();
    use_one(&fx);
    fx.o.context = "prod";
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_INT(fx.rc.source, KP_CONFIG_KUBECONFIG);
    CHECK_EQ_STR(fx.rc.server, "https://prod.example");
    /* no namespace in the context: the pod's namespace, as kubectl */
    CHECK_EQ_STR(fx.rc.namespace, "kube-tools");
    kp_rest_config_release(&fx.rc);
}

/* ---- credentials ------------------------------------------------------ */

static void
test_kubeconfig__token_file_is_read_and_trimmed(void)
{
    struct fixture fx;

    reset_env(&fx);
    use_one(&fx);
    write_file("prod.token", "  file-token\n", 0600);
    fx.o.context = "prod";
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_INT(kp_rest_config_credentials(&fx.rc, &fx.err), 0);
    CHECK_EQ_STR(fx.rc.token, "file-token");
    kp_rest_config_release(&fx.rc);
    unlink(p("prod.token"));
    CHECK_EQ_INT(load(&fx), 0);
    CHECK_EQ_INT(kp_rest_config_credentials(&fx.rc, &fx.err), -1);
    CHECK(!strncmp(fx.err.msg, "cannot read token file '", 24));
    kp_rest_config_release(&fx.rc);
}

/* A kubeconfig whose user runs plugin.sh (written by the caller). */
static void
write_exec_kubeconfig(const char *api_version, const char *extra)
{
    char text[2048];

    snprintf(text, sizeof(text),
             "current-context: c\nclusters:\n- name: c\n  cluster:\n"
             "    server: https://c.example\n"
             "    certificate-authority-data: aGVsbG8=\n"
             "    extensions:\n    - name: client.authentication.k8s.io/exec\n"
             "      extension: {audience: kp, retries: 3}\n"
             "contexts:\n- {name: c, context: {cluster: c, user: u}}\n"
             "users:\n- name: u\n  user:\n    exec:\n"
             "      apiVersion: %s\n      command: ./plugin.sh\n"
             "      args: [one, two words]\n"
             "      env: [{name: KP_PLUGIN_MODE, value: fancy}]\n"
             "      interactiveMode: Never\n%s",
             api_version, extra ? extra : "");
    write_file("exec.yaml", text, 0600);
}

static int
run_exec(struct fixture *fx)
{
    reset_env(fx);
    fx->o.kubeconfig = p("exec.yaml");
    if (load(fx) < 0)
        return -2;
    return kp_rest_config_credentials(&fx->rc, &fx->err);
}

static void
test_kubeconfig__exec_plugin_gets_args_env_and_exec_info(void)
{
    struct fixture fx;
    char expect[1024], got[1024] = "";
    FILE *f;

    write_file("plugin.sh", "#!/bin/sh\n"
               "printf '%s|%s|%s|%s\\n' \"$1\" \"$2\" \"$KP_PLUGIN_MODE\" "
               "\"$KUBERNETES_EXEC_INFO\" > \"$(dirname \"$0\")/seen\"\n"
               "echo '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
               "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"tok-1\","
               "\"expirationTimestamp\":\"2030-01-02T03:04:05Z\"}}'\n", 0700);
    write_exec_kubeconfig("client.authentication.k8s.io/v1",
                          "      provideClusterInfo: true\n");
    CHECK_EQ_INT(run_exec(&fx), 0);
    CHECK_EQ_STR(fx.rc.token, "tok-1");
    CHECK_EQ_INT((long long)fx.rc.expiry, 1893553445LL);
    kp_rest_config_release(&fx.rc);
    f = fopen(p("seen"), "r");
    if (f && !fgets(got, sizeof(got), f))
        got[0] = '\0';
    if (f)
        fclose(f);
    snprintf(expect, sizeof(expect), "one|two words|fancy|{\"kind\":"
             "\"ExecCredential\",\"apiVersion\":"
             "\"client.authentication.k8s.io/v1\",\"spec\":{\"cluster\":"
             "{\"server\":\"https://c.example\","
             "\"certificate-authority-data\":\"aGVsbG8=\",\"config\":"
             "{\"audience\":\"kp\",\"retries\":3}},\"interactive\":false}}\n");
    CHECK_EQ_STR(got, expect);
}

static void
test_kubeconfig__exec_plugin_may_return_a_client_certificate(void)
{
    struct fixture fx;

    write_file("plugin.sh", "#!/bin/sh\n"
               "echo '{\"apiVersion\":\"client.authentication.k8s.io/"
               "v1beta1\",\"kind\":\"ExecCredential\",\"status\":"
               "{\"clientCertificateData\":\"CERT\",\"clientKeyData\":"
               "\"KEY\"}}'\n", 0700);
    write_exec_kubeconfig("client.authentication.k8s.io/v1beta1", NULL);
    CHECK_EQ_INT(run_exec(&fx), 0);
    CHECK(fx.rc.token == NULL);
    CHECK_EQ_INT(fx.rc.cert_data.len, 4);
    CHECK_EQ_INT(fx.rc.key_data.len, 3);
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__exec_plugin_failures_are_explained(void)
{
    struct fixture fx;

    write_file("plugin.sh", "#!/bin/sh\nexit 3\n", 0700);
    write_exec_kubeconfig("client.authentication.k8s.io/v1", NULL);
    CHECK_EQ_INT(run_exec(&fx), -1);
    CHECK(strstr(fx.err.msg, "plugin.sh failed with exit code 3") != NULL);
    kp_rest_config_release(&fx.rc);
    write_file("plugin.sh", "#!/bin/sh\necho '{\"apiVersion\":"
               "\"client.authentication.k8s.io/v1beta1\",\"kind\":"
               "\"ExecCredential\",\"status\":{\"token\":\"x\"}}'\n", 0700);
    CHECK_EQ_INT(run_exec(&fx), -1);
    CHECK_EQ_STR(fx.err.msg, "getting credentials: exec plugin is configured "
                 "to use API version client.authentication.k8s.io/v1, "
                 "plugin returned version "
                 "client.authentication.k8s.io/v1beta1");
    kp_rest_config_release(&fx.rc);
    write_file("plugin.sh", "#!/bin/sh\necho '{\"apiVersion\":"
               "\"client.authentication.k8s.io/v1\",\"kind\":"
               "\"ExecCredential\",\"status\":{}}'\n", 0700);
    CHECK_EQ_INT(run_exec(&fx), -1);
    CHECK_EQ_STR(fx.err.msg, "getting credentials: exec plugin didn't "
                 "return a token or cert/key pair");
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__exec_plugin_not_found_shows_the_install_hint(void)
{
    struct fixture fx;

    write_exec_kubeconfig("client.authentication.k8s.io/v1",
                          "      installHint: install it with apt\n");
    unlink(p("plugin.sh"));
    CHECK_EQ_INT(run_exec(&fx), -1);
    CHECK(strstr(fx.err.msg, "plugin.sh not found: install it with apt") !=
          NULL);
    kp_rest_config_release(&fx.rc);
}

static void
test_kubeconfig__base64_round_trip(void)
{
    struct kp_arena a;
    struct kp_blob b;
    struct kp_error err;
    char *enc = kp_base64_encode((const unsigned char *)"kubectl", 7);

    kp_arena_init(&a);
    CHECK_EQ_STR(enc, "a3ViZWN0bA==");
    CHECK_EQ_INT(kp_base64_decode(&a, "a3Vi\nZWN0bA==", &b, &err), 0);
    CHECK_EQ_INT(b.len, 7);
    CHECK(!memcmp(b.data, "kubectl", 7));
    CHECK_EQ_INT(kp_base64_decode(&a, "a3ViZWN0bA", &b, &err), -1);
    CHECK_EQ_INT(kp_base64_decode(&a, "a3ViZWN0bA==QQ==", &b, &err), -1);
    free(enc);
    kp_arena_release(&a);
}

int
main(void)
{
    if (tmpdir_make("kp-test-kubeconfig") < 0 || chdir(tmpdir) != 0)
        return 2;
    RUN(test_kubeconfig__explicit_file_uses_its_current_context);
    RUN(test_kubeconfig__context_flag_selects_another_context);
    RUN(test_kubeconfig__unknown_context_flag_is_an_error);
    RUN(test_kubeconfig__missing_current_context_is_an_error);
    RUN(test_kubeconfig__cluster_and_user_flags_override_the_context);
    RUN(test_kubeconfig__unknown_cluster_or_user_flag_is_an_error);
    RUN(test_kubeconfig__explicit_missing_file_is_an_error);
    RUN(test_kubeconfig__kubeconfig_list_first_file_wins_per_entry);
    RUN(test_kubeconfig__current_context_of_the_first_file_that_sets_it);
    RUN(test_kubeconfig__all_missing_list_warns_and_finds_no_config);
    RUN(test_kubeconfig__loose_file_mode_is_warned_about);
    RUN(test_kubeconfig__home_config_is_the_default);
    RUN(test_kubeconfig__duplicate_name_in_one_file_is_an_error);
    RUN(test_kubeconfig__yaml_syntax_error_names_file_and_line);
    RUN(test_kubeconfig__bad_base64_names_the_field_not_the_data);
    RUN(test_kubeconfig__server_and_token_flags_win);
    RUN(test_kubeconfig__insecure_flag_replaces_the_ca);
    RUN(test_kubeconfig__server_flag_alone_needs_no_kubeconfig);
    RUN(test_kubeconfig__server_without_scheme_gets_one);
    RUN(test_kubeconfig__insecure_with_a_ca_is_refused);
    RUN(test_kubeconfig__unreadable_ca_file_is_reported);
    RUN(test_kubeconfig__client_certificate_needs_a_key);
    RUN(test_kubeconfig__exec_v1_needs_interactive_mode);
    RUN(test_kubeconfig__in_cluster_without_kubeconfig);
    RUN(test_kubeconfig__in_cluster_honours_server_token_and_ca_flags);
    RUN(test_kubeconfig__kubeconfig_with_a_server_beats_in_cluster);
    RUN(test_kubeconfig__token_file_is_read_and_trimmed);
    RUN(test_kubeconfig__exec_plugin_gets_args_env_and_exec_info);
    RUN(test_kubeconfig__exec_plugin_may_return_a_client_certificate);
    RUN(test_kubeconfig__exec_plugin_failures_are_explained);
    RUN(test_kubeconfig__exec_plugin_not_found_shows_the_install_hint);
    RUN(test_kubeconfig__base64_round_trip);
    if (chdir("/") != 0 || tmpdir_remove() < 0)
        return 2;
    return check_done();
}
