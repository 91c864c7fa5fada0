#!/usr/bin/env bats
# live_api.bats - kubectl-preempt reading a live cluster: the real binary
# against tests/helpers/fake_apiserver.py on 127.0.0.1, configured by
# kubeconfig files (or flags, or a service account) written per test.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'
load '../helpers/live_server'

# --- authentication -------------------------------------------------------

@test "lists the cluster with the bearer token of the kubeconfig" {
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
    run grep -c '"auth": "token"' "$SERVER_LOG"
    assert_output 14        # the 13 lists and /version
}

@test "asks for pages of 500, gzip, JSON, as kubectl-preempt" {
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_success
    run grep -c '"query": "limit=500"' "$SERVER_LOG"
    assert_output 13
    # and /version, the same way
    run grep -c '"accept": "application/json".*"accept_encoding": "[^"]*gzip' \
        "$SERVER_LOG"
    assert_output 14
    run grep -c '"ua": "kubectl-preempt/' "$SERVER_LOG"
    assert_output 14
}

@test "follows continue tokens when the server returns short pages" {
    start_server --max-page 2
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
    run grep -c 'continue=' "$SERVER_LOG"
    assert_output 8
}

@test "reads the token from tokenFile, relative to the kubeconfig" {
    start_server
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    printf '%s\n' "$TOKEN" > "$BATS_TEST_TMPDIR/sa.token"
    write_kubeconfig "$KC" "    tokenFile: sa.token"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
}

@test "authenticates with client certificate and key files" {
    start_server --require-cert
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_kubeconfig "$KC" "    client-certificate: $PKI/client.crt
    client-key: $PKI/client.key"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
    run grep -c '"auth": "cert"' "$SERVER_LOG"
    assert_output 14
}

@test "authenticates with client certificate data in the kubeconfig" {
    start_server --require-cert
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_kubeconfig "$KC" "    client-certificate-data: $(base64 -w0 "$PKI/client.crt")
    client-key-data: $(base64 -w0 "$PKI/client.key")"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
    run grep -c '"user": "kp-tester"' "$SERVER_LOG"
    assert_output 14
}

@test "runs a client.authentication.k8s.io/v1 exec plugin" {
    start_server
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_plugin "$BATS_TEST_TMPDIR/plugin" client.authentication.k8s.io/v1
    write_kubeconfig "$KC" "    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./plugin
      interactiveMode: Never"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
}

@test "runs a client.authentication.k8s.io/v1beta1 exec plugin from PATH" {
    start_server
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    mkdir -p "$BATS_TEST_TMPDIR/bin"
    write_plugin "$BATS_TEST_TMPDIR/bin/kp-test-auth" \
        client.authentication.k8s.io/v1beta1
    write_kubeconfig "$KC" "    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: kp-test-auth"
    PATH="$BATS_TEST_TMPDIR/bin:$PATH" run --separate-stderr "$KP" \
        --kubeconfig "$KC" -A
    assert_reported
}

@test "a failing exec plugin is reported with its exit code" {
    start_server
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    printf '#!/bin/sh\nexit 4\n' > "$BATS_TEST_TMPDIR/plugin"
    chmod 700 "$BATS_TEST_TMPDIR/plugin"
    write_kubeconfig "$KC" "    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./plugin
      interactiveMode: Never"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error "getting credentials: exec: executable $BATS_TEST_TMPDIR/plugin failed with exit code 4"
}

@test "uses the in-cluster service account when there is no kubeconfig" {
    start_server
    export KP_SERVICEACCOUNT_DIR="$BATS_TEST_TMPDIR/serviceaccount"
    mkdir -p "$KP_SERVICEACCOUNT_DIR"
    printf '%s' "$TOKEN" > "$KP_SERVICEACCOUNT_DIR/token"
    cp "$PKI/ca.crt" "$KP_SERVICEACCOUNT_DIR/ca.crt"
    printf 'prod' > "$KP_SERVICEACCOUNT_DIR/namespace"
    KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=$PORT \
        run --separate-stderr "$KP" -A
    assert_reported
}

@test "--server and --token override the kubeconfig" {
    start_server
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    SERVER=https://127.0.0.1:1 write_kubeconfig "$KC" "    token: wrong"
    run --separate-stderr "$KP" --kubeconfig "$KC" --server "$SERVER" \
        --token "$TOKEN" -A
    assert_reported
}

