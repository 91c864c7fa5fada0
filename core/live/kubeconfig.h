/*
 * kubeconfig.h - where the cluster is and who we are, read as kubectl
 * reads it.
 *
 * Mirrors client-go's tools/clientcmd: ClientConfigLoadingRules (the
 * --kubeconfig / KUBECONFIG / ~/.kube/config precedence and the
 * "first file wins" merge), DirectClientConfig (context, cluster and
 * user selection, flag overrides, validation), DeferredLoadingClientConfig
 * and rest.InClusterConfig (the service-account fallback), and
 * plugin/pkg/client/auth/exec (exec credential plugins).
 *
 * Ownership: a struct kp_rest_config owns everything it points to (one
 * arena); kp_rest_config_release() frees it and wipes the secrets.
 * Nothing here prints: warnings go to the optional callback, errors to
 * struct kp_error, and no message ever carries a token, a key or a
 * password.
 */
#ifndef KP_KUBECONFIG_H
#define KP_KUBECONFIG_H

#include <stddef.h>
#include <time.h>

#include "arena.h"
#include "base64.h"
#include "error.h"

struct kp_conn_flags;

/* Receives a one-line warning (e.g. "Config not found: /a, /b"). */
typedef void (*kp_warn_fn)(void *ctx, const char *msg);

/* What the command line says; NULL / -1 means "not given". */
struct kp_kubeconfig_overrides {
    const char *kubeconfig;             /* --kubeconfig */
    const char *context;                /* --context */
    const char *cluster;                /* --cluster */
    const char *user;                   /* --user */
    const char *server;                 /* --server */
    const char *token;                  /* --token */
    const char *certificate_authority;  /* --certificate-authority */
    int insecure_skip_tls_verify;       /* 1: set; -1, 0: no change */
    /* --as, --as-group, --as-uid, --client-certificate, --client-key,
     * --tls-server-name, --username, --password, --disable-compression
     * (kp.h); NULL: none */
    const struct kp_conn_flags *conn;
    kp_warn_fn warn;                    /* optional */
    void *warn_ctx;
};

struct kp_exec_env {
    const char *name;
    const char *value;
};

/* users[].user.exec, as client.authentication.k8s.io expects it. */
struct kp_exec_config {
    const char *command;        /* resolved against the kubeconfig's dir */
    const char **args;
    size_t nargs;
    struct kp_exec_env *env;
    size_t nenv;
    const char *api_version;
    const char *interactive_mode;   /* Never, IfAvailable, Always */
    int provide_cluster_info;
    const char *install_hint;       /* may be NULL */
};

enum kp_config_source {
    KP_CONFIG_KUBECONFIG = 0,
    KP_CONFIG_IN_CLUSTER = 1
};

/* Everything needed to talk to one API server. */
struct kp_rest_config {
    struct kp_arena arena;      /* owns all strings and blobs below */
    enum kp_config_source source;
    const char *context_name;   /* NULL in cluster or without context */
    const char *cluster_name;
    const char *user_name;
    const char *namespace;      /* the context's, or "default" */
    const char *server;         /* scheme://host[:port][/prefix] */
    const char *tls_server_name;
    const char *proxy_url;
    int insecure;
    int disable_compression;
    const char *ca_file;        /* CA data wins over the file */
    struct kp_blob ca_data;
    const char *cert_file;
    const char *key_file;
    struct kp_blob cert_data;   /* PEM */
    struct kp_blob key_data;    /* PEM */
    const char *token;
    const char *token_file;
    const char *username;
    const char *password;
    const char *impersonate_user;
    const char *impersonate_uid;
    const char **impersonate_groups;
    size_t nimpersonate_groups;
    const char *auth_provider;  /* users[].user.auth-provider.name */
    const char *auth_provider_token;    /* oidc id-token */
    struct kp_exec_config *exec;
    const char *exec_cluster_config;    /* the cluster's exec extension
                                           (JSON), for provideClusterInfo */
    time_t expiry;              /* exec credential expiry, 0 if none */
    long exec_timeout_ms;       /* an exec plugin's deadline (set by the
                                   caller: --request-timeout); 0: the
                                   default of exec_credential.c */
};

/*
 * Load, merge and select the configuration, apply the overrides, and
 * fall back to the in-cluster service account when no kubeconfig names a
 * server (KUBERNETES_SERVICE_HOST/PORT and a token in
 * /var/run/secrets/kubernetes.io/serviceaccount, or in the directory
 * KP_SERVICEACCOUNT_DIR names, for tests).  Reads files but runs nothing: exec plugins and token files are
 * left to kp_rest_config_credentials().  On failure rc holds nothing to
 * release.
 */
int kp_kubeconfig_load(struct kp_rest_config *rc,
                       const struct kp_kubeconfig_overrides *o,
                       struct kp_error *err);

/*
 * Make rc ready to authenticate: read tokenFile, run the exec plugin if
 * no other credential is set.  Fills token or cert_data/key_data.
 */
int kp_rest_config_credentials(struct kp_rest_config *rc,
                               struct kp_error *err);

/* Free everything rc owns, wiping secrets first. */
void kp_rest_config_release(struct kp_rest_config *rc);

/*
 * Run rc->exec (fork + execvp, no shell), parse the ExecCredential it
 * prints and store its token or client certificate in rc (see
 * exec_credential.c).
 */
int kp_exec_credential_run(struct kp_rest_config *rc, struct kp_error *err);

#endif
