#!/usr/bin/env bats
# kubectl_idioms.bats - issue 29: what a kubectl user types works on the
# report.  Every reported item (pods, explain's preemptions, a drain's
# pods) has the metadata of the pod it describes, jsonpath also sees the
# items as "items", the kubectl printers read the document without its
# null members (as kubectl reads an API object), and -o json has every
# member, null where it has no value.  Where kubectl (v1.32 here) is
# installed, its own output on the same pods is the expectation; without
# it those tests skip, saying so.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/examples/cluster.json"

# the pending pods of examples/cluster.json as a kubectl List
pending_list() {
    jq '{apiVersion: "v1", kind: "List",
         items: [.items[] | select(.kind == "Pod" and .spec.nodeName == null)]}' \
        "$CLUSTER" >"$BATS_TEST_TMPDIR/pending.json"
}

@test "{.items[*].metadata.name}: the reported pods' names, in queue order" {
    run --separate-stderr "$KP" -f "$CLUSTER" -o jsonpath='{.items[*].metadata.name}'
    assert_success
    assert_output 'checkout-0 search-0 sidecar-light train-1 backfill-0'
}

@test "the metadata idioms print what kubectl prints for the same pods" {
    need jq kubectl
    pending_list
    local t='{.metadata.namespace}/{.metadata.name} {.metadata.uid} {.metadata.creationTimestamp} {.metadata.labels.app}{"\n"}'
    # kubectl prints the objects one by one (offline: label --local)
    kubectl label --local -f "$BATS_TEST_TMPDIR/pending.json" x=y \
        -o jsonpath="$t" | sort >"$BATS_TEST_TMPDIR/kubectl"
    run --separate-stderr "$KP" -f "$CLUSTER" -o jsonpath="{range .items[*]}$t{end}"
    assert_success
    diff <(sort <<<"$output") "$BATS_TEST_TMPDIR/kubectl"
}

@test "custom-columns NAME:.metadata.name with --sort-by .metadata.name" {
    run --separate-stderr "$KP" -f "$CLUSTER" --sort-by .metadata.name \
        -o custom-columns=NAME:.metadata.name,NAMESPACE:.metadata.namespace,CREATED:.metadata.creationTimestamp
    assert_success
    assert_output "NAME            NAMESPACE   CREATED
backfill-0      batch       2026-11-21T09:02:00Z
checkout-0      prod        2026-11-21T09:00:00Z
search-0        prod        2026-11-21T09:01:00Z
sidecar-light   prod        2026-11-21T09:03:00Z
train-1         ml          2026-11-21T09:04:00Z"
}

@test "[?(@.nominatedNode)] keeps the nominated pods; a missing value is <none> in a column" {
    run --separate-stderr "$KP" -f "$CLUSTER" \
        -o jsonpath='{range .pods[?(@.nominatedNode)]}{.name}={.nominatedNode}{"\n"}{end}'
    assert_success
    assert_output 'checkout-0=node-a
search-0=node-c'
    run --separate-stderr "$KP" -f "$CLUSTER" -o jsonpath='{.pods[*].nominatedNode}'
    assert_output 'node-a node-c'
    run --separate-stderr "$KP" -f "$CLUSTER" --no-headers \
        -o custom-columns=N:.name,NODE:.nominatedNode,FIT:.node
    assert_output 'checkout-0      node-a   <none>
search-0        node-c   <none>
sidecar-light   <none>   node-a
train-1         <none>   <none>
backfill-0      <none>   <none>'
}

@test "-o json: metadata on every pod, node present for every pod (null unless it fits)" {
    need jq
    run --separate-stderr "$KP" -f "$CLUSTER" -o json
    assert_success
    assert_equal "$(jq -c '[.pods[] | [.metadata.name == .name, .metadata.namespace == .namespace, (.metadata | keys)]] | unique' <<<"$output")" \
        '[[true,true,["creationTimestamp","labels","name","namespace","uid"]]]'
    assert_equal "$(jq -c '[.pods[] | has("node")] | unique' <<<"$output")" '[true]'
    assert_equal "$(jq -c '[.pods[] | .node]' <<<"$output")" '[null,null,"node-a",null,null]'
    # the contract's members stay, null where there is no value
    assert_equal "$(jq -c '[.pods[] | .nominatedNode, .decidedBy]' <<<"$output")" \
        '["node-a","highestVictimPriority","node-c","onlyCandidate",null,null,null,null,null,null]'
}

@test "explain: each preemption has the victim's metadata; {.items[*]} reaches them" {
    run --separate-stderr "$KP" explain -f "$ROOT/examples/incident.json" \
        -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.metadata.uid}{"\n"}{end}'
    assert_success
    assert_output 'batch/etl-worker-2 0000-0007
batch/etl-worker-0 0000-0001
batch/etl-worker-1 0000-0002'
}

@test "a drain's pods have their metadata" {
    need jq
    run --separate-stderr "$KP" -f "$CLUSTER" --drain node-a -o json
    assert_success
    assert_equal "$(jq -r '[.drains[].notEvicted[] | .metadata.namespace + "/" + .metadata.name + " " + .metadata.uid] | join(",")' <<<"$output")" \
        'batch/etl-worker-0 0000-0001,batch/etl-worker-1 0000-0002,prod/web-0 0000-0003'
}

@test "the README's kubectl recipes run on examples/cluster.json and print something" {
    local line cmd n=0
    while IFS= read -r line; do
        cmd=${line%%  #*}
        cmd=${cmd//cluster.json/$CLUSTER}
        cmd=${cmd/#kubectl-preempt/\"\$KP\"}
        run --separate-stderr bash -c "KP='$KP'; $cmd"
        [ "$status" -eq 0 ] || fail "README recipe failed ($status): $line: $stderr"
        [ -n "$output" ] || fail "README recipe printed nothing: $line"
        n=$((n + 1))
    done < <(sed -n '/^## As kubectl prints it/,/^## /p' "$ROOT/README.md" |
             sed -n '/^```$/,/^```$/p' | grep '^kubectl-preempt ' | grep -v '\\$')
    [ "$n" -ge 6 ] || fail "only $n recipes found"
}

@test "kubectl (the version tested) prints a JSON null as null, as the engine does (test_jsonpath)" {
    need kubectl
    printf '%s\n' '{"apiVersion": "example.com/v1", "kind": "Report",
        "metadata": {"name": "r"},
        "p": [{"n": null, "i": 1}, {"n": "x", "i": 2}]}' >"$BATS_TEST_TMPDIR/r.json"
    # the rows of tests/unit/report/test_jsonpath.c, null_prints_null_as_kubectl_1_32
    run kubectl label --local -f "$BATS_TEST_TMPDIR/r.json" x=y \
        -o 'jsonpath={.p[0].n}|{.p[*].n}|{range .p[*]}{.n}{";"}{end}|{.p[?(@.n)].i}'
    assert_success
    assert_output 'null|null x|null;x;|1 2'
    # the report has no null for a template: its null members are left out
    run --separate-stderr "$KP" -f "$CLUSTER" -o 'jsonpath={.pods[2].nominatedNode}|{.pods[2].decidedBy}'
    assert_output '|'
}
