#!/usr/bin/env bats
# explain_nodes.bats - --explain-nodes: under each reported pod, every
# node's filter status and what DryRunPreemption made of it, as lines in
# the table and as "nodes" in -o json; the message's histograms are these
# per-node reasons counted; without the flag nothing changes (the
# byte-for-byte checks of output.bats still hold).
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/examples/cluster.json"
VOLUMES="$ROOT/tests/fixtures/volumes/cluster.json"
ADD="$ROOT/tests/fixtures/add"

setup() {
    OUT="$BATS_TEST_TMPDIR/stdout"
    ERR="$BATS_TEST_TMPDIR/stderr"
}

# run_kp ARGS...: stdout in $OUT, stderr in $ERR, exit status in $status.
run_kp() {
    status=0
    timeout -k 5 20 "$KP" "$@" >"$OUT" 2>"$ERR" || status=$?
}

# The pods whose message the per-node reasons do not re-aggregate to:
# "0/N nodes are available: <count> <reason>, ..." counts every node's
# filter reasons (sorted as strings, as FitError sorts them), and for an
# Unschedulable pod "preemption: 0/N nodes are available: ..." counts the
# dry run's.  Prints "checked N" last.
JQ_REAGGREGATE='
def hist(f): [.nodes[] | f | select(. != null) | .reasons[]]
    | group_by(.) | map("\(length) \(.[0])") | sort | join(", ");
def avail(f): "0/\(.nodes | length) nodes are available: \(hist(f)).";
[.pods[] | select(.result != "Fits")] as $pods
| ($pods[] | avail(.) as $want
   | select(.message | startswith($want) | not)
   | "filter: \(.name): \(.message) <> \($want)"),
  ($pods[] | select(.result == "Unschedulable")
   | ("preemption: " + avail(.preemption)) as $want
   | select(.message | contains($want) | not)
   | "preemption: \(.name): \(.message) <> \($want)"),
  "checked \($pods | length)"'

@test "--explain-nodes -v prints a line per node under each pod, input order" {
    run_kp -f "$CLUSTER" --explain-nodes -v prod/checkout-0 ml/train-1
    [ "$status" -eq 0 ]
    run cat "$OUT"
    assert_output - <<'EOT'
NAMESPACE   NAME         PRIORITY   RESULT          NOMINATED-NODE   VICTIMS   PDB-VIOLATIONS
prod        checkout-0   1000000    Preempts        node-a           2         1
  node-a   NodeResourcesFit   Insufficient cpu                   preemption: candidate (2 victims, 1 PDB violation), nominated
  node-b   NodeResourcesFit   Insufficient cpu                   preemption: candidate (2 victims, 1 PDB violation)
  node-c   NodeResourcesFit   Insufficient cpu                   preemption: candidate (3 victims, 1 PDB violation)
  gpu-1    TaintToleration    node(s) had untolerated taint(s)   preemption: notTried (Preemption is not helpful for scheduling)
ml          train-1      100000     Unschedulable   <none>           0         0
  node-a   NodeAffinity      node(s) didn't match Pod's node affinity/selector   preemption: notTried (Preemption is not helpful for scheduling)
  node-b   NodeAffinity      node(s) didn't match Pod's node affinity/selector   preemption: notTried (Preemption is not helpful for scheduling)
  node-c   NodeAffinity      node(s) didn't match Pod's node affinity/selector   preemption: notTried (Preemption is not helpful for scheduling)
  gpu-1    TaintToleration   node(s) had untolerated taint(s)                    preemption: notTried (Preemption is not helpful for scheduling)
EOT
    [ ! -s "$ERR" ]
}

@test "--explain-nodes: a pod that fits shows the chosen node, no preemption" {
    run_kp -f "$CLUSTER" --explain-nodes -v --no-headers prod/sidecar-light
    [ "$status" -eq 0 ]
    run cat "$OUT"
    assert_output - <<'EOT'
prod   sidecar-light   100000   Fits   <none>   0   0
  node-a   -                 fits (chosen)
  node-b   -                 fits
  node-c   -                 fits
  gpu-1    TaintToleration   node(s) had untolerated taint(s)
EOT
}

@test "--explain-nodes -o wide: the wide rows unchanged, node lines under them" {
    run_kp -f "$CLUSTER" -o wide
    cp "$OUT" "$BATS_TEST_TMPDIR/wide"
    run_kp -f "$CLUSTER" -o wide --explain-nodes -v
    [ "$status" -eq 0 ]
    run diff <(grep -v '^  ' "$OUT") "$BATS_TEST_TMPDIR/wide"
    assert_success
    # 5 pods, 4 nodes each
    [ "$(grep -c '^  ' "$OUT")" -eq 20 ]
    run grep -F '  node-a   NodeResourcesFit   Insufficient cpu                   preemption: noVictimsHelp (No preemption victims found for incoming pod)' "$OUT"
    assert_success
}

