#!/usr/bin/env bats
# fix_queue.bats - issue 26: in queue mode a fix is re-run at the pod's
# turn in the queue, the pods before it placed as the run decided
# (kp_analyze_at_turn), and the outcome shown is that re-run's: each one
# applied here by hand to the input and run through the whole queue.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/examples/cluster.json"
DETAIL="$ROOT/tests/fixtures/why/detail.yaml"
BOUND="$ROOT/tests/fixtures/why/bound.yaml"
PODS="$ROOT/tests/fixtures/why/pods.yaml"

run_all() { "$KP" -f "$CLUSTER" -f "$BOUND" --add "$1" --add "$PODS" "${@:2}" 2>/dev/null; }

@test "queue mode: relaxing a spread constraint lands where the queue leaves room (node-a), not where the pod alone would (node-c)" {
    need jq
    run run_all "$DETAIL" -o json prod/spread-1
    assert_equal "$(jq -c '.pods[0].fixes' <<<"$output")" \
        '[{"change":"whenUnsatisfiable","topologyKey":"topology.example.com/rack","value":"ScheduleAnyway","result":"Fits","node":"node-a"}]'
    run run_all "$DETAIL" --mode independent -o json prod/spread-1
    assert_equal "$(jq -c '[.pods[0].fixes[] | [.result, .node]]' <<<"$output")" '[["Fits","node-c"]]'
    # by hand: the change in the input, the whole queue run
    sed 's|topology.example.com/rack, whenUnsatisfiable: DoNotSchedule|topology.example.com/rack, whenUnsatisfiable: ScheduleAnyway|' \
        "$DETAIL" >"$BATS_TEST_TMPDIR/relaxed.yaml"
    run run_all "$BATS_TEST_TMPDIR/relaxed.yaml" -o json
    assert_equal "$(jq -c '.pods[] | select(.name == "spread-1") | [.result, .node]' <<<"$output")" '["Fits","node-a"]'
    run run_all "$DETAIL" -o describe prod/spread-1
    assert_line "Fixes:       each re-run at the pod's turn in the queue (the pods before it as decided)"
    assert_line '  whenUnsatisfiable: ScheduleAnyway (topologyKey topology.example.com/rack): Fits on node node-a (verified)'
}

@test "queue mode: a raised priority takes an earlier turn; its outcome is the one the queue gives" {
    need jq
    run run_all "$DETAIL" -o json prod/spread-0
    assert_equal "$(jq -c '.pods[0].fixes[] | select(.change == "priorityClass")' <<<"$output")" \
        '{"change":"priorityClass","priorityClassName":"prod-critical","priority":"1000000","result":"Preempts","node":"node-a","victims":1,"pdbViolations":1}'
    awk '/name: spread-0/ {p = 1} p && /priorityClassName: prod$/ {sub(/prod$/, "prod-critical"); p = 0} {print}' \
        "$DETAIL" >"$BATS_TEST_TMPDIR/raised.yaml"
    run run_all "$BATS_TEST_TMPDIR/raised.yaml" -o json
    assert_equal "$(jq -c '.pods[] | select(.name == "spread-0") | [.queuePosition, .result, .nominatedNode, [.victims[].name], .pdbViolations]' <<<"$output")" \
        '[2,"Preempts","node-a",["web-0"],1]'
}

@test "queue mode: a fix that helps the pod alone but not at its turn is not offered" {
    need jq
    # after checkout-0 and search-0 preempt, no m6i node has room for train-1
    run "$KP" -f "$CLUSTER" -o json ml/train-1
    assert_equal "$(jq -c '.pods[0].fixes' <<<"$output")" '[]'
    jq '(.items[] | select(.kind == "Pod" and .metadata.name == "train-1")
         | .spec.nodeSelector["node.kubernetes.io/instance-type"]) = "m6i.xlarge"' \
        "$CLUSTER" >"$BATS_TEST_TMPDIR/fixed.json"
    run "$KP" -f "$BATS_TEST_TMPDIR/fixed.json" -o json ml/train-1
    assert_equal "$(jq -c '.pods[0].result' <<<"$output")" '"Unschedulable"'
    run "$KP" -f "$CLUSTER" --mode independent -o json ml/train-1
    assert_equal "$(jq -c '[.pods[0].fixes[] | .result]' <<<"$output")" '["Preempts","Preempts"]'
}

