#!/usr/bin/env bats
# add.bats - "--add FILE": manifests not yet applied, expanded into the
# pods their controllers would create, analysed with examples/cluster.json
# (4 nodes; gpu-1 tainted nvidia.com/gpu:NoSchedule; etl-pdb allows one
# disruption of the three etl workers).
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/examples/cluster.json"
ADD="$ROOT/tests/fixtures/add"

# kp_pods ARGS...: NAMESPACE NAME PRIORITY of each reported pod that the
# change adds (CHANGE new: --only-added also reports the pending pods whose
# answer the change touches, issue 25), one a line; the table only
kp_pods() {
    "$KP" -f "$CLUSTER" --no-headers "$@" |
        awk 'NF == 0 {exit} $8 == "new" {print $1, $2, $3}'
}

@test "a Pod from YAML is added as written, with its PriorityClass resolved" {
    run kp_pods --add "$ADD/pod.yaml" --only-added
    assert_success
    assert_output "prod api-canary 1000000"
}

@test "a Deployment in YAML becomes spec.replicas pods named <name>-added-<i>" {
    run kp_pods --add "$ADD/deployment.yaml" --only-added --mode queue
    assert_success
    assert_output "$(printf '%s\n' 'prod api-added-0 100000' \
        'prod api-added-1 100000' 'prod api-added-2 100000')"
}

@test "a ReplicaSet in JSON becomes spec.replicas pods" {
    run kp_pods --add "$ADD/replicaset.json" --only-added
    assert_success
    assert_output "$(printf '%s\n' 'prod frontend-added-0 100000' \
        'prod frontend-added-1 100000')"
}

@test "a StatefulSet becomes pods <name>-<ordinal>" {
    run --separate-stderr kp_pods --add "$ADD/statefulset.yaml" --only-added
    assert_success
    assert_output "$(printf '%s\n' 'prod db-0 100000' 'prod db-1 100000')"
    # their claims are not evaluated: the snapshot carries no PVCs
    assert_equal "$stderr" "warning: 2 pod(s) use PersistentVolumeClaims or ephemeral volumes, which are not evaluated: the input has no PersistentVolumeClaims (add pvc,pv,storageclasses,csinodes to kubectl get)"
}

@test "a Job starts min(parallelism, completions) pods <name>-<i>" {
    run kp_pods --add "$ADD/job.yaml" --only-added
    assert_success
    assert_output "$(printf '%s\n' 'batch reindex-0 1000' \
        'batch reindex-1 1000')"
}

@test "a Job without priorityClassName gets the globalDefault class" {
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/job.yaml' --only-added \
        -o summary --no-headers | awk 'NF == 0 {exit} {print \$1, \$2, \$3, \$4}'"
    assert_success
    assert_output "batch 1000 batch 2"
}

@test "a DaemonSet gets one pod per node whose taints it tolerates" {
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/daemonset.yaml' \
        --only-added -o wide --no-headers |
        awk 'NF == 0 {exit} \$13 == \"new\" {print \$1, \$2, \$8}'"
    assert_success
    assert_output "$(printf '%s\n' \
        'monitoring node-exporter-node-a node-a' \
        'monitoring node-exporter-node-b node-b' \
        'monitoring node-exporter-node-c node-c' \
        'kube-system gpu-driver-gpu-1 gpu-1')"
}

@test "DaemonSet pods are pinned to their node by a matchFields affinity" {
    need jq
    # 600m: only node-b has room; the others' pods preempt on their node
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/daemonset-pinned.yaml' \
        --only-added -o json | jq -r '.pods[] | select(.added) |
        \"\(.name) \(.result) \(.node // .nominatedNode)\"'"
    assert_success
    assert_output "$(printf '%s\n' 'log-agent-node-a Preempts node-a' \
        'log-agent-node-b Fits node-b' 'log-agent-node-c Preempts node-c')"
}

@test "added pods are queued after existing pods of the same priority" {
    need jq
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/deployment.yaml' \
        --mode queue -o json | jq -r '.pods[] | select(.priority == 100000)
        | \"\(.queuePosition) \(.name)\"'"
    assert_success
    assert_output "$(printf '%s\n' '2 search-0' '3 sidecar-light' \
        '4 train-1' '5 api-added-0' '6 api-added-1' '7 api-added-2')"
}

@test "-o json marks added pods with \"added\": true and no other pod" {
    need jq
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/pod.yaml' -o json |
        jq -c '[.pods[] | select(has(\"added\")) | {name, added}]'"
    assert_success
    assert_output '[{"name":"api-canary","added":true}]'
}

