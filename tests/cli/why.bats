#!/usr/bin/env bats
# why.bats - issue 26: answers honest at a glance (a pod waiting for its
# victims, a sampled nomination, which pod a --fail-on matched, grouped
# --explain-nodes, -o summary totals, progress on a terminal) and the
# numbers behind "why does this pod not fit".
#
# KP_BIN overrides the binary under test (default build/kubectl-preempt).

load '../helpers/common'

CLUSTER="$ROOT/examples/cluster.json"
NA="$ROOT/tests/fixtures/notanalysed/cluster.json"

@test "a pod waiting for its terminating victims shows waiting(N) under VICTIMS, not 0" {
    run --separate-stderr "$KP" -f "$NA" waiter
    assert_success
    assert_line --index 1 --regexp '^default +waiter +1000 +NotEligible +node1 +waiting\(1\) +0$'
    run --separate-stderr "$KP" -f "$NA" waiter -o wide
    assert_line --index 1 --regexp '^default +waiter +1000 +NotEligible +node1 +waiting\(1\) +0 '
    # preemptionPolicy Never waits for nothing: 0 as before
    run "$KP" -f "$CLUSTER" batch/backfill-0
    assert_line --index 1 --regexp '^batch +backfill-0 +500 +NotEligible +<none> +0 +0$'
}

@test "a sampled nomination is marked in the default table and summarised once under it" {
    run --separate-stderr "$KP" -f "$CLUSTER" \
        --min-candidate-nodes-absolute 1 --min-candidate-nodes-percentage 0
    assert_success
    assert_line --index 1 --regexp '^prod +checkout-0 +1000000 +Preempts +node-a\* +2 +1$'
    assert_line --index 6 '* 2 of 2 preemption(s): the nominated node is the best of 1 candidates DryRunPreemption found among 3 potential nodes before it stopped; kube-scheduler starts at a random offset, so it may nominate another node (--offset, -o wide, JSON "sampled")'
    assert_equal "${#lines[@]}" 7
    # not sampled: no marker, no footnote (the table as before)
    run "$KP" -f "$CLUSTER"
    refute_output --partial '*'
    # --no-headers keeps cells plain for scripts
    run "$KP" -f "$CLUSTER" --no-headers \
        --min-candidate-nodes-absolute 1 --min-candidate-nodes-percentage 0
    refute_output --partial '*'
}
