#!/usr/bin/env bats
# volumes.bats - snapshots with PersistentVolumeClaims, PersistentVolumes,
# StorageClasses and CSINodes (the volume filters), and without them.
#
# tests/fixtures/volumes/cluster.json is what `kubectl get nodes,pods,pvc,
# pv,storageclasses,csinodes -A -o json` prints for three nodes in three
# zones: prod/db-0 needs data-db-0, whose PV lives in eu-west-1a, where
# node-a is full of higher-priority pods; prod/ledger-writer needs the
# ReadWriteOncePod claim prod/ledger, which prod/report-0 (priority 0)
# holds on node-b.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/tests/fixtures/volumes/cluster.json"

# field POD JQ: the jq expression on the report entry of POD (last run)
field() {
    printf '%s\n' "$output" |
        jq -r --arg n "$1" ".pods[] | select(.name == \$n) | $2"
}

@test "loads PVC, PV and StorageClass objects and reports a volume node affinity conflict" {
    need jq
    run --separate-stderr "$KP" -f "$CLUSTER" -o json --mode independent \
        prod/db-0
    assert_success
    assert_equal "$stderr" ""
    assert_equal "$(field db-0 .result)" "Unschedulable"
    assert_equal "$(field db-0 .message)" "0/3 nodes are available: 1 node(s) had volume node affinity conflict, 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling, 1 node(s) had volume node affinity conflict."
}

@test "evicting the holder of a ReadWriteOncePod claim gives the preemptor the node" {
    need jq
    run --separate-stderr "$KP" -f "$CLUSTER" -o json prod/ledger-writer
    assert_success
    assert_equal "$(field ledger-writer .result)" "Preempts"
    assert_equal "$(field ledger-writer .nominatedNode)" "node-b"
    assert_equal "$(field ledger-writer '[.victims[].name] | join(",")')" \
        "report-0"
    assert_equal "$(field ledger-writer .message)" "0/3 nodes are available: 3 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode. preemption: found a potential placement for pod on node node-b, preempting 1 victims."
}

@test "in queue order the claim's volume zone decides once the holder is gone" {
    need jq
    run --separate-stderr "$KP" -f "$CLUSTER" -o json
    assert_success
    assert_equal "$(field db-0 .message)" "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had volume node affinity conflict. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
}

@test "without PVCs in the input, claims are not evaluated and one warning says so" {
    need jq
    jq '.items |= map(select(.kind != "PersistentVolumeClaim"))' \
        "$CLUSTER" > "$BATS_TEST_TMPDIR/no-pvc.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/no-pvc.json" -o json \
        --mode independent
    assert_success
    assert_equal "$stderr" "warning: 3 pod(s) use PersistentVolumeClaims or ephemeral volumes, which are not evaluated: the input has no PersistentVolumeClaims (add pvc,pv,storageclasses,csinodes to kubectl get)"
    assert_equal "$(field ledger-writer .result)" "Fits"
}

@test "with PVCs in the input, a missing claim rejects the pod as kube-scheduler does" {
    need jq
    jq '.items |= map(select(.metadata.name != "data-db-0"))' \
        "$CLUSTER" > "$BATS_TEST_TMPDIR/no-db-claim.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/no-db-claim.json" \
        -o json --mode independent prod/db-0
    assert_success
    assert_equal "$(field db-0 .message)" "0/3 nodes are available: persistentvolumeclaim \"data-db-0\" not found. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
}

@test "storage objects are not counted as objects of other kinds" {
    run --separate-stderr "$KP" -f "$CLUSTER" -v -o json
    assert_success
    assert_equal "$stderr" ""
}

@test "--add creates a StatefulSet's missing claims, in the default StorageClass" {
    need jq
    jq '.items += [{"apiVersion": "scheduling.k8s.io/v1",
                    "kind": "PriorityClass", "metadata": {"name": "prod"},
                    "value": 100000}]' "$CLUSTER" > "$BATS_TEST_TMPDIR/c.json"
    # db-0 exists (with its claim); db-1 gets data-db-1 in gp3
    # (WaitForFirstConsumer, provisioned where the pod goes)
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/c.json" \
        --add "$ROOT/tests/fixtures/add/statefulset.yaml" --only-added \
        -o json --mode independent
    assert_success
    assert_equal "$(field db-1 .result)" "Fits"
    assert_equal "$stderr" "warning: $ROOT/tests/fixtures/add/statefulset.yaml: document 1: statefulset 'prod/db': pod 'prod/db-0' already exists: not added"
    # without a provisioner the new claim cannot be bound anywhere
    jq '(.items[] | select(.kind == "StorageClass") | .provisioner) =
        "kubernetes.io/no-provisioner"' "$BATS_TEST_TMPDIR/c.json" \
        > "$BATS_TEST_TMPDIR/c2.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/c2.json" \
        --add "$ROOT/tests/fixtures/add/statefulset.yaml" --only-added \
        -o json --mode independent
    assert_success
    assert_equal "$(field db-1 .message)" "0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
}
