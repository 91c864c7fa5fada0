#!/usr/bin/env bats
# input.bats - -f as kubectl reads it: YAML (one List, or a multi-document
# stream), directories (-R), and `kubectl cluster-info dump
# --output-directory` trees.
#
# tests/fixtures/input/: cluster.yaml is examples/cluster.json as YAML;
# cluster-multi.yml the same objects one per document (a comment first,
# an empty document last); bad-quantity.yaml the same with document 12,
# the pod batch/etl-worker-1, asking for cpu '1.5.0'.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

FIX="$ROOT/tests/fixtures/input"
CLUSTER="$ROOT/examples/cluster.json"

# make_dump DIR: examples/cluster.json laid out as `kubectl cluster-info
# dump --output-directory=DIR --all-namespaces` writes it (kubectl's
# clusterinfo_dump.go): nodes.json, NAMESPACE/{events,
# replicationcontrollers,services,daemonsets,deployments,replicasets,
# pods}.json, NAMESPACE/POD/logs.txt.  PDBs and PriorityClasses go to
# DIR.extra.json, as the dump has none.
make_dump() {
    local d=$1 ns r
    mkdir -p "$d"
    jq '{kind: "NodeList", apiVersion: "v1", metadata: {},
         items: [.items[] | select(.kind == "Node") | del(.kind, .apiVersion)]}' \
        "$CLUSTER" >"$d/nodes.json"
    for ns in $(jq -r '[.items[] | select(.kind == "Pod")
                       | .metadata.namespace] | unique[]' "$CLUSTER") \
              kube-system; do
        mkdir -p "$d/$ns"
        jq --arg ns "$ns" '{kind: "PodList", apiVersion: "v1", metadata: {},
            items: [.items[] | select(.kind == "Pod" and
                                      .metadata.namespace == $ns)]}' \
            "$CLUSTER" >"$d/$ns/pods.json"
        for r in events:EventList replicationcontrollers:ReplicationControllerList \
                 services:ServiceList daemonsets:DaemonSetList \
                 deployments:DeploymentList replicasets:ReplicaSetList; do
            printf '{"kind": "%s", "apiVersion": "v1", "metadata": {}, "items": []}\n' \
                "${r#*:}" >"$d/$ns/${r%%:*}.json"
        done
        for p in $(jq -r '.items[].metadata.name' "$d/$ns/pods.json"); do
            mkdir -p "$d/$ns/$p"
            printf '==== START logs for container c of pod %s/%s ====\n{ not json\n' \
                "$ns" "$p" >"$d/$ns/$p/logs.txt"
        done
    done
    jq '{kind: "List", apiVersion: "v1", items: [.items[] |
         select(.kind == "PodDisruptionBudget" or .kind == "PriorityClass")]}' \
        "$CLUSTER" >"$d.extra.json"
}

@test "-f of kubectl's -o yaml List gives the report of the JSON" {
    run --separate-stderr "$KP" -f "$CLUSTER" -o json
    local want=$output
    run --separate-stderr "$KP" -f "$FIX/cluster.yaml" -o json
    assert_success
    assert_equal "$output" "$want"
    assert_equal "$stderr" ''
}

@test "a multi-document YAML stream (comment, empty last document) reads as the List" {
    run --separate-stderr "$KP" -f "$CLUSTER"
    local want=$output
    run --separate-stderr "$KP" -f "$FIX/cluster-multi.yml"
    assert_success
    assert_equal "$output" "$want"
}

@test "YAML on standard input is sniffed: it does not start with {" {
    run --separate-stderr "$KP" -f "$CLUSTER"
    local want=$output
    run --separate-stderr "$KP" -f - <"$FIX/cluster-multi.yml"
    assert_success
    assert_equal "$output" "$want"
}

@test "the first bytes decide, as kubectl's YAMLOrJSONDecoder: YAML named .json, JSON named .yaml" {
    run --separate-stderr "$KP" -f "$CLUSTER" -o json
    local want=$output
    cp "$FIX/cluster.yaml" "$BATS_TEST_TMPDIR/yaml-inside.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/yaml-inside.json" -o json
    assert_success
    assert_equal "$output" "$want"
    cp "$CLUSTER" "$BATS_TEST_TMPDIR/json-inside.yaml"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/json-inside.yaml" -o json
    assert_success
    assert_equal "$output" "$want"
    # JSON errors name the JSON reader's position, not a YAML parser's
    printf '{"kind": "List", "items": [}' >"$BATS_TEST_TMPDIR/bad.yaml"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/bad.yaml"
    assert_failure 1
    assert_output ''
    [[ $stderr == "error: $BATS_TEST_TMPDIR/bad.yaml: "* ]]
}

@test "a bad field in YAML: one line naming file, document, object and field" {
    run --separate-stderr "$KP" -f "$FIX/bad-quantity.yaml" -o wide
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: $FIX/bad-quantity.yaml: document 12: pod 'batch/etl-worker-1': spec.containers[0].resources.requests.cpu: invalid quantity '1.5.0'"
}

@test "a YAML syntax error names file, line and column" {
    printf 'kind: Pod\nmetadata: {name: x\n' >"$BATS_TEST_TMPDIR/s.yaml"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/s.yaml"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: $BATS_TEST_TMPDIR/s.yaml: invalid YAML at line 3, column 1: did not find expected ',' or '}' (while parsing a flow mapping)"
}

