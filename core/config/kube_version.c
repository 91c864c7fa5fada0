/*
 * kube_version.c - which kube-scheduler release is replayed
 * (--kube-version, or detected): 1.31 to 1.38, whose differences the
 * README's --kube-version part lists.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "kp.h"
#include "kube_version.h"

int
kp_kube_version_parse(const char *s, int *minor, struct kp_error *err)
{
    const char *p = s;
    char *end;
    long major, mn;

    if (*p == 'v')
        p++;
    if (!isdigit((unsigned char)*p))
        goto bad;
    major = strtol(p, &end, 10);
    if (*end != '.' || !isdigit((unsigned char)end[1]))
        goto bad;
    mn = strtol(end + 1, &end, 10);
    if (*end == '.' && isdigit((unsigned char)end[1]))
        strtol(end + 1, &end, 10);
    if (*end != '\0' && *end != '-' && *end != '+')
        goto bad;
    if (major != 1 || mn < KP_KUBE_MINOR_MIN || mn > KP_KUBE_MINOR_MAX)
        return kp_errorf(err, KP_EXIT_USAGE, "--kube-version %s: supported "
                         "versions are 1.%d to 1.%d", s, KP_KUBE_MINOR_MIN,
                         KP_KUBE_MINOR_MAX);
    if (minor)
        *minor = (int)mn;
    return 0;
bad:
    return kp_errorf(err, KP_EXIT_USAGE, "--kube-version %s: expected X.Y, "
                     "e.g. 1.35", s);
}

/* "v1.34.2" (kubeletVersion, gitVersion) to 34; -1 when it does not read */
int
kp_kube_version_minor(const char *s)
{
    struct kp_error err;
    int minor;

    if (!s)
        return -1;
    if (kp_kube_version_parse(s, &minor, &err) == 0)
        return minor;
    /* outside the range: still a version, for the message */
    if (*s == 'v')
        s++;
    if (strncmp(s, "1.", 2) != 0 || !isdigit((unsigned char)s[2]))
        return -1;
    return (int)strtol(s + 2, NULL, 10);
}

/* "1" and "36", "36+" (EKS, GKE) to 36; -1 when they do not read */
static int
major_minor(const cJSON *major, const cJSON *minor)
{
    const char *p;
    long mn = 0;

    if (!cJSON_IsString(major) || !cJSON_IsString(minor) ||
        strcmp(major->valuestring, "1") != 0)
        return -1;
    p = minor->valuestring;
    if (!isdigit((unsigned char)*p))
        return -1;
    while (isdigit((unsigned char)*p) && mn < 100000)
        mn = mn * 10 + (*p++ - '0');
    if (*p != '\0' && strcmp(p, "+") != 0)
        return -1;
    return (int)mn;
}

int
kp_kube_version_from_server(const char *body, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(body, len);
    const cJSON *gv;
    int minor;

    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return -1;
    }
    minor = major_minor(cJSON_GetObjectItemCaseSensitive(root, "major"),
                        cJSON_GetObjectItemCaseSensitive(root, "minor"));
    gv = cJSON_GetObjectItemCaseSensitive(root, "gitVersion");
    if (minor < 0 && cJSON_IsString(gv) && gv->valuestring[0] == 'v')
        minor = kp_kube_version_minor(gv->valuestring);
    cJSON_Delete(root);
    return minor;
}

/*
 * The version-keyed rules, in enum order.  docs/versions.md is this
 * table with the CHANGELOG entries read for it.
 */
