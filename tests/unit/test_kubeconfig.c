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

static char tmpdir[256];
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
    const char *path = p(name);
    FILE *f = fopen(path, "w");

    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    chmod(path, (mode_t)mode);
}

static void
on_warning(void *ctx, const char *msg)
{
    (void)ctx;
    snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

/* A clean environment: no KUBECONFIG, HOME without a config. */
static void
reset_env(struct kp_kubeconfig_overrides *o)
{
    memset(o, 0, sizeof(*o));
    o->insecure_skip_tls_verify = -1;
    o->warn = on_warning;
    last_warning[0] = '\0';
    unsetenv("KUBECONFIG");
    unsetenv("KUBERNETES_SERVICE_HOST");
    unsetenv("KUBERNETES_SERVICE_PORT");
    unsetenv("POD_NAMESPACE");
    setenv("HOME", p("home"), 1);
    setenv("KP_SERVICEACCOUNT_DIR", p("sa"), 1);
}

static int
load(struct kp_rest_config *rc, const struct kp_kubeconfig_overrides *o,
     struct kp_error *err)
{
    memset(err, 0, sizeof(*err));
    return kp_kubeconfig_load(rc, o, err);
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

/* ---- selection -------------------------------------------------------- */

static void
test_kubeconfig__explicit_file_uses_its_current_context(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_one();
    o.kubeconfig = p("one.yaml");
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.context_name, "dev");
    CHECK_EQ_STR(rc.cluster_name, "dev-cluster");
    CHECK_EQ_STR(rc.user_name, "dev-user");
    CHECK_EQ_STR(rc.server, "https://dev.example:6443");
    CHECK_EQ_STR(rc.namespace, "team-a");
    CHECK_EQ_STR(rc.token, "dev-token");
    CHECK_EQ_STR(rc.ca_file, p("pki/ca.crt"));
    CHECK_EQ_INT(rc.source, KP_CONFIG_KUBECONFIG);
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__context_flag_selects_another_context(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_one();
    o.kubeconfig = p("one.yaml");
    o.context = "prod";
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.server, "https://prod.example");
    CHECK_EQ_STR(rc.namespace, "default");
    CHECK_EQ_STR(rc.tls_server_name, "kubernetes.prod");
    CHECK_EQ_STR(rc.token_file, p("prod.token"));
    CHECK_EQ_INT(rc.ca_data.len, 5);
    CHECK(rc.ca_data.data && !memcmp(rc.ca_data.data, "hello", 5));
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__unknown_context_flag_is_an_error(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_one();
    o.kubeconfig = p("one.yaml");
    o.context = "staging";
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    CHECK_EQ_INT(err.exit_code, KP_EXIT_ERROR);
    CHECK_EQ_STR(err.msg, "context \"staging\" does not exist");
}

static void
test_kubeconfig__missing_current_context_is_an_error(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_file("k", "current-context: gone\ncontexts: []\n", 0600);
    o.kubeconfig = p("k");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    CHECK_EQ_STR(err.msg, "context was not found for specified context: "
                 "gone");
}

static void
test_kubeconfig__cluster_and_user_flags_override_the_context(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_one();
    o.kubeconfig = p("one.yaml");
    o.cluster = "prod-cluster";
    o.user = "prod-user";
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.server, "https://prod.example");
    CHECK(rc.token == NULL);
    CHECK_EQ_STR(rc.token_file, p("prod.token"));
    CHECK_EQ_STR(rc.namespace, "team-a");
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__unknown_cluster_or_user_flag_is_an_error(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_one();
    o.kubeconfig = p("one.yaml");
    o.cluster = "nope";
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    CHECK_EQ_STR(err.msg, "cluster \"nope\" does not exist");
    o.cluster = NULL;
    o.user = "nobody";
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    CHECK_EQ_STR(err.msg, "auth info \"nobody\" does not exist");
}

/* ---- files and merging ------------------------------------------------ */

static void
test_kubeconfig__explicit_missing_file_is_an_error(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    char want[600];

    reset_env(&o);
    o.kubeconfig = p("absent.yaml");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    snprintf(want, sizeof(want), "cannot read kubeconfig '%s': No such "
             "file or directory", p("absent.yaml"));
    CHECK_EQ_STR(err.msg, want);
}

static void
test_kubeconfig__kubeconfig_list_first_file_wins_per_entry(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    char list[1200];

    reset_env(&o);
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
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.context_name, "ctx");
    CHECK_EQ_STR(rc.server, "https://from-a");
    CHECK_EQ_STR(rc.token, "token-a");
    CHECK_EQ_STR(rc.namespace, "from-b");
    CHECK_EQ_STR(last_warning, "");
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__current_context_of_the_first_file_that_sets_it(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    char list[1200];

    reset_env(&o);
    write_file("a.yaml", "current-context: first\n", 0600);
    write_file("b.yaml",
               "current-context: second\n"
               "clusters:\n- name: c\n  cluster: {server: https://c}\n"
               "contexts:\n- {name: first, context: {cluster: c, namespace: "
               "one}}\n- {name: second, context: {cluster: c, namespace: "
               "two}}\n", 0600);
    snprintf(list, sizeof(list), "%s:%s", p("a.yaml"), p("b.yaml"));
    setenv("KUBECONFIG", list, 1);
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.namespace, "one");
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__all_missing_list_warns_and_finds_no_config(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    char list[1200], want[1300];

    reset_env(&o);
    snprintf(list, sizeof(list), "%s:%s", p("x"), p("y"));
    setenv("KUBECONFIG", list, 1);
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    snprintf(want, sizeof(want), "Config not found: %s, %s", p("x"),
             p("y"));
    CHECK_EQ_STR(last_warning, want);
    CHECK(!strncmp(err.msg, "no configuration has been provided", 34));
}

static void
test_kubeconfig__home_config_is_the_default(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    mkdir(p("home"), 0700);
    mkdir(p("home/.kube"), 0700);
    write_file("home/.kube/config",
               "current-context: c\nclusters:\n- name: c\n  cluster:\n"
               "    server: https://home\ncontexts:\n- name: c\n"
               "  context:\n    cluster: c\n", 0600);
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.server, "https://home");
    kp_rest_config_release(&rc);
    unlink(p("home/.kube/config"));
}

static void
test_kubeconfig__duplicate_name_in_one_file_is_an_error(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    char want[600];

    reset_env(&o);
    write_file("dup.yaml", "users:\n- name: u\n  user: {token: a}\n"
               "- name: u\n  user: {token: b}\n", 0600);
    o.kubeconfig = p("dup.yaml");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    snprintf(want, sizeof(want), "error loading config file \"%s\": "
             "duplicate name \"u\" in users", p("dup.yaml"));
    CHECK_EQ_STR(err.msg, want);
}

static void
test_kubeconfig__yaml_syntax_error_names_file_and_line(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    char want[600];

    reset_env(&o);
    write_file("bad.yaml", "clusters:\n- name: c\n  cluster: [\n", 0600);
    o.kubeconfig = p("bad.yaml");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    snprintf(want, sizeof(want), "error loading config file \"%s\": yaml: "
             "line ", p("bad.yaml"));
    CHECK(!strncmp(err.msg, want, strlen(want)));
}

static void
test_kubeconfig__bad_base64_names_the_field_not_the_data(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    char want[600];

    reset_env(&o);
    write_file("b64.yaml",
               "current-context: c\nclusters:\n- name: c\n  cluster: "
               "{server: https://c}\ncontexts:\n- {name: c, context: "
               "{cluster: c, user: u}}\nusers:\n- name: u\n  user:\n"
               "    client-certificate-data: Zm9v\n"
               "    client-key-data: SECRET!KEY\n", 0600);
    o.kubeconfig = p("b64.yaml");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    snprintf(want, sizeof(want), "error loading config file \"%s\": "
             "users[\"u\"].client-key-data: illegal base64 data at input "
             "byte 6", p("b64.yaml"));
    CHECK_EQ_STR(err.msg, want);
    CHECK(strstr(err.msg, "SECRET") == NULL);
}

/* ---- overrides -------------------------------------------------------- */

static void
test_kubeconfig__server_and_token_flags_win(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_one();
    o.kubeconfig = p("one.yaml");
    o.context = "prod";
    o.server = "https://elsewhere:8443";
    o.token = "flag-token";
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.server, "https://elsewhere:8443");
    CHECK(rc.tls_server_name == NULL);
    CHECK_EQ_STR(rc.token, "flag-token");
    CHECK(rc.token_file == NULL);
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__insecure_flag_replaces_the_ca(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_one();
    o.kubeconfig = p("one.yaml");
    o.context = "prod";
    o.insecure_skip_tls_verify = 1;
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_INT(rc.insecure, 1);
    CHECK_EQ_INT(rc.ca_data.len, 0);
    CHECK(rc.ca_file == NULL);
    kp_rest_config_release(&rc);
    o.insecure_skip_tls_verify = -1;
    o.certificate_authority = p("pki/ca.crt");
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.ca_file, p("pki/ca.crt"));
    CHECK_EQ_INT(rc.ca_data.len, 0);
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__server_flag_alone_needs_no_kubeconfig(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    o.server = "https://flag-only:6443";
    o.token = "t";
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.server, "https://flag-only:6443");
    CHECK_EQ_STR(rc.namespace, "default");
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__server_without_scheme_gets_one(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    o.server = "10.0.0.1:6443";
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.server, "http://10.0.0.1:6443");
    kp_rest_config_release(&rc);
    o.insecure_skip_tls_verify = 1;
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.server, "https://10.0.0.1:6443");
    kp_rest_config_release(&rc);
}

