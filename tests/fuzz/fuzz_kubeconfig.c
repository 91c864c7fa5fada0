/*
 * fuzz_kubeconfig.c - libFuzzer target: the kubeconfig reader (YAML,
 * merge, context selection, base64 data fields, validation).
 *
 * core/live/kubeconfig.h has no entry point that reads from memory:
 * kp_kubeconfig_load() takes a path (--kubeconfig).  So each input is
 * written to a memfd, reached as /proc/self/fd/N.  Relative paths in the
 * input then resolve under /proc/self/fd; the loader only opens such files
 * to check they are readable, and nothing is executed (exec plugins run in
 * kp_rest_config_credentials(), which this target never calls).  The
 * in-cluster fallback is kept off by clearing its environment once.
 * Valid configurations are released with kp_rest_config_release().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kubeconfig.h"
#include "memfd_input.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


static void
ignore_warning(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    unsetenv("KUBERNETES_SERVICE_HOST");
    unsetenv("KUBERNETES_SERVICE_PORT");
    unsetenv("POD_NAMESPACE");
    unsetenv("KUBECONFIG");
    setenv("KP_SERVICEACCOUNT_DIR", "/nonexistent/kp-fuzz", 1);
    memfd_open("kp-fuzz-kubeconfig");
    return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct kp_kubeconfig_overrides o;
    struct kp_rest_config rc;
    struct kp_error err;

    if (store(data, size) < 0)
        abort();
    memset(&o, 0, sizeof(o));
    o.kubeconfig = memfd_path;
    o.insecure_skip_tls_verify = -1;
    o.warn = ignore_warning;
    memset(&err, 0, sizeof(err));
    if (kp_kubeconfig_load(&rc, &o, &err) == 0)
        kp_rest_config_release(&rc);
    return 0;
}
