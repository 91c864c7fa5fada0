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
