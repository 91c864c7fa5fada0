/*
 * test_config.c - the KubeSchedulerConfiguration (core/config/) and the
 * scoring strategies (core/sched/plugins/noderesources/), with rows of
 * kubernetes/kubernetes:
 *
 * - pkg/scheduler/apis/config/v1/default_plugins_test.go TestMergePlugins
 *   (every row; plugin sets written "A B:2 -C", '-' for disabled);
 * - pkg/scheduler/apis/config/validation/validation_test.go
 *   TestValidateKubeSchedulerConfigurationV1 (the rows a file can express;
 *   each configuration written as YAML, the expected field and error type
 *   matched in the error text);
 * - pkg/scheduler/apis/config/v1/defaults_test.go
 *   TestSchedulerDefaults (the defaults the simulation reads);
 * - pkg/scheduler/framework/plugins/noderesources/most_allocated_test.go
 *   TestMostAllocatedScoringStrategy and requested_to_capacity_ratio_test.go
 *   TestRequestedToCapacityRatioScoringStrategy, TestBrokenLinearFunction
 *   (through the shape), TestResourceBinPackingSingleExtended.
 *
 * and validation_pluginargs_test.go TestValidateNodeAffinityArgs and
 * TestValidateVolumeBindingArgs (the rows of StorageCapacityScoring on, as
 * in v1.37; before, a shape is refused when the version is applied:
 * tests/cli/config.bats).
 *
 * Not ported: validation_test.go's bad-resource-name-not-set and
 * bad-resource-namespace-not-set (the v1 defaults fill those names, a
 * file cannot leave them empty); invalid-plugin-args and the queueSort
 * pluginConfig args comparison (args are decoded by plugin name, not by
 * kind); the label key and value syntax rows of NodeAffinityArgs
 * ("invalid/label/key": IsQualifiedName is not checked there);
 * defaults_test.go's clientConnection, leaderElection and address
 * defaults (only the ones validation reads are applied);
 * DynamicResourcesArgs rows (its feature-gated fields are not read);
 * most_allocated_test.go's
 * "Resources not set" and "resource with zero weight" rows (the v1
 * defaults fill resources and turn weight 0 into 1 before NewFit, so a
 * configuration file cannot reach them);
 * TestResourceBinPackingMultipleExtended.
 */
#include <stdlib.h>
#include <string.h>

#include "plugin_rows.h"

#include "config.h"
#include "config_int.h"
#include "kube_version.h"

/* ---- plugin sets as text ---- */

