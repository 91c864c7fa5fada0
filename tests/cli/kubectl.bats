#!/usr/bin/env bats
# kubectl.bats - kubectl's habits: live runs report the context's
# namespace, and the real kubectl (v1.32 here) against the test API
# server: its -o json and -o yaml give the live report, `kubectl preempt`
# runs the plugin (help naming it so), `kubectl plugin list` finds it and
# kubectl's completion reaches kubectl_complete-preempt.  The tests that
# need kubectl skip, saying so, where it is absent.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

load '../helpers/fake_cluster'

setup_file() {
    fake_cluster_pki
}

setup() {
    SERVER_PID=
    # the plugin directory: the binary under test and its completion
    PLUGINS="$BATS_TEST_TMPDIR/plugins"
    mkdir -p "$PLUGINS"
    cp "$KP" "$PLUGINS/kubectl-preempt"
    cp "$ROOT/completions/kubectl_complete-preempt" "$PLUGINS/"
}

teardown() {
    fake_cluster_stop
}

# kube ARGS...: the real kubectl on the test cluster, its own cache
kube() {
    kubectl --kubeconfig "$KC" --cache-dir "$BATS_TEST_TMPDIR/kcache" "$@"
}

@test "live without -n or -A: the pending pods of the context's namespace" {
    need jq
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" -o json
    assert_success
    assert_equal "$(jq -r '[.pods[] | .namespace + "/" + .name] | join(" ")' <<<"$output")" 'prod/api-0'
    # the analysis still read the whole cluster
    assert_equal "$(jq -c '.snapshot | [.nodes, .pods]' <<<"$output")" '[3,12]'
}

@test "live with -A: every namespace; with -n: that one" {
    need jq
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json
    assert_success
    assert_equal "$(jq -r '[.pods[] | .namespace + "/" + .name] | join(" ")' <<<"$output")" 'prod/api-0 batch/etl-0'
    run --separate-stderr "$KP" --kubeconfig "$KC" -n batch
    assert_success
    assert_output --partial 'etl-0'
    refute_output --partial 'api-0'
}

@test "live, nothing pending in the context's namespace: kubectl's notice names it" {
    fake_cluster_start
    sed -i 's/namespace: prod/namespace: web/' "$KC"
    run --separate-stderr "$KP" --kubeconfig "$KC"
    assert_success
    assert_output ''
    assert_equal "$stderr" 'No pending pods found in namespace web.'
}

@test "a 403 on a cluster-scoped list names the permission and kubectl auth can-i" {
    fake_cluster_start --fault forbidden:nodes
    run --separate-stderr "$KP" --kubeconfig "$KC"
    assert_failure 1
    assert_output ''
    [[ $stderr == *"; missing permission: list nodes (check: kubectl auth can-i list nodes)" ]]
}

@test "kubectl get -o json of the test server gives the live report" {
    need jq kubectl
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json
    assert_success
    local want
    want=$(jq -c .pods <<<"$output")
    kube get nodes,pods,pdb,priorityclasses -A -o json >"$BATS_TEST_TMPDIR/c.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/c.json" -o json
    assert_success
    assert_equal "$(jq -c .pods <<<"$output")" "$want"
}

@test "kubectl get -o yaml of the test server gives the live report" {
    need kubectl
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o wide
    assert_success
    local want=$output
    kube get nodes,pods,pdb,priorityclasses -A -o yaml >"$BATS_TEST_TMPDIR/c.yaml"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/c.yaml" -o wide
    assert_success
    assert_equal "$output" "$want"
}

@test "kubectl get -n of the test server: the per-namespace lists" {
    need kubectl
    fake_cluster_start
    run kube get pods -n batch -o name
    assert_success
    assert_output $'pod/worker-0\npod/report-0\npod/worker-1\npod/report-1\npod/worker-2\npod/report-2\npod/etl-0\npod/done-0'
}

@test "kubectl preempt runs the plugin; its help says kubectl preempt" {
    need kubectl
    fake_cluster_start
    PATH="$PLUGINS:$PATH" run --separate-stderr kubectl preempt --kubeconfig "$KC"
    assert_success
    assert_output --partial 'api-0'
    PATH="$PLUGINS:$PATH" run --separate-stderr kubectl preempt --help
    assert_success
    assert_line --index 0 'Usage: kubectl preempt [flags] [POD...]'
    run --separate-stderr "$KP" --help
    assert_line --index 0 'Usage: kubectl-preempt [flags] [POD...]'
}

@test "kubectl preempt version prints the versions" {
    need kubectl
    PATH="$PLUGINS:$PATH" run --separate-stderr kubectl preempt version
    assert_success
    assert_line --index 0 --regexp '^kubectl-preempt [0-9]+\.[0-9]+\.[0-9]+$'
    assert_line --index 1 'kube-scheduler: v1.31 to v1.38'
}

@test "kubectl plugin list finds kubectl-preempt" {
    need kubectl
    PATH="$PLUGINS:$PATH" run kubectl plugin list --name-only
    assert_line 'kubectl-preempt'
}

@test "kubectl's completion of kubectl preempt reaches kubectl_complete-preempt" {
    need kubectl
    PATH="$PLUGINS:$PATH" run --separate-stderr kubectl __complete preempt --out
    assert_success
    assert_output $'--output\n:4'
    [[ $stderr == *"About to call: $PLUGINS/kubectl_complete-preempt --out"* ]]
}

@test "make puts kubectl_complete-preempt beside the binary in bin/" {
    [ -x "$ROOT/bin/kubectl_complete-preempt" ] ||
        skip "bin/ is not built (make)"
    cmp "$ROOT/bin/kubectl_complete-preempt" \
        "$ROOT/completions/kubectl_complete-preempt"
}

@test "kubectl_complete-preempt completes the pods of -f DIR with -R" {
    local d="$BATS_TEST_TMPDIR/snap"
    mkdir -p "$d/prod"
    cp "$ROOT/examples/cluster.json" "$d/prod/cluster.json"
    run "$PLUGINS/kubectl_complete-preempt" -f "$d" -R -n prod s
    assert_output $'search-0\nsidecar-light\n:4'
    run "$PLUGINS/kubectl_complete-preempt" -f "$d" -n prod s
    assert_output ':4'
}
