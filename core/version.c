/*
 * version.c - "kubectl-preempt version" and --version: this release, the
 * kube-scheduler releases whose preemption it replays, and the versions
 * of the libraries it runs with (as `kubectl version --client` names its
 * own build; the libraries' own version calls, so a statically linked
 * release says which cJSON and libyaml it carries).
 */
#include <curl/curl.h>
#include <cjson/cJSON.h>
#include <yaml.h>

#include "kp.h"

/*
 * the kube-scheduler releases replayed (README, --kube-version; without
 * it the cluster's version, else 1.37)
 */
#define KP_KUBE_VERSIONS "v1.31 to v1.38"

void
kp_version_text(struct kp_buf *out)
{
    kp_buf_puts(out, "kubectl-preempt " KP_VERSION "\n");
    kp_buf_puts(out, "kube-scheduler: " KP_KUBE_VERSIONS "\n");
    kp_buf_printf(out, "cJSON: %s\n", cJSON_Version());
    kp_buf_printf(out, "libcurl: %s\n", curl_version());
    kp_buf_printf(out, "libyaml: %s\n", yaml_get_version_string());
}