/* "A B:2 -C -*" into s (names point into a copy kept in a) */
static void
parse_set(struct kp_arena *a, const char *text, struct kp_cfg_set *s)
{
    char *buf = kp_arena_strdup(a, text), *tok, *save = NULL;

    memset(s, 0, sizeof(*s));
    s->en = kp_arena_alloc(a, 16 * sizeof(*s->en));
    s->dis = kp_arena_alloc(a, 16 * sizeof(*s->dis));
    for (tok = strtok_r(buf, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        struct kp_cfg_plugin p = {tok, 0, false};
        char *colon = strchr(tok, ':');

        if (colon) {
            *colon = '\0';
            p.weight = strtol(colon + 1, NULL, 10);
            p.has_weight = true;
        }
        if (tok[0] == '-') {
            p.name = tok + 1;
            s->dis[s->ndis++] = p;
        } else {
            s->en[s->nen++] = p;
        }
    }
}

/* the set as text again */
static void
set_text(const struct kp_cfg_set *s, char *out, size_t n)
{
    size_t i, len = 0;

    out[0] = '\0';
    for (i = 0; i < s->nen && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s", len ? " " : "",
                                s->en[i].name);
    for (i = 0; i < s->nen && len < n; i++)
        if (s->en[i].has_weight)
            len += (size_t)snprintf(out + len, n - len, "%s%s=%lld",
                                    len ? " " : "", s->en[i].name,
                                    (long long)s->en[i].weight);
    for (i = 0; i < s->ndis && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s-%s", len ? " " : "",
                                s->dis[i].name);
}

struct merge_row {
    const char *name;
    const char *point;      /* "filter", "multiPoint", "score" */
    const char *def, *custom, *want;
    /* a second extension point of the row (score), or NULL */
    const char *def2, *custom2, *want2;
};

/* weights are written "A:2" in def/custom, "A=2" (after names) in want */
static const struct merge_row merge_rows[] = {
    {"AppendCustomPlugin", "filter", "DefaultPlugin1 DefaultPlugin2",
     "CustomPlugin", "DefaultPlugin1 DefaultPlugin2 CustomPlugin",
     NULL, NULL, NULL},
    {"InsertAfterDefaultPlugins2", "filter", "DefaultPlugin1 DefaultPlugin2",
     "CustomPlugin DefaultPlugin2 -DefaultPlugin2",
     "DefaultPlugin1 CustomPlugin DefaultPlugin2 -DefaultPlugin2",
     NULL, NULL, NULL},
    {"InsertBeforeAllPlugins", "filter", "DefaultPlugin1 DefaultPlugin2",
     "CustomPlugin DefaultPlugin1 DefaultPlugin2 -*",
     "CustomPlugin DefaultPlugin1 DefaultPlugin2 -*", NULL, NULL, NULL},
    {"ReorderDefaultPlugins", "filter", "DefaultPlugin1 DefaultPlugin2",
     "DefaultPlugin2 DefaultPlugin1 -*",
     "DefaultPlugin2 DefaultPlugin1 -*", NULL, NULL, NULL},
    {"ApplyNilCustomPlugin", "filter", "DefaultPlugin1 DefaultPlugin2", "",
     "DefaultPlugin1 DefaultPlugin2", NULL, NULL, NULL},
    {"CustomPluginOverrideDefaultPlugin", "filter", "Plugin1 Plugin2 Plugin3",
     "Plugin1:2 Plugin3:3", "Plugin1 Plugin2 Plugin3 Plugin1=2 Plugin3=3",
     NULL, NULL, NULL},
    {"OrderPreserveAfterOverride", "filter", "Plugin1 Plugin2 Plugin3",
     "Plugin2:2 Plugin1:1", "Plugin1 Plugin2 Plugin3 Plugin1=1 Plugin2=2",
     NULL, NULL, NULL},
    {"RepeatedCustomPlugin", "filter", "Plugin1 Plugin2 Plugin3",
     "Plugin1 Plugin2:2 Plugin3 Plugin2:4",
     "Plugin1 Plugin2 Plugin3 Plugin2 Plugin2=4 Plugin2=2", NULL, NULL,
     NULL},
    {"Append custom MultiPoint plugin", "multiPoint",
     "DefaultPlugin1 DefaultPlugin2", "CustomPlugin",
     "DefaultPlugin1 DefaultPlugin2 CustomPlugin", NULL, NULL, NULL},
    {"Append disabled Multipoint plugins", "multiPoint",
     "DefaultPlugin1 DefaultPlugin2",
     "CustomPlugin CustomPlugin2 -DefaultPlugin2",
     "DefaultPlugin1 CustomPlugin CustomPlugin2 -DefaultPlugin2",
     "", "-CustomPlugin2", "-CustomPlugin2"},
    {"override default MultiPoint plugins with custom value", "multiPoint",
     "DefaultPlugin", "DefaultPlugin:5", "DefaultPlugin DefaultPlugin=5",
     NULL, NULL, NULL},
    {"disabled MultiPoint plugin in default set", "multiPoint",
     "DefaultPlugin -DefaultPlugin2", "CustomPlugin",
     "DefaultPlugin CustomPlugin -DefaultPlugin2", NULL, NULL, NULL},
    {"disabled MultiPoint plugin in default set for specific extension "
     "point", "multiPoint", "DefaultPlugin", "CustomPlugin",
     "DefaultPlugin CustomPlugin", "-DefaultPlugin2", "", "-DefaultPlugin2"},
    {"multipoint with only disabled gets merged", "multiPoint",
     "DefaultPlugin", "-DefaultPlugin", "-DefaultPlugin", NULL, NULL, NULL},
};

static bool
merge_one(struct kp_arena *a, const char *def, const char *custom,
          const char *want, const char *name)
{
    struct kp_cfg_set d, c, out;
    char got[512];

    parse_set(a, def, &d);
    parse_set(a, custom, &c);
    kp_cfg_merge_set(a, &d, &c, &out);
    set_text(&out, got, sizeof(got));
    if (strcmp(got, want) == 0)
        return true;
    printf("#   %s: got '%s', want '%s'\n", name, got, want);
    return false;
}

static void
test_config__merge_plugins_rows(void)
{
    struct kp_arena a;
    size_t i;

    kp_arena_init(&a);
    for (i = 0; i < sizeof(merge_rows) / sizeof(merge_rows[0]); i++) {
        const struct merge_row *r = &merge_rows[i];

        CHECK(merge_one(&a, r->def, r->custom, r->want, r->name));
        if (r->def2)
            CHECK(merge_one(&a, r->def2, r->custom2, r->want2, r->name));
    }
    kp_arena_release(&a);
}

/* ---- whole configurations ---- */

#define HEAD "apiVersion: kubescheduler.config.k8s.io/v1\n" \
             "kind: KubeSchedulerConfiguration\n"

static int
parse(struct kp_sched_config *cfg, const char *yaml, bool ignore,
      struct kp_error *err)
{
    return kp_sched_config_parse(cfg, "c.yaml", yaml, strlen(yaml), ignore,
                                 err);
}

struct validation_row {
    const char *name;
    const char *yaml;
    const char *want;       /* a substring of the error; NULL: valid */
};

static const struct validation_row validation_rows[] = {
    {"good", HEAD "profiles:\n- schedulerName: me\n"
     "  plugins:\n    queueSort:\n      enabled: [{name: PrioritySort}]\n"
     "      disabled: [{name: '*'}]\n"
     "- schedulerName: other\n"
     "  plugins:\n    queueSort:\n      enabled: [{name: PrioritySort}]\n"
     "      disabled: [{name: '*'}]\n", NULL},
    {"bad-parallelism-invalid-value", HEAD "parallelism: 0\n",
     "parallelism: Invalid value: 0"},
    {"bad-percentage-of-nodes-to-score", HEAD
     "percentageOfNodesToScore: 101\n",
     "percentageOfNodesToScore: Invalid value: 101: not in valid range "
     "[0-100]"},
    {"negative-percentage-of-nodes-to-score", HEAD
     "percentageOfNodesToScore: -1\n",
     "percentageOfNodesToScore: Invalid value: -1"},
    {"scheduler-name-not-set", HEAD "profiles:\n- schedulerName: me\n"
     "- schedulerName: ''\n", "profiles[1].schedulerName: Required value"},
    {"repeated-scheduler-name", HEAD "profiles:\n- schedulerName: me\n"
     "- schedulerName: me\n",
     "profiles[1].schedulerName: Duplicate value"},
    {"greater-than-100-profile-percentage-of-nodes-to-score", HEAD
     "profiles:\n- schedulerName: me\n- schedulerName: other\n"
     "  percentageOfNodesToScore: 101\n",
     "profiles[1].percentageOfNodesToScore: Invalid value: 101"},
    {"negative-profile-percentage-of-nodes-to-score", HEAD
     "profiles:\n- schedulerName: me\n- schedulerName: other\n"
     "  percentageOfNodesToScore: -1\n",
     "profiles[1].percentageOfNodesToScore: Invalid value: -1"},
    {"different-queue-sort", HEAD "profiles:\n- schedulerName: me\n"
     "- schedulerName: other\n  plugins:\n    queueSort:\n"
     "      enabled: [{name: CustomSort}]\n",
     "profiles[1].plugins.queueSort: Invalid value"},
    {"one-empty-queue-sort", HEAD "profiles:\n- schedulerName: me\n"
     "  plugins:\n    queueSort:\n      enabled: [{name: CustomSort}]\n"
     "- schedulerName: other\n",
     "profiles[1].plugins.queueSort: Invalid value"},
    {"invalid-node-percentage", HEAD "profiles:\n- schedulerName: me\n"
     "  pluginConfig:\n  - name: DefaultPreemption\n"
     "    args: {minCandidateNodesPercentage: 200, "
     "minCandidateNodesAbsolute: 100}\n",
     "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: "
     "Invalid value: 200: not in valid range [0, 100]"},
    {"duplicated-plugin-config", HEAD "profiles:\n- schedulerName: me\n"
     "  pluginConfig:\n  - name: config\n  - name: config\n",
     "profiles[0].pluginConfig[1]: Duplicate value: \"config\""},
    {"mismatch-queue-sort", HEAD "profiles:\n- schedulerName: me\n"
     "  plugins:\n    queueSort:\n      enabled: [{name: PrioritySort}]\n"
     "- schedulerName: other\n  plugins:\n    queueSort:\n"
     "      enabled: [{name: CustomSort}]\n",
     "profiles[1].plugins.queueSort: Invalid value"},
    {"valid-plugins", HEAD "profiles:\n- schedulerName: me\n  plugins:\n"
     "    score:\n      enabled: [{name: PodTopologySpread, weight: 2}]\n",
     NULL},
    /* TestValidateDefaultPreemptionArgs, TestValidateInterPodAffinityArgs,
     * TestValidateNodeResourcesBalancedAllocationArgs,
     * TestValidatePodTopologySpreadArgs (validation_pluginargs_test.go) */
    {"DefaultPreemptionArgs: both zero", HEAD "profiles:\n- pluginConfig:\n"
     "  - name: DefaultPreemption\n    args: {minCandidateNodesPercentage: 0,"
     " minCandidateNodesAbsolute: 0}\n",
     "cannot be zero at the same time as minCandidateNodesAbsolute"},
    {"DefaultPreemptionArgs: negative minCandidateNodesAbsolute", HEAD
     "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n"
     "    args: {minCandidateNodesAbsolute: -1}\n",
     "args.minCandidateNodesAbsolute: Invalid value: -1: not in valid "
     "range [0, inf)"},
    {"InterPodAffinityArgs: invalid hardPodAffinityWeight", HEAD
     "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n"
     "    args: {hardPodAffinityWeight: 101}\n",
     "args.hardPodAffinityWeight: Invalid value: 101: not in valid range "
     "[0, 100]"},
    {"NodeResourcesBalancedAllocationArgs: duplicated resource", HEAD
     "profiles:\n- pluginConfig:\n  - name: NodeResourcesBalancedAllocation"
     "\n    args: {resources: [{name: cpu, weight: 1}, {name: cpu, "
     "weight: 1}]}\n",
     "args.resources[1].name: Duplicate value: \"cpu\""},
    {"NodeResourcesBalancedAllocationArgs: weight not 1", HEAD
     "profiles:\n- pluginConfig:\n  - name: NodeResourcesBalancedAllocation"
     "\n    args: {resources: [{name: cpu, weight: 2}]}\n",
     "args.resources[0].weight: Invalid value: 2: must be 1"},
    {"PodTopologySpreadArgs: wrong constraints for system defaulting", HEAD
     "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n"
     "    args:\n      defaultingType: System\n      defaultConstraints:\n"
     "      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
     "ScheduleAnyway}\n",
     "args.defaultingType: Invalid value: \"System\": when "
     ".defaultConstraints are not empty"},
    {"PodTopologySpreadArgs: maxSkew less than zero", HEAD
     "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n"
     "    args:\n      defaultingType: List\n      defaultConstraints:\n"
     "      - {maxSkew: -1, topologyKey: zone, whenUnsatisfiable: "
     "DoNotSchedule}\n",
     "args.defaultConstraints[0].maxSkew: Invalid value: -1: not in valid "
     "range (0, inf)"},
    {"PodTopologySpreadArgs: repeated constraints", HEAD
     "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n"
     "    args:\n      defaultingType: List\n      defaultConstraints:\n"
     "      - {maxSkew: 1, topologyKey: node, whenUnsatisfiable: "
     "ScheduleAnyway}\n"
     "      - {maxSkew: 2, topologyKey: node, whenUnsatisfiable: "
     "ScheduleAnyway}\n",
     "args.defaultConstraints[1]: Duplicate value: \"{node, "
     "ScheduleAnyway}\""},
    /* validatePluginSetForInvalidPlugins */
    {"removed plugin EBSLimits in filter", HEAD "profiles:\n- plugins:\n"
     "    filter:\n      enabled: [{name: EBSLimits}]\n",
     "profiles[0].plugins.filter.enabled[0]: Invalid value: \"EBSLimits\": "
     "was invalid in version"},
    /* NewFit's ValidateNodeResourcesFitArgs (TestMostAllocatedScoring-
     * Strategy's error rows; weight 0 is defaulted to 1 before) */
    {"resource with negative weight", HEAD "profiles:\n- pluginConfig:\n"
     "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
     "        type: MostAllocated\n        resources: [{name: memory, "
     "weight: -1}, {name: cpu, weight: 1}]\n",
     "initializing plugin \"NodeResourcesFit\": "
     "scoringStrategy.resources[0].weight: Invalid value: -1: resource "
     "weight of memory not in valid range (0, 100]"},
    {"resource weight larger than MaxNodeScore", HEAD
     "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
     "      scoringStrategy:\n        type: MostAllocated\n"
     "        resources: [{name: memory, weight: 101}]\n",
     "scoringStrategy.resources[0].weight: Invalid value: 101"},
    {"unknown scoring strategy type", HEAD "profiles:\n- pluginConfig:\n"
     "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
     "        type: Foo\n",
     "scoringStrategy.type: Unsupported value: \"Foo\": supported values: "
     "\"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""},
    {"RequestedToCapacityRatio without a shape", HEAD
     "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
     "      scoringStrategy:\n        type: RequestedToCapacityRatio\n",
     "scoringStrategy.requestedToCapacityRatio: Required value: must be "
     "specified when type is RequestedToCapacityRatio"},
    /* the framework (NewFramework, updatePluginList, expandMultiPoint) */
    {"unknown plugin", HEAD "profiles:\n- plugins:\n    filter:\n"
     "      enabled: [{name: Foo}]\n",
     "initializing profiles: creating profile for scheduler name "
     "default-scheduler: FilterPlugin \"Foo\" does not exist"},
    {"unknown multiPoint plugin", HEAD "profiles:\n- plugins:\n"
     "    multiPoint:\n      enabled: [{name: Foo}]\n",
     "PreFilterPlugin \"Foo\" does not exist"},
    {"plugin that does not extend the point", HEAD "profiles:\n- plugins:\n"
     "    filter:\n      enabled: [{name: ImageLocality}]\n",
     "plugin \"ImageLocality\" does not extend FilterPlugin plugin"},
    {"plugin registered twice", HEAD "profiles:\n- plugins:\n"
     "    filter:\n      enabled: [{name: NodeName}, {name: NodeName}]\n",
     "plugin \"NodeName\" already registered as \"FilterPlugin\""},
    {"no queue sort plugin", HEAD "profiles:\n- plugins:\n"
     "    multiPoint:\n      disabled: [{name: PrioritySort}]\n",
     "no queue sort plugin is enabled"},
    {"no bind plugin", HEAD "profiles:\n- plugins:\n"
     "    bind:\n      disabled: [{name: '*'}]\n",
     "at least one bind plugin is needed"},
    /* leaderElection and clientConnection, after the v1 defaults */
    {"bad-resource-lock-not-leases", HEAD "leaderElection:\n"
     "  leaderElect: true\n  resourceLock: configmap\n",
     "leaderElection.resourceLock: Invalid value: \"configmap\": "
     "resourceLock value must be \"leases\""},
    {"leader election off: nothing checked", HEAD "leaderElection:\n"
     "  leaderElect: false\n  resourceLock: configmap\n"
     "  leaseDuration: 1s\n", NULL},
    {"negative lease duration", HEAD "leaderElection:\n"
     "  leaseDuration: -1m30s\n",
     "leaderElection.leaseDuration: Invalid value: -1m30s: must be greater "
     "than zero"},
    {"lease duration not above the renew deadline", HEAD
     "leaderElection:\n  leaseDuration: 5s\n",
     "leaderElection.leaseDuration: Invalid value: 10s: must be greater "
     "than `RenewDeadline`"},
    {"zero durations take the defaults", HEAD "leaderElection:\n"
     "  leaseDuration: 0s\n  renewDeadline: \"0\"\n  retryPeriod: 0ms\n",
     NULL},
    {"negative retry period", HEAD "leaderElection:\n"
     "  retryPeriod: -250ms\n",
     "leaderElection.retryPeriod: Invalid value: -250ms: must be greater "
     "than zero"},
    {"unreadable duration", HEAD "leaderElection:\n  renewDeadline: 10x\n",
     "leaderElection.renewDeadline: time: invalid duration \"10x\""},
    {"a duration is a string", HEAD "leaderElection:\n  renewDeadline: 10\n",
     "leaderElection.renewDeadline: expected a duration string"},
    {"leaderElection strict decoding", HEAD "leaderElection:\n"
     "  leaseDurations: 15s\n",
     "strict decoding error: unknown field \"leaderElection.leaseDurations\""},
    {"negative burst", HEAD "clientConnection:\n  qps: 10\n  burst: -1\n",
     "clientConnection.burst: Invalid value: -1: must be non-negative"},
    {"clientConnection strict decoding", HEAD "clientConnection:\n"
     "  qpss: 10\n",
     "strict decoding error: unknown field \"clientConnection.qpss\""},
    /* extenders: validated, then refused (not simulated) */
    {"extender-negative-weight", HEAD "extenders:\n"
     "- urlPrefix: http://a/\n  prioritizeVerb: prioritize\n  weight: -1\n",
     "extenders[0].weight: Invalid value: -1: must have a positive weight "
     "applied to it"},
    {"extender-duplicate-managed-resources", HEAD "extenders:\n"
     "- urlPrefix: http://a/\n  managedResources:\n"
     "  - name: example.com/foo\n  - name: example.com/foo\n",
     "extenders[0].managedResources[1].name: Invalid value: "
     "\"example.com/foo\": duplicate extender managed resource name"},
    {"extender-invalid-managed-resource", HEAD "extenders:\n"
     "- urlPrefix: http://a/\n  managedResources:\n  - name: cpu\n",
     "extenders[0].managedResources[0].name: Invalid value: \"cpu\": is an "
     "invalid extended resource name"},
    {"extender-duplicate-bind", HEAD "extenders:\n"
     "- urlPrefix: http://a/\n  bindVerb: bind\n"
     "- urlPrefix: http://b/\n  bindVerb: bind\n",
     "extenders: Invalid value: \"found 2 extenders implementing bind\": "
     "only one extender can implement bind"},
    {"a binder alone changes no decision", HEAD "extenders:\n"
     "- urlPrefix: http://a/\n  bindVerb: bind\n", NULL},
    {"a filtering extender cannot be replayed", HEAD "extenders:\n"
     "- urlPrefix: http://gpu/\n  filterVerb: filter\n"
     "  preemptVerb: preempt\n",
     "extenders[0] (http://gpu/): kube-scheduler calls this extender to "
     "filter, preempt, which cannot be replayed; --ignore-unknown-plugins "
     "runs without it"},
    /* validation_pluginargs_test.go TestValidateNodeAffinityArgs */
    {"NodeAffinity: valid added affinity", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: NodeAffinity\n    args:\n"
     "      addedAffinity:\n"
     "        requiredDuringSchedulingIgnoredDuringExecution:\n"
     "          nodeSelectorTerms:\n          - matchExpressions:\n"
     "            - {key: label-1, operator: In, values: [label-1-val]}\n"
     "        preferredDuringSchedulingIgnoredDuringExecution:\n"
     "        - weight: 1\n          preference:\n"
     "            matchFields:\n"
     "            - {key: metadata.name, operator: In, values: [node-1]}\n",
     NULL},
    {"NodeAffinity: invalid added affinity (matchFields)", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: NodeAffinity\n    args:\n"
     "      addedAffinity:\n"
     "        preferredDuringSchedulingIgnoredDuringExecution:\n"
     "        - weight: 1\n          preference:\n"
     "            matchFields:\n            - key: metadata.name\n"
     "              operator: In\n              values: [node-1, node-2]\n",
     "args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]"
     ".matchFields[0].values: Invalid value: []string{\"node-1\", "
     "\"node-2\"}: must have one element"},
    {"NodeAffinity: unsupported operator", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: NodeAffinity\n    args:\n"
     "      addedAffinity:\n"
     "        requiredDuringSchedulingIgnoredDuringExecution:\n"
     "          nodeSelectorTerms:\n          - matchExpressions:\n"
     "            - {key: zone, operator: Within, values: [a]}\n",
     "nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "
     "\"Within\": supported values: \"In\", \"NotIn\", \"Exists\", "
     "\"DoesNotExist\", \"Gt\", \"Lt\""},
    {"NodeAffinity: Gt needs an integer", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: NodeAffinity\n    args:\n"
     "      addedAffinity:\n"
     "        requiredDuringSchedulingIgnoredDuringExecution:\n"
     "          nodeSelectorTerms:\n          - matchExpressions:\n"
     "            - {key: cores, operator: Gt, values: [many]}\n",
     "matchExpressions[0].values[0]: Invalid value: \"many\": for 'Gt', "
     "'Lt' operators, the value must be an integer"},
    {"NodeAffinity: a 0-weight preferred term is not parsed", HEAD
     "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args:\n"
     "      addedAffinity:\n"
     "        preferredDuringSchedulingIgnoredDuringExecution:\n"
     "        - weight: 0\n          preference:\n"
     "            matchExpressions:\n            - {key: a, operator: Bad}\n",
     NULL},
    /* TestValidateVolumeBindingArgs (StorageCapacityScoring on, v1.37) */
    {"VolumeBinding: zero is a valid config", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: VolumeBinding\n    args:\n"
     "      bindTimeoutSeconds: 0\n", NULL},
    {"VolumeBinding: negative value is an invalid config", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: VolumeBinding\n    args:\n"
     "      bindTimeoutSeconds: -10\n",
     "args.bindTimeoutSeconds: Invalid value: -10: invalid "
     "BindTimeoutSeconds, should not be a negative value"},
    {"VolumeBinding: shape should not be empty", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: VolumeBinding\n    args:\n"
     "      shape: []\n",
     "args.shape: Required value: at least one point must be specified"},
    {"VolumeBinding: shape points must be sorted", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: VolumeBinding\n    args:\n"
     "      shape:\n      - {utilization: 10, score: 0}\n"
     "      - {utilization: 5, score: 10}\n",
     "args.shape[1].utilization: Invalid value: 5: values must be sorted "
     "in increasing order"},
    {"VolumeBinding: score out of range", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: VolumeBinding\n    args:\n"
     "      shape:\n      - {utilization: 0, score: 11}\n",
     "args.shape[0].score: Invalid value: 11: not in valid range [0, 10]"},
    {"VolumeBinding strict decoding", HEAD "profiles:\n"
     "- pluginConfig:\n  - name: VolumeBinding\n    args:\n"
     "      bindTimeout: 10\n",
     "strict decoding error: unknown field"},
    /* decoding */
    {"strict decoding", HEAD "profiles:\n- schedulerName: me\n  foo: 1\n",
     "strict decoding error: unknown field \"profiles[0].foo\""},
    {"old API version", "apiVersion: kubescheduler.config.k8s.io/v1beta3\n"
     "kind: KubeSchedulerConfiguration\n",
     "no kind \"KubeSchedulerConfiguration\" is registered for version "
     "\"kubescheduler.config.k8s.io/v1beta3\""},
};

static void
test_config__validation_rows(void)
{
    size_t i;

    for (i = 0; i < sizeof(validation_rows) / sizeof(validation_rows[0]);
         i++) {
        const struct validation_row *r = &validation_rows[i];
        struct kp_sched_config cfg;
        struct kp_error err = {0, ""};
        int rc = parse(&cfg, r->yaml, false, &err);
        bool ok = r->want ? rc < 0 && strstr(err.msg, r->want) : rc == 0;

        if (!ok)
            printf("#   %s: rc %d, error '%s'\n", r->name, rc, err.msg);
        CHECK(ok);
        kp_sched_config_release(&cfg);
    }
}

/* ---- defaults and the profile the simulation reads ---- */

static int
score_index(const char *name)
{
    size_t i;

    for (i = 0; i < kp_nscore_plugins; i++)
        if (strcmp(kp_score_plugins[i]->name, name) == 0)
            return (int)i;
    return -1;
}

static int
filter_index(const char *name)
{
    return row_plugin_index(name);
}

static void
test_config__empty_configuration_is_the_default_profile(void)
{
    struct kp_sched_config cfg;
    struct kp_error err = {0, ""};
    const struct kp_profile *p;
    size_t i;

    CHECK_EQ_INT(parse(&cfg, HEAD, false, &err), 0);
    CHECK_EQ_INT(cfg.nprofiles, 1);
    p = kp_sched_config_profile(&cfg, "default-scheduler");
    CHECK(p != NULL);
    if (p) {
        for (i = 0; i < kp_nscore_plugins; i++)
            CHECK_EQ_INT(p->score_weight[i], kp_score_plugins[i]->weight);
        for (i = 0; i < kp_nfilter_plugins; i++)
            CHECK(p->filter_on[i]);
        CHECK(p->default_preemption);
        CHECK(p->dra_post_filter);
        CHECK(p->fit_default && p->ba_default);
        CHECK_EQ_INT(p->min_candidate_nodes_percentage, 10);
        CHECK_EQ_INT(p->min_candidate_nodes_absolute, 100);
        CHECK_EQ_INT(p->hard_pod_affinity_weight, 1);
        CHECK_EQ_INT(p->percentage_of_nodes_to_score, 0);
    }
    kp_sched_config_release(&cfg);
}

static void
test_config__disabled_plugins_and_weights(void)
{
    struct kp_sched_config cfg;
    struct kp_error err = {0, ""};
    const struct kp_profile *p;
    const char *yaml = HEAD "percentageOfNodesToScore: 30\nprofiles:\n"
        "- schedulerName: a\n  plugins:\n"
        "    filter:\n      disabled: [{name: TaintToleration}]\n"
        "    score:\n      enabled: [{name: NodeResourcesFit, weight: 5}]\n"
        "      disabled: [{name: ImageLocality}]\n"
        "    postFilter:\n      disabled: [{name: '*'}]\n"
        "- schedulerName: b\n  percentageOfNodesToScore: 50\n  plugins:\n"
        "    multiPoint:\n      enabled: [{name: ImageLocality, weight: 7}]\n";

    CHECK_EQ_INT(parse(&cfg, yaml, false, &err), 0);
    p = kp_sched_config_profile(&cfg, "a");
    CHECK(p != NULL);
    if (p) {
        CHECK(!p->filter_on[filter_index("TaintToleration")]);
        CHECK(p->filter_on[filter_index("NodeName")]);
        CHECK_EQ_INT(p->score_weight[score_index("NodeResourcesFit")], 5);
        CHECK_EQ_INT(p->score_weight[score_index("ImageLocality")], 0);
        CHECK_EQ_INT(p->score_weight[score_index("TaintToleration")], 3);
        CHECK(!p->default_preemption && !p->dra_post_filter);
        CHECK_EQ_INT(p->percentage_of_nodes_to_score, 30);
    }
    p = kp_sched_config_profile(&cfg, "b");
    CHECK(p != NULL);
    if (p) {
        /* the custom MultiPoint entry replaced the default in place */
        CHECK_EQ_INT(p->score_weight[score_index("ImageLocality")], 7);
        CHECK_EQ_INT(p->percentage_of_nodes_to_score, 50);
    }
    kp_sched_config_release(&cfg);
}

static void
test_config__unknown_plugin_dropped_with_a_warning(void)
{
    struct kp_sched_config cfg;
    struct kp_error err = {0, ""};
    const char *yaml = HEAD "profiles:\n- plugins:\n    multiPoint:\n"
        "      enabled: [{name: Coscheduling}]\n";

    CHECK_EQ_INT(parse(&cfg, yaml, true, &err), 0);
    CHECK_EQ_INT(cfg.nwarnings, 1);
    if (cfg.nwarnings)
        CHECK(strstr(cfg.warnings[0], "'Coscheduling'") != NULL);
    kp_sched_config_release(&cfg);
}

static void
test_config__openshift_profiles(void)
{
    struct kp_sched_config cfg;
    struct kp_error err = {0, ""};
    const struct kp_profile *p;

    CHECK_EQ_INT(kp_sched_config_openshift(&cfg, "HighNodeUtilization",
                                           &err), 0);
    p = kp_sched_config_profile(&cfg, "default-scheduler");
    CHECK(p && p->scoring == KP_MOST_ALLOCATED);
    CHECK(p && p->score_weight[score_index("NodeResourcesFit")] == 5);
    CHECK(p && p->score_weight[score_index(
        "NodeResourcesBalancedAllocation")] == 0);
    kp_sched_config_release(&cfg);
    CHECK_EQ_INT(kp_sched_config_openshift(&cfg, "NoScoring", &err), 0);
    p = kp_sched_config_profile(&cfg, "default-scheduler");
    CHECK(p && p->score_weight[score_index("TaintToleration")] == 0);
    CHECK(p && p->score_weight[score_index("ImageLocality")] == 0);
    kp_sched_config_release(&cfg);
}

/* ---- scoring strategies ---- */

#define CAP(name, cpu, mem)                                                \
    T_NODE_X(name, "", "", "\"cpu\":\"" cpu "\",\"memory\":\"" mem "\"")
#define CAPX(name, cpu, mem, ext)                                          \
    T_NODE_X(name, "", "", "\"cpu\":\"" cpu "\",\"memory\":\"" mem "\","   \
             ext)
#define REQ(cpu, mem)                                                      \
    "{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\","   \
    "\"memory\":\"" mem "\"}}}"
#define REQX(cpu, mem, ext)                                                \
    "{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\","   \
    "\"memory\":\"" mem "\"," ext "}}}"
#define EREQ(ext) "{\"name\":\"c\",\"resources\":{\"requests\":{" ext "}}}"
#define BARE "{\"name\":\"c\"}"
#define RPOD(name, node, containers)                                       \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":\"" \
    name "\"},\"spec\":{\"nodeName\":\"" node "\",\"containers\":["        \
    containers "]}}"
#define REQ_1_2 REQ("1000", "2000") "," REQ("2000", "3000")
#define FOO "\"intel.com/foo\""

#define FIT(strategy, extra)                                               \
    HEAD "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n"        \
    "    args:\n      scoringStrategy:\n        type: " strategy "\n" extra
#define MOST FIT("MostAllocated", "")
#define MOST_RES(res) FIT("MostAllocated", "        resources: " res "\n")
#define RTCR_DEFAULT                                                       \
    FIT("RequestedToCapacityRatio", "        requestedToCapacityRatio:\n"   \
        "          shape: [{utilization: 0, score: 10}, "                  \
        "{utilization: 100, score: 0}]\n")
#define RTCR_FOO                                                           \
    FIT("RequestedToCapacityRatio", "        resources: [{name: "           \
        "intel.com/foo, weight: 1}]\n        requestedToCapacityRatio:\n"   \
        "          shape: [{utilization: 0, score: 0}, "                   \
        "{utilization: 100, score: 1}]\n")

struct strategy_row {
    const char *name;
    const char *config;
    const char *json;
    const char *nodes;
    int64_t want[4];
};

static const struct strategy_row strategy_rows[] = {
    /* TestMostAllocatedScoringStrategy */
    {"nothing scheduled, nothing requested", MOST,
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "4000", "10000")
            "," RPOD("p", "", "")), "node1 node2", {0, 0}},
    {"nothing scheduled, resources requested, differently sized nodes", MOST,
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "6000", "10000")
            "," RPOD("p", "", REQ_1_2)), "node1 node2", {62, 50}},
    {"no resources requested, pods scheduled with resources", MOST,
     T_LIST(CAP("node1", "10000", "20000") "," CAP("node2", "10000", "20000")
            "," RPOD("e1", "node1", REQ("3000", "0")) ","
            RPOD("e2", "node1", REQ("3000", "0")) ","
            RPOD("e3", "node2", REQ("3000", "0")) ","
            RPOD("e4", "node2", REQ("3000", "5000")) "," RPOD("p", "", "")),
     "node1 node2", {30, 42}},
    {"resources requested, pods scheduled with resources", MOST,
     T_LIST(CAP("node1", "10000", "20000") "," CAP("node2", "10000", "20000")
            "," RPOD("e1", "node1", REQ("3000", "0")) ","
            RPOD("e2", "node2", REQ("3000", "5000")) ","
            RPOD("p", "", REQ_1_2)), "node1 node2", {42, 55}},
    {"resources requested equal node capacity", MOST,
     T_LIST(CAP("node1", "5000", "10000") "," CAP("node2", "10000", "9000")
            "," RPOD("p", "", REQ("2000", "4000") "," REQ("3000", "5000"))),
     "node1 node2", {95, 75}},
    {"nothing scheduled, resources requested, differently sized nodes "
     "(memory weight 2)", MOST_RES("[{name: memory, weight: 2}, "
                                   "{name: cpu, weight: 1}]"),
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "6000", "10000")
            "," RPOD("p", "", REQ_1_2)), "node1 node2", {58, 50}},
    {"no resources requested, pods scheduled, nonzero request for resource",
     MOST,
     T_LIST(CAP("node1", "250m", "1000Mi") "," CAP("node2", "250m", "1000Mi")
            "," RPOD("e1", "node1", BARE) "," RPOD("e2", "node1", BARE) ","
            RPOD("p", "", BARE)), "node1 node2", {80, 30}},
    {"bypass extended resource if the pod does not request",
     MOST_RES("[{name: cpu, weight: 1}, {name: memory, weight: 1}, "
              "{name: intel.com/foo, weight: 1}]"),
     T_LIST(CAP("node1", "6000", "10000") ","
            CAPX("node2", "6000", "10000", FOO ":\"4\"") ","
            RPOD("p", "", REQ_1_2)), "node1 node2", {50, 50}},
    {"honor extended resource if the pod request",
     MOST_RES("[{name: cpu, weight: 1}, {name: memory, weight: 1}, "
              "{name: intel.com/foo, weight: 1}]"),
     T_LIST(CAPX("node1", "6000", "10000", FOO ":\"4\"") ","
            CAPX("node2", "6000", "10000", FOO ":\"10\"") ","
            RPOD("p", "", REQX("3000", "5000", FOO ":\"2\""))),
     "node1 node2", {50, 40}},
    {"if the node doesn't have a resource",
     MOST_RES("[{name: intel.com/foo, weight: 2}, {name: cpu, weight: 1}, "
              "{name: memory, weight: 1}]"),
     T_LIST(CAP("node1", "6000", "10000") ","
            CAPX("node2", "6000", "10000", FOO ":\"4\"") ","
            RPOD("p", "", REQ("3000", "4000"))), "node1 node2", {45, 45}},
    /* TestRequestedToCapacityRatioScoringStrategy */
    {"nothing scheduled, nothing requested (default - least requested "
     "nodes have priority)", RTCR_DEFAULT,
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "4000", "10000")
            "," RPOD("e1", "node1", "") "," RPOD("e2", "node1", "") ","
            RPOD("p", "", "")), "node1 node2", {100, 100}},
    {"nothing scheduled, resources requested, differently sized nodes "
     "(default - least requested nodes have priority)", RTCR_DEFAULT,
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "6000", "10000")
            "," RPOD("e1", "node1", "") "," RPOD("e2", "node1", "") ","
            RPOD("p", "", REQ_1_2)), "node1 node2", {38, 50}},
    {"no resources requested, pods scheduled with resources (default - "
     "least requested nodes have priority)", RTCR_DEFAULT,
     T_LIST(CAP("node1", "4000", "10000") "," CAP("node2", "6000", "10000")
            "," RPOD("e1", "node1", REQ("3000", "5000")) ","
            RPOD("e2", "node2", REQ("3000", "5000")) "," RPOD("p", "", "")),
     "node1 node2", {38, 50}},
    /* TestResourceBinPackingSingleExtended */
    {"nothing scheduled, nothing requested (intel.com/foo)", RTCR_FOO,
     T_LIST(CAPX("node1", "4", "10000Mi", FOO ":\"8\"") ","
            CAPX("node2", "4", "10000Mi", FOO ":\"4\"") ","
            RPOD("p", "", "")), "node1 node2", {0, 0}},
    {"resources requested, pods scheduled with less resources", RTCR_FOO,
     T_LIST(CAPX("node1", "4", "10000Mi", FOO ":\"8\"") ","
            CAPX("node2", "4", "10000Mi", FOO ":\"4\"") ","
            RPOD("p", "", EREQ(FOO ":\"2\""))), "node1 node2", {2, 5}},
    {"resources requested, pods scheduled with resources, on node with "
     "existing pod running ", RTCR_FOO,
     T_LIST(CAPX("node1", "4", "10000Mi", FOO ":\"8\"") ","
            CAPX("node2", "4", "10000Mi", FOO ":\"4\"") ","
            RPOD("e1", "node2", EREQ(FOO ":\"2\"")) ","
            RPOD("p", "", EREQ(FOO ":\"2\""))), "node1 node2", {2, 10}},
    {"resources requested, pods scheduled with more resources", RTCR_FOO,
     T_LIST(CAPX("node1", "4", "10000Mi", FOO ":\"8\"") ","
            CAPX("node2", "4", "10000Mi", FOO ":\"4\"") ","
            RPOD("p", "", EREQ(FOO ":\"4\""))), "node1 node2", {5, 10}},
};

