#!/usr/bin/env bats
# not_analysed.bats - nothing skipped silently: pods named or matched but
# not analysed are named on stderr with their reason and listed in
# -o json's notAnalysed; an empty report says so; a NotEligible pod shows
# its nominated node and whom it waits for; -o json carries the warnings
# and the sampling note of -o wide.
#
# tests/fixtures/notanalysed/cluster.json: node1 (one pod slot) runs p1,
# terminating as a preemption victim; "waiter" (priority 1000) is
# nominated to node1 and waits for it; "gated" (schedulingGates),
# "custom" (schedulerName my-scheduler), "leaving" (deletionTimestamp)
# and "done" (Succeeded) are unbound but skipped; "other/gated-2" is gated
# in another namespace.
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

NA="$ROOT/tests/fixtures/notanalysed/cluster.json"
CLUSTER="$ROOT/examples/cluster.json"

@test "each skipped pod the narrowing matches gets one stderr line with its reason" {
    run --separate-stderr "$KP" -f "$NA" -n default
    assert_success
    assert_equal "$stderr" "\
warning: pod 'default/gated' not analysed: SchedulingGated (spec.schedulingGates is not empty)
warning: pod 'default/custom' not analysed: OtherScheduler (spec.schedulerName is 'my-scheduler')
warning: pod 'default/leaving' not analysed: Terminating (metadata.deletionTimestamp is set)
warning: pod 'default/done' not analysed: Terminal (status.phase is Succeeded)"
    assert_line --index 1 --regexp '^waiter +1000 +NotEligible +node1 '
}

@test "-o json lists them under notAnalysed, and the warnings under warnings" {
    need jq
    run --separate-stderr "$KP" -f "$NA" -o json
    assert_success
    assert_equal "$(jq -c '.notAnalysed' <<<"$output")" \
        '[{"namespace":"default","name":"gated","reason":"SchedulingGated"},{"namespace":"default","name":"custom","reason":"OtherScheduler"},{"namespace":"default","name":"leaving","reason":"Terminating"},{"namespace":"default","name":"done","reason":"Terminal"},{"namespace":"other","name":"gated-2","reason":"SchedulingGated"}]'
    # the warnings of stderr, the same lines without "warning: "
    assert_equal "$(jq -r '.warnings[]' <<<"$output")" \
        "$(sed 's/^warning: //' <<<"$stderr")"
}

@test "-l narrows the skipped pods as it narrows the report" {
    need jq
    run --separate-stderr "$KP" -f "$NA" -l app=batch -o json
    assert_success
    assert_equal "$(jq -c '[.notAnalysed[].name]' <<<"$output")" \
        '["gated","custom"]'
    assert_equal "$(wc -l <<<"$stderr")" 2
}

@test "pods named on the command line: Bound too, and no error" {
    need jq
    run --separate-stderr "$KP" -f "$NA" p1 pod/gated waiter -o json
    assert_success
    assert_equal "$(jq -c '[.notAnalysed[] | [.name, .reason]]' <<<"$output")" \
        '[["p1","Terminating"],["gated","SchedulingGated"]]'
    assert_equal "$(jq -c '[.pods[].name]' <<<"$output")" '["waiter"]'
    run --separate-stderr "$KP" -f "$CLUSTER" prod/web-0 -o json
    assert_success
    assert_equal "$(jq -c '.notAnalysed' <<<"$output")" \
        '[{"namespace":"prod","name":"web-0","reason":"Bound"}]'
    assert_equal "$stderr" "warning: pod 'prod/web-0' not analysed: Bound (bound to node node-a)"
}

@test "a pod that does not exist is still an error" {
    run --separate-stderr "$KP" -f "$NA" nope
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: pod 'default/nope' not found"
}

@test "an empty report says No pending pods found, and where" {
    run --separate-stderr "$KP" -f "$NA" -n other
    assert_success
    assert_output ''
    assert_equal "${stderr_lines[1]}" "No pending pods found in namespace other."
    run --separate-stderr "$KP" -f "$CLUSTER" -l app=nothing
    assert_success
    assert_output ''
    assert_equal "$stderr" "No pending pods found in any namespace."
    run --separate-stderr "$KP" -f "$CLUSTER" -l app=nothing -o summary
    assert_equal "$stderr" "No pending pods found in any namespace."
}

@test "-o json with nothing to report prints the empty report, no notice" {
    need jq
    run --separate-stderr "$KP" -f "$CLUSTER" -l app=nothing -o json
    assert_success
    assert_equal "$(jq -c '[.pods, .notAnalysed, .warnings]' <<<"$output")" \
        '[[],[],[]]'
    assert_equal "$stderr" ''
}

@test "a NotEligible pod shows its nominated node and the terminating pods it waits for" {
    need jq
    run --separate-stderr "$KP" -f "$NA" waiter -o json
    assert_success
    assert_equal "$(jq -c '.pods[0] | [.result, .nominatedNode, .waitingFor]' <<<"$output")" \
        '["NotEligible","node1",[{"namespace":"default","name":"p1"}]]'
    run --separate-stderr "$KP" -f "$NA" waiter -o wide
    assert_success
    assert_line --index 1 --regexp 'NotEligible +node1 .*not eligible due to a terminating pod on the nominated node\. \[waiting for the terminating pod\(s\) default/p1 on nominated node node1\]$'
}

@test "a NotEligible pod with preemptionPolicy Never waits for nothing" {
    need jq
    run "$KP" -f "$CLUSTER" batch/backfill-0 -o json
    assert_success
    assert_equal "$(jq -c '.pods[0] | [.nominatedNode, .waitingFor]' <<<"$output")" \
        '[null,[]]'
}

@test "-o json says when DryRunPreemption sampled, as -o wide notes it" {
    need jq
    run "$KP" -f "$CLUSTER" prod/checkout-0 -o json \
        --min-candidate-nodes-absolute 1 --min-candidate-nodes-percentage 0
    assert_success
    assert_equal "$(jq -c '.pods[0] | [.sampled, .potentialNodes, .numCandidates]' <<<"$output")" \
        '[true,3,1]'
    run "$KP" -f "$CLUSTER" prod/checkout-0 -o wide \
        --min-candidate-nodes-absolute 1 --min-candidate-nodes-percentage 0
    assert_line --index 1 --partial '[sampled: up to 1 candidates from 3 potential nodes]'
    run "$KP" -f "$CLUSTER" prod/checkout-0 -o json
    assert_equal "$(jq -c '.pods[0] | [.sampled, .potentialNodes]' <<<"$output")" \
        '[false,null]'
}

@test "-o json carries the warnings that stderr gets" {
    need jq
    run --separate-stderr "$KP" -f "$ROOT/tests/ok-with-warnings/pod_on_missing_node.json" -o json
    assert_success
    assert_equal "$stderr" "warning: pod 'prod/web-1' is bound to node 'node-9', which is not in the snapshot; it is ignored"
    assert_equal "$(jq -r '.warnings[]' <<<"$output")" "${stderr#warning: }"
}