@test "--server, --token and --certificate-authority need no kubeconfig" {
    start_server
    run --separate-stderr "$KP" --server "$SERVER" --token "$TOKEN" \
        --certificate-authority "$PKI/ca.crt" -A
    assert_reported
}

@test "--context selects a context other than the current one" {
    start_server
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    cat > "$KC" <<EOF
current-context: broken
clusters:
- name: good
  cluster: {server: "$SERVER", certificate-authority: "$PKI/ca.crt"}
- name: dead
  cluster: {server: "https://127.0.0.1:1", certificate-authority: "$PKI/ca.crt"}
contexts:
- {name: broken, context: {cluster: dead, user: u}}
- {name: working, context: {cluster: good, user: u}}
users:
- {name: u, user: {token: "$TOKEN"}}
EOF
    run --separate-stderr "$KP" --kubeconfig "$KC" --context working -A
    assert_reported
    run --separate-stderr "$KP" --kubeconfig "$KC" --context missing -A
    expect_error 'context "missing" does not exist'
}

@test "KUBECONFIG merges its files, the first to set a value winning" {
    start_server
    cat > "$BATS_TEST_TMPDIR/first" <<EOF
clusters:
- name: fake
  cluster: {server: "$SERVER", certificate-authority: "$PKI/ca.crt"}
users:
- {name: u, user: {token: "$TOKEN"}}
EOF
    cat > "$BATS_TEST_TMPDIR/second" <<EOF
current-context: merged
clusters:
- name: fake
  cluster: {server: "https://127.0.0.1:1"}
contexts:
- {name: merged, context: {cluster: fake, user: u}}
users:
- {name: u, user: {token: wrong}}
EOF
    KUBECONFIG="$BATS_TEST_TMPDIR/first:$BATS_TEST_TMPDIR/nowhere:$BATS_TEST_TMPDIR/second" \
        run --separate-stderr "$KP" -A
    assert_reported
}

@test "the live report equals the offline report of its own --snapshot-out" {
    start_server --max-page 5
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_success
    live="$output"
    run stat -c %a "$BATS_TEST_TMPDIR/snapshot.json"
    assert_output 600
    [ ! -e "$BATS_TEST_TMPDIR/snapshot.json.tmp" ]
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/snapshot.json" -A \
        -o json
    assert_success
    assert_equal "$output" "$live"
}

@test "namespaces are read and saved by --snapshot-out" {
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_success
    run grep -c '"path": "/api/v1/namespaces"' "$SERVER_LOG"
    assert_output 1
    run grep -c '"kind":"Namespace"' "$BATS_TEST_TMPDIR/snapshot.json"
    assert_output 3
}

@test "403 on namespaces is one warning; the analysis goes on without them" {
    start_server --fault forbidden:namespaces
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_reported
    assert_equal "${#stderr_lines[@]}" 1
    assert_equal "$stderr" 'warning: cannot list namespaces at the cluster scope: 403 Forbidden: namespaces is forbidden: User "system:serviceaccount:kp:preempt" cannot list resource "namespaces" in API group "" at the cluster scope; going on without namespaces'
    run grep -c '"kind":"Namespace"' "$BATS_TEST_TMPDIR/snapshot.json"
    assert_output 0
}

@test "a failed live run leaves no --snapshot-out file" {
    start_server --fault forbidden:priorityclasses
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_equal "$status" 1
    [ ! -e "$BATS_TEST_TMPDIR/snapshot.json" ]
    [ ! -e "$BATS_TEST_TMPDIR/snapshot.json.tmp" ]
}

# --- faults ---------------------------------------------------------------

@test "401 Unauthorized names the list that was refused" {
    start_server --fault unauthorized
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error "cannot list nodes at the cluster scope: 401 Unauthorized: Unauthorized"
}

@test "a wrong token is refused without being shown" {
    start_server
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_kubeconfig "$KC" "    token: not-the-right-token"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error "cannot list nodes at the cluster scope: 401 Unauthorized: Unauthorized"
}

@test "403 Forbidden carries the RBAC message of the server" {
    start_server --fault forbidden:pods
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error 'cannot list pods at the cluster scope: 403 Forbidden: pods is forbidden: User "system:serviceaccount:kp:preempt" cannot list resource "pods" in API group "" at the cluster scope; missing permission: list pods in all namespaces (check: kubectl auth can-i list pods --all-namespaces)'
}