@test "queue mode: the raise that helps is the one whose earlier turn comes before the preemptor that takes the node" {
    need jq
    local early="$ROOT/tests/fixtures/why/early.yaml"
    run "$KP" -f "$CLUSTER" --add "$early" -o json prod/early-0
    # prod-critical queues it after checkout-0 (nominated to node-a): no
    # room; system-cluster-critical queues it first
    assert_equal "$(jq -c '[.pods[0].fixes[] | select(.change == "priorityClass")]' <<<"$output")" \
        '[{"change":"priorityClass","priorityClassName":"system-cluster-critical","priority":"2000000000","result":"Preempts","node":"node-a","victims":1,"pdbViolations":0}]'
    # a copy of node-a draws checkout-0 away: early-0 then preempts on node-a
    assert_equal "$(jq -c '.pods[0].fixes[] | select(.change == "addNode")' <<<"$output")" \
        '{"change":"addNode","like":"node-a","result":"Preempts","node":"node-a","victims":1,"pdbViolations":1}'
    run "$KP" -f "$CLUSTER" --add "$early" --add-node node-a -o json
    assert_equal "$(jq -c '[.pods[] | select(.name == "early-0" or .name == "checkout-0") | [.name, .result, .node // .nominatedNode, (.victims | length), .pdbViolations]]' <<<"$output")" \
        '[["checkout-0","Fits","node-a-copy-1",0,0],["early-0","Preempts","node-a",1,1]]'
    for pc in prod-critical system-cluster-critical; do
        sed "s/priorityClassName: prod\$/priorityClassName: $pc/" "$early" >"$BATS_TEST_TMPDIR/$pc.yaml"
    done
    run "$KP" -f "$CLUSTER" --add "$BATS_TEST_TMPDIR/prod-critical.yaml" -o json
    assert_equal "$(jq -c '.pods[] | select(.name == "early-0") | [.queuePosition, .result]' <<<"$output")" '[2,"Unschedulable"]'
    run "$KP" -f "$CLUSTER" --add "$BATS_TEST_TMPDIR/system-cluster-critical.yaml" -o json
    assert_equal "$(jq -c '.pods[] | select(.name == "early-0") | [.queuePosition, .result, .nominatedNode, (.victims | length)]' <<<"$output")" \
        '[1,"Preempts","node-a",1]'
}

ADDNODE="$ROOT/tests/fixtures/why/addnode.yaml"

@test "add a node like N: alone, a copy of node-a takes the pod; in the queue checkout-0 takes the copy first, so no such fix" {
    need jq
    run "$KP" -f "$CLUSTER" --add "$ADDNODE" --mode independent -o json batch/wide-0
    assert_equal "$(jq -c '.pods[0].fixes[] | select(.change == "addNode")' <<<"$output")" \
        '{"change":"addNode","like":"node-a","result":"Fits","node":"node-a-copy-1"}'
    run "$KP" -f "$CLUSTER" --add "$ADDNODE" --mode independent -o describe batch/wide-0
    assert_line '  add a node like node-a (--add-node node-a): Fits on node node-a-copy-1 (verified)'
    # by hand: the same run with --add-node node-a
    run "$KP" -f "$CLUSTER" --add "$ADDNODE" --add-node node-a --mode independent -o json
    assert_equal "$(jq -c '.pods[] | select(.name == "wide-0") | [.result, .node]' <<<"$output")" '["Fits","node-a-copy-1"]'
    # from standard input the files cannot be read again: not tried
    run "$KP" -f - --add "$ADDNODE" --mode independent -o json batch/wide-0 <"$CLUSTER"
    assert_equal "$(jq -c '[.pods[0].fixes[] | .change]' <<<"$output")" '["priorityClass"]'
    # queue mode: not offered, and by hand the queue gives Unschedulable
    run "$KP" -f "$CLUSTER" --add "$ADDNODE" -o json batch/wide-0
    assert_equal "$(jq -c '[.pods[0].fixes[] | .change]' <<<"$output")" '["priorityClass"]'
    run "$KP" -f "$CLUSTER" --add "$ADDNODE" --add-node node-a -o json
    assert_equal "$(jq -c '[.pods[] | select(.name == "wide-0" or .name == "checkout-0") | [.name, .result, .node]]' <<<"$output")" \
        '[["checkout-0","Fits","node-a-copy-1"],["wide-0","Unschedulable",null]]'
}

@test "add a node like N: none for a pod larger than any node or bound to labels no node has" {
    need jq
    run "$KP" -f "$CLUSTER" --add "$PODS" --mode independent -o json prod/big-0
    refute_output --partial addNode
    run "$KP" -f "$CLUSTER" --mode independent -o json ml/train-1
    refute_output --partial addNode
}

@test "--add-node of a node without labels adds it (it crashed: rename_hostname copied no labels from NULL)" {
    need jq
    jq .snapshot "$ROOT/tests/cases/defaultpreemption/pod_with_tied_priority_is_still_unschedulable.json" \
        >"$BATS_TEST_TMPDIR/nolabels.json"
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/nolabels.json" --add-node node1 -o json
    assert_success
    assert_equal "$(jq -c '.pods[0] | [.result, .node]' <<<"$output")" '["Fits","node1-copy-1"]'
    # and the fix that tries it
    run --separate-stderr "$KP" -f "$BATS_TEST_TMPDIR/nolabels.json" -o json
    assert_success
    assert_equal "$(jq -c '.pods[0].fixes[] | select(.change == "addNode")' <<<"$output")" '{"change":"addNode","like":"node1","result":"Fits","node":"node1-copy-1"}'
}