@test "-o wide has an ADDED column only with --add" {
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/pod.yaml' -o wide |
        awk 'NR == 1 {print \$12} \$2 == \"api-canary\" || \$2 == \"checkout-0\" {print \$2, \$12}'"
    assert_success
    assert_output "$(printf '%s\n' ADDED 'checkout-0 no' 'api-canary yes')"
    run bash -c "'$KP' -f '$CLUSTER' -o wide | head -1"
    refute_output --partial ADDED
}

@test "--only-added reports added pods and still lists existing victims" {
    need jq
    # independent: the pod meets the snapshot as it is (in queue mode
    # checkout-0, pending with the same priority and older, goes first)
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/pod.yaml' --only-added \
        --mode independent -o json | jq -c '[.pods[] | {name, result, pdbViolations,
        victims: [.victims[] | .namespace + \"/\" + .name]}]'"
    assert_success
    assert_output '[{"name":"api-canary","result":"Preempts","pdbViolations":1,"victims":["batch/etl-worker-0","batch/etl-worker-1"]}]'
}

@test "exit status is 3 when --fail-on pdb-violation matches an added pod" {
    run "$KP" -f "$CLUSTER" --add "$ADD/pod.yaml" --only-added \
        --fail-on pdb-violation
    assert_failure 3
    assert_line --index 1 --regexp '^prod +api-canary +1000000 +Preempts'
}

@test "exit status is 0 when the added pods violate no PDB" {
    run "$KP" -f "$CLUSTER" --add "$ADD/pod-small.json" --only-added \
        --fail-on pdb-violation
    assert_success
    assert_line --index 1 --regexp '^default +debug-shell +1000 +Fits'
}

@test "--only-added leaves existing pods out of --fail-on" {
    # checkout-0, already pending, violates etl-pdb: without --only-added
    # it decides the exit status
    run "$KP" -f "$CLUSTER" --add "$ADD/pod-small.json" \
        --fail-on pdb-violation
    assert_failure 3
}

@test "manifests without a namespace go to -n" {
    # one namespace: the table has no NAMESPACE column (kubectl get -n),
    # so CHANGE is the 7th
    run bash -c "'$KP' -f '$CLUSTER' --no-headers -n batch \
        --add '$ADD/pod-small.json' --only-added |
        awk 'NF == 0 {exit} \$7 == \"new\" {print \$1, \$2, \$3}'"
    assert_success
    assert_output "debug-shell 1000 Fits"
}

@test "--add - reads the manifest from standard input" {
    run bash -c "'$KP' -f '$CLUSTER' --add - --only-added --no-headers \
        < '$ADD/statefulset.yaml' 2>/dev/null |
        awk 'NF == 0 {exit} \$8 == \"new\" {print \$2}'"
    assert_success
    assert_output "$(printf '%s\n' db-0 db-1)"
}

@test "--add is repeatable and keeps manifest order" {
    need jq
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/job.yaml' \
        --add '$ADD/pod-small.json' --only-added -o json |
        jq -r '.pods[] | .name'"
    assert_success
    assert_output "$(printf '%s\n' reindex-0 reindex-1 debug-shell)"
}

@test "kinds that create no pods are ignored and counted on stderr, even without -v" {
    run "$KP" -f "$CLUSTER" --add "$ROOT/examples/release.yaml" \
        --only-added --mode queue --no-headers
    assert_success
    assert_line --index 0 "warning: $ROOT/examples/release.yaml: ignored 2 object(s) that make no pods (ConfigMap, Service)"
    assert_line --index 1 --regexp '^prod +payments-added-0 +1000000 '
    assert_line --index 3 --regexp '^prod +search-0 +100000 +Unschedulable .* worse +Preempts$'
    assert_line --index 4 --regexp '^prod +payments-migrate-0 +100000 '
}

@test "-o summary counts pods, victims and PDB violations per class and namespace" {
    run "$KP" -f "$CLUSTER" --add "$ADD/pod.yaml" --only-added -o summary
    assert_success
    assert_output "$(cat <<'EOF'
PRIORITYCLASS   PRIORITY   NAMESPACE   PENDING   FITS   PREEMPTS   UNSCHEDULABLE   NOT-ELIGIBLE   VICTIMS   PDB-VIOLATIONS
prod-critical   1000000    prod        1         0      1          0               0              2         1
prod            100000     prod        1         1      0          0               0              0         0
TOTAL           -          -           2         1      1          0               0              2         1

Compared with the cluster without the change: 0 better, 0 worse, 1 changed, 0 unchanged, 1 new; 2 new victims, 1 new PDB violation
  changed           prod/sidecar-light: Fits on node-a -> Fits on node-b
  new victim        prod/cache-0 on node-b, by prod/api-canary
  new victim        prod/web-1 on node-b, by prod/api-canary
  new PDB violation prod/web-1 (prod/web-pdb), by prod/api-canary
EOF
)"
}

@test "a bad field exits 1 with one line naming file, document, object and field" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/bad-replicas.yaml"
    assert_failure 1
    assert_output ""
    [ "$stderr" = "error: $ADD/bad-replicas.yaml: document 2: deployment 'prod/api': spec.replicas: expected an integer" ]
}

@test "a bad field of a pod template is named by its path in the manifest" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/bad-container.yaml"
    assert_failure 1
    [ "$stderr" = "error: $ADD/bad-container.yaml: document 1: deployment 'prod/api': spec.template.spec.containers[0].resources.requests.cpu: invalid quantity 'lots'" ]
}