@test "403 on a grouped resource names resource.group" {
    start_server --fault forbidden:poddisruptionbudgets
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error_prefix "cannot list poddisruptionbudgets.policy at the cluster scope: 403 Forbidden: "
}

@test "403 on a storage list is a warning and leaves volumes unevaluated" {
    need jq
    start_server --fault forbidden:storageclasses
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_reported
    assert_equal "${#stderr_lines[@]}" 1
    case "$stderr" in
    "warning: cannot list storageclasses.storage.k8s.io at the cluster scope: 403 Forbidden: "*"; volume checks that need PersistentVolumeClaims are skipped") ;;
    *) fail "unexpected stderr: $stderr" ;;
    esac
    # the claims are left out of the snapshot too: offline, the same holds
    run jq '[.items[] | select(.kind == "PersistentVolumeClaim")] | length' \
        "$BATS_TEST_TMPDIR/snapshot.json"
    assert_output 0
    run jq '[.items[] | select(.kind == "PersistentVolume")] | length' \
        "$BATS_TEST_TMPDIR/snapshot.json"
    assert_output 1
}

@test "the storage lists are read and kept in --snapshot-out" {
    need jq
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_reported
    assert_equal "$stderr" ""
    run grep -c '"path": "/apis/storage.k8s.io/v1/csinodes"' "$SERVER_LOG"
    assert_output 1
    run jq -r '.items[] | select(.kind == "PersistentVolumeClaim") |
        .metadata.namespace + "/" + .metadata.name' \
        "$BATS_TEST_TMPDIR/snapshot.json"
    assert_output "batch/scratch-0"
}

@test "an expired continue token restarts the list once" {
    start_server --max-page 2 --fault expired-continue-once
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
}

@test "a 410 after pages were loaded rolls the list back, with no duplicates" {
    need jq
    # pods, 2 a page: pages 1-4 are loaded (a list ahead of its turn holds
    # at most 2 pages, so these were streamed), page 5 gets 410 Gone
    start_server --max-page 2
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json
    assert_success
    want="$output"
    teardown
    rm -f "$BATS_TEST_TMPDIR/port" "$SERVER_LOG"
    start_server --max-page 2 --fault expired-continue-late:pods \
        --expire-at 8
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_success
    assert_equal "$stderr" ""
    assert_equal "$output" "$want"
    # 6 pages, of which 4 were read twice, and the 410
    run grep -c '"path": "/api/v1/pods"' "$SERVER_LOG"
    assert_output 11
    run jq -r '[.items[] | select(.kind == "Pod")] | length,
        (map(.metadata.namespace + "/" + .metadata.name) | unique | length)' \
        "$BATS_TEST_TMPDIR/snapshot.json"
    assert_output "12
12"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/snapshot.json" -A \
        -o json
    assert_success
    assert_equal "$output" "$want"
}

@test "the live report equals the report on the same objects in a file" {
    need jq
    start_server --max-page 3
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json
    assert_success
    live="$output"
    live_err="$stderr"
    # the lists in the order they are read, as one file
    (cd "$FIXTURES" && jq -s '{kind: "List", apiVersion: "v1",
        items: [.[].items[]]}' nodes.json pods.json \
        poddisruptionbudgets.json priorityclasses.json namespaces.json \
        persistentvolumes.json persistentvolumeclaims.json) \
        > "$BATS_TEST_TMPDIR/cluster.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/cluster.json" -A \
        -o json
    assert_success
    assert_equal "$output" "$live"
    assert_equal "$stderr" "$live_err"
}

@test "a continue token expiring again fails clearly" {
    start_server --max-page 2 --fault expired-continue
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error "cannot list nodes: 410 Gone: the continue token expired again after the list was restarted (the list changes faster than it can be read page by page); try again"
}

@test "429 Too Many Requests is retried after Retry-After" {
    start_server --fault too-many-requests --retry-after 1
    token_kubeconfig
    SECONDS=0
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
    [ "$SECONDS" -ge 1 ]
}

@test "429 Too Many Requests every time gives up after 5 retries" {
    start_server --fault too-many-requests-always --retry-after 0
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error "cannot list nodes: 429 Too Many Requests: Too many requests, please try again later. (gave up after 5 retries)"
}