static bool
run_strategy_row(const struct strategy_row *r)
{
    struct kp_sched_config cfg;
    struct kp_error err = {0, ""};
    struct row_fixture fx;
    struct kp_score_nodes f;
    int idx[4];
    int64_t got[4];
    size_t n = 0, i;
    const char *s = r->nodes;
    bool ok = parse(&cfg, r->config, false, &err) == 0;

    if (!ok)
        printf("#   config: %s\n", err.msg);
    ok = ok && row_setup(&fx, r->json, "p");
    while (ok && *s && n < 4) {
        char name[64];
        size_t len = strcspn(s, " ");

        snprintf(name, sizeof(name), "%.*s", (int)len, s);
        idx[n++] = row_node(&fx, name);
        s += len + (s[len] == ' ');
    }
    if (ok) {
        fx.c.profile = kp_sched_config_profile(&cfg, "default-scheduler");
        f.c = &fx.c;
        f.nodes = idx;
        f.n = n;
        kp_score_plugin_run(&kp_score_node_resources_fit, &f, got);
    }
    for (i = 0; ok && i < n; i++)
        if (got[i] != r->want[i]) {
            printf("#   node %zu: got %lld, want %lld\n", i,
                   (long long)got[i], (long long)r->want[i]);
            ok = false;
        }
    if (!ok)
        printf("#   row: %s\n", r->name);
    row_teardown(&fx);
    kp_sched_config_release(&cfg);
    return ok;
}