@test "invalid YAML exits 1 naming the line" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/bad-syntax.yaml"
    assert_failure 1
    [ "$stderr" = "error: $ADD/bad-syntax.yaml: invalid YAML at line 6, column 5: did not find expected ',' or '}' (while parsing a flow mapping)" ]
}

@test "an unknown PriorityClass is refused as admission would refuse it" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/bad-class.yaml"
    assert_failure 1
    [ "$stderr" = "error: $ADD/bad-class.yaml: document 1: statefulset 'prod/session-store': pod 'prod/session-store-0': spec.priorityClassName: no PriorityClass with name 'prod-ultra' was found" ]
}

@test "a Pod that already exists is an error" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/existing-pod.yaml"
    assert_failure 1
    [ "$stderr" = "error: $ADD/existing-pod.yaml: document 1: pod 'prod/web-0': already exists in the snapshot" ]
}

@test "YAML anchors, aliases and merge keys are read as kubectl reads them" {
    # go-yaml v2 (sigs.k8s.io/yaml): an alias copies its anchor's value;
    # an unknown anchor is an error naming it
    printf 'a: &x 1\nb: *y\n' > "$BATS_TEST_TMPDIR/alias.yaml"
    run --separate-stderr "$KP" -f "$CLUSTER" \
        --add "$BATS_TEST_TMPDIR/alias.yaml"
    assert_failure 1
    [ "$stderr" = "error: $BATS_TEST_TMPDIR/alias.yaml: line 2, column 4: unknown anchor 'y' referenced" ]
}

@test "a missing --add file exits 1" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/nope.yaml"
    assert_failure 1
    [ "$stderr" = "error: $ADD/nope.yaml: No such file or directory" ]
}

@test "--only-added without --add is a usage error" {
    run "$KP" -f "$CLUSTER" --only-added
    assert_failure 2
}

@test "standard input cannot feed both -f and --add" {
    run "$KP" -f - --add - < /dev/null
    assert_failure 2
}

@test "a CronJob becomes one run of its Job: min(parallelism, completions) pods" {
    need jq
    run kp_pods --add "$ADD/cronjob.yaml" --only-added
    assert_success
    assert_output "$(printf '%s\n' 'batch nightly-added-0 1000' \
        'batch nightly-added-1 1000')"
    run bash -c "'$KP' -f '$CLUSTER' --add '$ADD/cronjob.yaml' --only-added \
        -o json | jq -r '.pods[0].name'"
    assert_output nightly-added-0
}

@test "a suspended CronJob makes no pods, and --only-added says there is nothing" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/cronjob-suspended.yaml" \
        --only-added --fail-on preemption
    assert_success
    assert_output ''
    assert_equal "$stderr" "warning: --only-added: no pod to report: the --add manifests made 0 pod(s)
No pending pods found in any namespace."
}

@test "an error in a CronJob's pod template names the CronJob and the field" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/cronjob-bad.yaml"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: $ADD/cronjob-bad.yaml: document 1: cronjob 'batch/broken': spec.jobTemplate.spec.template.spec.containers[0].resources.requests.cpu: invalid quantity '1.5.0'"
}

@test "a ReplicationController becomes spec.replicas pods, as a ReplicaSet" {
    run kp_pods --add "$ADD/replicationcontroller.yaml" --only-added
    assert_success
    assert_output "$(printf '%s\n' 'prod legacy-added-0 1000' \
        'prod legacy-added-1 1000')"
}

@test "an object of another kind with a pod template is an error, not skipped" {
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/crd-with-template.yaml"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: $ADD/crd-with-template.yaml: document 2: rollout 'prod/checkout': spec.template: kind Rollout is not supported by --add: the pods it would make cannot be made (supported: Pod, Deployment, ReplicaSet, ReplicationController, StatefulSet, Job, CronJob, DaemonSet)"
}

@test "objects that make no pods are counted per file, kinds named once" {
    need jq
    run --separate-stderr "$KP" -f "$CLUSTER" --add "$ADD/no-pods.yaml" -o json
    assert_success
    assert_equal "${stderr_lines[0]}" "warning: $ADD/no-pods.yaml: ignored 3 object(s) that make no pods (Service, ConfigMap)"
    assert_equal "$(jq -r '.warnings[0]' <<<"$output")" "${stderr_lines[0]#warning: }"
}
