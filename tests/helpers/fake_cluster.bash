# fake_cluster.bash - for bats files that need a live cluster: start
# tests/helpers/fake_apiserver.py on the fixtures of tests/fixtures/live
# and write a kubeconfig for it (context "test", namespace prod, a bearer
# token).  Needs common.bash (ROOT; need: a test skips without python3);
# call fake_cluster_pki in setup_file, fake_cluster_start in a test,
# fake_cluster_stop in teardown.

FAKE_TOKEN=s3cr3t-token

fake_cluster_pki() {
    export PKI="$BATS_FILE_TMPDIR/pki"
    sh "$ROOT/tests/helpers/make_certs.sh" "$PKI" >/dev/null 2>&1
}

# fake_cluster_start [fake_apiserver.py flags...]: sets SERVER, KC,
# SERVER_LOG and SERVER_PID; no cluster but this one is reachable.
fake_cluster_start() {
    local portfile="$BATS_TEST_TMPDIR/port" port
    need python3
    unset KUBECONFIG KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT \
        POD_NAMESPACE https_proxy HTTPS_PROXY http_proxy HTTP_PROXY \
        all_proxy ALL_PROXY no_proxy NO_PROXY
    export HOME="$BATS_TEST_TMPDIR/home"
    mkdir -p "$HOME"
    export KP_SERVICEACCOUNT_DIR="$BATS_TEST_TMPDIR/no-serviceaccount"
    SERVER_LOG="$BATS_TEST_TMPDIR/requests.log"
    python3 "$ROOT/tests/helpers/fake_apiserver.py" --certs "$PKI" \
        --fixtures "$ROOT/tests/fixtures/live" --port-file "$portfile" \
        --log "$SERVER_LOG" --token "$FAKE_TOKEN" --lifetime 60 "$@" \
        >/dev/null 2>&1 3>&- &
    SERVER_PID=$!
    for _ in $(seq 200); do
        [ -s "$portfile" ] && break
        sleep 0.05
    done
    port=$(cat "$portfile")
    SERVER="https://127.0.0.1:$port"
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    cat >"$KC" <<KCEOF
apiVersion: v1
kind: Config
current-context: test
clusters:
- name: fake
  cluster:
    server: $SERVER
    certificate-authority: $PKI/ca.crt
contexts:
- name: test
  context:
    cluster: fake
    user: tester
    namespace: prod
users:
- name: tester
  user:
    token: $FAKE_TOKEN
KCEOF
    chmod 600 "$KC"
}

fake_cluster_stop() {
    if [ -n "${SERVER_PID:-}" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=
}