static void
test_config__scoring_strategy_rows(void)
{
    size_t i;

    for (i = 0; i < sizeof(strategy_rows) / sizeof(strategy_rows[0]); i++)
        CHECK(run_strategy_row(&strategy_rows[i]));
}

static void
test_config__num_feasible_nodes_with_a_percentage(void)
{
    CHECK_EQ_INT(kp_num_feasible_nodes_pct(10, 40), 10);
    CHECK_EQ_INT(kp_num_feasible_nodes_pct(1000, 40), 400);
    CHECK_EQ_INT(kp_num_feasible_nodes_pct(1000, 5), 100);
    CHECK_EQ_INT(kp_num_feasible_nodes_pct(6000, 0), 300);
    CHECK_EQ_INT(kp_num_feasible_nodes_pct(1000, 100), 1000);
}

static int
server_minor(const char *body)
{
    return kp_kube_version_from_server(body, strlen(body));
}

/* The API server's /version (k8s.io/apimachinery/pkg/version.Info). */
static void
test_config__server_version(void)
{
    CHECK_EQ_INT(server_minor("{\"major\": \"1\", \"minor\": \"36\", "
                              "\"gitVersion\": \"v1.36.2\"}"), 36);
    /* EKS and GKE: minor "33+", gitVersion with a suffix */
    CHECK_EQ_INT(server_minor("{\"major\": \"1\", \"minor\": \"33+\", "
                              "\"gitVersion\": \"v1.33.5-eks-3025e55\"}"),
                 33);
    CHECK_EQ_INT(server_minor("{\"gitVersion\": \"v1.34.1+k3s1\"}"), 34);
    CHECK_EQ_INT(server_minor("{\"major\": \"\", \"minor\": \"\", "
                              "\"gitVersion\": \"v1.37.0-rc.1\"}"), 37);
    /* outside the supported range: still read, for the message */
    CHECK_EQ_INT(server_minor("{\"major\": \"1\", \"minor\": \"29\"}"), 29);
    CHECK_EQ_INT(server_minor("{\"gitVersion\": \"v1.40.0\"}"), 40);
    /* nothing to read */
    CHECK_EQ_INT(server_minor("{\"major\": \"2\", \"minor\": \"1\"}"), -1);
    CHECK_EQ_INT(server_minor("{\"minor\": \"x\", \"gitVersion\": 7}"), -1);
    CHECK_EQ_INT(server_minor("{\"gitVersion\": \"1.36.0\"}"), -1);
    CHECK_EQ_INT(server_minor("<html>502</html>"), -1);
    CHECK_EQ_INT(server_minor("[]"), -1);
    CHECK_EQ_INT(server_minor(""), -1);
    CHECK_EQ_INT(kp_kube_version_from_server("{\"gitVersion\": \"v1.35.0\"}\"",
                                             25), 35);
}

int
main(void)
{
    RUN(test_config__merge_plugins_rows);
    RUN(test_config__validation_rows);
    RUN(test_config__empty_configuration_is_the_default_profile);
    RUN(test_config__disabled_plugins_and_weights);
    RUN(test_config__unknown_plugin_dropped_with_a_warning);
    RUN(test_config__openshift_profiles);
    RUN(test_config__scoring_strategy_rows);
    RUN(test_config__num_feasible_nodes_with_a_percentage);
    RUN(test_config__server_version);
    return check_done();
}