@test "500 once is retried" {
    start_server --fault server-error-once
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
}

@test "a server slower than --request-timeout fails naming the server" {
    start_server --fault slow --slow-seconds 5
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --request-timeout 1s
    expect_error "cannot list nodes from the server $SERVER: request timed out after 1s (--request-timeout)"
}

@test "a truncated response is an error" {
    start_server --fault truncated
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error_prefix "cannot list nodes from the server $SERVER: the response was cut short: "
}

@test "a response that is not JSON is an error" {
    start_server --fault not-json
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error "cannot list nodes from the server $SERVER: the response is not a complete JSON object"
}

@test "a server certificate from another CA is refused" {
    start_server --fault wrong-ca
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error_prefix "unable to connect to the server $SERVER: TLS certificate verification failed: "
}

@test "--insecure-skip-tls-verify accepts a certificate from another CA" {
    start_server --fault wrong-ca
    run --separate-stderr "$KP" --server "$SERVER" --token "$TOKEN" \
        --insecure-skip-tls-verify -A
    assert_reported
}

@test "a server that is not listening is named" {
    SERVER=https://127.0.0.1:1
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error_prefix "unable to connect to the server https://127.0.0.1:1: "
}

@test "no kubeconfig and no service account is explained" {
    run --separate-stderr "$KP" -A
    expect_error_prefix "no configuration has been provided"
}

# --- explain ---------------------------------------------------------------

@test "explain reads Preempted events from the live cluster" {
    need jq
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" explain --kubeconfig "$KC" -o json
    assert_success
    run jq -r '.preemptions[] | "\(.victim.namespace)/\(.victim.name) \(.preemptor.namespace)/\(.preemptor.name) \(.node)"' <<<"$output"
    assert_output "batch/worker-2 prod/api-0 node-c"
    run grep -c '"path": "/api/v1/events"' "$SERVER_LOG"
    assert_output 1
}

# --- the version replayed ------------------------------------------------------

# tests/fixtures/live-versions: tests/fixtures/config/versions.json served
# (big-job's 4 cpu exceed node small's allocatable: before 1.34 only
# Unschedulable, so preemption tries it).
versions_view() {
    jq -c '.pods[0] | [.nominatedNode, [.nodes[] | [.node, .code, .preemption.result]]]' <<<"$1"
}

@test "the API server's /version decides the version replayed: v1.33.1" {
    need jq
    start_server --fixtures "$ROOT/tests/fixtures/live-versions" \
        --server-version v1.33.1
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --explain-nodes \
        -o json -v
    assert_success
    assert_equal "$(versions_view "$output")" \
        '["big",[["small","Unschedulable","noVictimsHelp"],["big","Unschedulable","candidate"]]]'
    assert_equal "$(jq -c .scheduler <<<"$output")" \
        '{"version":"1.33","versionFrom":"API server /version","profile":"default-scheduler","config":null}'
    assert_equal "$stderr" "scheduler: kube-scheduler 1.33 (from the API server /version), profile default-scheduler"
    run grep -c '"auth": "token".*"path": "/version"' "$SERVER_LOG"
    assert_output 1
}

@test "/version of EKS (minor \"33+\", gitVersion v1.33.5-eks-...) reads 1.33" {
    need jq
    start_server --fixtures "$ROOT/tests/fixtures/live-versions" \
        --server-version v1.33.5-eks-3025e55
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json
    assert_equal "$(jq -r .scheduler.version <<<"$output")" 1.33
}

@test "/version 1.36: replayed as 1.36 (no success text); --kube-version overrides it" {
    need jq
    start_server --fixtures "$ROOT/tests/fixtures/live-versions" \
        --server-version v1.36.2
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --explain-nodes -o json
    assert_success
    assert_equal "$(jq -c .scheduler <<<"$output")" \
        '{"version":"1.36","versionFrom":"API server /version","profile":"default-scheduler","config":null}'
    assert_equal "$(versions_view "$output")" \
        '["big",[["small","UnschedulableAndUnresolvable","notTried"],["big","Unschedulable","candidate"]]]'
    assert_equal "$(jq -r '.pods[0].message' <<<"$output")" \
        "0/2 nodes are available: 2 Insufficient cpu."
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --explain-nodes \
        -o json --kube-version 1.33
    assert_equal "$(jq -r .scheduler.versionFrom <<<"$output")" --kube-version
    assert_equal "$(jq -c '.pods[0].nodes[0].code' <<<"$output")" '"Unschedulable"'
}