/* ---- validation ------------------------------------------------------- */

static void
test_kubeconfig__insecure_with_a_ca_is_refused(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_file("k", "current-context: c\nclusters:\n- name: c\n  cluster:\n"
               "    server: https://c\n    insecure-skip-tls-verify: true\n"
               "    certificate-authority-data: aGVsbG8=\n"
               "contexts:\n- {name: c, context: {cluster: c}}\n", 0600);
    o.kubeconfig = p("k");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    CHECK_EQ_STR(err.msg, "specifying a root certificates file with the "
                 "insecure flag is not allowed");
}

static void
test_kubeconfig__unreadable_ca_file_is_reported(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    char want[600];

    reset_env(&o);
    write_file("k", "current-context: c\nclusters:\n- name: c\n  cluster:\n"
               "    server: https://c\n    certificate-authority: nope.crt\n"
               "contexts:\n- {name: c, context: {cluster: c}}\n", 0600);
    o.kubeconfig = p("k");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    snprintf(want, sizeof(want), "unable to read certificate-authority %s "
             "for c due to No such file or directory", p("nope.crt"));
    CHECK_EQ_STR(err.msg, want);
}

static void
test_kubeconfig__client_certificate_needs_a_key(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_file("k", "current-context: c\nclusters:\n- name: c\n  cluster:\n"
               "    server: https://c\ncontexts:\n- {name: c, context: "
               "{cluster: c, user: u}}\nusers:\n- name: u\n  user:\n"
               "    client-certificate-data: aGVsbG8=\n", 0600);
    o.kubeconfig = p("k");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    CHECK_EQ_STR(err.msg, "client-key-data or client-key must be specified "
                 "for u to use the clientCert authentication method");
}