const struct kp_kube_rule_row kp_kube_rules[KP_NRULES] = {
    {KP_RULE_INPLACE_RESIZE, 33, "kubernetes/kubernetes#130905",
     "InPlacePodVerticalScaling on by default: a pod's requests are the "
     "largest of spec, allocatedResources and status resources (before: "
     "the spec)",
     "tests/cli/config.bats in-place resize"},
    {KP_RULE_SIDECAR_NONZERO, 32, "kubernetes/kubernetes#127878",
     "a pod's share of its node's non-zero requests (LeastAllocated, "
     "MostAllocated, RequestedToCapacityRatio) sums its sidecars with its "
     "app containers (before: app containers against the largest init "
     "container with the sidecars before it)",
     "tests/cli/fidelity_versions.bats non-zero requests of sidecars"},
    {KP_RULE_SIDECAR_HOST_PORTS, 33,
     "kubernetes/kubernetes#132040 (1.34), cherry-picked as #133390 "
     "(1.33 patch)",
     "NodePorts reads the host ports of restartable init containers "
     "(sidecars), of the pod placed and of the pods on the node (before: "
     "app containers only)",
     "tests/cli/fidelity_versions.bats NodePorts sidecar"},
    {KP_RULE_FIT_UNRESOLVABLE, 34, "kubernetes/kubernetes#131345",
     "NodeResourcesFit: a request above the node's allocatable is "
     "UnschedulableAndUnresolvable (before: Unschedulable)",
     "tests/cli/config.bats --kube-version 1.33: a request above "
     "allocatable"},
    {KP_RULE_DRA_POST_FILTER, 34, "KEP-4381 (DynamicResourceAllocation GA)",
     "DynamicResources is a PostFilter plugin: 'no new claims to "
     "deallocate' in messages",
     "tests/cli/config.bats --kube-version 1.33: DynamicResources"},
    {KP_RULE_POD_LEVEL_RESOURCES, 34, "kubernetes/kubernetes#132999",
     "PodLevelResources on by default: spec.resources counts",
     "tests/cli/config.bats --kube-version 1.33: pod-level requests"},
    {KP_RULE_TAINT_GENERIC_REASON, 34,
     "kubernetes/kubernetes#134740 (1.35), #135023 (1.34 patch)",
     "TaintToleration's reason no longer names the taint",
     "tests/cli/config.bats --kube-version 1.31-1.33: the taint reason"},
    {KP_RULE_BA_BALANCE_CHANGE, 36, "kubernetes/kubernetes#135573",
     "NodeResourcesBalancedAllocation scores the change of the node's "
     "balance: 50 + (50 + withPod - withoutPod) / 2",
     "tests/unit/sched/test_score.c test_score__balanced_allocation_*; "
     "tests/cli/fidelity_scoring.bats BalancedAllocation"},
    {KP_RULE_NODE_DECLARED_FEATURES, 36, "kubernetes/kubernetes#136042",
     "NodeDeclaredFeatures on by default (not simulated: a warning when "
     "nodes declare different features)",
     "tests/cli/config.bats NodeDeclaredFeatures"},
    {KP_RULE_IMAGE_VOLUME_SCORE, 36, "kubernetes/kubernetes#130231",
     "ImageLocality scores the images of image volumes "
     "(spec.volumes[].image) with the containers' (before: containers "
     "only)",
     "tests/cli/fidelity_versions.bats ImageLocality image volume: "
     "scored from 1.36"},
    {KP_RULE_PREEMPT_MESSAGE, 37, "kubernetes/kubernetes#140180",
     "a pod that preempts gets 'preemption: found a potential placement "
     "for pod on node X, preempting N victims'",
     "tests/cli/config.bats --kube-version 1.35/1.36: no 'preemption: "
     "found'"},
    {KP_RULE_STORAGE_CAPACITY_SCORING, 37,
     "KEP-4049 (StorageCapacityScoring beta)",
     "VolumeBindingArgs.shape is accepted (refused before)",
     "tests/cli/config.bats VolumeBindingArgs.shape"},
    {KP_RULE_IMAGE_VOLUME_THRESHOLD, 37, "kubernetes/kubernetes#138951",
     "ImageLocality's max threshold counts image volumes as well as "
     "containers (1.36 scored them without counting them)",
     "tests/cli/fidelity_versions.bats ImageLocality image volume: "
     "threshold"},
    {KP_RULE_PDB_EMPTY_SELECTOR, 38, "kubernetes/kubernetes#141785",
     "a PDB with an empty selector protects every pod of its namespace",
     "tests/cli/config.bats --kube-version 1.38: an empty PDB selector"},
    {KP_RULE_PTS_EMPTY_SELECTOR, 38, "kubernetes/kubernetes#141340",
     "PodTopologySpread: a constraint's labelSelector {} matches every pod "
     "of the namespace (before: none, countPodsMatchSelector's Empty() "
     "shortcut from #116607); no cherry-pick into 1.35-1.37 found",
     "tests/cli/fidelity_scoring.bats labelSelector {}"},
    {KP_RULE_QUANTITY_SATURATE, 38, "kubernetes/kubernetes#141305",
     "resource.Quantity Value() and MilliValue() saturate at the int64 "
     "bounds (before: an int64Amount past int64 gives 0 or wraps, an "
     "inf.Dec wraps), for requests and allocatable",
     "tests/unit/api/test_quantity.c test_quantity__past_int64_by_version; "
     "tests/cli/fidelity_quantity.bats"},
};

int
kp_kube_rule_on(enum kp_kube_rule r, int minor)
{
    if ((int)r < 0 || r >= KP_NRULES || kp_kube_rules[r].id != r)
        return 0;
    if (minor <= 0)
        minor = KP_KUBE_MINOR_DEFAULT;
    return minor >= kp_kube_rules[r].since;
}