@test "/version outside 1.31-1.38 is an error naming it and --kube-version" {
    start_server --fixtures "$ROOT/tests/fixtures/live-versions" \
        --server-version v1.39.0
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    expect_error "the cluster runs Kubernetes 1.39 (from the API server /version): the versions replayed are 1.31 to 1.38; choose one with --kube-version"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --kube-version 1.38
    assert_success
}

@test "/version refused: a warning, and the kubelets decide" {
    need jq
    start_server --fixtures "$ROOT/tests/fixtures/live-versions" \
        --server-version none
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json
    assert_success
    assert_equal "$stderr" "warning: cannot read the API server's /version (404 Not Found); the version replayed is the newest kubelet's"
    assert_equal "$(jq 'has("scheduler")' <<<"$output")" false
}

@test "/version 503 once: read again within the same deadline" {
    need jq
    start_server --fixtures "$ROOT/tests/fixtures/live-versions" \
        --server-version v1.33.1 --fault server-error-once:version
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json
    assert_success
    assert_equal "$stderr" ""
    assert_equal "$(jq -r .scheduler.versionFrom <<<"$output")" "API server /version"
    run grep -c '"path": "/version"' "$SERVER_LOG"
    assert_output 2
}

@test "/version 503 every time: tried twice, then a warning, and the kubelets decide" {
    start_server --fixtures "$ROOT/tests/fixtures/live-versions" \
        --server-version v1.33.1 --fault server-error-always:version
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json
    assert_success
    assert_equal "$stderr" "warning: cannot read the API server's /version (503 Service Unavailable); the version replayed is the newest kubelet's"
    run grep -c '"path": "/version"' "$SERVER_LOG"
    assert_output 2
}

@test "--snapshot-out records the API server's version; a run from the file replays it" {
    need jq
    start_server --fixtures "$ROOT/tests/fixtures/live-versions" \
        --server-version v1.33.1
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -o json \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_success
    live="$output"
    assert_equal "$(jq -r '.metadata.annotations["kubectl-preempt.io/server-version"]' "$BATS_TEST_TMPDIR/snapshot.json")" v1.33.1
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/snapshot.json" -A -o json
    assert_success
    assert_equal "$(jq -c .scheduler <<<"$output")" \
        '{"version":"1.33","versionFrom":"snapshot'"'"'s API server /version","profile":"default-scheduler","config":null}'
    # the same answers as the live run
    diff <(jq -S 'del(.scheduler)' <<<"$live") <(jq -S 'del(.scheduler)' <<<"$output")
    # kubectl still reads the file
    if command -v kubectl >/dev/null; then
        run kubectl --kubeconfig "$KC" --cache-dir "$BATS_TEST_TMPDIR/kcache" \
            create --dry-run=client --validate=false -o name \
            -f "$BATS_TEST_TMPDIR/snapshot.json"
        assert_success
        assert_line "node/big"
    fi
}

# helper.DefaultSelector's objects (system default spreading): listed,
# kept by --snapshot-out; a 403 on one of them is a warning, and the
# pods of a controller are then spread by their own labels.
@test "services, replicationcontrollers, replicasets, statefulsets are read and saved" {
    start_server
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --snapshot-out "$BATS_TEST_TMPDIR/snapshot.json"
    assert_success
    for p in /api/v1/services /api/v1/replicationcontrollers \
             /apis/apps/v1/replicasets /apis/apps/v1/statefulsets; do
        run grep -c "\"path\": \"$p\"" "$SERVER_LOG"
        assert_output 1
    done
    run grep -c '"kind":"Service"' "$BATS_TEST_TMPDIR/snapshot.json"
    assert_output 1
}

@test "403 on services is one warning; the analysis goes on" {
    start_server --fault forbidden:services
    token_kubeconfig
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_reported
    assert_equal "${#stderr_lines[@]}" 1
    assert_equal "$stderr" 'warning: cannot list services at the cluster scope: 403 Forbidden: services is forbidden: User "system:serviceaccount:kp:preempt" cannot list resource "services" in API group "" at the cluster scope; system default spreading takes the selector of a controller'"'"'s pods from their own labels'
}