static void
test_kubeconfig__exec_v1_needs_interactive_mode(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;
    static const char base[] =
        "current-context: c\nclusters:\n- name: c\n  cluster:\n"
        "    server: https://c\ncontexts:\n- {name: c, context: "
        "{cluster: c, user: u}}\nusers:\n- name: u\n  user:\n"
        "    exec:\n      command: bin/plugin\n";
    char text[1024];

    reset_env(&o);
    snprintf(text, sizeof(text), "%s      apiVersion: "
             "client.authentication.k8s.io/v1\n", base);
    write_file("k", text, 0600);
    o.kubeconfig = p("k");
    CHECK_EQ_INT(load(&rc, &o, &err), -1);
    CHECK_EQ_STR(err.msg, "interactiveMode must be specified for u to use "
                 "exec authentication plugin");
    snprintf(text, sizeof(text), "%s      apiVersion: "
             "client.authentication.k8s.io/v1beta1\n", base);
    write_file("k", text, 0600);
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.exec->interactive_mode, "IfAvailable");
    CHECK_EQ_STR(rc.exec->command, p("bin/plugin"));
    kp_rest_config_release(&rc);
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
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_service_account();
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_INT(rc.source, KP_CONFIG_IN_CLUSTER);
    CHECK_EQ_STR(rc.server, "https://10.96.0.1:443");
    CHECK_EQ_STR(rc.ca_file, p("sa/ca.crt"));
    CHECK_EQ_STR(rc.namespace, "kube-tools");
    CHECK_EQ_INT(kp_rest_config_credentials(&rc, &err), 0);
    CHECK_EQ_STR(rc.token, "sa-token");
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__in_cluster_honours_server_token_and_ca_flags(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_service_account();
    setenv("KUBERNETES_SERVICE_HOST", "fd00::1", 1);
    setenv("POD_NAMESPACE", "from-env", 1);
    o.token = "flag-token";
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_STR(rc.server, "https://[fd00::1]:443");
    CHECK_EQ_STR(rc.namespace, "from-env");
    CHECK_EQ_INT(kp_rest_config_credentials(&rc, &err), 0);
    CHECK_EQ_STR(rc.token, "flag-token");
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__kubeconfig_with_a_server_beats_in_cluster(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_service_account();
    write_one();
    o.kubeconfig = p("one.yaml");
    o.context = "prod";
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_INT(rc.source, KP_CONFIG_KUBECONFIG);
    CHECK_EQ_STR(rc.server, "https://prod.example");
    /* no namespace in the context: the pod's namespace, as kubectl */
    CHECK_EQ_STR(rc.namespace, "kube-tools");
    kp_rest_config_release(&rc);
}

/* ---- credentials ------------------------------------------------------ */

static void
test_kubeconfig__token_file_is_read_and_trimmed(void)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    reset_env(&o);
    write_one();
    write_file("prod.token", "  file-token\n", 0600);
    o.kubeconfig = p("one.yaml");
    o.context = "prod";
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_INT(kp_rest_config_credentials(&rc, &err), 0);
    CHECK_EQ_STR(rc.token, "file-token");
    kp_rest_config_release(&rc);
    unlink(p("prod.token"));
    CHECK_EQ_INT(load(&rc, &o, &err), 0);
    CHECK_EQ_INT(kp_rest_config_credentials(&rc, &err), -1);
    CHECK(!strncmp(err.msg, "cannot read token file '", 24));
    kp_rest_config_release(&rc);
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
run_exec(struct kp_rest_config *rc, struct kp_error *err)
{
    struct kp_kubeconfig_overrides o;

    reset_env(&o);
    o.kubeconfig = p("exec.yaml");
    if (load(rc, &o, err) < 0)
        return -2;
    return kp_rest_config_credentials(rc, err);
}

static void
test_kubeconfig__exec_plugin_gets_args_env_and_exec_info(void)
{
    struct kp_rest_config rc;
    struct kp_error err;
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
    CHECK_EQ_INT(run_exec(&rc, &err), 0);
    CHECK_EQ_STR(rc.token, "tok-1");
    CHECK_EQ_INT((long long)rc.expiry, 1893553445LL);
    kp_rest_config_release(&rc);
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
    struct kp_rest_config rc;
    struct kp_error err;

    write_file("plugin.sh", "#!/bin/sh\n"
               "echo '{\"apiVersion\":\"client.authentication.k8s.io/"
               "v1beta1\",\"kind\":\"ExecCredential\",\"status\":"
               "{\"clientCertificateData\":\"CERT\",\"clientKeyData\":"
               "\"KEY\"}}'\n", 0700);
    write_exec_kubeconfig("client.authentication.k8s.io/v1beta1", NULL);
    CHECK_EQ_INT(run_exec(&rc, &err), 0);
    CHECK(rc.token == NULL);
    CHECK_EQ_INT(rc.cert_data.len, 4);
    CHECK_EQ_INT(rc.key_data.len, 3);
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__exec_plugin_failures_are_explained(void)
{
    struct kp_rest_config rc;
    struct kp_error err;

    write_file("plugin.sh", "#!/bin/sh\nexit 3\n", 0700);
    write_exec_kubeconfig("client.authentication.k8s.io/v1", NULL);
    CHECK_EQ_INT(run_exec(&rc, &err), -1);
    CHECK(strstr(err.msg, "plugin.sh failed with exit code 3") != NULL);
    kp_rest_config_release(&rc);
    write_file("plugin.sh", "#!/bin/sh\necho '{\"apiVersion\":"
               "\"client.authentication.k8s.io/v1beta1\",\"kind\":"
               "\"ExecCredential\",\"status\":{\"token\":\"x\"}}'\n", 0700);
    CHECK_EQ_INT(run_exec(&rc, &err), -1);
    CHECK_EQ_STR(err.msg, "getting credentials: exec plugin is configured "
                 "to use API version client.authentication.k8s.io/v1, "
                 "plugin returned version "
                 "client.authentication.k8s.io/v1beta1");
    kp_rest_config_release(&rc);
    write_file("plugin.sh", "#!/bin/sh\necho '{\"apiVersion\":"
               "\"client.authentication.k8s.io/v1\",\"kind\":"
               "\"ExecCredential\",\"status\":{}}'\n", 0700);
    CHECK_EQ_INT(run_exec(&rc, &err), -1);
    CHECK_EQ_STR(err.msg, "getting credentials: exec plugin didn't return a "
                 "token or cert/key pair");
    kp_rest_config_release(&rc);
}

static void
test_kubeconfig__exec_plugin_not_found_shows_the_install_hint(void)
{
    struct kp_rest_config rc;
    struct kp_error err;

    write_exec_kubeconfig("client.authentication.k8s.io/v1",
                          "      installHint: install it with apt\n");
    unlink(p("plugin.sh"));
    CHECK_EQ_INT(run_exec(&rc, &err), -1);
    CHECK(strstr(err.msg, "plugin.sh not found: install it with apt") !=
          NULL);
    kp_rest_config_release(&rc);
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
    char cmd[300];

    snprintf(tmpdir, sizeof(tmpdir), "/tmp/kp-test-kubeconfig-XXXXXX");
    if (!mkdtemp(tmpdir) || chdir(tmpdir) != 0)
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
    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
    if (chdir("/") != 0 || system(cmd) != 0)
        return 2;
    return check_done();
}
