#!/usr/bin/env bats
# namespaces.bats - Namespace objects and the namespaceSelector of pod
# affinity terms.
#
# tests/fixtures/namespaces/cluster.json: one node, node-a, running
# payments/cache-0 (app=cache, priority 100); checkout/api-0 (priority
# 1000) is pending with a required anti-affinity to app=cache pods in the
# namespaces labelled team=payments, per host.  namespaces.json is what
# `kubectl get namespaces -o json` prints for checkout (team=storefront)
# and payments (team=payments).
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

FIX="$ROOT/tests/fixtures/namespaces"
WARNING="warning: pod 'checkout/api-0': the namespaceSelector of its pod affinity terms cannot be evaluated: the snapshot has no Namespace objects (kubectl get namespaces); it is taken to select no namespace"

# report_of ARGS...: the one pod's result, nominated node and victims
report_of() {
    run --separate-stderr "$KP" "$@" -o json
    assert_success
    output=$(jq -c '.pods[0] | [.result, .nominatedNode,
                    [.victims[] | .namespace + "/" + .name]]' <<<"$output")
}

@test "no Namespace objects: nothing selected, one warning names the pod" {
    need jq
    report_of -f "$FIX/cluster.json"
    assert_output '["Fits",null,[]]'
    assert_equal "${#stderr_lines[@]}" 1
    assert_equal "$stderr" "$WARNING"
}

@test "with Namespaces: anti-affinity blocks node-a, preempts what it selects" {
    need jq
    report_of -f "$FIX/cluster.json" -f "$FIX/namespaces.json"
    assert_output '["Preempts","node-a",["payments/cache-0"]]'
    assert_equal "$stderr" ""
    run --separate-stderr "$KP" -f "$FIX/cluster.json" \
        -f "$FIX/namespaces.json" -o json
    run jq -r '.pods[0].message' <<<"$output"
    assert_output --partial "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules."
}

@test "Namespaces in a List, in documents, on stdin: the same report" {
    need jq
    local want
    report_of -f "$FIX/cluster.json" -f "$FIX/namespaces.json"
    want=$output
    jq '{apiVersion: "v1", kind: "List", items: [.items[] |
         . + {apiVersion: "v1", kind: "Namespace"}]}' "$FIX/namespaces.json" \
        >"$BATS_TEST_TMPDIR/list.json"
    report_of -f "$FIX/cluster.json" -f "$BATS_TEST_TMPDIR/list.json"
    assert_output "$want"
    jq '.items[] | . + {apiVersion: "v1", kind: "Namespace"}' \
        "$FIX/namespaces.json" >"$BATS_TEST_TMPDIR/documents.json"
    report_of -f "$FIX/cluster.json" -f - <"$BATS_TEST_TMPDIR/documents.json"
    assert_output "$want"
    assert_equal "$stderr" ""
}

@test "a namespace missing among the Namespaces is selected by nothing" {
    need jq
    jq '.items |= map(select(.metadata.name != "payments"))' \
        "$FIX/namespaces.json" >"$BATS_TEST_TMPDIR/ns.json"
    report_of -f "$FIX/cluster.json" -f "$BATS_TEST_TMPDIR/ns.json"
    assert_output '["Fits",null,[]]'
    assert_equal "$stderr" ""
}

@test "kubernetes.io/metadata.name is implied when a Namespace lacks it" {
    need jq
    jq '.items[].metadata.labels = {}' "$FIX/namespaces.json" \
        >"$BATS_TEST_TMPDIR/ns.json"
    jq '(.items[] | select(.kind == "Pod") | .spec.affinity.podAntiAffinity
         .requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector)
        = {matchLabels: {"kubernetes.io/metadata.name": "payments"}}' \
        "$FIX/cluster.json" >"$BATS_TEST_TMPDIR/cluster.json"
    report_of -f "$BATS_TEST_TMPDIR/cluster.json" -f "$BATS_TEST_TMPDIR/ns.json"
    assert_output '["Preempts","node-a",["payments/cache-0"]]'
}

@test "Namespaces are a kind that is read, not one ignored under -v" {
    run --separate-stderr "$KP" -v -f "$FIX/cluster.json" \
        -f "$FIX/namespaces.json"
    assert_success
    assert_equal "$stderr" ""
}

@test "explain, which evaluates no affinity, does not warn about selectors" {
    run --separate-stderr "$KP" explain -f "$FIX/cluster.json"
    assert_success
    case "$stderr" in
    *namespaceSelector*) fail "unexpected warning: $stderr" ;;
    esac
}
