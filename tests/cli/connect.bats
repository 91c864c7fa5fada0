#!/usr/bin/env bats
# connect.bats - issue 29: kubectl's connection flags against the test API
# server (tests/helpers/fake_apiserver.py logs, per request, the
# impersonation headers, the authentication, the SNI and Accept-Encoding):
# --as, --as-group, --as-uid, --username/--password, --client-certificate
# and --client-key, --tls-server-name, --disable-compression, with
# kubectl's precedence over the kubeconfig (the flag wins, an empty flag
# changes nothing; client-go clientcmd's overrides) and its errors.
# Where kubectl (v1.32 here) is installed it runs the same request and the
# server must have seen the same; without it those checks skip.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

load '../helpers/fake_cluster'

setup_file() {
    fake_cluster_pki
}

setup() {
    SERVER_PID=
}

teardown() {
    fake_cluster_stop
}

kube() {
    kubectl --kubeconfig "$KC" --cache-dir "$BATS_TEST_TMPDIR/kcache" "$@"
}

# last FIELDS: the jq expression on the server's last logged request
last() {
    tail -1 "$SERVER_LOG" | jq -c "$1"
}

# every FIELDS: the distinct values over every logged request
every() {
    jq -s -c "[.[] | $1] | unique" "$SERVER_LOG"
}

# a kubeconfig user with no credential of its own
no_credential() {
    sed -i 's/^    token: .*/    {}/' "$KC"
}

@test "--as, --as-group (repeated, commas kept), --as-uid: the impersonation headers on every request" {
    need jq
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --as jane \
        --as-group devs --as-group 'ops,oncall' --as-uid 42
    assert_success
    assert_equal "$(every '[.as, .as_groups, .as_uid]')" '[["jane",["devs","ops,oncall"],"42"]]'
}

@test "kubectl sends the same impersonation headers for the same flags" {
    need jq kubectl
    fake_cluster_start
    kube --as jane --as-group devs --as-group 'ops,oncall' --as-uid 42 get pods -A >/dev/null
    local want
    want=$(last '[.as, .as_groups, .as_uid]')
    "$KP" --kubeconfig "$KC" -A --as jane --as-group devs --as-group 'ops,oncall' --as-uid 42 >/dev/null
    assert_equal "$(last '[.as, .as_groups, .as_uid]')" "$want"
}

@test "the flags win over the kubeconfig's as and as-groups; without flags the kubeconfig's are sent" {
    need jq
    fake_cluster_start
    sed -i "s/^    token: .*/&\n    as: kc-user\n    as-groups: [kc-group]/" "$KC"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_success
    assert_equal "$(every '[.as, .as_groups]')" '[["kc-user",["kc-group"]]]'
    : >"$SERVER_LOG"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --as jane --as-group devs
    assert_success
    assert_equal "$(every '[.as, .as_groups]')" '[["jane",["devs"]]]'
}

@test "--as-group without --as is kubectl's configuration error" {
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" --as-group devs
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" 'error: requesting uid, groups or user-extra for tester without impersonating a user'
    if command -v kubectl >/dev/null; then
        run --separate-stderr kube --as-group devs get pods
        assert_failure
        [[ $stderr == *"requesting uid, groups or user-extra for tester without impersonating a user"* ]]
    fi
}

@test "--username and --password: basic authentication; the password is never printed" {
    need jq
    fake_cluster_start --basic admin:hunter2-secret
    no_credential
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --username admin --password hunter2-secret
    assert_success
    assert_equal "$(every '[.auth, .user]')" '[["basic","admin"]]'
    # a wrong password: a 401, and neither password in any output
    run --separate-stderr "$KP" --kubeconfig "$KC" -A -v=9 --username admin --password wrong-pw-xyz
    assert_failure 1
    [[ $output$stderr != *wrong-pw-xyz* ]]
    [[ $stderr == *"401 Unauthorized"* ]]
}

@test "--username with the kubeconfig's token: kubectl's two-methods error" {
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" --username admin
    assert_failure 1
    assert_equal "$stderr" 'error: more than one authentication method found for tester; found [token basicAuth], only one is allowed'
}

@test "--client-certificate and --client-key: the server sees the certificate's user" {
    need jq
    fake_cluster_start --require-cert
    no_credential
    run --separate-stderr "$KP" --kubeconfig "$KC" -A \
        --client-certificate "$PKI/client.crt" --client-key "$PKI/client.key"
    assert_success
    assert_equal "$(every '[.auth, .user]')" '[["cert","kp-tester"]]'
    # a key without a certificate is kubectl's error
    run --separate-stderr "$KP" --kubeconfig "$KC" --client-key "$PKI/client.key"
    assert_failure 1
    assert_equal "$stderr" 'error: client-certificate-data or client-certificate must be specified for tester to use the clientCert authentication method'
}

@test "--tls-server-name: the certificate is checked against it and it is the SNI" {
    need jq
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --tls-server-name kubernetes.test
    assert_success
    assert_equal "$(every '.sni')" '["kubernetes.test"]'
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --tls-server-name wrong.test
    assert_failure 1
    [[ $stderr == *"wrong.test"* ]]
    if command -v kubectl >/dev/null; then
        : >"$SERVER_LOG"
        kube --tls-server-name kubernetes.test get pods -A >/dev/null
        assert_equal "$(every '.sni')" '["kubernetes.test"]'
    fi
}

@test "--disable-compression: no Accept-Encoding; without it gzip is asked for" {
    need jq
    fake_cluster_start
    run --separate-stderr "$KP" --kubeconfig "$KC" -A
    assert_success
    [[ $(last '.accept_encoding') == *gzip* ]]
    : >"$SERVER_LOG"
    run --separate-stderr "$KP" --kubeconfig "$KC" -A --disable-compression
    assert_success
    assert_equal "$(every '.accept_encoding')" '[""]'
}
