# live_server.bash - what live_api.bats and hostile_api.bats share: a
# per-file PKI, a clean environment per test,
# tests/helpers/fake_apiserver.py started on 127.0.0.1 (start_server),
# kubeconfigs and exec plugins written per test, and the assertions on a
# refused run (expect_error, expect_error_prefix).  Load it after
# common.bash:
#     load '../helpers/common'
#     load '../helpers/live_server'

FIXTURES="$ROOT/tests/fixtures/live"
TOKEN=s3cr3t-token

setup_file() {
    export PKI="$BATS_FILE_TMPDIR/pki"
    sh "$ROOT/tests/helpers/make_certs.sh" "$PKI"
}

setup() {
    # no cluster anywhere but the ones a test sets up
    unset KUBECONFIG KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT \
        POD_NAMESPACE https_proxy HTTPS_PROXY http_proxy HTTP_PROXY \
        all_proxy ALL_PROXY no_proxy NO_PROXY
    export HOME="$BATS_TEST_TMPDIR/home"
    mkdir -p "$HOME"
    export KP_SERVICEACCOUNT_DIR="$BATS_TEST_TMPDIR/no-serviceaccount"
    SERVER_PID=
}

teardown() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
}

# start_server [fake_apiserver.py flags...]: sets PORT, SERVER, SERVER_LOG.
start_server() {
    local portfile="$BATS_TEST_TMPDIR/port"
    need python3
    SERVER_LOG="$BATS_TEST_TMPDIR/requests.log"
    python3 "$ROOT/tests/helpers/fake_apiserver.py" --certs "$PKI" \
        --fixtures "$FIXTURES" --port-file "$portfile" --log "$SERVER_LOG" \
        --token "$TOKEN" --lifetime 60 "$@" >/dev/null 2>&1 3>&- &
    SERVER_PID=$!
    for _ in $(seq 200); do
        [ -s "$portfile" ] && break
        sleep 0.05
    done
    PORT=$(cat "$portfile")
    SERVER="https://127.0.0.1:$PORT"
}

# write_kubeconfig FILE USER-YAML: context "test" (current) -> cluster
# "fake" (the server, its CA) and user "tester" with the given body.
write_kubeconfig() {
    cat > "$1" <<EOF
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
$2
EOF
    chmod 600 "$1"
}

# kubeconfig with the bearer token, at $KC
token_kubeconfig() {
    KC="$BATS_TEST_TMPDIR/kubeconfig"
    write_kubeconfig "$KC" "    token: $TOKEN"
}

# write_plugin FILE API-VERSION: an exec credential plugin printing TOKEN
write_plugin() {
    cat > "$1" <<EOF
#!/bin/sh
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"%s"}}\n' \
    "$2" "$TOKEN"
EOF
    chmod 700 "$1"
}

# the live run succeeded and reported on the pending pod prod/api-0
assert_reported() {
    assert_success
    assert_output --partial "api-0"
}

# expect_error MESSAGE: exit 1, nothing on stdout, one line on stderr
expect_error() {
    assert_equal "$status" 1
    assert_equal "$output" ""
    assert_equal "${#stderr_lines[@]}" 1
    assert_equal "$stderr" "error: $1"
}

# expect_error_prefix PREFIX: as expect_error, the line starting so
expect_error_prefix() {
    assert_equal "$status" 1
    assert_equal "$output" ""
    assert_equal "${#stderr_lines[@]}" 1
    case "$stderr" in
    "error: $1"*) ;;
    *) fail "stderr '$stderr' does not start with 'error: $1'" ;;
    esac
}