@test "--explain-nodes -o json: each node's plugin, reasons, code and dry-run outcome" {
    need jq
    run_kp -f "$CLUSTER" -o json --explain-nodes
    [ "$status" -eq 0 ]
    run jq -c '.pods[] | select(.name == "checkout-0") | .nodes[]' "$OUT"
    assert_success
    assert_output - <<'EOT'
{"node":"node-a","code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"],"preemption":{"result":"candidate","code":"Success","plugin":null,"reasons":[],"victims":2,"pdbViolations":1,"nominated":true}}
{"node":"node-b","code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"],"preemption":{"result":"candidate","code":"Success","plugin":null,"reasons":[],"victims":2,"pdbViolations":1,"nominated":false}}
{"node":"node-c","code":"Unschedulable","plugin":"NodeResourcesFit","reasons":["Insufficient cpu"],"preemption":{"result":"candidate","code":"Success","plugin":null,"reasons":[],"victims":3,"pdbViolations":1,"nominated":false}}
{"node":"gpu-1","code":"UnschedulableAndUnresolvable","plugin":"TaintToleration","reasons":["node(s) had untolerated taint(s)"],"preemption":{"result":"notTried","code":"UnschedulableAndUnresolvable","plugin":null,"reasons":["Preemption is not helpful for scheduling"]}}
EOT
    # search-0, after checkout-0: no lower-priority pod left on node-a
    run jq -c '.pods[] | select(.name == "search-0") | .nodes[0].preemption' "$OUT"
    assert_output '{"result":"noVictimsHelp","code":"UnschedulableAndUnresolvable","plugin":null,"reasons":["No preemption victims found for incoming pod"]}'
    # fits and not eligible: no dry run
    run jq -c '[.pods[] | select(.result == "Fits" or .result == "NotEligible")
                | .nodes[].preemption] | unique' "$OUT"
    assert_output '[null]'
    run jq -c '.pods[] | select(.name == "sidecar-light") | [.nodes[].code]' "$OUT"
    assert_output '["Success","Success","Success","UnschedulableAndUnresolvable"]'
}

@test "--explain-nodes adds only the nodes field to the JSON" {
    need jq
    run_kp -f "$CLUSTER" -o json
    cp "$OUT" "$BATS_TEST_TMPDIR/plain.json"
    run jq 'any(.pods[]; has("nodes"))' "$OUT"
    assert_output false
    run_kp -f "$CLUSTER" -o json --explain-nodes
    run diff <(jq -S 'del(.pods[].nodes)' "$OUT") \
        <(jq -S . "$BATS_TEST_TMPDIR/plain.json")
    assert_success
    run jq -c '[.pods[] | (.nodes | length)]' "$OUT"
    assert_output '[4,4,4,4,4]'
}

@test "per-node reasons re-aggregate to the message's counts (example, queue mode)" {
    need jq
    run_kp -f "$CLUSTER" -o json --explain-nodes
    [ "$status" -eq 0 ]
    run jq -r "$JQ_REAGGREGATE" "$OUT"
    assert_success
    assert_output 'checked 4'
}

@test "per-node reasons re-aggregate to the message's counts (independent mode, --add, volumes)" {
    need jq
    run_kp -f "$CLUSTER" -o json --explain-nodes --mode independent
    run jq -r "$JQ_REAGGREGATE" "$OUT"
    assert_output 'checked 4'
    run_kp -f "$CLUSTER" -o json --explain-nodes --add "$ADD/deployment.yaml"
    run jq -r "$JQ_REAGGREGATE" "$OUT"
    assert_output 'checked 7'
    run_kp -f "$VOLUMES" -o json --explain-nodes
    run jq -r "$JQ_REAGGREGATE" "$OUT"
    assert_output 'checked 2'
    run jq -c '.pods[] | select(.name == "db-0") | [.nodes[] | [.node, .plugin, .preemption.result]]' "$OUT"
    assert_output '[["node-a","NodeResourcesFit","noVictimsHelp"],["node-b","VolumeBinding","notTried"],["node-c","VolumeBinding","notTried"]]'
}

@test "--explain-nodes with -o summary is a usage error" {
    run_kp -f "$CLUSTER" -o summary --explain-nodes
    [ "$status" -eq 2 ]
    [ ! -s "$OUT" ]
    run cat "$ERR"
    assert_output 'error: --explain-nodes explains each pod: it needs -o table, wide or json'
}

@test "explain --explain-nodes is a usage error" {
    run_kp explain -f "$CLUSTER" --explain-nodes
    [ "$status" -eq 2 ]
    [ ! -s "$OUT" ]
    run cat "$ERR"
    assert_output 'error: explain looks at the past: --explain-nodes does not apply'
}