@test "YAML keeps the loader's limits: duplicate keys and deep nesting" {
    need python3
    local t=$BATS_TEST_TMPDIR
    printf 'kind: Pod\nkind: Node\n' >"$t/dup.yaml"
    run --separate-stderr "$KP" -f "$t/dup.yaml"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: $t/dup.yaml: line 2, column 1: duplicate key 'kind'"
    python3 -c 'print("kind: Pod\nmetadata:\n  labels: " + "[" * 600 + "]" * 600)' \
        >"$t/deep.yaml"
    run --separate-stderr "$KP" -f "$t/deep.yaml"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: $t/deep.yaml: line 3, column 521: nesting too deep"
    # deeper than an object may be (64), as in JSON
    python3 -c 'print("kind: Pod\nmetadata:\n  name: x\n  labels: " + "[" * 100 + "]" * 100)' \
        >"$t/deep2.yaml"
    run --separate-stderr "$KP" -f "$t/deep2.yaml"
    assert_failure 1
    assert_output ''
    [[ $stderr == "error: $t/deep2.yaml: pod 'default/x': metadata.labels[0]"*": nesting too deep" ]]
}

@test "a YAML file of empty documents is empty input" {
    printf -- '---\n# nothing\n---\n' >"$BATS_TEST_TMPDIR/e.yaml"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/e.yaml"
    assert_failure 1
    assert_equal "$stderr" "error: $BATS_TEST_TMPDIR/e.yaml: empty input"
}

@test "-f DIR reads its .json, .yaml and .yml files, not the others, not below without -R" {
    need jq
    local d="$BATS_TEST_TMPDIR/d"
    mkdir -p "$d/sub"
    jq '{kind: "List", items: [.items[] | select(.kind != "Pod")]}' \
        "$CLUSTER" >"$d/a.json"
    jq '{kind: "List", items: [.items[] | select(.kind == "Pod")]}' \
        "$CLUSTER" >"$d/sub/pods.json"
    echo 'not a manifest' >"$d/notes.txt"
    run --separate-stderr "$KP" -f "$d"
    assert_success
    assert_equal "$stderr" 'No pending pods found in any namespace.'
    run --separate-stderr "$KP" -f "$CLUSTER"
    local want=$output
    run --separate-stderr "$KP" -f "$d" -R
    assert_success
    assert_equal "$output" "$want"
    assert_equal "$stderr" ''
    run --separate-stderr "$KP" -f "$d" --recursive=true
    assert_equal "$output" "$want"
}

@test "a bad file inside -f DIR is named by its path" {
    local d="$BATS_TEST_TMPDIR/d"
    mkdir -p "$d"
    cp "$FIX/bad-quantity.yaml" "$d/x.yml"
    run --separate-stderr "$KP" -f "$d"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: $d/x.yml: document 12: pod 'batch/etl-worker-1': spec.containers[0].resources.requests.cpu: invalid quantity '1.5.0'"
}

@test "-f DIR with no manifest is an error" {
    mkdir -p "$BATS_TEST_TMPDIR/none/sub"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/none"
    assert_failure 1
    assert_equal "$stderr" "error: $BATS_TEST_TMPDIR/none: no .json, .yaml or .yml file in this directory (-R reads its subdirectories)"
}

@test "cluster-info dump -R: its pods and nodes, logs skipped, a warning for PDBs and PriorityClasses" {
    need jq
    local d="$BATS_TEST_TMPDIR/dump"
    make_dump "$d"
    run --separate-stderr "$KP" -f "$d" -R -o json
    assert_success
    assert_equal "$stderr" "warning: $d: kubectl cluster-info dump holds no PodDisruptionBudgets or PriorityClasses: add them as another -f (kubectl get pdb,priorityclasses -A -o json)"
    assert_equal "$(jq -r '[.pods[] | .namespace + "/" + .name] | join(" ")' <<<"$output")" \
        'prod/checkout-0 prod/search-0 prod/sidecar-light ml/train-1 batch/backfill-0'
}

@test "cluster-info dump -R plus its PDBs and PriorityClasses: the report of the List" {
    need jq
    local d="$BATS_TEST_TMPDIR/dump"
    make_dump "$d"
    run --separate-stderr "$KP" -f "$CLUSTER" -o wide
    local want=$output
    run --separate-stderr "$KP" -f "$d" -R -f "$d.extra.json" -o wide
    assert_success
    assert_equal "$output" "$want"
    assert_equal "$stderr" ''
}

@test "cluster-info dump without -R: a warning says to add it" {
    need jq
    local d="$BATS_TEST_TMPDIR/dump"
    make_dump "$d"
    run --separate-stderr "$KP" -f "$d"
    assert_success
    assert_equal "${stderr_lines[0]}" "warning: $d is a kubectl cluster-info dump: its pods are in its namespaces' directories, read with -R (--recursive)"
}

@test "explain reads a cluster-info dump's events.json with -R" {
    need jq
    local d="$BATS_TEST_TMPDIR/dump"
    make_dump "$d"
    run --separate-stderr "$KP" explain -f "$d" -R -f "$d.extra.json"
    assert_success
}

@test "explain reads a cluster-info dump as the run does: the same warning for PDBs and PriorityClasses" {
    need jq
    local d="$BATS_TEST_TMPDIR/dump"
    make_dump "$d"
    run --separate-stderr "$KP" explain -f "$d" -R -o json
    assert_success
    assert_equal "$stderr" "warning: $d: kubectl cluster-info dump holds no PodDisruptionBudgets or PriorityClasses: add them as another -f (kubectl get pdb,priorityclasses -A -o json)"
    run --separate-stderr "$KP" explain -f "$d" -f "$d.extra.json" -R -o json
    assert_success
    assert_equal "$stderr" ""
}
