#!/usr/bin/env bats
# kubectl_surprises.bats - issue 29's small surprises, each as a kubectl
# user meets it: a bare pod name found in another namespace is named, the
# no-kubeconfig error mentions -f, the same object in two -f files is
# merged when identical and refused (naming both files) when not, one
# namespace drops the NAMESPACE column as kubectl get does, and --fail-on
# drain-blocked says whether the drain stops at once or would hang.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

load '../helpers/fake_cluster'

CLUSTER="$ROOT/examples/cluster.json"

setup_file() {
    fake_cluster_pki
}

setup() {
    SERVER_PID=
}

teardown() {
    fake_cluster_stop
}

@test "a bare name found in one other namespace: did you mean NAMESPACE/NAME" {
    run --separate-stderr "$KP" -f "$CLUSTER" train-1
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: pod 'default/train-1' not found; did you mean 'ml/train-1'? (a name without a namespace is looked up in namespace default; give NAMESPACE/NAME or -n)"
    # found where it is looked for: no error
    run --separate-stderr "$KP" -f "$CLUSTER" -n ml train-1
    assert_success
}

@test "a bare name in several other namespaces: they are listed" {
    need jq
    jq '.items += [.items[] | select(.metadata.name == "train-1") |
                   .metadata.namespace = "batch" | .metadata.uid = "x"]' \
        "$CLUSTER" >"$BATS_TEST_TMPDIR/two.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/two.json" train-1
    assert_failure 1
    assert_equal "$stderr" "error: pod 'default/train-1' not found; a pod 'train-1' is in namespaces ml, batch: give NAMESPACE/NAME or -n"
    # NAMESPACE/NAME is looked up there only
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/two.json" prod/train-1
    assert_equal "$stderr" "error: pod 'prod/train-1' not found"
}

@test "no kubeconfig, no cluster: the error says -f reads a snapshot" {
    export HOME="$BATS_TEST_TMPDIR" KP_SERVICEACCOUNT_DIR="$BATS_TEST_TMPDIR/none"
    unset KUBECONFIG KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT
    run --separate-stderr "$KP"
    assert_failure 1
    assert_output ''
    [[ $stderr == "error: no configuration has been provided"*"or -f FILE to analyse a snapshot"* ]]
}

@test "a directory holding two copies of a snapshot: merged; a changed copy: both files named" {
    need jq
    local d="$BATS_TEST_TMPDIR/snap"
    mkdir -p "$d"
    cp "$CLUSTER" "$d/a.json"
    # the same objects as YAML, members in another order
    jq -S . "$CLUSTER" >"$d/b.json"
    run --separate-stderr "$KP" -f "$d"
    assert_success
    assert_output "$("$KP" -f "$CLUSTER")"
    jq '(.items[] | select(.kind == "Node" and .metadata.name == "node-a") |
         .status.allocatable.cpu) = "64"' "$CLUSTER" >"$d/b.json"
    run --separate-stderr "$KP" -f "$d"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: $d/b.json: node 'node-a': metadata.name: duplicate object: $d/a.json has it with other contents (identical copies are merged)"
}

@test "one namespace, live: no NAMESPACE column, as kubectl get pods prints" {
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC"
    assert_success
    assert_line --index 0 --regexp '^NAME +PRIORITY +RESULT '
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_line --index 0 --regexp '^NAMESPACE +NAME +PRIORITY '
    if command -v kubectl >/dev/null; then
        run kubectl --kubeconfig "$KC" --cache-dir "$BATS_TEST_TMPDIR/kc" get pods
        assert_line --index 0 --regexp '^NAME +[A-Z]'
        run kubectl --kubeconfig "$KC" --cache-dir "$BATS_TEST_TMPDIR/kc" get pods -A
        assert_line --index 0 --regexp '^NAMESPACE +NAME '
    fi
}

@test "--fail-on drain-blocked: a drain that stops at once is told from one that would hang" {
    run --separate-stderr "$KP" -f "$CLUSTER" --drain node-a --fail-on drain-blocked
    assert_failure 3
    assert_equal "$stderr" "fail-on drain-blocked: the drain of node node-a stops at once, evicting nothing: cannot delete cannot delete Pods that declare no controller (use --force to override): batch/etl-worker-0, batch/etl-worker-1, prod/web-0"
    run --separate-stderr "$KP" -f "$CLUSTER" --drain node-a --force --fail-on drain-blocked
    assert_failure 3
    assert_equal "$stderr" "fail-on drain-blocked: the drain of node node-a would hang: 2 pod(s) cannot be evicted, first batch/etl-worker-1 (PodDisruptionBudget batch/etl-pdb)"
    # without --fail-on drain-blocked nothing is said
    run --separate-stderr "$KP" -f "$CLUSTER" --drain node-a
    assert_success
    assert_equal "$stderr" ''
}
